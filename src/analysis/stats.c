/* stats.c: medians, the Mann-Whitney U test, the Hodges-Lehmann shift and
 * Benjamini-Hochberg, for the regression gate over repeated runs (stats.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/libm.h"
#include "util/round.h"
#include "util/xalloc.h"

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

double pt_stats_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The null distribution of U for samples of m and n values without ties: the number of
 * arrangements giving each U in 0..m*n, as a fraction of all of them, into dist (m*n+1
 * entries, the caller's). By the largest value: it comes from the first sample (adding
 * n to U) or the second, c(m,n,u) = c(m-1,n,u-n) + c(m,n-1,u); the table is rolled over
 * the second sample's size and kept for every first size, so it costs O(n * m * mn)
 * additions of non-negative numbers (no cancellation) with m the smaller side. */
static void u_distribution(size_t m, size_t n, double *dist)
{
	size_t mn = m * n, i, j, u;
	double *c, total = 0;

	if (m > n) { /* c(m,n) = c(n,m): roll over the larger side */
		size_t t = m;
		m = n;
		n = t;
	}
	/* c[i] = c(i, j) over u in 0..mn, for the current j */
	c = pt_xcalloc((m + 1) * (mn + 1), sizeof(*c));
	for (i = 0; i <= m; i++)
		c[i * (mn + 1)] = 1; /* j = 0: one arrangement, U = 0 */
	for (j = 1; j <= n; j++) {
		/* c(i, j, u) = c(i-1, j, u-j) + c(i, j-1, u): i ascending, so row i-1 is
		 * already at j while row i still holds j-1 */
		for (i = 1; i <= m; i++) {
			double *row = c + i * (mn + 1), *prev = c + (i - 1) * (mn + 1);
			for (u = mn + 1; u-- > j;)
				row[u] += prev[u - j];
		}
	}
	for (u = 0; u <= mn; u++)
		total += c[m * (mn + 1) + u];
	for (u = 0; u <= mn; u++)
		dist[u] = c[m * (mn + 1) + u] / total;
	free(c);
}

/* P(Z > z) of the standard normal */
static double normal_sf(const struct pt_libm *lm, double z)
{
	return 0.5 * lm->erfc(z / lm->sqrt(2.0));
}

/* z with normal_sf(z) = p, for 0 < p < 1, by bisection (to double precision, a few
 * dozen steps) */
static double normal_isf(const struct pt_libm *lm, double p)
{
	double lo = -40, hi = 40;
	int k;

	for (k = 0; k < 200 && hi - lo > 1e-12; k++) {
		double mid = (lo + hi) / 2;
		if (normal_sf(lm, mid) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

struct ranked {
	double v;
	int side; /* 0: a, 1: b */
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	return a->v < b->v ? -1 : a->v > b->v;
}

/* rank sum of a's values (mid-ranks for ties), and the ties' sum of t^3 - t */
static double rank_sum(const double *a, size_t na, const double *b, size_t nb, double *tie_term)
{
	size_t n = na + nb, i, j, k;
	struct ranked *r = pt_xreallocarray(NULL, n, sizeof(*r));
	double r1 = 0;

	for (i = 0; i < na; i++)
		r[i] = (struct ranked){a[i], 0};
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){b[i], 1};
	qsort(r, n, sizeof(*r), cmp_ranked);
	*tie_term = 0;
	for (i = 0; i < n; i = j) {
		double t, mid;
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = (double)(j - i);
		mid = (double)(i + 1 + j) / 2; /* the mean of ranks i+1 .. j */
		*tie_term += t * t * t - t;
		for (k = i; k < j; k++)
			if (!r[k].side)
				r1 += mid;
	}
	free(r);
	return r1;
}

int pt_stats_mwu(const double *a, size_t na, const double *b, size_t nb, struct pt_mwu *out)
{
	double tie_term, u1, u2, u, mu, s, n;

	if (!na || !nb)
		return -1;
	n = (double)(na + nb);
	u1 = rank_sum(a, na, b, nb, &tie_term) - (double)na * (double)(na + 1) / 2;
	u2 = (double)na * (double)nb - u1;
	u = u1 > u2 ? u1 : u2;
	out->u = u1;
	if ((na <= PT_STATS_EXACT_MAX || nb <= PT_STATS_EXACT_MAX) && tie_term == 0) {
		size_t mn = na * nb, k;
		double *dist = pt_xreallocarray(NULL, mn + 1, sizeof(*dist)), sf = 0;
		u_distribution(na, nb, dist);
		for (k = (size_t)u; k <= mn; k++)
			sf += dist[k];
		free(dist);
		out->p = 2 * sf;
		out->exact = 1;
	} else {
		/* libm is opened where a run first needs it (util/libm.h); opening it again
		 * is a lookup, a fraction of a microsecond */
		struct pt_libm lm;
		pt_libm_open(&lm, NULL);
		mu = (double)na * (double)nb / 2;
		s = lm.sqrt((double)na * (double)nb / 12 * ((n + 1) - tie_term / (n * (n - 1))));
		/* every value the same: no evidence either way */
		out->p = s > 0 ? 2 * normal_sf(&lm, (u - mu - 0.5) / s) : 1;
		out->exact = 0;
		pt_libm_close(&lm);
	}
	if (out->p > 1)
		out->p = 1;
	return 0;
}

int pt_stats_shift(const double *a, size_t na, const double *b, size_t nb, double alpha,
		   double *estimate, double *lo, double *hi)
{
	size_t mn = na * nb, i, j, k = 0;
	double *d;

	if (!na || !nb)
		return -1;
	d = pt_xreallocarray(NULL, mn, sizeof(*d));
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	qsort(d, mn, sizeof(*d), cmp_double);
	*estimate = mn % 2 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2;
	/* k: one more than the largest u with P(U <= u) <= alpha / 2; the interval is the
	 * k-th smallest to the k-th largest difference (k = 0: none at this level) */
	if (na <= PT_STATS_EXACT_MAX || nb <= PT_STATS_EXACT_MAX) {
		double *dist = pt_xreallocarray(NULL, mn + 1, sizeof(*dist)), cdf = 0;
		u_distribution(na, nb, dist);
		for (k = 0; k <= mn; k++) {
			cdf += dist[k];
			if (cdf > alpha / 2 * (1 + 1e-12))
				break;
		}
		free(dist);
	} else {
		struct pt_libm lm;
		double z, c;
		pt_libm_open(&lm, NULL);
		z = normal_isf(&lm, alpha / 2);
		c = (double)mn / 2 - z * lm.sqrt((double)mn * (double)(na + nb + 1) / 12);
		k = c >= 1 ? (size_t)pt_floor(c) : 0;
		pt_libm_close(&lm);
	}
	if (k >= 1 && k <= mn - k + 1) {
		*lo = d[k - 1];
		*hi = d[mn - k];
	} else {
		*lo = -INFINITY;
		*hi = INFINITY;
	}
	free(d);
	return 0;
}

struct indexed {
	double p;
	size_t i;
};

static int cmp_indexed(const void *x, const void *y)
{
	const struct indexed *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

void pt_stats_bh(const double *p, size_t n, double *q)
{
	struct indexed *s;
	double run = 1;
	size_t k;

	if (!n)
		return;
	s = pt_xreallocarray(NULL, n, sizeof(*s));
	for (k = 0; k < n; k++)
		s[k] = (struct indexed){p[k], k};
	qsort(s, n, sizeof(*s), cmp_indexed);
	for (k = n; k-- > 0;) {
		double v = s[k].p * (double)n / (double)(k + 1);
		if (v < run)
			run = v;
		q[s[k].i] = run;
	}
	free(s);
}
