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

# NAME COUNT SHALLOW rows of our summary, sorted; the native nodes DevTools renames
# "Detached X" (reached from a detached one) merged back into X, as heap-count.js
# does not follow edges
rows () {
	"$PROFTOOL" heap --format json -n 0 "$@" >h.json &&
	jq -r '.rows[] | [.name, .count, .shallow] | @tsv' h.json |
	awk -F'\t' -v OFS='\t' '{ sub(/^Detached /, "", $1)
		if (!($1 in c)) o[++n] = $1; c[$1] += $2; s[$1] += $3 }
		END { for (i = 1; i <= n; i++) print o[i], c[o[i]], s[o[i]] }' | LC_ALL=C sort
}

for f in shapes-1 shapes-2 alloc; do
	test_expect_success "$f: per-constructor count and shallow size match an independent count" '
		rows "$N/'$f'.heapsnapshot.gz" >actual &&
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

test_expect_success '--fail-on-growth: exit 3 past a size or a share, 0 under it' '
	"$PROFTOOL" heap --diff --fail-on-growth 1M "$S1" "$S2" >/dev/null &&
	test_expect_code 3 "$PROFTOOL" heap --diff --fail-on-growth 100K "$S1" "$S2" >/dev/null &&
	test_expect_code 3 "$PROFTOOL" heap --diff --fail-on-growth 50% "$S1" "$S2" >/dev/null &&
	test_expect_code 2 "$PROFTOOL" heap --fail-on-growth 1M "$S1" &&
	test_expect_code 2 "$PROFTOOL" heap --diff --fail-on-growth lots "$S1" "$S2"'

test_expect_success 'usage: one FILE, or two with --diff' '
	test_expect_code 2 "$PROFTOOL" heap &&
	test_expect_code 2 "$PROFTOOL" heap --diff "$S1" &&
	"$PROFTOOL" heap --help >out && grep -q -- "--fail-on-growth" out && grep -q -- "--retainers" out'

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

test_done
