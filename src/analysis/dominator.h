/* dominator.h: the dominator tree of a heap snapshot and its retained sizes, by Chrome
 * DevTools' rules: the graph from the synthetic root, without weak edges, edges from a
 * node to itself, shortcut edges but the root's, and edges from objects outside the
 * page (not reachable from the root's shortcuts, i.e. the globals) to objects in it.
 * Nodes left unreached are reached from the root through those with no retainer
 * followed, then one by one (a clique keeps the dominators it gives itself), as DevTools
 * does. Iterative throughout (Lengauer and Tarjan, path compression with an explicit
 * stack: near-linear where the iteration of Cooper, Harvey and Kennedy goes quadratic,
 * as on a long list whose nodes all share one map), so million-node chains take no
 * stack. */
#ifndef PT_DOMINATOR_H
#define PT_DOMINATOR_H

#include <stdint.h>

#include "core/heapgraph.h"

struct pt_heap_dom {
	uint32_t *idom;		   /* per node: its immediate dominator (the root's: itself) */
	uint64_t *retained;	   /* per node: its retained size */
	uint32_t *first_dominated; /* nnodes + 1 offsets into dominated */
	uint32_t *dominated;	   /* the nodes each node dominates, grouped by dominator */
	/* the next four only while the tree is made (NULL once it is) */
	uint32_t *first_retainer; /* nnodes + 1 offsets into retainer_node */
	uint32_t *retainer_edge;  /* edges into each node, grouped by target (NULL: plain) */
	uint32_t *retainer_node;  /* the node each of those edges leaves */
	uint64_t unreachable;	  /* nodes reached only by the fallbacks above */
	uint8_t *table_edge;	  /* bit e: edge e is a WeakMap table's to a value, left out;
				   * NULL for a plain graph (only edges to itself left out) */
};

/* Fill dom for g. Owned arrays; free with pt_heap_dom_release. */
void pt_heap_dominators(const struct pt_heapgraph *g, struct pt_heap_dom *dom);
void pt_heap_dom_release(struct pt_heap_dom *dom);

#endif
