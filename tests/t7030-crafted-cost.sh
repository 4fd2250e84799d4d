#!/bin/sh
test_description='inputs crafted against the cost of reading them give the right output'
. "$(dirname "$0")/lib.sh"

# The files are made here by tests/crafted.py (what each holds is in its header); how
# much CPU and memory they cost is measured by bench/scaling.sh, not here.
gen () {
	python3 "$SRCDIR/tests/crafted.py" "$@"
}
gen names 80000 >"$TRASH/names.collapsed"
gen ids 40000 >"$TRASH/ids.cpuprofile"
gen funcs 40000 >"$TRASH/funcs.collapsed"

test_expect_success '80,000 names sharing the old string hash: each is its own function' '
	"$PROFTOOL" top -n 2 "$TRASH/names.collapsed" >out &&
	sed -n "2,3p" out >got &&
	printf "Total: 80999\nShowing 2 of 80001 functions, sorted by flat\n" >want &&
	test_cmp want got &&
	sed -n "5p" out | grep -q "^      1000  1.23%  1.23%       1000  1.23%  c0000001" &&
	"$PROFTOOL" top -n 0 --format csv "$TRASH/names.collapsed" >csv &&
	test "$(grep -c "^\"c0" csv)" = 80000 &&
	test "$(grep "^\"c0" csv | cut -d, -f4 | sort -u | tr "\n" " ")" = "1 1000 "'

test_expect_success 'the same names through diff and merge: no change; every count doubled' '
	"$PROFTOOL" diff --format csv "$TRASH/names.collapsed" "$TRASH/names.collapsed" >d &&
	test "$(grep -c "^\"c0" d)" = 80000 &&
	test "$(grep "^\"c0" d | awk -F, "\$4 == \$5 && \$6 == \$7" | wc -l)" = 80000 &&
	"$PROFTOOL" merge --to collapsed -o m.collapsed "$TRASH/names.collapsed" "$TRASH/names.collapsed" &&
	test "$(wc -l <m.collapsed)" = 80000 &&
	test "$(cut -d" " -f2 m.collapsed | sort -n | uniq -c | tr -s " " | tr "\n" ,)" = " 79999 2, 1 2000,"'

test_expect_success '40,000 .cpuprofile node ids sharing the old map hash: every node read' '
	"$PROFTOOL" top -n 1 --format csv --sample-index samples "$TRASH/ids.cpuprofile" >csv &&
	printf "name,file,line,flat,flat_pct,cum,cum_pct\n\"f0\",\"x.js\",1,1,0.0025,1,0.0025\n" >want &&
	test_cmp want csv &&
	"$PROFTOOL" top -n 0 --format csv --sample-index samples "$TRASH/ids.cpuprofile" >all &&
	test "$(grep -c ",1,0.0025,1,0.0025$" all)" = 40000'

test_expect_success '5,000 perf event names: stops at the 64th type, naming its line' '
	gen perf-events 5000 >many.txt &&
	test_expect_code 1 "$PROFTOOL" info many.txt &&
	echo "proftool: many.txt:190: too many event names (a profile holds at most 64 sample types)" >want &&
	test_cmp want err'

test_expect_success '62 event names after 2,000 stacks (64 types): all read, values right' '
	gen perf-events 62 2000 >ok.txt &&
	"$PROFTOOL" info ok.txt >out &&
	test "$(grep -c "^  [0-9]*: " out)" = 64 &&
	grep -qx "  0: samples \[count\] total 2062 (2062)" out &&
	grep -qx "  1: ev0 \[events\] total 2000 (2000) (default)" out &&
	grep -qx "  63: e61 \[events\] total 1 (1)" out'

test_expect_success '160,000 pprof sample types: one error at once; 64 are read' '
	gen pprof-types 160000 >many.pb &&
	test_expect_code 1 "$PROFTOOL" info many.pb &&
	echo "proftool: many.pb: byte 0: 160000 sample types (at most 64 are read)" >want &&
	test_cmp want err &&
	gen pprof-types 64 >ok.pb &&
	"$PROFTOOL" info ok.pb >out &&
	test "$(grep -c "^  [0-9]*: t \[count\] total 1 (1)" out)" = 64'

test_expect_success 'method --regex . over 40,000 functions: every one, with its caller' '
	"$PROFTOOL" method --regex . "$TRASH/funcs.collapsed" >out &&
	test "$(grep -c "^  code:" out)" = 40001 &&
	test "$(grep -c "^ *[0-9]*  (  100.0%)  main$" out)" = 40000 &&
	"$PROFTOOL" method --regex "^f40000\$" "$TRASH/funcs.collapsed" >one &&
	printf "f40000\n  samples: 40000 self (0.0%%)  /  40000 total (0.0%%)\n  callers:\n   40000  (  100.0%%)  main\n  code:\n        SOURCE UNAVAILABLE\n" >want &&
	test_cmp want one'

test_expect_success 'values at the int64 edge: refused past it; under --lenient no report goes past it' '
	printf "a;b 9223372036854775807\nc 9223372036854775807\nd;b 9223372036854775807\n" >edge.collapsed &&
	test_expect_code 1 "$PROFTOOL" top edge.collapsed &&
	test_one_line_err "proftool: edge.collapsed:2: the values of type '"'samples'"' sum past 9223372036854775807" &&
	for r in "top" "top --style pprof" "traces" "tree" "top --format csv"; do
		"$PROFTOOL" $r --lenient edge.collapsed >out &&
		grep -q 9223372036854775807 out &&
		! grep -q "922337203685477580[89]\|-922337203685" out || { echo "$r:"; cat out; exit 1; }
	done'

test_expect_success 'a pprof duration_nanos past int64 is no duration, not a negative one' '
	python3 "$SRCDIR/tests/crafted.py" pprof-types 1 >dur.pb &&
	printf "\120\205\200\200\200\200\200\200\200\200\001" >>dur.pb &&
	"$PROFTOOL" top --style pprof dur.pb >out &&
	! grep -q "Duration" out && grep -qx "Type: t" out &&
	"$PROFTOOL" info dur.pb >info && ! grep -q "Duration" info'

# 30,000 threads of one span each (a trace-event file of 1.8 MB): the speedscope writer
# writes one profile per thread, each from its own samples (it once looked at every
# sample for every thread: 35,000 threads cost 3.8 s)
MEASURE=${BUILDDIR:-$SRCDIR}/bench/measure
awk 'BEGIN { printf "["
	for (i = 1; i <= 30000; i++)
		printf "%s{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"dur\":3,\"name\":\"f%d\"}", (i > 1 ? "," : ""), i, i, i % 10
	print "]" }' >"$TRASH/threads.json"

test_expect_success '30,000 threads to speedscope: a profile each, with its own sample' '
	"$PROFTOOL" convert --to speedscope -o t.speedscope.json "$TRASH/threads.json" &&
	test "$(grep -o "\"type\":\"sampled\"" t.speedscope.json | wc -l)" = 30000 &&
	grep -q "{\"type\":\"sampled\",\"name\":\"pid 1 tid 30000\",\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":3000,\"samples\":\[\[[0-9]*\]\],\"weights\":\[3000\]}" t.speedscope.json &&
	"$PROFTOOL" convert --to collapsed t.speedscope.json >c &&
	"$PROFTOOL" convert --to collapsed "$TRASH/threads.json" >c0 &&
	test_cmp c0 c'

if test -x "$MEASURE" && test "$PT_BUILD" = plain; then
	test_expect_success '30,000 threads to speedscope: within 1 s of CPU' '
		set -- $("$MEASURE" -- "$PROFTOOL" convert --to speedscope -o t.speedscope.json "$TRASH/threads.json" 2>/dev/null) &&
		test "$3" = 0 &&
		awk -v c="$4" "BEGIN { exit !(c < 1) }" || { echo "$4 s of CPU"; exit 1; }'
else
	test_skip '30,000 threads to speedscope: within 1 s of CPU' 'needs bench/measure and a plain build'
fi

test_done
