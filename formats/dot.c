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
#include "analysis/graph.h"
#include "util/buf.h"
#include "formats/format.h"
#include "util/libm.h"
#include "util/round.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

struct dot {
	const struct pt_profile *p;
	const struct pt_agg *a;
	uint32_t t, w;
	int64_t total;
	unsigned char *kept;   /* per entry */
	struct pt_graph graph; /* vertices: the entries */
	struct pt_libm lm;     /* pow and sqrt (util/libm.h) */
};

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
static void dot_color(const struct pt_libm *lm, struct pt_buf *b, double score, int background)
{
	double sat = background ? 0.1 : 1.0, val = background ? 0.93 : 0.7, r, gr, bl;
	if (score > 1)
		score = 1;
	if (score < -1)
		score = -1;
	if (fabs(score) < 0.2)
		sat *= fabs(score) / 0.2;
	score = score < 0 ? -lm->pow(-score, 0.3) : lm->pow(score, 0.3);
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
	dot_color(&g->lm, b, g->total ? (double)v / (double)i64abs(g->total) : 0, 0);
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

/* what is shown: the entries kept, heaviest first, and what the legend says was not */
struct dot_shown {
	uint32_t *order, nkept;
	uint32_t nentries;	/* entries with a value */
	uint32_t dropped_nodes; /* cum below the cutoff */
	int64_t node_cut, edge_cut;
	int64_t shown, maxflat; /* the kept entries' flat: sum and largest */
};

/* keep: cum at or above the node cutoff, then the nodecount heaviest (analysis/graph's
 * rule, which the html report's graph follows too) */
static void dot_keep(struct dot *g, const struct pt_write_opts *o, struct dot_shown *s)
{
	struct pt_graph_shown k;
	uint32_t i;

	memset(s, 0, sizeof(*s));
	pt_graph_keep(g->p, g->a, g->t, o->nodecount, o->node_fraction, &k);
	s->order = k.order;
	s->nkept = k.nkept;
	s->nentries = k.nentries;
	s->dropped_nodes = k.dropped;
	s->node_cut = k.node_cut;
	s->edge_cut = (int64_t)fabs((double)g->total * o->edge_fraction);
	g->kept = k.kept;
	for (i = 0; i < s->nkept; i++) {
		int64_t flat = g->a->flat[(size_t)s->order[i] * g->w + g->t];
		s->shown = pt_add(s->shown, flat);
		if (i64abs(flat) > s->maxflat)
			s->maxflat = i64abs(flat);
	}
}

static int edge_dropped(const struct pt_graph_edge *e, int64_t edge_cut)
{
	return i64abs(e->weight) < edge_cut || !e->weight;
}

/* the legend: the type, the total and what was dropped */
static void dot_legend(const struct dot *g, const struct dot_shown *s, struct pt_buf *b, FILE *out)
{
	const struct pt_profile *p = g->p;
	uint32_t dropped_edges = 0, k;

	pt_buf_addstr(b, "Type: ");
	dot_text(b, pt_s(p, p->types[g->t].name), pt_intern_len(&p->strings, p->types[g->t].name));
	pt_buf_addstr(b, " (");
	dot_text(b, pt_s(p, p->types[g->t].unit), pt_intern_len(&p->strings, p->types[g->t].unit));
	pt_buf_addstr(b, ")\\lTotal: ");
	pt_buf_add_scaled(b, p, g->t, g->total);
	pt_buf_addstr(b, "\\lShowing nodes accounting for ");
	pt_buf_add_scaled(b, p, g->t, s->shown);
	pt_buf_addstr(b, ", ");
	pt_buf_add_pct(b, s->shown, g->total);
	pt_buf_addstr(b, " of ");
	pt_buf_add_scaled(b, p, g->t, g->total);
	pt_buf_addstr(b, " total\\l");
	if (s->dropped_nodes) {
		pt_buf_addf(b, "Dropped %" PRIu32 " nodes (cum < ", s->dropped_nodes);
		pt_buf_add_scaled(b, p, g->t, s->node_cut);
		pt_buf_addstr(b, ")\\l");
	}
	for (k = 0; k < g->graph.nedges; k++)
		if (edge_dropped(&g->graph.edges[k], s->edge_cut))
			dropped_edges++;
	if (dropped_edges) {
		pt_buf_addf(b, "Dropped %" PRIu32 " edges (value < ", dropped_edges);
		pt_buf_add_scaled(b, p, g->t, s->edge_cut);
		pt_buf_addstr(b, ")\\l");
	}
	if (s->nkept + s->dropped_nodes < s->nentries)
		pt_buf_addf(b, "Showing top %" PRIu32 " nodes out of %" PRIu32 "\\l", s->nkept,
			    s->nentries);
	fprintf(out,
		"subgraph cluster_L { \"legend\" [shape=box fontsize=16 label=\"%s\" "
		"tooltip=\"proftool\"] }\n",
		b->buf);
}

/* one kept entry's node line */
static void dot_node(const struct dot *g, const struct dot_shown *s, uint32_t e, struct pt_buf *b,
		     struct pt_buf *name)
{
	const struct pt_profile *p = g->p;
	const struct pt_agg_entry *en = &g->a->entries[e];
	int64_t flat = g->a->flat[(size_t)e * g->w + g->t],
		cum = g->a->cum[(size_t)e * g->w + g->t];
	/* 8 to 24: the font size is a whole number once rounded up */
	double fs =
		8 + 16 * (s->maxflat ? g->lm.sqrt((double)i64abs(flat) / (double)s->maxflat) : 0);

	pt_buf_reset(name);
	dot_text(name, pt_s(p, en->name), pt_intern_len(&p->strings, en->name));
	if (!name->len)
		pt_buf_addstr(name, "(unknown)");
	pt_buf_addch(b, 'N');
	pt_buf_add_u64(b, (uint64_t)e + 1);
	pt_buf_addstr(b, " [label=\"");
	pt_buf_add(b, name->buf, name->len);
	pt_buf_addstr(b, "\\n");
	dot_value(b, g, flat);
	if (cum != flat) {
		pt_buf_addstr(b, "\\nof ");
		dot_value(b, g, cum);
	}
	pt_buf_addstr(b, "\" fontsize=");
	pt_buf_add_i64(b, (int64_t)pt_ceil(fs));
	pt_buf_addstr(b, " shape=box tooltip=\"");
	pt_buf_add(b, name->buf, name->len);
	if (en->file) {
		pt_buf_addstr(b, " (");
		dot_text(b, pt_s(p, en->file), pt_intern_len(&p->strings, en->file));
		if (en->line > 0) {
			pt_buf_addch(b, ':');
			pt_buf_add_i64(b, en->line);
		}
		pt_buf_addch(b, ')');
	}
	pt_buf_addstr(b, "\" color=\"");
	dot_color(&g->lm, b, g->total ? (double)cum / (double)i64abs(g->total) : 0, 0);
	pt_buf_addstr(b, "\" fillcolor=\"");
	dot_color(&g->lm, b, g->total ? (double)cum / (double)i64abs(g->total) : 0, 1);
	pt_buf_addstr(b, "\"]\n");
}

/* the edges not dropped; numbers written by hand: with every edge kept there can be
 * millions */
static void dot_edge_lines(const struct dot *g, int64_t edge_cut, struct pt_buf *b, FILE *out)
{
	struct edge_tail *tails = pt_xcalloc(TAIL_N, sizeof(*tails));
	uint32_t k;

	for (k = 0; k < g->graph.nedges; k++) {
		const struct pt_graph_edge *e = &g->graph.edges[k];
		char *q;
		if (edge_dropped(e, edge_cut))
			continue;
		pt_buf_grow(b, 2 * PT_U64_DIGITS + 7);
		q = b->buf + b->len;
		*q++ = 'N';
		q += pt_fmt_u64(q, (uint64_t)e->from + 1);
		memcpy(q, " -> N", 5);
		q += 5;
		q += pt_fmt_u64(q, (uint64_t)e->to + 1);
		pt_buf_setlen(b, (size_t)(q - b->buf));
		add_edge_attrs(b, g, tails, e->weight);
		if (e->residual)
			pt_buf_addstr(b, " style=\"dotted\"");
		pt_buf_addstr(b, "]\n");
		pt_buf_write_out(b, out, PT_BUF_BLOCK);
	}
	free(tails);
}

static int dot_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
		     struct pt_diag *d)
{
	struct pt_agg a;
	struct dot g;
	struct dot_shown s;
	struct pt_buf b = PT_BUF_INIT, name = PT_BUF_INIT;
	uint32_t i;

	if (o->type < 0 || (uint32_t)o->type >= p->ntypes)
		return pt_diag_error(d, "a dot graph shows one sample type: "
					"choose one with --sample-index");
	memset(&g, 0, sizeof(g));
	if (pt_libm_open(&g.lm, d) < 0)
		return -1;
	/* the graph is functions and calls: no per-line view, and the edges come from the
	 * graph, joined across dropped nodes (a table without stacks comes whole, its
	 * edges with it) */
	if (pt_aggregate_views(p, PT_GRAN_FUNCTIONS, 0, &a, d) < 0) {
		pt_libm_close(&g.lm);
		return -1;
	}
	g.p = p;
	g.a = &a;
	g.t = (uint32_t)o->type;
	g.w = a.ntypes;
	g.total = a.total[g.t];
	dot_keep(&g, o, &s);
	/* Edges between kept entries: from the call tree, each node of a kept entry joined to its
	 * nearest ancestor of a kept entry (a residual edge unless that is its parent), an edge
	 * counted once per stack and in the order the depth-first walk first meets them; an
	 * aggregate-only profile has only its reader's edges. */
	pt_graph_of_table(&g.graph, p, &a, g.t, 1, g.kept, PT_GRAPH_SELF_EDGES);

	fprintf(out, "digraph \"proftool\" {\n"
		     "node [style=filled fillcolor=\"#f8f8f8\"]\n");
	dot_legend(&g, &s, &b, out);
	/* the nodes, then the edges, go out through one buffer in blocks */
	pt_buf_reset(&b);
	for (i = 0; i < s.nkept; i++) {
		dot_node(&g, &s, s.order[i], &b, &name);
		pt_buf_write_out(&b, out, PT_BUF_BLOCK);
	}
	pt_buf_release(&name);
	dot_edge_lines(&g, s.edge_cut, &b, out);
	pt_buf_write_out(&b, out, 0);
	fprintf(out, "}\n");

	pt_buf_release(&b);
	free(g.kept);
	free(s.order);
	pt_graph_release(&g.graph);
	pt_agg_release(&a);
	pt_libm_close(&g.lm);
	return 0;
}

static const char *const dot_suffixes[] = {".dot", ".gv", NULL};

const struct pt_format pt_format_dot = {
	.name = "dot",
	.description = "call graph for graphviz's dot, as pprof draws it (write only)",
	.suffixes = dot_suffixes,
	.write = dot_write,
	.write_opts = PT_WOPTS_DOT,
};
