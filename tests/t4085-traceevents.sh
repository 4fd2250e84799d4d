#!/bin/sh
test_description='Chrome trace events with durations: B/E, X, M; per thread; any order'
. "$(dirname "$0")/lib.sh"

D=$SRCDIR/tests/data
T=$SAMPLES/traceevents

test_expect_success 'real traces (node, clang) are detected as traceevents' '
	for f in "$T/node.trace.json" "$T/clang.trace.json" "$D/spans.trace.json"; do
		"$PROFTOOL" info "$f" >out &&
		grep -qx "Format: traceevents" out &&
		grep -q "0: wall \[nanoseconds\]" out || { echo "$f"; exit 1; }
	done'

test_expect_success 'a trace of V8 CPU samples stays with the cpuprofile reader' '
	"$PROFTOOL" info "$SAMPLES/node/small.trace.json" >out &&
	grep -qx "Format: cpuprofile" out'

test_expect_success 'X events out of order: self time is the duration less the children' '
	"$PROFTOOL" convert --to collapsed --thread main "$D/spans.trace.json" >actual &&
	printf "run 70000\nrun;write a.txt 20000\nrun;write b.txt 10000\n" >expect &&
	test_cmp expect actual'

test_expect_success 'B/E pairs out of order, fractional microseconds' '
	"$PROFTOOL" convert --to collapsed --thread 2 "$D/spans.trace.json" >actual &&
	printf "job 20000\njob;step 10000\n" >expect &&
	test_cmp expect actual'

test_expect_success 'each pid/tid is a thread, M events name threads and processes' '
	"$PROFTOOL" convert --to collapsed --process 8 "$D/spans.trace.json" >actual &&
	echo "other 4000" >expect && test_cmp expect actual &&
	"$PROFTOOL" top --thread app "$D/spans.trace.json" >out &&
	grep -qx "Total: 130us" out'

test_expect_success 'the array form; a missing closing bracket is allowed' '
	"$PROFTOOL" top "$D/unclosed.trace.json" >out 2>err &&
	grep -qx "Total: 90us" out'

test_expect_success 'unclosed B events end at the thread'"'"'s last timestamp, with one warning' '
	"$PROFTOOL" convert --to collapsed "$D/unclosed.trace.json" >actual 2>err &&
	cat >expect <<-\EOF &&
	outer 20000
	outer;inner 35000
	outer;inner;leaf 5000
	outer;late 10000
	outer;late;last 20000
	EOF
	test_cmp expect actual &&
	grep -c "warning" err >n && echo 2 >two && test_cmp two n &&
	grep -qx "proftool: .*unclosed.trace.json: byte 1: warning: 2 begin events never end (the first here): they end at their thread'"'"'s last timestamp" err &&
	grep -qx "proftool: .*unclosed.trace.json: byte 103: warning: 1 end event matches no open begin event (the first here): left out" err'

# fuzz-traceevents found it (UBSan: a NULL key array offset): a thread whose only
# event is an end, once its begin lost its "ph"
test_expect_success 'a thread of only an unmatched end: a warning, no samples, exit 0' '
	printf "%s" "[{\"p\":\"B\",\"pid\":1,\"tid\":1,\"name\":\"a\"},{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":3}]" >e.json &&
	"$PROFTOOL" top e.json >out 2>err &&
	grep -qx "Total: 0" out &&
	grep -qx "proftool: e.json: byte 38: warning: 1 end event matches no open begin event (the first here): left out" err &&
	grep -qx "proftool: e.json: the profile has no samples" err && test "$(wc -l <err)" = 2
'

test_expect_success 'clang -ftime-trace: frames name the detail, per-kind totals are threads' '
	"$PROFTOOL" top -n 0 --thread clang++ "$T/clang.trace.json" >out &&
	grep -q "  Frontend$" out &&
	grep -q "  Source .*/c++/12/vector$" out &&
	! grep -q "Total Frontend" out &&
	"$PROFTOOL" top -n 0 "$T/clang.trace.json" >all &&
	grep -q "  Total Frontend$" all'

test_expect_success 'node --trace-events-enabled: B/E fs spans and X spans, per thread' '
	"$PROFTOOL" top -n 0 "$T/node.trace.json" >out &&
	grep -q "  fs.sync.open$" out &&
	grep -q "  V8.DeserializeIsolate$" out'

test_expect_success 'node: the total is the sum of the outermost spans, per thread' '
	command -v node >/dev/null || exit 0
	node -e "
		const ev = JSON.parse(require(\"fs\").readFileSync(process.argv[1], \"utf8\")).traceEvents;
		/* outermost spans per thread from X and B/E; no span here crosses another */
		const by = new Map();
		for (const e of ev) {
			if (![\"X\", \"B\", \"E\"].includes(e.ph)) continue;
			const k = e.pid + \":\" + e.tid;
			if (!by.has(k)) by.set(k, []);
			if (e.ph === \"X\") by.get(k).push([e.ts, e.ts + (e.dur || 0)]);
			else by.get(k).push([e.ts, e.ph]);
		}
		let total = 0;
		for (const list of by.values()) {
			const iv = [], open = [];
			for (const x of list.slice().sort((a, b) => a[0] - b[0]))
				if (x[1] === \"B\") open.push(x[0]);
				else if (x[1] === \"E\") iv.push([open.pop(), x[0]]);
				else iv.push(x);
			iv.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
			let end = -Infinity;
			for (const [s, e] of iv) if (s >= end) { total += e - s; end = e; } else if (e > end) { total += e - end; end = e; }
		}
		console.log(\"Total: \" + total);
	" "$T/node.trace.json" >expect &&
	"$PROFTOOL" top --format json "$T/node.trace.json" >top.json &&
	node -e "console.log(\"Total: \" + JSON.parse(require(\"fs\").readFileSync(\"top.json\", \"utf8\")).total / 1000)" >actual &&
	test_cmp expect actual'

test_expect_success 'events in any order: a shuffled trace reads the same' '
	command -v node >/dev/null || exit 0
	node -e "
		const d = JSON.parse(require(\"fs\").readFileSync(process.argv[1], \"utf8\"));
		d.traceEvents.reverse();
		console.log(JSON.stringify(d));" "$T/clang.trace.json" >rev.json &&
	"$PROFTOOL" convert --to collapsed "$T/clang.trace.json" | sort >expect &&
	"$PROFTOOL" convert --to collapsed rev.json | sort >actual &&
	test_cmp expect actual'

test_expect_success 'a speedscope round trip keeps the threads and the stacks' '
	"$PROFTOOL" convert --to speedscope -o t.speedscope.json "$T/node.trace.json" &&
	"$PROFTOOL" convert --to collapsed "$T/node.trace.json" | sort >expect &&
	"$PROFTOOL" convert --to collapsed t.speedscope.json | sort >actual &&
	test_cmp expect actual'

MEASURE=${BUILDDIR:-$SRCDIR}/bench/measure
# 20,000 open frames and 20,000 ends at one time, most matching no open frame: each
# close looks at a bounded window of the ends, so this is linear
awk 'BEGIN { printf "["
	for (i = 0; i < 20000; i++) printf "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":%d,\"name\":\"f%d\"},", i, i % 7
	for (i = 0; i < 20000; i++) printf "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":30000,\"name\":\"f%d\"},", i % 5
	printf "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1,\"name\":\"x\"}]\n" }' >"$TRASH/ends.json"

test_expect_success '20,000 ends at one time: read, each open frame closed once' '
	"$PROFTOOL" top "$TRASH/ends.json" >out 2>err &&
	grep -qx "Total: 30ms" out'

if test -x "$MEASURE" && test "$PT_BUILD" = plain; then
	test_expect_success '20,000 ends at one time: within 1 s of CPU' '
		set -- $("$MEASURE" -- "$PROFTOOL" top "$TRASH/ends.json" 2>/dev/null) &&
		test "$3" = 0 &&
		awk -v c="$4" "BEGIN { exit !(c < 1) }" || { echo "$4 s of CPU"; exit 1; }'
else
	test_skip '20,000 ends at one time: within 1 s of CPU' 'needs bench/measure and a plain build'
fi

test_done
