#!/bin/sh
# t6100-cum-rule.sh: the cumulative rule (a function counts once per stack) has one owner,
# analysis/cum.h. Each report's cumulative values are checked against an independent
# count; tests/cum-broken, the same program built with that one rule broken
# (PT_CUM_BROKEN: every occurrence counts), must fail every one of these checks.
test_description='cumulative rule: one owner, and every report fails when it is broken'
. "$(dirname "$0")/lib.sh"

D=$SRCDIR/tests/data
BROKEN=${BUILDDIR:-$SRCDIR}/tests/cum-broken

# Each check_REPORT BIN INPUT writes ./expect (awk's count over the stacks) and ./actual
# (the report's values, by BIN), both sorted "name ..." lines.
flatcum () {
	awk -f "$SRCDIR/tests/flatcum.awk" "$1"
}

check_top () {
	flatcum "$2" >expect &&
	"$1" top -n 0 --format csv "$2" >out &&
	awk -F, 'NR > 1 { gsub(/"/, "", $1); print $1, $4, $6 }' out | LC_ALL=C sort >actual
}

check_tree () {
	{ flatcum "$2" && awk -f "$SRCDIR/tests/edges.awk" "$2"; } | LC_ALL=C sort >expect &&
	"$1" tree -n 0 --format json "$2" >out &&
	jq -r '.nodes[] | "\(.name) \(.flat) \(.cum)", (.name as $n | .callees[] | "\($n) \(.name) \(.value)")' \
		out | LC_ALL=C sort >actual
}

check_pprof () {
	flatcum "$2" >expect &&
	"$1" top --style pprof "$2" >out &&
	awk 'NF == 6 && $1 ~ /^[0-9]+$/ { print $6, $1, $4 }' out | LC_ALL=C sort >actual
}

check_dot () {
	flatcum "$2" >expect &&
	"$1" convert --to dot --nodecount 0 --node-fraction 0 --edge-fraction 0 "$2" >out &&
	sed -n 's/^N[0-9]* \[label="\([^"\\]*\)\\n\([0-9]*\) ([^)]*)\(\\nof \([0-9]*\) ([^)]*)\)\{0,1\}".*/\1 \2 \4/p' out |
		awk '{ print $1, $2, ($3 == "" ? $2 : $3) }' | LC_ALL=C sort >actual
}

# callgrind charges each function's inclusive cost to its incoming calls: they add up
# to its cum (the synthetic (root) calls the roots)
check_callgrind () {
	flatcum "$2" | awk '{ print $1, $3 }' >expect &&
	"$1" convert --to callgrind "$2" >out &&
	awk '/^c?fn=\(/ { id = $1; sub(/^c?fn=/, "", id); sub(/\).*/, ")", id)
			n = $0; if (sub(/^c?fn=\([0-9]+\) /, "", n)) name[id] = n }
		/^cfn=/ { callee = name[id] }
		/^calls=/ { getline; incl[callee] += $2 }
		END { for (f in incl) print f, incl[f] }' out | LC_ALL=C sort >actual
}

check_html () {
	flatcum "$2" | awk '{ print $1, $3 }' >expect &&
	"$1" convert --to html "$2" >out &&
	sed -n 's/^<script type="application\/json" id="pt-data">\(.*\)<\/script>$/\1/p' out >data.json &&
	jq -r '.strings as $s | .fn.cum[0] as $c | .fn.name | to_entries[] |
		"\($s[.value]) \($c[.key])"' data.json | LC_ALL=C sort >actual
}

check_diff () {
	flatcum "$2" | awk '{ print $1, $3, $3 }' >expect &&
	"$1" diff --format csv "$2" "$2" >out &&
	awk -F, 'NR > 1 { gsub(/"/, "", $1); print $1, $6, $7 }' out | LC_ALL=C sort >actual
}

# check REPORT BIN: the report's values equal the count on every recursive input
check () {
	for input in recursion mutual; do
		check_$1 "$2" "$D/$input.collapsed" && test -s actual && test_cmp expect actual ||
			return 1
	done
}

# broken REPORT: with the rule broken the report still runs and prints its values, but
# some input's values are wrong
broken () {
	test -x "$BROKEN" || { echo "no $BROKEN"; return 1; }
	for input in recursion mutual; do
		check_$1 "$BROKEN" "$D/$input.collapsed" && test -s actual || return 1
		cmp -s expect actual || return 0
	done
	echo "$1: every value is right with the rule broken"
	return 1
}

for r in top tree pprof dot callgrind html diff; do
	test_expect_success "$r: cumulative values equal an independent count" "check $r \"\$PROFTOOL\""
	test_expect_success "$r: with the rule broken (tests/cum-broken) the check fails" "broken $r"
done

test_done
