/* svg.c: an interactive flame graph as one self-contained SVG, like FlameGraph's
 * flamegraph.pl draws (hover details, click to zoom, search with matched %), write only.
 * Frames of the same name (and kind) under the same parent merge; siblings are sorted by
 * name, or, as a flame chart, kept in time order. With sample types "base" and "new"
 * (the differential collapsed form) widths follow "new" and colours the change: red
 * grew, blue shrank. See formats/svg.md. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "formats/format.h"
#include "util/intern.h"
#include "util/map.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

#define FRAME_H	    16
#define FONT_SIZE   12
#define FONT_WIDTH  0.59
#define XPAD	    10
#define YPAD_TOP    (FONT_SIZE * 3)
#define YPAD_BOTTOM (FONT_SIZE * 2 + 10)
#define NOTE_H	    (FONT_SIZE + 6) /* the line saying what was not drawn */

/* the kinds that change a frame's colour, kept in its merge key */
#define KIND_MASK (PT_FRAME_KERNEL | PT_FRAME_JIT | PT_FRAME_INLINED | PT_FRAME_SYNTHETIC)

/* a merged frame: (parent, key) */
struct mnode {
	uint32_t parent, key, first_child, next_sibling;
	int64_t self, self_base;
};

/* a drawn rectangle */
struct rect {
	double x0, x1; /* in value units from the left */
	uint32_t id;   /* the node (in the graph; in the chart, 0) */
	uint32_t depth, key;
	int64_t value, base; /* inclusive value (and base's, in differential mode) */
};

struct keyinfo;

struct svg {
	const struct pt_profile *p;
	const struct pt_write_opts *o;
	uint32_t t, tb; /* the type drawn; base type or UINT32_MAX */
	struct pt_arena arena;
	struct pt_intern keys;	/* kind byte ('@' + flags) + name */
	uint32_t *key_of_frame; /* per profile frame */
	struct rect *rects;
	size_t nrects, rects_alloc;
	double min_value; /* narrower rects are dropped */
	/* frames of positive width, drawn or not; of them, left out as narrower than
	 * min_value and past the --max-frames cap */
	size_t drawable, cut_narrow, cut_cap;
	struct pt_buf b;
	struct keyinfo *kinfo; /* per key, filled as frames are written */
	struct pt_buf names;   /* the strings kinfo points into */
};

static uint32_t frame_key(struct svg *s, uint32_t fid)
{
	const struct pt_profile *p = s->p;
	if (s->key_of_frame[fid] == UINT32_MAX) {
		const struct pt_frame *f = &p->frames[fid];
		uint32_t name = p->funcs[f->func].name;
		char kind = (char)('@' + (f->flags & KIND_MASK));
		pt_buf_reset(&s->b);
		pt_buf_addch(&s->b, kind);
		pt_buf_add(&s->b, pt_s(p, name), pt_intern_len(&p->strings, name));
		s->key_of_frame[fid] = pt_intern(&s->keys, s->b.buf, s->b.len);
	}
	return s->key_of_frame[fid];
}

static void add_rect(struct svg *s, uint32_t id, double x0, double x1, uint32_t depth, uint32_t key,
		     int64_t value, int64_t base)
{
	if (x1 - x0 < s->min_value) {
		s->cut_narrow++;
		return;
	}
	PT_ALLOC_GROW(s->rects, s->nrects + 1, s->rects_alloc);
	s->rects[s->nrects++] = (struct rect){x0, x1, id, depth, key, value, base};
}

/* ---- flame graph: a tree merged by key, children sorted by name ---- */

struct merged {
	struct mnode *n;
	size_t nn, alloc;
	struct pt_map index;
};

static uint32_t mnew(struct merged *m, uint32_t parent, uint32_t key)
{
	uint32_t id = (uint32_t)m->nn;
	PT_ALLOC_GROW(m->n, m->nn + 1, m->alloc);
	m->n[id] = (struct mnode){parent, key, 0, m->n[parent].first_child, 0, 0};
	m->n[parent].first_child = id;
	m->nn++;
	return id;
}

static uint32_t mchild(struct merged *m, uint32_t parent, uint32_t key)
{
	uint32_t *slot = pt_map_put(&m->index, (uint64_t)parent << 32 | key);
	if (*slot == PT_MAP_NEW)
		*slot = mnew(m, parent, key);
	return *slot;
}

static int key_cmp(const void *a, const void *b, void *ctx)
{
	const struct svg *s = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const char *xs = pt_intern_str(&s->keys, x), *ys = pt_intern_str(&s->keys, y);
	size_t xl = pt_intern_len(&s->keys, x), yl = pt_intern_len(&s->keys, y);
	int c = memcmp(xs + 1, ys + 1, (xl < yl ? xl : yl) - 1); /* by name, then kind */
	if (c || xl != yl)
		return c ? c : (xl > yl) - (xl < yl);
	return (unsigned char)xs[0] - (unsigned char)ys[0];
}

/* The tree the graph is drawn from: the merged tree, or, when no two frames share a key
 * (nothing can merge), the profile's own tree, node for node, without a copy. */
struct gview {
	const struct svg *s;
	const struct mnode *m; /* NULL: the profile's tree */
};

static uint32_t g_first(const struct gview *g, uint32_t i)
{
	return g->m ? g->m[i].first_child : g->s->p->nodes[i].first_child;
}

static uint32_t g_next(const struct gview *g, uint32_t i)
{
	return g->m ? g->m[i].next_sibling : g->s->p->nodes[i].next_sibling;
}

static uint32_t g_key(const struct gview *g, uint32_t i)
{
	return g->m ? g->m[i].key : g->s->key_of_frame[g->s->p->nodes[i].frame];
}

/* Merge in node order. Only a node whose key several frames share, or one below it, can
 * meet another node of the same path: the others skip the hash. Returns 0 if some value
 * of type t is negative. */
static int merge_graph(struct svg *s, const uint8_t *shared, struct merged *m)
{
	const struct pt_profile *p = s->p;
	uint32_t *of_node, n;
	uint8_t *tainted;
	int nonneg = 1;

	memset(m, 0, sizeof(*m));
	pt_map_init(&m->index);
	PT_ALLOC_GROW(m->n, p->nnodes, m->alloc);
	memset(&m->n[0], 0, sizeof(m->n[0]));
	m->nn = 1;
	of_node = pt_xmalloc((size_t)(p->nnodes + 1) * sizeof(uint32_t));
	tainted = pt_xmalloc((size_t)p->nnodes + 1);
	of_node[0] = 0;
	tainted[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t par = p->nodes[n].parent, key = s->key_of_frame[p->nodes[n].frame], id;
		int64_t v = p->node_self[(size_t)n * p->ntypes + s->t];
		tainted[n] = tainted[par] || shared[key] > 1;
		id = tainted[n] ? mchild(m, of_node[par], key) : mnew(m, of_node[par], key);
		of_node[n] = id;
		m->n[id].self = pt_add(m->n[id].self, v);
		if (s->tb != UINT32_MAX)
			m->n[id].self_base = pt_add(m->n[id].self_base,
						    p->node_self[(size_t)n * p->ntypes + s->tb]);
		nonneg &= v >= 0;
	}
	free(of_node);
	free(tainted);
	return nonneg;
}

/* Inclusive values of type t, the one array per node the layout needs: a child always
 * comes after its parent, so one pass from the last node adds each into its parent.
 * Returns 0 if some value is negative. */
static int inclusive(const struct gview *g, size_t nn, uint32_t t, int64_t **out)
{
	int64_t *cum = pt_xmalloc(nn * sizeof(int64_t));
	size_t i;
	int64_t neg = 0;

	if (g->m) {
		const struct mnode *m = g->m;
		for (i = 0; i < nn; i++) {
			cum[i] = t == g->s->t ? m[i].self : m[i].self_base;
			neg |= cum[i];
		}
		for (i = nn; i-- > 1;)
			cum[m[i].parent] = pt_add(cum[m[i].parent], cum[i]);
	} else {
		/* the profile's own tree: millions of nodes, so no call per node */
		const struct pt_profile *p = g->s->p;
		const struct pt_node *nodes = p->nodes;
		const int64_t *self = p->node_self + t;
		size_t stride = p->ntypes;
		if (stride == 1) { /* one sample type: a copy, which vectorizes */
			memcpy(cum, self, nn * sizeof(int64_t));
			for (i = 0; i < nn; i++)
				neg |= self[i];
		} else {
			for (i = 0; i < nn; i++) {
				cum[i] = self[i * stride];
				neg |= cum[i];
			}
		}
		for (i = nn; i-- > 1;)
			cum[nodes[i].parent] = pt_add(cum[nodes[i].parent], cum[i]);
	}
	*out = cum;
	return neg >= 0;
}

/* a child to place: its key, and the key's place in name order, beside it, so sorting
 * compares two integers and reads no node (a node's children have distinct keys) */
struct kid {
	uint32_t rank, key, id;
};

static int kid_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct kid *)a)->rank, y = ((const struct kid *)b)->rank;
	return (x > y) - (x < y);
}

/* rank[key]: the key's place in name order (key_cmp), for every key (id 0, the empty
 * string, is no key) */
static uint32_t *key_ranks(const struct svg *s)
{
	uint32_t n = s->keys.n, *order = pt_xmalloc((size_t)(n ? n : 1) * sizeof(uint32_t));
	uint32_t *rank = pt_xcalloc((size_t)(n ? n : 1), sizeof(uint32_t)), k;

	for (k = 1; k < n; k++)
		order[k - 1] = k;
	if (n > 2)
		qsort_r(order, n - 1, sizeof(*order), key_cmp, (void *)s);
	for (k = 1; k < n; k++)
		rank[order[k - 1]] = k;
	free(order);
	return rank;
}

static int rect_id_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct rect *)a)->id, y = ((const struct rect *)b)->id;
	return (x > y) - (x < y);
}

/* a placed node whose children are to be placed */
struct todo {
	uint32_t id, depth;
	double x;
};

static void layout_graph(struct svg *s)
{
	const struct pt_profile *p = s->p;
	struct merged m;
	struct gview g;
	struct todo *todo = NULL;
	size_t ntodo = 0, todo_alloc = 0, nkids, kalloc = 0, k, nn;
	uint32_t f, c;
	struct kid *kids = NULL;
	int64_t *cum = NULL, *cumb = NULL;
	uint8_t *shared;
	uint32_t *rank;
	int prune = 1, any_shared = 0;

	for (f = 1; f < p->nframes; f++)
		frame_key(s, f);
	rank = key_ranks(s);
	shared = pt_xcalloc((size_t)s->keys.n + 1, 1);
	for (f = 1; f < p->nframes; f++)
		if (shared[s->key_of_frame[f]]++)
			any_shared = 1, shared[s->key_of_frame[f]] = 2;
	g.s = s;
	/* without shared keys nothing can merge: node n is merged node n */
	g.m = NULL;
	nn = p->nnodes;
	if (any_shared) {
		prune = merge_graph(s, shared, &m);
		g.m = m.n;
		nn = m.nn;
	}
	free(shared);
	prune &= inclusive(&g, nn, s->t, &cum);
	if (s->tb != UINT32_MAX)
		inclusive(&g, nn, s->tb, &cumb);

	/* Place children left to right, sorted by name, from the root down, visiting only
	 * the nodes placed (no array per node for x, depth, placed); the rectangles are
	 * written in node order. A frame narrower than half the minimum width is
	 * drawn by nobody below it either (no value is negative), so its children are
	 * neither sorted nor placed; the half leaves room for rounding in x1 - x0, which
	 * is below total * 2^-51 (hence no pruning for absurdly small minimum widths). */
	if (s->min_value <= (double)cum[0] * 1e-12)
		prune = 0;
	PT_ALLOC_GROW(todo, 1, todo_alloc);
	todo[ntodo++] = (struct todo){0, 0, 0};
	while (ntodo) {
		struct todo t = todo[--ntodo];
		double at = t.x;
		if (prune && (double)cum[t.id] * 2 < s->min_value)
			continue;
		nkids = 0;
		for (c = g_first(&g, t.id); c; c = g_next(&g, c)) {
			PT_ALLOC_GROW(kids, nkids + 1, kalloc);
			uint32_t key = g_key(&g, c);
			kids[nkids++] = (struct kid){rank[key], key, c};
		}
		if (nkids > 1)
			qsort(kids, nkids, sizeof(*kids), kid_cmp);
		PT_ALLOC_GROW(todo, ntodo + nkids, todo_alloc);
		for (k = 0; k < nkids; k++) {
			c = kids[k].id;
			if (cum[c] > 0)
				add_rect(s, c, at, at + (double)cum[c], t.depth, kids[k].key,
					 cum[c], cumb ? cumb[c] : 0);
			todo[ntodo++] = (struct todo){c, t.depth + 1, at};
			at += (double)(cum[c] > 0 ? cum[c] : 0);
		}
	}
	if (s->nrects > 1)
		qsort(s->rects, s->nrects, sizeof(*s->rects), rect_id_cmp);
	/* what a subtree left unvisited held: every frame of positive width is drawable */
	for (k = 1; k < nn; k++)
		s->drawable += cum[k] > 0;
	s->cut_narrow = s->drawable - s->nrects;
	free(todo);
	free(kids);
	free(rank);
	free(cum);
	free(cumb);
	if (g.m) {
		free(m.n);
		pt_map_release(&m.index);
	}
}

/* ---- flame chart: stacks in time order, equal neighbours merged ---- */

struct open_frame {
	uint32_t key;
	double x0;
	int64_t value;
};

static void layout_chart(struct svg *s)
{
	const struct pt_profile *p = s->p;
	struct open_frame *open = NULL;
	size_t nopen = 0, oalloc = 0, i, n, d;
	uint32_t *path = NULL;
	size_t palloc = 0;
	double xnow = 0;

	n = p->nevents ? p->nevents : p->nsamples;
	for (i = 0; i <= n; i++) {
		size_t depth = 0, common = 0;
		int64_t v = 0;
		if (i < n) {
			uint32_t row = p->nevents ? p->events[i].sample : (uint32_t)i, node;
			v = p->nevents ? p->event_values[i * p->ntypes + s->t]
				       : p->sample_values[(size_t)row * p->ntypes + s->t];
			if (v <= 0)
				continue;
			node = p->samples[row].node;
			depth = p->nodes[node].depth;
			PT_ALLOC_GROW(path, depth + 1, palloc);
			for (d = depth; d > 0; d--) {
				path[d - 1] = frame_key(s, p->nodes[node].frame);
				node = p->nodes[node].parent;
			}
			while (common < depth && common < nopen && open[common].key == path[common])
				common++;
		}
		/* close what this stack does not continue */
		while (nopen > common) {
			nopen--;
			add_rect(s, 0, open[nopen].x0, xnow, (uint32_t)nopen, open[nopen].key,
				 open[nopen].value, 0);
		}
		PT_ALLOC_GROW(open, depth + 1, oalloc);
		for (d = common; d < depth; d++)
			open[d] = (struct open_frame){path[d], xnow, 0};
		nopen = depth;
		for (d = 0; d < depth; d++)
			open[d].value = pt_add(open[d].value, v);
		xnow += (double)v;
	}
	s->drawable = s->nrects + s->cut_narrow;
	free(open);
	free(path);
}

/* the widest first; of equal width the shallower, so a frame's parent, never narrower
 * than it, always comes first */
static int rect_rank_cmp(const void *a, const void *b, void *ctx)
{
	const struct rect *r = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (r[x].value != r[y].value)
		return r[x].value > r[y].value ? -1 : 1;
	if (r[x].depth != r[y].depth)
		return r[x].depth < r[y].depth ? -1 : 1;
	return (x > y) - (x < y);
}

/* --max-frames: keep the max widest rectangles, in their order. A frame is never
 * wider than its parent, so what is kept hangs together from the roots: as if
 * --minwidth were raised until the frames fit (FlameGraph's rule), ties going to the
 * shallower frame, so a deep chain of equal frames is cut at a depth. */
static void cap_frames(struct svg *s, size_t max)
{
	uint32_t *order, i, j;
	uint8_t *keep;

	if (!max || s->nrects <= max)
		return;
	order = pt_xmalloc(s->nrects * sizeof(uint32_t));
	keep = pt_xcalloc(s->nrects, 1);
	for (i = 0; i < s->nrects; i++)
		order[i] = i;
	qsort_r(order, s->nrects, sizeof(*order), rect_rank_cmp, s->rects);
	for (i = 0; i < max; i++)
		keep[order[i]] = 1;
	for (i = j = 0; i < s->nrects; i++)
		if (keep[i])
			s->rects[j++] = s->rects[i];
	s->cut_cap = s->nrects - max;
	s->nrects = max;
	free(order);
	free(keep);
}

/* ---- colours ---- */

/* flamegraph.pl --hash: a name's colour is stable; v in [0, 1] */
static double name_hash(const char *s, size_t n, int reverse)
{
	double v = 0, weight = 1, max = 1;
	size_t i, k = 0;
	for (i = 0; i < n && k < 8; i++, k++) {
		unsigned char c = (unsigned char)s[reverse ? n - 1 - i : i];
		v += (double)(c % 10) * weight / 10;
		max += weight;
		weight *= 0.70;
	}
	return v / max * 1.5 > 1 ? 1 : v / max * 1.5;
}

static void add_rgb(struct pt_buf *b, int r, int g, int bl)
{
	pt_buf_addstr(b, "rgb(");
	pt_buf_add_i64(b, r);
	pt_buf_addch(b, ',');
	pt_buf_add_i64(b, g);
	pt_buf_addch(b, ',');
	pt_buf_add_i64(b, bl);
	pt_buf_addch(b, ')');
}

static void palette_color(struct pt_buf *b, const char *pal, const char *name, size_t n,
			  uint32_t kind)
{
	double v1 = name_hash(name, n, 0), v2 = name_hash(name, n, 1), v3 = v2;
	int r, g, bl;
	const char *use = pal;

	if (!strcmp(pal, "hot") || !strcmp(pal, "java") || !strcmp(pal, "js") ||
	    !strcmp(pal, "perl")) {
		/* flamegraph.pl's annotations: _[k] kernel, _[j] JIT, _[i] inlined */
		if (kind & PT_FRAME_KERNEL)
			use = "orange";
		else if (kind & PT_FRAME_JIT)
			use = "green";
		else if (kind & PT_FRAME_INLINED)
			use = "aqua";
		else if (kind & PT_FRAME_SYNTHETIC)
			use = "grey";
		else if (!strcmp(pal, "java"))
			use = (memchr(name, '/', n) || (n > 1 && name[0] == 'L')) ? "green"
			      : memmem(name, n, "::", 2)			  ? "yellow"
										  : "red";
		else if (!strcmp(pal, "js"))
			use = memchr(name, '/', n)	 ? "green"
			      : memmem(name, n, "::", 2) ? "yellow"
							 : "red";
		else if (!strcmp(pal, "perl"))
			use = memmem(name, n, "::", 2)				    ? "yellow"
			      : (memchr(name, '/', n) || memmem(name, n, ".pl", 3)) ? "green"
										    : "red";
	}
	if (!strcmp(use, "hot")) {
		r = 205 + (int)(50 * v3), g = (int)(230 * v1), bl = (int)(55 * v2);
	} else if (!strcmp(use, "mem")) {
		r = 0, g = 190 + (int)(50 * v2), bl = (int)(210 * v1);
	} else if (!strcmp(use, "io") || !strcmp(use, "chain")) {
		r = 80 + (int)(60 * v1), g = r, bl = 190 + (int)(55 * v2);
	} else if (!strcmp(use, "wakeup") || !strcmp(use, "purple")) {
		r = 190 + (int)(65 * v1), g = 80 + (int)(60 * v1), bl = r;
	} else if (!strcmp(use, "red")) {
		r = 200 + (int)(55 * v1), g = 50 + (int)(80 * v1), bl = g;
	} else if (!strcmp(use, "green")) {
		g = 200 + (int)(55 * v1), r = 50 + (int)(60 * v1), bl = r;
	} else if (!strcmp(use, "blue")) {
		bl = 205 + (int)(50 * v1), r = 80 + (int)(60 * v1), g = r;
	} else if (!strcmp(use, "yellow")) {
		r = 175 + (int)(55 * v1), g = r, bl = 50 + (int)(20 * v1);
	} else if (!strcmp(use, "aqua")) {
		r = 50 + (int)(60 * v1), g = 165 + (int)(55 * v1), bl = g;
	} else if (!strcmp(use, "orange")) {
		r = 190 + (int)(65 * v1), g = 90 + (int)(65 * v1), bl = 0;
	} else { /* grey */
		r = g = bl = 160 + (int)(40 * v1);
	}
	add_rgb(b, r, g, bl);
}

/* differential: white for no change, red for growth, blue for shrinkage */
static void diff_color(struct pt_buf *b, int64_t delta, int64_t maxdelta)
{
	int c = maxdelta ? 210 - (int)(210.0 * (double)(delta < 0 ? -delta : delta) /
				       (double)maxdelta)
			 : 210;
	if (delta > 0)
		pt_buf_addf(b, "rgb(255,%d,%d)", c, c);
	else if (delta < 0)
		pt_buf_addf(b, "rgb(%d,%d,255)", c, c);
	else
		pt_buf_addstr(b, "rgb(250,250,250)");
}

/* ---- output ---- */

/* XML text: valid UTF-8, no control bytes (XML 1.0 forbids them), markup escaped */
static void xml_text(struct pt_buf *b, const char *s, size_t n)
{
	struct pt_buf u = PT_BUF_INIT;
	size_t i;
	pt_buf_add_utf8(&u, s, n);
	for (i = 0; i < u.len; i++) {
		unsigned char c = (unsigned char)u.buf[i];
		switch (c) {
		case '&':
			pt_buf_addstr(b, "&amp;");
			break;
		case '<':
			pt_buf_addstr(b, "&lt;");
			break;
		case '>':
			pt_buf_addstr(b, "&gt;");
			break;
		case '"':
			pt_buf_addstr(b, "&quot;");
			break;
		case '\'':
			pt_buf_addstr(b, "&#39;");
			break;
		default:
			pt_buf_addch(b, c < 0x20 || c == 0x7f ? '?' : c);
		}
	}
	pt_buf_release(&u);
}

/* the first bytes of s that fit `chars` characters, cut at a UTF-8 boundary */
static size_t fit_chars(const char *s, size_t n, size_t chars)
{
	size_t i = 0, k = 0;
	while (i < n && k < chars) {
		i++;
		while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		k++;
	}
	return i;
}

static const char svg_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"'use strict';\n"
	"var svg = document.documentElement, details, matched, unzoom, searchbtn, W, PAD;\n"
	"function frames() { return document.querySelectorAll('g.frame'); }\n"
	"function num(g, k) { return parseFloat(g.getAttribute('data-' + k)); }\n"
	"function init() {\n"
	"  details = document.getElementById('details');\n"
	"  matched = document.getElementById('matched');\n"
	"  unzoom = document.getElementById('unzoom');\n"
	"  searchbtn = document.getElementById('search');\n"
	"  W = num(svg, 'width'); PAD = num(svg, 'pad');\n"
	"  svg.addEventListener('mouseover', function (e) {\n"
	"    var g = e.target.closest ? e.target.closest('g.frame') : null;\n"
	"    if (g) details.textContent = g.querySelector('title').textContent;\n"
	"  });\n"
	"  svg.addEventListener('mouseout', function (e) {\n"
	"    if (e.target.closest && e.target.closest('g.frame')) details.textContent = ' ';\n"
	"  });\n"
	"  svg.addEventListener('click', function (e) {\n"
	"    var g = e.target.closest ? e.target.closest('g.frame') : null;\n"
	"    if (g) pt_zoom(g);\n"
	"  });\n"
	"  unzoom.addEventListener('click', function () { pt_unzoom(); });\n"
	"  searchbtn.addEventListener('click', function () {\n"
	"    var re = prompt('Search for (regular expression):', '');\n"
	"    if (re !== null) pt_search(re);\n"
	"  });\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') {\n"
	"      e.preventDefault(); searchbtn.dispatchEvent(new Event('click'));\n"
	"    } else if (e.key === 'Escape') { pt_unzoom(); pt_search(''); }\n"
	"  });\n"
	"  var all = frames();\n"
	"  for (var i = 0; i < all.length; i++) place(all[i], num(all[i], 'x'), num(all[i], "
	"'w'));\n"
	"}\n"
	"/* position a frame's rectangle and fit its label into the width */\n"
	"function place(g, x, w) {\n"
	"  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"  r.setAttribute('x', x); r.setAttribute('width', Math.max(w, 0));\n"
	"  t.setAttribute('x', x + 3);\n"
	"  var name = g.getAttribute('data-name'), n = Math.floor((w - 6) / (%d * %.2f));\n"
	"  var chars = Array.from(name);\n"
	"  t.textContent = n < 3 ? '' : chars.length <= n ? name : chars.slice(0, n - 2).join('') "
	"+ '..';\n"
	"}\n"
	"function pt_zoom(z) {\n"
	"  var zx = num(z, 'x'), zw = num(z, 'w'), zy = num(z, 'depth');\n"
	"  var scale = (W - 2 * PAD) / zw, all = frames();\n"
	"  for (var i = 0; i < all.length; i++) {\n"
	"    var g = all[i], x = num(g, 'x'), w = num(g, 'w'), d = num(g, 'depth');\n"
	"    g.classList.remove('hide'); g.classList.remove('parent');\n"
	"    if (d < zy && x <= zx + 1e-6 && x + w >= zx + zw - 1e-6) {\n"
	"      g.classList.add('parent'); place(g, PAD, W - 2 * PAD);\n"
	"    } else if (d >= zy && x >= zx - 1e-6 && x + w <= zx + zw + 1e-6) {\n"
	"      place(g, PAD + (x - zx) * scale, w * scale);\n"
	"    } else {\n"
	"      g.classList.add('hide');\n"
	"    }\n"
	"  }\n"
	"  unzoom.classList.remove('hide');\n"
	"}\n"
	"function pt_unzoom() {\n"
	"  var all = frames();\n"
	"  for (var i = 0; i < all.length; i++) {\n"
	"    all[i].classList.remove('hide'); all[i].classList.remove('parent');\n"
	"    place(all[i], num(all[i], 'x'), num(all[i], 'w'));\n"
	"  }\n"
	"  unzoom.classList.add('hide');\n"
	"}\n"
	"/* highlight matching frames; returns the matched share of the total (0..1) */\n"
	"function pt_search(pattern) {\n"
	"  var all = frames(), re = null, spans = [], i;\n"
	"  if (pattern) { try { re = new RegExp(pattern); } catch (e) { re = null; } }\n"
	"  for (i = 0; i < all.length; i++) {\n"
	"    var r = all[i].querySelector('rect');\n"
	"    if (re && re.test(all[i].getAttribute('data-name'))) {\n"
	"      r.classList.add('hl');\n"
	"      spans.push([num(all[i], 'x'), num(all[i], 'x') + num(all[i], 'w')]);\n"
	"    } else {\n"
	"      r.classList.remove('hl');\n"
	"    }\n"
	"  }\n"
	"  /* nested matches count once: the union of the matched spans */\n"
	"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
	"  var sum = 0, end = -Infinity;\n"
	"  for (i = 0; i < spans.length; i++) {\n"
	"    var s = Math.max(spans[i][0], end);\n"
	"    if (spans[i][1] > s) { sum += spans[i][1] - s; end = spans[i][1]; }\n"
	"  }\n"
	"  var share = sum / (W - 2 * PAD);\n"
	"  matched.textContent = re ? 'Matched: ' + (100 * share).toFixed(1) + '%%' : ' ';\n"
	"  searchbtn.textContent = re ? 'Reset Search' : 'Search';\n"
	"  return share;\n"
	"}\n"
	"window.pt_zoom = pt_zoom; window.pt_unzoom = pt_unzoom; window.pt_search = pt_search;\n"
	"init();\n"
	"]]></script>\n";

/* What a key's frames share: its name escaped, as a label (valid UTF-8) and its fill,
 * made once per key rather than per frame. */
struct keyinfo {
	size_t esc, esc_len, lab, lab_len; /* in struct svg's names */
	char fill[24];			   /* "rgb(r,g,b)" */
	uint8_t fill_len, done;
};

static const struct keyinfo *key_info(struct svg *s, uint32_t key)
{
	struct keyinfo *k = &s->kinfo[key];
	const char *ks = pt_intern_str(&s->keys, key), *name = ks + 1;
	size_t n = pt_intern_len(&s->keys, key) - 1;
	uint32_t kind = (uint32_t)(unsigned char)ks[0] - '@';
	struct pt_buf c = PT_BUF_INIT;

	if (k->done)
		return k;
	if (!n) {
		name = "(unknown)";
		n = 9;
	}
	k->esc = s->names.len;
	xml_text(&s->names, name, n);
	k->esc_len = s->names.len - k->esc;
	k->lab = s->names.len;
	pt_buf_add_utf8(&s->names, name, n);
	k->lab_len = s->names.len - k->lab;
	if (s->tb == UINT32_MAX) {
		palette_color(&c, s->o->colors, name, n, kind);
		memcpy(k->fill, c.buf, c.len);
		k->fill_len = (uint8_t)c.len;
	}
	pt_buf_release(&c);
	k->done = 1;
	return k;
}

static void write_rect(struct svg *s, struct pt_buf *b, const struct rect *r, double scale,
		       uint32_t maxdepth, int64_t total, int64_t maxdelta)
{
	const struct pt_profile *p = s->p;
	const struct keyinfo *k = key_info(s, r->key);
	const char *esc = s->names.buf + k->esc;
	double x = XPAD + r->x0 * scale, w = (r->x1 - r->x0) * scale, y, fit;
	size_t chars;

	if (s->o->flags & PT_WRITE_INVERTED)
		y = YPAD_TOP + (double)r->depth * FRAME_H;
	else
		y = YPAD_TOP + (double)(maxdepth - r->depth) * FRAME_H;
	pt_buf_addstr(b, "<g class=\"frame\" data-name=\"");
	pt_buf_add(b, esc, k->esc_len);
	pt_buf_addstr(b, "\" data-x=\"");
	pt_buf_add_fixed(b, x, 2);
	pt_buf_addstr(b, "\" data-w=\"");
	pt_buf_add_fixed(b, w, 2);
	pt_buf_addstr(b, "\" data-depth=\"");
	pt_buf_add_u64(b, r->depth);
	pt_buf_addstr(b, "\"><title>");
	pt_buf_add(b, esc, k->esc_len);
	pt_buf_addstr(b, " (");
	pt_buf_add_scaled(b, p, s->t, r->value);
	pt_buf_addstr(b, ", ");
	pt_buf_add_pct(b, r->value, total);
	if (s->tb != UINT32_MAX) {
		pt_buf_addf(b, "; %s", r->value - r->base >= 0 ? "+" : "");
		pt_buf_add_scaled(b, p, s->t, r->value - r->base);
		pt_buf_addstr(b, " from base");
	}
	pt_buf_addstr(b, ")</title><rect x=\"");
	pt_buf_add_fixed(b, x, 2);
	pt_buf_addstr(b, "\" y=\"");
	pt_buf_add_fixed(b, y, 1);
	pt_buf_addstr(b, "\" width=\"");
	pt_buf_add_fixed(b, w, 2);
	pt_buf_addstr(b, "\" height=\"");
	pt_buf_add_i64(b, FRAME_H - 1);
	pt_buf_addstr(b, "\" fill=\"");
	if (s->tb != UINT32_MAX)
		diff_color(b, r->value - r->base, maxdelta);
	else
		pt_buf_add(b, k->fill, k->fill_len);
	pt_buf_addstr(b, "\" rx=\"2\" ry=\"2\"/><text x=\"");
	pt_buf_add_fixed(b, x + 3, 2);
	pt_buf_addstr(b, "\" y=\"");
	pt_buf_add_fixed(b, y + FRAME_H - 5.5, 1);
	pt_buf_addstr(b, "\">");
	/* the label as drawn before any script runs (viewers without scripts) */
	fit = (w - 6) / (FONT_SIZE * FONT_WIDTH);
	chars = fit > 0 ? (size_t)fit : 0;
	if (chars >= 3) {
		const char *lab = s->names.buf + k->lab;
		if (fit_chars(lab, k->lab_len, chars) < k->lab_len) {
			xml_text(b, lab, fit_chars(lab, k->lab_len, chars - 2));
			pt_buf_addstr(b, "..");
		} else {
			/* the whole name: its escaped form (the label is valid UTF-8) */
			pt_buf_add(b, esc, k->esc_len);
		}
	}
	pt_buf_addstr(b, "</text></g>\n");
}

/* the frames left out, said in one line (empty when none was) */
static void cut_note(const struct svg *s, struct pt_buf *b)
{
	size_t cut = s->cut_narrow + s->cut_cap;

	if (!cut)
		return;
	pt_buf_addf(b, "%zu of %zu frames not drawn:", cut, s->drawable);
	if (s->cut_narrow)
		pt_buf_addf(b, " %zu narrower than %g px (--minwidth)%s", s->cut_narrow,
			    s->o->minwidth, s->cut_cap ? "," : "");
	if (s->cut_cap)
		pt_buf_addf(b, " %zu past the %ld widest (--max-frames)", s->cut_cap,
			    s->o->max_frames);
}

/* everything before the frames: the document, style, title and the text lines */
static void write_head(const struct svg *s, FILE *out, double width, double height,
		       const char *note)
{
	const struct pt_write_opts *o = s->o;
	struct pt_buf title = PT_BUF_INIT;
	const char *deftitle;
	double bottom = height - YPAD_BOTTOM / 2.0 + 2 - (*note ? NOTE_H : 0);

	deftitle = (o->flags & PT_WRITE_FLAMECHART) ? "Flame Chart"
		   : (o->flags & PT_WRITE_INVERTED) ? "Icicle Graph"
		   : s->tb != UINT32_MAX	    ? "Differential Flame Graph"
						    : "Flame Graph";
	xml_text(&title, o->title ? o->title : deftitle, strlen(o->title ? o->title : deftitle));
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-width=\"%.0f\" data-pad=\"%d\">\n"
		"<!-- written by %s %s; a flame graph in the manner of FlameGraph's "
		"flamegraph.pl -->\n",
		width, height, width, height, width, XPAD, PACKAGE_NAME, PACKAGE_VERSION);
	fprintf(out,
		"<style type=\"text/css\">\n"
		"text { font-family: Verdana, sans-serif; font-size: %dpx; fill: rgb(0,0,0); }\n"
		"g.frame text { pointer-events: none; }\n"
		"g.frame:hover rect { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
		"g.frame.hide { display: none; }\n"
		"g.frame.parent { opacity: 0.5; }\n"
		"rect.hl { fill: rgb(230,0,230); }\n"
		"#title { text-anchor: middle; font-size: %dpx; }\n"
		"#unzoom, #search { cursor: pointer; }\n"
		"#unzoom.hide { display: none; }\n"
		"#matched, #search { text-anchor: end; }\n"
		"</style>\n",
		FONT_SIZE, FONT_SIZE + 5);
	fprintf(out,
		"<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"rgb(248,248,248)\"/>\n"
		"<text id=\"title\" x=\"%.0f\" y=\"%d\">%s</text>\n",
		width, height, width / 2, FONT_SIZE * 2, title.buf);
	if (s->tb != UINT32_MAX)
		fprintf(out,
			"<text id=\"subtitle\" x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">"
			"width: new; colour: red grew, blue shrank (from base)</text>\n",
			width / 2, FONT_SIZE * 3 - 2);
	fprintf(out,
		"<text id=\"details\" x=\"%d\" y=\"%.0f\"> </text>\n"
		"<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"%d\">Reset Zoom</text>\n"
		"<text id=\"search\" x=\"%.0f\" y=\"%d\">Search</text>\n"
		"<text id=\"matched\" x=\"%.0f\" y=\"%.0f\"> </text>\n",
		XPAD, bottom, XPAD, FONT_SIZE * 2, width - XPAD, FONT_SIZE * 2, width - XPAD,
		bottom);
	if (*note)
		fprintf(out, "<text id=\"pruned\" x=\"%d\" y=\"%.0f\">%s</text>\n", XPAD,
			height - 8, note);
	if (!s->nrects)
		fprintf(out,
			"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">"
			"No samples</text>\n",
			width / 2, YPAD_TOP + FRAME_H - 4.0);
	pt_buf_release(&title);
}

static int svg_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
		     struct pt_diag *d)
{
	struct svg s;
	struct pt_buf note = PT_BUF_INIT;
	int64_t total = 0, maxdelta = 0;
	uint32_t maxdepth = 0, f;
	size_t i;
	double scale, height, width = (double)o->width;
	int base = -1;

	if (pt_profile_need_stacks(p, NULL, d) < 0)
		return -1;
	if (o->type < 0 || (uint32_t)o->type >= p->ntypes)
		return pt_diag_error(d, "a flame graph shows one sample type: "
					"choose one with --sample-index");
	memset(&s, 0, sizeof(s));
	pt_buf_init(&s.b);
	pt_buf_init(&s.names);
	s.p = p;
	s.o = o;
	s.t = (uint32_t)o->type;
	s.tb = UINT32_MAX;
	/* the differential form: widths from "new", colours from new - base */
	if (!strcmp(pt_s(p, p->types[s.t].name), "new") &&
	    (base = pt_profile_find_type(p, "base")) >= 0 && !(o->flags & PT_WRITE_FLAMECHART))
		s.tb = (uint32_t)base;
	pt_arena_init(&s.arena);
	pt_intern_init(&s.keys, &s.arena);
	s.key_of_frame = pt_xmalloc((size_t)(p->nframes + 1) * sizeof(uint32_t));
	for (f = 0; f <= p->nframes; f++)
		s.key_of_frame[f] = UINT32_MAX;

	for (i = 0; i < p->nsamples; i++) {
		int64_t v = p->sample_values[i * p->ntypes + s.t];
		if (v > 0 && p->samples[i].node) /* not the root, the only node of depth 0 */
			total = pt_add(total, v);
	}
	scale = total > 0 ? (width - 2 * XPAD) / (double)total : 0;
	s.min_value = scale > 0 ? o->minwidth / scale : 0;
	if (o->flags & PT_WRITE_FLAMECHART)
		layout_chart(&s);
	else
		layout_graph(&s);
	cap_frames(&s, o->max_frames > 0 ? (size_t)o->max_frames : 0);
	for (i = 0; i < s.nrects; i++) {
		int64_t dl = s.rects[i].value - s.rects[i].base;
		if (s.rects[i].depth > maxdepth)
			maxdepth = s.rects[i].depth;
		if (s.tb != UINT32_MAX && (dl < 0 ? -dl : dl) > maxdelta)
			maxdelta = dl < 0 ? -dl : dl;
	}
	cut_note(&s, &note);
	if (s.cut_cap)
		pt_diag_warn(d, PT_DIAG_NOWHERE, 0,
			     "svg: %zu of %zu frames not drawn: only the %ld widest (--max-frames)",
			     s.cut_narrow + s.cut_cap, s.drawable, o->max_frames);
	height = YPAD_TOP + YPAD_BOTTOM + (note.len ? NOTE_H : 0) +
		 (double)(s.nrects ? maxdepth + 1 : 1) * FRAME_H;
	write_head(&s, out, width, height, note.len ? note.buf : "");

	fprintf(out, "<g id=\"frames\">\n");
	/* the frames go out in blocks: one fwrite per frame costs more than the frame */
	s.kinfo = pt_xcalloc((size_t)s.keys.n + 1, sizeof(*s.kinfo));
	pt_buf_reset(&s.b);
	for (i = 0; i < s.nrects; i++) {
		write_rect(&s, &s.b, &s.rects[i], scale, maxdepth, total, maxdelta);
		pt_buf_write_out(&s.b, out, PT_BUF_BLOCK);
	}
	pt_buf_write_out(&s.b, out, 0);
	fprintf(out, "</g>\n");
	fprintf(out, svg_script, FONT_SIZE, FONT_WIDTH);
	fprintf(out, "</svg>\n");

	pt_buf_release(&note);
	pt_buf_release(&s.b);
	free(s.rects);
	free(s.key_of_frame);
	free(s.kinfo);
	pt_buf_release(&s.names);
	pt_intern_release(&s.keys);
	pt_arena_release(&s.arena);
	return 0;
}

static const char *const svg_suffixes[] = {".svg", NULL};

const struct pt_format pt_format_svg = {
	.name = "svg",
	.description = "interactive flame graph SVG, as flamegraph.pl draws (write only)",
	.suffixes = svg_suffixes,
	.write = svg_write,
	/* not wants_timeline: only --flamechart needs it, and the commands ask for it then */
	.write_opts = PT_WOPTS_SVG,
};
