#!/bin/sh
test_description='trace events and speedscope files: top equals speedscope'"'"'s own importer, frame by frame'
. "$(dirname "$0")/lib.sh"

# tests/speedscope-import.js runs the importer of the speedscope npm package
# (tests/viewers/setup.sh) in node and compares each frame's self and total weight with
# our top. SCALE: our unit per speedscope unit. speedscope shows names as the file has
# them, so ours are not demangled here (clang's trace names mangled functions).
agree () {
	"$PROFTOOL" top --no-demangle --format csv -n 0 "$1" >top.csv 2>/dev/null &&
	node "$SRCDIR/tests/speedscope-import.js" "$1" top.csv "$2" >res &&
	grep -q "^ok: " res || { echo "$1:"; cat res; return 1; }
}

if ! command -v node >/dev/null 2>&1 || ! test -d "$MODS/speedscope"; then
	test_skip 'speedscope importer agreement' 'node or the speedscope npm package missing (run tests/viewers/setup.sh)'
	test_done
	exit
fi

test_expect_success 'node and clang traces: every frame as speedscope weighs it' '
	agree "$SAMPLES/traceevents/node.trace.json" 1000 &&
	agree "$SAMPLES/traceevents/clang.trace.json" 1000 &&
	grep -q "^ok: [0-9][0-9][0-9] frames" res'

test_expect_success 'crafted traces: out of order, zero durations, unclosed, unmatched ends' '
	agree "$SRCDIR/tests/data/spans.trace.json" 1000 &&
	agree "$SRCDIR/tests/data/unclosed.trace.json" 1000'

test_expect_success 'speedscope files we write, from every kind of sample' '
	for f in perf/perfdemo-g.txt perf/perfdemo-pidtid.txt go/cpu.pb.gz go/heap.pb.gz \
		node/small.cpuprofile collapsed/perfdemo-g.collapsed traceevents/clang.trace.json; do
		# a .cpuprofile is written in its default type, wall microseconds, which we
		# read back in nanoseconds
		scale=1 &&
		case $f in *.cpuprofile) scale=1000 ;; esac &&
		"$PROFTOOL" convert --to speedscope -o x.speedscope.json "$SAMPLES/$f" &&
		agree x.speedscope.json $scale || exit 1
	done'

test_expect_success 'an evented speedscope file: milliseconds read as nanoseconds' '
	node -e "
		const d = JSON.parse(require(\"fs\").readFileSync(process.argv[1], \"utf8\"));
		d.profiles = d.profiles.slice(0, 1);
		console.log(JSON.stringify(d));" "$SRCDIR/tests/data/evented.speedscope.json" >ui.speedscope.json &&
	agree ui.speedscope.json 1000000'

# speedscope's own trace-event test files (never committed here) with SPEEDSCOPE_DIR:
# all but this one agree. mismatched-name: a B never ended, whose only E names another
# span; speedscope ends it where its last taken event was (0 long), we at the thread's
# last timestamp (the man page, traceevents).
if test -n "$SPEEDSCOPE_DIR" && test -d "$SPEEDSCOPE_DIR/sample/profiles/trace-event"; then
	test_expect_success 'speedscope sample/profiles/trace-event: 29 of 30 agree, the rest as known' '
		n=0 &&
		for f in "$SPEEDSCOPE_DIR"/sample/profiles/trace-event/*.json; do
			case $(basename "$f") in
			mismatched-name.json) continue ;;
			esac
			agree "$f" 1000 || exit 1
			n=$((n + 1))
		done &&
		test $n = 29'

	test_expect_success 'speedscope sample/profiles/speedscope: the valid agree, the invalid are refused' '
		P=$SPEEDSCOPE_DIR/sample/profiles/speedscope &&
		agree "$P/0.0.1/simple.speedscope.json" 1 &&
		agree "$P/0.0.1/simple-no-pretty-print.speedscope.json" 1 &&
		agree "$P/0.1.2/simple-sampled.speedscope.json" 1000000000 &&
		agree "$P/0.6.0/two-sampled.speedscope.json" 1000000000 &&
		test_expect_code 1 "$PROFTOOL" top "$P/invalid/out-of-order-events.json" &&
		grep -q "byte [0-9]*: close of frame 1 while frame 0 is open" err &&
		test_expect_code 1 "$PROFTOOL" top "$P/invalid/incomplete-trace.json" &&
		grep -q "byte [0-9]*: frame 0 opened here is never closed" err'
else
	test_skip 'speedscope sample/profiles/trace-event' 'set SPEEDSCOPE_DIR to a speedscope checkout'
fi

test_done
