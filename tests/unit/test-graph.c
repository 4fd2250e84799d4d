/* test-graph.c: the call graph of small trees (analysis/graph.h), counted once per
 * stack, with pprof's rules for left-out vertices, residual samples and inlining. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/graph.h"
#include "core/profile.h"
#include "tap.h"
#include "util/xalloc.h"

static uint32_t fr(struct pt_profile *p, const char *name, uint32_t flags)
{
	return pt_profile_simple_frame(p, name, strlen(name), 0, 0, flags);
}

static void add(struct pt_profile *p, const uint32_t *frames, size_t n, int64_t v)
{
	pt_profile_add_sample(p, pt_profile_stack(p, frames, n, 0), 0, &v, 0);
}

/* a frame's vertex = its function name's first letter's place after 'a' (or after 'x') */
static uint32_t *vertices(const struct pt_profile *p)
{
	uint32_t *v = pt_xmalloc((size_t)p->nframes * sizeof(uint32_t)), f;
	for (f = 1; f < p->nframes; f++) {
		char c = pt_s(p, p->funcs[p->frames[f].func].name)[0];
		v[f] = (uint32_t)(c >= 'x' ? c - 'x' : c - 'a');
	}
	return v;
}

/* pprof's graph of type 0 over the vertices vx */
static void build(struct pt_graph *g, const struct pt_profile *p, const uint32_t *vx,
		  const unsigned char *kept, unsigned flags)
{
	struct pt_graph_opts o = {.vertex = vx, .nt = 1, .kept = kept, .flags = flags};
	pt_graph_build(g, p, &o);
}

static int64_t weight(const struct pt_graph *g, uint32_t from, uint32_t to, int *not_inline)
{
	uint32_t i;
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].from == from && g->edges[i].to == to && g->edges[i].live) {
			if (not_inline)
				*not_inline = g->edges[i].not_inline;
			return g->edges[i].weight;
		}
	return -1;
}

/* the graph pt_aggregate_graph makes in its walk equals the one copied from its table
 * afterwards: every vertex's flat, cum and seen, every edge in order */
static int same_as_copied(const struct pt_profile *p, enum pt_granularity gran, uint32_t t)
{
	struct pt_agg a;
	struct pt_graph made, copied;
	struct pt_diag d;
	uint32_t i;
	int same;

	pt_diag_init(&d, "test");
	if (pt_aggregate_graph(p, gran, 0, t, &a, &made, &d) < 0)
		return 0;
	pt_graph_init(&copied, a.nentries);
	pt_graph_from_agg(&copied, &a, t, 1, NULL);
	same = made.nvertices == copied.nvertices && made.nedges == copied.nedges &&
	       made.nedges == a.nedges && a.nedges > 0;
	for (i = 0; same && i < made.nvertices; i++)
		same = made.flat[i] == copied.flat[i] && made.cum[i] == copied.cum[i] &&
		       made.seen[i] == copied.seen[i];
	for (i = 0; same && i < made.nedges; i++)
		same = made.edges[i].from == copied.edges[i].from &&
		       made.edges[i].to == copied.edges[i].to &&
		       made.edges[i].live == copied.edges[i].live &&
		       made.edges[i].not_inline == copied.edges[i].not_inline &&
		       made.edges[i].residual == copied.edges[i].residual &&
		       made.edges[i].weight == copied.edges[i].weight;
	pt_graph_release(&made);
	pt_graph_release(&copied);
	pt_agg_release(&a);
	return same;
}

static const struct pt_graph_edge *edge_of(const struct pt_graph *g, uint32_t from, uint32_t to)
{
	uint32_t i;
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].from == from && g->edges[i].to == to)
			return &g->edges[i];
	return NULL;
}

int main(void)
{
	struct pt_profile p;
	struct pt_graph g;
	uint32_t *vx, a, b, c, d, yi, y;
	unsigned char kept[4];
	int ni = -1;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	a = fr(&p, "a", 0);
	b = fr(&p, "b", 0);
	c = fr(&p, "c", 0);
	d = fr(&p, "d", 0);
	add(&p, (uint32_t[]){a, b, a, b}, 4, 5);
	add(&p, (uint32_t[]){a, c}, 2, 3);
	add(&p, (uint32_t[]){a, b, c}, 3, 2);
	add(&p, (uint32_t[]){d, a}, 2, 0); /* a stack whose samples add up to nothing */
	vx = vertices(&p);
	pt_graph_init(&g, 4);
	build(&g, &p, vx, NULL, 0);
	is_int(g.cum[0], 10, "a: cum once per stack under recursion");
	is_int(g.flat[1], 5, "b: flat of its leaf samples");
	is_int(g.cum[1], 7, "b: cum");
	is_int(weight(&g, 0, 1, NULL), 7, "a -> b: once per stack though it recurs");
	is_int(weight(&g, 1, 0, NULL), 5, "b -> a");
	is_int(weight(&g, 0, 2, NULL), 3, "a -> c");
	is_int(weight(&g, 1, 2, NULL), 2, "b -> c");
	ok(!g.seen[3] && weight(&g, 3, 0, NULL) == -1,
	   "a stack without value makes no vertex and no edge");

	/* pprof's -nodefraction: b left out, its callers call its callees */
	memset(kept, 1, sizeof(kept));
	kept[1] = 0;
	build(&g, &p, vx, kept, 0);
	is_int(weight(&g, 0, 2, NULL), 5, "without b: a -> c has b's share too");
	is_int(g.flat[0], 0, "a;b;a;b without b: its leaf is gone, no flat (pprof's residual)");
	is_int(g.cum[0], 10, "a's cum is unchanged");
	is_int(g.flat[2], 5, "c's flat");
	kept[1] = 1;
	kept[2] = 0;
	build(&g, &p, vx, kept, 0);
	is_int(g.flat[0] + g.flat[1], 5, "a leaf left out adds to no flat value (residual)");

	/* dot's dotted edges: a -> c only across b, and then a direct call too */
	kept[1] = 0;
	kept[2] = 1;
	build(&g, &p, vx, kept, 0);
	ok(edge_of(&g, 0, 2) && edge_of(&g, 0, 2)->residual == 0,
	   "a -> c is called directly once: not residual");
	ok(edge_of(&g, 3, 0) && !edge_of(&g, 3, 0)->live && !edge_of(&g, 3, 0)->weight,
	   "d -> a: an edge of a stack without value, never live");

	/* recursion: an edge from a vertex to itself only when asked for */
	memset(kept, 1, sizeof(kept));
	kept[1] = 0;
	build(&g, &p, vx, kept, 0);
	ok(edge_of(&g, 0, 0) == NULL, "a;b;a without b: no a -> a edge by pprof's rule");
	build(&g, &p, vx, kept, PT_GRAPH_SELF_EDGES);
	ok(edge_of(&g, 0, 0) && edge_of(&g, 0, 0)->weight == 5 && edge_of(&g, 0, 0)->residual,
	   "with self edges: a -> a across b, residual, once per stack");
	build(&g, &p, vx, NULL, PT_GRAPH_SELF_EDGES);
	/* the tree lists a node's newest child first: d;a, then a's c before its b */
	ok(g.nedges == 5 && g.edges[0].from == 3 && g.edges[0].to == 0 && g.edges[1].from == 0 &&
		   g.edges[1].to == 2 && g.edges[2].from == 0 && g.edges[2].to == 1 &&
		   g.edges[3].from == 1 && g.edges[3].to == 2,
	   "edges come in the order the walk first meets them");
	is_int(edge_of(&g, 0, 1)->weight, 7, "a -> b with self edges kept: still once per stack");
	pt_graph_release(&g);
	free(vx);
	pt_profile_release(&p);

	/* inline marks: the callee's frame at the rootmost occurrence decides */
	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	a = fr(&p, "x", 0);
	yi = pt_profile_simple_frame(&p, "y", 1, 0, 7, PT_FRAME_INLINED);
	y = pt_profile_simple_frame(&p, "y", 1, 0, 9, 0);
	add(&p, (uint32_t[]){a, yi}, 2, 4);
	vx = vertices(&p);
	pt_graph_init(&g, 2);
	build(&g, &p, vx, NULL, 0);
	ok(weight(&g, 0, 1, &ni) == 4 && ni == 0, "an inlined callee: the edge is inline");
	add(&p, (uint32_t[]){a, y}, 2, 1);
	free(vx);
	vx = vertices(&p);
	build(&g, &p, vx, NULL, 0);
	ok(weight(&g, 0, 1, &ni) == 5 && ni == 1, "one call not inlined: the edge is not");
	pt_graph_release(&g);
	free(vx);
	pt_profile_release(&p);

	/* the table's graph made in the aggregation walk (tree's): two types, recursion,
	 * negative and zero values, at two granularities */
	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	pt_profile_add_type(&p, "delta", "count");
	a = fr(&p, "a", 0);
	b = fr(&p, "b", 0);
	c = pt_profile_simple_frame(&p, "c", 1, 0, 3, 0);
	d = pt_profile_simple_frame(&p, "c", 1, 0, 4, 0);
	{
		int64_t v1[2] = {5, -2}, v2[2] = {3, 7}, v3[2] = {0, -4}, v4[2] = {2, 0};
		pt_profile_add_sample(&p, pt_profile_stack(&p, (uint32_t[]){a, b, a, c}, 4, 0), 0,
				      v1, 0);
		pt_profile_add_sample(&p, pt_profile_stack(&p, (uint32_t[]){a, d}, 2, 0), 0, v2, 0);
		pt_profile_add_sample(&p, pt_profile_stack(&p, (uint32_t[]){b, c, b}, 3, 0), 0, v3,
				      0);
		pt_profile_add_sample(&p, pt_profile_stack(&p, (uint32_t[]){a, b}, 2, 0), 0, v4, 0);
	}
	ok(same_as_copied(&p, PT_GRAN_FUNCTIONS, 0) && same_as_copied(&p, PT_GRAN_FUNCTIONS, 1),
	   "aggregate's graph = the table's edges copied (functions, both types)");
	ok(same_as_copied(&p, PT_GRAN_LINES, 0) && same_as_copied(&p, PT_GRAN_LINES, 1),
	   "aggregate's graph = the table's edges copied (lines, both types)");
	pt_profile_release(&p);

	/* the calls as callgrind charges them: at the callee's rootmost occurrence, from
	 * the caller's frame (here each frame its own caller vertex), every type */
	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	pt_profile_add_type(&p, "bytes", "bytes");
	a = pt_profile_simple_frame(&p, "a", 1, 0, 10, 0);
	b = pt_profile_simple_frame(&p, "b", 1, 0, 20, 0);
	c = pt_profile_simple_frame(&p, "a", 1, 0, 11, 0);
	d = fr(&p, "m", 0);
	{
		int64_t v1[2] = {5, 50}, v2[2] = {3, 30}, into_a[2] = {0, 0};
		uint32_t func[5], frames[5] = {0, 1, 2, 3, 4}, fa, fb, i;
		struct pt_graph_opts o = {.vertex = func,
					  .caller = frames,
					  .ncallers = 5,
					  .nt = 2,
					  .flags = PT_GRAPH_ROOTMOST | PT_GRAPH_SORTED};
		uint64_t a_calls = 0;
		int b_to_a = 0, m_to_a = 0, from_root = 0, sorted = 1;
		pt_profile_add_sample(&p, pt_profile_stack(&p, (uint32_t[]){d, a, b, c}, 4, 0), 0,
				      v1, 0);
		pt_profile_add_sample(&p, pt_profile_stack(&p, (uint32_t[]){d, c}, 2, 0), 0, v2, 0);
		for (i = 0; i < p.nframes; i++)
			func[i] = p.frames[i].func;
		fa = func[a];
		fb = func[b];
		pt_graph_init(&g, p.nfuncs);
		pt_graph_build(&g, &p, &o);
		for (i = 0; i < g.nedges; i++) {
			const int64_t *v = pt_graph_values(&g, i);
			sorted &= !i || g.edges[i - 1].from < g.edges[i].from ||
				  (g.edges[i - 1].from == g.edges[i].from &&
				   g.edges[i - 1].to < g.edges[i].to);
			from_root |= g.edges[i].from == 0 && g.edges[i].to == func[d] &&
				     v[0] == 8 && v[1] == 80 && g.edges[i].calls == 1;
			if (g.edges[i].to != fa)
				continue;
			into_a[0] += v[0];
			into_a[1] += v[1];
			a_calls += g.edges[i].calls;
			b_to_a |= func[g.edges[i].from] == fb;
			m_to_a += g.edges[i].from == d;
		}
		ok(!b_to_a, "m;a;b;a: no b -> a call (a's rootmost occurrence is under m)");
		ok(into_a[0] == 8 && into_a[1] == 80 && a_calls == 2,
		   "a's incoming calls add up to its cum, every type, two occurrences");
		ok(m_to_a == 1 && g.nedges == 3 && edge_of(&g, a, fb) &&
			   edge_of(&g, a, fb)->calls == 1,
		   "calls from the caller's frame: m -> a once (two calls), a at line 10 -> b");
		ok(from_root, "a root frame is called from frame 0's caller vertex");
		ok(sorted, "edges in (caller, callee) order");
		is_int(g.cum[(size_t)fa * 2 + 1], 80, "cum per type, the second too");
		pt_graph_release(&g);
	}
	pt_profile_release(&p);
	return tap_done();
}
