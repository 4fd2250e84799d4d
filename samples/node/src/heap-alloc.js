// heap-alloc.js: allocations for the sampling heap profile sample (make.sh):
// strings, objects and arrays from a call chain, ArrayBuffers, closures; the
// results stay reachable until exit, so node --heap-prof still sees them.
'use strict';
const keep = [];
function makeString(i) {
	return 'item-' + i + '-' + 'x'.repeat(i % 50);
}
function makeObject(i) {
	return { id: i, name: makeString(i), tags: [i, i + 1] };
}
function fill(n) {
	for (let i = 0; i < n; i++) keep.push(makeObject(i));
}
const buffers = [];
function allocBuffers(n) {
	for (let i = 0; i < n; i++) buffers.push(new ArrayBuffer(1024 + i));
}
fill(100000);
allocBuffers(2000);
const closures = keep.slice(0, 20000).map((o) => () => o.id);
globalThis.keepAlive = [keep, buffers, closures];
