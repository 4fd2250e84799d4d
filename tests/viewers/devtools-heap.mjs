// devtools-heap.mjs: the Summary view of a heap snapshot as Chrome DevTools' own heap
// snapshot worker computes it (npm chrome-devtools-frontend, run in node, no browser).
// Usage: node devtools-heap.mjs FILE [DIST]
//            one JSON object: {"rows":[...], "by_name":[...], "total_retained", "nodes"};
//            with DIST, also "id distance" per node into the file DIST: the worker's own
//            distances (its Distance column), -5 for none
//        node devtools-heap.mjs --build
//            bundle the worker's TypeScript (setup.sh)
// PROFTOOL_VIEWERS_MODULES names the node_modules folder (default: beside this file).
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const mods = process.env.PROFTOOL_VIEWERS_MODULES ||
	path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules');
const bundle = path.join(mods, '.proftool-devtools-heap-worker.mjs');

// The package ships the worker as TypeScript; esbuild (also test-only) bundles it and
// its imports into one module. The i18n module imports a list of locales that DevTools'
// own build generates and the package lacks: it is given the English-only list here
// (the worker uses i18n for its progress messages only).
async function build()
{
	const esbuild = await import(pathToFileURL(path.join(mods, 'esbuild', 'lib', 'main.js')));
	const dir = path.join(mods, 'chrome-devtools-frontend', 'front_end');
	const locales = {
		name: 'devtools-locales',
		setup(b) {
			b.onResolve({filter: /^\.\/locales\.js$/}, () => ({path: 'locales', namespace: 'loc'}));
			b.onLoad({filter: /.*/, namespace: 'loc'}, () => ({
				contents: "export const LOCALES = ['en-US']; export const BUNDLED_LOCALES = ['en-US'];" +
					" export const DEFAULT_LOCALE = 'en-US'; export const REMOTE_FETCH_PATTERN = '';" +
					" export const LOCAL_FETCH_PATTERN = '';",
				loader: 'js',
			}));
		},
	};
	const tmp = bundle + '.tmp';
	await esbuild.build({
		entryPoints: [path.join(dir, 'entrypoints', 'heap_snapshot_worker', 'heap_snapshot_worker.ts')],
		bundle: true,
		format: 'esm',
		platform: 'node',
		outfile: tmp,
		logLevel: 'error',
		plugins: [locales],
	});
	fs.renameSync(tmp, bundle);
}

/* proftool's class of a node where its name differs from DevTools': closures and regexps
 * keep their type, "(closure)" and "(regexp)" (DevTools: "Function", "RegExp"), and a
 * plain object stays "Object" (DevTools renames it after its first properties, "{a, b}",
 * in inferInterfaceDefinitions); every other node has DevTools' class name */
function ourName(node)
{
	const t = node.type();
	if (t === 'closure')
		return '(closure)';
	if (t === 'regexp')
		return '(regexp)';
	if (t === 'object' && node.rawName() === 'Object')
		return 'Object';
	return node.className();
}

/* The worker's own aggregation (buildAggregates, calculateClassesRetainedSize) keyed by
 * ourName instead of its class key (name and constructor location), from the worker's
 * per-node data: its self sizes (after calculateShallowSizes), its retained sizes and
 * its dominator tree. Nodes of self size 0 are left out; a class's retained size adds
 * the retained size of each of its nodes that no node of the class dominates. */
function byName(snap)
{
	const nf = snap.nodeFieldCount, n = snap.nodeCount;
	const node = snap.createNode(0);
	const rows = new Map(), cls = new Array(n);
	for (let i = 0; i < n; i++) {
		node.nodeIndex = i * nf;
		const self = node.selfSize();
		if (!self)
			continue;
		const k = ourName(node);
		let r = rows.get(k);
		if (!r)
			rows.set(k, r = {name: k, count: 0, shallow: 0, retained: 0});
		r.count++;
		r.shallow += self;
		cls[i] = r;
	}
	/* depth first over the dominator tree; ~i leaves node i */
	const stack = [snap.rootNodeIndex / nf];
	const inside = new Map();
	while (stack.length) {
		const v = stack.pop();
		if (v < 0) {
			inside.set(cls[~v], inside.get(cls[~v]) - 1);
			continue;
		}
		const r = cls[v];
		if (r) {
			node.nodeIndex = v * nf;
			if (!inside.get(r))
				r.retained += node.retainedSize();
			inside.set(r, (inside.get(r) || 0) + 1);
			stack.push(~v);
		}
		const from = snap.firstDominatedNodeIndex[v], to = snap.firstDominatedNodeIndex[v + 1];
		for (let d = from; d < to; d++)
			stack.push(snap.dominatedNodes[d] / nf);
	}
	return [...rows.values()].sort((x, y) => y.retained - x.retained ||
		(x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

/* into the file dist, the distances calculateDistances gave each node when the
 * snapshot was built */
function distances(snap, dist)
{
	const node = snap.createNode(0), out = [];
	for (let i = 0; i < snap.nodeCount; i++) {
		node.nodeIndex = i * snap.nodeFieldCount;
		out.push(node.id() + ' ' + snap.nodeDistances[i]);
	}
	fs.writeFileSync(dist, out.join('\n') + '\n');
}

/* the worker's snapshot of file, with its second pass done */
async function load(file)
{
	/* the worker is written for current browsers; node 20 lacks this ES2024 helper */
	if (!Promise.withResolvers)
		Promise.withResolvers = function () {
			let resolve, reject;
			const promise = new Promise((y, n) => { resolve = y; reject = n; });
			return {promise, resolve, reject};
		};
	const W = await import(pathToFileURL(bundle));
	const loader = new W.HeapSnapshotLoader.HeapSnapshotLoader(undefined);
	const fd = fs.openSync(file, 'r');
	const buf = Buffer.alloc(1 << 20);
	const dec = new TextDecoder();
	for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0;)
		loader.write(dec.decode(buf.subarray(0, n), {stream: true}));
	loader.write(dec.decode());
	fs.closeSync(fd);
	loader.close();
	/* the worker's second thread (dominators, retained sizes) on the other end of a
	 * channel in this thread, as its own createJSHeapSnapshotForTesting does */
	const channel = new MessageChannel();
	new W.HeapSnapshot.SecondaryInitManager(channel.port2);
	const snap = await loader.buildSnapshot(channel.port1);
	channel.port1.close();
	return snap;
}

async function summary(file, dist)
{
	const snap = await load(file);
	if (dist)
		distances(snap, dist);
	const agg = snap.aggregatesWithFilter({});
	const rows = [];
	for (const key of Object.keys(agg)) {
		const a = agg[key];
		rows.push({name: a.name, key, count: a.count, shallow: a.self, retained: a.maxRet});
	}
	rows.sort((x, y) => y.retained - x.retained || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
	const root = snap.createNode(snap.rootNodeIndex);
	process.stdout.write(JSON.stringify({rows, by_name: byName(snap),
		total_retained: root.retainedSize(),
		nodes: snap.nodeCount}) + '\n');
}

if (process.argv[2] === '--build')
	await build();
else
	await summary(process.argv[2], process.argv[3]);
