// gen-heap-list.js: a heap snapshot of a node process holding a singly linked list
// of N objects (default 1,000,000: about 100 MB), written by V8 itself, for the
// `proftool heap` rows of make bench.  Usage: node gen-heap-list.js OUT [N]
'use strict';
const v8 = require('v8');
const n = Number(process.argv[3] || 1000000);
class ListNode {
	constructor(value, next) { this.value = value; this.next = next; }
}
let head = null;
for (let i = 0; i < n; i++) head = new ListNode(i, head);
globalThis.list = head;
v8.writeHeapSnapshot(process.argv[2]);
