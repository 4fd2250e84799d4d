#!/usr/bin/env node
// speedscope-frames.js: compare speedscope's expected per-frame weights (its jest
// snapshots, src/import/__snapshots__/*.snap) with proftool's reading of the same sample
// profile. speedscope's own presentation rules, where they differ from ours (each one
// named in the man page, "speedscope's sample profiles"), are applied here to
// proftool's per-sample output; every frame's self and total weight must then equal
// the snapshot's. No speedscope code is used.
//
// Usage: node speedscope-frames.js SNAPFILE TEST RULES DIR [TYPE]
//   TEST   the snapshot's test name; its profiles are "TEST 1", "TEST 2", ...; TEST@K
//          takes profile K only, TEST@all all of them (one thread of ours: speedscope
//          keeps a profile per Profile id, and the others must be empty)
//   RULES  v8 | v8-legacy | perf | stackprof | heap | plain: whose rules apply
//   DIR    proftool's output for the same profile (and thread, with --thread):
//          top.csv      `proftool top --format csv -n 0 --sample-index TYPE`
//          samples.tsv, stacks.tsv   `proftool export --timeline` (all but heap)
//          profile.cpuprofile        `proftool convert --to cpuprofile` (v8 rules)
//   TYPE   the sample type whose values are the weights (export rows)
// The weights computed with our own rules from the same output must equal top.csv, so
// what is compared is what `top` reports.
// Prints "ok: N frames" or each frame that differs, and exits 0 or 1.
'use strict';

const fs = require('fs');
const path = require('path');

function die(msg)
{
	process.stdout.write(msg + '\n');
	process.exit(1);
}

// ---- speedscope's snapshot ----

// A .snap file holds exports[`NAME`] = `BODY`; BODY is pretty-format text (escapeString
// off), with backslash, backtick and "${" escaped by the template literal.
function readSnapshot(file)
{
	const text = fs.readFileSync(file, 'utf8');
	const re = /^exports\[`((?:[^`\\]|\\.)*)`\] = `((?:[^`\\]|\\.)*)`;$/gms;
	const unesc = (s) => s.replace(/\\([\\`]|\$\{)/g, '$1');
	const out = new Map();
	let m;
	while ((m = re.exec(text)))
		out.set(unesc(m[1]), unesc(m[2]));
	return out;
}

function scalar(v)
{
	if (v === 'undefined' || v === 'null')
		return undefined;
	if (v.startsWith('"') && v.endsWith('"'))
		return v.slice(1, -1);
	return Number(v);
}

// the frames of one profile's body: [{name, file, line, col, self, total}]
function snapshotFrames(body)
{
	const frames = [];
	const fre = /^    Frame \{\n([\s\S]*?)^    \},$/gm;
	let m;
	while ((m = fre.exec(body))) {
		const f = {};
		for (const line of m[1].split('\n')) {
			const kv = /^      "(\w+)": (.*),$/.exec(line);
			if (kv)
				f[kv[1]] = scalar(kv[2]);
		}
		frames.push({name: f.name, file: f.file, line: f.line, col: f.col,
			self: f.selfWeight, total: f.totalWeight});
	}
	return frames;
}

// ---- per-frame weights ----

// a stack is a list of frames root first; a frame's total counts once per stack
// however often the frame recurs in it (speedscope's and our rule alike)
function Weights()
{
	this.by = new Map();
}
Weights.prototype.add = function(stack, w) {
	if (!stack.length)
		return;
	const seen = new Set();
	for (const f of stack) {
		const k = f.key;
		let e = this.by.get(k);
		if (!e)
			this.by.set(k, e = {frame: f, self: 0, total: 0});
		if (!seen.has(k)) {
			seen.add(k);
			e.total += w;
		}
	}
	this.by.get(stack[stack.length - 1].key).self += w;
};

function key(name, file, line, col)
{
	return [name, file, line, col].join('\u0001');
}

// ---- V8 CPU profiles (.cpuprofile and Chrome traces) ----

// Our .cpuprofile has every sample in time order (its nodes carry the columns); the
// export has them in the input's order, each at its own time. Our writer orders them by
// (time, input position), so the k-th written sample is the k-th event in that order.
function readV8(dir)
{
	const p = JSON.parse(fs.readFileSync(path.join(dir, 'profile.cpuprofile'), 'utf8'));
	const byId = new Map();
	for (const n of p.nodes)
		byId.set(n.id, n);
	for (const n of p.nodes)
		for (const c of n.children || [])
			byId.get(c).parent = n;
	const times = [];
	let t = p.startTime;
	for (const d of p.timeDeltas)
		times.push(t += d);
	const events = readExport(dir, null).map((e) => e.time);
	if (events.length !== p.samples.length)
		die(`${events.length} events in the export, ${p.samples.length} samples written`);
	const order = events.map((t, i) => i).sort((a, b) => events[a] - events[b] || a - b);
	const input = new Array(events.length);
	order.forEach((e, k) => input[e] = {node: byId.get(p.samples[k]), time: events[e] / 1000});
	return {byId, samples: p.samples, times, endTime: p.endTime, input};
}

// the frame speedscope makes of a call frame: lines and columns 1-based, an unnamed
// function named after its file and line. Code without a url is ours "VM<scriptId>"
// (DevTools' name), which our writer gives back as an empty url. legacy: speedscope
// takes the legacy format's 1-based lines (0: unknown) for 0-based and adds one, and
// gives every frame column 1.
function v8Frame(cf, legacy)
{
	const file = cf.url;
	const line = cf.lineNumber + 1 + (legacy ? 1 : 0);
	const col = legacy ? 1 : cf.columnNumber + 1;
	const name = cf.functionName ||
		(file ? `(anonymous ${file.split('/').pop()}:${line})` : '(anonymous)');
	return {key: key(name, file, line, col), name, file, line, col};
}

// the function `top` shows for a call frame (our writer keeps the input's scriptId)
function ourFrame(cf)
{
	const name = cf.functionName || '(anonymous)';
	const file = cf.url || (cf.scriptId !== '0' ? 'VM' + cf.scriptId : '');
	const line = cf.lineNumber + 1;
	const col = cf.columnNumber + 1;
	return {key: key(name, file, line, col), name, file, line, col};
}

const v8Name = (n) => n.callFrame.functionName;
const v8OnTop = (n) => v8Name(n) === '(program)' || v8Name(n) === '(garbage collector)';
const v8Ignored = (n) => n.callFrame.url === 'native dummy.js' || v8Name(n) === '(root)' ||
	v8Name(n) === '(idle)';

// speedscope's reading, in the input's order: runs of one node are one sample, whose
// time is the largest time of the runs before it (time deltas may be negative); a run
// lasts until the next one and the last one not at all; (program) and (garbage
// collector) go on top of the stack before them; (root), (idle) and "native dummy.js"
// open no frame, nor do the frames beneath them. Our (garbage collector) sits on the
// stack before it already (DevTools' rule): it is taken back to the top level first.
function v8Speedscope(p, legacy)
{
	const gc = {callFrame: {functionName: '(garbage collector)', url: '', lineNumber: -1,
		columnNumber: -1}, parent: null};
	const runs = [];
	let last = null, valid = -Infinity;
	/* a run's time: its first sample's, or the last run's when that is later */
	const at = (t) => t < valid ? valid : (valid = t);
	p.input.forEach((e, i) => {
		const node = v8Name(e.node) === '(garbage collector)' ? gc : e.node;
		if (node !== last)
			runs.push({node, at: at(e.time)});
		if (i === p.input.length - 1 && last)
			runs.push({node: last, at: at(e.time)});
		last = node;
	});
	const w = new Weights();
	let prev = [];
	runs.forEach((r, i) => {
		const up = (x) => v8OnTop(x) ? prev[prev.length - 1] : x.parent;
		let lca = r.node;
		while (lca && !prev.includes(lca))
			lca = up(lca);
		const keep = lca ? prev.indexOf(lca) + 1 : 0;
		const open = [];
		for (let x = r.node; x && x !== lca && !v8Ignored(x); x = up(x))
			open.push(x);
		prev = prev.slice(0, keep).concat(open.reverse());
		const weight = i + 1 < runs.length ? runs[i + 1].at - r.at : 0;
		w.add(prev.map((x) => v8Frame(x.callFrame, legacy)), weight);
	});
	return w;
}

// ours: every sample's own stack, weighed by the time to the next in time order and the
// last one until endTime
function v8Ours(p)
{
	const w = new Weights();
	const n = p.samples.length;
	for (let i = 0; i < n; i++) {
		const stack = [];
		for (let x = p.byId.get(p.samples[i]); x && x.parent; x = x.parent)
			stack.unshift(ourFrame(x.callFrame));
		w.add(stack, (i + 1 < n ? p.times[i + 1] : p.endTime) - p.times[i]);
	}
	return w;
}

// ---- export --timeline tables (perf, stackprof, pprof, collapsed) ----

function tsvField(s)
{
	return s.replace(/\\(.)/g, (m, c) => ({t: '\t', n: '\n', r: '\r', 0: '\0'})[c] ?? c);
}

function tsvArray(s)
{
	const inner = s.slice(1, -1);
	const out = [];
	const re = /'((?:[^'\\]|\\.)*)'/g;
	let m;
	while ((m = re.exec(inner)))
		out.push(m[1].replace(/\\(.)/g, '$1'));
	return out;
}

// the samples of type TYPE in input order: {stack: [{name, file, line}], value, time,
// labels}. Every sample has a row of its first type ("samples"), so zero values of TYPE
// (left out of the table) still count as samples.
function readExport(dir, type)
{
	if (type === null) /* the first type: every sample has a row of it */
		type = '\u0000';
	const stacks = new Map();
	for (const line of fs.readFileSync(path.join(dir, 'stacks.tsv'), 'utf8').split('\n')) {
		if (!line)
			continue;
		const f = line.split('\t').map(tsvField);
		if (!stacks.has(f[0]))
			stacks.set(f[0], []);
		stacks.get(f[0])[Number(f[1])] = {name: f[2], file: f[3], line: Number(f[4])};
	}
	const out = [];
	let first = null;
	for (const line of fs.readFileSync(path.join(dir, 'samples.tsv'), 'utf8').split('\n')) {
		if (!line)
			continue;
		const f = line.split('\t').map(tsvField);
		if (first === null)
			first = f[2];
		const keys = tsvArray(f[6]), vals = tsvArray(f[7]);
		const labels = {};
		keys.forEach((k, i) => labels[k] = vals[i]);
		if (f[2] === first)
			out.push({stack: stacks.get(f[1]) || [], value: 0, time: Number(f[5]), labels});
		if (f[2] === type)
			out[out.length - 1].value = Number(f[4]);
	}
	return out;
}

function plainFrame(f, line)
{
	return {key: key(f.name, f.file, line, ''), name: f.name, file: f.file, line, col: ''};
}

// perf: speedscope weighs a sample by time, from the midpoint with the sample before to
// the midpoint with the one after (the first from its own time, the last to its own),
// in seconds; a lone sample weighs 1. Its stacks have no process frame, and a symbol
// perf could not name is "??? (DSO)".
function perfSpeedscope(samples)
{
	const w = new Weights();
	const t = samples.map((s) => s.time / 1e9);
	let start = t[0];
	for (let i = 0; i < samples.length; i++) {
		let weight;
		if (samples.length === 1) {
			weight = 1;
		} else if (i + 1 < samples.length) {
			const end = (t[i] + t[i + 1]) / 2;
			weight = end - start;
			start = end;
		} else {
			weight = t[i] - start;
		}
		w.add(samples[i].stack.slice(1).map((f) => plainFrame(f, '')), weight);
	}
	return w;
}

// stackprof: a stack that is only "(garbage collection)" goes on top of the stack before
function stackprofSpeedscope(samples)
{
	const w = new Weights();
	let prev = [];
	for (const s of samples) {
		let stack = s.stack.map((f) => plainFrame(f, f.line));
		if (stack.length === 1 && stack[0].name === '(garbage collection)')
			stack = prev.concat(stack);
		w.add(stack, s.value);
		prev = stack;
	}
	return w;
}

function exportOurs(samples, line)
{
	const w = new Weights();
	for (const s of samples)
		w.add(s.stack.map((f) => plainFrame(f, line ? f.line : '')), s.value);
	return w;
}

// ---- speedscope's frames in our terms ----

// perf: speedscope names a frame perf could not symbolize "??? (DSO)"; we name it as
// stackcollapse-perf.pl does, "[unknown]", or the DSO's base name in brackets
function perfName(name)
{
	const m = /^\?\?\? \((.*)\)$/.exec(name);
	if (!m)
		return name;
	return m[1] === '[unknown]' ? '[unknown]' : '[' + m[1].split('/').pop() + ']';
}

function normalize(rules, f)
{
	const s = (v) => v === undefined ? '' : v;
	const n = (v) => v === undefined ? 0 : v;
	switch (rules) {
	case 'v8':
	case 'v8-legacy':
		return {key: key(f.name, s(f.file), n(f.line), n(f.col)), ...f};
	case 'perf':
		return {...f, name: perfName(f.name), key: key(perfName(f.name), '', '', '')};
	case 'stackprof': { /* a C function has no file in ours; a frame without a name
			     * keeps none (speedscope: "(unknown)") */
		const file = f.file === '<cfunc>' ? '' : s(f.file);
		const name = f.name === '(unknown)' ? '' : f.name;
		return {...f, name, file, key: key(name, file, n(f.line), '')};
	}
	case 'heap': { /* speedscope keeps V8's 0-based lines in heap profiles */
		const name = /^\(anonymous .*:-?\d+\)$/.test(f.name) ? '(anonymous)' : f.name;
		const line = f.line >= 0 ? f.line + 1 : 0;
		return {...f, name, line, key: key(name, s(f.file), line, '')};
	}
	default: /* pprof: speedscope shows a location's line, we the function's */
		return {...f, key: key(f.name, s(f.file), '', '')};
	}
}

// ---- comparison ----

function close(rules, a, b)
{
	if (rules !== 'perf')
		return a === b;
	/* seconds from µs timestamps of about 2e5 s: the two sums of doubles differ by
	 * 1e-10 s at most here, a sample given to another frame moves 5e-7 s or more */
	return Math.abs(a - b) <= 1e-8;
}

// frames that share a key (functions apart by column only, where the key has no
// column) are compared as a multiset of (self, total)
function compareSnapshot(rules, want, got)
{
	const group = (list) => {
		const m = new Map();
		for (const f of list) {
			if (!m.has(f.key))
				m.set(f.key, {frame: f, v: []});
			m.get(f.key).v.push([f.self, f.total]);
		}
		for (const g of m.values())
			g.v.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
		return m;
	};
	const a = group(want);
	const b = group([...got.by.values()].filter((e) => e.self || e.total)
		.map((e) => ({...e.frame, self: e.self, total: e.total})));
	const bad = [];
	const label = (f) => `${f.name} (${f.file ?? ''}:${f.line ?? ''}:${f.col ?? ''})`;
	const show = (v) => v.map((x) => x.join('/')).join(' ');
	for (const [k, g] of a) {
		const h = b.get(k);
		if (!h) {
			if (g.v.some((x) => x[0] || x[1]))
				bad.push(`${label(g.frame)}: not in ours (speedscope self/total ${show(g.v)})`);
			continue;
		}
		const same = g.v.length === h.v.length &&
			g.v.every((x, i) => close(rules, x[0], h.v[i][0]) && close(rules, x[1], h.v[i][1]));
		if (!same)
			bad.push(`${label(g.frame)}: self/total ours ${show(h.v)}, speedscope ${show(g.v)}`);
	}
	for (const [k, h] of b)
		if (!a.has(k))
			bad.push(`${label(h.frame)}: ours only (self/total ${show(h.v)})`);
	return bad;
}

// CSV as `top --format csv` writes it: name,file,line,flat,flat_pct,cum,cum_pct
function readTop(file)
{
	const rows = [];
	const lines = fs.readFileSync(file, 'utf8').split('\n').slice(1);
	for (const line of lines) {
		if (!line)
			continue;
		const cells = [];
		const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
		let m;
		while ((m = re.exec(line)) && cells.length < 7) {
			let c = m[1];
			if (c.startsWith('"'))
				c = c.slice(1, -1).replace(/""/g, '"');
			cells.push(c);
		}
		rows.push({name: cells[0], file: cells[1], line: Number(cells[2]),
			self: Number(cells[3]), total: Number(cells[5])});
	}
	return rows;
}

// our own rules against `top`: rows are functions (name, file, line); frames that
// differ by column only are functions apart, so a group of equal names is compared as
// a multiset of (self, total)
function compareTop(ours, rows, line)
{
	const group = (list) => {
		const m = new Map();
		for (const r of list) {
			const k = [r.name, r.file, line ? r.line : ''].join('\u0001');
			if (!m.has(k))
				m.set(k, []);
			m.get(k).push(`${r.self}/${r.total}`);
		}
		for (const v of m.values())
			v.sort();
		return m;
	};
	const a = group([...ours.by.values()].filter((e) => e.self || e.total)
		.map((e) => ({...e.frame, self: e.self, total: e.total})));
	const b = group(rows.filter((r) => r.self || r.total));
	const bad = [];
	for (const [k, v] of a) {
		const u = b.get(k) || [];
		if (v.join(' ') !== u.join(' '))
			bad.push(`top ${k.split('\u0001').join(' ')}: ${u.join(' ') || 'missing'}, timeline ${v.join(' ')}`);
	}
	for (const k of b.keys())
		if (!a.has(k))
			bad.push(`top ${k.split('\u0001').join(' ')}: not in the timeline`);
	return bad;
}

function main()
{
	const [snapfile, test, rules, dir, type] = process.argv.slice(2);
	if (!dir)
		die('usage: node speedscope-frames.js SNAPFILE TEST RULES DIR [TYPE]');
	const snap = readSnapshot(snapfile);
	const [name, which] = test.split('@');
	const want = [];
	for (let k = 1; snap.has(`${name} ${k}`); k++) {
		if (which && which !== 'all' && Number(which) !== k)
			continue;
		const frames = snapshotFrames(snap.get(`${name} ${k}`));
		if (k > 1 && which === 'all' && frames.length)
			die(`${name}: profile ${k} is not empty; compare it on its own`);
		want.push(...frames);
	}
	if (!want.length)
		die(`${name}: no such snapshot with frames in ${snapfile}`);

	const top = readTop(path.join(dir, 'top.csv'));
	let got, mine, line = true;
	if (rules === 'v8' || rules === 'v8-legacy') {
		const p = readV8(dir);
		got = v8Speedscope(p, rules === 'v8-legacy');
		mine = v8Ours(p);
	} else if (rules === 'heap') {
		got = new Weights();
		top.forEach((r, i) => /* rows apart by column share a key */
			got.by.set(i, {frame: {...r, key: key(r.name, r.file, r.line, '')},
				self: r.self, total: r.total}));
	} else {
		const samples = readExport(dir, type);
		if (!samples.length)
			die(`${name}: no samples of ours`);
		if (rules === 'perf')
			got = perfSpeedscope(samples);
		else if (rules === 'stackprof')
			got = stackprofSpeedscope(samples);
		else
			got = exportOurs(samples, false);
		line = rules === 'stackprof';
		mine = exportOurs(samples, line);
	}
	/* speedscope keeps a heap profile's (root) as a frame: it holds everything */
	const kept = want.filter((f) => !(rules === 'heap' && f.name === '(root)'));
	let bad = compareSnapshot(rules, kept.map((f) => normalize(rules, f)), got);
	if (mine)
		bad = bad.concat(compareTop(mine, top, line));
	if (bad.length)
		die(`${test}:\n  ` + bad.join('\n  '));
	process.stdout.write(`ok: ${want.length} frames\n`);
}

main();
