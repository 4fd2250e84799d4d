#!/bin/sh
test_description='analysis options: help, granularity, label filters from the command line'
. "$(dirname "$0")/lib.sh"

C=$SAMPLES/collapsed
D=$SRCDIR/tests/data
G=$C/perfdemo-g.collapsed

test_expect_success '--help lists the new commands' '
	"$PROFTOOL" --help >out &&
	grep -q "^  diff " out && grep -q "^  merge " out && grep -q "^  tree " out'

for cmd in diff merge tree; do
	test_expect_success "$cmd --help prints its usage; help $cmd is the same" '
		"$PROFTOOL" $cmd --help >a && "$PROFTOOL" help $cmd >b && test_cmp a b &&
		grep -q "^usage: proftool $cmd " a &&
		help_with_shared $cmd | grep -q -- "--focus RE"'
done

for opt in focus ignore hide show show-from prune-from match-file tag thread process \
	time-from time-to collapse-recursion node-fraction; do
	test_expect_success "every reading command takes --$opt, listed once in help filters" '
		"$PROFTOOL" help filters | grep -q -- "^      --$opt" &&
		for cmd in top info convert tree diff merge; do
			help_with_shared $cmd | grep -q -- "^      --$opt" ||
				{ echo "$cmd lacks --$opt"; return 1; }
		done'
done

test_expect_success 'top and convert list --granularity' '
	"$PROFTOOL" top --help | grep -q -- "--granularity functions|files|lines|addresses" &&
	"$PROFTOOL" convert --help | grep -q -- "--granularity functions|files|lines|addresses"'

test_expect_success 'top --granularity functions is the default' '
	"$PROFTOOL" top -n 0 --format csv "$G" >a &&
	"$PROFTOOL" top -n 0 --format csv --granularity functions "$G" >b && test_cmp a b'

test_expect_success 'top --granularity files: no file names give one row of the total' '
	"$PROFTOOL" top -n 0 --format csv --granularity files "$G" >out &&
	test "$(sed 1d out | wc -l)" = 1 &&
	test "$(sed 1d out | cut -d, -f4)" = "$(awk "{ s += \$NF } END { print s }" "$G")"'

test_expect_success 'top --granularity lines: one row per function and line (none here)' '
	"$PROFTOOL" top -n 0 --format csv --granularity lines "$G" | cut -d, -f1,4,6 >a &&
	"$PROFTOOL" top -n 0 --format csv "$G" | cut -d, -f1,4,6 >b && test_cmp b a'

test_expect_success 'convert --granularity functions keeps collapsed stacks as they are' '
	"$PROFTOOL" convert --to collapsed "$G" >a &&
	"$PROFTOOL" convert --to collapsed --granularity functions "$G" >b && test_cmp a b'

test_expect_success 'convert --granularity files merges frames by file (awk)' '
	awk "{ c = \$NF; sub(/ [0-9]+\$/, \"\"); n = split(\$0, f, \";\"); s = \"<unknown>\";
		for (i = 2; i <= n; i++) s = s \";<unknown>\"; t[s] += c }
		END { for (k in t) print k, t[k] }" "$G" | LC_ALL=C sort >expect &&
	"$PROFTOOL" convert --to collapsed --granularity files "$G" >actual &&
	test_cmp expect actual'

test_expect_success 'a bad granularity is a usage error' '
	test_expect_code 2 "$PROFTOOL" top --granularity words "$G" &&
	test_expect_code 2 "$PROFTOOL" convert --to collapsed --granularity words "$G"'

test_expect_success '--tag, --thread and --process keep nothing of a profile without labels' '
	for f in "--tag pid=1" "--thread 1" "--thread main" "--process 1"; do
		"$PROFTOOL" top --format json $f "$D/recursion.collapsed" >out &&
		grep -q "\"total\":0," out || { echo "$f"; cat out; return 1; }
	done'

test_expect_success 'a label filter is listed with what it removed' '
	"$PROFTOOL" info --tag comm=x --tag comm=y --process 3 "$D/recursion.collapsed" >out &&
	grep -q "^Filter: labels comm=x|comm=y pid=3 removed 27 of 27 (100.00%)\$" out'

test_expect_success 'bad --process, --thread and --node-fraction values are usage errors' '
	test_expect_code 2 "$PROFTOOL" top --process "" "$G" &&
	test_expect_code 2 "$PROFTOOL" top --thread "" "$G" &&
	test_expect_code 2 "$PROFTOOL" top --node-fraction 2 "$G" &&
	test_expect_code 2 "$PROFTOOL" top --node-fraction x "$G"'

test_done
