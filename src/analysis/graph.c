/* graph.c: the call graph (graph.h) from one depth-first walk over the call tree, its
 * edges merged by a sort of the walk's records rather than a hash map of edges; and
 * the same graph as callgrind charges calls (pt_graph_calls). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/fold.h"
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

/* a record's flags (b): its value adds to the edge; its node's parent is its caller; a
 * live subtree; live and not inlined */
enum { REC_ADDS = 1, REC_DIRECT = 2, REC_LIVE = 4, REC_NOT_INLINE = 8 };

/* one level of the walk: a node on the current path */
struct level {
	uint32_t node;
	uint32_t vertex;
	uint32_t caller;   /* the nearest node of a kept vertex at or above this one, 0: none */
	uint32_t from;	   /* the vertex of the caller above, when undo & 3 */
	size_t rec;	   /* the record this node adds its value to, + 1; 0: none */
	int64_t inclusive; /* the subtree's value so far */
	uint8_t live;	   /* the subtree holds a sample row with a nonzero value */
	uint8_t inlined;   /* the node's frame is an inlined one */
	/* what leaving undoes: 1 count, 2 the repeat map too, 4 vactive, 8 the vertex's
	 * rootmost occurrence on the path */
	uint8_t undo;
};

/* the walk's state */
struct walk {
	struct pt_graph *g;
	const struct pt_profile *p;
	const uint32_t *vertex; /* per frame */
	const unsigned char *kept;
	uint32_t t;
	unsigned flags, ebits;
	uint8_t *live;	   /* per node: a sample row with a nonzero value */
	uint32_t *vactive; /* per vertex: its kept nodes on the path */
	/* An edge (a, b) is on the path if the rootmost node of vertex b that made an edge
	 * came from a (first_from), or else one of the other nodes of b did: those few, b
	 * recurring, are counted per edge in a map. */
	uint32_t *count, *first_from;
	struct pt_map repeat;
	struct pt_keyed *rec;
	size_t nrec;
	struct pt_recent *recent; /* NULL: some value is negative, no folding */
	int any_inlined;	  /* some frame is inlined: look at each one */
};

/* A record into rec[nrec] for edge key, or folded into the one made last for it; its
 * index. */
static size_t add_record(struct walk *w, uint64_t key, uint32_t flags)
{
	int made;
	struct pt_keyed *k = pt_recent_record(w->recent, w->rec, &w->nrec, key, &made);

	if (!made) {
		k->b |= flags;
	} else {
		k->x = 0;
		k->a = (uint32_t)(w->nrec - 1);
		k->b = flags;
	}
	return (size_t)(k - w->rec);
}

/* entering node n of a kept vertex below the kept node anc (0: none): its flat value,
 * and a record of its edge where it is the edge's rootmost occurrence on the path (its
 * value added on leaving) or joins n to its parent */
static void enter_kept(struct walk *w, struct level *l, uint32_t anc, int64_t self)
{
	const struct pt_profile *p = w->p;
	uint32_t n = l->node, to = l->vertex, from;
	int first, direct;

	w->g->flat[to] = pt_add(w->g->flat[to], self);
	l->undo |= w->vactive[to]++ ? 4 : 4 | 8;
	if (!anc)
		return;
	from = w->vertex[p->nodes[anc].frame];
	if (from == to && !(w->flags & PT_GRAPH_SELF_EDGES))
		return;
	direct = anc == p->nodes[n].parent;
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
		l->undo |= 2;
	}
	w->count[to]++;
	l->undo |= 1;
	l->from = from;
	/* a repeat adds nothing, but a direct one makes the edge solid */
	if (first || direct) {
		size_t r = add_record(w, (uint64_t)from << w->ebits | to,
				      (first ? REC_ADDS : 0) | (direct ? REC_DIRECT : 0));
		if (first) {
			l->rec = r + 1;
			l->inlined = w->any_inlined &&
				     (pt_frame_of(p, n)->flags & PT_FRAME_INLINED) != 0;
		}
	}
}

/* leaving level l: its sums go to its vertex, its edge's record and the level above */
static void leave(struct walk *w, struct level *l, struct level *up)
{
	uint32_t v = l->vertex;

	if (l->undo & 4) {
		w->vactive[v]--;
		if (l->undo & 8)
			w->g->cum[v] = pt_add(w->g->cum[v], l->inclusive);
		if (l->live)
			w->g->seen[v] = 1;
	}
	if (l->undo & 1)
		w->count[v]--;
	if (l->undo & 2)
		(*pt_map_put(&w->repeat, (uint64_t)l->from << 32 | v))--;
	if (l->rec) {
		struct pt_keyed *k = &w->rec[l->rec - 1];
		k->x = (uint64_t)pt_add((int64_t)k->x, l->inclusive);
		if (l->live)
			k->b |= REC_LIVE | (l->inlined ? 0 : REC_NOT_INLINE);
	}
	if (up) {
		up->inclusive = pt_add(up->inclusive, l->inclusive);
		up->live |= l->live;
	}
}

/* the nodes holding a sample row with a nonzero value of type t; *negative: some
 * node's value of t is below 0 */
static uint8_t *live_nodes(const struct pt_profile *p, uint32_t t, int *negative)
{
	uint8_t *live = pt_xcalloc((size_t)p->nnodes + 1, 1);
	uint32_t r, n;

	for (r = 0; r < p->nsamples; r++)
		if (p->sample_values[(size_t)r * p->ntypes + t])
			live[p->samples[r].node] = 1;
	*negative = 0;
	for (n = 0; n < p->nnodes; n++)
		*negative |= p->node_self[(size_t)n * p->ntypes + t] < 0;
	return live;
}

/* Depth-first without recursion: the vertices' sums into g, the edges' records into
 * w->rec. Each level keeps its subtree's sum, added to the level above on the way out,
 * so memory grows with the depth, not with the number of nodes. */
static void walk(struct walk *w)
{
	const struct pt_profile *p = w->p;
	struct level *st = NULL;
	size_t depth = 0, alloc = 0;
	uint32_t n = p->nnodes ? p->nodes[0].first_child : 0;

	while (n) {
		uint32_t caller = depth ? st[depth - 1].caller : 0;
		int64_t self = p->node_self[(size_t)n * p->ntypes + w->t];
		struct level *l;

		PT_ALLOC_GROW(st, depth + 1, alloc);
		l = &st[depth];
		l->node = n;
		l->vertex = w->vertex[p->nodes[n].frame];
		l->rec = 0;
		l->inclusive = self;
		l->live = w->live[n];
		l->undo = 0;
		l->inlined = 0;
		if (!w->kept || w->kept[l->vertex]) {
			enter_kept(w, l, caller, self);
			caller = n;
		}
		l->caller = caller;
		depth++;
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		/* leave n and every ancestor whose children are all done */
		n = 0;
		while (depth) {
			uint32_t m = st[depth - 1].node;
			leave(w, &st[depth - 1], depth >= 2 ? &st[depth - 2] : NULL);
			depth--;
			if (p->nodes[m].next_sibling) {
				n = p->nodes[m].next_sibling;
				break;
			}
		}
	}
	free(st);
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
		int64_t weight = 0;
		unsigned any = 0;
		for (j = i; j < nrec && s[j].key == s[i].key; j++) {
			if (s[j].b & REC_ADDS)
				weight = pt_add(weight, (int64_t)s[j].x);
			any |= s[j].b;
		}
		/* one store per edge: the edges are written in no order */
		g->edges[rank[s[i].a]] = (struct pt_graph_edge){(uint32_t)(s[i].key >> ebits),
								(uint32_t)(s[i].key & mask),
								!!(any & REC_LIVE),
								!!(any & REC_NOT_INLINE),
								!(any & REC_DIRECT),
								weight};
	}
	free(tmp);
}

/* Without hashing: the walk gives a record (edge; value, walk order, flags) per node that
 * adds to an edge or makes it direct, a stable radix sort brings each edge's records
 * together in walk order, and each run becomes an edge, put in place by the walk order of
 * its first record. A record met again soon after takes the new one in where no value is
 * negative (pt_recent). */
void pt_graph_build(struct pt_graph *g, const struct pt_profile *p, const uint32_t *vertex_of_frame,
		    uint32_t t, const unsigned char *kept, unsigned flags)
{
	struct walk w;
	uint32_t i;
	int negative;

	graph_reset(g);
	memset(&w, 0, sizeof(w));
	w.g = g;
	w.p = p;
	w.vertex = vertex_of_frame;
	w.kept = kept;
	w.t = t;
	w.flags = flags;
	w.ebits = pt_bits(g->nvertices);
	w.live = live_nodes(p, t, &negative);
	for (i = 1; i < p->nframes && !w.any_inlined; i++)
		w.any_inlined = (p->frames[i].flags & PT_FRAME_INLINED) != 0;
	w.recent = negative ? NULL : pt_xcalloc(PT_RECENT_N, sizeof(*w.recent));
	w.vactive = pt_xcalloc((size_t)g->nvertices + 1, sizeof(uint32_t));
	w.count = pt_xcalloc((size_t)g->nvertices + 1, sizeof(uint32_t));
	w.first_from = pt_xmalloc(((size_t)g->nvertices + 1) * sizeof(uint32_t));
	w.rec = pt_xmalloc((p->nnodes ? p->nnodes : 1) * sizeof(*w.rec));
	pt_map_init(&w.repeat);
	walk(&w);
	free(w.live);
	free(w.recent);
	free(w.vactive);
	free(w.count);
	free(w.first_from);
	pt_map_release(&w.repeat);
	edges_from_records(g, w.rec, w.nrec, w.ebits);
	free(w.rec);
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

	/* without inlined frames there is no mark: skip the walk over every stack */
	for (f = 1; f < p->nframes; f++)
		if (p->frames[f].flags & PT_FRAME_INLINED)
			break;
	if (f >= p->nframes || !pt_profile_has_stacks(p))
		return marks;
	name_of = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	for (f = 0; f < p->nframes; f++)
		name_of[f] = p->funcs[p->frames[f].func].name;
	pt_graph_init(&g, p->strings.n + 1);
	pt_graph_build(&g, p, name_of, t, NULL, 0);
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

/* ---- the calls as callgrind charges them (graph.h) ----
 *
 * Made without hashing: positions come from a sort of the frames; self values are summed
 * per position in node order; each call gives one record in depth-first order, and a
 * stable sort brings each edge's records together in that order, edges in (position,
 * callee) order. */

/* Positions: the frames sorted by function, then line as a signed 32-bit number (less
 * the least, for a short key), with rec and tmp (nf records each) as room; frame 0 is
 * the root's caller, (0, 0). */
static void calls_positions(const struct pt_profile *p, struct pt_graph_calls *c, uint32_t nf,
			    struct pt_keyed *rec, struct pt_keyed *tmp)
{
	uint64_t lmin = UINT32_MAX, lmax = 0;
	struct pt_keyed *s;
	unsigned lbits;
	uint32_t fr, i;

	c->exact = 1;
	for (fr = 0; fr < nf; fr++) {
		int64_t l = fr ? p->frames[fr].line : 0;
		uint64_t u = (uint32_t)l ^ 0x80000000u;
		if (l < INT32_MIN || l > INT32_MAX)
			c->exact = 0;
		if (u < lmin)
			lmin = u;
		if (u > lmax)
			lmax = u;
	}
	lbits = pt_bits(lmax - lmin);
	for (fr = 0; fr < nf; fr++) {
		uint64_t u = (uint32_t)(fr ? p->frames[fr].line : 0) ^ 0x80000000u;
		rec[fr].key = (uint64_t)(fr ? p->frames[fr].func : 0) << lbits | (u - lmin);
		rec[fr].a = fr;
	}
	s = pt_sort_keyed(rec, tmp, nf, pt_bits(p->nfuncs) + lbits);
	c->fpos = pt_xmalloc((size_t)nf * sizeof(uint32_t));
	c->pos_func = pt_xmalloc((size_t)nf * sizeof(uint32_t));
	c->pos_line = pt_xmalloc((size_t)nf * sizeof(int64_t));
	for (i = 0; i < nf; i++) {
		fr = s[i].a;
		if (!i || s[i].key != s[i - 1].key) {
			c->pos_func[c->npos] = fr ? p->frames[fr].func : 0;
			c->pos_line[c->npos] = fr ? p->frames[fr].line : 0;
			c->npos++;
		}
		c->fpos[fr] = c->npos - 1;
	}
}

/* inclusive values of the types, children into parents from the last node back;
 * *negative is set if any node's is below 0 */
static int64_t *calls_inclusive(const struct pt_profile *p, uint32_t t0, uint32_t nt, int *negative)
{
	uint32_t w = p->ntypes, n, k;
	int64_t *ncum =
		pt_xmalloc((size_t)(p->nnodes ? p->nnodes : 1) * (nt ? nt : 1) * sizeof(int64_t));

	if (nt == w && !t0) {
		memcpy(ncum, p->node_self, (size_t)p->nnodes * w * sizeof(int64_t));
	} else {
		for (n = 0; n < p->nnodes; n++)
			for (k = 0; k < nt; k++)
				ncum[(size_t)n * nt + k] = p->node_self[(size_t)n * w + t0 + k];
	}
	*negative = 0;
	for (n = p->nnodes; n-- > 1;) {
		int64_t *dst = ncum + (size_t)p->nodes[n].parent * nt;
		const int64_t *src = ncum + (size_t)n * nt;
		for (k = 0; k < nt; k++) {
			dst[k] = pt_add(dst[k], src[k]);
			*negative |= src[k] < 0;
		}
	}
	return ncum;
}

/* self values per position, in node order */
static void calls_self(const struct pt_profile *p, struct pt_graph_calls *c)
{
	uint32_t w = p->ntypes, nt = c->nt, n, k;

	c->self_frame = pt_xmalloc((size_t)c->npos * sizeof(uint32_t));
	memset(c->self_frame, 0xff, (size_t)c->npos * sizeof(uint32_t));
	c->self = pt_xcalloc((size_t)c->npos * (nt ? nt : 1), sizeof(int64_t));
	for (n = 1; n < p->nnodes; n++) {
		const int64_t *v = p->node_self + (size_t)n * w + c->t0;
		uint32_t fr, pos;
		for (k = 0; k < nt; k++)
			if (v[k])
				break;
		if (k == nt)
			continue;
		fr = p->nodes[n].frame;
		pos = c->fpos[fr];
		if (c->self_frame[pos] == UINT32_MAX)
			c->self_frame[pos] = fr;
		for (k = 0; k < nt; k++)
			c->self[(size_t)pos * nt + k] = pt_add(c->self[(size_t)pos * nt + k], v[k]);
	}
}

/* Depth-first, a record at each rootmost occurrence of a function, b the occurrences it
 * stands for, into rec; returns how many. With fold (one type, no negative value), a
 * record of a key met again soon after takes the new one in (pt_recent). */
static size_t calls_walk(const struct pt_profile *p, const struct pt_graph_calls *c,
			 struct pt_keyed *rec, int fold)
{
	uint32_t n, *active = pt_xcalloc((size_t)p->nfuncs + 1, sizeof(uint32_t));
	struct pt_recent *recent = fold ? pt_xcalloc(PT_RECENT_N, sizeof(*recent)) : NULL;
	size_t nrec = 0;

	n = p->nnodes ? p->nodes[0].first_child : 0;
	while (n) {
		uint32_t func = p->frames[p->nodes[n].frame].func;
		if (!active[func]++) {
			uint32_t par = p->nodes[n].parent;
			uint64_t key =
				(uint64_t)c->fpos[par ? p->nodes[par].frame : 0] << c->cbits | func;
			int made;
			struct pt_keyed *k = pt_recent_record(recent, rec, &nrec, key, &made);
			if (made) {
				k->a = n;
				k->b = 1;
				k->x = c->nt == 1 ? (uint64_t)c->ncum[n] : 0;
			} else {
				k->x = (uint64_t)pt_add((int64_t)k->x, c->ncum[n]);
				k->b++;
			}
		}
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		while (n) {
			active[p->frames[p->nodes[n].frame].func]--;
			if (p->nodes[n].next_sibling) {
				n = p->nodes[n].next_sibling;
				break;
			}
			n = p->nodes[n].parent;
		}
	}
	free(active);
	free(recent);
	return nrec;
}

void pt_graph_calls_build(struct pt_graph_calls *c, const struct pt_profile *p, uint32_t t0,
			  uint32_t nt)
{
	uint32_t nf = p->nframes ? p->nframes : 1;
	size_t cap = nf > p->nnodes ? nf : p->nnodes;
	struct pt_keyed *rec = pt_xmalloc(cap * sizeof(*rec)), *tmp;
	int negative;

	memset(c, 0, sizeof(*c));
	c->t0 = t0;
	c->nt = nt;
	tmp = pt_xmalloc((size_t)nf * sizeof(*tmp));
	calls_positions(p, c, nf, rec, tmp);
	free(tmp);
	c->ncum = calls_inclusive(p, t0, nt, &negative);
	calls_self(p, c);
	c->cbits = pt_bits(p->nfuncs);
	c->ncalls = calls_walk(p, c, rec, nt == 1 && !negative);
	tmp = pt_xmalloc((c->ncalls ? c->ncalls : 1) * sizeof(*tmp));
	c->calls = pt_sort_keyed(rec, tmp, c->ncalls, pt_bits(c->npos - 1) + c->cbits);
	c->spare = c->calls == rec ? tmp : rec;
}

void pt_graph_calls_release(struct pt_graph_calls *c)
{
	free(c->fpos);
	free(c->pos_func);
	free(c->pos_line);
	free(c->self_frame);
	free(c->self);
	free(c->ncum);
	free(c->calls);
	free(c->spare);
	memset(c, 0, sizeof(*c));
}

uint64_t pt_graph_calls_next(const struct pt_graph_calls *c, size_t *i, int64_t *v,
			     uint32_t *callee, uint32_t *node)
{
	uint64_t key = c->calls[*i].key, calls = 0;
	uint32_t k;
	size_t j;

	*callee = (uint32_t)(key & (((uint64_t)1 << c->cbits) - 1));
	*node = c->calls[*i].a;
	for (k = 0; k < c->nt; k++)
		v[k] = 0;
	if (c->nt == 1) {
		for (j = *i; j < c->ncalls && c->calls[j].key == key; j++) {
			v[0] = pt_add(v[0], (int64_t)c->calls[j].x);
			calls += c->calls[j].b;
		}
	} else {
		for (j = *i; j < c->ncalls && c->calls[j].key == key; j++, calls++) {
			const int64_t *src = c->ncum + (size_t)c->calls[j].a * c->nt;
			for (k = 0; k < c->nt; k++)
				v[k] = pt_add(v[k], src[k]);
		}
	}
	*i = j;
	return calls;
}
