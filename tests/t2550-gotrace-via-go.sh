#!/bin/sh
test_description='Go execution traces through go tool trace: --via-go, and traces of a version the reader does not know'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/go
R=$REF/gotrace
D=$SRCDIR/tests/data

# "name flat cum" per function in nanoseconds, from go tool pprof -top -unit=ns and from
# our CSV (as t2510)
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

test_expect_success '--via-go without go on PATH: one line, exit 1' '
	(PATH=/nonexistent; export PATH
	 "$PROFTOOL" top --via-go "$G/trace-blocking.trace" >out 2>err);
	test $? = 1 && test ! -s out &&
	test_one_line_err "proftool: $G/trace-blocking.trace: byte 0: --via-go: no go command on PATH"'

test_expect_success 'goroutines needs a trace read natively: one line, exit 1' '
	test_expect_code 1 "$PROFTOOL" goroutines --via-go "$G/trace-blocking.trace" &&
	test_one_line_err "proftool: $G/trace-blocking.trace: byte 0: Go 1.19 trace: the goroutine analysis needs a trace proftool reads itself (Go 1.11 to 1.21); drop --via-go"'

if ! command -v go >/dev/null 2>&1; then
	test_skip 'the go tool trace adapter' 'no go on PATH (Debian package golang-go)'
	test_done
	exit
fi
REAL_GO=$(command -v go)
export REAL_GO

for t in net sync syscall sched; do
	test_expect_success "--via-go: $t of every function equals go tool trace -pprof=$t" '
		pprof_rows "$R/trace-blocking.'$t'.pprof-top.txt" >expect &&
		"$PROFTOOL" top -n 0 --format csv --via-go --sample-index '$t' \
			"$G/trace-blocking.trace" 2>err | our_rows >actual &&
		test_cmp expect actual &&
		test_one_line_err "proftool: $G/trace-blocking.trace: byte 0: warning: Go 1.19 trace read through go tool trace -pprof"'
done

test_expect_success '--via-go: the version is named and the types are the reader'\''s' '
	"$PROFTOOL" info --via-go "$G/trace-many.trace" >out 2>/dev/null &&
	grep -qx "Meta go_trace_version: 1.19" out &&
	grep -q "^  1: sync .*(default)" out'

# a trace of a version this go does not read either: one line with go's own reason
test_expect_success 'a version go tool trace does not know either: go'\''s reason in one line' '
	{ printf "go 1.99 trace\0\0\0"; tail -c +17 "$G/trace-blocking.trace"; } >f.trace &&
	test_expect_code 1 "$PROFTOOL" top f.trace &&
	test "$(wc -l <err)" = 1 &&
	grep -q "^proftool: f.trace: go tool trace -pprof=net failed: .*unsupported trace file version 1.99" err'

# tests/gotrace/go-newer.sh as `go`: a go that reads "1.99" traces (its events are 1.19's)
test_expect_success 'a version the reader does not know goes to go tool trace by itself, four calls, one note' '
	mkdir bin && cp "$SRCDIR/tests/gotrace/go-newer.sh" bin/go && chmod +x bin/go &&
	{ printf "go 1.99 trace\0\0\0"; tail -c +17 "$G/trace-blocking.trace"; } >f.trace &&
	for t in net sync syscall sched; do
		pprof_rows "$R/trace-blocking.$t.pprof-top.txt" >expect.$t &&
		PATH=$PWD/bin:$PATH GO_LOG=$PWD/log "$PROFTOOL" top -n 0 --format csv \
			--sample-index $t f.trace 2>err | our_rows >actual.$t &&
		test_cmp expect.$t actual.$t &&
		test_one_line_err "proftool: f.trace: byte 0: warning: Go 1.99 trace read through go tool trace -pprof" ||
		exit 1
	done &&
	test $(grep -c "^tool trace -pprof=" log) = 16'

test_expect_success 'the adapter leaves nothing in TMPDIR' '
	mkdir tmp &&
	TMPDIR=$PWD/tmp "$PROFTOOL" top --via-go "$G/trace-blocking.trace" >/dev/null 2>&1 &&
	test -z "$(ls tmp)"'

test_done
