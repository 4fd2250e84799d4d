#!/bin/sh
test_description='heap summary against memlab (@memlab/core) on the node snapshots'
. "$(dirname "$0")/lib.sh"

# memlab is installed by tests/viewers/setup.sh into tests/viewers/node_modules (or
# PROFTOOL_VIEWERS_MODULES); without it, or without node or jq, these are skipped.
plain_build_judges 'memlab comparison'
if ! command -v jq >/dev/null || ! command -v node >/dev/null ||
	! test -f "$MODS/@memlab/core/package.json"; then
	test_skip 'memlab comparison' 'node, jq or @memlab/core is not installed'
	test_done
	exit
fi

# memlab does not carry DevTools' propagation of detachedness (it renames only the
# nodes the snapshot marks detached, not those they reach), so class names are
# compared with the "Detached " prefix taken off and the rows summed
merge_detached () {
	awk -F'\t' -v OFS='\t' '{ sub(/^Detached /, "", $1)
		if (!($1 in c)) o[++n] = $1; c[$1] += $2; s[$1] += $3 }
		END { for (i = 1; i <= n; i++) print o[i], c[o[i]], s[o[i]] }' | LC_ALL=C sort
}

# the snapshot through memlab and through us, in this test's directory
both () {
	gzip -dc "$SAMPLES/node/$1.heapsnapshot.gz" >s.heapsnapshot &&
	node "$SRCDIR/tests/heap-memlab.js" s.heapsnapshot \
		>memlab.txt 2>/dev/null &&
	"$PROFTOOL" heap --format json -n 0 s.heapsnapshot >h.json &&
	"$PROFTOOL" heap --snapshot-sizes --format json -n 0 s.heapsnapshot >h.raw.json &&
	test -s memlab.txt
}

for f in shapes-1 shapes-2; do
	# memlab keeps each node's own self size; DevTools (and proftool, unless
	# --snapshot-sizes) give the size of a hidden node or array one object owns to that
	# object (t4060 compares those)
	test_expect_success "$f: memlab's count and shallow size per constructor" '
		both '$f' &&
		jq -r ".rows[] | [.name, .count, .shallow] | @tsv" h.raw.json | merge_detached >actual &&
		grep -v "^#" memlab.txt | cut -f 1-3 | merge_detached >expect &&
		test_cmp expect actual'
	test_expect_success "$f: memlab's total retained size" '
		both '$f' &&
		jq -r "\"# total_retained \(.total_retained)\"" h.json >actual &&
		grep "^# total_retained" memlab.txt >expect &&
		test_cmp expect actual'
	# Retained sizes of other classes differ: memlab marks "page" objects from the
	# root edges that are not shortcuts, DevTools (and we) from the shortcut edges to
	# the globals, and edges from outside the page into it are left out of the
	# dominator tree; DevTools' moved shallow sizes move retained sizes too. The
	# leaking shapes are retained the same either way (ListNode in shapes-1 is not:
	# memlab gives 800000, DevTools' rule 800328).
	test_expect_success "$f: memlab's retained size of the leaking shapes" '
		both '$f' &&
		jq -r ".rows[] | select(.name | test(\"^(CacheEntry|LeakHolder)$\")) |
			[.name, .count, .shallow, .retained] | @tsv" h.json | LC_ALL=C sort >actual &&
		test "$(wc -l <actual)" = 2 &&
		grep -E "^(CacheEntry|LeakHolder)	" memlab.txt | LC_ALL=C sort >expect &&
		test_cmp expect actual'
done

test_done
