#!/bin/sh
test_description='dot writer, checked with the real graphviz'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data
EDGE=$BUILDDIR/tests/writers-edge

# graphviz only warns (exit 0) on a bad attribute or bad UTF-8: demand silence
render () {
	dot -Tsvg "$1" >"$1.svg" 2>"$1.err" &&
	test ! -s "$1.err" &&
	xmllint --noout --nonet "$1.svg"
}

# "name flat cum" of every node, from the labels (names here hold no quote or backslash)
node_values () {
	sed -n 's/^N[0-9]* \[label="\([^"\\]*\)\\n\([0-9]*\) ([^)]*)\(\\nof \([0-9]*\) ([^)]*)\)\{0,1\}".*/\1 \2 \4/p' "$1" |
		awk '{ print $1, $2, ($3 == "" ? $2 : $3) }' | LC_ALL=C sort
}

# "caller callee value" of every edge
edge_values () {
	awk '/^N[0-9]+ \[label="/ { id = $1; n = $0; sub(/^N[0-9]+ \[label="/, "", n)
			sub(/\\n.*/, "", n); name[id] = n }
		/^N[0-9]+ -> N[0-9]+ / { v = $0; sub(/.*label=" /, "", v); sub(/".*/, "", v)
			print name[$1], name[$3], v }' "$1" | LC_ALL=C sort
}

# an independent count: caller -> callee once per stack line
awk_edges () {
	awk '{ count = $NF; stack = $0; sub(/[ \t]+[0-9]+[ \t]*$/, "", stack)
		n = split(stack, f, ";"); delete seen
		for (i = 1; i < n; i++) { k = f[i] " " f[i + 1]
			if (!(k in seen)) { seen[k] = 1; e[k] += count } } }
		END { for (k in e) print k, e[k] }' "$1" | LC_ALL=C sort
}

if ! command -v dot >/dev/null 2>&1 || ! command -v xmllint >/dev/null 2>&1; then
	test_skip 'dot renders our graphs silently' 'dot (graphviz) or xmllint (libxml2-utils) not installed'
	test_done
	exit
fi

for f in "$C/perfdemo-g.collapsed" "$D/recursion.collapsed" "$C/perfdemo-g-vs-dwarf.diff.collapsed"; do
	name=$(basename "$f")
	test_expect_success "dot -Tsvg: no message, valid XML ($name)" '
		"$PROFTOOL" convert --to dot -o out.dot "$f" &&
		render out.dot &&
		grep -q "<svg" out.dot.svg'
done

test_expect_success 'every node and edge equals an independent count (no limits)' '
	"$PROFTOOL" convert --to dot --nodecount 0 --node-fraction 0 --edge-fraction 0 \
		"$C/perfdemo-g.collapsed" >out.dot &&
	awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" >expect &&
	node_values out.dot >actual && test_cmp expect actual &&
	awk_edges "$C/perfdemo-g.collapsed" >expect &&
	edge_values out.dot >actual && test_cmp expect actual'

test_expect_success 'recursion: edges once per stack (a -> a is 7, not 14)' '
	"$PROFTOOL" convert --to dot "$D/recursion.collapsed" >out.dot &&
	awk_edges "$D/recursion.collapsed" >expect &&
	edge_values out.dot >actual && test_cmp expect actual &&
	grep -q "^a a 7$" actual'

test_expect_success 'defaults are pprof'"'"'s: 80 nodes, fractions 0.005 and 0.001' '
	"$PROFTOOL" convert --to dot "$C/perfdemo-g.collapsed" >default.dot &&
	"$PROFTOOL" convert --to dot --nodecount 80 --node-fraction 0.005 --edge-fraction 0.001 \
		"$C/perfdemo-g.collapsed" >explicit.dot &&
	test_cmp explicit.dot default.dot'

test_expect_success '--nodecount keeps the N nodes with the largest cum; legend says so' '
	"$PROFTOOL" convert --to dot --nodecount 5 "$C/perfdemo-g.collapsed" >out.dot &&
	render out.dot &&
	test "$(grep -c "^N[0-9]* \[label" out.dot)" = 5 &&
	awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" | sort -k3,3nr -k2,2nr -k1,1 |
		head -5 | cut -d" " -f1 | sort >expect &&
	node_values out.dot | cut -d" " -f1 | sort >actual && test_cmp expect actual &&
	n=$(awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" | wc -l) &&
	grep -q "Showing top 5 nodes out of $n\\\\l" out.dot'

test_expect_success '--nodecount: a dropped middle frame gives a dotted residual edge' '
	printf "main;mid;leaf 5\nmain;other 1\n" >in.collapsed &&
	"$PROFTOOL" convert --to dot --nodecount 2 in.collapsed >out.dot &&
	render out.dot &&
	node_values out.dot >actual && printf "leaf 5 5\nmain 0 6\n" >expect &&
	test_cmp expect actual &&
	grep "style=\"dotted\"" out.dot >dotted && test "$(wc -l <dotted)" = 1 &&
	edge_values out.dot >actual && echo "main leaf 5" >expect && test_cmp expect actual'

test_expect_success '--node-fraction drops nodes with cum below F of the total' '
	"$PROFTOOL" convert --to dot --nodecount 0 --node-fraction 0.1 "$C/perfdemo-g.collapsed" >out.dot &&
	total=$(awk "{ s += \$NF } END { print s }" "$C/perfdemo-g.collapsed") &&
	awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" |
		awk -v t="$total" "\$3 >= t * 0.1" >expect &&
	node_values out.dot >actual && test_cmp expect actual &&
	dropped=$(( $(awk -f "$SRCDIR/tests/flatcum.awk" "$C/perfdemo-g.collapsed" | wc -l) - $(wc -l <expect) )) &&
	grep -q "Dropped $dropped nodes (cum < " out.dot'

test_expect_success '--edge-fraction drops edges below F of the total' '
	"$PROFTOOL" convert --to dot --nodecount 0 --node-fraction 0 --edge-fraction 0.05 \
		"$C/perfdemo-g.collapsed" >out.dot &&
	total=$(awk "{ s += \$NF } END { print s }" "$C/perfdemo-g.collapsed") &&
	awk_edges "$C/perfdemo-g.collapsed" | awk -v t="$total" "\$3 >= t * 0.05" >expect &&
	edge_values out.dot >actual && test_cmp expect actual &&
	grep -q "Dropped [0-9]* edges (value < " out.dot'

test_expect_success 'the legend names the type and the total' '
	"$PROFTOOL" convert --to dot "$C/perfdemo-g.collapsed" >out.dot &&
	grep -q "^subgraph cluster_L { \"legend\" \[shape=box .*label=\"Type: samples (count)\\\\lTotal: 108108108\\\\l" out.dot'

test_expect_success 'bad option values are usage errors' '
	test_expect_code 2 "$PROFTOOL" convert --to dot --node-fraction 2 "$D/recursion.collapsed" &&
	test_one_line_err "proftool: convert: bad fraction '"'"'2'"'"' for --node-fraction (0 to 1) (see '"'"'proftool convert --help'"'"')" &&
	test_expect_code 2 "$PROFTOOL" convert --to dot --nodecount x "$D/recursion.collapsed"'

test_expect_success '--sample-index all is refused: a graph shows one type' '
	test_expect_code 1 "$PROFTOOL" convert --to dot --sample-index all "$D/recursion.collapsed" &&
	test "$(wc -l <err)" = 1'

test_expect_success '-o FILE.dot picks the dot writer' '
	"$PROFTOOL" convert -o out.dot "$D/recursion.collapsed" && render out.dot'

for c in empty single names deep deeprec threads diff; do
	test_expect_success "awkward profile '$c': dot -Tsvg silent, valid XML" '
		"$EDGE" $c dot >out.dot && render out.dot'
done

test_expect_success 'awkward names reach the SVG intact (escaped, control bytes as ?)' '
	"$EDGE" names dot >out.dot && render out.dot &&
	xmllint --xpath "//*[local-name()=\"text\"]/text()" out.dot.svg >texts &&
	grep -q "say \"hi\" '"'"'there'"'"'" texts &&
	grep -q "line one?line two??" texts &&
	grep -q "&lt;&amp;&gt; &amp;amp; a&lt;b&gt;c" texts &&
	grep -q "frame 12 34" texts && grep -q "semi;colon" texts'

test_done
