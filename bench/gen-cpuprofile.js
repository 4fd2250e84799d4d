// gen-cpuprofile.js OUT COPIES: a large .cpuprofile from the real
// samples/node/large.cpuprofile: its samples and timeDeltas repeated COPIES times.
'use strict';
const fs = require('fs');
const path = require('path');
const [out, copies] = [process.argv[2], Number(process.argv[3] || 10)];
const p = JSON.parse(fs.readFileSync(path.join(__dirname, '../samples/node/large.cpuprofile')));
const samples = [], deltas = [];
for (let i = 0; i < copies; i++) {
  for (const s of p.samples) samples.push(s);
  for (const d of p.timeDeltas) deltas.push(d);
}
p.samples = samples;
p.timeDeltas = deltas;
p.endTime = p.startTime + deltas.reduce((a, b) => a + b, 0);
fs.writeFileSync(out, JSON.stringify(p));
