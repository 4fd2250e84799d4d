/* tree.c: pprof's -peek/-tree layout: each function with its callers above and its
 * callees below, with the value of each call edge and its share of the function's cum.
 * Edges come from the call graph (analysis/graph.h) over the table's entries, counted
 * once per stack, made in the walk that made the table (pt_aggregate_graph). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/graph.h"
#include "report/report.h"
#include "util/buf.h"
#include "util/pattern.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

/* measurement.Percentage of pprof: "  100%", "12.34%", " 0.52%", "    0%" */
struct adj {
	uint32_t *v; /* edge indices */
	uint32_t n, alloc;
};

struct edge_sort {
	const struct pt_profile *p;
	const struct pt_agg *a;
	const struct pt_graph *g;
	int callers; /* sort by the caller's name (else the callee's) on ties */
};

static int edge_cmp(const void *x, const void *y, void *ctx)
{
	const struct edge_sort *c = ctx;
	const struct pt_graph_edge *ex = &c->g->edges[*(const uint32_t *)x];
	const struct pt_graph_edge *ey = &c->g->edges[*(const uint32_t *)y];
	int64_t vx = ex->weight, vy = ey->weight;
	uint32_t nx = c->callers ? ex->from : ex->to, ny = c->callers ? ey->from : ey->to;
	int r;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	r = strcmp(pt_s(c->p, c->a->entries[nx].name), pt_s(c->p, c->a->entries[ny].name));
	if (r)
		return r;
	return nx < ny ? -1 : nx > ny;
}

static void add_adj(struct adj *l, uint32_t e)
{
	PT_ALLOC_GROW(l->v, (size_t)l->n + 1, l->alloc);
	l->v[l->n++] = e;
}

static const char separator[] =
	"----------------------------------------------------------+-------------\n";

static void edge_line(struct pt_buf *line, const struct pt_profile *p, const struct pt_agg *a,
		      uint32_t t, const struct pt_graph_edge *e, int callers, int64_t cum)
{
	struct pt_buf v = PT_BUF_INIT;
	int64_t val = e->weight;
	uint32_t other = callers ? e->from : e->to;

	pt_buf_add_scaled(&v, p, t, val);
	pt_buf_addf(line, "%50s ", v.buf);
	pt_buf_add_pprof_pct(line, val, cum);
	pt_buf_addstr(line, " |   ");
	pt_report_entry_label(line, p, &a->entries[other]);
	/* pprof -peek's mark of a call inlined at every occurrence, on either side */
	if (!e->not_inline)
		pt_buf_addstr(line, " (inline)");
	pt_buf_addch(line, '\n');
	pt_buf_release(&v);
}

/* an entry's object opened, with its name, file and line */
static void json_entry_open(yajl_gen g, const struct pt_profile *p, const struct pt_agg_entry *en)
{
	pt_yajl()->gen_map_open(g);
	pt_json_cstr(g, "name");
	pt_json_str(g, p, en->name);
	pt_json_cstr(g, "file");
	pt_json_str(g, p, en->file);
	pt_json_key_int(g, "line", en->line > 0 ? en->line : 0);
}

static void json_edges(yajl_gen g, const struct pt_profile *p, const struct pt_agg *a, uint32_t t,
		       const struct pt_graph *gr, const struct adj *l, int callers)
{
	uint32_t i;
	pt_yajl()->gen_array_open(g);
	for (i = 0; i < l->n; i++) {
		const struct pt_graph_edge *e = &gr->edges[l->v[i]];
		json_entry_open(g, p, &a->entries[callers ? e->from : e->to]);
		pt_json_cstr(g, "value");
		pt_json_raw(g, e->weight, p->types[t].decimals);
		if (!e->not_inline) {
			pt_json_key_bool(g, "inline", 1);
		}
		pt_yajl()->gen_map_close(g);
	}
	pt_yajl()->gen_array_close(g);
}

/* the call graph of the table's entries for type t, and each entry's callers (in) and
 * callees (outs) among its edges with a value */
struct tree_edges {
	const struct pt_graph *g; /* the run's, or own */
	struct pt_graph own;
	struct adj *in, *outs;
};

static void tree_edges_build(struct tree_edges *te, const struct pt_agg *a, uint32_t t,
			     const struct pt_graph *made)
{
	uint32_t i;

	/* the graph made in the walk that made the table (a second walk over the tree by
	 * pt_graph_build costs 15% more on a deep 150 MB profile); without one, the
	 * table's edges copied */
	memset(&te->own, 0, sizeof(te->own));
	if (made) {
		te->g = made;
	} else {
		pt_graph_init(&te->own, a->nentries);
		pt_graph_from_agg(&te->own, a, t, 1, NULL);
		te->g = &te->own;
	}
	te->in = pt_xcalloc(a->nentries + 1, sizeof(*te->in));
	te->outs = pt_xcalloc(a->nentries + 1, sizeof(*te->outs));
	for (i = 0; i < te->g->nedges; i++) {
		if (!te->g->edges[i].weight)
			continue;
		add_adj(&te->in[te->g->edges[i].to], i);
		add_adj(&te->outs[te->g->edges[i].from], i);
	}
}

static void tree_edges_release(struct tree_edges *te, uint32_t nentries)
{
	uint32_t i;

	for (i = 0; i <= nentries; i++) {
		free(te->in[i].v);
		free(te->outs[i].v);
	}
	free(te->in);
	free(te->outs);
	pt_graph_release(&te->own);
}

/* the entries shown, in report order: sorted, the node fraction applied, and (-peek)
 * only those matching o->pattern; *dropped says how many the fraction took */
static int tree_entries(const struct pt_profile *p, const struct pt_agg *a,
			const struct pt_tree_opts *o, uint32_t **idx, uint32_t *n,
			uint32_t *dropped, struct pt_diag *d)
{
	struct pt_pattern *re = NULL;
	uint32_t i, k;

	if (o->pattern) {
		char msg[256];
		if (!(re = pt_pattern_compile(o->pattern, msg, sizeof(msg))))
			return pt_diag_error(d, "bad regular expression '%s': %s", o->pattern, msg);
	}
	*idx = pt_report_sorted(p, a, o->type, o->by_cum, n);
	*dropped = pt_report_node_fraction(a, o->type, o->node_fraction, *idx, n);
	if (re) {
		/* the matching functions only, as pprof -peek */
		for (i = k = 0; i < *n; i++) {
			uint32_t name = a->entries[(*idx)[i]].name;
			int hit = pt_pattern_match(re, pt_s(p, name),
						   pt_intern_len(&p->strings, name), d);
			if (hit < 0) {
				pt_pattern_free(re);
				free(*idx);
				*idx = NULL;
				return -1;
			}
			if (hit)
				(*idx)[k++] = (*idx)[i];
		}
		*n = k;
		pt_pattern_free(re);
	}
	return 0;
}

static yajl_gen tree_json_head(const struct pt_profile *p, const struct pt_agg *a, uint32_t t,
			       FILE *out)
{
	yajl_gen g = pt_json_gen(out);

	pt_yajl()->gen_map_open(g);
	pt_json_cstr(g, "sample_type");
	pt_json_str(g, p, p->types[t].name);
	pt_json_cstr(g, "unit");
	pt_json_str(g, p, p->types[t].unit);
	pt_json_cstr(g, "total");
	pt_json_raw(g, a->total[t], p->types[t].decimals);
	pt_json_key_bool(g, "edges_per_occurrence", a->edges_per_occurrence);
	pt_json_cstr(g, "nodes");
	pt_yajl()->gen_array_open(g);
	return g;
}

static void tree_text_head(const struct pt_profile *p, const struct pt_agg *a,
			   const struct pt_tree_opts *o, uint32_t dropped, uint32_t shown,
			   uint32_t n, FILE *out)
{
	struct pt_buf line = PT_BUF_INIT;
	uint32_t t = o->type;
	int64_t total = a->total[t];

	pt_buf_addf(&line, "Type: %s\nTotal: ", pt_s(p, p->types[t].name));
	pt_buf_add_scaled(&line, p, t, total);
	pt_buf_addch(&line, '\n');
	pt_filter_log_describe(o->filters, p, t, &line);
	if (dropped) {
		pt_buf_addf(&line, "Dropped %u entries (cum < ", dropped);
		pt_buf_add_scaled(&line, p, t, (int64_t)(o->node_fraction * (double)total));
		pt_buf_addstr(&line, ")\n");
	}
	if (a->edges_per_occurrence)
		pt_buf_addstr(&line, "Calls count every occurrence (the profile has no "
				     "stacks)\n");
	pt_buf_addf(&line, "Showing %u of %u entries\n", shown, n);
	pt_buf_addstr(&line, separator);
	pt_buf_addstr(&line, "      flat  flat%   sum%        cum   cum%   calls calls% + "
			     "context \t \t \n");
	pt_buf_addstr(&line, separator);
	fwrite(line.buf, 1, line.len, out);
	pt_buf_release(&line);
}

static void tree_json_entry(yajl_gen g, const struct pt_profile *p, const struct pt_agg *a,
			    uint32_t t, const struct tree_edges *te, uint32_t e)
{
	json_entry_open(g, p, &a->entries[e]);
	pt_json_cstr(g, "flat");
	pt_json_raw(g, a->flat[(size_t)e * a->ntypes + t], p->types[t].decimals);
	pt_json_cstr(g, "cum");
	pt_json_raw(g, a->cum[(size_t)e * a->ntypes + t], p->types[t].decimals);
	pt_json_cstr(g, "callers");
	json_edges(g, p, a, t, te->g, &te->in[e], 1);
	pt_json_cstr(g, "callees");
	json_edges(g, p, a, t, te->g, &te->outs[e], 0);
	pt_yajl()->gen_map_close(g);
}

/* entry e's block: its callers, its own line (sum: the flat shown so far), its callees */
static void tree_text_entry(const struct pt_profile *p, const struct pt_agg *a, uint32_t t,
			    const struct tree_edges *te, uint32_t e, int64_t sum, FILE *out)
{
	struct pt_buf line = PT_BUF_INIT, v = PT_BUF_INIT;
	int64_t flat = a->flat[(size_t)e * a->ntypes + t], cum = a->cum[(size_t)e * a->ntypes + t];
	int64_t total = a->total[t];
	uint32_t k;

	for (k = 0; k < te->in[e].n; k++)
		edge_line(&line, p, a, t, &te->g->edges[te->in[e].v[k]], 1, cum);
	pt_buf_add_scaled(&v, p, t, flat);
	pt_buf_addf(&line, "%10s ", v.buf);
	pt_buf_add_pprof_pct(&line, flat, total);
	pt_buf_addch(&line, ' ');
	pt_buf_add_pprof_pct(&line, sum, total);
	pt_buf_reset(&v);
	pt_buf_add_scaled(&v, p, t, cum);
	pt_buf_addf(&line, " %10s ", v.buf);
	pt_buf_add_pprof_pct(&line, cum, total);
	pt_buf_addstr(&line, "                | ");
	pt_report_entry_label(&line, p, &a->entries[e]);
	pt_buf_addch(&line, '\n');
	for (k = 0; k < te->outs[e].n; k++)
		edge_line(&line, p, a, t, &te->g->edges[te->outs[e].v[k]], 0, cum);
	pt_buf_addstr(&line, separator);
	fwrite(line.buf, 1, line.len, out);
	pt_buf_release(&line);
	pt_buf_release(&v);
}

int pt_report_tree(const struct pt_profile *p, const struct pt_agg *a, const struct pt_tree_opts *o,
		   FILE *out, struct pt_diag *d)
{
	uint32_t n = 0, *idx = NULL, i, t = o->type, shown, dropped = 0;
	struct tree_edges te;
	struct edge_sort es = {p, a, NULL, 1};
	int64_t sum = 0;
	yajl_gen g = NULL;

	if (tree_entries(p, a, o, &idx, &n, &dropped, d) < 0)
		return -1;
	tree_edges_build(&te, a, t, o->graph);
	es.g = te.g;
	shown = o->limit < 0 || (unsigned long)o->limit > n ? n : (uint32_t)o->limit;
	if (o->format == PT_FMT_JSON)
		g = tree_json_head(p, a, t, out);
	else
		tree_text_head(p, a, o, dropped, shown, n, out);
	for (i = 0; i < shown; i++) {
		uint32_t e = idx[i];

		es.callers = 1;
		if (te.in[e].n > 1)
			qsort_r(te.in[e].v, te.in[e].n, sizeof(uint32_t), edge_cmp, &es);
		es.callers = 0;
		if (te.outs[e].n > 1)
			qsort_r(te.outs[e].v, te.outs[e].n, sizeof(uint32_t), edge_cmp, &es);
		sum = pt_add(sum, a->flat[(size_t)e * a->ntypes + t]);
		if (g)
			tree_json_entry(g, p, a, t, &te, e);
		else
			tree_text_entry(p, a, t, &te, e, sum, out);
	}
	if (g) {
		pt_yajl()->gen_array_close(g);
		pt_yajl()->gen_map_close(g);
		pt_json_done(g, out);
	}
	tree_edges_release(&te, a->nentries);
	free(idx);
	return 0;
}
