#!/bin/sh
# make.sh: regenerate the trace-event samples in samples/traceevents/ from the sources in
# src/. Needs node (made with v20.20.2) and clang++ (Debian clang 14.0.6). Offline; run
# from anywhere:  sh samples/traceevents/make.sh
# Timings differ from run to run; the event names and their nesting do not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/src
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
node --version
clang++ --version | head -n 1

# node.trace.json: node's trace agent with its default categories (v8, node,
# node.async_hooks): X spans of V8 and the event loop, B/E pairs of the fs.sync calls,
# M thread and process names, b/e async and I instant events (which are not spans).
cp "$src/work.js" "$tmp/"
(cd "$tmp" && node --trace-events-enabled work.js)
cp "$tmp/node_trace.1.log" "$here/node.trace.json"

# mixed.trace.json: the same program with V8's CPU profiler too (its category enabled at
# run time by samples/node/src/trace-preload.js: node 20 does not start the profiler
# from --trace-event-categories): the spans above beside Profile / ProfileChunk events of
# the same threads in one file, as a DevTools Performance recording has them.
(cd "$tmp" && node --trace-events-enabled --trace-event-categories v8,node,node.async_hooks \
	-r "$here/../node/src/trace-preload.js" --trace-event-file-pattern mixed.trace.json work.js)
cp "$tmp/mixed.trace.json" "$here/mixed.trace.json"

# clang.trace.json: clang -ftime-trace of src/small.cc, spans of 200 us or more: X
# events with args.detail (the file, class or function), per-kind "Total" events on
# threads of their own, M names.
cp "$src/small.cc" "$tmp/"
(cd "$tmp" && clang++ -ftime-trace -ftime-trace-granularity=200 -c small.cc -o small.o)
cp "$tmp/small.json" "$here/clang.trace.json"
chmod 644 "$here/node.trace.json" "$here/clang.trace.json" "$here/mixed.trace.json"
ls -l "$here"/*.trace.json
