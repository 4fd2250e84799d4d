/* graph.c: one depth-first walk over the call tree builds the call graph (graph.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/graph.h"
#include "util/xalloc.h"

void pt_graph_init(struct pt_graph *g, uint32_t nvertices)
{
	memset(g, 0, sizeof(*g));
	g->nvertices = nvertices;
	g->flat = pt_xcalloc((size_t)nvertices + 1, sizeof(int64_t));
	g->cum = pt_xcalloc((size_t)nvertices + 1, sizeof(int64_t));
	g->seen = pt_xcalloc((size_t)nvertices + 1, 1);
	pt_map_init(&g->edge_index);
}

void pt_graph_release(struct pt_graph *g)
{
	free(g->flat);
	free(g->cum);
	free(g->seen);
	free(g->edges);
	pt_map_release(&g->edge_index);
	memset(g, 0, sizeof(*g));
}

#define NONE UINT32_MAX

/* one level of the walk: a node on the current path */
struct level {
	uint32_t node;
	uint32_t vertex;   /* NONE: left out */
	uint32_t caller;   /* the nearest kept vertex above, NONE at the top */
	uint32_t edge;	   /* caller -> vertex, NONE if none */
	int outer_vertex;  /* the rootmost occurrence of vertex on the path */
	int outer_edge;	   /* the same for the edge */
	int64_t inclusive; /* the subtree's value so far */
	int live;	   /* the subtree holds a sample with a nonzero value */
};

static uint32_t edge_of(struct pt_graph *g, uint32_t from, uint32_t to)
{
	uint32_t *slot = pt_map_put(&g->edge_index, (uint64_t)from << 32 | to);

	if (*slot == PT_MAP_NEW) {
		struct pt_graph_edge *e;
		PT_ALLOC_GROW(g->edges, (size_t)g->nedges + 1, g->edges_alloc);
		*slot = g->nedges;
		e = &g->edges[g->nedges++];
		memset(e, 0, sizeof(*e));
		e->from = from;
		e->to = to;
	}
	return *slot;
}

/* the nodes holding a sample row with a nonzero value of type t */
static uint8_t *live_nodes(const struct pt_profile *p, uint32_t t)
{
	uint8_t *live = pt_xcalloc((size_t)p->nnodes + 1, 1);
	uint32_t r;

	for (r = 0; r < p->nsamples; r++)
		if (p->sample_values[(size_t)r * p->ntypes + t])
			live[p->samples[r].node] = 1;
	return live;
}

/* leaving level l: its sums go to the vertex, the edge and the level above */
static void leave(struct pt_graph *g, const struct pt_profile *p, struct level *l, struct level *up,
		  uint32_t *vactive, uint32_t *eactive)
{
	if (l->vertex != NONE) {
		if (l->outer_vertex)
			g->cum[l->vertex] = pt_add(g->cum[l->vertex], l->inclusive);
		if (l->live)
			g->seen[l->vertex] = 1;
		vactive[l->vertex]--;
	}
	if (l->edge != NONE) {
		struct pt_graph_edge *e = &g->edges[l->edge];
		if (l->outer_edge && l->live) {
			e->live = 1;
			e->weight = pt_add(e->weight, l->inclusive);
			if (!(pt_frame_of(p, l->node)->flags & PT_FRAME_INLINED))
				e->not_inline = 1;
		}
		eactive[l->edge]--;
	}
	if (up) {
		up->inclusive = pt_add(up->inclusive, l->inclusive);
		up->live |= l->live;
	}
}

void pt_graph_build(struct pt_graph *g, const struct pt_profile *p, const uint32_t *vertex_of_node,
		    uint32_t t, const unsigned char *kept)
{
	uint8_t *live = live_nodes(p, t);
	uint32_t *vactive = pt_xcalloc((size_t)g->nvertices + 1, sizeof(uint32_t));
	uint32_t *eactive = NULL, n;
	size_t eactive_alloc = 0, depth = 0, alloc = 0;
	struct level *st = NULL;

	memset(g->flat, 0, (size_t)g->nvertices * sizeof(int64_t));
	memset(g->cum, 0, (size_t)g->nvertices * sizeof(int64_t));
	memset(g->seen, 0, g->nvertices);
	pt_map_release(&g->edge_index);
	pt_map_init(&g->edge_index);
	g->nedges = 0;

	for (n = p->nodes[0].first_child; n;) {
		/* the nearest kept vertex above: the parent's, or its caller's */
		uint32_t v = vertex_of_node[n], caller = depth ? st[depth - 1].caller : NONE;
		int64_t self = p->node_self[(size_t)n * p->ntypes + t];
		struct level *l;

		/* enter n */
		PT_ALLOC_GROW(st, depth + 1, alloc);
		l = &st[depth];
		l->node = n;
		l->vertex = kept && !kept[v] ? NONE : v;
		l->edge = NONE;
		l->outer_vertex = l->outer_edge = 0;
		l->inclusive = self;
		l->live = live[n];
		if (l->vertex != NONE) {
			/* a sample here whose leaf is kept: flat (a left-out leaf adds to none) */
			g->flat[v] = pt_add(g->flat[v], self);
			l->outer_vertex = !vactive[v]++;
			if (caller != NONE && caller != v) {
				l->edge = edge_of(g, caller, v);
				PT_ALLOC_GROW(eactive, (size_t)g->nedges, eactive_alloc);
				if (l->edge + 1 == g->nedges)
					eactive[l->edge] = 0;
				l->outer_edge = !eactive[l->edge]++;
			}
		}
		/* for the children: this vertex, or (left out: the path closes over it)
		 * the one above */
		l->caller = l->vertex != NONE ? l->vertex : caller;
		depth++;
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		/* leave n and every ancestor whose children are all done */
		n = 0;
		while (depth) {
			struct level *lv = &st[depth - 1];
			uint32_t m = lv->node;
			leave(g, p, lv, depth >= 2 ? &st[depth - 2] : NULL, vactive, eactive);
			depth--;
			if (p->nodes[m].next_sibling) {
				n = p->nodes[m].next_sibling;
				break;
			}
		}
	}
	free(st);
	free(vactive);
	free(eactive);
	free(live);
}
