// heap-shapes.js: heap snapshots of known shapes for proftool heap (make.sh).
// Usage: node - [LIST_LENGTH] < heap-shapes.js 3>shapes-1 4>shapes-2 5>alloc
// Writes a snapshot to fd 3, grows the leaks and writes one to fd 4 (same
// process: object ids carry over, for --diff), then one taken with
// allocation tracking to fd 5. Snapshots go to descriptors, so no output
// path is among the program's strings.
'use strict';
const inspector = require('inspector');
const v8 = require('v8');
const fs = require('fs');
const listLength = Number(process.argv[2] || 20000);
const session = new inspector.Session();
let chunks = [];
session.on('HeapProfiler.addHeapSnapshotChunk', (m) => chunks.push(m.params.chunk));
/* the first two through v8 (no inspector messages in the heap), the third
 * through the inspector, which alone can track allocations */
function snapshot(fd, then) {
	if (fd !== 5) {
		v8.writeHeapSnapshot('/dev/fd/' + fd);
		then();
		return;
	}
	chunks = [];
	session.post('HeapProfiler.takeHeapSnapshot', null, () => {
		fs.writeSync(fd, chunks.join(''));
		fs.closeSync(fd);
		then();
	});
}

// 1. a leak that grows an array of closures, each holding its own data
class LeakHolder {
	constructor() { this.handlers = []; }
}
const holder = new LeakHolder();
function leakClosures(n) {
	for (let i = 0; i < n; i++) {
		const payload = new Array(16).fill(i);
		holder.handlers.push(function onEvent() { return payload.length; });
	}
}

// 2. a Map used as a cache that is never evicted
class CacheEntry {
	constructor(key) { this.key = key; this.value = 'value-' + key + '-'.repeat(key % 32); }
}
const cache = new Map();
function fillCache(from, to) {
	for (let i = from; i < to; i++) cache.set('k' + i, new CacheEntry(i));
}

// 3. ArrayBuffers kept by typed-array views only (their backing stores are
// outside the JS heap: native nodes)
const views = [];
function detachedBuffers(n) {
	for (let i = 0; i < n; i++) views.push(new Uint8Array(new ArrayBuffer(4096)));
}

// 4. a deep singly linked list
class ListNode {
	constructor(value, next) { this.value = value; this.next = next; }
}
let list = null;
function growList(n) {
	for (let i = 0; i < n; i++) list = new ListNode(i, list);
}

leakClosures(500);
fillCache(0, 500);
detachedBuffers(50);
growList(listLength);
globalThis.keep = { holder, cache, views, get list() { return list; } };
snapshot(3, () => {
	leakClosures(500);
	fillCache(500, 1500);
	detachedBuffers(50);
	snapshot(4, () => {
		// allocation tracking: the snapshot then carries trace_function_infos
		// and trace_tree
		session.connect();
		session.post('HeapProfiler.startTrackingHeapObjects', { trackAllocations: true }, () => {
			leakClosures(200);
			fillCache(1500, 1800);
			snapshot(5, () => session.post('HeapProfiler.stopTrackingHeapObjects', null,
				() => session.disconnect()));
		});
	});
});
