#!/bin/sh
test_description='tree: callers and callees of each function (pprof -peek layout)'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data

# Inputs the edge checks run on: NAME PATH. Add a line per format with stacks.
tree_inputs () {
	cat <<-LIST
	recursion $D/recursion.collapsed
	mutual $D/mutual.collapsed
	perfdemo-g $C/perfdemo-g.collapsed
	LIST
}

tree_inputs >"$TRASH/inputs"
while read -r name path; do
	test_expect_success "$name: callers of every function equal an independent count" '
		"$PROFTOOL" convert --to collapsed "$path" >plain &&
		awk -f "$SRCDIR/tests/edges.awk" plain >expect &&
		"$PROFTOOL" tree -n 0 --format json "$path" |
			jq -r ".nodes[] | .name as \$n | .callers[] | \"\(.name) \(\$n) \(.value)\"" |
			LC_ALL=C sort >actual &&
		test_cmp expect actual'
	test_expect_success "$name: callees of every function equal an independent count" '
		"$PROFTOOL" convert --to collapsed "$path" >plain &&
		awk -f "$SRCDIR/tests/edges.awk" plain >expect &&
		"$PROFTOOL" tree -n 0 --format json "$path" |
			jq -r ".nodes[] | .name as \$n | .callees[] | \"\(\$n) \(.name) \(.value)\"" |
			LC_ALL=C sort >actual &&
		test_cmp expect actual'
	test_expect_success "$name: flat and cum equal top" '
		"$PROFTOOL" tree -n 0 --format json "$path" |
			jq -r ".nodes[] | \"\(.name) \(.flat) \(.cum)\"" | LC_ALL=C sort >actual &&
		"$PROFTOOL" convert --to collapsed "$path" >plain &&
		awk -f "$SRCDIR/tests/flatcum.awk" plain >expect && test_cmp expect actual'
done <"$TRASH/inputs"

test_expect_success 'PATTERN selects the functions, callers above, callees below' '
	"$PROFTOOL" tree "^b\$" "$D/recursion.collapsed" >actual &&
	cat >expect <<-\OUT &&
	Type: samples
	Total: 27
	Showing 1 of 1 entries
	----------------------------------------------------------+-------------
	      flat  flat%   sum%        cum   cum%   calls calls% + context 	 	 
	----------------------------------------------------------+-------------
	                                                15   100% |   a
	        10 37.04% 37.04%         15 55.56%                | b
	                                                15   100% |   a
	----------------------------------------------------------+-------------
	OUT
	test_cmp expect actual'

test_expect_success 'calls% is the edge over the function cum (awk)' '
	"$PROFTOOL" tree "^ping\$" "$C/perfdemo-g.collapsed" >out &&
	awk -f "$SRCDIR/tests/edges.awk" "$C/perfdemo-g.collapsed" |
		awk "\$1 == \"ping\" { printf \"%.2f%% %s\\n\", \$3 * 100 / 13013013, \$2 }" |
		sed "s/^100.00%/100%/" | LC_ALL=C sort >expect &&
	sed -n "/| ping\$/,/^---/p" out | sed "1d;\$d" |
		awk "{ print \$2, \$4 }" | LC_ALL=C sort >actual &&
	test_cmp expect actual'

test_expect_success 'without PATTERN the text shows 30 functions' '
	"$PROFTOOL" tree "$C/perfdemo-g.collapsed" >out &&
	test "$(grep -c "                | " out)" = 30'

test_expect_success 'filters apply before the tree' '
	"$PROFTOOL" tree --hide "^a\$" "^b\$" "$D/recursion.collapsed" >out &&
	grep -q "^Filter: --hide" out && grep -q "|   b\$" out && ! grep -q "|   a\$" out'

test_expect_success 'a bad PATTERN is a usage error' '
	test_expect_code 2 "$PROFTOOL" tree "(" "$D/recursion.collapsed"'

test_expect_success 'csv is refused: the layout is nested' '
	test_expect_code 2 "$PROFTOOL" tree --format csv "$D/recursion.collapsed"'

# "CALLER CALLEE" of every call pprof -peek marks (inline), read from its layout: in a
# block, the lines above the function's own line are its callers, those below its callees
peek_inline () {
	awk '/^-+\+-+$/ { n = 0; self = ""; next }
		/^ +[0-9.]+[a-z]* +[0-9.]+% +\|   / {
			name = $0; sub(/^[^|]*\|   /, "", name)
			inl = sub(/ \(inline\)$/, "", name)
			if (self == "") { n++; callers[n] = name; cinl[n] = inl }
			else if (inl) print self, name
			next }
		/^ +[0-9.]+[a-z]* +[0-9.]+% +[0-9.]+% +[0-9.]+[a-z]* +[0-9.]+% +\| / {
			self = $0; sub(/^[^|]*\| /, "", self)
			for (i = 1; i <= n; i++) if (cinl[i]) print callers[i], self }' "$1" |
		LC_ALL=C sort -u
}

test_expect_success 'inlined calls are marked (inline) on both sides, as go tool pprof -peek marks them' '
	peek_inline "$REF/pprof/cpu.pprof-peek.all.txt" >expect &&
	test "$(wc -l <expect)" = 3 &&
	"$PROFTOOL" tree -n 0 --node-fraction 0 --format json "$SAMPLES/go/cpu.pb.gz" |
		jq -r ".nodes[] | .name as \$n | (.callers[] | select(.inline) | \"\(.name) \(\$n)\"),
			(.callees[] | select(.inline) | \"\(\$n) \(.name)\")" | LC_ALL=C sort -u >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" tree -n 0 --node-fraction 0 "$SAMPLES/go/cpu.pb.gz" >out &&
	test "$(grep -c " (inline)\$" out)" = "$(grep -c " (inline)\$" "$REF/pprof/cpu.pprof-peek.all.txt")" &&
	grep -q "|   main.mix (proftool-sample/main.go) (inline)\$" out'

test_expect_success 'a call inlined at some occurrences only is no inline call; without inlined frames no mark' '
	"$PROFTOOL" tree -n 0 --format json "$SAMPLES/go/cpu.pb.gz" |
		jq -e "[.nodes[] | select(.name == \"main.hotLeaf\") | .callers[] | select(.inline)] | length == 0" &&
	grep -q "main.spin\$" "$REF/pprof/cpu.pprof-peek.hotLeaf.txt" &&
	"$PROFTOOL" tree -n 0 "$D/recursion.collapsed" >out && ! grep -q "(inline)" out'

test_done
