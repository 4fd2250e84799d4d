#!/bin/sh
test_description='diff over repeated runs: the rank test against scipy, the gate on noise'
. "$(dirname "$0")/lib.sh"

STATS=$BUILDDIR/tests/unit/test-stats
CASES=$SRCDIR/tests/data/stats-cases.txt

# scipy.stats.mannwhitneyu, two-sided, method "auto": run now when Debian's python3-scipy
# is there, else the references it made (tests/stats-ref.py says how)
scipy_python () {
	for py in /usr/bin/python3 python3; do
		"$py" -c 'import scipy.stats' 2>/dev/null && { echo "$py"; return 0; }
	done
	return 1
}

# compare.awk over "U P" (reference) pasted beside "U P EXACT" (ours): U equal, p within
# a relative 1e-9
cat >"$TRASH/compare.awk" <<'AWK'
{
	n++
	d = $2 - $4; if (d < 0) d = -d
	scale = $2 > 1e-300 ? $2 : 1
	if ($1 != $3 || d / scale > 1e-9) { print "case " NR ": want U " $1 " p " $2 ", got U " $3 " p " $4; bad++ }
}
END { if (n < 40) { print "only " n " cases"; bad++ } exit bad ? 1 : 0 }
AWK

test_expect_success 'Mann-Whitney U and p equal the committed scipy references on 47 cases' '
	"$STATS" --cases "$CASES" >ours &&
	paste -d" " "$REF/stats/mannwhitneyu.txt" ours | awk -f "$TRASH/compare.awk"'

if py=$(scipy_python); then
	test_expect_success 'and equal scipy run now' '
		"$py" "$SRCDIR/tests/stats-ref.py" "$CASES" >theirs &&
		"$STATS" --cases "$CASES" >ours &&
		paste -d" " theirs ours | awk -f "$TRASH/compare.awk"'
else
	test_skip 'and equal scipy run now' 'python3-scipy is not installed'
fi

test_expect_success 'the cases cover both ways of computing p' '
	"$STATS" --cases "$CASES" >ours &&
	awk "\$3 == 1 { e++ } \$3 == 0 { a++ } END { exit !(e >= 10 && a >= 10) }" ours'

# runs NAME PARSE RENDER ENCODE: a crafted run of three functions under main
run () {
	printf 'main;parse %s\nmain;render %s\nmain;encode %s\n' "$2" "$3" "$4" >"$TRASH/$1"
}
# BASE: parse about 40%; NEW: parse about 46% (a real shift); A/A: BASE's twins
run a1 400 400 200; run a2 410 390 200; run a3 395 405 200; run a4 405 400 195
run a5 400 395 205
run b1 460 380 190; run b2 470 370 190; run b3 455 385 195; run b4 465 375 190
run b5 450 390 190
run c1 402 398 200; run c2 396 404 200; run c3 408 392 200; run c4 399 396 205
run c5 404 401 195
A="$TRASH/a1 $TRASH/a2 $TRASH/a3 $TRASH/a4 $TRASH/a5"
B="$TRASH/b1 $TRASH/b2 $TRASH/b3 $TRASH/b4 $TRASH/b5"
C="$TRASH/c1 $TRASH/c2 $TRASH/c3 $TRASH/c4 $TRASH/c5"

test_expect_success 'five runs a side: a 4.66-point shift (parse: 400 of 1000 a run, then 450-470 of about 1030; medians 40.00% and 460/1030 = 44.66%) fails the gate, its offender named' '
	test_expect_code 3 "$PROFTOOL" diff $A --vs $B --fail-on-regression 2 &&
	grep -q "^proftool: diff: regression: parse: median cum 40.00% -> 44.66% (+4.66 points, q=" err &&
	test "$(grep -c "regression:" err)" = 1 &&
	grep -q "^Tested 3 functions whose cum shares over all runs average at least 0.00% and spread over more than 2.00 points" out &&
	grep -q "^    0.00%     0.00%   100.00%   100.00%    +0.00 not tested  .*main$" out'

# the family tested, from both sides pooled: encode's ten shares lie in 18.45-20.50%
# (2.05 points), render's in 35.92-40.50% (4.58), parse's in 39.50-45.63% (6.13); their
# pooled means are 19.27%, 38.33% and 42.41%
test_expect_success 'the functions tested: only those whose pooled shares spread over more than the gate'"'"'s points, and whose pooled mean reaches --min-share' '
	test_expect_code 3 "$PROFTOOL" diff $A --vs $B --fail-on-regression 2.2 &&
	grep -q "^Tested 2 functions" out &&
	grep -q "not tested .*encode$" out &&
	"$PROFTOOL" diff $A --vs $B --fail-on-regression 5 >out &&
	grep -q "^Tested 1 function .*more than 5.00 points" out &&
	"$PROFTOOL" diff $A --vs $B --fail-on-regression 6.2 >out &&
	grep -q "^Tested 0 functions" out &&
	"$PROFTOOL" diff $A --vs $B >out &&
	grep -q "^Tested 3 functions .*more than 0.00 points" out &&
	"$PROFTOOL" diff $A --vs $B --min-share 38.3 >out &&
	grep -q "^Tested 2 functions .*at least 38.30%" out &&
	"$PROFTOOL" diff $A --vs $B --min-share 38.4 >out &&
	grep -q "^Tested 1 function " out &&
	"$PROFTOOL" diff $A --vs $B --min-share 38.4 --format json >out &&
	jq -e "[.rows[] | select(.tested) | .name] == [\"parse\"] and .spread == 0 and .min_share == 38.4" out'

test_expect_success 'fewer functions tested, smaller q: the same p, q scaled by the family' '
	"$PROFTOOL" diff $A --vs $B --format csv >all &&
	"$PROFTOOL" diff $A --vs $B --format csv --fail-on-regression 5 >one &&
	p=$(awk -F, "\$1 == \"parse\" { print \$11 }" all) &&
	test "$(awk -F, "\$1 == \"parse\" { print \$11 }" one)" = "$p" &&
	test "$(awk -F, "\$1 == \"parse\" { print \$12 }" one)" = "$p"'

test_expect_success 'the same files A/A: nothing is significant, the gate passes' '
	"$PROFTOOL" diff $A --vs $C --fail-on-regression 0.5 --format csv >out &&
	awk -F, "NR > 1 && \$12 < 0.05 { bad = 1 } END { exit bad }" out'

test_expect_success 'a change under the threshold passes even when significant' '
	"$PROFTOOL" diff $A --vs $B --fail-on-regression 10'

test_expect_success '--base-from and --new-from read the same runs as --vs' '
	printf "%s\n" $A >base.list && printf "%s\n\n" $B >new.list &&
	"$PROFTOOL" diff --format json $A --vs $B >want &&
	"$PROFTOOL" diff --format json --base-from base.list --new-from new.list >got &&
	test_cmp want got'

test_expect_success 'json: the test columns, null for an open interval end' '
	"$PROFTOOL" diff --format json $TRASH/a1 $TRASH/a2 --vs $TRASH/b1 $TRASH/b2 >out &&
	jq -e ".base_runs == 2 and .new_runs == 2 and (.rows[] | select(.name == \"parse\") | .change_low == null and .tested and .q >= 0)" out'

test_expect_success 'one run a side: as before, and it says no test was possible' '
	"$PROFTOOL" diff $TRASH/a1 $TRASH/b1 >want &&
	"$PROFTOOL" diff $TRASH/a1 --vs $TRASH/b1 >got 2>err &&
	test_cmp want got &&
	grep -q "^proftool: diff: one run a side: no test was possible" err'

test_expect_success 'the totals: 3% more samples in every new run fails --fail-on-total-growth 2' '
	test_expect_code 3 "$PROFTOOL" diff $A --vs $B --fail-on-total-growth 2 &&
	grep -q "^proftool: diff: regression: the total grew by +3.00% (over 2%, p=" err &&
	"$PROFTOOL" diff $A --vs $B --fail-on-total-growth 5'

test_expect_success 'the totals of two profiles: the growth alone decides' '
	test_expect_code 3 "$PROFTOOL" diff $TRASH/a1 $TRASH/b1 --fail-on-total-growth 2 &&
	grep -q "no test was possible; the total grew by +3.00%" err'

# perfrun NAME N: perf script of N samples of 1 ms of cpu-clock, 10 ms apart (a profile
# of (N - 1) * 10 ms), in main;work
perfrun () {
	awk -v n="$2" "BEGIN { for (i = 0; i < n; i++)
		printf \"spin 42 [000] %.6f: 1000000 cpu-clock:\n\t1139 work+0x9 (/bin/spin)\n\t1120 main+0x20 (/bin/spin)\n\n\", 100 + i * 0.01 }" >"$TRASH/$1"
}
perfrun p100 100; perfrun p101 101; perfrun p200 200; perfrun p202 202

test_expect_success '--per-second: twice the CPU in twice the time is no growth' '
	test_expect_code 3 "$PROFTOOL" diff $TRASH/p100 $TRASH/p200 --fail-on-total-growth 50 &&
	grep -q "the total grew by +100.00%" err &&
	"$PROFTOOL" diff $TRASH/p100 $TRASH/p200 --fail-on-total-growth 50 --per-second \
		>out 2>err &&
	grep -q "no test was possible; the total grew by -0.50%" err &&
	"$PROFTOOL" diff $TRASH/p100 $TRASH/p101 --vs $TRASH/p200 $TRASH/p202 --per-second \
		--fail-on-total-growth 50 >out 2>err &&
	grep -q "^New: 2 runs, median total 1.005e+08 nanoseconds/s (-0.50%, p=" out'

test_expect_success '--per-second without a duration: every total per sample, said once' '
	test_expect_code 3 "$PROFTOOL" diff $A --vs $B --fail-on-total-growth 2 &&
	"$PROFTOOL" diff $A --vs $B --fail-on-total-growth 2 --per-second >out 2>err &&
	test "$(grep -c "says not how long it took; every total is per sample instead" err)" = 1 &&
	grep -q "^proftool: diff: --per-second: $TRASH/a1 says not how long" err &&
	grep -q "^New: 5 runs, median total 1 count/sample (+0.00%, p=" out &&
	"$PROFTOOL" diff --sample-index 0 $TRASH/p100 $TRASH/a1 --per-second \
		--fail-on-total-growth 50 2>err &&
	grep -q "a1 says not how long it took" err'

test_expect_success 'JUnit: a test case per function tested, the offender a failure' '
	test_expect_code 3 "$PROFTOOL" diff $A --vs $B --fail-on-regression 2 --junit j.xml \
		--metrics m.txt >/dev/null 2>&1 &&
	grep -q "<testsuites tests=\"3\" failures=\"1\">" j.xml &&
	grep -A1 "name=\"parse\"" j.xml | grep -q "<failure message=\"median cum 40.00% -&gt; 44.66%" &&
	if command -v xmllint >/dev/null; then xmllint --noout j.xml; fi &&
	python3 "$SRCDIR/tests/ci-check.py" junit j.xml >cases &&
	test "$(wc -l <cases)" = 3 && test "$(grep -c "	fail\$" cases)" = 1 &&
	grep -qx "parse	fail" cases &&
	python3 "$SRCDIR/tests/ci-check.py" metrics m.txt >samples &&
	test "$(grep -c "^proftool_cum_share_change	" samples)" = 3 &&
	grep -q "^proftool_cum_share_change{function=\"parse\"} 4.66" m.txt &&
	test "$(tail -1 m.txt)" = "# EOF"'

test_expect_success 'two profiles: --junit and --metrics too' '
	"$PROFTOOL" diff $TRASH/a1 $TRASH/b1 --fail-on-regression 10 --junit j.xml --metrics m.txt >/dev/null &&
	grep -q "<testsuites tests=\"4\" failures=\"0\">" j.xml &&
	grep -q "^proftool_new_cum_share{function=\"parse\"} 44.66" m.txt'

test_expect_success 'bad input: a file twice, sample types apart, an empty profile: one line' '
	test_expect_code 2 "$PROFTOOL" diff $TRASH/a1 $TRASH/a2 --vs $TRASH/b1 $TRASH/a1 &&
	test "$(wc -l <err)" = 1 && grep -q "is given twice" err &&
	test_expect_code 1 "$PROFTOOL" diff $TRASH/a1 $TRASH/a2 --vs $SAMPLES/go/cpu.pb.gz $TRASH/b1 &&
	test "$(wc -l <err)" = 1 && grep -q "sample type cpu \[nanoseconds\] differs from samples" err &&
	printf "main;x 0\n" >zero && printf "main;x 0\n" >zero2 &&
	test_expect_code 1 "$PROFTOOL" diff $TRASH/a1 $TRASH/a2 --vs zero zero2 &&
	test "$(wc -l <err)" = 1 && grep -q "zero: the profile is empty" err'

test_expect_success 'usage: one side missing, three runs against one, --to with runs' '
	test_expect_code 2 "$PROFTOOL" diff --vs $TRASH/b1 $TRASH/b2 &&
	test_expect_code 2 "$PROFTOOL" diff $A --vs $TRASH/b1 &&
	test_expect_code 2 "$PROFTOOL" diff --to collapsed $A --vs $B'

test_done
