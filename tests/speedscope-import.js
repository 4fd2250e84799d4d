#!/usr/bin/env node
// speedscope-import.js: an independent reading of a profile by speedscope's own importer
// (the npm package tests/viewers/setup.sh installs), compared frame by frame with
// proftool's `top`. speedscope ships only its browser bundle; this loads that bundle in
// node with the few browser globals its modules touch at load, keeps its app from
// starting, and calls the function the app itself calls on a file
// (importProfileGroupFromText). No speedscope code is copied here.
//
// Usage: node speedscope-import.js FILE TOPCSV SCALE
//   FILE    the profile (its name matters to speedscope: .speedscope.json, ...)
//   TOPCSV  `proftool top --format csv -n 0 FILE`
//   SCALE   proftool's value per speedscope unit (1000: speedscope's microseconds of a
//           trace are our nanoseconds)
// Each of speedscope's frames is summed over its profiles (our top sums the threads),
// under the name proftool gives it: a trace event's frame is "NAME ARGSJSON" there and
// "NAME DETAIL" here (clang's args.detail), a speedscope file's frame its name. Every
// name's self weight must equal our flat and, where one speedscope frame has the name,
// its total our cum. Prints "ok: N frames (M totals)" or each difference; exits 0 or 1.
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');

const [file, topcsv, scaleArg] = process.argv.slice(2);
const scale = Number(scaleArg || 1);
const modules = process.env.PROFTOOL_VIEWERS_MODULES ||
	path.join(__dirname, 'viewers', 'node_modules');

function loadImporter()
{
	const dir = path.join(modules, 'speedscope', 'dist', 'release');
	const js = fs.readdirSync(dir).find((f) => /^speedscope-[\w]+\.js$/.test(f));
	let src = fs.readFileSync(path.join(dir, js), 'utf8');
	const m = /async function ([\w$]+)\(\w,\w\)\{return\(await [\w$]+\)\.importProfileGroupFromText\(/.exec(src);
	const start = src.lastIndexOf('console.log(`speedscope v');
	if (!m || start < 0)
		throw new Error('speedscope bundle: importer entry or app start not found');
	src = src.slice(0, start) + `globalThis.__speedscopeImport=${m[1]};})();`;
	const g = globalThis;
	g.window = g.self = g;
	g.document = {createElement: () => ({getContext: () => null, style: {}}),
		addEventListener() {}, body: {}};
	g.navigator = {userAgent: 'node', platform: 'Linux'};
	g.localStorage = {getItem: () => null, setItem() {}};
	g.location = {hash: '', search: '', href: 'http://localhost/'};
	g.addEventListener = () => {};
	g.matchMedia = () => ({matches: false, addEventListener() {}, addListener() {}});
	vm.runInThisContext(src);
	return g.__speedscopeImport;
}

// our name for one of speedscope's frame names
function ourName(name)
{
	const i = name.indexOf(' {');
	if (i < 0 || !name.endsWith('}'))
		return name;
	try {
		const args = JSON.parse(name.slice(i + 1));
		return typeof args.detail === 'string' && args.detail !== ''
			? name.slice(0, i) + ' ' + args.detail : name.slice(0, i);
	} catch (e) {
		return name;
	}
}

function parseCsv(text)
{
	const rows = new Map();
	for (const line of text.split('\n').slice(1)) {
		if (!line)
			continue;
		const m = /^"((?:[^"]|"")*)","(?:[^"]|"")*",-?\d+,([-\d.]+),[-\d.]+,([-\d.]+),/.exec(line);
		if (!m)
			throw new Error('top csv: ' + line);
		const name = m[1].replace(/""/g, '"');
		const r = rows.get(name) || {self: 0, total: 0, n: 0};
		r.self += Number(m[2]);
		r.total += Number(m[3]);
		r.n++;
		rows.set(name, r);
	}
	return rows;
}

function close(a, b)
{
	return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

(async () => {
	const importer = loadImporter();
	const log = console.log;
	console.log = () => {}; // "Importing as ..."
	console.warn = () => {};
	const group = await importer(path.basename(file), fs.readFileSync(file, 'utf8'));
	console.log = log;
	if (!group)
		throw new Error(`speedscope could not import ${file}`);
	const theirs = new Map();
	for (const p of group.profiles)
		p.forEachFrame((f) => {
			if (!f.getTotalWeight() && !f.getSelfWeight())
				return;
			const name = ourName(f.name);
			const r = theirs.get(name) || {self: 0, total: 0, keys: new Set()};
			r.self += f.getSelfWeight() * scale;
			r.total += f.getTotalWeight() * scale;
			r.keys.add(f.key);
			theirs.set(name, r);
		});
	const ours = parseCsv(fs.readFileSync(topcsv, 'utf8'));
	const bad = [];
	let totals = 0;
	for (const [name, t] of theirs) {
		const o = ours.get(name);
		if (!o) {
			bad.push(`${name}: speedscope self ${t.self} total ${t.total}, not in top`);
			continue;
		}
		if (!close(o.self, t.self))
			bad.push(`${name}: self ${o.self}, speedscope ${t.self}`);
		if (t.keys.size === 1 && o.n === 1) {
			totals++;
			if (!close(o.total, t.total))
				bad.push(`${name}: total ${o.total}, speedscope ${t.total}`);
		}
	}
	for (const [name, o] of ours)
		if (!theirs.has(name) && (o.self || o.total))
			bad.push(`${name}: top self ${o.self} total ${o.total}, not in speedscope`);
	if (bad.length) {
		console.log(bad.join('\n'));
		process.exit(1);
	}
	console.log(`ok: ${theirs.size} frames (${totals} totals)`);
})().catch((e) => {
	console.log(String(e && e.stack || e));
	process.exit(1);
});
