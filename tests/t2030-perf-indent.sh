#!/bin/sh
test_description='perf script callchains indented as FlameGraph and inferno accept them'
. "$(dirname "$0")/lib.sh"

# one record in each form: a tab, spaces, no indentation at all
record () {
	printf 'prog 123 1.00%s: 1 cycles:\n%s7f00 foo+0x1 (/lib/x.so)\n%s7f02 main+0x5 (/bin/prog)\n\n' \
		"$1" "$2" "$2"
}

test_expect_success 'callchain lines indented with spaces, or not indented, are frames' '
	{ record 0 "	"; record 1 "    "; record 2 ""; } >in.txt &&
	"$PROFTOOL" convert --to collapsed in.txt >out &&
	echo "prog;main;foo 3" >expect &&
	test_cmp expect out'

test_expect_success 'a header whose comm perf padded with spaces is still a header' '
	printf "            prog 123 1.000: 1 cycles:\n\t7f00 foo+0x1 (/lib/x.so)\n" >in.txt &&
	printf "           other 124 1.001: 1 cycles:\n\t7f02 main+0x5 (/bin/prog)\n" >>in.txt &&
	"$PROFTOOL" convert --to collapsed in.txt >out &&
	printf "%s\n" "other;main 1" "prog;foo 1" >expect &&
	test_cmp expect out'

test_expect_success 'outside a record an unindented frame line is still an error' '
	printf "7f00 foo+0x1 (/lib/x.so)\n" >in.txt &&
	test_expect_code 1 "$PROFTOOL" convert --from perf --to collapsed in.txt &&
	test_one_line_err "proftool: in.txt:1: expected a sample header ('\''comm pid/tid time: period event:'\'') or a callchain line"'

test_done
