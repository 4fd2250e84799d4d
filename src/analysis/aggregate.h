/* aggregate.h: the per-function table (core/functable.h) of a profile, computed from
 * its call tree:
 *  - entries: one per function (or file, line, address: the granularity) with flat and
 *    cumulative values, where cum counts an entry once per stack however often it recurs;
 *  - edges: caller -> callee entry pairs, also counted once per stack;
 *  - lines: (entry, source line) with self and once-per-stack cumulative values.
 * For an aggregate-only profile (p->agg, filled by its reader) the table is copied. */
#ifndef PT_AGGREGATE_H
#define PT_AGGREGATE_H

#include <stdint.h>

#include "core/functable.h"
#include "core/profile.h"
#include "util/diag.h"

/* Compute the views of p at granularity g into out (initialized here; release it).
 * For an aggregate-only profile this copies the reader's aggregate, which exists only
 * at its own granularity (functions, or the one a fold was asked for). Returns 0 or -1 with d
 * filled. */
int pt_aggregate(const struct pt_profile *p, enum pt_granularity g, struct pt_agg *out,
		 struct pt_diag *d);
/* The same, computing only the views asked for: entries, flat and cum always; edges
 * with PT_AGG_EDGES, lines with PT_AGG_LINES (pt_aggregate asks for both). Views not
 * asked for are left empty, unless the profile is aggregate-only (then all are copied). */
enum { PT_AGG_EDGES = 1 << 0, PT_AGG_LINES = 1 << 1, PT_AGG_GRAPH = 1 << 2 };
int pt_aggregate_views(const struct pt_profile *p, enum pt_granularity g, unsigned views,
		       struct pt_agg *out, struct pt_diag *d);

/* 0 if p has stacks (any granularity); 1 if it has none and its table is at g (the
 * only granularity it has); else -1 with d filled ("this profile has no stacks (why),
 * so only function granularity is available": a reader's table and a merge's are by
 * function) */
int pt_aggregate_at(const struct pt_profile *p, enum pt_granularity g, struct pt_diag *d);

/* the entry frame fid folds into at a's granularity, made if absent (its flags gain
 * the frame's) */
uint32_t pt_agg_entry_for_frame(const struct pt_profile *p, struct pt_agg *a, uint32_t fid);
/* the same entry of a table already made, or UINT32_MAX if it has none */
uint32_t pt_agg_find_frame(const struct pt_profile *p, const struct pt_agg *a, uint32_t fid);

#endif
