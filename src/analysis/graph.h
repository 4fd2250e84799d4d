/* graph.h: the call graph as pprof's graph package builds it. Every call-tree node maps
 * to a vertex (a function name for pprof's layout; any mapping the caller chooses),
 * and the graph holds, for one sample type, each vertex's flat and cum value and the
 * caller -> callee edges between vertices, all counted once per stack however often a
 * vertex or an edge recurs on it. One depth-first walk over the tree builds it: the
 * cost is the tree's size, not the samples times their depth.
 *
 * pprof's rules, which the reports that print its layout need: a vertex left out
 * (`kept`) closes the path over itself, so its caller calls its callee; an edge from a
 * vertex to itself is no edge; a sample whose leaf was left out adds to no flat value
 * (pprof's residual); an edge is "not inline" when its callee's frame at the rootmost
 * occurrence on some stack is not an inlined frame; and only samples with a nonzero
 * value make vertices `seen` and edges `live` at all. */
#ifndef PT_GRAPH_H
#define PT_GRAPH_H

#include <stdint.h>

#include "core/profile.h"
#include "util/map.h"

struct pt_graph_edge {
	uint32_t from, to; /* vertices */
	int live;	   /* a sample with a nonzero value crossed it */
	int not_inline;	   /* see above */
	int64_t weight;
};

struct pt_graph {
	uint32_t nvertices;
	int64_t *flat, *cum;
	uint8_t *seen; /* a sample with a nonzero value reached the vertex */
	struct pt_graph_edge *edges;
	uint32_t nedges;
	size_t edges_alloc;
	struct pt_map edge_index; /* from << 32 | to -> edge */
};

void pt_graph_init(struct pt_graph *g, uint32_t nvertices);
void pt_graph_release(struct pt_graph *g);

/* (Re)build g from p's tree for sample type t. vertex_of_node[n] is node n's vertex
 * (below g's nvertices; the root's is not read); kept, if not NULL, says which vertices
 * stay in the graph. */
void pt_graph_build(struct pt_graph *g, const struct pt_profile *p, const uint32_t *vertex_of_node,
		    uint32_t t, const unsigned char *kept);

#endif
