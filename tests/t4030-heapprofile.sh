#!/bin/sh
test_description='V8 sampling heap profiles (.heapprofile): detection, space and objects'
. "$(dirname "$0")/lib.sh"

H=$SAMPLES/node/small.heapprofile

if ! command -v jq >/dev/null || ! command -v node >/dev/null; then
	test_skip 'heapprofile tests' 'jq or node is not installed'
	test_done
	exit
fi

# our top rows in heapprofile-totals.js's layout: NAME LOCATION SELF TOTAL
totals () {
	"$PROFTOOL" top --format json -n 0 "$@" >top.json &&
	jq -r '"# total \(.total)"' top.json &&
	jq -r '.rows[] | [.name, (if .line > 0 then .file + ":" + (.line | tostring) else "-" end),
		.flat, .cum] | @tsv' top.json | LC_ALL=C sort
}

test_expect_success 'node --heap-prof output is detected as heapprofile, not cpuprofile' '
	"$PROFTOOL" info "$H" >out &&
	grep -qx "Format: heapprofile" out'

test_expect_success 'sample types: space in bytes (default), objects as a count' '
	"$PROFTOOL" info "$H" >out &&
	grep -q "0: space \[bytes\] .*(default)" out &&
	grep -q "1: objects \[count\]" out'

for t in space objects; do
	test_expect_success "per-function self and total $t match an independent count" '
		totals --sample-index '$t' "$H" >actual &&
		node "$SRCDIR/tests/heapprofile-totals.js" "$H" '$t' >raw &&
		{ head -n 1 raw && tail -n +2 raw | awk -F"\t" "\$4 != 0" | LC_ALL=C sort; } >expect &&
		test_cmp expect actual'
done

test_expect_success 'samples naming a node missing from head are counted, not kept' '
	jq "[.head | .. | objects | select(has(\"id\")) | .id] as \$ids |
		[.samples[] | select(.nodeId as \$n | \$ids | index(\$n) | not)] | length" \
		"$H" >n &&
	"$PROFTOOL" info "$H" >out &&
	if test "$(cat n)" = 0; then ! grep -q samples_without_node out
	else grep -qx "Meta samples_without_node: $(cat n)" out; fi'

test_expect_success 'a heap profile converts to collapsed stacks with the same total' '
	"$PROFTOOL" convert --to collapsed -o out.txt "$H" &&
	awk "{ s += \$NF } END { print s }" out.txt >sum &&
	jq "[.head | .. | objects | .selfSize? // empty] | add" "$H" >expect &&
	test_cmp expect sum'

test_expect_success 'a heap profile with samples first is still detected' '
	jq -c "{samples: .samples, head: .head}" "$H" >swapped.json &&
	"$PROFTOOL" info swapped.json >out &&
	grep -qx "Format: heapprofile" out'

test_expect_success 'no samples key: space only' '
	jq -c "{head: .head}" "$H" >nosamples.json &&
	"$PROFTOOL" info nosamples.json >out &&
	grep -q "0: space" out && ! grep -q objects out'

test_expect_success 'stacks deeper than the nesting limit are refused with a located error' '
	awk "BEGIN { printf \"{\\\"head\\\":\"
		for (i = 1; i <= 26000; i++)
			printf \"{\\\"callFrame\\\":{},\\\"selfSize\\\":1,\\\"id\\\":%d,\\\"children\\\":[\", i
	}" >deep.heapprofile &&
	test_expect_code 1 "$PROFTOOL" top deep.heapprofile >out 2>err &&
	grep -Eq "^proftool: deep.heapprofile: byte [0-9]+: JSON nested deeper than 50000 levels$" err &&
	test "$(wc -l <err)" = 1'

test_expect_success 'a deep but allowed stack reads (no recursion)' '
	awk "BEGIN { printf \"{\\\"head\\\":\"
		for (i = 1; i <= 20000; i++)
			printf \"{\\\"callFrame\\\":{\\\"functionName\\\":\\\"f%d\\\"},\\\"selfSize\\\":1,\\\"id\\\":%d,\\\"children\\\":[\", i % 7, i
		for (i = 1; i <= 20000; i++) printf \"]}\"
		printf \"}\"
	}" >deep2.heapprofile &&
	"$PROFTOOL" top --format json deep2.heapprofile >out.json &&
	test "$(jq .total out.json)" = 20000'

test_done
