#!/bin/sh
test_description='V8 CPU profiles: broken inputs give one clear line and exit 1'
. "$(dirname "$0")/lib.sh"

N=$SAMPLES/node

# (the fixed cases live in tests/malformed/cpuprofile-* and trace-*, run by t0050)

# cut FILE at every STEP bytes; every piece must fail with one line naming a byte
truncations () {
	file=$1 step=$2 size=$(wc -c <"$1") off=$3
	while test "$off" -lt "$size"; do
		head -c "$off" "$file" >cut.cpuprofile
		test_expect_code 1 "$PROFTOOL" top --from cpuprofile cut.cpuprofile || {
			echo "at offset $off"; return 1; }
		test "$(wc -l <err)" = 1 && test ! -s out &&
		grep -Eq "^proftool: cut.cpuprofile: byte [0-9]+: (truncated JSON: unexpected end of input|invalid JSON: .*|empty input)\$" err || {
			echo "at offset $off:"; cat err; return 1; }
		off=$((off + step * VALGRIND_STEP))
	done
}

test_expect_success 'small.cpuprofile truncated at 74 offsets' '
	truncations "$N/small.cpuprofile" 997 0'

test_expect_success 'small-legacy.cpuprofile truncated at 60 offsets' '
	truncations "$N/small-legacy.cpuprofile" 991 7'

test_expect_success 'small.trace.json truncated at 80 offsets' '
	truncations "$N/small.trace.json" 1003 1'

test_expect_success '100000-deep nested arrays: a clear error, no crash' '
	{ printf "{\"x\":"; head -c 100000 /dev/zero | tr "\\0" "["; } >deep.cpuprofile &&
	test_expect_code 1 "$PROFTOOL" top --from cpuprofile deep.cpuprofile &&
	test_one_line_err "proftool: deep.cpuprofile: byte 50004: JSON nested deeper than 50000 levels"'

test_expect_success '100000-deep nesting inside a key we skip' '
	{ printf "{\"traceEvents\":[{\"args\":{\"x\":"; head -c 100000 /dev/zero | tr "\\0" "["; } >deep.json &&
	test_expect_code 1 "$PROFTOOL" top deep.json &&
	test_one_line_err "proftool: deep.json: byte 50025: JSON nested deeper than 50000 levels"'

test_expect_success '100000-deep nested objects as legacy children' '
	{ printf "{\"head\":{\"functionName\":\"(root)\",\"id\":1,\"children\":[";
	  i=0; while test $i -lt 2000; do printf "{\"id\":%d,\"children\":[" $((i + 2)); i=$((i + 1)); done; } >h.cpuprofile &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do cat h.cpuprofile; done >deep.cpuprofile &&
	test_expect_code 1 "$PROFTOOL" top --from cpuprofile deep.cpuprofile &&
	test "$(wc -l <err)" = 1 &&
	grep -q "JSON nested deeper than 50000 levels" err'

test_expect_success 'a top-level number is not a profile' '
	echo 42 >n.cpuprofile &&
	test_expect_code 1 "$PROFTOOL" top --from cpuprofile n.cpuprofile &&
	test_one_line_err "proftool: n.cpuprofile: byte 2: not a V8 CPU profile or trace: the JSON is not an object or array"'

test_expect_success 'an object without nodes is not a profile' '
	echo "{\"version\":1,\"callFrame\":{}}" >o.cpuprofile &&
	test_expect_code 1 "$PROFTOOL" top o.cpuprofile &&
	test_one_line_err "proftool: o.cpuprofile: byte 29: not a V8 CPU profile: no '"'"'nodes'"'"' or '"'"'head'"'"'"'

test_expect_success 'wrong element types in samples and timeDeltas' '
	printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}],\"samples\":[1,\"1\"]}" >s.cpuprofile &&
	test_expect_code 1 "$PROFTOOL" top s.cpuprofile &&
	test_one_line_err "proftool: s.cpuprofile: byte 74: '"'"'samples'"'"' holds a non-number" &&
	printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}],\"samples\":[1],\"timeDeltas\":[{}]}" >s.cpuprofile &&
	test_expect_code 1 "$PROFTOOL" top s.cpuprofile &&
	test_one_line_err "proftool: s.cpuprofile: byte 87: '"'"'timeDeltas'"'"' holds a non-number"'

test_expect_success 'a sample id beyond 64 bits' '
	printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}],\"samples\":[99999999999999999999]}" >s.cpuprofile &&
	test_expect_code 1 "$PROFTOOL" top s.cpuprofile &&
	test_one_line_err "proftool: s.cpuprofile: byte 89: number out of range in '"'"'samples'"'"'"'

test_expect_success 'a trace that lost chunks: an error, or with --lenient read as speedscope reads it' '
	{ echo "{\"traceEvents\":[" &&
	  echo "{\"name\":\"Profile\",\"ph\":\"P\",\"pid\":1,\"tid\":1,\"id\":\"0x1\",\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}}," &&
	  printf "%s" "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"pid\":1,\"tid\":1,\"id\":\"0x1\",\"ts\":0,\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[" &&
	  printf "%s" "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"}}," &&
	  printf "%s" "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"main\",\"url\":\"a.js\",\"lineNumber\":0}}," &&
	  printf "%s" "{\"id\":4,\"parent\":3,\"callFrame\":{\"functionName\":\"lost\",\"url\":\"a.js\",\"lineNumber\":9}}]," &&
	  echo "\"samples\":[2,9,4,2]},\"timeDeltas\":[10,20,30,40]}}}," &&
	  echo "{\"name\":\"Profile\",\"ph\":\"P\",\"pid\":1,\"tid\":2,\"id\":\"0x2\",\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}}]}"; } >lost.json &&
	test_expect_code 1 "$PROFTOOL" top lost.json &&
	test_one_line_err "proftool: lost.json: byte 357: profile pid 1 id '"'"'0x1'"'"': unknown parent node id 3 of node 4 (--lenient reads past lost nodes)" &&
	"$PROFTOOL" convert --lenient --to collapsed --sample-index wall lost.json >out 2>err &&
	printf "%s\n" "lost 40" "main 50" >expect &&
	test_cmp expect out &&
	test_one_line_err "proftool: lost.json: byte 357: warning: 2 references to nodes the input lacks (the first here): such nodes hang from the root, such samples are left out"'

test_expect_success 'an error --lenient reads past says so; one it does not, does not' '
	for f in cpuprofile-unknown-parent.cpuprofile cpuprofile-unknown-sample.cpuprofile \
		trace-unknown-sample.json; do
		grep -q " (--lenient reads past lost nodes)\$" "$SRCDIR/tests/malformed/$f.err" &&
		"$PROFTOOL" top --lenient "$SRCDIR/tests/malformed/$f" >out 2>err &&
		grep -q "^Total: " out || exit 1
	done &&
	! grep -q lenient "$SRCDIR/tests/malformed/cpuprofile-unknown-child.cpuprofile.err" &&
	test_expect_code 1 "$PROFTOOL" top --lenient "$SRCDIR/tests/malformed/cpuprofile-unknown-child.cpuprofile"'

test_expect_success 'a trace profile whose chunks were all lost: the error names --lenient, which leaves it out' '
	{ printf "%s" "{\"traceEvents\":[{\"name\":\"Profile\",\"ph\":\"P\",\"pid\":1,\"tid\":1,\"id\":\"0x1\",\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}}," &&
	  printf "%s" "{\"name\":\"Profile\",\"ph\":\"P\",\"pid\":1,\"tid\":2,\"id\":\"0x2\",\"ts\":0,\"args\":{\"data\":{\"startTime\":0}}}," &&
	  printf "%s" "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"pid\":1,\"tid\":2,\"id\":\"0x2\",\"ts\":0,\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[" &&
	  printf "%s" "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"}},{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"main\",\"url\":\"a.js\"}}]," &&
	  echo "\"samples\":[2,2]},\"timeDeltas\":[10,20]}}}]}"; } >nonodes.json &&
	test_expect_code 1 "$PROFTOOL" top nonodes.json &&
	test_one_line_err "proftool: nonodes.json: byte $(($(wc -c <nonodes.json))): profile pid 1 id '"'"'0x1'"'"': the profile has no nodes (--lenient reads past lost nodes)" &&
	"$PROFTOOL" convert --lenient --sample-index samples --to collapsed nonodes.json >out &&
	echo "main 2" >expect && test_cmp expect out'

test_done
