// gen-traceevents.js OUT MB: a large trace-event file from the real
// samples/traceevents/clang.trace.json (clang -ftime-trace's own): its B/E/X events
// repeated, each copy later in time by the trace's span, so spans nest as in the
// sample, until the file holds about MB megabytes; the M events once.
'use strict';
const fs = require('fs');
const path = require('path');
const [out, mb] = [process.argv[2], Number(process.argv[3] || 100)];
const t = JSON.parse(fs.readFileSync(path.join(__dirname,
	'../samples/traceevents/clang.trace.json'), 'utf8'));
const timed = t.traceEvents.filter((e) => 'BEX'.includes(e.ph));
const meta = t.traceEvents.filter((e) => !'BEX'.includes(e.ph));
let lo = Infinity, hi = -Infinity, bytes = 0;
for (const e of timed) {
	lo = Math.min(lo, e.ts);
	hi = Math.max(hi, e.ts + (e.dur || 0));
	bytes += JSON.stringify(e).length + 1;
}
const copies = Math.max(1, Math.round(mb * 1048576 / bytes));
const fd = fs.openSync(out, 'w');
fs.writeSync(fd, '{"traceEvents":[' + meta.map((e) => JSON.stringify(e)).join(','));
for (let c = 0; c < copies; c++) {
	const shift = c * (hi - lo + 1);
	const part = timed.map((e) => JSON.stringify({...e, ts: e.ts + shift}));
	fs.writeSync(fd, (meta.length || c ? ',' : '') + part.join(','));
}
fs.writeSync(fd, ']}\n');
fs.closeSync(fd);
