/* graph.h: the call graph as pprof's graph package builds it, what top --style pprof,
 * tree and dot read caller -> callee edges from (tree's made in the walk that makes its
 * table, pt_aggregate_graph), and the same graph as callgrind charges calls
 * (pt_graph_calls, at the end). Every
 * call-tree node maps to a vertex through its frame (a function name for pprof's layout, an entry
 * of the table at the chosen granularity for tree and dot: any mapping the caller chooses), and the
 * graph holds, for one sample type, each vertex's flat and cum value and the caller -> callee edges
 * between vertices, all counted once per stack however often a vertex or an edge recurs
 * on it. The cost is the tree's size, not the samples times their depth.
 *
 * pprof's rules, which the reports that print its layout need: a vertex left out
 * (`kept`) closes the path over itself, so its caller calls its callee (a residual edge
 * when no occurrence of it joins a node to its parent); an edge from a vertex to itself
 * is no edge unless PT_GRAPH_SELF_EDGES; a sample whose leaf was left out adds to no flat
 * value (pprof's residual); an edge is "not inline" when its callee's frame at the
 * rootmost occurrence on some stack is not an inlined frame; and only samples with a
 * nonzero value make vertices `seen` and edges `live` at all. */
#ifndef PT_GRAPH_H
#define PT_GRAPH_H

#include <stdint.h>

#include "analysis/aggregate.h"
#include "core/profile.h"
#include "util/sort.h"

struct pt_graph_edge {
	uint32_t from, to; /* vertices */
	int live;	   /* a sample with a nonzero value crossed it */
	int not_inline;	   /* see above */
	int residual;	   /* every occurrence skips left-out vertices */
	int64_t weight;
};

struct pt_graph {
	uint32_t nvertices;
	int64_t *flat, *cum;
	uint8_t *seen; /* a sample with a nonzero value reached the vertex */
	/* in the order a depth-first walk of the tree first meets them */
	struct pt_graph_edge *edges;
	uint32_t nedges;
};

void pt_graph_init(struct pt_graph *g, uint32_t nvertices);
void pt_graph_release(struct pt_graph *g);

/* keep the edges from a vertex to itself (recursion), as the aggregate's edges do */
enum { PT_GRAPH_SELF_EDGES = 1 << 0 };

/* (Re)build g from p's tree for sample type t. vertex_of_frame[f] is the vertex of the
 * nodes of frame f (below g's nvertices; read only for frames on some node); kept, if
 * not NULL, says which vertices stay in the graph; flags are PT_GRAPH_*. */
void pt_graph_build(struct pt_graph *g, const struct pt_profile *p, const uint32_t *vertex_of_frame,
		    uint32_t t, const unsigned char *kept, unsigned flags);

/* (Re)build g for sample type t from an aggregate-only profile's table, whose entries
 * are the vertices (g has a->nentries) and whose edges, from its reader, count every
 * occurrence; only edges between kept entries (kept NULL: all) are taken. */
void pt_graph_from_agg(struct pt_graph *g, const struct pt_agg *a, uint32_t t,
		       const unsigned char *kept);

/* each frame's vertex: its entry in a, a table of p at any granularity (UINT32_MAX for
 * a frame without one) */
uint32_t *pt_graph_entry_vertices(const struct pt_profile *p, const struct pt_agg *a);

/* pprof's inline mark of every function name of p's tree for type t, from a graph whose
 * vertices are the names: an array of p->strings.n + 1 bytes, 1 "(inline)", 2
 * "(partial-inline)" (pt_inline_mark), all 0 when no frame is inlined. The caller frees. */
unsigned char *pt_graph_name_marks(const struct pt_profile *p, uint32_t t);

/* ---- the calls as callgrind charges them ----
 *
 * The same graph in callgrind's terms (pt_graph_calls_build): callers are positions,
 * (function, line) pairs of the frames, callees are functions, and every value has the
 * types t0 .. t0 + nt - 1. A call is charged at each rootmost occurrence of its callee
 * function on a path, whoever calls it there, with that node's inclusive value: so a
 * function's incoming calls add up to its cum, which kcachegrind shows as its inclusive
 * cost (pt_graph counts once per edge instead: on a;b;a it has b -> a, which this does
 * not). Each call edge also counts the occurrences it stands for (callgrind's calls=).
 *
 * Positions are numbered in (function, line as a signed 32-bit number) order, the line
 * taken in its low 32 bits as callgrind keys it; position 0 is (0, 0), the synthetic
 * caller of root frames. The edges are runs of records sorted by (caller position,
 * callee), each run in depth-first order, so sums saturate where a walk adding into a
 * map would. */
struct pt_graph_calls {
	uint32_t t0, nt;
	uint32_t npos;
	uint32_t *fpos;	      /* per frame: its position */
	uint32_t *pos_func;   /* per position */
	int64_t *pos_line;    /* per position: the line of its first frame */
	uint32_t *self_frame; /* per position: its first frame with self cost, or UINT32_MAX */
	int64_t *self;	      /* nt per position: the self values of its nodes */
	int64_t *ncum;	      /* nt per node: inclusive values */
	/* records: key (position, callee), a = node, b = occurrences, x = their value if
	 * nt is 1 */
	struct pt_keyed *calls, *spare;
	size_t ncalls;
	unsigned cbits; /* the callee's bits of a key */
	/* every line fits 32 bits, so position order is line order; else two lines may
	 * share a position */
	int exact;
};

void pt_graph_calls_build(struct pt_graph_calls *c, const struct pt_profile *p, uint32_t t0,
			  uint32_t nt);
void pt_graph_calls_release(struct pt_graph_calls *c);

/* the caller position of the edge whose records start at index i */
static inline uint32_t pt_graph_calls_pos(const struct pt_graph_calls *c, size_t i)
{
	return (uint32_t)(c->calls[i].key >> c->cbits);
}

/* The edge whose records start at *i: its values into v (nt), its callee into *callee,
 * the node of its first record into *node; *i goes past it. Returns the occurrences it
 * stands for. */
uint64_t pt_graph_calls_next(const struct pt_graph_calls *c, size_t *i, int64_t *v,
			     uint32_t *callee, uint32_t *node);

#endif
