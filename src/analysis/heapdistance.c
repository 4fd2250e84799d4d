/* heapdistance.c: DevTools' breadth-first distances in a heap snapshot (see
 * heapdistance.h), the filter of JSHeapSnapshot.calculateDistances included. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/heapdistance.h"
#include "analysis/heapowner.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/xalloc.h"

enum { UNPARSED = UINT32_MAX, NOT_WEAKMAP = UINT32_MAX - 1 };

struct reach {
	const struct pt_heapgraph *g;
	uint32_t *via_edge, *via_node, *queue;
	size_t head, tail;
	uint8_t *seen;
	/* per string id: the WeakMap entry its edge name names (the part after the
	 * number, interned), NOT_WEAKMAP, or UNPARSED */
	uint32_t *entry;
	uint8_t *pending; /* per entry: one of its two edges was met first and not taken */
	size_t npending;
	struct pt_intern parts;
	struct pt_arena arena;
};

/* JavaScript's parseInt(s, 10) >= 0 for s of n bytes: the leading number after blanks,
 * saturated; -1 for NaN (no digit) or a negative number */
static int64_t parse_int(const char *s, size_t n)
{
	size_t i = 0;
	int64_t v = 0;
	int neg = 0;

	while (i < n && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')))
		i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i >= n || s[i] < '0' || s[i] > '9')
		return -1;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v > (INT64_MAX - 9) / 10 ? INT64_MAX : v * 10 + (s[i] - '0');
	return neg && v ? -1 : v;
}

/* the WeakMap entry named by string id nm, or NOT_WEAKMAP; each name parsed once */
static uint32_t weakmap_entry(struct reach *r, uint32_t nm)
{
	const struct pt_heapgraph *g = r->g;
	const char *s;
	size_t n, part;
	uint64_t table;

	if (!r->entry) {
		r->entry = pt_xmalloc(((size_t)g->nstrings + 1) * sizeof(uint32_t));
		memset(r->entry, 0xff, ((size_t)g->nstrings + 1) * sizeof(uint32_t));
	}
	if (r->entry[nm] != UNPARSED)
		return r->entry[nm];
	s = pt_heap_str(g, nm);
	n = pt_heap_str_len(g, nm);
	part = pt_heap_weakmap_name(s, n, &table);
	r->entry[nm] = part ? pt_intern(&r->parts, s + part, n - part) : NOT_WEAKMAP;
	return r->entry[nm];
}

/* DevTools' filter: whether the search takes edge e to a node not yet reached; kind:
 * 1 the edge leaves a hidden "system / NativeContext", 2 a "(map descriptors)"
 * array, else 0 */
static int take(struct reach *r, size_t e, int kind)
{
	const struct pt_heapgraph *g = r->g;
	uint32_t nm = pt_heap_edge_name(g, e), c;
	int named = pt_heap_edge_named(g, e);
	int64_t i;

	if (kind == 1 && named && !strcmp(pt_heap_str(g, nm), "sloppy_function_map"))
		return 0;
	if (kind == 2) {
		/* a descriptor array: [0] count, [1] enum cache, then per descriptor i its
		 * key [3i + 2], details [3i + 3] and descriptor [3i + 4]; the descriptor
		 * slots (index % 3 == 1) are left out */
		i = named ? parse_int(pt_heap_str(g, nm), pt_heap_str_len(g, nm)) : nm;
		return i < 2 || i % 3 != 1;
	}
	if (pt_heap_edge_type(g, e) != g->et_internal || !named)
		return 1;
	c = weakmap_entry(r, nm);
	if (c == NOT_WEAKMAP)
		return 1;
	if (c >= r->npending) {
		size_t was = r->npending;
		PT_ALLOC_GROW(r->pending, (size_t)c + 1, r->npending);
		memset(r->pending + was, 0, r->npending - was);
	}
	r->pending[c] ^= 1;
	return !r->pending[c];
}

static int node_kind(const struct pt_heapgraph *g, uint32_t u)
{
	uint32_t t = pt_heap_type(g, u);

	if (t == g->t_hidden && !strcmp(pt_heap_name(g, u), "system / NativeContext"))
		return 1;
	if (t == g->t_array && !strcmp(pt_heap_name(g, u), "(map descriptors)"))
		return 2;
	return 0;
}

static void visit(struct reach *r, uint32_t w, size_t e, uint32_t from)
{
	r->seen[w] = 1;
	r->via_edge[w] = (uint32_t)e;
	r->via_node[w] = from;
	r->queue[r->tail++] = w;
}

/* the search from the nodes queued */
static void bfs(struct reach *r)
{
	const struct pt_heapgraph *g = r->g;

	while (r->head < r->tail) {
		uint32_t u = r->queue[r->head++];
		int kind = node_kind(g, u);
		size_t e;
		for (e = g->first_edge[u]; e < g->first_edge[u + 1]; e++) {
			uint32_t w = pt_heap_edge_to(g, e);
			if (pt_heap_edge_type(g, e) == g->et_weak || r->seen[w] ||
			    !take(r, e, kind))
				continue;
			visit(r, w, e, u);
		}
	}
}

void pt_heap_reach(const struct pt_heapgraph *g, uint32_t *via_edge, uint32_t *via_node)
{
	struct reach r;
	size_t n = g->nnodes, e;

	memset(via_edge, 0xff, n * sizeof(uint32_t));
	memset(via_node, 0xff, n * sizeof(uint32_t));
	if (!n)
		return;
	memset(&r, 0, sizeof(r));
	r.g = g;
	r.via_edge = via_edge;
	r.via_node = via_node;
	/* each node is queued once, the root at most twice (reached, then the start) */
	r.queue = pt_xmalloc((n + 1) * sizeof(uint32_t));
	r.seen = pt_xcalloc(n, 1);
	pt_arena_init(&r.arena);
	pt_intern_init(&r.parts, &r.arena);
	/* the user roots first, one step from the root; then the root, for the rest */
	for (e = g->first_edge[0]; e < g->first_edge[1]; e++) {
		uint32_t w = pt_heap_edge_to(g, e);
		if (pt_heap_user_root(g, w) && !r.seen[w])
			visit(&r, w, e, 0);
	}
	bfs(&r);
	via_edge[0] = via_node[0] = PT_HEAP_NONE;
	r.seen[0] = 1;
	r.queue[r.tail++] = 0;
	bfs(&r);
	free(r.queue);
	free(r.seen);
	free(r.entry);
	free(r.pending);
	pt_intern_release(&r.parts);
	pt_arena_release(&r.arena);
}
