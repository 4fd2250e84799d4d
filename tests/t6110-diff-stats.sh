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

test_done
