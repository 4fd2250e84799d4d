// trace-preload.js: loaded with `node -r` to record V8's CPU profiler into
// node's trace event file (Profile / ProfileChunk events).  Enabling the
// category from the command line (--trace-event-categories) does not start
// the profiler in node 20; enabling it at run time does.  Disabling before
// exit stops the profiler and flushes its last chunk.
'use strict';
const tracing = require('trace_events').createTracing({
  categories: ['disabled-by-default-v8.cpu_profiler'],
});
tracing.enable();
process.on('beforeExit', () => tracing.disable());
