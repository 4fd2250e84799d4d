// work.js: a small node program for samples/traceevents/node.trace.json: synchronous
// file system calls (fs.sync.* spans), timers and immediates (node's own spans), and a
// little CPU work in between.
'use strict';
const fs = require('fs');

function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

fs.writeFileSync('work.txt', 'x'.repeat(4096));
const fd = fs.openSync('work.txt', 'r');
fs.readSync(fd, Buffer.alloc(4096), 0, 4096, 0);
fs.closeSync(fd);
setImmediate(() => fib(20));
setTimeout(() => {
	fib(24);
	fs.statSync('work.txt');
	fs.unlinkSync('work.txt');
}, 5);
