/* dominator.c: dominator tree and retained sizes of a heap snapshot, as Chrome DevTools'
 * heap snapshot worker computes them (see dominator.h for the edge rules). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/dominator.h"
#include "analysis/heapowner.h"
#include "util/xalloc.h"

enum { PAGE = 1, VISITED = 2 };

/* not a weak edge, nor a shortcut but the root's */
static int edge_essential(const struct pt_heapgraph *g, uint32_t from, size_t e)
{
	uint32_t t = pt_heap_edge_type(g, e);
	return t != g->et_weak && (t != g->et_shortcut || from == 0);
}

/* DevTools' computeIsEssentialEdge: edge_essential, less the WeakMap tables'
 * edges to their values, a node's edges to itself, and the edges from outside the page
 * into it (objects also held by the debugger or the embedder would otherwise lose their
 * page dominators). flags: mark_page's. */
static int essential(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
		     const uint8_t *flags, uint32_t from, size_t e)
{
	uint32_t to = pt_heap_edge_to(g, e);

	if (!dom->table_edge) /* a plain graph (plain_graph): only edges to itself are out */
		return to != from;
	if (!edge_essential(g, from, e) || (dom->table_edge[e / 8] & (1u << (e % 8))) || to == from)
		return 0;
	return from == 0 || !(flags[to] & PAGE) || (flags[from] & PAGE);
}

/* whether retainer r of node v is an essential edge into it */
static int retainer_essential(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			      const uint8_t *flags, uint32_t r, uint32_t v)
{
	if (!dom->table_edge)
		return dom->retainer_node[r] != v;
	return essential(g, dom, flags, dom->retainer_node[r], dom->retainer_edge[r]);
}

/* fill: scratch of n entries */
static void build_retainers(const struct pt_heapgraph *g, struct pt_heap_dom *dom, uint32_t *fill)
{
	size_t n = g->nnodes, e;
	uint32_t i;

	dom->first_retainer = pt_xcalloc(n + 1, sizeof(uint32_t));
	if (dom->table_edge) /* a plain graph needs only the retaining nodes */
		dom->retainer_edge = pt_xmalloc((g->nedges ? g->nedges : 1) * sizeof(uint32_t));
	dom->retainer_node = pt_xmalloc((g->nedges ? g->nedges : 1) * sizeof(uint32_t));
	for (e = 0; e < g->nedges; e++)
		dom->first_retainer[pt_heap_edge_to(g, e) + 1]++;
	for (i = 0; i < n; i++)
		dom->first_retainer[i + 1] += dom->first_retainer[i];
	memcpy(fill, dom->first_retainer, n * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		for (e = g->first_edge[i]; e < g->first_edge[i + 1]; e++) {
			uint32_t to = pt_heap_edge_to(g, e);
			if (dom->retainer_edge)
				dom->retainer_edge[fill[to]] = (uint32_t)e;
			dom->retainer_node[fill[to]++] = i;
		}
}

/* DevTools' page-owned objects: reachable without weak edges from the targets of the
 * root's shortcut edges (the global objects) and from "(Document DOM trees)" */
static int mark_page(const struct pt_heapgraph *g, uint8_t *flags, uint32_t *todo)
{
	size_t ntodo = 0, e;
	int any = 0;

	for (e = g->first_edge[0]; e < g->first_edge[1]; e++) {
		uint32_t t = pt_heap_edge_type(g, e), to = pt_heap_edge_to(g, e);
		if (t == g->et_element) {
			if (pt_heap_type(g, to) != g->t_synthetic ||
			    strcmp(pt_heap_name(g, to), "(Document DOM trees)"))
				continue;
		} else if (t != g->et_shortcut) {
			continue;
		}
		if (!(flags[to] & PAGE)) {
			flags[to] |= PAGE;
			todo[ntodo++] = to;
			any = 1;
		}
	}
	while (ntodo) {
		uint32_t v = todo[--ntodo];
		for (e = g->first_edge[v]; e < g->first_edge[v + 1]; e++) {
			uint32_t to = pt_heap_edge_to(g, e);
			if ((flags[to] & PAGE) || pt_heap_edge_type(g, e) == g->et_weak)
				continue;
			flags[to] |= PAGE;
			todo[ntodo++] = to;
		}
	}
	return any;
}

/* DevTools' hasOnlyWeakRetainers: no edge into v is essential */
static int only_weak_retainers(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			       const uint8_t *flags, uint32_t v)
{
	uint32_t r;
	for (r = dom->first_retainer[v]; r < dom->first_retainer[v + 1]; r++)
		if (retainer_essential(g, dom, flags, r, v))
			return 0;
	return 1;
}

/* Depth-first numbering (pre-order, 1-based) from the root with an explicit stack, over
 * the essential edges; nodes left over are then started from the root: first those
 * without an essential retainer (with what they reach), then the rest one by one (a
 * clique retained only by itself), as DevTools does. vertex[k] is the node numbered k,
 * num[v] its number, parent[v] the node it was reached from (the root for the starts).
 * stack and cur: scratch of n entries. */
static void number_nodes(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			 uint8_t *flags, uint32_t *vertex, uint32_t *num, uint32_t *parent,
			 uint32_t *stack, uint32_t *cur, uint64_t *unreached)
{
	uint32_t n = (uint32_t)g->nnodes, k = 0, i, round;

	for (round = 0; round < 3 && k < n; round++) {
		for (i = 0; i < n && k < n; i++) {
			int64_t top = 0;
			if (round == 0 ? i != 0 : (flags[i] & VISITED))
				continue;
			if (round == 1 && !only_weak_retainers(g, dom, flags, i))
				continue;
			if (round) {
				(*unreached)++;
				parent[i] = 0;
			}
			flags[i] |= VISITED;
			num[i] = ++k;
			vertex[k] = i;
			if (round == 2)
				continue;
			stack[0] = i;
			cur[0] = g->first_edge[i];
			while (top >= 0) {
				uint32_t v = stack[top], e = cur[top];
				if (e < g->first_edge[v + 1]) {
					uint32_t w = pt_heap_edge_to(g, e);
					cur[top]++;
					if ((flags[w] & VISITED) || !essential(g, dom, flags, v, e))
						continue;
					flags[w] |= VISITED;
					num[w] = ++k;
					vertex[k] = w;
					parent[w] = v;
					stack[++top] = w;
					cur[top] = g->first_edge[w];
				} else {
					top--;
				}
			}
		}
	}
}

/* Lengauer and Tarjan's dominators (the simple version: path compression only), with
 * numbers 1..n (0 = none) and every step iterative */
struct lt {
	uint32_t *semi, *label, *ancestor, *stack;
};

static uint32_t lt_eval(struct lt *t, uint32_t v0)
{
	uint32_t sp = 0, v = v0;
	if (!t->ancestor[v])
		return v;
	while (t->ancestor[t->ancestor[v]]) {
		t->stack[sp++] = v;
		v = t->ancestor[v];
	}
	while (sp) {
		uint32_t w = t->stack[--sp];
		if (t->semi[t->label[t->ancestor[w]]] < t->semi[t->label[w]])
			t->label[w] = t->label[t->ancestor[w]];
		t->ancestor[w] = t->ancestor[t->ancestor[w]];
	}
	return t->label[v0];
}

void pt_heap_dominators(const struct pt_heapgraph *g, struct pt_heap_dom *dom)
{
	uint32_t n = (uint32_t)g->nnodes, i, k;
	uint8_t *flags = pt_xcalloc(n, 1);
	/* 1-based arrays over dfs numbers */
	uint32_t *vertex = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *num = pt_xmalloc((size_t)n * sizeof(uint32_t));
	uint32_t *parent = pt_xmalloc((size_t)n * sizeof(uint32_t));
	uint32_t *idom = pt_xcalloc((size_t)n + 1, sizeof(uint32_t));
	uint32_t *bucket = pt_xcalloc((size_t)n + 1, sizeof(uint32_t));
	uint32_t *next = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	struct lt t;

	/* every array below is touched, and a page touched first costs the kernel's zeroing
	 * too: the passes share their scratch */
	memset(dom, 0, sizeof(*dom));
	/* A plain graph (no weak, shortcut or internal edge types, no page: a Ruby dump)
	 * leaves out only the edges from a node to itself; its table_edge stays NULL */
	if (mark_page(g, flags, num) || g->et_weak != PT_HEAP_NONE ||
	    g->et_shortcut != PT_HEAP_NONE || g->et_internal != PT_HEAP_NONE)
		dom->table_edge = pt_heap_weakmap_table_edges(g);
	/* malloc where every entry read is written first: no zeroing of what is overwritten */
	t.semi = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	t.label = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	t.ancestor = pt_xcalloc((size_t)n + 1, sizeof(uint32_t));
	t.stack = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	build_retainers(g, dom, t.stack);
	number_nodes(g, dom, flags, vertex, num, parent, t.stack, next, &dom->unreachable);
	memset(next, 0, ((size_t)n + 1) * sizeof(uint32_t));
	vertex[0] = parent[0] = t.semi[0] = t.label[0] = 0;
	for (k = 1; k <= n; k++)
		t.semi[k] = t.label[k] = k;
	for (k = n; k >= 2; k--) {
		uint32_t w = vertex[k], r, p = num[parent[w]], b;
		int any = 0;
		for (r = dom->first_retainer[w]; r < dom->first_retainer[w + 1]; r++) {
			uint32_t from = dom->retainer_node[r], u;
			if (!retainer_essential(g, dom, flags, r, w))
				continue;
			any = 1;
			u = lt_eval(&t, num[from]);
			if (t.semi[u] < t.semi[k])
				t.semi[k] = t.semi[u];
		}
		/* no retainer DevTools follows: the root holds it. A node of a clique left
		 * over keeps what its retainers in the clique give it, as in DevTools */
		if (!any)
			t.semi[k] = 1;
		next[k] = bucket[t.semi[k]];
		bucket[t.semi[k]] = k;
		t.ancestor[k] = p;
		for (b = bucket[p]; b; b = next[b]) {
			uint32_t u = lt_eval(&t, b);
			idom[b] = t.semi[u] < t.semi[b] ? u : p;
		}
		bucket[p] = 0;
	}
	for (k = 2; k <= n; k++)
		if (idom[k] != t.semi[k])
			idom[k] = idom[idom[k]];
	/* what only the tree's making needed goes before the arrays of its results come */
	free(dom->first_retainer);
	free(dom->retainer_edge);
	free(dom->retainer_node);
	free(dom->table_edge);
	dom->first_retainer = dom->retainer_edge = dom->retainer_node = NULL;
	dom->table_edge = NULL;
	free(flags);
	free(num);
	free(next);
	free(t.ancestor);
	free(t.stack);
	flags = NULL;
	num = next = t.ancestor = t.stack = NULL;

	dom->idom = parent; /* parent is done with */
	parent = NULL;
	dom->retained = pt_xmalloc((size_t)n * sizeof(uint64_t));
	dom->idom[0] = 0;
	for (k = 2; k <= n; k++)
		dom->idom[vertex[k]] = vertex[idom[k]];
	for (i = 0; i < n; i++)
		dom->retained[i] = pt_heap_self(g, i);
	/* a dominator has a smaller number than the nodes it dominates */
	for (k = n; k >= 2; k--)
		dom->retained[dom->idom[vertex[k]]] += dom->retained[vertex[k]];

	/* semi and label are done with too */
	dom->first_dominated = t.semi;
	memset(dom->first_dominated, 0, ((size_t)n + 1) * sizeof(uint32_t));
	dom->dominated = t.label;
	t.semi = t.label = NULL;
	for (i = 1; i < n; i++)
		dom->first_dominated[dom->idom[i] + 1]++;
	for (i = 0; i < n; i++)
		dom->first_dominated[i + 1] += dom->first_dominated[i];
	memcpy(bucket, dom->first_dominated, (size_t)n * sizeof(uint32_t));
	for (i = 1; i < n; i++)
		dom->dominated[bucket[dom->idom[i]]++] = i;

	free(flags);
	free(vertex);
	free(num);
	free(parent);
	free(idom);
	free(bucket);
	free(next);
	free(t.semi);
	free(t.label);
	free(t.ancestor);
	free(t.stack);
}

void pt_heap_dom_release(struct pt_heap_dom *dom)
{
	free(dom->idom);
	free(dom->retained);
	free(dom->first_dominated);
	free(dom->dominated);
	free(dom->first_retainer);
	free(dom->retainer_edge);
	free(dom->retainer_node);
	free(dom->table_edge);
	memset(dom, 0, sizeof(*dom));
}
