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

/* entry index of the first entry whose function is `func`, or UINT32_MAX */
uint32_t pt_agg_find_func(const struct pt_agg *a, uint32_t func);

#endif
