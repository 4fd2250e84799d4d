// gen-gecko.js OUT MB: a large raw Gecko profile from the real
// samples/gecko/firefox-esr-fib.json.gz (firefox-esr's own): every thread's samples
// (those of the subprocesses too) repeated, each copy later in time by the thread's
// span, until the file holds about MB megabytes. Stacks, frames and markers stay those
// of the sample, so the distinct stacks stay fixed while the samples grow.
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const [out, mb] = [process.argv[2], Number(process.argv[3] || 100)];
const p = JSON.parse(zlib.gunzipSync(fs.readFileSync(
	path.join(__dirname, '../samples/gecko/firefox-esr-fib.json.gz'))));
const threads = [...p.threads];
for (const sub of p.processes || [])
	if (typeof sub === 'object')
		threads.push(...sub.threads);
const base = JSON.stringify(p).length;
let rows = 0, rowBytes = 0;
for (const t of threads)
	for (const r of t.samples.data) {
		rows++;
		rowBytes += JSON.stringify(r).length + 1;
	}
const copies = Math.max(1, Math.round((mb * 1048576 - base) / rowBytes) + 1);
for (const t of threads) {
	const s = t.samples, at = s.schema.time, data = s.data;
	if (!data.length)
		continue;
	const span = data[data.length - 1][at] - data[0][at] + 1;
	const all = [];
	for (let c = 0; c < copies; c++)
		for (const r of data) {
			const x = r.slice();
			x[at] = Math.round((r[at] + c * span) * 1000) / 1000;
			all.push(x);
		}
	s.data = all;
}
fs.writeFileSync(out, JSON.stringify(p));
