#!/bin/sh
test_description='a Chrome trace with spans and V8 CPU samples: both read, in one profile'
. "$(dirname "$0")/lib.sh"

M=$SAMPLES/traceevents/mixed.trace.json
D=$SRCDIR/tests/data/mixed-crafted.trace.json

# the halves of a trace by an independent filter (jq): without its spans, without its
# Profile events
cpu_half () { jq ".traceEvents |= map(select(.ph != \"B\" and .ph != \"E\" and .ph != \"X\"))" "$1"; }
span_half () { jq ".traceEvents |= map(select(.name != \"Profile\" and .name != \"ProfileChunk\"))" "$1"; }

test_expect_success 'node trace with both: the CPU types first (wall the default), then duration' '
	for from in "" "--from cpuprofile" "--from traceevents"; do
		"$PROFTOOL" info $from "$M" >out &&
		grep -qx "  0: samples \[count\] total [0-9]* ([0-9]*)" out &&
		grep -q "^  1: wall \[microseconds\] total .* (default)\$" out &&
		grep -q "^  2: duration \[nanoseconds\] total " out || { echo "$from"; exit 1; }
	done'

test_expect_success 'the CPU samples read as today: each CPU type equals the file without its spans' '
	cpu_half "$M" >cpu.json &&
	for t in samples wall; do
		"$PROFTOOL" top -n 0 --format json --sample-index $t --from cpuprofile cpu.json >expect &&
		"$PROFTOOL" top -n 0 --format json --sample-index $t "$M" >actual &&
		test_cmp expect actual || exit 1
	done &&
	"$PROFTOOL" top -n 0 --from cpuprofile cpu.json >expect &&
	"$PROFTOOL" top -n 0 "$M" >actual && test_cmp expect actual'

test_expect_success 'duration equals the traceevents reading of the file without its Profile events' '
	span_half "$M" >spans.json &&
	"$PROFTOOL" top -n 0 --format json spans.json | jq -c .rows >expect &&
	test "$(wc -c <expect)" -gt 100 &&
	for from in "" "--from cpuprofile" "--from traceevents"; do
		"$PROFTOOL" top -n 0 --format json --sample-index duration $from "$M" |
			jq -c .rows >actual &&
		test_cmp expect actual || exit 1
	done &&
	"$PROFTOOL" convert --to collapsed spans.json >expect &&
	"$PROFTOOL" convert --to collapsed --sample-index duration "$M" >actual &&
	test_cmp expect actual'

test_expect_success 'each row holds one half: no span in the CPU stacks, no JS frame in the spans' '
	"$PROFTOOL" convert --to collapsed --sample-index samples "$M" >cpu &&
	grep -q "^fib\|;fib " cpu && ! grep -q "fs\.sync\|RunTimers" cpu &&
	"$PROFTOOL" convert --to collapsed --sample-index duration "$M" >spans &&
	grep -q "fs\.sync" spans && ! grep -q "fib" spans'

test_expect_success 'crafted trace: numbers of each type from the trace event format by hand' '
	# Profile + one ProfileChunk: node 2 (task) and 3 (step) sampled twice each, 100 us
	# apart; X task [1000, 1300] us holding B/E step [1050, 1150] us
	printf "task 2\ntask;step 2\n" >expect &&
	"$PROFTOOL" convert --to collapsed --sample-index samples "$D" >actual &&
	test_cmp expect actual &&
	printf "task 100\ntask;step 200\n" >expect &&
	"$PROFTOOL" convert --to collapsed --sample-index wall "$D" >actual &&
	test_cmp expect actual &&
	printf "task 200000\ntask;step 100000\n" >expect &&
	"$PROFTOOL" convert --to collapsed --sample-index duration "$D" >actual &&
	test_cmp expect actual'

test_expect_success 'events in any key order and as a bare array read the same' '
	"$PROFTOOL" top -n 0 --format json --sample-index duration "$M" >expect &&
	jq -S -c .traceEvents "$M" >sorted.json &&
	"$PROFTOOL" top -n 0 --format json --sample-index duration sorted.json >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" top -n 0 --format json --sample-index duration --from traceevents sorted.json >actual &&
	test_cmp expect actual'

test_expect_success 'a broken half fails the read, located, whichever reader has the file' '
	for f in traceevents-mixed-bad-chunk.json traceevents-mixed-negative-dur.json; do
		for from in cpuprofile traceevents; do
			(cd "$MALFORMED" && "$PROFTOOL" top --from $from "$f" >"$OLDPWD/out" 2>"$OLDPWD/err");
			test $? = 1 && test_cmp "$MALFORMED/$f.err" err || { echo "$f $from"; exit 1; }
		done
	done'

test_expect_success 'what the CPU reader tolerates in events that are no spans stays tolerated' '
	"$PROFTOOL" top -n 0 --format json "$SAMPLES/node/small.trace.json" >expect &&
	jq -c "[1, \"x\", [2]] + .traceEvents + [{ph: \"M\", name: \"thread_name\", pid: \"abc\", tid: {a: 1}, args: {name: \"q\"}}]" \
		"$SAMPLES/node/small.trace.json" >junk.json &&
	"$PROFTOOL" top -n 0 --format json junk.json >actual && test_cmp expect actual &&
	jq -c ".traceEvents + [{ph: \"X\", name: \"t\", pid: \"abc\", tid: 1, ts: 5, dur: 1}]" \
		"$SAMPLES/node/small.trace.json" >badspan.json &&
	for from in cpuprofile traceevents; do
		test_expect_code 1 "$PROFTOOL" top --from $from badspan.json 2>err &&
		grep -q "^proftool: badspan.json: byte [0-9]*: .pid. is not an integer\$" err || exit 1
	done'

test_expect_success 'a trace without spans or without CPU samples reads as before' '
	"$PROFTOOL" info "$SAMPLES/node/small.trace.json" >out &&
	! grep -q duration out &&
	"$PROFTOOL" info "$SAMPLES/traceevents/node.trace.json" >out &&
	grep -qx "  0: wall \[nanoseconds\] total [0-9]* (.*) (default)" out && ! grep -q duration out'

test_done
