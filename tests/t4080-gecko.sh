#!/bin/sh
test_description='Firefox/Gecko profiles: raw Gecko from firefox-esr, the processed format, threads, weights, thread states'
. "$(dirname "$0")/lib.sh"

G=$SAMPLES/gecko/firefox-esr-fib.json.gz
D=$SRCDIR/tests/data/gecko

# our top rows in gecko-totals.js's layout: NAME LOCATION SELF TOTAL
totals () {
	"$PROFTOOL" top --format json -n 0 "$@" >top.json &&
	jq -r '"# total \(.total)"' top.json &&
	jq -r '.rows[] | [.name, (if .line > 0 then .file + ":" + (.line | tostring) else "-" end),
		.flat, .cum] | @tsv' top.json | LC_ALL=C sort
}

test_expect_success 'firefox-esr output is detected as gecko' '
	"$PROFTOOL" info "$G" >out &&
	grep -qx "Format: gecko" out &&
	grep -q "0: samples \[count\]" out'

for f in vernier-v48.json shared-v66.json bytes-v56.json; do
	test_expect_success "processed format: $f is detected as gecko" '
		"$PROFTOOL" info "$D/'$f'" >out && grep -qx "Format: gecko" out'
done

test_expect_success 'no other sample is taken for a Gecko profile' '
	find "$SAMPLES" -type f ! -path "$SAMPLES/gecko/*" ! -path "$SAMPLES/*/src/*" ! -name "*.sh" \
		! -name README ! -name "*.md" | sort >files &&
	while read -r f; do
		"$PROFTOOL" info "$f" >out 2>/dev/null || continue
		if grep -qx "Format: gecko" out; then echo "claimed: $f"; exit 1; fi
	done <files'

if command -v jq >/dev/null && command -v node >/dev/null; then
	test_expect_success 'raw Gecko: per-function self and total match an independent count' '
		totals "$G" >actual &&
		node "$SRCDIR/tests/gecko-totals.js" "$G" >expect &&
		test_cmp expect actual'

	test_expect_success 'raw Gecko: the subprocesses are threads of their own' '
		totals --thread GeckoMain "$G" >all &&
		totals "$G" >every && test_cmp every all &&
		zcat "$G" | jq -r "[.threads[], (.processes[] | if type == \"string\" then fromjson else . end | .threads[])] |
			map(.tid) | .[]" | sort -n >tids &&
		test "$(wc -l <tids)" -gt 1 &&
		t=$(head -n 1 tids) &&
		totals --thread "$t" "$G" >one &&
		! test_cmp every one >/dev/null'

	# rows of every shape: spaces and newlines, nulls, exponents, a number past 15
	# digits, a row longer than the fast reader takes, a string cell (the rest of that
	# table through yajl), two threads (two samples tables in the second pass)
	test_expect_success 'raw Gecko rows of every shape match an independent count' '
		totals "$D/raw-rows.json" >actual &&
		node "$SRCDIR/tests/gecko-totals.js" "$D/raw-rows.json" >expect &&
		test_cmp expect actual &&
		totals --thread Worker "$D/raw-rows.json" >actual &&
		node "$SRCDIR/tests/gecko-totals.js" "$D/raw-rows.json" Worker >expect &&
		test_cmp expect actual &&
		totals --time-from 0 "$D/raw-rows.json" >actual &&
		node "$SRCDIR/tests/gecko-totals.js" "$D/raw-rows.json" >expect &&
		test_cmp expect actual'

	for f in vernier-v48.json shared-v66.json bytes-v56.json; do
		test_expect_success "processed format: $f matches an independent count" '
			totals "$D/'$f'" >actual &&
			node "$SRCDIR/tests/gecko-totals.js" "$D/'$f'" >expect &&
			test_cmp expect actual'
	done

	test_expect_success 'a thread by name: only its samples' '
		totals --thread worker "$D/vernier-v48.json" >actual &&
		node "$SRCDIR/tests/gecko-totals.js" "$D/vernier-v48.json" worker >expect &&
		test_cmp expect actual'
else
	test_skip 'independent counts' 'jq or node is not installed'
fi

test_expect_success 'weight types become sample types with units' '
	"$PROFTOOL" info "$D/shared-v66.json" >out &&
	grep -q "0: time \[nanoseconds\] total 6000000" out &&
	"$PROFTOOL" info "$D/bytes-v56.json" >out &&
	grep -q "0: bytes \[bytes\] total 1072" out &&
	"$PROFTOOL" info "$D/vernier-v48.json" >out &&
	grep -q "0: samples \[count\] total 10" out'

test_expect_success 'vernier thread states are labels: --tag state=suspended' '
	"$PROFTOOL" top --format csv -n 0 --tag state=suspended "$D/vernier-v48.json" >out &&
	cat >expect <<-\EOF &&
	name,file,line,flat,flat_pct,cum,cum_pct
	"Kernel#sleep","<cfunc>",0,1,33.3333,1,33.3333
	"Object#fib","app.rb",10,1,33.3333,1,33.3333
	"Object#run","app.rb",4,1,33.3333,3,100.0000
	"<main>","app.rb",1,0,0.0000,3,100.0000
	EOF
	test_cmp expect out'

test_expect_success 'a GC pause is a label: --tag gc=pause' '
	"$PROFTOOL" top --format csv -n 0 --tag gc=pause "$D/vernier-v48.json" >out &&
	grep -q "^\"Object#fib\",\"app.rb\",10,2," out &&
	test "$(wc -l <out)" = 4'

# the first sample is at 1 ms: from 2.5 ms after it, main has its samples at 4, 5 and 7 ms
test_expect_success 'the timeline keeps the sample times: --time-from' '
	"$PROFTOOL" top --format csv -n 0 --thread main --time-from 0.0025 "$D/vernier-v48.json" >out &&
	grep -q "^\"<main>\",\"app.rb\",1,0,0.0000,3," out &&
	"$PROFTOOL" top --format csv -n 0 --thread main "$D/vernier-v48.json" >all &&
	grep -q "^\"<main>\",\"app.rb\",1,0,0.0000,7," all'

test_expect_success 'raw Gecko subprocess profiles as JSON strings are read' '
	zcat "$G" | jq -c ".processes |= map(tojson)" >strings.json &&
	"$PROFTOOL" top --format csv -n 0 strings.json >a &&
	"$PROFTOOL" top --format csv -n 0 "$G" >b &&
	test_cmp a b'

test_expect_success 'the DevTools panel wrapper {"profile": ...} is read' '
	zcat "$G" | jq -c "{label: \"x\", duration: 1, profile: .}" >wrapped.json &&
	"$PROFTOOL" info wrapped.json >out && grep -qx "Format: gecko" out &&
	"$PROFTOOL" top --format csv -n 0 wrapped.json >a &&
	"$PROFTOOL" top --format csv -n 0 "$G" >b &&
	test_cmp a b'

test_expect_success 'convert to collapsed keeps the total' '
	"$PROFTOOL" convert --to collapsed "$D/shared-v66.json" >out &&
	awk "{ s += \$NF } END { print s }" out >sum &&
	echo 6000000 >expect && test_cmp expect sum'

# a file is read twice (samples added in the second pass, as they are read), a pipe once
# (samples held to the end): the two give one profile, thread states and all
test_expect_success 'samples read in a second pass give what one pass gives' '
	for f in "$G" "$D/vernier-v48.json" "$D/shared-v66.json" "$D/bytes-v56.json"; do
		for c in "top --format csv -n 0" "convert --to collapsed" "tags"; do
			"$PROFTOOL" $c "$f" >twice &&
			zcat -f "$f" | "$PROFTOOL" $c - >once &&
			test_cmp once twice || { echo "$c $f"; exit 1; }
		done
	done &&
	"$PROFTOOL" top --format csv -n 0 --tag state=running "$D/vernier-v48.json" >twice &&
	"$PROFTOOL" top --format csv -n 0 --tag state=running - <"$D/vernier-v48.json" >also &&
	cat "$D/vernier-v48.json" | "$PROFTOOL" top --format csv -n 0 --tag state=running - >once &&
	test_cmp once twice && test_cmp once also && test -s once'

test_done
