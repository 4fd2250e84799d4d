/* aggregate.h: derived views of a profile, computed from the call tree:
 *  - entries: one per function (or file, line, address: the granularity) with flat and
 *    cumulative values, where cum counts an entry once per stack however often it recurs;
 *  - edges: caller -> callee entry pairs, also counted once per stack;
 *  - lines: (entry, source line) with self and once-per-stack cumulative values.
 * Every array holds ntypes values per row, in the same order as the profile's types.
 *
 * Aggregate-only readers (stackprof without raw) fill a struct pt_agg directly with the
 * builder functions and hang it on the profile; their edges count every occurrence
 * (edges_per_occurrence = 1), which reports must say. */
#ifndef PT_AGGREGATE_H
#define PT_AGGREGATE_H

#include <stdint.h>

#include "util/diag.h"
#include "util/map.h"
#include "core/profile.h"

enum pt_granularity {
	PT_GRAN_FUNCTIONS,
	PT_GRAN_FILES,
	PT_GRAN_LINES,
	PT_GRAN_ADDRESSES,
};

struct pt_agg_entry {
	uint32_t name;	/* string id of the profile */
	uint32_t file;	/* string id, 0 if unknown */
	int64_t line;	/* function start line (functions), the line (lines), else 0 */
	uint64_t addr;	/* addresses granularity only */
	uint32_t func;	/* a function id of the profile, 0 for files */
	uint32_t flags; /* union of the frame flags folded into this entry */
};

struct pt_agg_edge {
	uint32_t caller, callee; /* entry indices */
};

struct pt_agg_line {
	uint32_t entry;
	uint32_t pad;
	int64_t line;
};

struct pt_agg {
	uint32_t ntypes;
	enum pt_granularity gran;
	int edges_per_occurrence;

	struct pt_agg_entry *entries;
	uint32_t nentries;
	size_t entries_alloc;
	int64_t *flat, *cum; /* nentries * ntypes */

	struct pt_agg_edge *edges;
	uint32_t nedges;
	size_t edges_alloc;
	int64_t *edge_value; /* nedges * ntypes */

	struct pt_agg_line *lines;
	uint32_t nlines;
	size_t lines_alloc;
	int64_t *line_self, *line_cum; /* nlines * ntypes */

	int64_t *total; /* ntypes */

	struct pt_map entry_index, edge_index, line_index;
};

void pt_agg_init(struct pt_agg *a, uint32_t ntypes, enum pt_granularity g);
void pt_agg_release(struct pt_agg *a);
/* grow every value array by one type (values 0) */
void pt_agg_add_type(struct pt_agg *a);

/* builders: find or add; new rows start at 0 */
uint32_t pt_agg_entry(struct pt_agg *a, uint64_t key, const struct pt_agg_entry *proto);
uint32_t pt_agg_edge(struct pt_agg *a, uint32_t caller, uint32_t callee);
uint32_t pt_agg_line(struct pt_agg *a, uint32_t entry, int64_t line);

/* Compute the views of p at granularity g into out (initialized here; release it).
 * For an aggregate-only profile this copies the reader's aggregate, which exists only
 * at its own granularity (functions, or the one a fold was asked for). Returns 0 or -1 with d
 * filled. */
int pt_aggregate(const struct pt_profile *p, enum pt_granularity g, struct pt_agg *out,
		 struct pt_diag *d);
/* The same, computing only the views asked for: entries, flat and cum always; edges
 * with PT_AGG_EDGES, lines with PT_AGG_LINES (pt_aggregate asks for both). Views not
 * asked for are left empty, unless the profile is aggregate-only (then all are copied). */
enum { PT_AGG_EDGES = 1 << 0, PT_AGG_LINES = 1 << 1 };
int pt_aggregate_views(const struct pt_profile *p, enum pt_granularity g, unsigned views,
		       struct pt_agg *out, struct pt_diag *d);

/* the entry frame fid folds into at a's granularity, made if absent (its flags gain
 * the frame's) */
uint32_t pt_agg_entry_for_frame(const struct pt_profile *p, struct pt_agg *a, uint32_t fid);

/* entry index of the first entry whose function is `func`, or UINT32_MAX */
uint32_t pt_agg_find_func(const struct pt_agg *a, uint32_t func);

#endif
