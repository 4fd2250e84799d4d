#!/bin/sh
test_description='detection: every sample is named as its own format, and no reader claims text it cannot read'
. "$(dirname "$0")/lib.sh"

# The format each sample directory's files are, by name; a file the table misses fails
# (a new sample needs its line here).
expected () {
	case $1 in
	bpftrace/*.txt) echo bpftrace ;;
	collapsed/*.collapsed) echo collapsed ;;
	gecko/*.json.gz) echo gecko ;;
	go/*.trace) echo gotrace ;;
	gperftools/*.prof) echo gperftools-cpu ;;
	gperftools/*.heap | gperftools/*.growth) echo gperftools-heap ;;
	ruby/*.json.gz) echo rubyheap ;;
	traceevents/*.trace.json) echo traceevents ;;
	go/*.pb | go/*.pb.gz) echo pprof ;;
	go/*.debug2.txt | go/crash.txt | go/deadlock.txt | go/panic.txt | go/repanic.txt | \
		go/sigquit.txt) echo goroutine ;;
	go/*.debug1.txt) echo gotext ;;
	node/*.cpuprofile | node/*.trace.json) echo cpuprofile ;;
	node/*.heapprofile) echo heapprofile ;;
	node/*.heapsnapshot.gz) echo heapsnapshot ;;
	perf/*.txt) echo perf ;;
	stackprof/*.dump) echo stackprof ;;
	stackprof/*.json) echo stackprof-json ;;
	*) echo unknown ;;
	esac
}

for f in $(cd "$SAMPLES" && find . -type f ! -name make.sh ! -name README ! -path "*/src/*" |
	sed 's|^\./||' | LC_ALL=C sort); do
	want=$(expected "$f")
	test_expect_success "detect: $f is $want" '
		test "'"$want"'" != unknown &&
		if test "'"$want"'" = heapsnapshot || test "'"$want"'" = rubyheap; then
			"$PROFTOOL" heap -n 1 "$SAMPLES/'"$f"'" >out
		else
			"$PROFTOOL" info --format json "$SAMPLES/'"$f"'" >out &&
			grep -q "\"format\":\"'"$want"'\"" out
		fi'
done

test_expect_success 'a heap snapshot without stacks is named as one by info' '
	test_expect_code 1 "$PROFTOOL" info "$SAMPLES/node/shapes-1.heapsnapshot.gz" &&
	grep -q "heap snapshot without allocation stacks" err'

test_expect_success 'plain text no reader takes is unrecognized, never a protobuf error' '
	printf "hello world\nthis is text\n" >in &&
	test_expect_code 1 "$PROFTOOL" top in &&
	test_one_line_err "proftool: in: byte 0: unrecognized profile format: text starting \"hello world\" (see '"'proftool formats'; --from FORMAT forces one)"'" &&
	printf "jaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n" >in &&
	test_expect_code 1 "$PROFTOOL" top in &&
	! grep -qi "protobuf\|pprof" err'

test_expect_success 'a perf header with a comm of 8 KB is perf, not protobuf' '
	awk "BEGIN { s = \"\"; for (i = 0; i < 8200; i++) s = s \"j\"; print s \" 4242 [001] 100.000001: 1001001 cpu-clock:\"; print \"\t55d1c3 hot_leaf+0x13 (/usr/local/bin/spin)\"; print \"\" }" >in &&
	"$PROFTOOL" info in >out &&
	grep -q "^Format: perf$" out'

test_expect_success 'a collapsed file whose first line is one frame of 8,000 bytes is collapsed' '
	awk "BEGIN { s = \"\"; for (i = 0; i < 8000; i++) s = s \"f\"; print s \" 5\"; print \"main;b 2\" }" >in &&
	"$PROFTOOL" info in >out &&
	grep -q "^Format: collapsed$" out &&
	"$PROFTOOL" convert --to collapsed in >out &&
	sort in >expect && test_cmp expect out'

test_expect_success 'bpftrace output is bpftrace, not pprof' '
	"$PROFTOOL" info "$SAMPLES/bpftrace/ustack.txt" >out &&
	grep -q "^Format: bpftrace$" out'

test_expect_success 'perf callchains not indented, under a header without a time, are perf' '
	printf "java 19983 cycles:\nffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])\n7f722d12e1d4 LBusy;::main (/tmp/perf-19982.map)\n\n" >in &&
	"$PROFTOOL" info in >out &&
	grep -q "^Format: perf$" out'

test_expect_success 'perf callchains indented with spaces under a header without a time are perf' '
	printf "node 31912 cpu-clock: \n             c6d78125f71 Stub:JSEntryStub (/tmp/perf-31912.map)\n                  af2fa1 node::After(uv_fs_s*) (/tmp/node-v011)\n\n" >in &&
	"$PROFTOOL" info in >out &&
	grep -q "^Format: perf$" out'

test_expect_success 'the raw protobuf is still pprof, and its first field must parse' '
	"$PROFTOOL" info "$SAMPLES/go/cpu.pb" >out &&
	grep -q "^Format: pprof$" out &&
	printf "\012\377\377\377\377\017\010\001" >in &&
	test_expect_code 1 "$PROFTOOL" top in &&
	grep -q "unrecognized profile format" err'

test_expect_success 'unrecognized JSON names its first keys, as python reads them' '
	printf "{\"zeta\": [1, {\"inner\": 2}], \"alpha\": null, \"mid\": \"x\"}\n" >in.json &&
	test_expect_code 1 "$PROFTOOL" top in.json &&
	keys=$(python3 -c "import json, sys; print(\", \".join(\"\\\"%s\\\"\" % k for k in json.load(open(sys.argv[1]))))" in.json) &&
	test_one_line_err "proftool: in.json: byte 0: unrecognized profile format: a JSON object with keys $keys (see '"'proftool formats'; --from FORMAT forces one)"'"'

test_expect_success 'unrecognized binary data shows its first 8 bytes, as od reads them' '
	printf "\001\002\003\004\005\006\007\010\011\012\013" >in.bin &&
	test_expect_code 1 "$PROFTOOL" top in.bin &&
	hex=$(od -An -tx1 -N8 in.bin | tr -s " \n" "  " | sed "s/ $//") &&
	test_one_line_err "proftool: in.bin: byte 0: unrecognized profile format: binary data starting$hex (see '"'proftool formats'; --from FORMAT forces one)"'"'

test_done
