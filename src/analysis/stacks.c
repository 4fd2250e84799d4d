/* stacks.c: the distinct stacks kept while reading, and the call graph over them
 * (stacks.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cum.h"
#include "analysis/stacks.h"
#include "core/functable.h"
#include "util/map.h"
#include "util/xalloc.h"

static void stacks_sample(struct pt_sink *sk, struct pt_profile *p, const uint32_t *frames,
			  size_t n, int leaf_first, uint32_t labels, const int64_t *values,
			  int64_t time);
static void stacks_scale_type(struct pt_sink *sk, struct pt_profile *p, uint32_t t, int64_t factor);

void pt_stacks_init(struct pt_stacks *s)
{
	memset(s, 0, sizeof(*s));
	s->sink.sample = stacks_sample;
	s->sink.scale_type = stacks_scale_type;
	pt_hash_key_init(&s->hkey);
	s->mask = 1023;
	s->slots = pt_xcalloc((size_t)s->mask + 1, sizeof(*s->slots));
	s->start = pt_xcalloc(1, sizeof(*s->start));
}

void pt_stacks_release(struct pt_stacks *s)
{
	free(s->bytes);
	free(s->start);
	free(s->frames);
	free(s->met);
	free(s->slots);
	free(s->values);
	memset(s, 0, sizeof(*s));
}

/* v as a little-endian base-128 varint at q; the bytes written */
static inline size_t put_varint(unsigned char *q, uint32_t v)
{
	size_t k = 0;

	while (v >= 0x80) {
		q[k++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	q[k++] = (unsigned char)v;
	return k;
}

/* the varint at *q (written by put_varint, so well formed), *q past it */
static inline uint32_t get_varint(const unsigned char **q)
{
	const unsigned char *c = *q;
	uint32_t v = 0;
	unsigned shift = 0;

	while (*c & 0x80) {
		v |= (uint32_t)(*c++ & 0x7f) << shift;
		shift += 7;
	}
	v |= (uint32_t)*c++ << shift;
	*q = c;
	return v;
}

/* the types p has now, in every row (readers add types as they meet them) */
static void sync_types(struct pt_stacks *s, const struct pt_profile *p)
{
	uint32_t w;

	if (s->ntypes >= p->ntypes)
		return;
	w = pt_row_width(s->stride, p->ntypes, pt_stacks_n(s) != 0, PT_MAX_TYPES);
	if (w > s->stride && s->rows_alloc)
		s->values = pt_rows_widen(s->values, s->rows_alloc, pt_stacks_n(s), s->stride, w);
	if (w > s->stride)
		s->stride = w;
	s->ntypes = p->ntypes;
}

/* twice the slots, each row put back by the hash its slot keeps */
static void rehash(struct pt_stacks *s)
{
	uint64_t *old = s->slots;
	uint32_t k, mask = 2 * s->mask + 1;

	s->slots = pt_xcalloc((size_t)mask + 1, sizeof(*s->slots));
	for (k = 0; k <= s->mask; k++) {
		uint32_t i;
		if (!old[k])
			continue;
		i = (uint32_t)(old[k] >> 32) & mask;
		while (s->slots[i])
			i = (i + 1) & mask;
		s->slots[i] = old[k];
	}
	s->mask = mask;
	free(old);
}

/* the row of the key just written at bytes[nbytes], len bytes: an old one, or that
 * key made a new row with zero values */
static uint32_t find_row(struct pt_stacks *s, size_t len)
{
	const unsigned char *k = s->bytes + s->nbytes;
	uint64_t tag = pt_hash_bytes(&s->hkey, k, len) << 32, x;
	uint32_t i = (uint32_t)(tag >> 32) & s->mask, r;

	while ((x = s->slots[i])) {
		r = (uint32_t)x - 1;
		if ((x & 0xffffffff00000000u) == tag && s->start[r + 1] - s->start[r] == len &&
		    !memcmp(s->bytes + s->start[r], k, len))
			return r;
		i = (i + 1) & s->mask;
	}
	if (s->n == UINT32_MAX - 1)
		pt_die("too many distinct stacks");
	r = s->n;
	if ((size_t)r + 2 > s->rows_alloc) {
		size_t w = s->stride ? s->stride : 1;
		s->rows_alloc = s->rows_alloc < 1024 ? 1024 : 2 * s->rows_alloc;
		s->start = pt_xreallocarray(s->start, s->rows_alloc, sizeof(*s->start));
		s->values = pt_xreallocarray(s->values, s->rows_alloc, w * sizeof(int64_t));
	}
	/* the new row alone is cleared: the room past it stays untouched, so unpaid */
	memset(s->values + (size_t)r * s->stride, 0, s->stride * sizeof(int64_t));
	s->nbytes += len;
	s->start[r + 1] = s->nbytes;
	s->slots[i] = tag | (r + 1);
	s->n++;
	if ((uint64_t)s->n * 4 > ((uint64_t)s->mask + 1) * 3)
		rehash(s);
	return r;
}

/* the frames of a new row that no row had before, in the order met */
static void note_frames(struct pt_stacks *s, const uint32_t *frames, size_t n, int leaf_first)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t fid = frames[leaf_first ? n - 1 - i : i];
		if (fid < s->met_alloc && s->met[fid])
			continue;
		if (fid >= s->met_alloc) {
			size_t old = s->met_alloc;
			PT_ALLOC_GROW(s->met, (size_t)fid + 1, s->met_alloc);
			memset(s->met + old, 0, s->met_alloc - old);
		}
		s->met[fid] = 1;
		PT_ALLOC_GROW(s->frames, (size_t)s->nframes + 1, s->frames_alloc);
		s->frames[s->nframes++] = fid;
	}
}

static void stacks_sample(struct pt_sink *sk, struct pt_profile *p, const uint32_t *frames,
			  size_t n, int leaf_first, uint32_t labels, const int64_t *values,
			  int64_t time)
{
	struct pt_stacks *s = (struct pt_stacks *)sk;
	unsigned char *k;
	size_t len, i;
	uint32_t r, t;
	int64_t *v;

	(void)time; /* no filter runs on these rows: they keep no time */
	sync_types(s, p);
	s->taken = 1;
	/* the key after the others' (kept if new): 5 bytes a varint at most, the label
	 * set, then the frames root first */
	PT_ALLOC_GROW(s->bytes, s->nbytes + 5 * (n + 1), s->bytes_alloc);
	k = s->bytes + s->nbytes;
	len = put_varint(k, labels);
	for (i = 0; i < n; i++)
		len += put_varint(k + len, frames[leaf_first ? n - 1 - i : i]);
	r = find_row(s, len);
	if (r + 1 == s->n)
		note_frames(s, frames, n, leaf_first);
	v = s->values + (size_t)r * s->stride;
	for (t = 0; t < s->ntypes; t++)
		v[t] = pt_add(v[t], values[t]);
}

/* saturating, as the tree's rows are scaled */
static int64_t smul(int64_t v, int64_t f)
{
	int64_t r;
	if (__builtin_mul_overflow(v, f, &r))
		return (v < 0) != (f < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

static void stacks_scale_type(struct pt_sink *sk, struct pt_profile *p, uint32_t t, int64_t factor)
{
	struct pt_stacks *s = (struct pt_stacks *)sk;
	uint32_t r;

	sync_types(s, p);
	for (r = 0; r < pt_stacks_n(s); r++)
		s->values[(size_t)r * s->stride + t] =
			smul(s->values[(size_t)r * s->stride + t], factor);
}

int pt_stacks_finish(struct pt_stacks *s, struct pt_profile *p, enum pt_granularity g)
{
	uint32_t r, t;

	if (!s->taken || p->agg)
		return 0;
	sync_types(s, p);
	p->agg = pt_xmalloc(sizeof(*p->agg));
	pt_agg_init(p->agg, p->ntypes, g);
	for (r = 0; r < pt_stacks_n(s); r++)
		for (t = 0; t < p->ntypes; t++)
			p->agg->total[t] = pt_add(p->agg->total[t], pt_stacks_value(s, r, t));
	p->no_stacks_reason = "kept as distinct stacks while reading";
	return 1;
}

/* row r's frames: a pointer to the first and their end */
static const unsigned char *row_frames(const struct pt_stacks *s, uint32_t r,
				       const unsigned char **end)
{
	const unsigned char *q = s->bytes + s->start[r];

	*end = s->bytes + s->start[r + 1];
	(void)get_varint(&q); /* the label set */
	return q;
}

const uint32_t *pt_stacks_frames(const struct pt_stacks *s, uint32_t *n)
{
	*n = s->nframes;
	return s->frames;
}

/* the graph's edges while the rows are read: per (from, to), its edge and its mark in
 * the row at hand */
struct edges {
	struct pt_map index; /* from << 32 | to -> edge */
	struct pt_cum cum;   /* per edge: met in the row at hand */
	struct pt_graph_edge *v;
	size_t alloc;
	uint32_t n;
	uint8_t *direct; /* per edge: some occurrence joins a node to its parent */
};

/* the pair (from, to) met in a row of value x (live: x is not 0) at a frame of flags
 * `flags`, `direct` if no left-out frame lies between the two */
static void note_edge(struct edges *e, uint32_t from, uint32_t to, int64_t x, int live,
		      uint32_t flags, int direct)
{
	uint32_t *slot = pt_map_put(&e->index, (uint64_t)from << 32 | to), k;

	if (*slot == PT_MAP_NEW) {
		size_t old = e->alloc;
		*slot = e->n;
		PT_ALLOC_GROW(e->v, (size_t)e->n + 1, e->alloc);
		if (e->alloc != old) {
			e->direct = pt_xreallocarray(e->direct, e->alloc, 1);
			memset(e->direct + old, 0, e->alloc - old);
		}
		memset(&e->v[e->n], 0, sizeof(e->v[e->n]));
		e->v[e->n].from = from;
		e->v[e->n].to = to;
		pt_cum_reserve(&e->cum, (size_t)e->n + 1);
		e->n++;
	}
	k = *slot;
	e->direct[k] |= (uint8_t)direct;
	/* pprof's once per stack: the rootmost occurrence charges the edge */
	if (!pt_cum_first(&e->cum, k))
		return;
	e->v[k].weight = pt_add(e->v[k].weight, x);
	if (live) {
		e->v[k].live = 1;
		e->v[k].not_inline |= !(flags & PT_FRAME_INLINED);
	}
}

/* one row of value x into g (and its edges into e, when e is not NULL) */
static void graph_row(struct pt_graph *g, struct edges *e, struct pt_cum *vcum,
		      const struct pt_profile *p, const struct pt_graph_opts *o,
		      const unsigned char *q, const unsigned char *end, int64_t x)
{
	const unsigned char *kept = o->kept;
	uint32_t prev = UINT32_MAX, v = UINT32_MAX;
	int live = x != 0, leaf_kept = 0, self = (o->flags & PT_GRAPH_SELF_EDGES) != 0;
	int direct = 0;

	pt_cum_next_stack(vcum);
	if (e)
		pt_cum_next_stack(&e->cum);
	while (q < end) {
		uint32_t fid = get_varint(&q);
		v = o->vertex[fid];
		leaf_kept = !kept || kept[v];
		if (!leaf_kept) {
			direct = 0;
			continue;
		}
		if (pt_cum_first(vcum, v)) {
			g->cum[v] = pt_add(g->cum[v], x);
			g->seen[v] |= (uint8_t)live;
		}
		if (e && prev != UINT32_MAX && (prev != v || self))
			note_edge(e, prev, v, x, live, p->frames[fid].flags, direct);
		prev = v;
		direct = 1;
	}
	/* the leaf's value is its vertex's flat, unless the vertex was left out */
	if (v != UINT32_MAX && leaf_kept)
		g->flat[v] = pt_add(g->flat[v], x);
}

void pt_stacks_graph(struct pt_graph *g, const struct pt_stacks *s, const struct pt_profile *p,
		     const struct pt_graph_opts *o, int edges)
{
	struct pt_cum vcum;
	struct edges e;
	uint32_t r, i;

	if (o->nt != 1 || o->caller || (o->flags & ~(unsigned)PT_GRAPH_SELF_EDGES) || g->nt != 1)
		pt_die("pt_stacks_graph: only pprof's graph of one type is made from stacks");
	memset(g->flat, 0, ((size_t)g->nvertices + 1) * sizeof(int64_t));
	memset(g->cum, 0, ((size_t)g->nvertices + 1) * sizeof(int64_t));
	memset(g->seen, 0, (size_t)g->nvertices + 1);
	free(g->edges);
	free(g->values);
	g->edges = NULL;
	g->values = NULL;
	g->nedges = 0;
	memset(&e, 0, sizeof(e));
	pt_map_init(&e.index);
	pt_cum_init(&vcum, (size_t)g->nvertices + 1);
	for (r = 0; r < pt_stacks_n(s); r++) {
		const unsigned char *end, *q = row_frames(s, r, &end);
		graph_row(g, edges ? &e : NULL, &vcum, p, o, q, end, pt_stacks_value(s, r, o->t));
	}
	for (i = 0; i < e.n; i++)
		e.v[i].residual = !e.direct[i];
	g->edges = e.v ? e.v : pt_xcalloc(1, sizeof(*g->edges));
	g->nedges = e.n;
	free(e.direct);
	pt_cum_release(&e.cum);
	pt_cum_release(&vcum);
	pt_map_release(&e.index);
}
