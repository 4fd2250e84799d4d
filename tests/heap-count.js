// heap-count.js: an independent per-constructor count of a heap snapshot with
// JSON.parse, for t4040: DevTools' Summary classes (objects and native nodes by
// name, "(system)" for hidden, "(compiled code)" for code, else "(type)"; nodes of
// size 0 left out) from each node's own self_size, as `proftool heap --snapshot-sizes`
// keeps it. Prints "name<TAB>count<TAB>shallow" sorted, then "# nodes N shallow S".
// Usage: node heap-count.js FILE (gzip accepted)
'use strict';
const fs = require('fs');
const zlib = require('zlib');
let buf = fs.readFileSync(process.argv[2]);
if (buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
const s = JSON.parse(buf.toString('utf8'));
const m = s.snapshot.meta;
const nf = m.node_fields.length;
const at = (f) => m.node_fields.indexOf(f);
const T = at('type'), N = at('name'), S = at('self_size');
const types = m.node_types[0];
const rows = new Map();
let total = 0, count = 0;
for (let i = 0; i < s.nodes.length; i += nf) {
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
console.log('# nodes ' + count + ' shallow ' + total);
