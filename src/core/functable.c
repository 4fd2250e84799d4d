/* functable.c: the per-function table's rows and their growth (functable.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/functable.h"
#include "util/xalloc.h"

void pt_agg_init(struct pt_agg *a, uint32_t ntypes, enum pt_granularity g)
{
	memset(a, 0, sizeof(*a));
	a->ntypes = ntypes;
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

static int64_t *widen(int64_t *v, size_t rows, uint32_t oldw, uint32_t neww)
{
	int64_t *nv = pt_xcalloc(rows ? rows : 1, (size_t)neww * sizeof(int64_t));
	size_t i;
	if (v)
		for (i = 0; i < rows; i++)
			memcpy(nv + i * neww, v + i * oldw, oldw * sizeof(int64_t));
	free(v);
	return nv;
}

void pt_agg_add_type(struct pt_agg *a)
{
	uint32_t w = a->ntypes;
	a->flat = widen(a->flat, a->entries_alloc, w, w + 1);
	a->cum = widen(a->cum, a->entries_alloc, w, w + 1);
	a->edge_value = widen(a->edge_value, a->edges_alloc, w, w + 1);
	a->line_self = widen(a->line_self, a->lines_alloc, w, w + 1);
	a->line_cum = widen(a->line_cum, a->lines_alloc, w, w + 1);
	a->total = widen(a->total, 1, w, w + 1);
	a->ntypes = w + 1;
}

/* grow a values array in step with its rows array */
static int64_t *grow_values(int64_t *v, size_t old_rows, size_t new_rows, uint32_t w)
{
	v = pt_xreallocarray(v, new_rows ? new_rows : 1, (w ? w : 1) * sizeof(int64_t));
	memset(v + old_rows * w, 0, (new_rows - old_rows) * w * sizeof(int64_t));
	return v;
}

uint32_t pt_agg_entry(struct pt_agg *a, uint64_t key, const struct pt_agg_entry *proto)
{
	uint32_t *slot = pt_map_put(&a->entry_index, key);
	uint32_t id;

	if (*slot != PT_MAP_NEW)
		return *slot;
	id = a->nentries;
	if ((size_t)id + 1 > a->entries_alloc) {
		size_t old = a->entries_alloc;
		PT_ALLOC_GROW(a->entries, (size_t)id + 1, a->entries_alloc);
		a->flat = grow_values(a->flat, old, a->entries_alloc, a->ntypes);
		a->cum = grow_values(a->cum, old, a->entries_alloc, a->ntypes);
	}
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
		size_t old = a->edges_alloc;
		PT_ALLOC_GROW(a->edges, (size_t)id + 1, a->edges_alloc);
		a->edge_value = grow_values(a->edge_value, old, a->edges_alloc, a->ntypes);
	}
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
		size_t old = a->lines_alloc;
		PT_ALLOC_GROW(a->lines, (size_t)id + 1, a->lines_alloc);
		a->line_self = grow_values(a->line_self, old, a->lines_alloc, a->ntypes);
		a->line_cum = grow_values(a->line_cum, old, a->lines_alloc, a->ntypes);
	}
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
