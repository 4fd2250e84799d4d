#!/bin/sh
test_description='heap summary against Chrome DevTools'"'"' own heap snapshot worker'
. "$(dirname "$0")/lib.sh"

# DevTools' worker (npm chrome-devtools-frontend, bundled for node by esbuild) is
# installed by tests/viewers/setup.sh into tests/viewers/node_modules (or
# PROFTOOL_VIEWERS_MODULES); without it, or without node or jq, these are skipped.
plain_build_judges 'DevTools comparison'
if ! command -v jq >/dev/null || ! command -v node >/dev/null ||
	! test -f "$MODS/.proftool-devtools-heap-worker.mjs"; then
	test_skip 'DevTools comparison' \
		'node, jq or chrome-devtools-frontend (tests/viewers/setup.sh) is not installed'
	test_done
	exit
fi

# The snapshots: the committed samples (samples/node/make.sh), and two made here by
# node: the shapes of samples/node/src/heap-shapes.js with a 200000-node list (the
# issue's million-node list takes node 18 s to write and DevTools 12 s to read; the
# depth is what matters and 200000 is deep enough for any recursion), and a WeakMap
# whose keys are held elsewhere.
SNAPS=$TRASH/snaps
mkdir "$SNAPS"
for f in shapes-1 shapes-2 alloc; do
	gzip -dc "$SAMPLES/node/$f.heapsnapshot.gz" >"$SNAPS/$f.heapsnapshot"
done
(cd / && node - 200000 <"$SAMPLES/node/src/heap-shapes.js" \
	3>"$SNAPS/list.heapsnapshot" 4>/dev/null 5>/dev/null)
cat >"$SNAPS/weakmap.js" <<'EOF'
class WeakKey {}
class WeakValue { constructor(i) { this.data = new Array(100).fill(i); } }
const keys = [], wm = new WeakMap();
for (let i = 0; i < 10; i++) { const k = new WeakKey(); keys.push(k); wm.set(k, new WeakValue(i)); }
globalThis.keep = { keys, wm };
require('v8').writeHeapSnapshot('/dev/fd/3');
EOF
(cd / && node - <"$SNAPS/weakmap.js" 3>"$SNAPS/weakmap.heapsnapshot")
# and one V8 would not write: objects held only through weak edges, cliques that nothing
# outside holds, edges from an object to itself (tests/crafted.py)
python3 "$SRCDIR/tests/crafted.py" heapsnapshot 2000 >"$SNAPS/crafted.heapsnapshot"

# both sides once per snapshot. V8 writes alloc's header with trace_function_count 25
# but 28 function infos; DevTools' worker sizes its array by the count and then throws
# on the trace tree, so it is given the snapshot with the count zeroed (its Summary
# does not read the allocation traces)
for f in shapes-1 shapes-2 alloc list weakmap crafted; do
	s=$SNAPS/$f.heapsnapshot
	sed '1s/"trace_function_count":[0-9]*/"trace_function_count":0/' "$s" >"$SNAPS/dt.in" &&
	node "$SRCDIR/tests/viewers/devtools-heap.mjs" \
		"$SNAPS/dt.in" "$SNAPS/$f.dist" >"$SNAPS/$f.dt.json" &&
	"$PROFTOOL" heap --format json -n 0 "$s" >"$SNAPS/$f.pt.json" ||
		echo "$f: a side failed" >&2
done
rm -f "$SNAPS/dt.in"

# name<TAB>count<TAB>shallow<TAB>retained per class, sorted by name. proftool's side:
# its rows. DevTools' side: its numbers by proftool's class (the by_name rows that
# devtools-heap.mjs aggregates, as the worker does, from the worker's own self sizes,
# retained sizes and dominator tree). The classes are the same but for names:
# DevTools calls closures "Function" and regexps "RegExp" where proftool says
# "(closure)" and "(regexp)"; it renames plain objects after their first properties,
# "{a, b}", where proftool keeps "Object"; and it keys object classes by constructor
# location too (Module and TextEncoder are each defined in two places here).
rows () {
	case $1 in
	*.dt.json) field=by_name ;;
	*) field=rows ;;
	esac
	jq -r ".$field[] | [.name, .count, .shallow, .retained] | @tsv" "$SNAPS/$1" | sort
}

# the worker's own Summary rows (aggregatesWithFilter) for the names only one of its
# classes has, closures and regexps renamed, the renamed plain objects left out
own_rows () {
	jq -r '.rows[] | [.name, .count, .shallow, .retained] | @tsv' "$SNAPS/$1" |
		awk -F'\t' -v OFS='\t' '$1 == "Object" || $1 ~ /^\{/ { next }
			{ if ($1 == "Function") $1 = "(closure)"
			  if ($1 == "RegExp") $1 = "(regexp)"
			  print }' >own.all &&
		awk -F'\t' 'NR == FNR { n[$1]++; next } n[$1] == 1' own.all own.all | sort
}

for f in shapes-1 shapes-2 alloc list; do
	test_expect_success "$f: DevTools' total retained size (the root's)" '
		jq .total_retained "$SNAPS/'$f'.dt.json" >expect &&
		jq .total_retained "$SNAPS/'$f'.pt.json" >actual &&
		test_cmp expect actual'

	# the shapes the snapshots were made for: a leak growing an array of closures
	# (LeakHolder), a Map cache (CacheEntry), the deep list (ListNode); all three
	# agree in count, shallow and retained size
	test_expect_success "$f: DevTools' rows of the leaking shapes" '
		rows '$f'.dt.json | grep -E "^(LeakHolder|CacheEntry|ListNode)	" >expect &&
		rows '$f'.pt.json | grep -E "^(LeakHolder|CacheEntry|ListNode)	" >actual &&
		test "$(wc -l <expect)" = 3 &&
		test_cmp expect actual'

	# the typed arrays over ArrayBuffers (their backing stores outside the JS heap)
	test_expect_success "$f: DevTools' count and retained size of the buffers" '
		rows '$f'.dt.json | grep -E "^(ArrayBuffer|Uint8Array|system / JSArrayBufferData)	" |
			cut -f 1,2,4 >expect &&
		rows '$f'.pt.json | grep -E "^(ArrayBuffer|Uint8Array|system / JSArrayBufferData)	" |
			cut -f 1,2,4 >actual &&
		test "$(wc -l <expect)" = 3 &&
		test_cmp expect actual'

	# the by_name rows are the worker's own where it has one class of the name: the
	# aggregation by proftool's class is the worker's, only keyed differently
	test_expect_success "$f: DevTools' rows by name are its Summary rows" '
		own_rows '$f'.dt.json >expect &&
		test "$(wc -l <expect)" -gt 100 &&
		cut -f 1 expect >names &&
		rows '$f'.dt.json | awk -F"	" "NR == FNR { k[\$0]; next } \$1 in k" names - >actual &&
		test_cmp expect actual'

	# every class: both leave out nodes of size 0, and a node whose whole size
	# DevTools gives to its owner (next test) has size 0
	test_expect_success "$f: DevTools' classes and their counts" '
		rows '$f'.dt.json | cut -f 1,2 >expect &&
		rows '$f'.pt.json | cut -f 1,2 >actual &&
		test_cmp expect actual'

	# DevTools' calculateShallowSizes gives the size of each hidden node, array and
	# "system / ExternalStringData" reached (over non-weak edges) from exactly one
	# other node to that node (a Map's hash table to the Map, an object's property and
	# element arrays to the object, a function's internals to it); so does proftool
	test_expect_success "$f: DevTools' shallow size of each class" '
		rows '$f'.dt.json | cut -f 1,3 >expect &&
		rows '$f'.pt.json | cut -f 1,3 >actual &&
		test_cmp expect actual'

	# the moved shallow sizes move retained sizes between classes too, and DevTools
	# ignores the WeakMap table's edge to a value (last test)
	test_expect_success "$f: DevTools' retained size of each class" '
		rows '$f'.dt.json | cut -f 1,4 >expect &&
		rows '$f'.pt.json | cut -f 1,4 >actual &&
		test_cmp expect actual'
done

# Nodes the root does not reach: DevTools starts from those without an essential
# retainer (an edge to itself is none), then takes the rest one by one, each keeping
# what the other members of its clique give it
test_expect_success "crafted: DevTools' rows of unreachable objects and cliques" '
	rows crafted.dt.json >expect &&
	rows crafted.pt.json >actual &&
	test "$(wc -l <expect)" -ge 10 &&
	test_cmp expect actual &&
	jq .total_retained "$SNAPS/crafted.dt.json" >expect &&
	jq .total_retained "$SNAPS/crafted.pt.json" >actual &&
	test_cmp expect actual'

# A value in a WeakMap is reached by two internal edges named "N / part of key (K @k)
# -> value (V @v) pair in WeakMap (table @t)", from the table and from the key.
# DevTools' computeIsEssentialEdge leaves out the one from the table (node id t), so
# the key dominates the value and retains it (freeing the key frees the value); so does
# proftool (memlab keeps both, and the value is dominated by what dominates both).
test_expect_success 'weakmap: DevTools counts a WeakMap value in its key'"'"'s retained size' '
	rows weakmap.dt.json | grep -E "^Weak(Key|Value)	" >expect &&
	rows weakmap.pt.json | grep -E "^Weak(Key|Value)	" >actual &&
	test "$(wc -l <expect)" = 2 &&
	test_cmp expect actual'

# --retainers prints the path DevTools' Retainers pane opens, whose retainers it orders
# by its Distance: the k-th node of a path has the worker's distance k (from the page's
# globals, the user roots, one step from the root) or, for an object the globals do
# not reach, 100000000 + k (the root's own distance and its steps); the path ends at the
# object, and an object has no path exactly when the worker gives it no distance (-5).
# The objects: the 300 that retain the most, and up to 2000 of the plain classes; in
# crafted, the Shapes behind the edges DevTools' distances leave out.
for f in shapes-1 shapes-2 alloc list weakmap crafted; do
	test_expect_success "$f: --retainers paths step by step through DevTools' distances" '
		{ "$PROFTOOL" heap --retainers . -n 300 --format json \
			"$SNAPS/'$f'.heapsnapshot" &&
		  "$PROFTOOL" heap -n 2000 --format json \
			--retainers "^(Object|system / Context|\(closure\)|Weak(Key|Value)|Shape)\$" \
			"$SNAPS/'$f'.heapsnapshot"; } |
		jq -r ".[] | [.id, .reachable, (.path | map(capture(\" @(?<i>[0-9]+)\$\").i) |
			join(\" \"))] | @tsv" >paths &&
		awk -F"\t" "NR == FNR { split(\$0, f, \" \"); d[f[1]] = f[2]; next }
			{ n++ }
			\$2 == \"false\" { if (d[\$1] != -5) print \"unreached:\", \$0; next }
			{ k = split(\$3, p, \" \"); base = d[p[1]] >= 100000000 ? 100000000 : 0
			  if (p[k] != \$1) print \"not the object:\", \$0
			  for (i = 1; i <= k; i++)
				if (d[p[i]] != base + i) { print \"step\", i, \"at\", d[p[i]] \":\", \$0; break } }
			END { if (n < 300) print \"only\", n, \"paths\" }" "$SNAPS/'$f'.dist" paths >bad &&
		test_cmp /dev/null bad'
done

test_done
