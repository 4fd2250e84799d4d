/* functable.h: the per-function table. One row (entry) per function, or per file, line
 * or address (the granularity), with flat and cumulative values; caller -> callee
 * edges; and (entry, source line) rows. Every array holds ntypes values per row, in the
 * order of the profile's sample types.
 *
 * It is part of the model: inputs that carry no stacks (stackprof without raw) fill one
 * with the builders below and hang it on the profile (p->agg); their edges count every
 * occurrence (edges_per_occurrence = 1), which reports must say. analysis/aggregate.h
 * computes the same table from a call tree, where cum, edges and lines count once per
 * stack. */
#ifndef PT_FUNCTABLE_H
#define PT_FUNCTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "util/map.h"

/* what one entry stands for */
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
	/* the arrays' row width: ntypes, except while a reader adds types among its rows
	 * (pt_agg_add_type widens by doubling); pt_agg_pack makes it ntypes again */
	uint32_t stride;
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
/* grow every value array by one type (values 0); rows use a->stride until
 * pt_agg_pack */
void pt_agg_add_type(struct pt_agg *a);
/* make the row width ntypes again (after a read: every reader of the table indexes
 * its rows by ntypes) */
void pt_agg_pack(struct pt_agg *a);

/* The row width for `need` values per row when rows are `have` wide: exactly `need`
 * while there are no rows; with rows, at least twice `have` (at most `cap`), so a
 * reader that meets its types one by one among its samples re-strides its rows a
 * logarithmic number of times, not once per type. */
static inline uint32_t pt_row_width(uint32_t have, uint32_t need, int rows, uint32_t cap)
{
	uint32_t w = rows && 2 * have > need ? 2 * have : need;
	return w > cap && need <= cap ? cap : w;
}
/* the `used` rows of v, oldw values each, in a new zeroed block of `rows` rows of neww
 * values (neww > oldw); v is freed */
int64_t *pt_rows_widen(int64_t *v, size_t rows, size_t used, uint32_t oldw, uint32_t neww);
/* re-stride `used` rows of v from oldw to neww values per row in place (neww < oldw)
 * and shrink the block to `alloc` rows */
int64_t *pt_rows_narrow(int64_t *v, size_t used, size_t alloc, uint32_t oldw, uint32_t neww);

/* builders: find or add; new rows start at 0 */
uint32_t pt_agg_entry(struct pt_agg *a, uint64_t key, const struct pt_agg_entry *proto);
uint32_t pt_agg_edge(struct pt_agg *a, uint32_t caller, uint32_t callee);
uint32_t pt_agg_line(struct pt_agg *a, uint32_t entry, int64_t line);

/* entry index of the first entry whose function is `func`, or UINT32_MAX */
uint32_t pt_agg_find_func(const struct pt_agg *a, uint32_t func);

#endif
