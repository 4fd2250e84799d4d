// gecko-totals.js: an independent count of a Firefox/Gecko profile with JSON.parse, for
// t4080: per function (name, file:line or "-") its self and total weight, a function
// counted once per stack, read as the Firefox Profiler's docs describe the formats
// (raw Gecko: schema'd tables per thread, subprocesses as objects or JSON strings;
// processed: column tables, per thread or in `shared`). Samples without a stack are
// left out; a weight of null counts 1.
// Usage: node gecko-totals.js FILE [THREAD-NAME]     (FILE may be gzipped)
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const [file, only] = process.argv.slice(2);
let buf = fs.readFileSync(file);
if (buf[0] === 0x1f && buf[1] === 0x8b)
	buf = zlib.gunzipSync(buf);
let doc = JSON.parse(buf.toString('utf8'));
if (doc.profile && !doc.threads)
	doc = doc.profile; // the DevTools panel's wrapper

// a table as {column: array}: processed tables are that already
function columns(t) {
	if (!t || !t.schema)
		return t;
	const out = {};
	for (const [name, at] of Object.entries(t.schema))
		out[name] = t.data.map((row) => (row[at] === undefined ? null : row[at]));
	return out;
}

const rows = new Map();
let total = 0;

function funcKeyRaw(loc, line) {
	const m = /^(.*) \((.+?):([0-9]+)(?::([0-9]+))?\)(?:\[(\d+)\])?$/.exec(loc) ||
		/^()(.+?):([0-9]+)(?::([0-9]+))?(?:\[(\d+)\])?$/.exec(loc);
	if (!m)
		return [loc, '-'].join('\t');
	const name = m[1] || '(root scope) ' + m[2];
	return [name, m[2] + ':' + m[3]].join('\t');
}

function thread(t, shared) {
	if (only !== undefined && t.name !== only)
		return;
	const strings = t.stringArray || t.stringTable || shared.stringArray;
	const stacks = columns(t.stackTable || shared.stackTable);
	const frames = columns(t.frameTable || shared.frameTable);
	const funcs = columns(t.funcTable || shared.funcTable);
	const sources = shared.sources;
	const samples = columns(t.samples);
	const n = samples.stack.length;
	const tracing = t.samples.weightType === 'tracing-ms';
	const frameKey = (f) => {
		if (!funcs)
			return funcKeyRaw(strings[frames.location[f]]);
		const fn = frames.func[f];
		let file = null;
		if (funcs.fileName && funcs.fileName[fn] !== null && funcs.fileName[fn] !== undefined)
			file = strings[funcs.fileName[fn]];
		else if (funcs.source && funcs.source[fn] !== null && funcs.source[fn] !== undefined)
			file = strings[sources.filename[funcs.source[fn]]];
		const line = funcs.lineNumber ? funcs.lineNumber[fn] : null;
		return [strings[funcs.name[fn]],
			file && line > 0 ? file + ':' + line : '-'].join('\t');
	};
	const prefix = (s) => {
		if (stacks.prefixOffset)
			return stacks.prefixOffset[s] ? s - stacks.prefixOffset[s] : null;
		return stacks.prefix[s];
	};
	for (let i = 0; i < n; i++) {
		const s = samples.stack[i];
		if (s === null)
			continue;
		let w = samples.weight && samples.weight[i] !== null ? samples.weight[i] : 1;
		if (tracing)
			w = Math.round(w * 1e6);
		total += w;
		const chain = [];
		for (let x = s; x !== null && x !== undefined; x = prefix(x))
			chain.push(frameKey(stacks.frame[x]));
		const leaf = chain[0];
		if (!rows.has(leaf))
			rows.set(leaf, [0, 0]);
		rows.get(leaf)[0] += w;
		for (const k of new Set(chain)) {
			if (!rows.has(k))
				rows.set(k, [0, 0]);
			rows.get(k)[1] += w;
		}
	}
}

function profile(p) {
	if (typeof p === 'string')
		p = JSON.parse(p);
	for (const t of p.threads || [])
		thread(t, p.shared || {});
	for (const sub of p.processes || [])
		profile(sub);
}
profile(doc);

const out = [];
for (const [k, [self, cum]] of rows)
	if (self || cum)
		out.push(k + '\t' + self + '\t' + cum);
out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
console.log('# total ' + total);
for (const l of out)
	console.log(l);
