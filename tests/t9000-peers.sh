#!/bin/sh
test_description='rules found on the peers test data (small inputs of our own); the peers data itself when a checkout is given'
. "$(dirname "$0")/lib.sh"

# ---- always: our own small inputs for the rules the peers data showed ----

test_expect_success 'perf: a frame with an empty symbol is the name " " (stackcollapse-perf.pl, inferno)' '
	printf "prog 1 1.0: 1 cycles:\n\t7f00  (/lib/libc.so)\n\t7f02 main+0x5 (/bin/p)\n\n" >in.txt &&
	printf "prog 1 2.0: 1 cycles:\n\t7f00 (/lib/libc.so)\n\t7f02 main+0x5 (/bin/p)\n\n" >>in.txt &&
	"$PROFTOOL" convert --to collapsed in.txt >out &&
	printf "%s\n" "prog;main 1" "prog;main;  1" >expect &&
	test_cmp expect out'

test_expect_success 'Chrome trace: timeDeltas inside and beside cpuProfile are read once' '
	node="{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1}},{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"f\",\"scriptId\":\"1\",\"url\":\"a.js\",\"lineNumber\":0,\"columnNumber\":0}}" &&
	head="{\"traceEvents\":[{\"name\":\"Profile\",\"ph\":\"P\",\"pid\":1,\"tid\":1,\"ts\":0,\"id\":\"0x1\",\"args\":{\"data\":{\"startTime\":0}}},{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"pid\":1,\"tid\":1,\"ts\":10,\"id\":\"0x1\",\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[$node],\"samples\":[2,2,2]" &&
	echo "$head,\"timeDeltas\":[5,5,5]},\"timeDeltas\":[5,5,5]}}}]}" >twice.json &&
	echo "$head},\"timeDeltas\":[5,5,5]}}}]}" >once.json &&
	"$PROFTOOL" top --sample-index wall --format csv once.json >expect &&
	"$PROFTOOL" top --sample-index wall --format csv twice.json >out &&
	test_cmp expect out && grep -q "^\"f\",\"a.js\",1,10," out'

test_expect_success 'top --style pprof honours --granularity files' '
	"$PROFTOOL" top --style pprof --granularity files "$SAMPLES/go/cpu.pb.gz" >out &&
	grep -q " proftool-sample/main.go$" out && ! grep -q " main.hotLeaf$" out &&
	grep -q "^ *1.62s 84.82% 84.82% *1.91s  *100%  proftool-sample/main.go$" out'

test_expect_success 'legacy cpuprofile with one timestamp more than samples (v8-profiler-node8) reads' '
	printf "%s" "{\"head\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":0,\"id\":1,\"hitCount\":0,\"children\":[{\"functionName\":\"f\",\"url\":\"a.js\",\"lineNumber\":1,\"id\":2,\"hitCount\":2,\"children\":[]}]},\"startTime\":1,\"endTime\":2,\"samples\":[2,2],\"timestamps\":[1000000,1000500,1001000]}" >in.cpuprofile &&
	"$PROFTOOL" top --format csv --sample-index samples in.cpuprofile >out &&
	grep -q "^\"f\",\"a.js\",1,2," out &&
	sed "s/,1001000\]/,1001000,1002000]/" in.cpuprofile >two.cpuprofile &&
	test_expect_code 1 "$PROFTOOL" top two.cpuprofile &&
	grep -q "'\''timestamps'\'' and '\''samples'\'' differ in length (4 and 2)" err'

# Rules speedscope's sample profiles showed, as Chrome DevTools settles them (man page:
# cpuprofile, heapprofile):
cf () { # a node: id, parent, name, url, line, column (0-based, as V8 writes them)
	printf '{"id":%s,%s"callFrame":{"functionName":"%s","scriptId":"1","url":"%s","lineNumber":%s,"columnNumber":%s}}' \
		"$1" "${2:+\"parent\":$2,}" "$3" "$4" "$5" "$6"
}

test_expect_success 'cpuprofile: functions apart by column only stay apart (minified code), filtered too' '
	{ printf "{\"nodes\":[%s,%s,%s,%s]," "$(cf 1 "" "(root)" "" -1 -1)" \
		"$(cf 2 1 e https://x/min.js 0 10)" "$(cf 3 1 e https://x/min.js 0 500)" \
		"$(cf 4 3 e https://x/min.js 0 10)" &&
	  echo "\"startTime\":0,\"endTime\":40,\"samples\":[2,3,4,4],\"timeDeltas\":[0,10,10,10]}"; } >min.cpuprofile &&
	"$PROFTOOL" top --format csv --sample-index samples min.cpuprofile >out &&
	printf "%s\n" "name,file,line,flat,flat_pct,cum,cum_pct" \
		"\"e\",\"https://x/min.js\",1,3,75.0000,3,75.0000" \
		"\"e\",\"https://x/min.js\",1,1,25.0000,3,75.0000" >expect &&
	test_cmp expect out &&
	"$PROFTOOL" top --format csv --sample-index samples --focus e min.cpuprofile >out &&
	test_cmp expect out'

test_expect_success 'cpuprofile: (garbage collector) stands on the stack of the sample before it in time' '
	{ printf "{\"nodes\":[%s,%s,%s,%s]," "$(cf 1 "" "(root)" "" -1 -1)" \
		"$(cf 2 1 f a.js 0 0)" "$(cf 3 2 g a.js 4 0)" "$(cf 4 1 "(garbage collector)" "" -1 -1)" &&
	  echo "\"startTime\":0,\"endTime\":60,\"samples\":[4,3,4,4,2,4],\"timeDeltas\":[5,5,5,5,5,5]}"; } >gc.cpuprofile &&
	"$PROFTOOL" convert --to collapsed --sample-index samples gc.cpuprofile >out &&
	printf "%s\n" "(garbage collector) 1" "f 1" "f;(garbage collector) 1" "f;g 1" \
		"f;g;(garbage collector) 2" >expect &&
	test_cmp expect out'

test_expect_success 'heapprofile: nodes without ids (Chrome 69, node 10) read; with samples they are an error' '
	printf "%s" "{\"head\":{\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"selfSize\":0,\"children\":[{\"callFrame\":{\"functionName\":\"f\",\"scriptId\":\"1\",\"url\":\"a.js\",\"lineNumber\":3,\"columnNumber\":1},\"selfSize\":10,\"children\":[]}]}}" >old.heapprofile &&
	"$PROFTOOL" top --format csv old.heapprofile >out &&
	grep -qx "\"f\",\"a.js\",4,10,100.0000,10,100.0000" out &&
	test_expect_code 1 "$PROFTOOL" top "$MALFORMED/heapprofile-no-id.heapprofile"'

# ---- with a peer checkout: its own cases ----

# FLAMEGRAPH_DIR: stackcollapse-perf.pl's test/ cases against its results/, for every
# option; the one known difference (the script drops a last record not followed by a
# blank line; we and inferno keep it) is checked, not hidden: after taking out the
# lines of that last record, the outputs are equal.
if test -n "$FLAMEGRAPH_DIR" && test -d "$FLAMEGRAPH_DIR/test/results"; then
	test_expect_success 'FlameGraph test/*.txt: every case reads and agrees with results/ (but the last record)' '
		for t in "$FLAMEGRAPH_DIR"/test/*.txt; do
			b=$(basename "$t" .txt) &&
			for opt in pid tid kernel jit all addrs; do
				exp="$FLAMEGRAPH_DIR/test/results/$b-collapsed-$opt.txt" &&
				test -f "$exp" || continue
				"$PROFTOOL" convert --from perf --to collapsed --$opt "$t" >ours || return 1
				perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --$opt "$t" >perl 2>/dev/null || return 1
				if ! cmp -s perl "$exp"; then
					echo "# $b $opt: results/ is stale for the script; compared with the script"
				fi
				{ cat "$t"; printf "\n\n"; } >closed.txt &&
				perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --$opt closed.txt >perl 2>/dev/null &&
				test_cmp perl ours || { echo "$b --$opt differs"; return 1; }
			done
		done'
else
	test_skip 'FlameGraph test/*.txt against results/' 'set FLAMEGRAPH_DIR to a FlameGraph checkout'
fi

# INFERNO_DIR: inferno's own perf cases with expected collapsed files, where inferno
# follows stackcollapse-perf.pl (its departures are listed in the man page)
if test -n "$INFERNO_DIR" && test -d "$INFERNO_DIR/tests/data/collapse-perf/results"; then
	test_expect_success 'inferno tests/data/collapse-perf: cases that follow stackcollapse-perf.pl agree' '
		D=$INFERNO_DIR/tests/data/collapse-perf &&
		for spec in no-events: go-stacks: sourcepawn-jitdump:jit; do
			b=${spec%%:*} && o=${spec#*:} &&
			"$PROFTOOL" convert --from perf --to collapsed ${o:+--$o} "$D/$b.txt" >ours &&
			test_cmp "$D/results/$b-collapsed${o:+-$o}.txt" ours || return 1
		done'
	test_expect_success 'inferno tests/data/collapse-perf: every input reads (bad lines with --lenient)' '
		for t in "$INFERNO_DIR"/tests/data/collapse-perf/*.txt; do
			"$PROFTOOL" convert --from perf --to collapsed --lenient "$t" >/dev/null ||
				{ echo "$t"; return 1; }
		done'
else
	test_skip 'inferno tests/data/collapse-perf' 'set INFERNO_DIR to an inferno checkout'
fi

# SPEEDSCOPE_DIR: the sample profiles of the formats we read (perf script, pprof,
# stackprof, collapsed, .cpuprofile, Chrome traces of Profile events, .heapprofile) all
# read; the perf ones agree with stackcollapse-perf.pl when FLAMEGRAPH_DIR is given too.
# Left out: duration-event and Trace Event Format sample traces, V8 logs, UTF-16 text
# (formats we do not read).
# Chrome/141/no-arg-data.json is a trace whose chunks with nodes 3 to 756 are lost: read
# with --lenient as speedscope reads it (orphans hang from the root, samples of missing
# nodes give their time to the stack before), its wall total is speedscope's.
if test -n "$SPEEDSCOPE_DIR" && test -d "$SPEEDSCOPE_DIR/sample/profiles"; then
	test_expect_success 'speedscope sample/profiles in our formats all read' '
		S=$SPEEDSCOPE_DIR/sample/profiles && n=0 &&
		for f in "$S"/linux-perf/* "$S"/pprof/* "$S"/stackprof/* "$S"/stackcollapse/*.txt \
			"$S"/Chrome/*/*.json "$S"/Chrome/*/*.cpuprofile "$S"/node/*/*.cpuprofile \
			"$S"/Chrome/*/*.heapprofile "$S"/node/*/*.heapprofile; do
			case $f in *utf16*) continue ;; esac
			"$PROFTOOL" info --lenient "$f" >/dev/null || { echo "$f"; return 1; }
			n=$((n + 1))
		done &&
		test $n -ge 22'
	test_expect_success 'a trace that lost chunks: the wall total speedscope gives it' '
		snap=$SPEEDSCOPE_DIR/src/import/__snapshots__/chrome.test.ts.snap &&
		awk "/missing arg data/ { f = 1 } f && /selfWeight/ { gsub(/[^0-9]/, \"\", \$2); s += \$2 }
			f && /^\\\`;/ { exit } END { print s }" "$snap" >expect &&
		"$PROFTOOL" convert --lenient --to collapsed --sample-index wall \
			"$SPEEDSCOPE_DIR/sample/profiles/Chrome/141/no-arg-data.json" 2>err |
			awk "{ s += \$NF } END { print s }" >out &&
		test "$(cat expect)" -gt 0 &&
		test_cmp expect out &&
		test "$(wc -l <err)" = 1'
	if test -n "$FLAMEGRAPH_DIR"; then
		test_expect_success 'speedscope linux-perf samples agree with stackcollapse-perf.pl' '
			for f in "$SPEEDSCOPE_DIR"/sample/profiles/linux-perf/*; do
				{ cat "$f"; printf "\n\n"; } >closed.txt &&
				perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" closed.txt >perl 2>/dev/null &&
				"$PROFTOOL" convert --from perf --to collapsed "$f" >ours &&
				test_cmp perl ours || { echo "$f"; return 1; }
			done'
	fi
else
	test_skip 'speedscope sample/profiles' 'set SPEEDSCOPE_DIR to a speedscope checkout'
fi

# SPEEDSCOPE_DIR: speedscope's expected output for its sample profiles (the jest
# snapshots of its importers, src/import/__snapshots__/*.snap) frame by frame: every
# frame's self and total weight equal speedscope's once speedscope's own rules, where
# they differ from ours (each in the man page, "speedscope's sample profiles", with the
# reason ours is right), are applied to our output; and our output is what `top` says.
# tests/speedscope-frames.js does the comparing. A case: snapshot file, test name (@K:
# its profile K, @all: all its profiles as one thread of ours), whose rules, the input,
# the sample type, the thread (--thread) where a file holds several.
ss_frames () {
	want=$1
	while read -r snap name rules file type thread; do
		test -n "$snap" || continue
		name=$(echo "$name" | tr _ " ") thread=$(echo "$thread" | tr _ " ")
		set -- ${thread:+--thread "$thread"} "$SPEEDSCOPE_DIR/sample/profiles/$file"
		rm -rf d && mkdir d &&
		"$PROFTOOL" top --lenient --format csv -n 0 --sample-index "$type" "$@" \
			>d/top.csv 2>/dev/null &&
		{ test "$rules" = heap ||
		  "$PROFTOOL" export --lenient --timeline -o d "$@" 2>/dev/null; } &&
		{ case $rules in v8*) "$PROFTOOL" convert --lenient --to cpuprofile \
			-o d/profile.cpuprofile "$@" 2>/dev/null ;; esac; } &&
		node "$SRCDIR/tests/speedscope-frames.js" \
			"$SPEEDSCOPE_DIR/src/import/__snapshots__/$snap" "$name" "$rules" d "$type" \
			>>compared || { cat compared; echo "$snap $name"; return 1; }
	done &&
	cat compared && test "$(grep -c "^ok: " compared)" = "$want"
}
if test -n "$SPEEDSCOPE_DIR" && test -d "$SPEEDSCOPE_DIR/src/import/__snapshots__" &&
	command -v node >/dev/null; then
	test_expect_success 'speedscope snapshots, frame by frame: .cpuprofile and Chrome traces' '
		ss_frames 11 <<-\EOF
		chrome.test.ts.snap importFromChromeCPUProfile v8 Chrome/65/simple.cpuprofile wall
		chrome.test.ts.snap importFromV8Profiler_Node_10 v8-legacy node/10.11.0/example.cpuprofile wall
		chrome.test.ts.snap importFromChromeTimeline v8 Chrome/65/simple-timeline.json wall
		chrome.test.ts.snap importFromChromeTimeline_chunked v8 Chrome/65/simple-timeline.json wall
		chrome.test.ts.snap importFromChromeTimeline_Chrome_69 v8 Chrome/69/simple.json wall
		chrome.test.ts.snap importFromChromeTimeline_Chrome_116 v8 Chrome/116/Trace-20230603T221323.json wall
		chrome.test.ts.snap importFromChromeTimeline_Workers_Chrome_66@1 v8 Chrome/66/worker.json wall CrRendererMain
		chrome.test.ts.snap importFromChromeTimeline_Workers_Chrome_66@2 v8 Chrome/66/worker.json wall DedicatedWorker_thread
		chrome.test.ts.snap importFromChromeTimeline_Workers_Chrome_70@1 v8 Chrome/70/worker.json wall CrRendererMain
		chrome.test.ts.snap importFromChromeTimeline_Workers_Chrome_70@2 v8 Chrome/70/worker.json wall DedicatedWorker_thread
		chrome.test.ts.snap importTraceEvents_Chrome_141_profile_with_missing_arg_data@all v8 Chrome/141/no-arg-data.json wall
		EOF'
	test_expect_success 'speedscope snapshots, frame by frame: perf script, one thread each' '
		ss_frames 12 <<-\EOF
		linux-tools-perf.test.ts.snap importFromLinuxPerf_simple.linux-perf.txt perf linux-perf/simple.linux-perf.txt samples
		linux-tools-perf.test.ts.snap importFromLinuxPerf_one-sample.linux-perf.txt perf linux-perf/one-sample.linux-perf.txt samples
		linux-tools-perf.test.ts.snap importFromLinuxPerf_forks.linux-perf.txt@1 perf linux-perf/forks.linux-perf.txt samples 9
		linux-tools-perf.test.ts.snap importFromLinuxPerf_forks.linux-perf.txt@2 perf linux-perf/forks.linux-perf.txt samples 0
		linux-tools-perf.test.ts.snap importFromLinuxPerf_forks.linux-perf.txt@3 perf linux-perf/forks.linux-perf.txt samples 11
		linux-tools-perf.test.ts.snap importFromLinuxPerf_forks.linux-perf.txt@4 perf linux-perf/forks.linux-perf.txt samples 10
		linux-tools-perf.test.ts.snap importFromLinuxPerf_simple-with-header.linux-perf.txt perf linux-perf/simple-with-header.linux-perf.txt samples
		linux-tools-perf.test.ts.snap importFromLinuxPerf_simple-with-pids.linux-perf.txt perf linux-perf/simple-with-pid.linux-perf.txt samples
		linux-tools-perf.test.ts.snap importFromLinuxPerf_system-wide.linux-perf.txt@1 perf linux-perf/system-wide.linux-perf.txt samples 9
		linux-tools-perf.test.ts.snap importFromLinuxPerf_system-wide.linux-perf.txt@2 perf linux-perf/system-wide.linux-perf.txt samples 0
		linux-tools-perf.test.ts.snap importFromLinuxPerf_system-wide.linux-perf.txt_chunked@1 perf linux-perf/system-wide.linux-perf.txt samples 9
		linux-tools-perf.test.ts.snap importFromLinuxPerf_system-wide.linux-perf.txt_chunked@2 perf linux-perf/system-wide.linux-perf.txt samples 0
		EOF'
	test_expect_success 'speedscope snapshots, frame by frame: stackprof, pprof, collapsed' '
		ss_frames 8 <<-\EOF
		stackprof.test.ts.snap importFromStackprof stackprof stackprof/simple-stackprof.json wall
		stackprof.test.ts.snap importFromStackprof_object_mode stackprof stackprof/object-stackprof.json objects
		stackprof.test.ts.snap importFromStackprof_when_a_profile_has_a_frame_with_no_name stackprof stackprof/stackprof-last-frame-no-name.json objects
		stackprof.test.ts.snap importCpuProfileWithProperWeights_importFromStackprof_cpu_mode_snapshot stackprof stackprof/simple-cpu-stackprof.json cpu
		pprof.test.ts.snap importAsPprofProfile plain pprof/simple.prof cpu
		bg-flamegraph.test.ts.snap importFromBGFlameGraph plain stackcollapse/simple.txt samples
		bg-flamegraph.test.ts.snap importFromBGFlameGraph_with_CRLF plain stackcollapse/simple-crlf.txt samples
		bg-flamegraph.test.ts.snap importFromBGFlameGraph_with_invalid_lines plain stackcollapse/simple-with-invalids.txt samples
		EOF'
	test_expect_success 'speedscope snapshots, frame by frame: V8 heap profiles' '
		ss_frames 2 <<-\EOF
		v8heapalloc.test.ts.snap importV8HeapAlloc_from_Chrome heap Chrome/69/Heap-20181005T144546.heapprofile space
		v8heapalloc.test.ts.snap importV8HeapAlloc_from_NodeJS heap node/10.11.0/Heap-20181003T105432.heapprofile space
		EOF'
else
	test_skip 'speedscope snapshots, frame by frame' \
		'set SPEEDSCOPE_DIR to a speedscope checkout (and install node)'
fi

# PPROF_DIR: pprof's gzipped protobuf test profiles read
if test -n "$PPROF_DIR" && test -d "$PPROF_DIR/profile/testdata"; then
	test_expect_success 'pprof testdata: every gzipped profile.proto reads' '
		n=0 &&
		for f in $(find "$PPROF_DIR" -path "*testdata*" -type f); do
			test "$(od -An -tx1 -N2 "$f" | tr -d " ")" = 1f8b || continue
			"$PROFTOOL" info "$f" >/dev/null || { echo "$f"; return 1; }
			n=$((n + 1))
		done &&
		test $n -ge 1'
else
	test_skip 'pprof testdata' 'set PPROF_DIR to a google/pprof checkout'
fi

test_done
