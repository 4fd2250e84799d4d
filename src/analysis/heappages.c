/* heappages.c: a Ruby heap dump's objects on their heap pages, by address. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/heappages.h"
#include "util/sort.h"
#include "util/xalloc.h"

struct by_addr {
	uint64_t addr;
	uint32_t node, pad;
};

static int cmp_addr(const void *a, const void *b)
{
	const struct by_addr *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void pt_heap_pages(const struct pt_heapgraph *g, uint64_t page_size, uint64_t slot_size,
		   struct pt_heap_pages *p)
{
	size_t n = g->nnodes ? g->nnodes - 1 : 0, i, alloc = 0;
	struct by_addr *v = pt_xmalloc((n + 1) * sizeof(*v));

	memset(p, 0, sizeof(*p));
	p->page_size = page_size;
	p->slot_size = slot_size;
	p->slots = (page_size - 8) / slot_size;
	p->order = pt_xmalloc((n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		v[i].addr = g->rb_addr ? g->rb_addr[i + 1] : 0;
		v[i].node = (uint32_t)(i + 1);
		v[i].pad = 0;
	}
	pt_qsort(v, n, sizeof(*v), cmp_addr);
	for (i = 0; i < n; i++) {
		uint64_t base = v[i].addr & ~(page_size - 1);
		struct pt_heap_page *pg;
		p->order[i] = v[i].node;
		if (!p->n || p->v[p->n - 1].base != base) {
			PT_ALLOC_GROW(p->v, p->n + 1, alloc);
			pg = &p->v[p->n++];
			memset(pg, 0, sizeof(*pg));
			pg->base = base;
			pg->first = (uint32_t)i;
		}
		pg = &p->v[p->n - 1];
		pg->live++;
		if (g->rb_pinned && g->rb_pinned[v[i].node])
			pg->pinned++;
	}
	p->live = n;
	for (i = 0; i < p->n; i++)
		if ((uint64_t)p->v[i].live * 4 < p->slots)
			p->under25++;
	free(v);
}

void pt_heap_pages_release(struct pt_heap_pages *p)
{
	free(p->v);
	free(p->order);
	memset(p, 0, sizeof(*p));
}
