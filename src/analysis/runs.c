/* runs.c: shares per run, and the per-function and totals' tests of the regression gate
 * over repeated runs (runs.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/runs.h"
#include "analysis/stats.h"
#include "core/units.h"
#include "util/xalloc.h"

void pt_runs_init(struct pt_runs *r, size_t nbase, size_t nnew)
{
	memset(r, 0, sizeof(*r));
	pt_diff_init(&r->table);
	r->nbase = nbase;
	r->nnew = nnew;
	r->total = pt_xcalloc(nbase + nnew, sizeof(*r->total));
}

void pt_runs_release(struct pt_runs *r)
{
	pt_diff_release(&r->table);
	free(r->flat);
	free(r->cum);
	free(r->total);
	free(r->stats);
	memset(r, 0, sizeof(*r));
}

/* room for row k's shares; new rows are 0 in every run (a function a run lacks) */
static void grow_rows(struct pt_runs *r, size_t rows)
{
	size_t w = r->nbase + r->nnew, old = r->rows_alloc;

	if (rows <= old)
		return;
	r->rows_alloc = old ? old : 64;
	while (r->rows_alloc < rows)
		r->rows_alloc *= 2;
	r->flat = pt_xreallocarray(r->flat, r->rows_alloc, w * sizeof(double));
	r->cum = pt_xreallocarray(r->cum, r->rows_alloc, w * sizeof(double));
	memset(r->flat + old * w, 0, (r->rows_alloc - old) * w * sizeof(double));
	memset(r->cum + old * w, 0, (r->rows_alloc - old) * w * sizeof(double));
}

void pt_runs_add(struct pt_runs *r, size_t run, const struct pt_profile *p, const struct pt_agg *a,
		 uint32_t t, double total)
{
	size_t w = r->nbase + r->nnew;
	int64_t all = a->total[t];
	uint32_t e;

	(void)p;
	r->total[run] = total;
	for (e = 0; e < a->nentries; e++) {
		uint32_t k = pt_diff_row_for(&r->table, p, a, e);
		grow_rows(r, (size_t)k + 1);
		r->flat[(size_t)k * w + run] += pt_pct(a->flat[(size_t)e * a->ntypes + t], all);
		r->cum[(size_t)k * w + run] += pt_pct(a->cum[(size_t)e * a->ntypes + t], all);
	}
}

/* the median of n values from v (copied: the medians sort) */
static double median_of(const double *v, size_t n, double *tmp)
{
	memcpy(tmp, v, n * sizeof(*v));
	return pt_stats_median(tmp, n);
}

/* The filter of the functions tested, from the runs of both sides pooled: their mean cum
 * share reaches min_share and they spread over more than `spread` points. Neither depends
 * on which run is on which side, so under the null hypothesis (every arrangement of the
 * pooled shares into the two sides as likely) the rank test's distribution given the
 * filter's choice is still the one its p-value assumes: the filter costs no false
 * alarms, and every function it drops is one test fewer for Benjamini-Hochberg. A function
 * whose pooled shares spread over no more than the gate's points cannot pass it, since
 * the change of its medians is at most that spread. */
static int in_family(const double *cum, size_t w, double min_share, double spread)
{
	double lo = cum[0], hi = cum[0], sum = 0;
	size_t i;

	for (i = 0; i < w; i++) {
		sum += cum[i];
		lo = cum[i] < lo ? cum[i] : lo;
		hi = cum[i] > hi ? cum[i] : hi;
	}
	return sum / (double)w >= min_share && hi - lo > spread;
}

void pt_runs_test(struct pt_runs *r, double min_share, double spread, double alpha)
{
	size_t w = r->nbase + r->nnew, nrows = r->table.nrows, k, i;
	double *tmp = pt_xreallocarray(NULL, w, sizeof(double));
	double *p, *q;
	size_t *which;
	struct pt_mwu u;

	r->stats = pt_xcalloc(nrows ? nrows : 1, sizeof(*r->stats));
	p = pt_xreallocarray(NULL, nrows ? nrows : 1, sizeof(double));
	q = pt_xreallocarray(NULL, nrows ? nrows : 1, sizeof(double));
	which = pt_xreallocarray(NULL, nrows ? nrows : 1, sizeof(size_t));
	r->ntested = 0;
	for (k = 0; k < nrows; k++) {
		struct pt_runs_stat *s = &r->stats[k];
		const double *cum = r->cum + k * w, *flat = r->flat + k * w;

		s->base_flat = median_of(flat, r->nbase, tmp);
		s->new_flat = median_of(flat + r->nbase, r->nnew, tmp);
		s->base_cum = median_of(cum, r->nbase, tmp);
		s->new_cum = median_of(cum + r->nbase, r->nnew, tmp);
		s->change = s->new_cum - s->base_cum;
		s->p = s->q = 1;
		s->lo = -INFINITY;
		s->hi = INFINITY;
		if (r->nbase < 2 || r->nnew < 2 || !in_family(cum, w, min_share, spread))
			continue;
		s->tested = 1;
		pt_stats_mwu(cum, r->nbase, cum + r->nbase, r->nnew, &u);
		s->p = u.p;
		{
			double est;
			pt_stats_shift(cum, r->nbase, cum + r->nbase, r->nnew, alpha, &est, &s->lo,
				       &s->hi);
		}
		p[r->ntested] = s->p;
		which[r->ntested++] = k;
	}
	pt_stats_bh(p, r->ntested, q);
	for (i = 0; i < r->ntested; i++)
		r->stats[which[i]].q = q[i];

	r->base_total = median_of(r->total, r->nbase, tmp);
	r->new_total = median_of(r->total + r->nbase, r->nnew, tmp);
	r->total_growth = r->base_total != 0
				  ? (r->new_total - r->base_total) * 100 / fabs(r->base_total)
				  : (r->new_total != 0 ? INFINITY : 0);
	r->total_p = 1;
	if (r->nbase >= 2 && r->nnew >= 2) {
		pt_stats_mwu(r->total, r->nbase, r->total + r->nbase, r->nnew, &u);
		r->total_p = u.p;
	}
	free(tmp);
	free(p);
	free(q);
	free(which);
}

struct sort_ctx {
	const struct pt_runs *r;
};

static int by_change(const void *pa, const void *pb, void *ctx)
{
	const struct pt_runs *r = ((const struct sort_ctx *)ctx)->r;
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
	double cx = fabs(r->stats[x].change), cy = fabs(r->stats[y].change);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return pt_diff_row_cmp(&r->table, x, y);
}

uint32_t *pt_runs_sorted(const struct pt_runs *r, uint32_t *n)
{
	uint32_t nrows = r->table.nrows, i, k = 0;
	uint32_t *idx = pt_xreallocarray(NULL, nrows ? nrows : 1, sizeof(uint32_t));
	struct sort_ctx c = {r};

	for (i = 0; i < nrows; i++) {
		const struct pt_runs_stat *s = &r->stats[i];
		if (s->tested || s->base_cum || s->new_cum || s->base_flat || s->new_flat)
			idx[k++] = i;
	}
	qsort_r(idx, k, sizeof(*idx), by_change, &c);
	*n = k;
	return idx;
}

uint32_t *pt_runs_regressions(const struct pt_runs *r, double pct, double alpha, uint32_t *n)
{
	uint32_t *idx = pt_runs_sorted(r, n), i, k = 0;

	for (i = 0; i < *n; i++) {
		const struct pt_runs_stat *s = &r->stats[idx[i]];
		if (s->tested && s->change > pct && s->q < alpha)
			idx[k++] = idx[i];
	}
	*n = k;
	return idx;
}
