#!/bin/sh
test_description='trace events, the global samples form: "samples" with "sf" into "stackFrames"'
. "$(dirname "$0")/lib.sh"

D=$SRCDIR/tests/data

# proftool's flat and cum of type $2 as "name flat cum" lines, sorted like the script's
ours () {
	"$PROFTOOL" top --format csv -n 0 --sample-index "$2" "$1" |
		awk -F, 'NR > 1 { gsub(/"/, "", $1); print $1, $4, $6 }' | LC_ALL=C sort
}

test_expect_success 'the samples form is traceevents, with wall time and sample counts' '
	"$PROFTOOL" info "$D/samples.trace.json" >out &&
	grep -qx "Format: traceevents" out &&
	grep -q "0: wall \[nanoseconds\]" out &&
	grep -q "1: samples \[count\]" out &&
	grep -qx "Samples: 10" out'

test_expect_success 'wall: the time to the thread'"'"'s next sample, as a Python reading gives it' '
	python3 "$SRCDIR/tests/trace-samples.py" "$D/samples.trace.json" wall |
		awk "\$2 || \$3" | LC_ALL=C sort >expect &&
	ours "$D/samples.trace.json" wall >actual &&
	test_cmp expect actual'

test_expect_success 'samples: each sample'"'"'s weight (1 without), as a Python reading gives it' '
	python3 "$SRCDIR/tests/trace-samples.py" "$D/samples.trace.json" samples | LC_ALL=C sort >expect &&
	ours "$D/samples.trace.json" samples >actual &&
	test_cmp expect actual'

test_expect_success 'each pid/tid is a thread, named by M events; sf and tid as numbers or strings' '
	"$PROFTOOL" convert --to collapsed --thread worker --sample-index samples "$D/samples.trace.json" >actual &&
	printf "worker_loop 3\nworker_loop;alloc 1\nworker_loop;recurse;recurse 1\n" >expect &&
	test_cmp expect actual &&
	"$PROFTOOL" convert --to collapsed --thread 1 "$D/samples.trace.json" >actual &&
	printf "main;run 1000\nmain;run;parse 10000\nmain;run;parse;lex 30000\nmain;run;parse;lex;alloc 30000\n" >expect &&
	test_cmp expect actual'

test_expect_success 'a trace with no events but samples ("traceEvents": []) is detected' '
	sed "/\"ph\": \"M\"/d" "$D/samples.trace.json" | sed "1s/.*/{\"traceEvents\": [/" >in.json &&
	"$PROFTOOL" info in.json >out &&
	grep -qx "Format: traceevents" out &&
	grep -qx "Samples: 10" out'

test_expect_success 'spans beside samples are left out with one warning' '
	sed "s/\"args\": {\"name\": \"main\"}}/&, {\"name\": \"x\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5, \"pid\": 10, \"tid\": 1}/" \
		"$D/samples.trace.json" >in.json &&
	"$PROFTOOL" top in.json >out 2>err &&
	grep -q "^proftool: in.json: byte [0-9]*: warning: the trace holds samples: its 1 B, E and X event is left out$" err &&
	test "$(wc -l <err)" = 1 &&
	grep -qx "Total: 170.75us" out'

test_expect_success 'samples that are no array and stackFrames no object are left alone' '
	printf "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": 5, \"pid\": 1, \"tid\": 1}], \"samples\": {\"x\": 1}, \"stackFrames\": [1]}" >in.json &&
	"$PROFTOOL" convert --to collapsed in.json >actual &&
	echo "a 5000" >expect &&
	test_cmp expect actual'

test_expect_success 'a stack frame chain of 100,000 parents is linear, not recursive' '
	cat >gen.py <<-\EOF &&
	n = 100000
	s = ",".join("{\"ts\": %d, \"sf\": %d}" % (i, n - i) for i in range(1000))
	f = ",".join("\"%d\": {\"name\": \"f%d\"%s}" % (i, i % 7, ", \"parent\": %d" % (i - 1) if i > 1 else "") for i in range(1, n + 1))
	print("{\"traceEvents\": [], \"samples\": [%s], \"stackFrames\": {%s}}" % (s, f))
	EOF
	python3 gen.py >deep.json &&
	"$PROFTOOL" top --sample-index samples deep.json >out &&
	grep -qx "Total: 1000" out &&
	grep -q " f0$" out'

plain_build_judges 'speedscope'"'"'s importer on the samples form'
if ! command -v node >/dev/null 2>&1 || ! test -d "$MODS/speedscope"; then
	test_skip 'speedscope importer agreement' 'node or the speedscope npm package missing (run tests/viewers/setup.sh)'
else
	test_expect_success 'top equals speedscope'"'"'s importer, frame by frame' '
		"$PROFTOOL" top --format csv -n 0 "$D/samples.trace.json" >top.csv &&
		node "$SRCDIR/tests/speedscope-import.js" "$D/samples.trace.json" top.csv 1000 >res &&
		grep -qx "ok: 6 frames (6 totals)" res'
fi

test_done
