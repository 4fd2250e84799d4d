#!/bin/sh
test_description='pprof samples in every wire form protobuf allows: unpacked and split packed numbers, repeated scalars, unknown fields'
. "$(dirname "$0")/lib.sh"

# The reader decodes each Sample message by hand (formats/pprof.c, decode_sample). Two
# encodings of one profile, written here byte by byte: "plain" as Go writes it (packed
# numbers), "odd" with every other form the wire format allows for the same content.

# strings: 1 samples, 2 count, 3 leaf, 4 mid, 5 main, 6 host, 7 a, 8 b; functions 1..3
# name leaf, mid, main; locations 1..3 call them
head_fields="0a 04 08 01 10 02"
tail_fields="22 06 08 01 22 02 08 01
	22 06 08 02 22 02 08 02
	22 06 08 03 22 02 08 03
	2a 04 08 01 10 03
	2a 04 08 02 10 04
	2a 04 08 03 10 05
	32 00 $(strfield samples) $(strfield count) $(strfield leaf) $(strfield mid)
	$(strfield main) $(strfield host) $(strfield a) $(strfield b)"
# leaf;mid;main 5 {host=a}, mid;main 300 {host=b}, leaf;main 2
plain="12 0e 0a 03 01 02 03 12 01 05 1a 04 08 06 10 07
	12 0e 0a 02 02 03 12 02 ac 02 1a 04 08 06 10 08
	12 07 0a 02 01 03 12 01 02"
# the same samples: a location id unpacked then the rest packed, the value unpacked,
# unknown fields of wire types 0, 1, 5 and 2, a label whose key comes twice (the last
# counts) with an unknown field; ids one at a time, unpacked; ids in two packed runs
odd="12 26 08 01 0a 02 02 03 10 05 48 2a 51 01 02 03 04 05 06 07 08 5d 01 02 03 04
		62 02 ff ff 1a 08 08 07 08 06 10 07 28 01
	12 0d 08 02 08 03 10 ac 02 1a 04 08 06 10 08
	12 09 0a 01 01 0a 01 03 12 01 02"

make_both () {
	hexbytes "$head_fields $plain $tail_fields" >plain.pb &&
	hexbytes "$head_fields $odd $tail_fields" >odd.pb
}

test_expect_success 'the odd encoding reads as the plain one: stacks, values, labels' '
	make_both &&
	"$PROFTOOL" convert --to collapsed plain.pb | sort >plain.txt &&
	"$PROFTOOL" convert --to collapsed odd.pb | sort >odd.txt &&
	printf "%s\n" "main;leaf 2" "main;mid 300" "main;mid;leaf 5" >expect &&
	test_cmp expect plain.txt &&
	test_cmp expect odd.txt &&
	"$PROFTOOL" traces plain.pb >plain.traces &&
	"$PROFTOOL" traces odd.pb >odd.traces &&
	test_cmp plain.traces odd.traces &&
	"$PROFTOOL" convert --to collapsed --tag host=a odd.pb >a.txt &&
	echo "main;mid;leaf 5" >expect.a &&
	test_cmp expect.a a.txt
'

# the sample field starts at byte 6, after the sample type
test_expect_success 'a sample with fewer values than sample types is still an error' '
	hexbytes "$head_fields 12 04 0a 02 01 03 $tail_fields" >short.pb &&
	test_expect_code 1 "$PROFTOOL" top short.pb &&
	test_one_line_err "proftool: short.pb: byte 6: sample has 0 values, the profile has 1 sample types"
'

if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
	plain_build_judges "go tool pprof reads the odd encoding"
	test_expect_success 'go tool pprof -traces of the odd encoding equals ours' '
		make_both &&
		go tool pprof -traces odd.pb >go.traces 2>/dev/null &&
		"$PROFTOOL" traces odd.pb >ours.traces &&
		test_cmp go.traces ours.traces
	'
else
	test_skip "go tool pprof -traces of the odd encoding" "go is not installed"
fi

test_done
