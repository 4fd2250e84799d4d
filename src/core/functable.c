/* functable.c: the per-function table's rows and their growth (functable.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/functable.h"
#include "core/profile.h"
#include "util/xalloc.h"

void pt_agg_init(struct pt_agg *a, uint32_t ntypes, enum pt_granularity g)
{
	memset(a, 0, sizeof(*a));
	a->ntypes = ntypes;
	a->stride = ntypes;
	a->gran = g;
	a->total = pt_xcalloc(ntypes ? ntypes : 1, sizeof(int64_t));
	pt_map_init(&a->entry_index);
	pt_map_init(&a->edge_index);
	pt_map_init(&a->line_index);
}

void pt_agg_release(struct pt_agg *a)
{
	free(a->entries);
	free(a->flat);
	free(a->cum);
	free(a->edges);
	free(a->edge_value);
	free(a->lines);
	free(a->line_self);
	free(a->line_cum);
	free(a->total);
	pt_map_release(&a->entry_index);
	pt_map_release(&a->edge_index);
	pt_map_release(&a->line_index);
	memset(a, 0, sizeof(*a));
}

int64_t *pt_rows_widen(int64_t *v, size_t rows, size_t used, uint32_t oldw, uint32_t neww)
{
	int64_t *nv = pt_xcalloc(rows ? rows : 1, (size_t)neww * sizeof(int64_t));
	size_t i;
	if (v && oldw)
		for (i = 0; i < used; i++)
			memcpy(nv + i * neww, v + i * oldw, oldw * sizeof(int64_t));
	free(v);
	return nv;
}

int64_t *pt_rows_narrow(int64_t *v, size_t used, size_t alloc, uint32_t oldw, uint32_t neww)
{
	size_t i;

	if (!v)
		return v;
	/* row i moves down to i * neww <= i * oldw: ascending order never overwrites a
	 * row not yet moved */
	for (i = 0; i < used; i++)
		memmove(v + i * neww, v + i * oldw, (size_t)neww * sizeof(int64_t));
	return pt_xreallocarray(v, alloc ? alloc : 1, (neww ? neww : 1) * sizeof(int64_t));
}

/* every value array of the table re-strided from a->stride to nw values per row */
static void restride_all(struct pt_agg *a, uint32_t nw)
{
	struct {
		int64_t **v;
		size_t used, alloc;
	} arr[] = {
		{&a->flat, a->nentries, a->entries_alloc},
		{&a->cum, a->nentries, a->entries_alloc},
		{&a->edge_value, a->nedges, a->edges_alloc},
		{&a->line_self, a->nlines, a->lines_alloc},
		{&a->line_cum, a->nlines, a->lines_alloc},
		{&a->total, 1, 1},
	};
	size_t k;

	for (k = 0; k < sizeof(arr) / sizeof(arr[0]); k++)
		*arr[k].v = nw > a->stride ? pt_rows_widen(*arr[k].v, arr[k].alloc, arr[k].used,
							   a->stride, nw)
					   : pt_rows_narrow(*arr[k].v, arr[k].used, arr[k].alloc,
							    a->stride, nw);
	a->stride = nw;
}

void pt_agg_add_type(struct pt_agg *a)
{
	if (a->ntypes + 1 > a->stride)
		restride_all(a, pt_row_width(a->stride, a->ntypes + 1,
					     a->nentries || a->nedges || a->nlines, PT_MAX_TYPES));
	a->ntypes++;
}

void pt_agg_pack(struct pt_agg *a)
{
	if (a->stride != a->ntypes)
		restride_all(a, a->ntypes);
}

/* grow a values array in step with its rows array; spare rows are left untouched
 * (new_row zeroes each as it is made), so unused capacity costs no page */
static int64_t *grow_values(int64_t *v, size_t new_rows, uint32_t w)
{
	return pt_xreallocarray(v, new_rows ? new_rows : 1, (w ? w : 1) * sizeof(int64_t));
}

static void new_row(int64_t *v, size_t row, uint32_t w)
{
	memset(v + row * w, 0, (size_t)w * sizeof(int64_t));
}

uint32_t pt_agg_entry(struct pt_agg *a, uint64_t key, const struct pt_agg_entry *proto)
{
	uint32_t *slot = pt_map_put(&a->entry_index, key);
	uint32_t id;

	if (*slot != PT_MAP_NEW)
		return *slot;
	id = a->nentries;
	if ((size_t)id + 1 > a->entries_alloc) {
		PT_ALLOC_GROW(a->entries, (size_t)id + 1, a->entries_alloc);
		a->flat = grow_values(a->flat, a->entries_alloc, a->stride);
		a->cum = grow_values(a->cum, a->entries_alloc, a->stride);
	}
	new_row(a->flat, id, a->stride);
	new_row(a->cum, id, a->stride);
	a->entries[id] = *proto;
	a->nentries++;
	*slot = id;
	return id;
}

uint32_t pt_agg_edge(struct pt_agg *a, uint32_t caller, uint32_t callee)
{
	uint32_t *slot = pt_map_put(&a->edge_index, (uint64_t)caller << 32 | callee);
	uint32_t id;

	if (*slot != PT_MAP_NEW)
		return *slot;
	id = a->nedges;
	if ((size_t)id + 1 > a->edges_alloc) {
		PT_ALLOC_GROW(a->edges, (size_t)id + 1, a->edges_alloc);
		a->edge_value = grow_values(a->edge_value, a->edges_alloc, a->stride);
	}
	new_row(a->edge_value, id, a->stride);
	a->edges[id].caller = caller;
	a->edges[id].callee = callee;
	a->nedges++;
	*slot = id;
	return id;
}

uint32_t pt_agg_line(struct pt_agg *a, uint32_t entry, int64_t line)
{
	uint64_t key = (uint64_t)entry << 32 | ((uint64_t)line & 0xffffffffu);
	uint32_t *slot = pt_map_put(&a->line_index, key);
	uint32_t id;

	if (*slot != PT_MAP_NEW)
		return *slot;
	id = a->nlines;
	if ((size_t)id + 1 > a->lines_alloc) {
		PT_ALLOC_GROW(a->lines, (size_t)id + 1, a->lines_alloc);
		a->line_self = grow_values(a->line_self, a->lines_alloc, a->stride);
		a->line_cum = grow_values(a->line_cum, a->lines_alloc, a->stride);
	}
	new_row(a->line_self, id, a->stride);
	new_row(a->line_cum, id, a->stride);
	a->lines[id].entry = entry;
	a->lines[id].pad = 0;
	a->lines[id].line = line;
	a->nlines++;
	*slot = id;
	return id;
}

uint32_t pt_agg_find_func(const struct pt_agg *a, uint32_t func)
{
	uint32_t i;
	for (i = 0; i < a->nentries; i++)
		if (a->entries[i].func == func)
			return i;
	return UINT32_MAX;
}
