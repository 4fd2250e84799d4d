#!/bin/sh
test_description='diff: per-function changes, two-count stacks, the regression gate'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data
G=$C/perfdemo-g.collapsed
# stackcollapse-perf.pl's output for perfdemo-dwarf.txt: the NEW side that
# samples/collapsed/make.sh gave difffolded.pl
DW=$REF/perf/perfdemo-dwarf.stackcollapse.default.txt

# Inputs the self-diff and gate checks run on: NAME PATH. Add a line per format.
diff_inputs () {
	cat <<-LIST
	perfdemo-g $G
	recursion $D/recursion.collapsed
	perfdemo-diff $C/perfdemo-g-vs-dwarf.diff.collapsed
	LIST
}

diff_inputs >"$TRASH/inputs"
while read -r name path; do
	test_expect_success "$name against itself: every change is zero" '
		"$PROFTOOL" diff --format csv "$path" "$path" >out &&
		sed 1d out | awk -F, "{ if (\$(NF-3) != \$(NF-2) || \$(NF-1) != \$NF) bad = 1 }
			END { exit bad }" &&
		test "$(sed 1d out | wc -l)" -gt 0 &&
		"$PROFTOOL" diff -n 0 "$path" "$path" | sed -n "/change%/,\$p" | sed 1d |
			awk "{ if (\$3 != \"0\" || \$4 != \"0.00%\" || \$7 != \"0\" || \$8 != \"0.00%\") bad = 1 }
			END { exit bad }"'
	test_expect_success "$name against itself: the gate passes at 0 points" '
		"$PROFTOOL" diff --fail-on-regression 0 --format csv "$path" "$path" >out 2>err &&
		test ! -s err'
done <"$TRASH/inputs"

test_expect_success '--to collapsed equals difffolded.pl on the same inputs' '
	"$PROFTOOL" diff --to collapsed "$G" "$DW" | LC_ALL=C sort >actual &&
	LC_ALL=C sort "$C/perfdemo-g-vs-dwarf.diff.collapsed" >expect &&
	test_cmp expect actual'

test_expect_success '--to collapsed is itself sorted and reads back as base/new' '
	"$PROFTOOL" diff --to collapsed "$G" "$DW" >two &&
	LC_ALL=C sort two >sorted && test_cmp sorted two &&
	"$PROFTOOL" top --format csv -n 0 --sample-index base two | cut -d, -f1,4,6 >a &&
	"$PROFTOOL" top --format csv -n 0 "$G" | cut -d, -f1,4,6 >b && test_cmp b a'

test_expect_success 'csv header is the stable interface' '
	"$PROFTOOL" diff --format csv "$G" "$DW" | head -1 >actual &&
	echo "name,file,line,base_flat,new_flat,base_cum,new_cum" >expect &&
	test_cmp expect actual'

test_expect_success 'csv values equal an independent count of each side (awk)' '
	awk -f "$SRCDIR/tests/flatcum.awk" "$G" >base &&
	awk -f "$SRCDIR/tests/flatcum.awk" "$DW" >new &&
	join -a1 -a2 -e0 -o0,1.2,2.2,1.3,2.3 base new | sed "s/ /,/g" | LC_ALL=C sort >expect &&
	"$PROFTOOL" diff --format csv "$G" "$DW" | sed 1d |
		awk -F, "{ gsub(/\"/, \"\", \$1); print \$1 \",\" \$4 \",\" \$5 \",\" \$6 \",\" \$7 }" |
		LC_ALL=C sort >actual &&
	test_cmp expect actual'

test_expect_success 'rows are sorted by the absolute change of flat, --cum by cum' '
	"$PROFTOOL" diff --format csv "$G" "$DW" | sed 1d |
		awk -F, "{ d = \$5 - \$4; if (d < 0) d = -d; print d }" >rows &&
	sort -s -k1,1nr rows >sorted && test_cmp sorted rows &&
	"$PROFTOOL" diff --cum --format csv "$G" "$DW" | sed 1d |
		awk -F, "{ d = \$7 - \$6; if (d < 0) d = -d; print d }" >rows &&
	sort -s -k1,1nr rows >sorted && test_cmp sorted rows'

test_expect_success '--normalize scales BASE to the total of NEW' '
	printf "m;a 10\nm;b 10\n" >base && printf "m;a 30\nm;b 10\n" >new &&
	"$PROFTOOL" diff --normalize --format csv base new >actual &&
	cat >expect <<-OUT &&
	name,file,line,base_flat,new_flat,base_cum,new_cum
	"a","",0,20,30,20,30
	"b","",0,20,10,20,10
	"m","",0,0,0,40,40
	OUT
	test_cmp expect actual'

test_expect_success '--normalize --to collapsed scales the base counts' '
	printf "m;a 10\nm;b 10\n" >base && printf "m;a 30\nm;b 10\n" >new &&
	"$PROFTOOL" diff --normalize --to collapsed base new >actual &&
	printf "m;a 20 30\nm;b 20 10\n" >expect && test_cmp expect actual'

test_expect_success 'json has the same fields as csv' '
	printf "m;a 10\nm;b 10\n" >base && printf "m;a 30\n" >new &&
	"$PROFTOOL" diff --format json base new >actual &&
	echo "{\"sample_type\":\"samples\",\"unit\":\"count\",\"base_total\":20,\"new_total\":30,\"normalized\":false,\"rows\":[{\"name\":\"a\",\"file\":\"\",\"line\":0,\"base_flat\":10,\"new_flat\":30,\"base_cum\":10,\"new_cum\":30},{\"name\":\"b\",\"file\":\"\",\"line\":0,\"base_flat\":10,\"new_flat\":0,\"base_cum\":10,\"new_cum\":0},{\"name\":\"m\",\"file\":\"\",\"line\":0,\"base_flat\":0,\"new_flat\":0,\"base_cum\":20,\"new_cum\":30}]}" >expect &&
	test_cmp expect actual'

# a constructed regression: a grows from 50% to 80% of the cum
printf "main;a 50\nmain;b 50\n" >"$TRASH/base"
printf "main;a 80\nmain;b 20\n" >"$TRASH/new"

test_expect_success 'a regression trips the gate: exit 3, the function listed' '
	test_expect_code 3 "$PROFTOOL" diff --fail-on-regression 10 "$TRASH/base" "$TRASH/new" &&
	cat >expect <<-OUT &&
	proftool: diff: regression: a: cum 50.00% -> 80.00% (+30.00 points)
	proftool: diff: 1 function grew by more than 10 points of cum share
	OUT
	test_cmp expect err &&
	grep -q "^ *50 *80 *+30 *+60.00% .* a\$" out'

test_expect_success 'below the threshold the gate passes' '
	"$PROFTOOL" diff --fail-on-regression 30 "$TRASH/base" "$TRASH/new" >out 2>err &&
	test ! -s err'

test_expect_success '--min-share leaves out functions below a share of NEW' '
	"$PROFTOOL" diff --fail-on-regression 10 --min-share 81 "$TRASH/base" "$TRASH/new" \
		>out 2>err && test ! -s err &&
	test_expect_code 3 "$PROFTOOL" diff --fail-on-regression 10 --min-share 80% \
		"$TRASH/base" "$TRASH/new"'

test_expect_success 'the gate compares shares, so --normalize does not change it' '
	printf "main;a 5\nmain;b 5\n" >small &&
	test_expect_code 3 "$PROFTOOL" diff --fail-on-regression 10 small "$TRASH/new" &&
	test_expect_code 3 "$PROFTOOL" diff --normalize --fail-on-regression 10 small "$TRASH/new"'

test_expect_success 'a shrinking function never trips the gate' '
	test_expect_code 3 "$PROFTOOL" diff --fail-on-regression 0 "$TRASH/new" "$TRASH/base" &&
	grep -q "regression: b:" err && ! grep -q "regression: a:" err &&
	! grep -q "regression: main:" err'

test_expect_success 'filters apply to both sides' '
	"$PROFTOOL" diff --format csv --ignore "^b\$" "$TRASH/base" "$TRASH/new" >actual &&
	printf "name,file,line,base_flat,new_flat,base_cum,new_cum\n\"a\",\"\",0,50,80,50,80\n\"main\",\"\",0,0,0,50,80\n" >expect &&
	test_cmp expect actual'

test_expect_success 'text header lists the files, totals and filters' '
	"$PROFTOOL" diff --focus "^a\$" "$TRASH/base" "$TRASH/new" >out &&
	sed -n 2,5p out | sed "s|$TRASH/||" >actual &&
	cat >expect <<-OUT &&
	Base: base, total 50
	Filter: --focus '\''^a\$'\'' removed 50 of 100 (50.00%)
	New: new, total 80
	Filter: --focus '\''^a\$'\'' removed 20 of 100 (20.00%)
	OUT
	test_cmp expect actual'

test_expect_success '--to svg draws through the svg writer, or says it is missing' '
	if "$PROFTOOL" formats | grep -q "^svg  *[a-z]*  *yes"; then
		"$PROFTOOL" diff --to svg "$G" "$DW" >out.svg && grep -q "<svg" out.svg
	else
		test_expect_code 1 "$PROFTOOL" diff --to svg "$G" "$DW" &&
		test_one_line_err "proftool: diff: cannot write format '\''svg'\'' in this build (see '\''proftool formats'\'')"
	fi'

test_expect_success 'one profile is a usage error' '
	test_expect_code 2 "$PROFTOOL" diff "$G" &&
	test_one_line_err "proftool: diff: two profiles needed: BASE and NEW (see '\''proftool diff --help'\'')"'

test_expect_success 'a bad percentage is a usage error' '
	test_expect_code 2 "$PROFTOOL" diff --fail-on-regression x "$G" "$G"'

test_expect_success 'a bad input names the file (exit 1)' '
	printf "not a profile\n" >bad &&
	test_expect_code 1 "$PROFTOOL" diff "$G" bad && grep -q "^proftool: bad" err'

test_done
