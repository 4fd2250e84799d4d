// heapprofile-totals.js: an independent count of a .heapprofile with JSON.parse, for
// t4030: per function (name, url, 1-based line) its self and total space (selfSize)
// and objects (samples naming its nodes), a function counted once per stack.
// Usage: node heapprofile-totals.js FILE space|objects
'use strict';
const fs = require('fs');
const [file, type] = process.argv.slice(2);
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
const count = new Map();
for (const s of prof.samples || [])
	count.set(s.nodeId, (count.get(s.nodeId) || 0) + 1);
const rows = new Map();
let total = 0;
// iterative walk: the node with the chain of function keys above it
const todo = [[prof.head, []]];
while (todo.length) {
	const [n, above] = todo.pop();
	const cf = n.callFrame;
	const isRoot = n === prof.head && cf.functionName === '(root)' && cf.url === '';
	let chain = above;
	let key = null;
	if (!isRoot) {
		const line = cf.lineNumber >= 0 ? cf.lineNumber + 1 : 0;
		key = [cf.functionName || '(anonymous)', line > 0 ? cf.url + ':' + line : '-'].join('\t');
		chain = above.concat([key]);
	}
	const v = type === 'objects' ? count.get(n.id) || 0 : n.selfSize;
	total += v;
	if (v) {
		if (key) {
			if (!rows.has(key)) rows.set(key, [0, 0]);
			rows.get(key)[0] += v;
		}
		for (const k of new Set(chain)) {
			if (!rows.has(k)) rows.set(k, [0, 0]);
			rows.get(k)[1] += v;
		}
	}
	for (const c of n.children) todo.push([c, chain]);
}
const out = [];
for (const [k, [self, cum]] of rows) out.push(k + '\t' + self + '\t' + cum);
out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
console.log('# total ' + total);
for (const l of out) console.log(l);
