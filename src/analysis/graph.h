/* graph.h: the call graph as pprof's graph package builds it, the one source of caller ->
 * callee edges for top --style pprof, tree, dot and callgrind (tree's is made in the
 * walk that makes its table, pt_aggregate_graph). Every call-tree node maps to a vertex
 * through its frame (a function name for pprof's layout, an entry of the table at the
 * chosen granularity for tree and dot, a function for callgrind: any mapping the caller
 * chooses), and the graph holds each vertex's flat and cum value and the caller ->
 * callee edges between vertices, for nt sample types from t, all counted once per stack
 * however often a vertex or an edge recurs on it. The cost is the tree's size, not the
 * samples times their depth.
 *
 * pprof's rules, which the reports that print its layout need: a vertex left out
 * (`kept`) closes the path over itself, so its caller calls its callee (a residual edge
 * when no occurrence of it joins a node to its parent); an edge from a vertex to itself
 * is no edge unless PT_GRAPH_SELF_EDGES; a sample whose leaf was left out adds to no flat
 * value (pprof's residual); an edge is "not inline" when its callee's frame at the
 * rootmost occurrence on some stack is not an inlined frame; and only samples with a
 * nonzero value of type t make vertices `seen` and edges `live` at all. These rules
 * also make the graph of the distinct stacks a tree was not built for (top --style
 * pprof: pt_stacks_graph, analysis/stacks.h); a change to one is a change to both.
 *
 * Callgrind's rules, asked for by options of the same build: an edge may start at a
 * finer vertex than its caller's own (`caller`, callgrind's (function, line) positions:
 * the call site), and with PT_GRAPH_ROOTMOST an edge is charged at each rootmost
 * occurrence of its callee on a path, whoever calls it there, rather than once per edge
 * and stack: so a vertex's incoming edges add up to its cum, which kcachegrind shows as
 * its inclusive cost (on a;b;a the once-per-stack graph has b -> a, this has not). */
#ifndef PT_GRAPH_H
#define PT_GRAPH_H

#include <stdint.h>

#include "analysis/aggregate.h"
#include "core/profile.h"
#include "util/sort.h"

struct pt_graph_edge {
	uint32_t from, to;  /* caller (see pt_graph_opts.caller) and callee vertices */
	uint32_t calls;	    /* the call-tree nodes charged to it (0 from a table) */
	uint8_t live;	    /* a sample with a nonzero value crossed it */
	uint8_t not_inline; /* see above */
	uint8_t residual;   /* every occurrence skips left-out vertices */
	int64_t weight;	    /* the value of type t */
};

struct pt_graph {
	uint32_t nvertices;
	uint32_t nt;	     /* values per vertex and edge: types t .. t + nt - 1 */
	int64_t *flat, *cum; /* nt per vertex */
	uint8_t *seen;	     /* a sample with a nonzero value reached the vertex */
	/* in the order a depth-first walk of the tree first meets them, or by (from, to)
	 * with PT_GRAPH_SORTED */
	struct pt_graph_edge *edges;
	int64_t *values; /* nt per edge when nt is not 1 (else NULL: weight is the value) */
	uint32_t nedges;
};

/* a graph of nvertices vertices and one type, empty */
void pt_graph_init(struct pt_graph *g, uint32_t nvertices);
void pt_graph_release(struct pt_graph *g);

enum {
	/* keep the edges from a vertex to itself (recursion), as the aggregate's edges do */
	PT_GRAPH_SELF_EDGES = 1 << 0,
	/* callgrind's charge (above): an edge at each rootmost occurrence of its callee,
	 * and a node at the root called from frame 0's caller vertex (a synthetic caller) */
	PT_GRAPH_ROOTMOST = 1 << 1,
	/* edges in (from, to) order, not in the order the walk first meets them */
	PT_GRAPH_SORTED = 1 << 2,
};

struct pt_graph_opts {
	const uint32_t *vertex; /* per frame: its vertex, below the graph's nvertices */
	/* per frame: the vertex an edge from its nodes starts at, below ncallers (NULL:
	 * vertex); its own vertex still decides left-out vertices and self edges */
	const uint32_t *caller;
	uint32_t ncallers;
	uint32_t t, nt;		   /* the sample types: t .. t + nt - 1 (nt may be 0) */
	const unsigned char *kept; /* per vertex: stays in the graph (NULL: every one) */
	unsigned flags;		   /* PT_GRAPH_* */
};

/* (Re)build g from p's tree as o says. The mappings are read only for frames on some
 * node (and frame 0 with PT_GRAPH_ROOTMOST). */
void pt_graph_build(struct pt_graph *g, const struct pt_profile *p, const struct pt_graph_opts *o);

/* (Re)build g for types t .. t + nt - 1 from a table, whose entries are the vertices (g
 * has a->nentries) and whose edges are the graph's, with no calls (a walk of the tree
 * counts them once per stack; the reader of an aggregate-only profile, every
 * occurrence); only edges between kept entries (kept NULL: all) are taken, in the
 * table's order. */
void pt_graph_from_agg(struct pt_graph *g, const struct pt_agg *a, uint32_t t, uint32_t nt,
		       const unsigned char *kept);

/* The graph of p over the entries of its table a (a vertex per entry, g initialized
 * here), types t .. t + nt - 1, the same whether p has stacks or not: from the call
 * tree when it has (pt_graph_build with kept and flags), else from the table its reader
 * or a fold made (pt_graph_from_agg). */
void pt_graph_of_table(struct pt_graph *g, const struct pt_profile *p, const struct pt_agg *a,
		       uint32_t t, uint32_t nt, const unsigned char *kept, unsigned flags);

/* the nt values of edge i */
static inline const int64_t *pt_graph_values(const struct pt_graph *g, uint32_t i)
{
	return g->nt == 1 ? &g->edges[i].weight : g->values + (size_t)i * g->nt;
}

/* pt_aggregate_views with the edges, and with them the call graph of sample type t
 * whose vertices are the table's entries and whose edges are the table's, in their
 * order, with their values of type t: read from the table that one walk made, not from
 * a walk of its own, except when some frame is inlined: then a walk of the graph's
 * own marks the inlined calls (not_inline). graph is initialized here (the caller
 * releases it, also after a failure). */
int pt_aggregate_graph(const struct pt_profile *p, enum pt_granularity g, unsigned views,
		       uint32_t t, struct pt_agg *out, struct pt_graph *graph, struct pt_diag *d);

/* each frame's vertex: its entry in a, a table of p at any granularity (UINT32_MAX for
 * a frame without one) */
uint32_t *pt_graph_entry_vertices(const struct pt_profile *p, const struct pt_agg *a);

/* whether some call of p can be marked inline: p has stacks (a table does not say
 * which calls were inlined) and an inlined frame */
int pt_graph_has_inline(const struct pt_profile *p);

/* pprof's inline mark of every function name of p's tree for type t, from a graph whose
 * vertices are the names: an array of p->strings.n + 1 bytes, 1 "(inline)", 2
 * "(partial-inline)" (pt_inline_mark), all 0 when no frame is inlined. The caller frees. */
unsigned char *pt_graph_name_marks(const struct pt_profile *p, uint32_t t);

/* The vertices pprof's graph view shows (dot's --node-fraction and --nodecount, and the
 * html report's graph, one rule): the entries of a with a value of type t whose |cum|
 * is at least node_fraction of |total|, heaviest first (cum, then flat, then name), at
 * most nodecount of them (0: all). order holds the kept entries in that order, kept[]
 * marks them (a->nentries + 1 bytes); the caller frees both. */
struct pt_graph_shown {
	uint32_t *order, nkept;
	unsigned char *kept;
	uint32_t nentries; /* entries with a value */
	uint32_t dropped;  /* of those, cum below the cutoff */
	int64_t node_cut;  /* |total| * node_fraction */
};
void pt_graph_keep(const struct pt_profile *p, const struct pt_agg *a, uint32_t t, long nodecount,
		   double node_fraction, struct pt_graph_shown *s);

#endif
