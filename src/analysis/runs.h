/* runs.h: the regression gate over repeated runs: several profiles a side (base runs,
 * new runs), each function's share of its own run's total per run, and per function the
 * medians, the change, its interval and a rank test's p-value with Benjamini-Hochberg
 * control over the functions tested (analysis/stats.h); the same test of the runs'
 * totals. Only the shares are kept, never a run's profile: memory grows with functions
 * times runs. */
#ifndef PT_RUNS_H
#define PT_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/diff.h"
#include "core/functable.h"
#include "core/profile.h"

/* one function's result after pt_runs_test */
struct pt_runs_stat {
	double base_flat, new_flat; /* median flat share of each side, percent */
	double base_cum, new_cum;   /* median cum share of each side, percent */
	double change;		    /* new_cum - base_cum, percentage points */
	double lo, hi;		    /* the change's interval (Hodges-Lehmann), +-inf if none */
	double p, q;		    /* rank test of the cum shares; q after Benjamini-Hochberg */
	int tested;		    /* 0: under --min-share, or too few runs (p = q = 1) */
};

struct pt_runs {
	struct pt_diff table; /* the functions of every run, by name and file (no values) */
	size_t nbase, nnew;   /* runs a side, base runs first */
	double *flat, *cum;   /* table.nrows x (nbase + nnew) shares, percent */
	size_t rows_alloc;
	double *total;		    /* per run: its total, per second with per_second */
	struct pt_runs_stat *stats; /* table.nrows, after pt_runs_test */
	size_t ntested;
	/* the totals' test */
	double base_total, new_total; /* medians */
	double total_growth;	      /* percent of base_total */
	double total_p;
};

void pt_runs_init(struct pt_runs *r, size_t nbase, size_t nnew);
void pt_runs_release(struct pt_runs *r);

/* Add run `run` (0 .. nbase-1: base; nbase .. nbase+nnew-1: new): type t of profile p,
 * whose table at the comparison's granularity is a. total is what the totals' test
 * compares for the run (its total value, or that per second). */
void pt_runs_add(struct pt_runs *r, size_t run, const struct pt_profile *p, const struct pt_agg *a,
		 uint32_t t, double total);

/* Test every function whose cum shares, over the runs of both sides pooled, average at
 * least min_share percent and spread over more than `spread` points (the gate's points,
 * or 0: the functions that could fail it), when both sides have two runs or more; the
 * intervals at level alpha; then adjust the p-values together. And test the totals. */
void pt_runs_test(struct pt_runs *r, double min_share, double spread, double alpha);

/* rows whose change is over pct points and whose q is below alpha, most change first;
 * the caller frees */
uint32_t *pt_runs_regressions(const struct pt_runs *r, double pct, double alpha, uint32_t *n);
/* every row tested or with a non-zero median on either side, by absolute change, then
 * name; the caller frees */
uint32_t *pt_runs_sorted(const struct pt_runs *r, uint32_t *n);

#endif
