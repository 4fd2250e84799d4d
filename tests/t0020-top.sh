#!/bin/sh
test_description='top: flat and cum per function, in text, csv and json'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data

# name flat cum from our csv (names in these inputs hold no comma or quote)
csv_flatcum () {
	sed 1d | awk -F, '{ gsub(/"/, "", $1); print $1, $4, $6 }' | LC_ALL=C sort
}

test_expect_success 'flat and cum equal an independent count (perf sample)' '
	awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" >expect &&
	"$PROFTOOL" top -n 0 --format csv "$C/perfdemo-g.collapsed" | csv_flatcum >actual &&
	test_cmp expect actual'

test_expect_success 'recursion: a function counts once per stack' '
	awk -f "$SRCDIR/tests/flatcum.awk" "$D/recursion.collapsed" >expect &&
	"$PROFTOOL" top -n 0 --format csv "$D/recursion.collapsed" | csv_flatcum >actual &&
	test_cmp expect actual &&
	grep -q "^a 12 22$" actual && grep -q "^b 10 15$" actual'

test_expect_success 'recursion: no cum% exceeds 100%' '
	"$PROFTOOL" top -n 0 --format csv "$D/recursion.collapsed" >out &&
	sed 1d out | awk -F, "\$7 > 100 { bad = 1 } END { exit bad }"'

test_expect_success 'csv header is the stable interface' '
	"$PROFTOOL" top --format csv "$C/perfdemo-g.collapsed" | head -1 >actual &&
	echo "name,file,line,flat,flat_pct,cum,cum_pct" >expect && test_cmp expect actual'

test_expect_success 'csv has one row per function by default' '
	"$PROFTOOL" top --format csv "$C/perfdemo-g.collapsed" | sed 1d | wc -l >n &&
	awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" | wc -l >want &&
	test_cmp want n'

test_expect_success 'text: sorted by flat, ties by name (golden)' '
	"$PROFTOOL" top "$C/perfdemo-g.collapsed" >actual &&
	test_cmp "$GOLDEN/perfdemo-g.top.txt" actual'

test_expect_success 'text: --cum sorts by cum (golden)' '
	"$PROFTOOL" top --cum "$C/perfdemo-g.collapsed" >actual &&
	test_cmp "$GOLDEN/perfdemo-g.top.cum.txt" actual'

test_expect_success 'text rows are in flat order, ties by name' '
	"$PROFTOOL" top -n 0 --format csv "$C/perfdemo-g.collapsed" | sed 1d |
		awk -F, "{ gsub(/\"/, \"\", \$1); print \$4, \$1 }" >rows &&
	LC_ALL=C sort -k1,1nr -k2,2 rows >sorted && test_cmp sorted rows'

test_expect_success '--cum rows are in cum order, ties by name' '
	"$PROFTOOL" top --cum -n 0 --format csv "$C/perfdemo-g.collapsed" | sed 1d |
		awk -F, "{ gsub(/\"/, \"\", \$1); print \$6, \$1 }" >rows &&
	LC_ALL=C sort -k1,1nr -k2,2 rows >sorted && test_cmp sorted rows'

test_expect_success '-n limits the rows; -n 0 shows all' '
	"$PROFTOOL" top -n 3 "$C/perfdemo-g.collapsed" >three &&
	test "$(sed -n "/^ *flat/,\$p" three | sed 1d | wc -l)" = 3 &&
	"$PROFTOOL" top -n 0 "$C/perfdemo-g.collapsed" >all &&
	test "$(sed -n "/^ *flat/,\$p" all | sed 1d | wc -l)" = \
		"$(awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" | wc -l)"'

test_expect_success 'the text default shows 30 rows' '
	"$PROFTOOL" top "$C/perfdemo-g.collapsed" | sed -n "/^ *flat/,\$p" | sed 1d | wc -l >n &&
	test "$(cat n)" = 30'

test_expect_success 'json holds the sample type, unit, total and rows' '
	"$PROFTOOL" top --format json -n 2 "$D/recursion.collapsed" >actual &&
	echo "{\"sample_type\":\"samples\",\"unit\":\"count\",\"total\":27,\"rows\":[{\"name\":\"a\",\"file\":\"\",\"line\":0,\"flat\":12,\"flat_pct\":44.4444,\"cum\":22,\"cum_pct\":81.4815},{\"name\":\"b\",\"file\":\"\",\"line\":0,\"flat\":10,\"flat_pct\":37.0370,\"cum\":15,\"cum_pct\":55.5556}]}" >expect &&
	test_cmp expect actual'

test_expect_success 'json strings are valid UTF-8 and escaped' '
	printf "main;bad\377name\"q 1\n" >in &&
	"$PROFTOOL" top --format json in >actual &&
	grep -q "bad\\xef\\xbf\\xbdname\\\\\"q" actual ||
	grep -q "bad.*name\\\\\"q" actual'

test_expect_success '--sample-index by name and number on a two-count file' '
	"$PROFTOOL" top --format csv --sample-index base "$C/perfdemo-g-vs-dwarf.diff.collapsed" >a &&
	"$PROFTOOL" top --format csv --sample-index 0 "$C/perfdemo-g-vs-dwarf.diff.collapsed" >b &&
	test_cmp a b &&
	"$PROFTOOL" top --format csv "$C/perfdemo-g-vs-dwarf.diff.collapsed" >c &&
	"$PROFTOOL" top --format csv --sample-index new "$C/perfdemo-g-vs-dwarf.diff.collapsed" >d &&
	test_cmp c d && ! test_cmp a c >/dev/null'

test_expect_success '-o writes the report to a file' '
	"$PROFTOOL" top -o report.txt "$C/perfdemo-g.collapsed" &&
	"$PROFTOOL" top "$C/perfdemo-g.collapsed" >expect && test_cmp expect report.txt'

test_done
