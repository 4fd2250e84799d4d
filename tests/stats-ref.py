#!/usr/bin/env python3
# stats-ref.py: scipy's Mann-Whitney U (two-sided, method "auto") for each case line
# "A... | B..." of FILE, one line "U P" each: the independent reading t6110 holds
# analysis/stats.c against. tests/ref/stats/mannwhitneyu.txt was made by
#   /usr/bin/python3 tests/stats-ref.py tests/data/stats-cases.txt
# with Debian 12's python3-scipy 1.10.1.
import sys

from scipy.stats import mannwhitneyu

for line in open(sys.argv[1]):
    if "|" not in line:
        continue
    left, right = line.split("|")
    a = [float(x) for x in left.split()]
    b = [float(x) for x in right.split()]
    r = mannwhitneyu(a, b, alternative="two-sided", method="auto")
    print("%.17g %.17g" % (r.statistic, r.pvalue))
