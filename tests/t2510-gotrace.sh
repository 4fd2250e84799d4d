#!/bin/sh
test_description='Go execution traces: detection, the four blocking profiles as go tool trace -pprof computes them'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/go
R=$REF/gotrace
D=$SRCDIR/tests/data

# "name flat cum" per function, in nanoseconds, sorted: from go tool pprof -top -unit=ns
# (pprof_rows) and from our CSV (our_rows)
pprof_rows () {
	awk 'NF >= 6 && $2 ~ /%$/ {
		name = $6; for (i = 7; i <= NF; i++) name = name " " $i
		f = $1; c = $4; sub(/ns$/, "", f); sub(/ns$/, "", c)
		print name, f, c }' "$1" | LC_ALL=C sort
}
our_rows () {
	awk 'NR > 1 {
		s = $0; sub(/^"/, "", s); i = index(s, "\","); name = substr(s, 1, i - 1)
		n = split(substr(s, i + 2), v, ","); print name, v[3], v[5] }' | LC_ALL=C sort
}

test_expect_success 'every Go trace header is detected and its version named' '
	for f in "$G/trace-blocking.trace" "$G/trace-many.trace" "$G/trace-gc.trace"; do
		"$PROFTOOL" info "$f" >out &&
		grep -qx "Format: gotrace" out &&
		grep -qx "Meta go_trace_version: 1.19" out || exit 1
	done'

for s in blocking many gc; do
	for t in net sync syscall sched; do
		test_expect_success "$s: $t flat and cum of every function equal go tool trace -pprof=$t" '
			pprof_rows "$R/trace-'$s'.'$t'.pprof-top.txt" >expect &&
			"$PROFTOOL" top -n 0 --format csv --sample-index '$t' \
				"$G/trace-'$s'.trace" | our_rows >actual &&
			test_cmp expect actual'
	done
done

test_expect_success 'the references are not empty where the program blocks' '
	for t in net sync syscall sched; do
		test -n "$(pprof_rows "$R/trace-blocking.$t.pprof-top.txt")" || exit 1
	done'

if command -v go >/dev/null 2>&1; then
	for t in net sync syscall sched; do
		test_expect_success "go tool trace -pprof=$t run now gives the committed reference" '
			go tool trace -pprof='$t' "$G/trace-blocking.trace" >p.pb &&
			TZ=UTC go tool pprof -top -unit=ns -nodecount=100000 -nodefraction=0 \
				-edgefraction=0 -sample_index=delay p.pb >now 2>/dev/null &&
			pprof_rows now >expect &&
			pprof_rows "$R/trace-blocking.'$t'.pprof-top.txt" >actual &&
			test_cmp expect actual'
	done
fi

# tests/data/gotrace-counted.trace (tests/gotrace/craft.py): g2 made at 1010 ns by
# main.main, started at 1030, blocked receiving at 1130, unblocked from
# runtime.chansend1 at 2130, started again at 2135
test_expect_success 'crafted trace: the delays counted by hand' '
	cat >expect <<-\EOT &&
	main.main 20 25
	main.worker 0 1000
	runtime.chanrecv1 1000 1000
	runtime.chansend1 5 5
	EOT
	for t in sync sched; do
		"$PROFTOOL" top -n 0 --format csv --sample-index $t "$D/gotrace-counted.trace" |
			our_rows || exit 1
	done | LC_ALL=C sort >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" top -n 0 --format csv --sample-index net "$D/gotrace-counted.trace" >net &&
	test $(wc -l <net) = 1'

test_expect_success 'the default type is sync' '
	"$PROFTOOL" info "$D/gotrace-counted.trace" | grep -x "  1: sync .*(default)"'

test_expect_success 'a trace of a version the reader does not know: one line naming it and go tool trace' '
	(PATH=/nonexistent; export PATH; cd "$D" &&
	 "$PROFTOOL" top gotrace-future-version.trace >"$OLDPWD/out" 2>"$OLDPWD/err");
	test $? = 1 && test ! -s out &&
	echo "proftool: gotrace-future-version.trace: byte 0: Go 1.99 trace: proftool reads the traces of Go 1.11 to 1.21 itself; run '\''go tool trace -pprof=TYPE gotrace-future-version.trace'\'' for TYPE net, sync, syscall and sched, or put go on PATH" >expect &&
	test_cmp expect err'

test_expect_success 'reports, writers and diff work on a trace' '
	"$PROFTOOL" convert -o t.html "$G/trace-blocking.trace" &&
	test -s t.html &&
	"$PROFTOOL" convert --to collapsed --sample-index net "$G/trace-blocking.trace" >c &&
	grep -q "internal/poll" c &&
	"$PROFTOOL" diff "$G/trace-blocking.trace" "$G/trace-blocking.trace" >d &&
	test -s d &&
	"$PROFTOOL" tree --sample-index syscall "$G/trace-blocking.trace" >t &&
	grep -q syscall.Fsync t'

test_done
