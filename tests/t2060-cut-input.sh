#!/bin/sh
test_description='a text input cut inside its last record: read, with one warning line saying where'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/perf/perfdemo-g.txt

# the records of perfdemo-g.txt that end before byte $1, as whole text
whole_records () {
	head -c "$1" "$G" | awk -v RS= -v ORS="\n\n" "NR > 1 { print prev } { prev = \$0 }"
}

test_expect_success 'perf script cut inside a callchain line: that record is left out, one warning' '
	head -c 2000 "$G" >in.txt &&
	tail -c 12 in.txt | grep -q "recurse+0x$" &&
	"$PROFTOOL" convert --to collapsed in.txt >out 2>err &&
	test_one_line_err "proftool: in.txt:35: warning: the input ends inside this line; its last record (from line 29) is incomplete and left out" &&
	whole_records 2000 >whole.txt &&
	"$PROFTOOL" convert --to collapsed whole.txt >expect 2>experr &&
	test ! -s experr && test_cmp expect out'

test_expect_success 'perf script cut inside a header line: the records before it are read, one warning' '
	n=$(grep -b -m 3 "^perfdemo" "$G" | tail -1 | cut -d: -f1) &&
	head -c $((n + 20)) "$G" >in.txt &&
	line=$(wc -l <in.txt) && line=$((line + 1)) &&
	"$PROFTOOL" convert --to collapsed in.txt >out 2>err &&
	test_one_line_err "proftool: in.txt:$line: warning: the input ends inside this line; its last record is incomplete and left out" &&
	head -c $n "$G" >whole.txt &&
	"$PROFTOOL" convert --to collapsed whole.txt >expect 2>experr &&
	test ! -s experr && test -s expect && test_cmp expect out'

test_expect_success 'a record cut short is the only one: nothing is printed, one warning, exit 0' '
	head -c 300 "$G" >in.txt &&
	"$PROFTOOL" convert --to collapsed in.txt >out 2>err &&
	test ! -s out && test "$(wc -l <err)" = 1 && grep -q "warning: the input ends inside this line" err'

test_expect_success 'perf script without -g cut inside its last line: one warning' '
	head -c -9 "$SAMPLES/perf/perfdemo-nog.txt" >in.txt &&
	"$PROFTOOL" convert --to collapsed in.txt >out 2>err &&
	test "$(wc -l <err)" = 1 && grep -q "warning: the input ends inside this line" err &&
	test -s out'

test_expect_success 'a complete perf file without its final newline: no warning, every record' '
	head -c -2 "$G" >in.txt &&
	"$PROFTOOL" convert --to collapsed in.txt >out 2>err &&
	test ! -s err &&
	"$PROFTOOL" convert --to collapsed "$G" >expect &&
	test_cmp expect out'

test_expect_success 'perf script cut at any byte: never an error, at most one stderr line' '
	size=$(wc -c <"$G") && n=1 &&
	while test $n -lt $size; do
		head -c $n "$G" >in.txt &&
		"$PROFTOOL" convert --from perf --to collapsed in.txt >out 2>err ||
			{ echo "cut at $n:"; cat err; return 1; }
		test "$(wc -l <err)" -le 1 || { echo "cut at $n:"; cat err; return 1; }
		n=$((n + 61 * VALGRIND_STEP))
	done'

test_expect_success 'collapsed text cut inside its last line: the line is left out, one warning' '
	printf "a;b 1\na;b;c" >in.collapsed &&
	"$PROFTOOL" convert --to collapsed in.collapsed >out 2>err &&
	test_one_line_err "proftool: in.collapsed:2: warning: the input ends inside this line; its last record is incomplete and left out" &&
	echo "a;b 1" >expect && test_cmp expect out'

test_expect_success 'a complete collapsed file without its final newline: no warning' '
	printf "a;b 1\na;b;c 3" >in.collapsed &&
	"$PROFTOOL" convert --to collapsed in.collapsed >out 2>err &&
	test ! -s err && printf "a;b 1\na;b;c 3\n" >expect && test_cmp expect out'

test_expect_success 'an invalid last line that ends with a newline is still an error' '
	printf "a;b 1\na;b;c\n" >in.collapsed &&
	test_expect_code 1 "$PROFTOOL" convert --to collapsed in.collapsed &&
	test_one_line_err "proftool: in.collapsed:2: expected '\''frame;frame;... COUNT'\''"'

test_expect_success 'an empty input read as perf prints nothing, exit 0 (as stackcollapse-perf.pl)' '
	: >empty.txt &&
	"$PROFTOOL" convert --from perf --to collapsed empty.txt >out 2>err &&
	test ! -s out && test ! -s err &&
	"$PROFTOOL" top --from perf empty.txt >out 2>err &&
	test_one_line_err "proftool: empty.txt: the profile has no samples"'

test_expect_success 'an empty input not said to be perf is still an error (nothing to detect)' '
	: >empty.txt &&
	test_expect_code 1 "$PROFTOOL" convert --to collapsed empty.txt &&
	test_one_line_err "proftool: empty.txt: byte 0: empty input"'

test_done
