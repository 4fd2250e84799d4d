#!/bin/sh
test_description='convert --to cpuprofile: valid for DevTools, round trips, from any input'
. "$(dirname "$0")/lib.sh"

N=$SAMPLES/node
ALL="small.cpuprofile small-inlined.cpuprofile lines.cpuprofile large.cpuprofile
small.trace.json small-legacy.cpuprofile small-v8pn.cpuprofile"
# profiles in node's own format, whose sample sequence the checker can compare
NODEFMT="small.cpuprofile small-inlined.cpuprofile lines.cpuprofile large.cpuprofile"

have_node=
command -v node >/dev/null && have_node=1
have_jq=
command -v jq >/dev/null && have_jq=1
CHECK=$SRCDIR/tests/cpuprofile-check.js

for f in $ALL; do
	test_expect_success "$f: round trip gives the same tree and totals" '
		"$PROFTOOL" convert --to cpuprofile -o out.cpuprofile "$N/'"$f"'" &&
		for t in samples wall; do
			"$PROFTOOL" convert --to collapsed --sample-index $t "$N/'"$f"'" >expect &&
			"$PROFTOOL" convert --to collapsed --sample-index $t out.cpuprofile >actual &&
			test_cmp expect actual &&
			"$PROFTOOL" top -n 0 --format json --sample-index $t "$N/'"$f"'" >expect &&
			"$PROFTOOL" top -n 0 --format json --sample-index $t out.cpuprofile >actual &&
			test_cmp expect actual || return 1
		done'
	if test -n "$have_node"; then
		test_expect_success "$f: output passes the independent structure check" '
			"$PROFTOOL" convert --to cpuprofile -o out.cpuprofile "$N/'"$f"'" &&
			node "$CHECK" out.cpuprofile'
		test_expect_success "$f: totals.js counts the output as it counted the input" '
			"$PROFTOOL" convert --to cpuprofile -o out.cpuprofile "$N/'"$f"'" &&
			node "$REF/node/totals.js" out.cpuprofile >actual &&
			grep -v "^# profile" "$REF/node/'"$f"'.totals.txt" >expect &&
			test_cmp expect actual'
	else
		test_skip "$f: independent checks of the output" "node is not installed"
	fi
done

for f in $NODEFMT; do
	if test -n "$have_node"; then
		test_expect_success "$f: samples keep their order, stacks and times" '
			"$PROFTOOL" convert -o out.cpuprofile "$N/'"$f"'" &&
			node "$CHECK" out.cpuprofile "$N/'"$f"'"'
	else
		test_skip "$f: sample order" "node is not installed"
	fi
done

if test -n "$have_jq"; then
	# per (function, url, line): positionTicks of the input against those we write
	ticks='[.nodes[] | .callFrame as $c | (.positionTicks // [])[] |
		{k: [$c.functionName, $c.url, $c.lineNumber, .line], t: .ticks}] |
		group_by(.k) | map(.k + [(map(.t) | add)] | @tsv) | .[]'
	test_expect_success 'positionTicks lines survive (lines.cpuprofile)' '
		jq -r "$ticks" "$N/lines.cpuprofile" | LC_ALL=C sort >expect &&
		"$PROFTOOL" convert --to cpuprofile "$N/lines.cpuprofile" |
			jq -r "$ticks" | LC_ALL=C sort >actual &&
		test_cmp expect actual'

	# the trace has no positionTicks but a 1-based `lines` entry per sample
	test_expect_success 'trace per-sample lines become positionTicks' '
		jq -r "[.traceEvents[] | select(.name == \"ProfileChunk\") | .args.data] as \$ch
			| ([\$ch[] | .cpuProfile.nodes[]?] | map({key: (.id | tostring), value: .callFrame}) | from_entries) as \$cf
			| [\$ch[] | .cpuProfile.samples as \$s | (.lines // []) as \$l
				| range(0; \$s | length) as \$i | select((\$l[\$i] // 0) > 0)
				| {k: [\$cf[\$s[\$i] | tostring].functionName, \$l[\$i]]}]
			| group_by(.k) | map(.[0].k + [length] | @tsv) | .[]" "$N/small.trace.json" |
			LC_ALL=C sort >expect &&
		"$PROFTOOL" convert --to cpuprofile "$N/small.trace.json" |
			jq -r "[.nodes[] | .callFrame.functionName as \$f | (.positionTicks // [])[]
				| {k: [\$f, .line], t: .ticks}] | group_by(.k)
				| map(.[0].k + [(map(.t) | add)] | @tsv) | .[]" | LC_ALL=C sort >actual &&
		test_cmp expect actual'
else
	test_skip 'positionTicks checks' 'jq is not installed'
fi

test_expect_success 'from collapsed stacks: one sample per count, 1 ms apart' '
	"$PROFTOOL" convert --to cpuprofile -o out.cpuprofile "$SRCDIR/tests/data/recursion.collapsed" &&
	awk -f "$SRCDIR/tests/flatcum.awk" "$SRCDIR/tests/data/recursion.collapsed" >expect &&
	"$PROFTOOL" convert --sample-index samples --to collapsed out.cpuprofile |
		awk -f "$SRCDIR/tests/flatcum.awk" >actual &&
	test_cmp expect actual &&
	"$PROFTOOL" top --sample-index wall --format csv -n 0 out.cpuprofile |
		awk -F, "NR > 1 { gsub(/\"/, \"\", \$1); print \$1, \$4 / 1000, \$6 / 1000 }" |
		LC_ALL=C sort >actual &&
	test_cmp expect actual'

if test -n "$have_node"; then
	test_expect_success 'from collapsed stacks: valid, totals.js agrees with flatcum.awk' '
		"$PROFTOOL" convert --to cpuprofile -o out.cpuprofile "$SRCDIR/tests/data/recursion.collapsed" &&
		node "$CHECK" out.cpuprofile &&
		node "$REF/node/totals.js" out.cpuprofile | sed 1d |
			awk -F"\t" "{ print \$1, \$3, \$4 }" >actual &&
		awk -f "$SRCDIR/tests/flatcum.awk" "$SRCDIR/tests/data/recursion.collapsed" >expect &&
		test_cmp expect actual'

	test_expect_success 'huge counts: one sample per stack lasting COUNT ms' '
		"$PROFTOOL" convert --to cpuprofile -o out.cpuprofile "$SAMPLES/collapsed/perfdemo-g.collapsed" &&
		node "$CHECK" out.cpuprofile &&
		awk -f "$SRCDIR/tests/flatcum.awk" "$SAMPLES/collapsed/perfdemo-g.collapsed" >expect &&
		"$PROFTOOL" top --sample-index wall --format csv -n 0 out.cpuprofile |
			awk -F, "NR > 1 { gsub(/\"/, \"\", \$1); print \$1, \$4 / 1000, \$6 / 1000 }" |
			LC_ALL=C sort >actual &&
		test_cmp expect actual'

	test_expect_success 'names with quotes, backslashes, controls and bad UTF-8 stay valid JSON' '
		printf "a\"q;b\\\\s;c\001d;\377x;\303\251t\342\202\254 2\n" >odd.collapsed &&
		"$PROFTOOL" convert --to cpuprofile -o out.cpuprofile odd.collapsed &&
		node "$CHECK" out.cpuprofile &&
		node -e "const d = JSON.parse(require(\"fs\").readFileSync(\"out.cpuprofile\", \"utf8\"));
			const n = d.nodes.map((x) => x.callFrame.functionName).join(\"|\");
			if (n !== \"(root)|a\\\"q|b\\\\s|c\\u0001d|\\ufffdx|\\u00e9t\\u20ac\") { console.log(n); process.exit(1); }"'
else
	test_skip 'collapsed to cpuprofile checks' 'node is not installed'
fi

test_expect_success '-o FILE.cpuprofile picks the cpuprofile writer' '
	"$PROFTOOL" convert -o x.cpuprofile "$N/small.cpuprofile" &&
	"$PROFTOOL" info x.cpuprofile | grep -qx "Format: cpuprofile"'

test_expect_success 'an empty profile writes a root-only cpuprofile' '
	printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}],\"samples\":[],\"timeDeltas\":[]}" >e.cpuprofile &&
	"$PROFTOOL" convert --to cpuprofile e.cpuprofile >out &&
	grep -q "\"samples\":\[\],\"timeDeltas\":\[\]" out'

# samples N: how many samples the .cpuprofile of collapsed file N has
samples () {
	"$PROFTOOL" convert --to cpuprofile "$1" | jq ".samples | length"
}

test_expect_success 'counts become samples up to 250,000 in all, then one sample per stack' '
	command -v jq >/dev/null || { echo "jq missing"; exit 1; }
	printf "a;b 249999\na;c 1\n" >any.collapsed &&
	test "$(samples any.collapsed)" = 250000 &&
	printf "a;b 250000\na;c 1\n" >over.collapsed &&
	test "$(samples over.collapsed)" = 2'

test_expect_success 'or up to 32 per node of the call tree, and never over a million' '
	command -v jq >/dev/null || { echo "jq missing"; exit 1; }
	awk "BEGIN { for (i = 0; i < 10000; i++) print \"a;f\" i, 30 }" >nodes.collapsed &&
	test "$(samples nodes.collapsed)" = 300000 &&
	awk "BEGIN { for (i = 0; i < 10000; i++) print \"a;f\" i, 33 }" >more.collapsed &&
	test "$(samples more.collapsed)" = 10000 &&
	awk "BEGIN { for (i = 0; i < 40000; i++) print \"a;f\" i, 25 }" >million.collapsed &&
	test "$(samples million.collapsed)" = 1000000 &&
	printf "a;f0 1\n" >>million.collapsed &&
	test "$(samples million.collapsed)" = 40000'

test_expect_success 'an 11-byte file with a huge count stays a small .cpuprofile' '
	printf "a;b 999999\n" >huge.collapsed &&
	"$PROFTOOL" convert --to cpuprofile huge.collapsed >h.cpuprofile &&
	test "$(wc -c <h.cpuprofile)" -lt 1000 &&
	"$PROFTOOL" info h.cpuprofile >info &&
	grep -q "^  1: wall \[microseconds\] total 999999000 " info'

test_expect_success 'a perf count the fuzzer found stays small as a .cpuprofile' '
	"$PROFTOOL" convert --to cpuprofile "$SRCDIR/tests/data/fuzz-perf-huge-count.txt" >f.cpuprofile &&
	test "$(wc -c <f.cpuprofile)" -lt 100000'

test_done
