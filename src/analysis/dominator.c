/* dominator.c: dominator tree and retained sizes of a heap snapshot, as Chrome DevTools'
 * heap snapshot worker computes them (see dominator.h for the edge rules). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/dominator.h"
#include "util/xalloc.h"

enum { PAGE = 1, VISITED = 2 };

int pt_heap_edge_essential(const struct pt_heapgraph *g, uint32_t from, size_t e)
{
	uint32_t t = pt_heap_edge_type(g, e);
	return t != g->et_weak && (t != g->et_shortcut || from == 0);
}

static void build_retainers(const struct pt_heapgraph *g, struct pt_heap_dom *dom)
{
	size_t n = g->nnodes, e;
	uint32_t i, *fill;

	dom->first_retainer = pt_xcalloc(n + 1, sizeof(uint32_t));
	dom->retainer_edge = pt_xmalloc((g->nedges ? g->nedges : 1) * sizeof(uint32_t));
	dom->retainer_node = pt_xmalloc((g->nedges ? g->nedges : 1) * sizeof(uint32_t));
	for (e = 0; e < g->nedges; e++)
		dom->first_retainer[pt_heap_edge_to(g, e) + 1]++;
	for (i = 0; i < n; i++)
		dom->first_retainer[i + 1] += dom->first_retainer[i];
	fill = pt_xmalloc(n * sizeof(uint32_t));
	memcpy(fill, dom->first_retainer, n * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		for (e = g->first_edge[i]; e < g->first_edge[i + 1]; e++) {
			uint32_t to = pt_heap_edge_to(g, e);
			dom->retainer_edge[fill[to]] = (uint32_t)e;
			dom->retainer_node[fill[to]++] = i;
		}
	free(fill);
}

/* DevTools' page-owned objects: reachable without weak edges from the targets of the
 * root's shortcut edges (the global objects) and from "(Document DOM trees)" */
static void mark_page(const struct pt_heapgraph *g, uint8_t *flags, uint32_t *todo)
{
	size_t ntodo = 0, e;

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
}

static int only_weak_retainers(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			       uint32_t v)
{
	uint32_t r;
	for (r = dom->first_retainer[v]; r < dom->first_retainer[v + 1]; r++) {
		uint32_t t = pt_heap_edge_type(g, dom->retainer_edge[r]);
		if (t != g->et_weak && t != g->et_shortcut)
			return 0;
	}
	return 1;
}

/* may the traversal go from v to w over edge e */
static int follow(const struct pt_heapgraph *g, const uint8_t *flags, uint32_t v, uint32_t w,
		  size_t e)
{
	if (!pt_heap_edge_essential(g, v, e))
		return 0;
	/* no edges from outside the page into it: objects also held by the debugger or
	 * the embedder would otherwise lose their page dominators */
	return v == 0 || !(flags[w] & PAGE) || (flags[v] & PAGE);
}

/* depth-first post-order from the root with an explicit stack; returns the count */
static uint32_t post_order(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			   uint8_t *flags, uint32_t *post2node, uint32_t *node2post,
			   uint64_t *unreached)
{
	uint32_t n = (uint32_t)g->nnodes, npost = 0, i;
	uint32_t *stack = pt_xmalloc((size_t)n * sizeof(uint32_t));
	uint32_t *cur = pt_xmalloc((size_t)n * sizeof(uint32_t));
	int64_t top = 0;
	int round;

	stack[0] = 0;
	cur[0] = g->first_edge[0];
	flags[0] |= VISITED;
	for (round = 1;; round++) {
		while (top >= 0) {
			uint32_t v = stack[top], e = cur[top];
			if (e < g->first_edge[v + 1]) {
				uint32_t w = pt_heap_edge_to(g, e);
				cur[top]++;
				if ((flags[w] & VISITED) || !follow(g, flags, v, w, e))
					continue;
				flags[w] |= VISITED;
				stack[++top] = w;
				cur[top] = g->first_edge[w];
			} else {
				node2post[v] = npost;
				post2node[npost++] = v;
				top--;
			}
		}
		if (npost == n || round > 1)
			break;
		/* take the root out again; it goes last, after the subgraphs of the nodes
		 * that only weak edges retain */
		npost--;
		top = 0;
		stack[0] = 0;
		cur[0] = g->first_edge[1];
		for (i = 0; i < n; i++) {
			if ((flags[i] & VISITED) || !only_weak_retainers(g, dom, i))
				continue;
			stack[++top] = i;
			cur[top] = g->first_edge[i];
			flags[i] |= VISITED;
			(*unreached)++;
		}
	}
	if (npost != n) {
		npost--;
		for (i = 0; i < n; i++)
			if (!(flags[i] & VISITED)) {
				node2post[i] = npost;
				post2node[npost++] = i;
				(*unreached)++;
			}
		node2post[0] = npost;
		post2node[npost++] = 0;
	}
	free(stack);
	free(cur);
	return npost;
}

void pt_heap_dominators(const struct pt_heapgraph *g, struct pt_heap_dom *dom)
{
	uint32_t n = (uint32_t)g->nnodes, rootp = n - 1, none = n, i, p;
	uint8_t *flags = pt_xcalloc(n, 1), *affected = pt_xcalloc(n, 1);
	uint32_t *post2node = pt_xmalloc((size_t)n * sizeof(uint32_t));
	uint32_t *node2post = pt_xmalloc((size_t)n * sizeof(uint32_t));
	uint32_t *doms = pt_xmalloc((size_t)n * sizeof(uint32_t));
	size_t e;
	int changed = 1;

	memset(dom, 0, sizeof(*dom));
	build_retainers(g, dom);
	mark_page(g, flags, post2node); /* post2node: scratch until post_order */
	post_order(g, dom, flags, post2node, node2post, &dom->unreachable);

	for (i = 0; i < rootp; i++)
		doms[i] = none;
	doms[rootp] = rootp;
	for (e = g->first_edge[0]; e < g->first_edge[1]; e++)
		if (pt_heap_edge_essential(g, 0, e))
			affected[node2post[pt_heap_edge_to(g, e)]] = 1;
	/* Cooper, Harvey and Kennedy: intersect the retainers' dominators in reverse
	 * post-order until nothing changes; only nodes whose retainers changed are
	 * looked at again */
	while (changed) {
		changed = 0;
		for (p = rootp; p-- > 0;) {
			uint32_t v, r, nd = none;
			int orphan = 1;
			if (!affected[p])
				continue;
			affected[p] = 0;
			if (doms[p] == rootp)
				continue;
			v = post2node[p];
			for (r = dom->first_retainer[v]; r < dom->first_retainer[v + 1]; r++) {
				uint32_t from = dom->retainer_node[r], rp;
				if (!pt_heap_edge_essential(g, from, dom->retainer_edge[r]))
					continue;
				orphan = 0;
				if (from != 0 && (flags[v] & PAGE) && !(flags[from] & PAGE))
					continue;
				rp = node2post[from];
				if (doms[rp] == none)
					continue;
				if (nd == none) {
					nd = rp;
				} else {
					while (rp != nd) {
						while (rp < nd)
							rp = doms[rp];
						while (nd < rp)
							nd = doms[nd];
					}
				}
				if (nd == rootp)
					break;
			}
			if (orphan)
				nd = rootp;
			if (nd != none && doms[p] != nd) {
				doms[p] = nd;
				changed = 1;
				for (e = g->first_edge[v]; e < g->first_edge[v + 1]; e++)
					affected[node2post[pt_heap_edge_to(g, e)]] = 1;
			}
		}
	}

	dom->idom = pt_xmalloc((size_t)n * sizeof(uint32_t));
	dom->retained = pt_xmalloc((size_t)n * sizeof(uint64_t));
	for (p = 0; p < n; p++)
		dom->idom[post2node[p]] = doms[p] == none ? 0 : post2node[doms[p]];
	for (i = 0; i < n; i++)
		dom->retained[i] = pt_heap_self(g, i);
	/* children come before their dominators in post-order */
	for (p = 0; p + 1 < n; p++) {
		uint32_t v = post2node[p];
		dom->retained[dom->idom[v]] += dom->retained[v];
	}

	dom->first_dominated = pt_xcalloc((size_t)n + 1, sizeof(uint32_t));
	dom->dominated = pt_xmalloc((size_t)n * sizeof(uint32_t));
	for (i = 1; i < n; i++)
		dom->first_dominated[dom->idom[i] + 1]++;
	for (i = 0; i < n; i++)
		dom->first_dominated[i + 1] += dom->first_dominated[i];
	memcpy(doms, dom->first_dominated, (size_t)n * sizeof(uint32_t));
	for (i = 1; i < n; i++)
		dom->dominated[doms[dom->idom[i]]++] = i;

	free(flags);
	free(affected);
	free(post2node);
	free(node2post);
	free(doms);
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
	memset(dom, 0, sizeof(*dom));
}
