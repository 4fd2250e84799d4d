// v8pn-run.js: profile small.js with the v8-profiler-next addon (npm) and
// write the profile in the addon's export format.
// Usage: V8PN=/path/to/node_modules/v8-profiler-next \
//          node v8pn-run.js TYPE OUT
// TYPE 0 is the addon's default, the legacy DevTools format (nested `head`,
// start/end in seconds, absolute `timestamps`); TYPE 1 is its `nodes` +
// `timeDeltas` format.  Both carry 1-based line numbers straight from V8.
'use strict';
const fs = require('fs');
const path = require('path');
const profiler = require(process.env.V8PN);
const type = Number(process.argv[2]);
const out = process.argv[3];
const idle = Number(process.env.IDLE_MS || 200);

profiler.setGenerateType(type);
profiler.setSamplingInterval(1000);
profiler.startProfiling('small', true);
require(path.join(__dirname, 'small.js'));
setTimeout(() => {
  const profile = profiler.stopProfiling('small');
  profile.export((err, result) => {
    if (err) throw err;
    fs.writeFileSync(out, result);
    profile.delete();
  });
}, idle + 100);
