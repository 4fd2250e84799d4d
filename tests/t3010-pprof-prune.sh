#!/bin/sh
test_description='pprof drop_frames and keep_frames are applied when the profile is read, as pprof applies them'
. "$(dirname "$0")/lib.sh"

# pprof profile: samples leaf first over leaf, mid, main (an inline location 4 = leaf in
# mid); drop_frames = string $1, keep_frames = string $2 (both may be empty)
pprof_with () {
	hexbytes "0a 04 08 01 10 02
		12 08 0a 03 01 02 03 12 01 01
		12 07 0a 02 02 03 12 01 01
		12 07 0a 02 04 03 12 01 01
		12 07 0a 02 01 03 12 01 01
		22 06 08 01 22 02 08 01
		22 06 08 02 22 02 08 02
		22 06 08 03 22 02 08 03
		22 0a 08 04 22 02 08 01 22 02 08 02
		2a 04 08 01 10 03
		2a 04 08 02 10 04
		2a 04 08 03 10 05
		32 00 $(strfield samples) $(strfield count) $(strfield leaf) $(strfield mid)
		$(strfield main) $(strfield "$1") $(strfield "$2") 38 06 40 07"
}

test_expect_success 'without drop_frames every stack is as recorded' '
	pprof_with "" "" >in.pb &&
	"$PROFTOOL" convert --to collapsed in.pb >out &&
	printf "%s\n" "main;leaf 1" "main;mid 1" "main;mid;leaf 2" >expect &&
	test_cmp expect out'

# the expected stacks are what go tool pprof -traces prints for the same files
test_expect_success 'drop_frames: a matched frame goes with everything beneath it' '
	pprof_with mid "" >in.pb &&
	"$PROFTOOL" convert --to collapsed in.pb >out &&
	printf "%s\n" "main 3" "main;leaf 1" >expect &&
	test_cmp expect out'

test_expect_success 'drop_frames: an inlined line matched cuts the location to its callers' '
	pprof_with leaf "" >in.pb &&
	"$PROFTOOL" convert --to collapsed in.pb >out &&
	printf "%s\n" "main 1" "main;mid 3" >expect &&
	test_cmp expect out'

test_expect_success 'keep_frames spares what it matches from drop_frames (whole names)' '
	pprof_with "leaf|mid" "mid" >in.pb &&
	"$PROFTOOL" convert --to collapsed in.pb >out &&
	printf "%s\n" "main 1" "main;mid 3" >expect &&
	test_cmp expect out &&
	pprof_with "mi" "" >in.pb &&
	"$PROFTOOL" convert --to collapsed in.pb >out &&
	printf "%s\n" "main;leaf 1" "main;mid 1" "main;mid;leaf 2" >expect &&
	test_cmp expect out'

test_expect_success 'top reads the pruned profile too' '
	pprof_with mid "" >in.pb &&
	"$PROFTOOL" top --format csv in.pb >out &&
	! grep -q "^\"mid\"" out && grep -q "^\"main\",\"\",0,3," out'

test_expect_success 'a drop_frames that is no regular expression is an error' '
	pprof_with "m(" "" >in.pb &&
	test_expect_code 1 "$PROFTOOL" top in.pb &&
	test_one_line_err "proftool: in.pb: byte 0: drop_frames is not a regular expression we can read"'

test_done
