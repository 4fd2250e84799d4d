// heap-memlab.js: the per-constructor summary of a heap snapshot from memlab's own
// heap model (@memlab/core: its parser, dominator tree and retained sizes), grouped
// as DevTools' Summary groups, for t4050. Prints "name<TAB>count<TAB>shallow<TAB>
// retained" sorted by name, then "# total_retained N".
// Usage: node heap-memlab.js FILE   (PROFTOOL_VIEWERS_MODULES names node_modules)
'use strict';
const path = require('path');
const mods = process.env.PROFTOOL_VIEWERS_MODULES ||
	path.join(__dirname, 'viewers', 'node_modules');
const { utils, analysis, info } = require(path.join(mods, '@memlab', 'core'));

function className(n) {
	switch (n.type) {
	case 'hidden': return '(system)';
	case 'object': case 'native': return n.name;
	case 'code': return '(compiled code)';
	default: return '(' + n.type + ')';
	}
}

(async () => {
	info.setLogLevel && info.setLogLevel('silent');
	const snap = await utils.getSnapshotFromFile(process.argv[2], { buildNodeIdIndex: true });
	analysis.preparePathFinder(snap);
	const rows = new Map();
	const kids = new Map();
	let root = null;
	snap.nodes.forEach((n) => {
		if (n.id === 0 || !root) root = root || n;
		const dom = n.dominatorNode;
		if (dom && dom !== n && n.nodeIndex !== 0) {
			if (!kids.has(dom.nodeIndex)) kids.set(dom.nodeIndex, []);
			kids.get(dom.nodeIndex).push(n);
		}
		if (!n.self_size) return;
		const c = className(n);
		if (!rows.has(c)) rows.set(c, [0, 0, 0]);
		const r = rows.get(c);
		r[0]++;
		r[1] += n.self_size;
	});
	// DevTools' class retained size: walk the dominator tree from the root; an
	// object counts unless an object of its class dominates it
	root = snap.getNodeByIndex ? snap.getNodeByIndex(0) : root;
	const stack = [[root, new Set()]];
	while (stack.length) {
		const [n, above] = stack.pop();
		let next = above;
		if (n.nodeIndex !== 0 && n.self_size) {
			const c = className(n);
			if (!above.has(c)) {
				rows.get(c)[2] += n.retainedSize;
				next = new Set(above);
				next.add(c);
			}
		}
		for (const k of kids.get(n.nodeIndex) || []) stack.push([k, next]);
	}
	const out = [];
	for (const [c, r] of rows) out.push(c + '\t' + r.join('\t'));
	out.sort();
	process.stdout.write(out.join('\n') + '\n# total_retained ' + root.retainedSize + '\n');
})();
