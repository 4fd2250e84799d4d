// lines.js: a workload with several hot lines of different weight in one
// function, profiled with a small --cpu-prof-interval so that the
// positionTicks (per-line self ticks) are rich.
//   - hotLines: three loops of n, 2n and 4n iterations on distinct lines
//     (V8's tiering makes the ticks per line differ from 1 : 2 : 4)
//   - walk: direct recursion that ends in hotLines
//   - ping/pong: mutual recursion that ends in hotLines
//   - hotLines is reached from three callers: main, walk and pong
'use strict';

function hotLines(n) {
  let a = 0, b = 1, c = 2;
  for (let i = 0; i < n; i++) a = (a * 31 + i) | 0;        // light
  for (let i = 0; i < 2 * n; i++) b = (b * 17 + (i ^ b)) | 0;  // medium
  for (let i = 0; i < 4 * n; i++) c = (c * 13 + (i & c)) | 0;  // heavy
  return a ^ b ^ c;
}

function walk(depth, n) {
  if (depth === 0) return hotLines(n);
  return walk(depth - 1, n) + 1;
}

function ping(depth, n) {
  if (depth === 0) return hotLines(n);
  return pong(depth - 1, n);
}

function pong(depth, n) {
  if (depth === 0) return hotLines(n);
  return ping(depth - 1, n);
}

function main(ms) {
  const end = Date.now() + ms;
  let acc = 0;
  while (Date.now() < end) {
    acc ^= hotLines(3000);
    acc ^= walk(20, 3000);
    acc ^= ping(21, 3000);
  }
  return acc;
}

const r = main(Number(process.env.WORK_MS || 600));
process.stdout.write(r === 42 ? 'x\n' : 'done\n');
