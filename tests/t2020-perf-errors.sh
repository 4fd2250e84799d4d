#!/bin/sh
test_description='perf script: strict errors name the line, --lenient skips and counts'
. "$(dirname "$0")/lib.sh"

M=$MALFORMED
GOOD='perfdemo;hot_leaf 1001001'

for f in perf-nul perf-garbage perf-garbage-ascii perf-bad-callchain \
	perf-orphan-callchain; do
	test_expect_success "strict: $f is one error line naming the line" '
		test_expect_code 1 "$PROFTOOL" convert --to collapsed "$M/'$f'.txt" &&
		test "$(wc -l <err)" = 1 && grep -q "^proftool: .*/'$f'.txt:[0-9][0-9]*: " err &&
		test ! -s out'
	test_expect_success "--lenient: $f keeps the good records and warns once" '
		"$PROFTOOL" convert --to collapsed --lenient "$M/'$f'.txt" >actual 2>err &&
		line=$(sed "s/^proftool: [^:]*:\([0-9]*\):.*/\1/" "$M/'$f'.txt.err") &&
		test_one_line_err "proftool: $M/'$f'.txt: warning: skipped 1 invalid line (first at line $line)" &&
		grep -qx "$GOOD" actual'
done

test_expect_success '--lenient counts every skipped line' '
	{ cat "$M/perf-garbage-ascii.txt"; printf "more junk\n\x01\x02\nperfdemo  9556   297.184038:    5 cpu-clock: \n\t  1303 x (/b)\n\n"; } >in.txt &&
	"$PROFTOOL" convert --to collapsed --lenient in.txt >actual 2>err &&
	test_one_line_err "proftool: in.txt: warning: skipped 3 invalid lines (first at line 4)" &&
	printf "perfdemo;hot_leaf 1001001\nperfdemo;x 5\n" >expect &&
	test_cmp expect actual'

test_expect_success 'binary garbage after a good record: error with the line number' '
	{ cat "$SAMPLES/perf/perfdemo-g.txt"; head -c 2000 /dev/zero; } >in.txt &&
	n=$(($(wc -l <"$SAMPLES/perf/perfdemo-g.txt") + 1)) &&
	test_expect_code 1 "$PROFTOOL" top in.txt &&
	test_one_line_err "proftool: in.txt:$n: NUL byte in line"'

test_expect_success 'only comment lines, read as perf: no samples, nothing printed (as the peers)' '
	"$PROFTOOL" convert --to collapsed --from perf "$M/perf-no-samples.txt" >out 2>err &&
	test ! -s out && test ! -s err'

test_expect_success 'top: flat and cum equal an awk count over our collapsed output' '
	for s in perfdemo-g perfdemo-dwarf perfdemo-kernel perfdemo-2events perfdemo-nog; do
		"$PROFTOOL" convert --to collapsed "$SAMPLES/perf/$s.txt" >c &&
		awk -f "$SRCDIR/tests/flatcum.awk" c >expect &&
		"$PROFTOOL" top -n 0 --format csv "$SAMPLES/perf/$s.txt" >csv &&
		awk -F, "NR > 1 { gsub(/\"/, \"\", \$1); print \$1, \$4, \$6 }" csv | sort >actual &&
		test_cmp expect actual || return 1
	done'

test_expect_success 'top takes the perf reading options (--tid, --event)' '
	"$PROFTOOL" convert --to collapsed --tid --event task-clock "$SAMPLES/perf/perfdemo-2events.txt" >c &&
	awk -f "$SRCDIR/tests/flatcum.awk" c >expect &&
	"$PROFTOOL" top -n 0 --format csv --tid --event task-clock "$SAMPLES/perf/perfdemo-2events.txt" >csv &&
	awk -F, "NR > 1 { gsub(/\"/, \"\", \$1); print \$1, \$4, \$6 }" csv | sort >actual &&
	test_cmp expect actual'

test_expect_success 'convert --help and top --help list the perf options' '
	"$PROFTOOL" convert --help >h &&
	for o in pid tid addrs no-tidy event event-filter kernel jit inline all; do
		grep -q -- "--$o\>" h || { echo "convert: --$o"; return 1; }
	done &&
	"$PROFTOOL" top --help >h &&
	for o in pid tid addrs no-tidy event event-filter; do
		grep -q -- "--$o\>" h || { echo "top: --$o"; return 1; }
	done'

test_done
