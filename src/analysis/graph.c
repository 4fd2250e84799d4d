/* graph.c: the call graph (graph.h) from one depth-first walk over the call tree, its
 * edges merged by a sort of the walk's records rather than a hash map of edges. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/graph.h"
#include "util/map.h"
#include "util/sort.h"
#include "util/xalloc.h"

void pt_graph_init(struct pt_graph *g, uint32_t nvertices)
{
	memset(g, 0, sizeof(*g));
	g->nvertices = nvertices;
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
	memset(g, 0, sizeof(*g));
}

static void graph_reset(struct pt_graph *g)
{
	memset(g->flat, 0, (size_t)g->nvertices * sizeof(int64_t));
	memset(g->cum, 0, (size_t)g->nvertices * sizeof(int64_t));
	memset(g->seen, 0, g->nvertices);
	free(g->edges);
	g->edges = NULL;
	g->nedges = 0;
}

/* what the walk reads per node of the tree */
struct nodes {
	const struct pt_profile *p;
	const uint32_t *vertex;
	const unsigned char *kept;
	uint32_t t;    /* the sample type */
	int64_t *cum;  /* the subtree's value */
	uint8_t *live; /* the subtree holds a sample row with a nonzero value */
	uint32_t *anc; /* the nearest ancestor of a kept vertex, 0 if none */
	int negative;  /* some cum is below 0 */
};

static int is_kept(const struct nodes *t, uint32_t n)
{
	return n && (!t->kept || t->kept[t->vertex[n]]);
}

/* Every node's subtree value and liveness, children before parents (a node's id is
 * above its parent's), and its nearest kept ancestor, parents before children. */
static void nodes_init(struct nodes *t, const struct pt_profile *p, const uint32_t *vertex,
		       uint32_t ty, const unsigned char *kept)
{
	size_t nn = (size_t)p->nnodes + 1;
	uint32_t n, r;

	t->p = p;
	t->vertex = vertex;
	t->kept = kept;
	t->t = ty;
	t->cum = pt_xmalloc(nn * sizeof(int64_t));
	t->live = pt_xcalloc(nn, 1);
	t->anc = pt_xmalloc(nn * sizeof(uint32_t));
	for (r = 0; r < p->nsamples; r++)
		if (p->sample_values[(size_t)r * p->ntypes + ty])
			t->live[p->samples[r].node] = 1;
	for (n = 0; n < p->nnodes; n++)
		t->cum[n] = p->node_self[(size_t)n * p->ntypes + ty];
	t->negative = 0;
	for (n = p->nnodes; n-- > 1;) {
		uint32_t par = p->nodes[n].parent;
		t->cum[par] = pt_add(t->cum[par], t->cum[n]);
		t->live[par] |= t->live[n];
		t->negative |= t->cum[n] < 0;
	}
	t->anc[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t par = p->nodes[n].parent;
		t->anc[n] = is_kept(t, par) ? par : t->anc[par];
	}
}

static void nodes_release(struct nodes *t)
{
	free(t->cum);
	free(t->live);
	free(t->anc);
}

/* a record's flags (b): its value adds to the edge; its node's parent is its caller; a
 * live subtree; live and not inlined */
enum { REC_ADDS = 1, REC_DIRECT = 2, REC_LIVE = 4, REC_NOT_INLINE = 8 };

/* A record into rec[*nrec] for edge key, or folded into the one made last for it. */
static void add_record(struct pt_keyed *rec, size_t *nrec, struct pt_recent *recent, uint64_t key,
		       int64_t value, uint32_t flags)
{
	int made;
	struct pt_keyed *k = pt_recent_record(recent, rec, nrec, key, &made);

	if (!made) {
		if (flags & REC_ADDS)
			k->x = (uint64_t)pt_add((int64_t)k->x, value);
		k->b |= flags;
		return;
	}
	k->x = flags & REC_ADDS ? (uint64_t)value : 0;
	k->a = (uint32_t)(*nrec - 1);
	k->b = flags;
}

/* the walk's state: which vertices and edges are on the path from the root */
struct path {
	uint32_t *vactive; /* per vertex: its kept nodes on the path */
	/* An edge (a, b) is on the path if the rootmost node of vertex b that made an edge
	 * came from a (first_from), or else one of the other nodes of b did: those few, b
	 * recurring, are counted per edge in a map. */
	uint32_t *count, *first_from;
	struct pt_map repeat;
	unsigned char *undo; /* per depth: 1 count, 2 the map too, 4 vactive */
	size_t undo_alloc;
};

/* entering node n of a kept vertex: its vertex's sums, and a record of its edge where
 * it is the edge's rootmost occurrence on the path (or joins n to its parent) */
static void enter_kept(struct pt_graph *g, const struct nodes *t, struct path *w, uint32_t n,
		       unsigned flags, struct pt_keyed *rec, size_t *nrec, struct pt_recent *recent,
		       unsigned ebits)
{
	const struct pt_profile *p = t->p;
	uint32_t to = t->vertex[n], d = p->nodes[n].depth, from;
	int first, direct;
	unsigned rf;

	g->flat[to] = pt_add(g->flat[to], p->node_self[(size_t)n * p->ntypes + t->t]);
	if (!w->vactive[to]++)
		g->cum[to] = pt_add(g->cum[to], t->cum[n]);
	if (t->live[n])
		g->seen[to] = 1;
	w->undo[d] |= 4;
	if (!t->anc[n])
		return;
	from = t->vertex[t->anc[n]];
	if (from == to && !(flags & PT_GRAPH_SELF_EDGES))
		return;
	direct = t->anc[n] == p->nodes[n].parent;
	if (!w->count[to]) {
		first = 1;
		w->first_from[to] = from;
	} else if (w->first_from[to] == from) {
		first = 0;
	} else {
		uint32_t *k = pt_map_put(&w->repeat, (uint64_t)from << 32 | to);
		if (*k == PT_MAP_NEW)
			*k = 0;
		first = !(*k)++;
		w->undo[d] |= 2;
	}
	w->count[to]++;
	w->undo[d] |= 1;
	/* a repeat adds nothing, but a direct one makes the edge solid */
	if (!first && !direct)
		return;
	rf = direct ? REC_DIRECT : 0;
	if (first) {
		rf |= REC_ADDS;
		if (t->live[n])
			rf |= REC_LIVE |
			      (pt_frame_of(p, n)->flags & PT_FRAME_INLINED ? 0 : REC_NOT_INLINE);
	}
	add_record(rec, nrec, recent, (uint64_t)from << ebits | to, t->cum[n], rf);
}

/* leaving node n: what entering it put on the path comes off */
static void leave(const struct nodes *t, struct path *w, uint32_t n)
{
	uint32_t v = t->vertex[n];
	unsigned char u = w->undo[t->p->nodes[n].depth];

	if (u & 4)
		w->vactive[v]--;
	if (u & 1)
		w->count[v]--;
	if (u & 2)
		(*pt_map_put(&w->repeat, (uint64_t)t->vertex[t->anc[n]] << 32 | v))--;
}

/* Depth-first: the vertices' sums into g, the edges' records into rec; returns how
 * many records. */
static size_t walk(struct pt_graph *g, const struct nodes *t, unsigned flags, struct pt_keyed *rec,
		   unsigned ebits)
{
	const struct pt_profile *p = t->p;
	uint32_t nv = g->nvertices, n;
	struct pt_recent *recent = t->negative ? NULL : pt_xcalloc(PT_RECENT_N, sizeof(*recent));
	struct path w;
	size_t nrec = 0;

	w.vactive = pt_xcalloc((size_t)nv + 1, sizeof(uint32_t));
	w.count = pt_xcalloc((size_t)nv + 1, sizeof(uint32_t));
	w.first_from = pt_xmalloc(((size_t)nv + 1) * sizeof(uint32_t));
	w.undo = NULL;
	w.undo_alloc = 0;
	pt_map_init(&w.repeat);
	n = p->nnodes ? p->nodes[0].first_child : 0;
	while (n) {
		uint32_t d = p->nodes[n].depth;
		PT_ALLOC_GROW(w.undo, (size_t)d + 1, w.undo_alloc);
		w.undo[d] = 0;
		if (is_kept(t, n))
			enter_kept(g, t, &w, n, flags, rec, &nrec, recent, ebits);
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		while (n) {
			leave(t, &w, n);
			if (p->nodes[n].next_sibling) {
				n = p->nodes[n].next_sibling;
				break;
			}
			n = p->nodes[n].parent;
		}
	}
	free(w.undo);
	free(recent);
	free(w.vactive);
	free(w.count);
	free(w.first_from);
	pt_map_release(&w.repeat);
	return nrec;
}

/* The records sorted, each run of one edge's becomes the edge. Its first record's walk
 * order marks the edge, and the marks counted up give each edge its place. So the sums
 * saturate exactly as a walk adding into a map of edges would. */
static void edges_from_records(struct pt_graph *g, struct pt_keyed *rec, size_t nrec,
			       unsigned ebits)
{
	struct pt_keyed *tmp = pt_xmalloc((nrec ? nrec : 1) * sizeof(*tmp));
	struct pt_keyed *s = pt_sort_keyed(rec, tmp, nrec, 2 * ebits);
	/* the sort's spare room, nrec records, holds nrec places */
	uint32_t *rank = (uint32_t *)(s == rec ? tmp : rec);
	uint64_t mask = ((uint64_t)1 << ebits) - 1;
	size_t i, j, nedges = 0;

	memset(rank, 0, nrec * sizeof(uint32_t));
	for (i = 0; i < nrec; i = j) {
		rank[s[i].a] = 1;
		for (j = i + 1; j < nrec && s[j].key == s[i].key; j++)
			;
	}
	for (i = 0; i < nrec; i++) {
		uint32_t m = rank[i];
		rank[i] = (uint32_t)nedges;
		nedges += m;
	}
	g->edges = pt_xmalloc((nedges ? nedges : 1) * sizeof(*g->edges));
	g->nedges = (uint32_t)nedges;
	for (i = 0; i < nrec; i = j) {
		struct pt_graph_edge *e = &g->edges[rank[s[i].a]];
		unsigned any = 0;
		e->weight = 0;
		for (j = i; j < nrec && s[j].key == s[i].key; j++) {
			if (s[j].b & REC_ADDS)
				e->weight = pt_add(e->weight, (int64_t)s[j].x);
			any |= s[j].b;
		}
		e->from = (uint32_t)(s[i].key >> ebits);
		e->to = (uint32_t)(s[i].key & mask);
		e->residual = !(any & REC_DIRECT);
		e->live = !!(any & REC_LIVE);
		e->not_inline = !!(any & REC_NOT_INLINE);
	}
	free(tmp);
}

/* Without hashing: the walk gives a record (edge; value, walk order, flags) per node that
 * adds to an edge or makes it direct, a stable radix sort brings each edge's records
 * together in walk order, and each run becomes an edge, put in place by the walk order of
 * its first record. A record met again soon after takes the new one in where no value is
 * negative (pt_recent). */
void pt_graph_build(struct pt_graph *g, const struct pt_profile *p, const uint32_t *vertex_of_node,
		    uint32_t t, const unsigned char *kept, unsigned flags)
{
	unsigned ebits = pt_bits(g->nvertices);
	struct pt_keyed *rec = pt_xmalloc((p->nnodes ? p->nnodes : 1) * sizeof(*rec));
	struct nodes nodes;
	size_t nrec;

	graph_reset(g);
	nodes_init(&nodes, p, vertex_of_node, t, kept);
	nrec = walk(g, &nodes, flags, rec, ebits);
	nodes_release(&nodes);
	edges_from_records(g, rec, nrec, ebits);
	free(rec);
}

void pt_graph_from_agg(struct pt_graph *g, const struct pt_agg *a, uint32_t t,
		       const unsigned char *kept)
{
	uint32_t i, w = a->ntypes;

	graph_reset(g);
	for (i = 0; i < g->nvertices && i < a->nentries; i++) {
		g->flat[i] = a->flat[(size_t)i * w + t];
		g->cum[i] = a->cum[(size_t)i * w + t];
		g->seen[i] = g->flat[i] || g->cum[i];
	}
	g->edges = pt_xmalloc(((size_t)a->nedges + 1) * sizeof(*g->edges));
	for (i = 0; i < a->nedges; i++) {
		const struct pt_agg_edge *ae = &a->edges[i];
		struct pt_graph_edge *e;
		if (kept && (!kept[ae->caller] || !kept[ae->callee]))
			continue;
		e = &g->edges[g->nedges++];
		e->from = ae->caller;
		e->to = ae->callee;
		e->weight = a->edge_value[(size_t)i * w + t];
		e->live = e->weight != 0;
		e->not_inline = 1;
		e->residual = 0;
	}
}

uint32_t *pt_graph_entry_vertices(const struct pt_profile *p, const struct pt_agg *a)
{
	uint32_t *frame_entry = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	uint32_t *v = pt_xmalloc(((size_t)p->nnodes + 1) * sizeof(uint32_t)), i;

	for (i = 0; i < p->nframes; i++)
		frame_entry[i] = UINT32_MAX;
	v[0] = UINT32_MAX;
	for (i = 1; i < p->nnodes; i++) {
		uint32_t fid = p->nodes[i].frame;
		if (frame_entry[fid] == UINT32_MAX)
			frame_entry[fid] = pt_agg_find_frame(p, a, fid);
		v[i] = frame_entry[fid];
	}
	free(frame_entry);
	return v;
}
