/* stats.h: the statistics of the noise-aware regression gate: medians, the Mann-Whitney
 * U rank test (exact for small samples without ties, else the normal approximation with
 * tie and continuity corrections, as scipy.stats.mannwhitneyu's "auto" method), the
 * Hodges-Lehmann shift with its confidence interval, and Benjamini-Hochberg adjusted
 * p-values. Pure functions over arrays of doubles; nothing here allocates without
 * freeing before it returns. The normal approximation opens libm (util/libm.h), and
 * ends the run through pt_die if it cannot. */
#ifndef PT_STATS_H
#define PT_STATS_H

#include <stddef.h>

/* The exact null distribution is used while the number of (m, n) arrangements it counts
 * stays small: either side of at most this many runs, as scipy's "auto" does. */
#define PT_STATS_EXACT_MAX 8

/* Median of v[0..n-1] (n >= 1); v is sorted in place. */
double pt_stats_median(double *v, size_t n);

struct pt_mwu {
	double u;  /* U of the first sample: its rank sum less na(na+1)/2 */
	double p;  /* two-sided p-value, in [0, 1] */
	int exact; /* 1: the exact distribution; 0: the normal approximation */
};

/* Two-sided Mann-Whitney U test of a (na values) against b (nb values), na, nb >= 1.
 * Returns 0, or -1 when either side is empty (out untouched). */
int pt_stats_mwu(const double *a, size_t na, const double *b, size_t nb, struct pt_mwu *out);

/* The Hodges-Lehmann estimate of the shift b - a (the median of every b[j] - a[i]) and its
 * distribution-free confidence interval at level 1 - alpha, from the same U distribution
 * as the test. *lo and *hi are -inf / +inf when the samples are too small for that level
 * (with 2 runs a side no interval excludes anything at 95%). Returns 0, or -1 when either
 * side is empty. */
int pt_stats_shift(const double *a, size_t na, const double *b, size_t nb, double alpha,
		   double *estimate, double *lo, double *hi);

/* Benjamini-Hochberg: q[i] is p[i] adjusted for the n tests (q = min over the larger p's
 * of p * n / rank, at most 1). q may be p. */
void pt_stats_bh(const double *p, size_t n, double *q);

#endif
