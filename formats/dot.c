/* dot.c: a pprof-like call graph in graphviz's dot language, write only.
 * Nodes are functions (label: name, flat and cum with %; font size by flat, colour by
 * cum), edges caller -> callee counted once per stack (width and colour by value). Nodes
 * whose cum is below --node-fraction of the total are dropped, then all but the
 * --nodecount heaviest; an edge then joins a node to its nearest kept caller (dotted when
 * it skips dropped frames, as pprof's residual edges), and edges below --edge-fraction
 * go too. A legend node says what was shown and dropped. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "util/buf.h"
#include "formats/format.h"
#include "util/map.h"
#include "util/sort.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

struct dedge {
	uint32_t from, to; /* entry indices */
	int64_t value;
	int residual; /* skips dropped frames */
};

struct dot {
	const struct pt_profile *p;
	const struct pt_agg *a;
	uint32_t t, w;
	int64_t total;
	char *kept; /* per entry */
	struct dedge *edges;
	size_t nedges, edges_alloc;
	struct pt_map edge_index;
};

static size_t dot_edge(struct dot *g, uint32_t from, uint32_t to)
{
	uint32_t *slot = pt_map_put(&g->edge_index, (uint64_t)from << 32 | to);
	if (*slot == PT_MAP_NEW) {
		PT_ALLOC_GROW(g->edges, g->nedges + 1, g->edges_alloc);
		g->edges[g->nedges] = (struct dedge){from, to, 0, 1};
		*slot = (uint32_t)g->nedges++;
	}
	return *slot;
}

/* per node of the tree */
struct dot_nodes {
	uint32_t *entry; /* UINT32_MAX for the root */
	uint32_t *anc;	 /* the nearest ancestor of a kept entry, 0 if none */
	int64_t *cum;	 /* inclusive value of the type shown */
	int negative;	 /* some cum is below 0 */
};

/* a record's flags (b): its value adds to the edge; its node's parent is its caller */
enum { REC_ADDS = 1, REC_DIRECT = 2 };

static void dot_nodes_init(const struct dot *g, struct dot_nodes *t)
{
	const struct pt_profile *p = g->p;
	uint32_t n, *frame_entry, *func_entry;

	frame_entry = pt_xmalloc((size_t)(p->nframes + 1) * sizeof(uint32_t));
	for (n = 0; n < p->nframes; n++)
		frame_entry[n] = UINT32_MAX;
	func_entry = pt_xmalloc((size_t)(p->nfuncs + 1) * sizeof(uint32_t));
	for (n = 0; n < g->a->nentries; n++)
		func_entry[g->a->entries[n].func] = n;
	t->entry = pt_xmalloc((size_t)(p->nnodes + 1) * sizeof(uint32_t));
	t->anc = pt_xmalloc((size_t)(p->nnodes + 1) * sizeof(uint32_t));
	t->cum = pt_xmalloc((size_t)(p->nnodes + 1) * sizeof(int64_t));
	for (n = 0; n < p->nnodes; n++)
		t->cum[n] = p->node_self[(size_t)n * p->ntypes + g->t];
	t->negative = 0;
	for (n = p->nnodes; n-- > 1;) {
		t->cum[p->nodes[n].parent] = pt_add(t->cum[p->nodes[n].parent], t->cum[n]);
		t->negative |= t->cum[n] < 0;
	}
	t->entry[0] = UINT32_MAX;
	t->anc[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t fid = p->nodes[n].frame, par = p->nodes[n].parent;
		if (frame_entry[fid] == UINT32_MAX)
			frame_entry[fid] = func_entry[p->frames[fid].func];
		t->entry[n] = frame_entry[fid];
		t->anc[n] = par && g->kept[t->entry[par]] ? par : t->anc[par];
	}
	free(frame_entry);
	free(func_entry);
}

/* A record into rec[*nrec] for edge key, or folded into the one made last for it. */
static void dot_record(struct pt_keyed *rec, size_t *nrec, struct pt_recent *recent, uint64_t key,
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

/* Depth-first, the records into rec; returns how many. An edge (a, b) is on the path
 * above a node if the rootmost node of entry b on the path came from a (first_from), or
 * else one of the other nodes of b did: those few, b recurring, are counted per edge in a
 * map. on_path says per depth what to undo on the way back up: 1 counted in count, 2 in
 * the map too. */
static size_t dot_walk(const struct dot *g, const struct dot_nodes *t, struct pt_keyed *rec,
		       unsigned ebits)
{
	const struct pt_profile *p = g->p;
	uint32_t ne = g->a->nentries, n;
	uint32_t *count = pt_xcalloc(ne + 1, sizeof(uint32_t));
	uint32_t *first_from = pt_xmalloc((ne + 1) * sizeof(uint32_t));
	struct pt_recent *recent = t->negative ? NULL : pt_xcalloc(PT_RECENT_N, sizeof(*recent));
	unsigned char *on_path = NULL;
	size_t path_alloc = 0, nrec = 0;
	struct pt_map repeat;

	pt_map_init(&repeat);
	n = p->nnodes ? p->nodes[0].first_child : 0;
	while (n) {
		uint32_t d = p->nodes[n].depth;
		PT_ALLOC_GROW(on_path, (size_t)d + 1, path_alloc);
		on_path[d] = 0;
		if (g->kept[t->entry[n]] && t->anc[n]) {
			uint32_t from = t->entry[t->anc[n]], to = t->entry[n];
			int first, direct = t->anc[n] == p->nodes[n].parent;
			if (!count[to]) {
				first = 1;
				first_from[to] = from;
			} else if (first_from[to] == from) {
				first = 0;
			} else {
				uint32_t *k = pt_map_put(&repeat, (uint64_t)from << 32 | to);
				if (*k == PT_MAP_NEW)
					*k = 0;
				first = !(*k)++;
				on_path[d] = 2;
			}
			count[to]++;
			on_path[d] |= 1;
			/* a repeat adds nothing, but a direct one makes the edge solid */
			if (first || direct)
				dot_record(rec, &nrec, recent, (uint64_t)from << ebits | to,
					   t->cum[n],
					   (first ? REC_ADDS : 0) | (direct ? REC_DIRECT : 0));
		}
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		while (n) {
			unsigned char u = on_path[p->nodes[n].depth];
			if (u & 1)
				count[t->entry[n]]--;
			if (u & 2)
				(*pt_map_put(&repeat,
					     (uint64_t)t->entry[t->anc[n]] << 32 | t->entry[n]))--;
			if (p->nodes[n].next_sibling) {
				n = p->nodes[n].next_sibling;
				break;
			}
			n = p->nodes[n].parent;
		}
	}
	free(on_path);
	free(recent);
	free(count);
	free(first_from);
	pt_map_release(&repeat);
	return nrec;
}

/* The records sorted, each run of one edge's becomes the edge. Its first record's walk
 * order marks the edge, and the marks counted up give each edge its place. */
static void dot_edges(struct dot *g, struct pt_keyed *rec, size_t nrec, unsigned ebits)
{
	struct pt_keyed *tmp = pt_xmalloc((nrec ? nrec : 1) * sizeof(*tmp));
	struct pt_keyed *s = pt_sort_keyed(rec, tmp, nrec, 2 * ebits);
	/* the sort's spare room, nrec records, holds nrec places */
	uint32_t *rank = (uint32_t *)(s == rec ? tmp : rec);
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
	g->nedges = g->edges_alloc = nedges;
	for (i = 0; i < nrec; i = j) {
		int64_t value = 0;
		int residual = 1;
		for (j = i; j < nrec && s[j].key == s[i].key; j++) {
			if (s[j].b & REC_ADDS)
				value = pt_add(value, (int64_t)s[j].x);
			if (s[j].b & REC_DIRECT)
				residual = 0;
		}
		g->edges[rank[s[i].a]] = (struct dedge){
			(uint32_t)(s[i].key >> ebits),
			(uint32_t)(s[i].key & (((uint64_t)1 << ebits) - 1)), value, residual};
	}
	free(tmp);
}

/* Edges between kept entries from the call tree: each node of a kept entry is joined to
 * its nearest ancestor of a kept entry (a residual edge unless that is its parent); an
 * edge counts once per stack, at its rootmost occurrence on the path, and the edges
 * keep the order in which the depth-first walk first meets them.
 *
 * Without hashing: the walk gives a record (edge; value, walk order, flags) per node that
 * adds to an edge or makes it direct, a stable radix sort brings each edge's records
 * together in walk order, and each run becomes an edge, put in place by the walk order of
 * its first record. So the sums saturate exactly as a walk adding into a map of edges
 * would; a record met again soon after takes the new one in where no value is negative
 * (pt_recent). */
static void edges_from_tree(struct dot *g)
{
	const struct pt_profile *p = g->p;
	unsigned ebits = pt_bits(g->a->nentries);
	struct pt_keyed *rec = pt_xmalloc((p->nnodes ? p->nnodes : 1) * sizeof(*rec));
	struct dot_nodes t;
	size_t nrec;

	dot_nodes_init(g, &t);
	nrec = dot_walk(g, &t, rec, ebits);
	free(t.entry);
	free(t.anc);
	free(t.cum);
	dot_edges(g, rec, nrec, ebits);
	free(rec);
}

/* an aggregate-only profile has only its reader's edges */
static void edges_from_agg(struct dot *g)
{
	uint32_t i;
	for (i = 0; i < g->a->nedges; i++) {
		const struct pt_agg_edge *e = &g->a->edges[i];
		if (g->kept[e->caller] && g->kept[e->callee]) {
			size_t k = dot_edge(g, e->caller, e->callee);
			g->edges[k].value = g->a->edge_value[(size_t)i * g->w + g->t];
			g->edges[k].residual = 0;
		}
	}
}

/* printf's "%02x", by hand: there is a colour or two per edge */
static void add_hex2(struct pt_buf *b, unsigned v)
{
	static const char hex[] = "0123456789abcdef";
	if (v > 0xff) {
		pt_buf_addf(b, "%02x", v);
		return;
	}
	pt_buf_addch(b, hex[v >> 4]);
	pt_buf_addch(b, hex[v & 0xf]);
}

/* pprof's palette idea: grey for little, towards red for much (blue for negative) */
static void dot_color(struct pt_buf *b, double score, int background)
{
	double sat = background ? 0.1 : 1.0, val = background ? 0.93 : 0.7, r, gr, bl;
	if (score > 1)
		score = 1;
	if (score < -1)
		score = -1;
	if (fabs(score) < 0.2)
		sat *= fabs(score) / 0.2;
	score = score < 0 ? -pow(-score, 0.3) : pow(score, 0.3);
	if (score < 0) {
		gr = val;
		r = val * (1 + sat * score);
	} else {
		r = val;
		gr = val * (1 - sat * score);
	}
	bl = val * (1 - sat);
	pt_buf_addch(b, '#');
	add_hex2(b, (unsigned)(r * 255));
	add_hex2(b, (unsigned)(gr * 255));
	add_hex2(b, (unsigned)(bl * 255));
}

/* text inside a dot "..." string: valid UTF-8, no control bytes, '"' and '\' escaped, and
 * '&' as "&amp;" since graphviz reads HTML entities in labels */
static void dot_text(struct pt_buf *b, const char *s, size_t n)
{
	struct pt_buf u = PT_BUF_INIT;
	size_t i;
	pt_buf_add_utf8(&u, s, n);
	for (i = 0; i < u.len; i++) {
		unsigned char c = (unsigned char)u.buf[i];
		if (c < 0x20 || c == 0x7f)
			pt_buf_addch(b, '?');
		else if (c == '"' || c == '\\')
			pt_buf_addf(b, "\\%c", c);
		else if (c == '&')
			pt_buf_addstr(b, "&amp;");
		else
			pt_buf_addch(b, c);
	}
	pt_buf_release(&u);
}

static void dot_value(struct pt_buf *b, const struct dot *g, int64_t v)
{
	pt_buf_add_scaled(b, g->p, g->t, v);
	pt_buf_addstr(b, " (");
	pt_buf_add_pct(b, v, g->total);
	pt_buf_addch(b, ')');
}

static int64_t i64abs(int64_t v)
{
	return v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
}

/* an edge's attributes, " [label=..." up to its colour's closing quote */
static void edge_attrs(struct pt_buf *b, const struct dot *g, int64_t v)
{
	double frac = g->total ? (double)i64abs(v) / (double)i64abs(g->total) : 0;
	pt_buf_addstr(b, " [label=\" ");
	pt_buf_add_scaled(b, g->p, g->t, v);
	pt_buf_addstr(b, "\" weight=");
	pt_buf_add_i64(b, 1 + (int)(frac * 100 > 100 ? 100 : frac * 100));
	pt_buf_addstr(b, " penwidth=");
	pt_buf_add_fixed(b, 1 + 5 * frac, 2);
	pt_buf_addstr(b, " color=\"");
	dot_color(b, g->total ? (double)v / (double)i64abs(g->total) : 0, 0);
	pt_buf_addch(b, '"');
}

/* An edge's attributes depend on its value alone, and edges share few values (545
 * among 767k edges of many.collapsed), while the scaled label, the pen width and the
 * colour (a pow) cost more than the rest of the line: the text is kept per value in a
 * small direct-mapped cache. */
#define TAIL_BITS 10
#define TAIL_N	  (1u << TAIL_BITS)
#define TAIL_MAX  112

struct edge_tail {
	int64_t value;
	size_t len; /* 0: nothing kept yet */
	char text[TAIL_MAX];
};

static void add_edge_attrs(struct pt_buf *b, const struct dot *g, struct edge_tail *tails,
			   int64_t v)
{
	struct edge_tail *c = &tails[(uint64_t)v * 0x9e3779b97f4a7c15u >> (64 - TAIL_BITS)];
	size_t start = b->len;

	if (c->len && c->value == v) {
		pt_buf_add(b, c->text, c->len);
		return;
	}
	edge_attrs(b, g, v);
	if (b->len - start <= TAIL_MAX) {
		c->value = v;
		c->len = b->len - start;
		memcpy(c->text, b->buf + start, c->len);
	}
}

/* heaviest first: cum, then flat, then name */
static int entry_cmp(const void *x, const void *y, void *ctx)
{
	const struct dot *g = ctx;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int64_t ca = g->a->cum[(size_t)a * g->w + g->t], cb = g->a->cum[(size_t)b * g->w + g->t];
	int64_t fa = g->a->flat[(size_t)a * g->w + g->t], fb = g->a->flat[(size_t)b * g->w + g->t];
	int r;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (fa != fb)
		return fa > fb ? -1 : 1;
	r = strcmp(pt_s(g->p, g->a->entries[a].name), pt_s(g->p, g->a->entries[b].name));
	return r ? r : (a < b ? -1 : a > b);
}

static int dot_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
		     struct pt_diag *d)
{
	struct pt_agg a;
	struct dot g;
	struct pt_buf b = PT_BUF_INIT, name = PT_BUF_INIT;
	uint32_t *order, nkept = 0, nentries = 0, i, dropped_nodes = 0, dropped_edges = 0;
	struct edge_tail *tails;
	int64_t node_cut, edge_cut, maxflat = 0, shown = 0;
	size_t k;

	if (o->type < 0 || (uint32_t)o->type >= p->ntypes)
		return pt_diag_error(d, "a dot graph shows one sample type: "
					"choose one with --sample-index");
	/* the graph is functions and calls: no per-line view, and the call tree's edges
	 * are made here (edges_from_tree), joined across dropped nodes */
	if (pt_aggregate_views(p, PT_GRAN_FUNCTIONS, pt_profile_has_stacks(p) ? 0 : PT_AGG_EDGES,
			       &a, d) < 0)
		return -1;
	memset(&g, 0, sizeof(g));
	g.p = p;
	g.a = &a;
	g.t = (uint32_t)o->type;
	g.w = a.ntypes;
	g.total = a.total[g.t];
	pt_map_init(&g.edge_index);

	/* keep: cum at or above the node cutoff, then the nodecount heaviest */
	node_cut = (int64_t)fabs((double)g.total * o->node_fraction);
	edge_cut = (int64_t)fabs((double)g.total * o->edge_fraction);
	g.kept = pt_xcalloc(a.nentries + 1, 1);
	order = pt_xmalloc((a.nentries + 1) * sizeof(uint32_t));
	for (i = 0; i < a.nentries; i++) {
		int64_t cum = a.cum[(size_t)i * g.w + g.t], flat = a.flat[(size_t)i * g.w + g.t];
		if (!cum && !flat)
			continue;
		nentries++;
		if (i64abs(cum) < node_cut) {
			dropped_nodes++;
			continue;
		}
		order[nkept++] = i;
	}
	qsort_r(order, nkept, sizeof(*order), entry_cmp, &g);
	if (o->nodecount > 0 && nkept > (uint64_t)o->nodecount)
		nkept = (uint32_t)o->nodecount;
	for (i = 0; i < nkept; i++) {
		int64_t flat = a.flat[(size_t)order[i] * g.w + g.t];
		g.kept[order[i]] = 1;
		shown = pt_add(shown, flat);
		if (i64abs(flat) > maxflat)
			maxflat = i64abs(flat);
	}
	if (pt_profile_has_stacks(p))
		edges_from_tree(&g);
	else
		edges_from_agg(&g);

	fprintf(out, "digraph \"proftool\" {\n"
		     "node [style=filled fillcolor=\"#f8f8f8\"]\n");

	/* the legend */
	pt_buf_addstr(&b, "Type: ");
	dot_text(&b, pt_s(p, p->types[g.t].name), pt_intern_len(&p->strings, p->types[g.t].name));
	pt_buf_addstr(&b, " (");
	dot_text(&b, pt_s(p, p->types[g.t].unit), pt_intern_len(&p->strings, p->types[g.t].unit));
	pt_buf_addstr(&b, ")\\lTotal: ");
	pt_buf_add_scaled(&b, p, g.t, g.total);
	pt_buf_addstr(&b, "\\lShowing nodes accounting for ");
	pt_buf_add_scaled(&b, p, g.t, shown);
	pt_buf_addstr(&b, ", ");
	pt_buf_add_pct(&b, shown, g.total);
	pt_buf_addstr(&b, " of ");
	pt_buf_add_scaled(&b, p, g.t, g.total);
	pt_buf_addstr(&b, " total\\l");
	if (dropped_nodes) {
		pt_buf_addf(&b, "Dropped %" PRIu32 " nodes (cum < ", dropped_nodes);
		pt_buf_add_scaled(&b, p, g.t, node_cut);
		pt_buf_addstr(&b, ")\\l");
	}
	for (k = 0; k < g.nedges; k++)
		if (i64abs(g.edges[k].value) < edge_cut || !g.edges[k].value)
			dropped_edges++;
	if (dropped_edges) {
		pt_buf_addf(&b, "Dropped %" PRIu32 " edges (value < ", dropped_edges);
		pt_buf_add_scaled(&b, p, g.t, edge_cut);
		pt_buf_addstr(&b, ")\\l");
	}
	if (nkept + dropped_nodes < nentries)
		pt_buf_addf(&b, "Showing top %" PRIu32 " nodes out of %" PRIu32 "\\l", nkept,
			    nentries);
	fprintf(out,
		"subgraph cluster_L { \"legend\" [shape=box fontsize=16 label=\"%s\" "
		"tooltip=\"proftool\"] }\n",
		b.buf);

	/* the nodes, then the edges, go out through one buffer in blocks */
	pt_buf_reset(&b);
	for (i = 0; i < nkept; i++) {
		uint32_t e = order[i];
		const struct pt_agg_entry *en = &a.entries[e];
		int64_t flat = a.flat[(size_t)e * g.w + g.t], cum = a.cum[(size_t)e * g.w + g.t];
		/* 8 to 24: the font size is a whole number once rounded up */
		double fs = 8 + 16 * (maxflat ? sqrt((double)i64abs(flat) / (double)maxflat) : 0);

		pt_buf_reset(&name);
		dot_text(&name, pt_s(p, en->name), pt_intern_len(&p->strings, en->name));
		if (!name.len)
			pt_buf_addstr(&name, "(unknown)");
		pt_buf_addch(&b, 'N');
		pt_buf_add_u64(&b, (uint64_t)e + 1);
		pt_buf_addstr(&b, " [label=\"");
		pt_buf_add(&b, name.buf, name.len);
		pt_buf_addstr(&b, "\\n");
		dot_value(&b, &g, flat);
		if (cum != flat) {
			pt_buf_addstr(&b, "\\nof ");
			dot_value(&b, &g, cum);
		}
		pt_buf_addstr(&b, "\" fontsize=");
		pt_buf_add_i64(&b, (int64_t)ceil(fs));
		pt_buf_addstr(&b, " shape=box tooltip=\"");
		pt_buf_add(&b, name.buf, name.len);
		if (en->file) {
			pt_buf_addstr(&b, " (");
			dot_text(&b, pt_s(p, en->file), pt_intern_len(&p->strings, en->file));
			if (en->line > 0) {
				pt_buf_addch(&b, ':');
				pt_buf_add_i64(&b, en->line);
			}
			pt_buf_addch(&b, ')');
		}
		pt_buf_addstr(&b, "\" color=\"");
		dot_color(&b, g.total ? (double)cum / (double)i64abs(g.total) : 0, 0);
		pt_buf_addstr(&b, "\" fillcolor=\"");
		dot_color(&b, g.total ? (double)cum / (double)i64abs(g.total) : 0, 1);
		pt_buf_addstr(&b, "\"]\n");
		pt_buf_write_out(&b, out, PT_BUF_BLOCK);
	}
	pt_buf_release(&name);

	/* numbers written by hand: with every edge kept there can be millions */
	tails = pt_xcalloc(TAIL_N, sizeof(*tails));
	for (k = 0; k < g.nedges; k++) {
		const struct dedge *e = &g.edges[k];
		char *q;
		if (i64abs(e->value) < edge_cut || !e->value)
			continue;
		pt_buf_grow(&b, 2 * PT_U64_DIGITS + 7);
		q = b.buf + b.len;
		*q++ = 'N';
		q += pt_fmt_u64(q, (uint64_t)e->from + 1);
		memcpy(q, " -> N", 5);
		q += 5;
		q += pt_fmt_u64(q, (uint64_t)e->to + 1);
		pt_buf_setlen(&b, (size_t)(q - b.buf));
		add_edge_attrs(&b, &g, tails, e->value);
		if (e->residual)
			pt_buf_addstr(&b, " style=\"dotted\"");
		pt_buf_addstr(&b, "]\n");
		pt_buf_write_out(&b, out, PT_BUF_BLOCK);
	}
	free(tails);
	pt_buf_write_out(&b, out, 0);
	fprintf(out, "}\n");

	pt_buf_release(&b);
	free(g.kept);
	free(g.edges);
	free(order);
	pt_map_release(&g.edge_index);
	pt_agg_release(&a);
	return 0;
}

static const char *const dot_suffixes[] = {".dot", ".gv", NULL};

const struct pt_format pt_format_dot = {
	.name = "dot",
	.description = "call graph for graphviz's dot, as pprof draws it (write only)",
	.suffixes = dot_suffixes,
	.write = dot_write,
};
