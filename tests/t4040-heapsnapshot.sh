#!/bin/sh
test_description='V8 heap snapshots: heap summary, retainers, diff, allocation stacks'
. "$(dirname "$0")/lib.sh"

N=$SAMPLES/node
S1=$N/shapes-1.heapsnapshot.gz
S2=$N/shapes-2.heapsnapshot.gz

if ! command -v jq >/dev/null || ! command -v node >/dev/null; then
	test_skip 'heapsnapshot tests' 'jq or node is not installed'
	test_done
	exit
fi

# NAME COUNT SHALLOW rows of our summary (arguments: heap's), sorted; the native
# nodes DevTools renames "Detached X" (reached from a detached one) merged back into
# X, as heap-count.js does not follow edges
rows () {
	"$PROFTOOL" heap --format json -n 0 "$@" >h.json &&
	jq -r '.rows[] | [.name, .count, .shallow] | @tsv' h.json |
	awk -F'\t' -v OFS='\t' '{ sub(/^Detached /, "", $1)
		if (!($1 in c)) o[++n] = $1; c[$1] += $2; s[$1] += $3 }
		END { for (i = 1; i <= n; i++) print o[i], c[o[i]], s[o[i]] }' | LC_ALL=C sort
}

for f in shapes-1 shapes-2 alloc; do
	test_expect_success "$f: per-constructor count and shallow size match an independent count" '
		rows --snapshot-sizes "$N/'$f'.heapsnapshot.gz" >actual &&
		jq -r "\"# nodes \(.total_count) shallow \(.total_shallow)\"" h.json >>actual &&
		node "$SRCDIR/tests/heap-count.js" "$N/'$f'.heapsnapshot.gz" >raw &&
		{ grep -v "^#" raw | LC_ALL=C sort; grep "^#" raw; } >expect &&
		test_cmp expect actual'
done

test_expect_success 'native nodes the snapshot marks detached, and those they reach, are "Detached"' '
	gzip -dc "$S1" >s1.json &&
	node -e "
		const s = JSON.parse(require(\"fs\").readFileSync(\"s1.json\", \"utf8\"));
		const f = s.snapshot.meta.node_fields, n = f.length, t = s.snapshot.meta.node_types[0];
		let k = 0;
		for (let i = 0; i < s.nodes.length; i += n)
			if (t[s.nodes[i]] === \"native\" && s.nodes[i + f.indexOf(\"detachedness\")] === 2) k++;
		console.log(k);" >seeds &&
	"$PROFTOOL" heap --format json -n 0 "$S1" >h.json &&
	jq "[.rows[] | select(.name | startswith(\"Detached \")) | .count] | add" h.json >renamed &&
	test "$(cat seeds)" -gt 0 && test "$(cat renamed)" -ge "$(cat seeds)"'

test_expect_success 'rows are sorted by retained size; retained >= shallow; reachable = shallow total' '
	"$PROFTOOL" heap --format json -n 0 "$S1" >h.json &&
	jq -e "[.rows[].retained] as \$r | \$r == (\$r | sort | reverse)" h.json &&
	jq -e "all(.rows[]; .retained >= .shallow)" h.json &&
	jq -e ".total_retained == .total_shallow" h.json'

test_expect_success 'the linked list: 20000 ListNodes, the head retains the whole chain' '
	"$PROFTOOL" heap --format json -n 0 "$S1" >h.json &&
	jq -e ".rows[] | select(.name == \"ListNode\") | .count == 20000 and .retained >= .shallow and .shallow == 20000 * 40" h.json'

test_expect_success 'text and csv carry the same rows as json' '
	"$PROFTOOL" heap --format csv -n 5 "$S1" >h.csv &&
	head -n 1 h.csv >hdr && echo "name,count,shallow,retained" >expect && test_cmp expect hdr &&
	"$PROFTOOL" heap --format json -n 5 "$S1" | jq -r ".rows[] | [.name, .count, .shallow, .retained] | @csv" >expect &&
	tail -n +2 h.csv >actual && test_cmp expect actual &&
	"$PROFTOOL" heap -n 5 "$S1" >h.txt &&
	grep -q "^Showing 5 of [0-9]* constructors, sorted by retained size$" h.txt &&
	test "$(tail -n +5 h.txt | wc -l)" = 5'

# pprof-scale.py: the json bytes as go tool pprof scales them (measurement.ScaledLabel:
# 1024-based B, kB, MB... the largest unit keeping the value at 1 or more, "%.2f" without
# ".00", "0" for zero), in the text layout: totals, then per row retained and shallow
cat >"$TRASH/pprof-scale.py" <<'PY'
import json, sys
def scaled(v, sign=False):
    if v == 0:
        return "0"
    x, k = float(v), 0
    while abs(x) >= 1024 and k < 5:
        x, k = x / 1024, k + 1
    s = "%.2f" % x
    s = s[:-3] if s.endswith(".00") else s
    return ("+" if sign and v > 0 else "") + s + ["B", "kB", "MB", "GB", "TB", "PB"][k]
j = json.load(open(sys.argv[2]))
if sys.argv[1] == "summary":
    print("Objects: %d, shallow size %s, reachable %s" % (j["total_count"],
          scaled(j["total_shallow"]), scaled(j["total_retained"])))
    for r in j["rows"]:
        print(scaled(r["retained"]), scaled(r["shallow"]), r["count"])
else:
    print("Size change: %s" % scaled(j["size_delta"], True))
    for r in j["rows"]:
        print(scaled(r["added_size"]), scaled(r["deleted_size"]), scaled(r["size_delta"], True))
PY

test_expect_success 'text sizes are scaled as pprof scales bytes; --raw-sizes, csv and json keep bytes' '
	for f in "$S1" "$N/alloc.heapsnapshot.gz"; do
		"$PROFTOOL" heap --format json -n 8 "$f" >h.json &&
		python3 "$TRASH/pprof-scale.py" summary h.json >expect &&
		"$PROFTOOL" heap -n 8 "$f" >h.txt &&
		{ sed -n "2s/^\(Objects: .*\)/\1/p" h.txt && tail -n +5 h.txt | awk "{ print \$1, \$3, \$5 }"; } >actual &&
		test_cmp expect actual &&
		grep -q "[0-9]MB" h.txt &&
		"$PROFTOOL" heap --raw-sizes -n 8 "$f" >r.txt &&
		jq -r "\"Objects: \(.total_count), shallow size \(.total_shallow) bytes, reachable \(.total_retained) bytes\", (.rows[] | \"\(.retained) \(.shallow) \(.count)\")" h.json >expect &&
		{ sed -n 2p r.txt && tail -n +5 r.txt | awk "{ print \$1, \$3, \$5 }"; } >actual &&
		test_cmp expect actual || return 1
	done &&
	"$PROFTOOL" heap --diff --format json -n 8 "$S1" "$S2" >d.json &&
	python3 "$TRASH/pprof-scale.py" diff d.json >expect &&
	"$PROFTOOL" heap --diff -n 8 "$S1" "$S2" >d.txt &&
	{ sed -n "1s/;.*//p" d.txt && tail -n +3 d.txt | awk "{ print \$4, \$5, \$6 }"; } >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" heap --retainers "^CacheEntry\$" -n 1 "$S2" | head -1 |
		grep -Eq "  retained [0-9.]+(B|kB), shallow [0-9.]+(B|kB)\$" &&
	"$PROFTOOL" heap --raw-sizes --retainers "^CacheEntry\$" -n 1 "$S2" | head -1 |
		grep -Eq "  retained [0-9]+ bytes, shallow [0-9]+ bytes\$"'

test_expect_success '--retainers: the path from the root to the cache entries through the Map' '
	"$PROFTOOL" heap --retainers "^CacheEntry$" -n 1 "$S2" >out &&
	head -n 2 out | tail -n 1 | grep -qx "  (root)" &&
	grep -q "^  \.cache -> Map @[0-9]*$" out &&
	tail -n 1 out | grep -Eq "^  \{internal\} [0-9]+ -> CacheEntry @[0-9]+$"'

test_expect_success '--retainers json: one entry per object, paths end at the object' '
	"$PROFTOOL" heap --retainers "^(LeakHolder|ListNode)$" -n 3 --format json "$S2" >r.json &&
	jq -e "length == 3 and all(.[]; .reachable and .retained >= .shallow)" r.json &&
	jq -e "all(.[]; .object as \$o | .path[-1] | endswith(\" -> \" + \$o))" r.json &&
	jq -e "all(.[]; .path[-1] | test(\" -> (LeakHolder|ListNode) @[0-9]+$\"))" r.json'

test_expect_success '--retainers with no matching constructor is an input error' '
	test_expect_code 1 "$PROFTOOL" heap --retainers "^NoSuchThing$" "$S1" 2>err &&
	test "$(wc -l <err)" = 1'

test_expect_success '--diff: the grown leaks show as new objects by id' '
	"$PROFTOOL" heap --diff --format json -n 0 "$S1" "$S2" >d.json &&
	jq -e ".rows[] | select(.name == \"CacheEntry\") | .added == 1000 and .deleted == 0 and .size_delta == 40000" d.json &&
	jq -e ".rows[] | select(.name == \"LeakHolder\")" d.json >/dev/null; test $? = 4 &&
	jq -e ".rows[] | select(.name == \"(closure)\") | .added >= 500" d.json'

test_expect_success '--diff of a snapshot with itself: nothing changed' '
	"$PROFTOOL" heap --diff --format json "$S1" "$S1" >d.json &&
	jq -e ".rows == [] and .size_delta == 0" d.json'

test_expect_success '--fail-on-growth speaks: a stderr line per row over the gate, as the csv rows say' '
	"$PROFTOOL" heap --diff --format csv -n 0 "$S1" "$S2" >rows &&
	head -1 rows >header &&
	col=$(tr , "\n" <header | grep -nx "size_delta" | cut -d: -f1) &&
	test -n "$col" &&
	awk -F, -v c="$col" "NR > 1 && \$c + 0 > 20000 { n++ } END { print n + 0 }" rows >want &&
	test "$(cat want)" -ge 2 &&
	test_expect_code 3 "$PROFTOOL" heap --diff --fail-on-growth 20000 "$S1" "$S2" >/dev/null &&
	test "$(grep -c "^proftool: heap: regression: " err)" = "$(cat want)" &&
	grep -qx "proftool: heap: $(cat want) rows grew past --fail-on-growth" err &&
	test "$(wc -l <err)" = $(($(cat want) + 1)) &&
	grep "^proftool: heap: regression: " err | sed "s/.*: +\\([0-9]*\\) bytes (.*/\\1/" >deltas &&
	sort -rn deltas | cmp - deltas &&
	"$PROFTOOL" heap --diff --fail-on-growth 1M "$S1" "$S2" >/dev/null 2>err && test ! -s err'

test_expect_success '--junit and --metrics: a case per changed constructor, the rows past the gate fail' '
	"$PROFTOOL" heap --diff --format json -n 0 "$S1" "$S2" >d.json &&
	jq -r ".rows[] | [.name, (if .size_delta > 20000 then \"fail\" else \"pass\" end)] | @tsv" \
		d.json | LC_ALL=C sort >want &&
	test_expect_code 3 "$PROFTOOL" heap --diff --fail-on-growth 20000 --junit j.xml \
		--metrics m.txt "$S1" "$S2" >/dev/null &&
	python3 "$SRCDIR/tests/ci-check.py" junit j.xml | LC_ALL=C sort >got &&
	test_cmp want got &&
	jq -r ".rows[] | [\"proftool_heap_size_change_bytes\", .name, .size_delta] | @tsv" d.json |
		LC_ALL=C sort >want &&
	python3 "$SRCDIR/tests/ci-check.py" metrics m.txt >all &&
	grep "^proftool_heap_size_change_bytes	" all | LC_ALL=C sort >got &&
	test_cmp want got &&
	test "$(grep -c "^proftool_heap_base_bytes	" all)" = "$(wc -l <want)" &&
	test_expect_code 2 "$PROFTOOL" heap --junit j.xml "$S1"'

test_expect_success '--fail-on-growth: exit 3 past a size or a share, 0 under it' '
	"$PROFTOOL" heap --diff --fail-on-growth 1M "$S1" "$S2" >/dev/null &&
	test_expect_code 3 "$PROFTOOL" heap --diff --fail-on-growth 100K "$S1" "$S2" >/dev/null &&
	test_expect_code 3 "$PROFTOOL" heap --diff --fail-on-growth 50% "$S1" "$S2" >/dev/null &&
	test_expect_code 2 "$PROFTOOL" heap --fail-on-growth 1M "$S1" &&
	test_expect_code 2 "$PROFTOOL" heap --diff --fail-on-growth lots "$S1" "$S2"'

test_expect_success 'usage: one FILE, or two with --diff' '
	test_expect_code 2 "$PROFTOOL" heap &&
	test_expect_code 2 "$PROFTOOL" heap --diff "$S1" &&
	"$PROFTOOL" heap --help >out && grep -q -- "--fail-on-growth" out && grep -q -- "--retainers" out &&
	for o in --snapshot-sizes --raw-sizes --quiet; do
		grep -q -- "^ *$o  " out || return 1
	done &&
	"$PROFTOOL" completion bash >out &&
	grep -q -- "--snapshot-sizes" out && grep -q -- "--raw-sizes" out'

test_expect_success 'allocation stacks become a call tree: space and objects as in the trace tree' '
	"$PROFTOOL" info "$N/alloc.heapsnapshot.gz" >out &&
	grep -qx "Format: heapsnapshot" out &&
	"$PROFTOOL" top --format json "$N/alloc.heapsnapshot.gz" >t.json &&
	"$PROFTOOL" top --format json --sample-index objects "$N/alloc.heapsnapshot.gz" >o.json &&
	gzip -dc "$N/alloc.heapsnapshot.gz" >alloc.json &&
	node -e "
		const s = JSON.parse(require(\"fs\").readFileSync(\"alloc.json\", \"utf8\"));
		const f = s.snapshot.meta.trace_node_fields, n = f.length;
		let size = 0, count = 0;
		(function walk(a) { for (let i = 0; i < a.length; i += n) {
			size += a[i + f.indexOf(\"size\")]; count += a[i + f.indexOf(\"count\")];
			walk(a[i + f.indexOf(\"children\")]); } })(s.trace_tree);
		console.log(size + \" \" + count);" >expect &&
	echo "$(jq .total t.json) $(jq .total o.json)" >actual &&
	test_cmp expect actual'

test_expect_success 'a snapshot without allocation stacks is refused by the profile commands' '
	test_expect_code 1 "$PROFTOOL" top "$S1" 2>err &&
	grep -q "without allocation stacks" err && test "$(wc -l <err)" = 1'

# a synthetic snapshot: root -> (GC roots) -> a chain of $1 objects "Link" of 24 bytes
chain () {
	awk -v n="$1" 'BEGIN {
		printf "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],"
		printf "\"node_types\":[[\"hidden\",\"object\",\"synthetic\"],\"string\",\"number\",\"number\",\"number\"],"
		printf "\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],"
		printf "\"edge_types\":[[\"element\",\"property\",\"weak\",\"shortcut\"],\"string_or_number\",\"node\"]}},"
		printf "\"nodes\":[2,0,1,0,1"
		for (i = 1; i <= n; i++) printf ",1,1,%d,24,%d", 2 * i + 1, i < n ? 1 : 0
		printf "],\"edges\":["
		for (i = 0; i < n; i++) printf "%s1,2,%d", i ? "," : "", 5 * (i + 1)
		printf "],\"strings\":[\"\",\"Link\",\"next\"]}\n"
	}'
}

test_expect_success 'a chain of 300000 objects: iterative dominators, the head retains it all' '
	chain 300000 >chain.heapsnapshot &&
	"$PROFTOOL" heap --format json chain.heapsnapshot >c.json &&
	jq -e ".rows == [{\"name\": \"Link\", \"count\": 300000, \"shallow\": 7200000, \"retained\": 7200000}]" c.json &&
	"$PROFTOOL" heap --retainers "^Link$" -n 1 --format json chain.heapsnapshot >r.json &&
	jq -e ".[0].retained == 7200000 and (.[0].path | length) == 1" r.json'

test_expect_success 'a cycle unreachable from the root: retained by the root, no hang' '
	printf "%s" "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],\"node_types\":[[\"hidden\",\"object\",\"synthetic\"]],\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],\"edge_types\":[[\"element\",\"property\",\"weak\"]]}},\"nodes\":[2,0,1,0,0,1,1,3,10,1,1,1,5,20,1],\"edges\":[1,2,10,1,2,5],\"strings\":[\"\",\"A\",\"x\"]}" >cyc.heapsnapshot &&
	"$PROFTOOL" heap --format json cyc.heapsnapshot >c.json &&
	jq -e ".total_retained == 30 and .rows[0].count == 2 and .rows[0].retained == 30" c.json'

test_expect_success 'weak edges retain nothing' '
	printf "%s" "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],\"node_types\":[[\"hidden\",\"object\",\"synthetic\"]],\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],\"edge_types\":[[\"element\",\"property\",\"weak\"]]}},\"nodes\":[2,0,1,0,2,1,1,3,10,1,1,2,5,20,0],\"edges\":[1,3,5,1,3,10,2,3,10],\"strings\":[\"\",\"A\",\"B\",\"x\"]}" >weak.heapsnapshot &&
	"$PROFTOOL" heap --format json weak.heapsnapshot >w.json &&
	jq -e "[.rows[] | {(.name): .retained}] | add == {\"A\": 10, \"B\": 20}" w.json'


# A holds array P (which holds hidden H) and array Q (B holds Q too, weakly); B and C
# both hold array S; WeakMap W holds its table T; T and key K both hold V by the edges
# named for the pair, and V2 by edges whose name has a line break in the key part
# (not the pair's name: JavaScript's "." stops there). DevTools' rules: P, H and Q
# count in A (their one owner), T in W, S in neither; T's edge to V is left out, so K
# retains V; both edges to V2 count, so only the root retains it. (DevTools' worker,
# given node_count and edge_count in the header, prints these rows too.)
cat >"$TRASH/owners.heapsnapshot" <<\EOF
{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],
"node_types":[["hidden","array","object","synthetic","native"]],
"edge_fields":["type","name_or_index","to_node"],
"edge_types":[["element","property","weak","internal","hidden"]]}},
"nodes":[3,0,1,0,5, 2,1,3,10,2, 1,8,5,100,1, 0,9,7,1000,0, 2,2,9,20,2, 1,8,11,200,0,
1,8,13,400,0, 2,3,15,30,1, 2,4,17,40,1, 1,13,19,50,2, 2,5,21,60,2, 2,6,23,70,0,
2,7,25,80,0],
"edges":[1,10,5, 1,10,20, 1,10,35, 1,10,40, 1,10,50, 3,10,10, 3,10,30, 4,0,15,
3,10,25, 2,10,30, 3,10,25, 3,10,45, 3,11,55, 3,12,60, 3,11,55, 3,12,60],
"strings":["","A","B","C","WeakMap","K","V","V2","(arr)","sys","x",
"1 / part of key (K @21) -> value (V @23) pair in WeakMap (table @19)",
"2 / part of key (K\n @21) -> value (V2 @25) pair in WeakMap (table @19)","(table)"]}
EOF

test_expect_success 'owned sizes move to their one owner; a WeakMap value is its key'"'"'s' '
	"$PROFTOOL" heap --format json "$TRASH/owners.heapsnapshot" >o.json &&
	jq -r ".rows[] | [.name, .count, .shallow, .retained] | @tsv" o.json |
		LC_ALL=C sort >actual &&
	printf "%s\t%s\t%s\t%s\n" "(array)" 1 200 200 A 1 1510 1510 B 1 20 20 C 1 30 30 \
		K 1 60 130 V 1 70 70 V2 1 80 80 WeakMap 1 90 90 >expect &&
	test_cmp expect actual &&
	jq -e ".total_count == 13 and .total_shallow == 2060 and .total_retained == 2060" o.json'

test_expect_success '--snapshot-sizes keeps each node'"'"'s own self size' '
	"$PROFTOOL" heap --snapshot-sizes --format json "$TRASH/owners.heapsnapshot" >o.json &&
	jq -r ".rows[] | [.name, .count, .shallow, .retained] | @tsv" o.json |
		LC_ALL=C sort >actual &&
	printf "%s\t%s\t%s\t%s\n" "(array)" 4 750 1750 "(system)" 1 1000 1000 \
		A 1 10 1510 B 1 20 20 C 1 30 30 K 1 60 130 V 1 70 70 V2 1 80 80 \
		WeakMap 1 40 90 >expect &&
	test_cmp expect actual'

# the root's only edge leads to a synthetic node: no user root (V8's internals exposed)
test_expect_success 'a snapshot whose root holds no user root keeps its sizes' '
	printf "%s" "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],\"node_types\":[[\"hidden\",\"array\",\"object\",\"synthetic\"]],\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],\"edge_types\":[[\"element\",\"property\"]]}},\"nodes\":[3,0,1,0,1,3,2,3,0,1,2,1,5,10,1,1,0,7,100,0],\"edges\":[0,1,5,0,1,10,1,3,15],\"strings\":[\"\",\"A\",\"(GC roots)\",\"x\"]}" >internals.heapsnapshot &&
	"$PROFTOOL" heap --format json internals.heapsnapshot >i.json &&
	jq -r ".rows[] | [.name, .count, .shallow] | @tsv" i.json | LC_ALL=C sort >actual &&
	printf "%s\t%s\t%s\n" "(array)" 1 100 A 1 10 >expect &&
	test_cmp expect actual'


# T (id 19) and K both hold V by an internal edge of one name; where the name is the
# pair's with "table @19", T's edge is left out and K retains V (15), else the root
# does (K: 10). JavaScript's rules: leading zeros parse, a number past 2^32 names no
# node, nothing may follow the last ")", the key and value parts may hold parentheses
# and "@" but not a line break (U+2028, U+2029; U+2027 is not one). DevTools' worker
# gives the same on each.
weakmap_snapshot () {
	printf '{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],"node_types":[["hidden","object","synthetic"]],"edge_fields":["type","name_or_index","to_node"],"edge_types":[["property","internal"]]}},"nodes":[2,0,1,0,2,1,1,19,10,1,1,2,21,10,1,1,3,23,5,0],"edges":[0,4,5,0,4,10,1,5,15,1,5,15],"strings":["","T","K","V","x","%s"]}\n' "$1"
}
cat >"$TRASH/weakmap-names" <<\EOF
15	1 / part of key (K @21) -> value (V @23) pair in WeakMap (table @19)
15	1 / part of key (K @21) -> value (V @23) pair in WeakMap (table @019)
10	1 / part of key (K @21) -> value (V @23) pair in WeakMap (table @4294967315)
10	1 / part of key (K @21) -> value (V @23) pair in WeakMap (table @19) 
10	/ part of key (K @21) -> value (V @23) pair in WeakMap (table @19)
15	12 / part of key (a (b) @1) -> value (c @x2) -> value (V @23) pair in WeakMap (table @19)
10	1 / part of key (K @) -> value (V @23) pair in WeakMap (table @19)
10	1 / part of key (K @21) -> value (V\u2028 @23) pair in WeakMap (table @19)
10	1 / part of key (K @21) -> value (V\u2029x @23) pair in WeakMap (table @19)
15	1 / part of key (K @21) -> value (V\u2027 @23) pair in WeakMap (table @19)
10	1 / part of key (K\n @21) -> value (V @23) pair in WeakMap (table @19)
EOF

test_expect_success 'WeakMap edge names: the ones DevTools leaves out from the table' '
	while IFS="	" read -r want name; do
		weakmap_snapshot "$name" >w.heapsnapshot &&
		"$PROFTOOL" heap --format json w.heapsnapshot >w.json &&
		printf "%s\t%s\n" "$want" "$name" >>expect &&
		printf "%s\t%s\n" "$(jq ".rows[] | select(.name == \"K\") | .retained" w.json)" \
			"$name" >>actual ||
		return 1
	done <"$TRASH/weakmap-names" &&
	test "$(wc -l <expect)" = 11 &&
	test_cmp expect actual'
# a bad index deep in a real snapshot: the error names the byte where its number starts
# (the input is read again to find it), through gzip too; from standard input, which
# is not read again, the end of the input
test_expect_success 'a bad index is located at its own number, past the first chunks' '
	gzip -dc "$S1" >s1.json &&
	node -e "
		const fs = require(\"fs\"), b = fs.readFileSync(process.argv[1]);
		let i = b.indexOf(\"\\\"edges\\\":[\") + 9, k = 0;
		const digit = (c) => c >= 48 && c <= 57;
		for (;;) {
			while (!digit(b[i])) i++;
			if (k++ === 3 * 50000 + 2) break;
			while (digit(b[i])) i++;
		}
		let j = i;
		while (digit(b[j])) j++;
		fs.writeFileSync(process.argv[2], Buffer.concat([b.subarray(0, i),
			Buffer.from(\"4294967295\"), b.subarray(j)]));
		console.log(i);" s1.json bad.heapsnapshot >off &&
	test "$(cat off)" -gt 1000000 &&
	test_expect_code 1 "$PROFTOOL" heap bad.heapsnapshot 2>err &&
	grep "^proftool: bad.heapsnapshot: byte $(cat off): edge 50000: to_node 4294967295 is not a node" err &&
	gzip -c bad.heapsnapshot >bad.heapsnapshot.gz &&
	test_expect_code 1 "$PROFTOOL" heap bad.heapsnapshot.gz 2>err &&
	grep "^proftool: bad.heapsnapshot.gz: byte $(cat off): edge 50000: to_node" err &&
	test_expect_code 1 "$PROFTOOL" heap - <bad.heapsnapshot.gz 2>err &&
	grep "^proftool: <stdin>: byte $(wc -c <bad.heapsnapshot): edge 50000: to_node" err
'

# the integers of nodes and edges are scanned apart from the rest of the JSON: a
# snapshot laid out otherwise (jq's one number a line, indented) reads the same
test_expect_success 'a pretty-printed snapshot reads the same as the compact one' '
	gzip -dc "$S1" >s1.json &&
	jq . s1.json >pretty.heapsnapshot &&
	"$PROFTOOL" heap --format json -n 0 s1.json | jq -c ".rows, .total_retained" >expect &&
	"$PROFTOOL" heap --format json -n 0 pretty.heapsnapshot | jq -c ".rows, .total_retained" >actual &&
	test_cmp expect actual
'

# heap detects its input through the registry, like every other command
test_expect_success 'heap on another format names it and the commands that read it' '
	test_expect_code 1 "$PROFTOOL" heap "$SAMPLES/go/heap.pb.gz" 2>err &&
	test_one_line_err "proftool: $SAMPLES/go/heap.pb.gz: a pprof profile, not a heap snapshot: '"'"'proftool top'"'"' and the other profile commands read it" &&
	test_expect_code 1 "$PROFTOOL" heap "$SAMPLES/node/small.heapprofile" 2>err &&
	grep -q "a heapprofile profile, not a heap snapshot" err &&
	"$PROFTOOL" top "$SAMPLES/node/small.heapprofile" >/dev/null'

test_expect_success 'heap on bytes no reader claims: the snapshot reader says what is wrong' '
	printf "{\"snapshot\":{" >cut.heapsnapshot &&
	test_expect_code 1 "$PROFTOOL" heap cut.heapsnapshot 2>err &&
	test_one_line_err "proftool: cut.heapsnapshot: byte 13: truncated JSON: unexpected end of input" &&
	test_expect_code 1 "$PROFTOOL" heap - </dev/null 2>err &&
	test_one_line_err "proftool: <stdin>: byte 0: truncated JSON: unexpected end of input"'

test_done
