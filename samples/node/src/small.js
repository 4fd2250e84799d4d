// small.js: a small, deterministic workload for `node --cpu-prof`.
// Shapes it is meant to produce in the profile:
//   - direct recursion: fib -> fib
//   - mutual recursion: isEven -> isOdd -> isEven ...
//   - a hot leaf: mix (called from three places: several callers)
//   - an anonymous function (the arrow passed to forEach)
//   - garbage collection: churn allocates many short-lived objects
//   - (idle): a setTimeout wait at the end; (program) appears on its own
'use strict';

function mix(x) {
  // hot leaf: pure arithmetic, no calls
  let h = x | 0;
  for (let i = 0; i < 200; i++) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    h ^= h + i;
  }
  return h;
}

function fib(n) {
  if (n < 2) return mix(n);
  return fib(n - 1) + fib(n - 2);
}

function isEven(n) {
  if (n === 0) return mix(1);
  return isOdd(n - 1);
}

function isOdd(n) {
  if (n === 0) return mix(0);
  return isEven(n - 1);
}

function churn(rounds) {
  let keep = null;
  for (let r = 0; r < rounds; r++) {
    const arr = [];
    for (let i = 0; i < 2000; i++) arr.push({ i, s: 'x' + i, v: [i, i + 1] });
    keep = arr[r % arr.length];
  }
  return keep.i;
}

function direct(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += mix(i);
  return s;
}

function work(ms) {
  const end = Date.now() + ms;
  let acc = 0;
  while (Date.now() < end) {
    acc += fib(16);
    for (let k = 0; k < 100; k++) acc += isEven(200 + (k & 1));
    acc += direct(200);
    [1, 2, 3].forEach((k) => { for (let j = 0; j < 30; j++) acc += mix(k * 7 + j); });
    acc += churn(3);
  }
  return acc;
}

const result = work(Number(process.env.WORK_MS || 1500));
// Idle: the event loop waits, which V8 records as (idle).
setTimeout(() => {
  process.stdout.write(result === 0 ? 'zero\n' : 'done\n');
}, Number(process.env.IDLE_MS || 200));
