#!/bin/sh
test_description='svg: the output is bounded (--minwidth, --max-frames), what was left out is counted'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed

# "depth name value" of every frame drawn (names here hold no quote, '<' or '&')
frames () {
	sed -n 's/^<g class="frame" data-name="\([^"]*\)" data-x="[^"]*" data-w="[^"]*" data-depth="\([0-9]*\)"><title>[^<]* (\([0-9]*\), .*/\2 \1 \3/p' "$1" |
		LC_ALL=C sort
}

# every merged frame of a collapsed file, from its lines alone: "depth name value"
awk_frames () {
	awk '{ count = $NF; stack = $0; sub(/[ \t]+[0-9]+[ \t]*$/, "", stack)
		n = split(stack, f, ";"); key = ""
		for (i = 1; i <= n; i++) { key = key ";" f[i]; v[key] += count; d[key] = i - 1; name[key] = f[i] } }
		END { for (k in v) if (v[k] > 0) print d[k], name[k], v[k] }' "$1" | LC_ALL=C sort
}

note () { sed -n 's/.*<text id="pruned"[^>]*>\([^<]*\)<.*/\1/p' "$1"; }

test_expect_success 'a 1.8 MB stack 600,000 frames deep: at most 50,000 frames, the roots, said once' '
	awk -v D=600000 -f "$SRCDIR/tests/deep-stack.awk" >deep.collapsed &&
	test "$(wc -c <deep.collapsed)" -ge 1800000 &&
	"$PROFTOOL" convert --to svg deep.collapsed >deep.svg 2>err &&
	n=$(awk -F";" "{ print NF }" deep.collapsed) && test "$n" = 600000 &&
	test "$(grep -c "^<g class=\"frame\"" deep.svg)" = 50000 &&
	test "$(wc -c <deep.svg)" -le $((16 * 1048576)) &&
	frames deep.svg | sort -n >drawn &&
	tr ";" "\n" <deep.collapsed | sed "s/ 10\$//" | head -50000 | awk "{ print NR - 1, \$0, 10 }" >expect &&
	test_cmp expect drawn &&
	echo "550000 of 600000 frames not drawn: 550000 past the 50000 widest (--max-frames)" >expect &&
	note deep.svg >actual && test_cmp expect actual &&
	test_one_line_err "proftool: deep.collapsed: warning: svg: 550000 of 600000 frames not drawn: only the 50000 widest (--max-frames)" &&
	if command -v xmllint >/dev/null 2>&1; then xmllint --noout --nonet --huge deep.svg; fi'

test_expect_success '--max-frames 0 draws every frame, and says nothing' '
	awk -v D=3000 -f "$SRCDIR/tests/deep-stack.awk" >d.collapsed &&
	"$PROFTOOL" flamegraph --max-frames 0 d.collapsed >d.svg 2>err &&
	test "$(grep -c "^<g class=\"frame\"" d.svg)" = 3000 &&
	! grep -q "id=\"pruned\"" d.svg && test ! -s err'

test_expect_success '--max-frames N keeps the N widest frames (an independent ranking)' '
	awk_frames "$C/perfdemo-g.collapsed" | sort -k3,3nr -k1,1n >ranked &&
	total=$(wc -l <ranked) && test "$total" -ge 60 &&
	# a cut where the ranking has no tie: the Nth and N+1th frames differ in width or depth
	n=$(awk "NR > 30 && (\$3 != w || \$1 != d) { print NR - 1; exit } { w = \$3; d = \$1 }" ranked) &&
	"$PROFTOOL" flamegraph --minwidth 0 --max-frames "$n" "$C/perfdemo-g.collapsed" >n.svg 2>err &&
	head -n "$n" ranked | LC_ALL=C sort >expect &&
	frames n.svg >actual && test_cmp expect actual &&
	echo "$((total - n)) of $total frames not drawn: $((total - n)) past the $n widest (--max-frames)" >expect &&
	note n.svg >actual && test_cmp expect actual &&
	test "$(wc -l <err)" = 1'

test_expect_success 'frames left out as narrower than --minwidth are counted in the graph, not on stderr' '
	awk_frames "$C/perfdemo-g.collapsed" >all &&
	"$PROFTOOL" flamegraph --minwidth 50 "$C/perfdemo-g.collapsed" >w.svg 2>err &&
	test ! -s err &&
	total=$(wc -l <all) && drawn=$(grep -c "^<g class=\"frame\"" w.svg) &&
	test "$drawn" -lt "$total" &&
	echo "$((total - drawn)) of $total frames not drawn: $((total - drawn)) narrower than 50 px (--minwidth)" >expect &&
	note w.svg >actual && test_cmp expect actual'

test_expect_success 'a flame chart is bounded the same way' '
	"$PROFTOOL" flamegraph --flamechart --minwidth 0 --max-frames 0 "$SAMPLES/perf/perfdemo-g.txt" >all.svg &&
	all=$(grep -c "^<g class=\"frame\"" all.svg) && test "$all" -gt 20 &&
	"$PROFTOOL" flamegraph --flamechart --minwidth 0 --max-frames 20 "$SAMPLES/perf/perfdemo-g.txt" >c.svg 2>err &&
	test "$(grep -c "^<g class=\"frame\"" c.svg)" = 20 &&
	echo "$((all - 20)) of $all frames not drawn: $((all - 20)) past the 20 widest (--max-frames)" >expect &&
	note c.svg >actual && test_cmp expect actual'

test_expect_success '--max-frames: a bad value is a usage error, named' '
	test_expect_code 2 "$PROFTOOL" flamegraph --max-frames -3 "$C/perfdemo-g.collapsed" &&
	grep -q "bad value .-3. for --max-frames" err &&
	"$PROFTOOL" flamegraph --help | grep -q -- "--max-frames N" &&
	"$PROFTOOL" convert --help | grep -q -- "--max-frames N"'

test_expect_success 'diff --to svg has the writer'"'"'s defaults: 1200 pixels wide, bounded' '
	"$PROFTOOL" diff --to svg "$SAMPLES/perf/perfdemo-g.txt" "$SAMPLES/perf/perfdemo-dwarf.txt" >d.svg &&
	grep -q "^<svg [^>]* width=\"1200\"" d.svg'

test_done
