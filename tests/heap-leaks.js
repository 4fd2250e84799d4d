// heap-leaks.js: an independent leak verdict over V8 heap snapshots of one process,
// with JSON.parse, for t2110: the nodes of the last snapshot whose id is in every
// snapshot from one after the first up to the last, and not in the one before that;
// grouped as heap-count.js groups (DevTools' Summary classes from each node's own
// self_size, nodes of size 0 left out). Prints "name<TAB>count<TAB>shallow" sorted,
// then "# leaked N shallow S".
// Usage: node heap-leaks.js SNAPSHOT... (oldest first, gzip accepted)
'use strict';
const fs = require('fs');
const zlib = require('zlib');
function load(path) {
	let buf = fs.readFileSync(path);
	if (buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
	return JSON.parse(buf.toString('utf8'));
}
const files = process.argv.slice(2);
let start = new Map(); // id -> the first snapshot of its run
let s = null;
for (let k = 0; k < files.length; k++) {
	s = load(files[k]);
	const m = s.snapshot.meta, nf = m.node_fields.length, I = m.node_fields.indexOf('id');
	const next = new Map();
	for (let i = nf; i < s.nodes.length; i += nf) { // the first node is the root
		const id = s.nodes[i + I];
		if (!next.has(id)) next.set(id, start.has(id) ? start.get(id) : k);
	}
	if (k < files.length - 1) start = next;
}
const m = s.snapshot.meta, nf = m.node_fields.length;
const at = (f) => m.node_fields.indexOf(f);
const T = at('type'), N = at('name'), S = at('self_size'), I = at('id');
const types = m.node_types[0], last = files.length - 1;
const rows = new Map();
let count = 0, total = 0;
for (let i = nf; i < s.nodes.length; i += nf) {
	const st = start.get(s.nodes[i + I]);
	if (st === undefined || st < 1 || st >= last) continue;
	const type = types[s.nodes[i + T]], self = s.nodes[i + S];
	count++;
	total += self;
	if (!self) continue;
	const name = type === 'hidden' ? '(system)' : type === 'code' ? '(compiled code)'
		: type === 'object' || type === 'native' ? s.strings[s.nodes[i + N]] : '(' + type + ')';
	if (!rows.has(name)) rows.set(name, [0, 0]);
	rows.get(name)[0]++;
	rows.get(name)[1] += self;
}
const out = [];
for (const [k, v] of rows) out.push(k + '\t' + v[0] + '\t' + v[1]);
out.sort();
console.log(out.join('\n'));
console.log('# leaked ' + count + ' shallow ' + total);
