#!/bin/sh
test_description='names are bytes: invalid UTF-8 is read, kept where an output allows bytes, U+FFFD where it needs UTF-8'
. "$(dirname "$0")/lib.sh"

# f, two invalid bytes (0xff starts nothing; 0xc3 starts a sequence that "o" breaks), o,
# then a valid e-acute (0xc3 0xa9)
NAME='f\377\303o\303\251'
FIXED='f\357\277\275\357\277\275o\303\251'

perf_input () {
	printf "prog 1 1.0: 1 cycles:\n\t10 $NAME+0x1 (/lib/l\376.so)\n\t20 main (/bin/p)\n\n"
}

# the output holds the name as the printf format $1 spells it
has_name () {
	printf "$1" >want && grep -F -q -f want "$2"
}

valid_utf8 () {
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null
}

test_expect_success 'perf script with invalid UTF-8 in a symbol and a dso is read' '
	perf_input >in.txt &&
	"$PROFTOOL" convert --to collapsed in.txt >out &&
	printf "prog;main;$NAME 1\n" >expect &&
	cmp expect out'

test_expect_success 'the perf sample made by hand with a Latin-1 name reads (not rejected)' '
	"$PROFTOOL" convert --to collapsed "$SRCDIR/tests/data/perf-bad-utf8.txt" >out &&
	test -s out'

test_expect_success 'text reports keep the bytes (top, traces, tree)' '
	perf_input >in.txt &&
	"$PROFTOOL" top in.txt >top.out && has_name "$NAME" top.out &&
	"$PROFTOOL" traces in.txt >traces.out && has_name "$NAME" traces.out &&
	"$PROFTOOL" tree in.txt >tree.out && has_name "$NAME" tree.out'

test_expect_success 'collapsed text keeps the bytes both ways' '
	printf "a;$NAME 3\n" >in.collapsed &&
	"$PROFTOOL" convert --to collapsed in.collapsed >out &&
	cmp in.collapsed out'

test_expect_success 'cpuprofile output (JSON written by hand) escapes each invalid byte as \ufffd' '
	perf_input >in.txt &&
	"$PROFTOOL" convert --to cpuprofile -o out in.txt &&
	valid_utf8 out && has_name "f\\\\ufffd\\\\ufffdo\303\251" out'

for fmt in speedscope svg; do
	test_expect_success "$fmt output is valid UTF-8, each invalid byte one U+FFFD" '
		perf_input >in.txt &&
		"$PROFTOOL" convert --to '$fmt' -o out in.txt &&
		valid_utf8 out && has_name "$FIXED" out'
done

for cmd in top tree; do
	test_expect_success "$cmd --format json is valid UTF-8, each invalid byte one U+FFFD" '
		perf_input >in.txt &&
		"$PROFTOOL" '$cmd' --format json in.txt >out &&
		valid_utf8 out && has_name "$FIXED" out'
done

test_expect_success 'diff --format json is valid UTF-8, each invalid byte one U+FFFD' '
	perf_input >a.txt && perf_input >b.txt &&
	"$PROFTOOL" diff --format json a.txt b.txt >out &&
	valid_utf8 out && has_name "$FIXED" out'

test_expect_success 'a .cpuprofile with invalid UTF-8 in a name is read; its bytes are kept' '
	printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1,\"scriptId\":\"0\"},\"children\":[2]},{\"id\":2,\"callFrame\":{\"functionName\":\"$NAME\",\"url\":\"a.js\",\"lineNumber\":1,\"columnNumber\":1,\"scriptId\":\"1\"}}],\"startTime\":0,\"endTime\":10,\"samples\":[2,2],\"timeDeltas\":[1,1]}" >in.cpuprofile &&
	"$PROFTOOL" convert --sample-index samples --to collapsed in.cpuprofile >out &&
	printf "$NAME 2\n" >expect &&
	cmp expect out'

test_expect_success 'a stackprof JSON dump with invalid UTF-8 in a name is read; top keeps the bytes' '
	printf "{\"version\":1.2,\"mode\":\"cpu\",\"interval\":1000,\"samples\":2,\"frames\":{\"1\":{\"name\":\"$NAME\",\"file\":\"a.rb\",\"line\":1,\"total_samples\":2,\"samples\":2}}}" >in.json &&
	"$PROFTOOL" top --from stackprof-json in.json >out &&
	has_name "$NAME" out'

test_done
