#!/bin/sh
test_description='malformed stackprof dumps: one line naming the byte offset, exit 1'
. "$(dirname "$0")/lib.sh"

S=$SAMPLES/stackprof

# the error line must be exactly one line of the form "proftool: FILE: byte N: ..."
one_offset_line () {
	test "$(wc -l <err)" = 1 || { cat err; return 1; }
	grep -q "^proftool: $1: byte [0-9][0-9]*: " err || { cat err; return 1; }
}

test_expect_success 'Marshal dump truncated at many offsets' '
	size=$(wc -c <"$S/cpu.dump") && n=2 &&
	while test $n -lt $size; do
		head -c $n "$S/cpu.dump" >t.dump &&
		test_expect_code 1 "$PROFTOOL" top t.dump && one_offset_line t.dump &&
		test ! -s out || { echo "at $n"; return 1; }
		n=$((n + 7 * VALGRIND_STEP))
	done'

test_expect_success 'raw Marshal dump truncated inside raw and the timestamps' '
	size=$(wc -c <"$S/deep-raw.dump") && n=3000 &&
	while test $n -lt $size; do
		head -c $n "$S/deep-raw.dump" >t.dump &&
		test_expect_code 1 "$PROFTOOL" top t.dump && one_offset_line t.dump ||
			{ echo "at $n"; return 1; }
		n=$((n + 211 * VALGRIND_STEP))
	done'

test_expect_success 'JSON dump truncated at many offsets' '
	size=$(wc -c <"$S/cpu-raw.json") && n=40 &&
	while test $n -lt $size; do
		head -c $n "$S/cpu-raw.json" >t.json &&
		test_expect_code 1 "$PROFTOOL" top t.json && one_offset_line t.json ||
			{ echo "at $n"; return 1; }
		n=$((n + 997 * VALGRIND_STEP))
	done'

test_expect_success 'wrong magic (forced with --from)' '
	printf "\004\011{\006:\006a0" >m.dump &&
	test_expect_code 1 "$PROFTOOL" top --from stackprof m.dump &&
	test_one_line_err "proftool: m.dump: byte 0: not a Ruby Marshal 4.8 dump (bad magic)"'

test_expect_success 'a huge declared String length' '
	printf "\004\010{\006:\006a\"\004\377\377\377\177abc" >h.dump &&
	test_expect_code 1 "$PROFTOOL" top h.dump &&
	test_one_line_err "proftool: h.dump: byte 7: a String of 2147483647 bytes runs past the end of the dump"'

test_expect_success 'a huge declared Array length' '
	printf "\004\010{\006:\010raw[\004\377\377\377\177i\006" >a.dump &&
	test_expect_code 1 "$PROFTOOL" top a.dump &&
	test_one_line_err "proftool: a.dump: byte 17: unexpected end of the dump"'

test_expect_success 'a huge declared Hash length' '
	printf "\004\010{\004\377\377\377\177" >h.dump &&
	test_expect_code 1 "$PROFTOOL" top h.dump &&
	test_one_line_err "proftool: h.dump: byte 8: unexpected end of the dump"'

test_expect_success 'frames is not a Hash' '
	printf "\004\010{\006:\013framesi\006" >f.dump &&
	test_expect_code 1 "$PROFTOOL" top f.dump &&
	test_one_line_err "proftool: f.dump: byte 12: expected a Hash for '"'"'frames'"'"', found an Integer"'

test_expect_success 'samples is not an Integer' '
	printf "\004\010{\006:\014samples\"\006x" >s.dump &&
	test_expect_code 1 "$PROFTOOL" top s.dump &&
	test_one_line_err "proftool: s.dump: byte 13: expected an Integer for '"'"'samples'"'"', found a String"'

test_expect_success 'a frame is not a Hash' '
	printf "\004\010{\006:\013frames{\006i\006[\000" >f.dump &&
	test_expect_code 1 "$PROFTOOL" top f.dump &&
	test_one_line_err "proftool: f.dump: byte 16: expected a Hash for a frame, found an Array"'

test_expect_success 'the top level is not a Hash' '
	printf "\004\010[\000" >t.dump &&
	test_expect_code 1 "$PROFTOOL" top --from stackprof t.dump &&
	test_one_line_err "proftool: t.dump: byte 2: a stackprof dump is a Hash, not an Array"'

test_expect_success 'an unsupported Marshal type' '
	printf "\004\010{\006:\006ao:\010Foo\000" >o.dump &&
	test_expect_code 1 "$PROFTOOL" top o.dump &&
	test_one_line_err "proftool: o.dump: byte 7: unsupported Marshal type '"'"'o'"'"' (0x6f)"'

test_expect_success 'a bad Float with control bytes: still one line' '
	printf "\004\010{\006:\014versionf\0121.\n2x" >f.dump &&
	test_expect_code 1 "$PROFTOOL" top f.dump &&
	test_one_line_err "proftool: f.dump: byte 13: bad Float '"'"'1.?2x'"'"'"'

test_expect_success 'a String frame id with a newline in an error: one line' '
	printf "\004\010{\007:\013frames{\000:\010raw[\010i\006\"\010a\nbi\006" >r.dump &&
	test_expect_code 1 "$PROFTOOL" top r.dump &&
	test_one_line_err "proftool: r.dump: byte 23: '"'"'raw'"'"' names frame a?b, which '"'"'frames'"'"' lacks"'

test_expect_success 'a link to an object that was never read' '
	printf "\004\010{\006:\006a@\012" >l.dump &&
	test_expect_code 1 "$PROFTOOL" top l.dump &&
	test_one_line_err "proftool: l.dump: byte 7: object link 5 to no object"'

test_expect_success 'data after the dump (one newline is fine, more is not)' '
	cat "$S/cpu.dump" >ok.dump && printf "\n" >>ok.dump &&
	"$PROFTOOL" top ok.dump >/dev/null &&
	printf "\n" >>ok.dump &&
	test_expect_code 1 "$PROFTOOL" top ok.dump && one_offset_line ok.dump'

test_expect_success 'raw names a frame that frames lacks' '
	printf "\004\010{\007:\013frames{\000:\010raw[\010i\006i\011i\006" >r.dump &&
	test_expect_code 1 "$PROFTOOL" top r.dump &&
	test_one_line_err "proftool: r.dump: byte 23: '"'"'raw'"'"' names frame 4, which '"'"'frames'"'"' lacks"'

test_expect_success '100000 nested Arrays in metadata: an error, no crash' '
	{ printf "\004\010{\006:\015metadata"; head -c 100000 /dev/zero | tr "\000" "["; } |
		sed "s/\\[/[\\x06/g" >deep.dump &&
	test_expect_code 1 "$PROFTOOL" top deep.dump && one_offset_line deep.dump'

test_expect_success '100000 nested JSON arrays: an error, no crash' '
	{ printf "{\"version\":1.2,\"mode\":\"cpu\",\"interval\":1,\"metadata\":"
	  head -c 100000 /dev/zero | tr "\000" "["; } >deep.json &&
	test_expect_code 1 "$PROFTOOL" top deep.json && one_offset_line deep.json'

test_expect_success 'JSON: a frame id that is not an id' '
	printf "{\"version\":1.2,\"mode\":\"cpu\",\"frames\":{\"1\":{\"name\":\"a\",\"edges\":{\"2\":[1]}}}}" >e.json &&
	test_expect_code 1 "$PROFTOOL" top e.json && one_offset_line e.json'

test_done
