/* heapleak.c: the leak verdict over a series of heap snapshots: each object's run of
 * snapshots it has been alive in, carried from one snapshot to the next. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/heapleak.h"
#include "util/xalloc.h"

void pt_heap_series_init(struct pt_heap_series *s)
{
	memset(s, 0, sizeof(*s));
	pt_map_init(&s->prev);
	pt_arena_init(&s->arena);
	pt_intern_init(&s->types, &s->arena);
}

void pt_heap_series_release(struct pt_heap_series *s)
{
	pt_map_release(&s->prev);
	pt_intern_release(&s->types);
	pt_arena_release(&s->arena);
	memset(s, 0, sizeof(*s));
}

int pt_heap_series_add(struct pt_heap_series *s, const struct pt_heapgraph *g, uint8_t *leaked)
{
	struct pt_map cur;
	uint32_t *tid = NULL, i, k = s->count;
	int ruby = g->rb_addr != NULL;

	if ((k && ruby != s->ruby) || k >= PT_HEAP_SERIES_MAX)
		return -1;
	s->ruby = ruby;
	if (ruby) { /* the graph's type indexes as ids of the series */
		tid = pt_xmalloc(((size_t)g->nnode_types + 1) * sizeof(uint32_t));
		for (i = 0; i < g->nnode_types; i++) {
			/* past 2^23 types (a crafted dump) the rest share one id */
			tid[i] = pt_intern(&s->types, g->node_types[i], strlen(g->node_types[i]));
			if (tid[i] > 0x7fffff)
				tid[i] = 0x7fffff;
		}
	}
	pt_map_init(&cur);
	if (leaked)
		memset(leaked, 0, g->nnodes);
	for (i = 1; i < g->nnodes; i++) { /* node 0 is the synthetic root */
		uint64_t key = ruby ? g->rb_addr[i] : pt_heap_id(g, i);
		uint32_t type = ruby ? tid[g->rb_type[i]] : 0, was = pt_map_get(&s->prev, key);
		uint32_t start = was != UINT32_MAX && was >> 8 == type ? (was & 0xff) : k;
		uint32_t *slot = pt_map_put(&cur, key);
		if (*slot != PT_MAP_NEW)
			continue; /* an id twice in one snapshot: its first node counts */
		*slot = type << 8 | start;
		if (leaked && start > 0 && start < k)
			leaked[i] = 1;
	}
	pt_map_release(&s->prev);
	s->prev = cur;
	s->count++;
	free(tid);
	return 0;
}
