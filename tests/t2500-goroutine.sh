#!/bin/sh
test_description='Go text dumps: goroutine debug=2, panics, SIGQUIT, the debug=1 profiles, proftool goroutines'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/go
R=$REF/gotext
ALL="--node-fraction 0 --edge-fraction 0"

# --- detection ---

test_expect_success 'every text dump is detected as its form' '
	for f in goroutine.debug2 panic repanic crash deadlock sigquit; do
		"$PROFTOOL" info "$G/$f.txt" | grep -qx "Format: goroutine" || { echo $f; exit 1; }
	done &&
	for f in goroutine threadcreate block mutex heap; do
		"$PROFTOOL" info "$G/$f.debug1.txt" | grep -qx "Format: gotext" || { echo $f; exit 1; }
	done'

# --- agreement with go tool pprof on the debug=0 profile written at the same moment ---

test_expect_success 'debug=2: total and every non-runtime cum equal go tool pprof -top of debug=0' '
	awk -f "$SRCDIR/tests/gocum.awk" "$R/goroutine-text.pprof-top.all.txt" | sort >expect &&
	grep -q "^main.recvLoop 103$" expect &&
	"$PROFTOOL" top --style pprof $ALL "$G/goroutine.debug2.txt" >top &&
	awk -f "$SRCDIR/tests/gocum.awk" top | sort >actual &&
	test_cmp expect actual'

test_expect_success 'debug=1: total and every non-runtime cum equal go tool pprof -top of debug=0' '
	awk -f "$SRCDIR/tests/gocum.awk" "$R/goroutine-text.pprof-top.all.txt" | sort >expect &&
	"$PROFTOOL" top --style pprof $ALL "$G/goroutine.debug1.txt" >top &&
	awk -f "$SRCDIR/tests/gocum.awk" top | sort >actual &&
	test_cmp expect actual'

test_expect_success 'debug=2: "created by F" is no function row of top or tree; stacks keep it' '
	grep -q "^created by main.park" "$G/goroutine.debug2.txt" &&
	! grep -q "created by" "$R/goroutine-text.pprof-top.all.txt" &&
	"$PROFTOOL" top --style pprof $ALL "$G/goroutine.debug2.txt" >top &&
	! grep -q "created by" top &&
	"$PROFTOOL" top -n 0 --format csv "$G/goroutine.debug2.txt" >top.csv &&
	! grep -q "created by" top.csv &&
	"$PROFTOOL" tree -n 0 "$G/goroutine.debug2.txt" >tree &&
	! grep -q "created by" tree &&
	"$PROFTOOL" convert --to collapsed "$G/goroutine.debug2.txt" | grep -q "^created by main.park;" &&
	"$PROFTOOL" goroutines "$G/goroutine.debug2.txt" | grep -q "^    created by main.park$"'

if command -v go >/dev/null 2>&1; then
	test_expect_success 'go tool pprof run now agrees with the committed reference' '
		(cd "$G" && PPROF_BINARY_PATH=/nonexistent go tool pprof -top -nodefraction=0 \
			-edgefraction=0 -nodecount=100000 goroutine-text.pb.gz 2>/dev/null) |
			awk -f "$SRCDIR/tests/gocum.awk" | sort >expect &&
		awk -f "$SRCDIR/tests/gocum.awk" "$R/goroutine-text.pprof-top.all.txt" | sort >actual &&
		test_cmp expect actual'
fi

# the sums of go tool pprof -raw's sample values, one line per type: "name/unit total"
raw_totals() {
	awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
		s && /^[a-z]/ { n = split($0, names, " ") }
		s && /^ *[0-9]+( +[0-9]+)*:/ { sub(/:.*/, ""); for (i = 1; i <= NF; i++) t[i] += $i }
		END { for (i = 1; i <= n; i++) print names[i], t[i] }' "$1"
}
our_totals() {
	"$PROFTOOL" info "$1" | sed -n "s/^  [0-9]*: \([a-z_]*\) \[\([a-z]*\)\] total \([0-9]*\) .*/\1\/\2 \3/p"
}

for f in block mutex heap; do
	test_expect_success "$f debug=1: sample types and totals equal go tool pprof -raw" '
		raw_totals "$R/'$f'.debug1.pprof-raw.txt" >expect &&
		test -s expect &&
		our_totals "$G/'$f'.debug1.txt" >actual &&
		test_cmp expect actual'
done

test_expect_success 'threadcreate debug=1: a threadcreate/count type, the empty stack kept' '
	our_totals "$G/threadcreate.debug1.txt" >actual &&
	echo "threadcreate/count 7" >expect &&
	test_cmp expect actual'

# --- labels ---

test_expect_success '--tag state=... keeps the goroutines in that state' '
	"$PROFTOOL" top --tag "state=chan receive" "$G/goroutine.debug2.txt" >out &&
	grep -q "^Total: 105$" out &&
	"$PROFTOOL" top --tag state=semacquire "$G/goroutine.debug2.txt" >out &&
	grep -q "^Total: 1$" out'

test_expect_success 'traces shows state and locked labels' '
	"$PROFTOOL" traces --tag locked=thread "$G/goroutine.debug2.txt" >out &&
	grep -q "state:  chan receive" out && grep -q "locked:  thread" out &&
	grep -q "main.pinned" out'

test_expect_success 'wait minutes become a numeric label (derived dump: sed adds "5 minutes")' '
	sed "s/^\(goroutine [0-9]*\) \[select\]:/\1 [select, 5 minutes]:/" \
		"$G/goroutine.debug2.txt" >waited.txt &&
	"$PROFTOOL" top --tag wait=5 waited.txt >out &&
	grep -q "^Total: 2$" out &&
	"$PROFTOOL" goroutines --sort wait waited.txt | sed -n 3p >first &&
	echo "2: select [5 minutes] goroutines 16 17" >expect &&
	test_cmp expect first'

test_expect_success 'panic: the message is kept as metadata, the creator is the root-most frame' '
	"$PROFTOOL" info "$G/panic.txt" >out &&
	grep -q "^Meta panic: runtime error: index out of range \[0\] with length 0$" out &&
	"$PROFTOOL" convert --to collapsed "$G/panic.txt" >out &&
	echo "created by main.crash;main.crash.func1;main.process;main.checkout 1" >expect &&
	test_cmp expect out'

test_expect_success 'SIGQUIT dump: fp= sp= pc= read, register dump skipped, signal kept' '
	"$PROFTOOL" info "$G/sigquit.txt" >out &&
	grep -q "^Meta signal: SIGQUIT: quit$" out &&
	test "$(grep -c "^goroutine [0-9]* \[" "$G/sigquit.txt")" = \
		"$("$PROFTOOL" info "$G/sigquit.txt" | sed -n "s/.*goroutines \[count\] total \([0-9]*\) .*/\1/p")"'

test_expect_success 'Go 1.21 "created by F in goroutine K" names F' '
	printf "goroutine 7 [chan receive]:\nmain.f()\n\t/x/main.go:3 +0x1\ncreated by main.g in goroutine 1\n\t/x/main.go:9 +0x2\n" >new.txt &&
	"$PROFTOOL" convert --to collapsed new.txt >out &&
	echo "created by main.g;main.f 1" >expect && test_cmp expect out'

# --- proftool goroutines ---

test_expect_success 'goroutines: groups by stack, largest first, with states and first ids' '
	"$PROFTOOL" goroutines "$G/goroutine.debug2.txt" >out &&
	sed -n 1p out >head && echo "116 goroutines in 13 groups" >expect && test_cmp expect head &&
	sed -n 3p out | grep -q "^100: chan receive goroutines [0-9 ]* \.\.\.$" &&
	grep -q "^1: chan receive \[locked to thread\] goroutine [0-9]*$" out'

test_expect_success 'goroutines --exact-args: calls with other arguments split a group' '
	"$PROFTOOL" goroutines "$G/goroutine.debug2.txt" | sed -n 1p >a &&
	"$PROFTOOL" goroutines --exact-args "$G/goroutine.debug2.txt" >out &&
	sed -n 1p out >b && ! test_cmp a b 2>/dev/null &&
	grep -q "main.recvLoop(0x" out'

test_expect_success 'goroutines --format json: counts sum to the total, creator marked' '
	"$PROFTOOL" goroutines --format json "$G/goroutine.debug2.txt" >out.json &&
	test "$(jq "[.groups[].count] | add" out.json)" = 116 &&
	test "$(jq ".total" out.json)" = 116 &&
	test "$(jq "[.groups[0].frames[] | select(.creator)] | length" out.json)" = 1 &&
	test "$(jq -r ".groups[0].frames[-1].function" out.json)" = "created by main.park"'

test_expect_success 'goroutines -n 2 prints two groups; --sort takes count or wait only' '
	"$PROFTOOL" goroutines -n 2 "$G/goroutine.debug2.txt" >out &&
	test "$(grep -c "^[0-9]*: " out)" = 2 &&
	test_expect_code 2 "$PROFTOOL" goroutines --sort name "$G/goroutine.debug2.txt"'

# the id of the first goroutine a dump prints (the one that crashed), read with sed
first_id () {
	sed -n "s/^goroutine \([0-9]*\) \[.*/\1/p" "$1" | head -1
}

for f in panic repanic crash deadlock; do
	test_expect_success "goroutines, $f: the reason first, then the crashing goroutine's group" '
		"$PROFTOOL" goroutines "$G/'$f'.txt" >out &&
		head -1 "$G/'$f'.txt" >expect && sed -n 1p out >actual && test_cmp expect actual &&
		test -z "$(sed -n 2p out)" &&
		sed -n 3p out | grep -q "^[0-9]* goroutines in [0-9]* groups$" &&
		sed -n 5p out | grep -q "^[0-9]*: [a-z ,]*goroutines* \([0-9 ]* \)*$(first_id "$G/'$f'.txt")\( \|$\)" &&
		"$PROFTOOL" goroutines --format json "$G/'$f'.txt" >out.json &&
		test "$(jq -r .reason out.json)" = "$(head -1 "$G/'$f'.txt")" &&
		test "$(jq .crashing_goroutine out.json)" = "$(first_id "$G/'$f'.txt")" &&
		test "$(jq "[.groups[] | select(.crashed)] | length" out.json)" = 1 &&
		jq -e ".groups[0].crashed and (.groups[0].ids | index($(first_id "$G/'$f'.txt")))" out.json'
done

test_expect_success 'goroutines, repanic: the rest follow the crashing group, largest first' '
	"$PROFTOOL" goroutines "$G/repanic.txt" >out &&
	grep "^[0-9]*: " out | sed 1d | cut -d: -f1 >counts &&
	sort -rn counts >sorted && test_cmp sorted counts &&
	head -1 counts | grep -qx 3 &&
	"$PROFTOOL" goroutines --sort wait -n 1 "$G/repanic.txt" | sed -n 5p |
		grep -q "^1: running goroutine 1$"'

test_expect_success 'a dump that is no crash has no reason line and nothing marked crashed' '
	"$PROFTOOL" goroutines "$G/sigquit.txt" | sed -n 1p | grep -q "^[0-9]* goroutines in" &&
	"$PROFTOOL" goroutines --format json "$G/goroutine.debug2.txt" >out.json &&
	test "$(jq "has(\"reason\") or any(.groups[]; .crashed)" out.json)" = false'

# --- hostile input ---

test_expect_success 'a truncated dump keeps every goroutine read, the last one partial' '
	head -c 20000 "$G/goroutine.debug2.txt" >cut.txt &&
	"$PROFTOOL" info cut.txt >out &&
	n=$(grep -c "^goroutine [0-9]* \[" cut.txt) &&
	grep -q "goroutines \[count\] total $n " out'

test_expect_success 'every truncation of panic.txt reads or fails with one located line' '
	size=$(wc -c <"$G/panic.txt") && i=1 &&
	while test $i -lt $size; do
		head -c $i "$G/panic.txt" >t.txt
		"$PROFTOOL" top --from goroutine t.txt >/dev/null 2>err
		rc=$?
		case $rc in
		0) ;;
		1) test "$(wc -l <err)" = 1 && grep -Eq "^proftool: t.txt:[0-9]+: " err ||
			{ echo "at $i"; cat err; exit 1; } ;;
		*) echo "exit $rc at $i"; exit 1 ;;
		esac
		i=$((i + VALGRIND_STEP))
	done'

test_expect_success 'a header without frames is one goroutine with an empty stack' '
	printf "goroutine 1 [running]:\n\tgoroutine running on other thread; stack unavailable\n\ngoroutine 2 [select]:\n" >empty.txt &&
	"$PROFTOOL" info empty.txt | grep -q "goroutines \[count\] total 2 "'

test_expect_success 'a frame without its file line is kept with no file' '
	printf "goroutine 1 [select]:\nmain.a()\nmain.b()\n\t/x/b.go:4 +0x1\n" >nofile.txt &&
	"$PROFTOOL" convert --to collapsed nofile.txt >out &&
	echo "main.b;main.a 1" >expect && test_cmp expect out'

test_expect_success 'a very long argument list (1 MB) is read, the arguments dropped' '
	awk "BEGIN { printf \"goroutine 1 [select]:\nmain.a(\"; for (i = 0; i < 100000; i++) printf \"0x%x, \", i; print \"0x0)\"; print \"\t/x/a.go:1 +0x1\" }" >long.txt &&
	"$PROFTOOL" convert --to collapsed long.txt >out &&
	echo "main.a 1" >expect && test_cmp expect out'

test_expect_success 'a 100000-deep stack is read' '
	awk "BEGIN { print \"goroutine 1 [select]:\"; for (i = 0; i < 100000; i++) { print \"main.f\" i \"()\"; print \"\t/x/f.go:\" i+1 \" +0x1\" } print \"created by main.main\"; print \"\t/x/m.go:1 +0x1\" }" >deep.txt &&
	"$PROFTOOL" info deep.txt >out &&
	grep -q "goroutines \[count\] total 1 " out &&
	"$PROFTOOL" top -n 1 --cum deep.txt | grep -q "^ *1 100.00% 100.00% *1 100.00%  main.f0 "'

test_expect_success 'debug=1 with a frame line before any sample fails on that line' '
	printf "goroutine profile: total 1\n#\t0x1\tmain.f+0x1\t/x/f.go:1\n" >bad1.txt &&
	test_expect_code 1 "$PROFTOOL" top bad1.txt &&
	test_one_line_err "proftool: bad1.txt:2: frame line outside a sample"'

test_done
