// work.js: a Node program for `proftool record` tests: hotFn takes most of the time.
function hotFn(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i); return s; }
function coldFn() { return 1; }
for (let k = 0; k < 60; k++) { hotFn(2e6); coldFn(); }
console.log("node done");
