/* diff.h: two profiles matched function by function (or file, line, address): flat and
 * cum in both, base optionally normalized to the new total; the regression gate's test;
 * and the one profile with both as sample types that the stack outputs of `diff` write. */
#ifndef PT_DIFF_H
#define PT_DIFF_H

#include <stdint.h>

#include "core/functable.h"
#include "core/profile.h"
#include "util/arena.h"
#include "util/intern.h"

/* one function (or file, line, address) in either profile; base values normalized */
struct pt_diff_row {
	uint32_t name, file; /* ids in the diff's own string table */
	int64_t line;
	uint64_t addr;
	int64_t base_flat, new_flat, base_cum, new_cum;
};

struct pt_diff {
	struct pt_arena arena;
	struct pt_intern strings, keys;
	struct pt_diff_row *rows;
	uint32_t nrows;
	size_t alloc;
	int64_t base_total, new_total; /* base_total after normalization */
	uint32_t decimals;	       /* fixed-point digits of every value */
	int normalized;
	double factor; /* base scaled by this */
};

/* Match the entries of two aggregates (same granularity) by name and file (and line,
 * address at those granularities). With normalize, base values are scaled to the new
 * total. Release with pt_diff_release. */
void pt_diff_build(struct pt_diff *df, const struct pt_profile *bp, const struct pt_agg *ba,
		   uint32_t bt, const struct pt_profile *np, const struct pt_agg *na, uint32_t nt,
		   int normalize);
void pt_diff_release(struct pt_diff *df);
/* The row of entry e of p's table a, found by name and file (and line and address at
 * those granularities) or added with zero values; its index. df may be an empty diff
 * (pt_diff_init) used only as the table of names, as analysis/runs.c does. */
uint32_t pt_diff_row_for(struct pt_diff *df, const struct pt_profile *p, const struct pt_agg *a,
			 uint32_t e);
/* rows x and y by name, file, line, address: the tie-break of every diff order */
int pt_diff_row_cmp(const struct pt_diff *df, uint32_t x, uint32_t y);
/* an empty diff: no rows, totals 0, decimals 0 */
void pt_diff_init(struct pt_diff *df);
/* new cum share minus base cum share, in percentage points */
double pt_diff_share_change(const struct pt_diff *df, const struct pt_diff_row *r);
/* row indices sorted by absolute change of flat (or cum), then name; rows all zero left
 * out. The caller frees. */
uint32_t *pt_diff_sorted(const struct pt_diff *df, int by_cum, uint32_t *n);
/* rows whose cum share grew by more than pct points, among those with a new cum share
 * of at least min_share percent; sorted by cum change. The caller frees. */
uint32_t *pt_diff_regressions(const struct pt_diff *df, double pct, double min_share, uint32_t *n);

/* One profile holding BASE's type bt as type 0 "base" (scaled as df scales it) and NEW's
 * type nt as type 1 "new", over the stacks of both (initialized here; release it).
 * Both inputs are brought to df's fixed point first, so they are changed. */
void pt_diff_stacks(struct pt_profile *both, struct pt_profile *bp, uint32_t bt,
		    struct pt_profile *np, uint32_t nt, const struct pt_diff *df);

#endif
