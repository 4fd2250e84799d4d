#!/bin/sh
test_description='collapsed stacks: reader and writer'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed

test_expect_success 'stackcollapse-perf.pl output reads and writes back byte for byte' '
	"$PROFTOOL" convert --to collapsed "$C/perfdemo-g.collapsed" >actual &&
	test_cmp "$C/perfdemo-g.collapsed" actual'

test_expect_success 'input is detected as collapsed' '
	"$PROFTOOL" info "$C/perfdemo-g.collapsed" >out &&
	grep -q "^Format: collapsed$" out'

test_expect_success 'unsorted, repeated stacks are aggregated and sorted' '
	printf "b;c 1\na 2\nb;c 3\na;x 1\n" >in &&
	"$PROFTOOL" convert --to collapsed in >actual &&
	printf "a 2\na;x 1\nb;c 4\n" >expect &&
	test_cmp expect actual'

test_expect_success 'output equals LC_ALL=C sort of itself' '
	"$PROFTOOL" convert --to collapsed "$C/perfdemo-g-vs-dwarf.diff.collapsed" >actual &&
	LC_ALL=C sort actual >sorted && test_cmp sorted actual'

test_expect_success 'two counts per line (difffolded.pl) read as base and new' '
	"$PROFTOOL" info --format json "$C/perfdemo-g-vs-dwarf.diff.collapsed" >out &&
	grep -q "\"name\":\"base\"" out && grep -q "\"name\":\"new\"" out'

test_expect_success '--sample-index picks the count of a two-count file' '
	awk "{ if (\$(NF-1) != 0) print \$1, \$(NF-1) }" "$C/perfdemo-g-vs-dwarf.diff.collapsed" |
		LC_ALL=C sort >expect-base &&
	"$PROFTOOL" convert --to collapsed --sample-index base "$C/perfdemo-g-vs-dwarf.diff.collapsed" >actual &&
	test_cmp expect-base actual &&
	awk "{ if (\$NF != 0) print \$1, \$NF }" "$C/perfdemo-g-vs-dwarf.diff.collapsed" |
		LC_ALL=C sort >expect-new &&
	"$PROFTOOL" convert --to collapsed --sample-index 1 "$C/perfdemo-g-vs-dwarf.diff.collapsed" >actual &&
	test_cmp expect-new actual'

test_expect_success 'decimal counts are kept exactly' '
	"$PROFTOOL" convert --to collapsed "$SRCDIR/tests/data/decimal.collapsed" >actual &&
	printf "a;b 1.50\na;c 2.25\n" >expect && test_cmp expect actual'

test_expect_success 'a last line without newline is kept' '
	"$PROFTOOL" convert --to collapsed "$SRCDIR/tests/data/noeol.collapsed" >actual &&
	printf "main;x 1\nmain;y 2\n" >expect && test_cmp expect actual'

test_expect_success 'CRLF line ends and trailing blanks are tolerated' '
	printf "a;b 3 \r\na;c 4\t\r\n" >crlf &&
	"$PROFTOOL" convert --to collapsed crlf >actual &&
	printf "a;b 3\na;c 4\n" >expect && test_cmp expect actual'

test_expect_success 'an invalid line is an error naming its line' '
	test_expect_code 1 "$PROFTOOL" convert --to collapsed "$SRCDIR/tests/data/bad-line.collapsed" &&
	test_one_line_err "proftool: $SRCDIR/tests/data/bad-line.collapsed:2: expected '"'"'frame;frame;... COUNT'"'"'"'

test_expect_success '--lenient skips invalid lines and counts them in a warning' '
	"$PROFTOOL" convert --lenient --to collapsed "$SRCDIR/tests/data/bad-line.collapsed" >actual 2>err &&
	printf "main;x 1\nmain;y 2\n" >expect && test_cmp expect actual &&
	test_one_line_err "proftool: $SRCDIR/tests/data/bad-line.collapsed: warning: skipped 1 invalid line (first at line 2)"'

test_expect_success 'gzip input is read transparently' '
	gzip -c "$C/perfdemo-g.collapsed" >in.gz &&
	"$PROFTOOL" convert --to collapsed in.gz >actual &&
	test_cmp "$C/perfdemo-g.collapsed" actual'

test_expect_success 'stdin is read with - and with no file' '
	"$PROFTOOL" convert --to collapsed - <"$C/perfdemo-g.collapsed" >a &&
	"$PROFTOOL" convert --to collapsed <"$C/perfdemo-g.collapsed" >b &&
	test_cmp "$C/perfdemo-g.collapsed" a && test_cmp a b'

test_expect_success 'a 10000-frame stack and a 1 MB name round-trip' '
	awk "BEGIN { s = \"f0\"; for (i = 1; i < 10000; i++) s = s \";f\" i; print s, 3 }" >deep &&
	"$PROFTOOL" convert --to collapsed deep >actual && test_cmp deep actual &&
	awk "BEGIN { s = \"x\"; while (length(s) < 1048576) s = s s; print \"main;\" s, 1 }" >long &&
	"$PROFTOOL" convert --to collapsed long >actual && test_cmp long actual'

test_expect_success 'flamegraph.pl-unsafe names from other formats are made safe' '
	printf "main;a:b 1\n" >in &&
	"$PROFTOOL" convert --to collapsed in >actual && test_cmp in actual'

test_expect_success 'a count too large for 64 bits is an error' '
	printf "a 99999999999999999999\n" >big &&
	test_expect_code 1 "$PROFTOOL" convert --to collapsed big &&
	test_one_line_err "proftool: big:1: count is too large"'

test_expect_success 'a NUL byte in a line is an error naming the line' '
	printf "a 1\nb\000c 2\n" >nul &&
	test_expect_code 1 "$PROFTOOL" convert --to collapsed nul &&
	test_one_line_err "proftool: nul:2: NUL byte in line"'

test_expect_success 'comment lines (# or //) before and among the stacks are skipped' '
	printf "# title: run 1\n// settings 2\na;b 3\n# between 4\na;c 2\n" >in.collapsed &&
	"$PROFTOOL" convert --to collapsed in.collapsed >out &&
	printf "%s\n" "a;b 3" "a;c 2" >expect &&
	test_cmp expect out'

test_done
