#!/bin/sh
# make.sh: regenerate the Node/V8 CPU profiles in samples/node/ from the
# programs in samples/node/src/.  Needs node (made with v20.20.2, V8
# 11.3.244.8-node.38).  Run from anywhere:  sh samples/node/make.sh
# The profiles record the absolute path (file:// URL) of the scripts, so
# they name the directory this was run in (/work/main/samples/node/src for
# the committed ones).  Sample counts and node ids differ from run to run;
# the functions and call shapes do not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/src
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
node --version

# small.cpuprofile: recursion (fib), mutual recursion (isEven/isOdd), hot leaf
# (mix, five callers), anonymous arrow, GC, (program), (idle) from a
# setTimeout wait.  Inlining off so that every JS function keeps its frame.
node --no-turbo-inlining --cpu-prof --cpu-prof-dir="$tmp" \
	--cpu-prof-name=small.cpuprofile "$src/small.js"

# small-inlined.cpuprofile: the same program with node's default flags:
# TurboFan inlines mix/isEven/isOdd/churn into their callers, the inlined
# functions vanish from the stacks and their lines show up in the callers'
# positionTicks.
node --cpu-prof --cpu-prof-dir="$tmp" \
	--cpu-prof-name=small-inlined.cpuprofile "$src/small.js"

# lines.cpuprofile: 100 us sampling interval, rich positionTicks.
node --no-turbo-inlining --cpu-prof --cpu-prof-interval 100 \
	--cpu-prof-dir="$tmp" --cpu-prof-name=lines.cpuprofile "$src/lines.js"

# large.cpuprofile: ~400 generated functions (src/large.js, written by
# src/gen-large.js), big switch, new Function; 200 us interval, 2 s of work.
node "$src/gen-large.js" > "$tmp/large.js"
cmp "$tmp/large.js" "$src/large.js"
# How many samples V8 manages to take depends on the machine's load, so the
# run is repeated with a longer or shorter work time until the file is
# between 2 and 5 MB (at most 6 tries).
ms=2000 try=0
while :; do
	rm -f "$tmp/large.cpuprofile"
	WORK_MS=$ms node --cpu-prof --cpu-prof-interval 200 --cpu-prof-dir="$tmp" \
		--cpu-prof-name=large.cpuprofile "$src/large.js"
	size=$(wc -c < "$tmp/large.cpuprofile")
	try=$((try + 1))
	echo "large.cpuprofile: WORK_MS=$ms, $size bytes"
	if [ "$size" -lt 2000000 ] && [ $try -lt 6 ]; then ms=$((ms * 3 / 2))
	elif [ "$size" -gt 5000000 ] && [ $try -lt 6 ]; then ms=$((ms * 2 / 3))
	else break
	fi
done

# small.trace.json: Chrome trace event format (Profile / ProfileChunk
# events) written by node's trace agent; short run of small.js.
(cd "$tmp" && WORK_MS=300 IDLE_MS=50 node --no-turbo-inlining \
	-r "$src/trace-preload.js" \
	--trace-event-file-pattern 'small.trace.json' "$src/small.js")

files="small.cpuprofile small-inlined.cpuprofile lines.cpuprofile
	large.cpuprofile small.trace.json"

# small.heapprofile: node --heap-prof (sampling heap profiler, 16 kB interval) of
# src/heap-alloc.js, read from stdin so the profile names the script "[stdin]".
(cd "$tmp" && node --heap-prof --heap-prof-interval=16384 \
	--heap-prof-name=small.heapprofile < "$src/heap-alloc.js")
files="$files small.heapprofile"

# shapes-1/-2.heapsnapshot.gz, alloc.heapsnapshot.gz: heap snapshots of
# src/heap-shapes.js (an array of closures that leaks, a Map cache, typed
# arrays over ArrayBuffers, a 20000-node linked list): shapes-1, then the
# leaks grown in the same process (shapes-2, for heap --diff), then one taken
# with allocation tracking (alloc).  Run from / with the snapshots written to
# descriptors, so no path of the machine is among the heap's strings.
(cd / && node - < "$src/heap-shapes.js" 3>"$tmp/shapes-1.heapsnapshot" \
	4>"$tmp/shapes-2.heapsnapshot" 5>"$tmp/alloc.heapsnapshot")
for f in shapes-1 shapes-2 alloc; do
	gzip -9n "$tmp/$f.heapsnapshot"
	files="$files $f.heapsnapshot.gz"
done

# small-legacy.cpuprofile, small-v8pn.cpuprofile: written by the npm addon
# v8-profiler-next (1.10.0), only when V8PN names its built directory
# (samples/README says how to build it; this script does not fetch or build it).
# setGenerateType(0) gives the legacy DevTools format (nested head,
# timestamps), setGenerateType(1) the addon's nodes/timeDeltas format.
if [ -n "${V8PN:-}" ]; then
	WORK_MS=500 V8PN=$V8PN node --no-turbo-inlining "$src/v8pn-run.js" 0 \
		"$tmp/small-legacy.cpuprofile"
	WORK_MS=500 V8PN=$V8PN node --no-turbo-inlining "$src/v8pn-run.js" 1 \
		"$tmp/small-v8pn.cpuprofile"
	files="$files small-legacy.cpuprofile small-v8pn.cpuprofile"
else
	echo "V8PN not set: small-legacy.cpuprofile, small-v8pn.cpuprofile kept" >&2
fi

for f in $files; do
	cp "$tmp/$f" "$here/$f"
	chmod 644 "$here/$f"
done
ls -l "$here"/*.cpuprofile "$here"/*.json
