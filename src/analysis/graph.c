/* graph.c: the call graph (graph.h) from one depth-first walk over the call tree, its
 * edges merged by a sort of the walk's records rather than a hash map of edges. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cum.h"
#include "analysis/fold.h"
#include "analysis/graph.h"
#include "util/map.h"
#include "util/sort.h"
#include "util/xalloc.h"

void pt_graph_init(struct pt_graph *g, uint32_t nvertices)
{
	memset(g, 0, sizeof(*g));
	g->nvertices = nvertices;
	g->nt = 1;
	g->flat = pt_xcalloc((size_t)nvertices + 1, sizeof(int64_t));
	g->cum = pt_xcalloc((size_t)nvertices + 1, sizeof(int64_t));
	g->seen = pt_xcalloc((size_t)nvertices + 1, 1);
}

void pt_graph_release(struct pt_graph *g)
{
	free(g->flat);
	free(g->cum);
	free(g->seen);
	free(g->edges);
	free(g->values);
	memset(g, 0, sizeof(*g));
}

/* no values, no edges, nt values per vertex */
static void graph_reset(struct pt_graph *g, uint32_t nt)
{
	size_t n = ((size_t)g->nvertices + 1) * (nt ? nt : 1);

	if (nt != g->nt) {
		free(g->flat);
		free(g->cum);
		g->flat = pt_xcalloc(n, sizeof(int64_t));
		g->cum = pt_xcalloc(n, sizeof(int64_t));
		g->nt = nt;
	} else {
		memset(g->flat, 0, n * sizeof(int64_t));
		memset(g->cum, 0, n * sizeof(int64_t));
	}
	memset(g->seen, 0, g->nvertices);
	free(g->edges);
	free(g->values);
	g->edges = NULL;
	g->values = NULL;
	g->nedges = 0;
}

/* The walk's functions take the number of types and the rootmost rule as arguments and
 * are inlined into a walk for one type with each rule (pprof's and callgrind's usual
 * cases), where the compiler folds the loops over the types and the other rule's tests
 * away, and one for the rest. */
#define WALK_INLINE inline __attribute__((always_inline))

/* a record's b: flags (its value adds to the edge; its node's parent is its caller; a
 * live subtree; live and not inlined) below REC_CALL, and above them the calls it
 * stands for, counted in REC_CALL units up to REC_FULL */
enum { REC_ADDS = 1, REC_DIRECT = 2, REC_LIVE = 4, REC_NOT_INLINE = 8, REC_CALL = 16 };
#define REC_FULL (UINT32_MAX - (REC_CALL - 1))
_Static_assert(sizeof(struct pt_graph_edge) <= sizeof(struct pt_keyed),
	       "an edge fits where a record was (edges_from_records)");

/* one level of the walk: a node on the current path */
struct level {
	uint32_t node;
	uint32_t vertex;
	uint32_t anc;	/* the nearest node of a kept vertex at or above this one, 0: none */
	uint32_t from;	/* the caller vertex of the edge, when L_COUNT */
	size_t rec;	/* the record this node adds its value to, + 1; 0: none */
	uint32_t state; /* L_* */
};
/* what leaving a level undoes (count, the repeat map too, the vertex's mark in vcum, the vertex's
 * rootmost occurrence on the path), and two marks: the subtree holds a sample row with
 * a nonzero value, the node's frame is an inlined one */
enum { L_COUNT = 1, L_REPEAT = 2, L_ACTIVE = 4, L_ROOTMOST = 8, L_LIVE = 16, L_INLINED = 32 };

/* the walk's state */
struct walk {
	struct pt_graph *g;
	const struct pt_profile *p;
	const struct pt_graph_opts *o;
	const struct pt_node *nodes; /* p's */
	const uint32_t *vertex;	     /* per frame: o->vertex */
	const uint32_t *caller;	     /* per frame: o->caller, or its vertex */
	int64_t *flat, *cum;	     /* g's */
	/* per vertex: g's seen, as words while walking: a store to a byte may alias
	 * anything, and the walk would load its pointers again after each */
	uint32_t *seen;
	uint32_t nt;
	int self_edges;	    /* PT_GRAPH_SELF_EDGES */
	unsigned tbits;	    /* the callee's bits of a record's key */
	uint8_t *live;	    /* per node: a sample row with a nonzero value */
	struct pt_cum vcum; /* per vertex: its kept nodes on the path (cum.h) */
	/* An edge (a, b) is on the path if the rootmost node of vertex b that made an edge
	 * came from a (first_from), or else one of the other nodes of b did: those few, b
	 * recurring, are counted per edge in a map. */
	uint32_t *count, *first_from;
	struct pt_map repeat;
	struct pt_keyed *rec;
	size_t nrec;
	int64_t *rv;		  /* nt values per record, unless nt is 1 (then in its x) */
	int64_t *inclusive;	  /* nt per level: the subtree's values so far */
	struct pt_recent *recent; /* NULL: some value is negative, no folding */
	int any_inlined;	  /* some frame is inlined: look at each one */
};

/* A record into rec[nrec] for edge key, or folded into the one made last for it; its
 * index. */
static WALK_INLINE size_t add_record(struct walk *w, uint64_t key, uint32_t flags)
{
	int made;
	struct pt_keyed *k = pt_recent_record(w->recent, w->rec, &w->nrec, key, &made);

	if (!made && k->b >= REC_FULL) {
		/* its count of calls is full: a record of its own */
		k = pt_recent_record(NULL, w->rec, &w->nrec, key, &made);
		pt_recent_slot(w->recent, key)->at = w->nrec;
	}
	if (!made) {
		k->b |= flags;
	} else {
		k->x = 0;
		k->a = (uint32_t)(w->nrec - 1);
		k->b = flags;
	}
	if (flags & REC_ADDS)
		k->b += REC_CALL;
	return (size_t)(k - w->rec);
}

/* Whether the edge (from, to), entered at level l, is new on the path (pprof's once
 * per stack), kept track of until l is left. */
static WALK_INLINE int first_on_path(struct walk *w, struct level *l, uint32_t from, uint32_t to)
{
	int already;

	if (!w->count[to]) {
		already = 0;
		w->first_from[to] = from;
	} else if (w->first_from[to] == from) {
		already = 1;
	} else {
		uint32_t *k = pt_map_put(&w->repeat, (uint64_t)from << 32 | to);
		if (*k == PT_MAP_NEW)
			*k = 0;
		already = (*k)++ != 0;
		l->state |= L_REPEAT;
	}
	w->count[to]++;
	l->state |= L_COUNT;
	l->from = from;
	return pt_cum_counts(already);
}

/* entering node n of a kept vertex below the kept node anc (0: none): its flat value,
 * and a record of its edge where the node is charged with it (its value added on
 * leaving) or joins n to its parent */
static WALK_INLINE void enter_kept(struct walk *w, struct level *l, uint32_t anc,
				   const int64_t *self, uint32_t nt, int rootmost_rule)
{
	const struct pt_node *nodes = w->nodes;
	uint32_t n = l->node, to = l->vertex, from;
	int first, direct, rootmost = pt_cum_enter(&w->vcum, to);

	pt_add_values(w->flat + (size_t)to * nt, self, nt);
	l->state |= rootmost ? L_ACTIVE | L_ROOTMOST : L_ACTIVE;
	if (rootmost_rule) {
		if (!rootmost)
			return;
		from = w->caller[anc ? nodes[anc].frame : 0];
		first = 1;
	} else {
		if (!anc)
			return;
		if (w->vertex[nodes[anc].frame] == to && !w->self_edges)
			return;
		from = w->caller[nodes[anc].frame];
		first = first_on_path(w, l, from, to);
	}
	direct = !w->o->kept || anc == nodes[n].parent;
	/* a repeat adds nothing, but a direct one makes the edge solid */
	if (first || direct) {
		size_t r = add_record(w, (uint64_t)from << w->tbits | to,
				      (first ? REC_ADDS : 0) | (direct ? REC_DIRECT : 0));
		if (first) {
			l->rec = r + 1;
			if (w->any_inlined && (pt_frame_of(w->p, n)->flags & PT_FRAME_INLINED))
				l->state |= L_INLINED;
		}
	}
}

/* leaving level d: its sums go to its vertex, its edge's record and the level above */
static WALK_INLINE void leave(struct walk *w, struct level *st, size_t d, uint32_t nt,
			      int rootmost_rule)
{
	struct level *l = &st[d];
	const int64_t *inc = w->inclusive + d * nt;
	uint32_t v = l->vertex;

	if (l->state & L_ACTIVE) {
		pt_cum_leave(&w->vcum, v);
		if (l->state & L_ROOTMOST)
			pt_add_values(w->cum + (size_t)v * nt, inc, nt);
		w->seen[v] |= l->state & L_LIVE;
	}
	if (!rootmost_rule && (l->state & L_COUNT))
		w->count[v]--;
	if (!rootmost_rule && (l->state & L_REPEAT))
		(*pt_map_put(&w->repeat, (uint64_t)l->from << 32 | v))--;
	if (l->rec) {
		struct pt_keyed *k = &w->rec[l->rec - 1];
		if (nt == 1)
			k->x = (uint64_t)pt_add((int64_t)k->x, inc[0]);
		else
			pt_add_values(w->rv + (l->rec - 1) * nt, inc, nt);
		if (l->state & L_LIVE)
			k->b |= REC_LIVE | (l->state & L_INLINED ? 0 : REC_NOT_INLINE);
	}
	if (d) {
		pt_add_values(w->inclusive + (d - 1) * nt, inc, nt);
		st[d - 1].state |= l->state & L_LIVE;
	}
}

/* the nodes holding a sample row with a nonzero value of type t; *negative: some
 * node's value of the types is below 0 */
static uint8_t *live_nodes(const struct pt_profile *p, uint32_t t, uint32_t nt, int *negative)
{
	uint8_t *live = pt_xcalloc((size_t)p->nnodes + 1, 1);
	uint32_t r, n, k;

	for (r = 0; r < p->nsamples && nt; r++)
		if (p->sample_values[(size_t)r * p->ntypes + t])
			live[p->samples[r].node] = 1;
	*negative = 0;
	for (k = 0; k < nt; k++)
		for (n = 0; n < p->nnodes; n++)
			*negative |= p->node_self[(size_t)n * p->ntypes + t + k] < 0;
	return live;
}

/* Depth-first without recursion: the vertices' sums into g, the edges' records into
 * w->rec. Each level keeps its subtree's sums, added to the level above on the way out,
 * so memory grows with the depth, not with the number of nodes. */
static WALK_INLINE void walk(struct walk *w, uint32_t nt, int rootmost_rule)
{
	const struct pt_node *nodes = w->nodes;
	const uint32_t *vertex = w->vertex;
	const unsigned char *kept = w->o->kept;
	const int64_t *node_self = w->p->node_self;
	uint32_t ntypes = w->p->ntypes, t = w->o->t;
	struct level *st = NULL;
	size_t depth = 0, alloc = 0;
	uint32_t n = w->p->nnodes ? nodes[0].first_child : 0;

	while (n) {
		uint32_t anc = depth ? st[depth - 1].anc : 0;
		const int64_t *self = node_self + (size_t)n * ntypes + t;
		struct level *l;

		if (depth + 1 > alloc) {
			PT_ALLOC_GROW(st, depth + 1, alloc);
			w->inclusive = pt_xreallocarray(w->inclusive, alloc,
							(nt ? nt : 1) * sizeof(int64_t));
		}
		l = &st[depth];
		l->node = n;
		l->vertex = vertex[nodes[n].frame];
		l->rec = 0;
		l->state = w->live[n] ? L_LIVE : 0;
		memcpy(w->inclusive + depth * nt, self, nt * sizeof(int64_t));
		if (!kept || kept[l->vertex]) {
			enter_kept(w, l, anc, self, nt, rootmost_rule);
			anc = n;
		}
		l->anc = anc;
		depth++;
		if (nodes[n].first_child) {
			n = nodes[n].first_child;
			continue;
		}
		/* leave n and every ancestor whose children are all done */
		n = 0;
		while (depth) {
			uint32_t m = st[depth - 1].node;
			leave(w, st, depth - 1, nt, rootmost_rule);
			depth--;
			if (nodes[m].next_sibling) {
				n = nodes[m].next_sibling;
				break;
			}
		}
	}
	free(st);
}

/* The records sorted (w->rec is taken), each run of one edge's becomes the edge, in key
 * order or put in place by its first record's walk order: the marks of first records
 * counted up give each edge its place. In key order the edges are written over the
 * sorted records as these are read, an edge being no larger than a record, which spares
 * a second array as large. A run's values are summed in walk order, so the sums
 * saturate exactly as a walk adding into a map of edges would. */
static WALK_INLINE void edges_from_records(struct pt_graph *g, struct walk *w, unsigned bits,
					   int sorted, uint32_t nt)
{
	struct pt_keyed *rec = w->rec, *tmp = pt_xmalloc((w->nrec ? w->nrec : 1) * sizeof(*tmp));
	struct pt_keyed *s = pt_sort_keyed(rec, tmp, w->nrec, bits), *spare = s == rec ? tmp : rec;
	/* the sort's spare room, nrec records, holds nrec places */
	uint32_t *rank = (uint32_t *)spare;
	uint64_t mask = ((uint64_t)1 << w->tbits) - 1;
	size_t i, j, nrec = w->nrec, nedges = 0;
	const int64_t *rv = w->rv;
	struct pt_graph_edge *edges;

	w->rec = NULL;
	if (!sorted)
		memset(rank, 0, nrec * sizeof(uint32_t));
	for (i = 0; i < nrec; i = j, nedges++) {
		if (!sorted)
			rank[s[i].a] = 1;
		for (j = i + 1; j < nrec && s[j].key == s[i].key; j++)
			;
	}
	for (i = 0, j = 0; i < nrec && !sorted; i++) {
		uint32_t m = rank[i];
		rank[i] = (uint32_t)j;
		j += m;
	}
	edges = sorted ? (struct pt_graph_edge *)s
		       : pt_xmalloc((nedges ? nedges : 1) * sizeof(*edges));
	g->nedges = (uint32_t)nedges;
	if (nt != 1)
		g->values = pt_xcalloc((nedges ? nedges : 1) * (nt ? nt : 1), sizeof(int64_t));
	for (i = 0, nedges = 0; i < nrec; i = j, nedges++) {
		size_t e = sorted ? nedges : rank[s[i].a];
		uint64_t key = s[i].key;
		int64_t weight = 0;
		uint32_t calls = 0;
		unsigned any = 0;
		for (j = i; j < nrec && s[j].key == key; j++) {
			if (s[j].b & REC_ADDS) {
				if (nt != 1)
					pt_add_values(g->values + e * nt, rv + (size_t)s[j].a * nt,
						      nt);
				else
					weight = pt_add(weight, (int64_t)s[j].x);
			}
			calls += s[j].b / REC_CALL;
			any |= s[j].b;
		}
		if (nt != 1)
			weight = nt ? g->values[e * nt] : 0;
		/* one store per edge: the edges are written in no order (or over records
		 * read already) */
		edges[e] = (struct pt_graph_edge){(uint32_t)(key >> w->tbits),
						  (uint32_t)(key & mask),
						  calls,
						  !!(any & REC_LIVE),
						  !!(any & REC_NOT_INLINE),
						  !(any & REC_DIRECT),
						  weight};
	}
	if (sorted) {
		free(spare);
		g->edges = pt_xreallocarray(edges, nedges ? nedges : 1, sizeof(*edges));
	} else {
		free(rec);
		free(tmp);
		g->edges = edges;
	}
}

/* Without hashing: the walk gives a record (edge; value, walk order, flags and calls)
 * per node that adds to an edge or makes it direct, a stable radix sort brings each
 * edge's records together in walk order, and each run becomes an edge. A record met
 * again soon after takes the new one in where no value is negative (pt_recent). */
void pt_graph_build(struct pt_graph *g, const struct pt_profile *p, const struct pt_graph_opts *o)
{
	struct walk w;
	uint32_t i;
	unsigned fbits;
	int negative, rootmost = (o->flags & PT_GRAPH_ROOTMOST) != 0;

	graph_reset(g, o->nt);
	memset(&w, 0, sizeof(w));
	w.g = g;
	w.p = p;
	w.o = o;
	w.nt = o->nt;
	w.nodes = p->nodes;
	w.vertex = o->vertex;
	w.caller = o->caller ? o->caller : o->vertex;
	w.flat = g->flat;
	w.cum = g->cum;
	w.seen = pt_xcalloc((size_t)g->nvertices + 1, sizeof(uint32_t));
	w.self_edges = (o->flags & PT_GRAPH_SELF_EDGES) != 0;
	w.tbits = pt_bits(g->nvertices);
	fbits = o->caller ? pt_bits(o->ncallers) : w.tbits;
	w.live = live_nodes(p, o->t, o->nt, &negative);
	for (i = 1; i < p->nframes && !w.any_inlined; i++)
		w.any_inlined = (p->frames[i].flags & PT_FRAME_INLINED) != 0;
	w.recent = negative ? NULL : pt_xcalloc(PT_RECENT_N, sizeof(*w.recent));
	pt_cum_init(&w.vcum, (size_t)g->nvertices + 1);
	w.count = pt_xcalloc((size_t)g->nvertices + 1, sizeof(uint32_t));
	w.first_from = pt_xmalloc(((size_t)g->nvertices + 1) * sizeof(uint32_t));
	w.rec = pt_xmalloc((p->nnodes ? p->nnodes : 1) * sizeof(*w.rec));
	if (w.nt != 1)
		w.rv = pt_xcalloc((size_t)(p->nnodes ? p->nnodes : 1) * (w.nt ? w.nt : 1),
				  sizeof(int64_t));
	pt_map_init(&w.repeat);
	if (w.nt == 1 && rootmost)
		walk(&w, 1, 1);
	else if (w.nt == 1)
		walk(&w, 1, 0);
	else
		walk(&w, w.nt, rootmost);
	for (i = 0; i < g->nvertices; i++)
		g->seen[i] = w.seen[i] != 0;
	free(w.seen);
	free(w.live);
	free(w.recent);
	pt_cum_release(&w.vcum);
	free(w.count);
	free(w.first_from);
	free(w.inclusive);
	pt_map_release(&w.repeat);
	if (w.nt == 1)
		edges_from_records(g, &w, fbits + w.tbits, (o->flags & PT_GRAPH_SORTED) != 0, 1);
	else
		edges_from_records(g, &w, fbits + w.tbits, (o->flags & PT_GRAPH_SORTED) != 0, w.nt);
	free(w.rv);
}

void pt_graph_from_agg(struct pt_graph *g, const struct pt_agg *a, uint32_t t, uint32_t nt,
		       const unsigned char *kept)
{
	uint32_t i, k, w = a->ntypes;

	graph_reset(g, nt);
	for (i = 0; i < g->nvertices && i < a->nentries; i++) {
		for (k = 0; k < nt; k++) {
			g->flat[(size_t)i * nt + k] = a->flat[(size_t)i * w + t + k];
			g->cum[(size_t)i * nt + k] = a->cum[(size_t)i * w + t + k];
		}
		g->seen[i] = nt && (g->flat[(size_t)i * nt] || g->cum[(size_t)i * nt]);
	}
	g->edges = pt_xmalloc(((size_t)a->nedges + 1) * sizeof(*g->edges));
	if (nt != 1)
		g->values = pt_xcalloc(((size_t)a->nedges + 1) * (nt ? nt : 1), sizeof(int64_t));
	for (i = 0; i < a->nedges; i++) {
		const struct pt_agg_edge *ae = &a->edges[i];
		const int64_t *v = a->edge_value + (size_t)i * w + t;
		struct pt_graph_edge *e;
		if (kept && (!kept[ae->caller] || !kept[ae->callee]))
			continue;
		if (g->values)
			memcpy(g->values + (size_t)g->nedges * nt, v, nt * sizeof(int64_t));
		e = &g->edges[g->nedges++];
		e->from = ae->caller;
		e->to = ae->callee;
		e->weight = nt ? v[0] : 0;
		e->live = e->weight != 0;
		e->not_inline = 1;
		e->residual = 0;
		e->calls = 0;
	}
}

void pt_graph_of_table(struct pt_graph *g, const struct pt_profile *p, const struct pt_agg *a,
		       uint32_t t, uint32_t nt, const unsigned char *kept, unsigned flags)
{
	uint32_t *vertex;
	struct pt_graph_opts o = {.t = t, .nt = nt, .kept = kept, .flags = flags};

	pt_graph_init(g, a->nentries);
	if (!pt_profile_has_stacks(p)) {
		pt_graph_from_agg(g, a, t, nt, kept);
		return;
	}
	vertex = pt_graph_entry_vertices(p, a);
	o.vertex = vertex;
	pt_graph_build(g, p, &o);
	free(vertex);
}

int pt_graph_has_inline(const struct pt_profile *p)
{
	uint32_t f;

	if (!pt_profile_has_stacks(p)) /* a table does not say which calls were inlined */
		return 0;
	for (f = 1; f < p->nframes; f++)
		if (p->frames[f].flags & PT_FRAME_INLINED)
			return 1;
	return 0;
}

int pt_aggregate_graph(const struct pt_profile *p, enum pt_granularity g, unsigned views,
		       uint32_t t, struct pt_agg *out, struct pt_graph *graph, struct pt_diag *d)
{
	memset(graph, 0, sizeof(*graph));
	if (pt_aggregate_views(p, g, views | PT_AGG_EDGES, out, d) < 0)
		return -1;
	if (pt_graph_has_inline(p)) {
		/* the table's edges do not say which calls were inlined: a walk of the
		 * graph's own does (the same edges and values, and pprof's inline rule) */
		pt_graph_of_table(graph, p, out, t, 1, NULL, PT_GRAPH_SELF_EDGES);
		return 0;
	}
	/* The graph's values are the table's of type t, read once per vertex and edge
	 * (summing type t again per node in the walk cost 1-4% more on deep trees and big
	 * profiles than these few reads), whether one walk of the tree or the reader made
	 * the table. */
	pt_graph_init(graph, out->nentries);
	pt_graph_from_agg(graph, out, t, 1, NULL);
	return 0;
}

uint32_t *pt_graph_entry_vertices(const struct pt_profile *p, const struct pt_agg *a)
{
	uint32_t *v = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t)), i;

	v[0] = UINT32_MAX;
	for (i = 1; i < p->nframes; i++)
		v[i] = pt_agg_find_frame(p, a, i);
	return v;
}

unsigned char *pt_graph_name_marks(const struct pt_profile *p, uint32_t t)
{
	unsigned char *marks = pt_xcalloc((size_t)p->strings.n + 1, 1);
	uint32_t f, *name_of = NULL, i;
	struct pt_graph g;
	struct pt_graph_opts o = {.t = t, .nt = 1};

	/* without inlined frames there is no mark: skip the walk over every stack */
	if (!pt_graph_has_inline(p))
		return marks;
	name_of = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	for (f = 0; f < p->nframes; f++)
		name_of[f] = p->funcs[p->frames[f].func].name;
	o.vertex = name_of;
	pt_graph_init(&g, p->strings.n + 1);
	pt_graph_build(&g, p, &o);
	/* first the calls seen (1 inlined, 2 not), then the mark they make */
	for (i = 0; i < g.nedges; i++)
		if (g.edges[i].live)
			marks[g.edges[i].to] |= g.edges[i].not_inline ? 2 : 1;
	for (i = 0; i <= p->strings.n; i++)
		marks[i] = pt_inline_mark(marks[i]);
	pt_graph_release(&g);
	free(name_of);
	return marks;
}

struct keep_ctx {
	const struct pt_profile *p;
	const struct pt_agg *a;
	uint32_t t;
};

static int64_t i64abs(int64_t v)
{
	return v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
}

/* heaviest first: cum, then flat, then name */
static int keep_cmp(const void *x, const void *y, void *ctx)
{
	const struct keep_ctx *c = ctx;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y, w = c->a->ntypes;
	int64_t ca = c->a->cum[(size_t)a * w + c->t], cb = c->a->cum[(size_t)b * w + c->t];
	int64_t fa = c->a->flat[(size_t)a * w + c->t], fb = c->a->flat[(size_t)b * w + c->t];
	int r;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (fa != fb)
		return fa > fb ? -1 : 1;
	r = strcmp(pt_s(c->p, c->a->entries[a].name), pt_s(c->p, c->a->entries[b].name));
	return r ? r : (a < b ? -1 : a > b);
}

void pt_graph_keep(const struct pt_profile *p, const struct pt_agg *a, uint32_t t, long nodecount,
		   double node_fraction, struct pt_graph_shown *s)
{
	struct keep_ctx c = {p, a, t};
	uint32_t i, w = a->ntypes;

	memset(s, 0, sizeof(*s));
	s->node_cut = (int64_t)fabs((double)a->total[t] * node_fraction);
	s->kept = pt_xcalloc((size_t)a->nentries + 1, 1);
	s->order = pt_xmalloc(((size_t)a->nentries + 1) * sizeof(uint32_t));
	for (i = 0; i < a->nentries; i++) {
		int64_t cum = a->cum[(size_t)i * w + t], flat = a->flat[(size_t)i * w + t];
		if (!cum && !flat)
			continue;
		s->nentries++;
		if (i64abs(cum) < s->node_cut) {
			s->dropped++;
			continue;
		}
		s->order[s->nkept++] = i;
	}
	qsort_r(s->order, s->nkept, sizeof(*s->order), keep_cmp, &c);
	if (nodecount > 0 && s->nkept > (uint64_t)nodecount)
		s->nkept = (uint32_t)nodecount;
	for (i = 0; i < s->nkept; i++)
		s->kept[s->order[i]] = 1;
}
