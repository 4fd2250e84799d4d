/* report-tree.c: pprof's -peek/-tree layout: each function with its callers above and
 * its callees below, with the value of each call edge and its share of the function's
 * cum. Edges come from the aggregate, counted once per stack. */
#include "config.h"

#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "report/report.h"
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
	uint32_t t;
	int callers; /* sort by the caller's name (else the callee's) on ties */
};

static int edge_cmp(const void *x, const void *y, void *ctx)
{
	const struct edge_sort *c = ctx;
	uint32_t ex = *(const uint32_t *)x, ey = *(const uint32_t *)y, w = c->a->ntypes;
	int64_t vx = c->a->edge_value[(size_t)ex * w + c->t];
	int64_t vy = c->a->edge_value[(size_t)ey * w + c->t];
	uint32_t nx = c->callers ? c->a->edges[ex].caller : c->a->edges[ex].callee;
	uint32_t ny = c->callers ? c->a->edges[ey].caller : c->a->edges[ey].callee;
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
		      uint32_t t, uint32_t e, uint32_t other, int64_t cum)
{
	struct pt_buf v = PT_BUF_INIT;
	int64_t val = a->edge_value[(size_t)e * a->ntypes + t];

	pt_buf_add_scaled(&v, p, t, val);
	pt_buf_addf(line, "%50s ", v.buf);
	pt_buf_add_pprof_pct(line, val, cum);
	pt_buf_addstr(line, " |   ");
	pt_report_entry_label(line, p, &a->entries[other]);
	pt_buf_addch(line, '\n');
	pt_buf_release(&v);
}

static void json_edges(yajl_gen g, const struct pt_profile *p, const struct pt_agg *a, uint32_t t,
		       const struct adj *l, int callers)
{
	uint32_t i;
	yajl_gen_array_open(g);
	for (i = 0; i < l->n; i++) {
		uint32_t e = l->v[i];
		const struct pt_agg_entry *en =
			&a->entries[callers ? a->edges[e].caller : a->edges[e].callee];
		struct pt_buf b = PT_BUF_INIT;
		yajl_gen_map_open(g);
		pt_json_cstr(g, "name");
		pt_json_str(g, p, en->name);
		pt_json_cstr(g, "file");
		pt_json_str(g, p, en->file);
		pt_json_cstr(g, "line");
		pt_json_int(g, en->line > 0 ? en->line : 0);
		pt_json_cstr(g, "value");
		pt_buf_add_raw(&b, a->edge_value[(size_t)e * a->ntypes + t], p->types[t].decimals);
		yajl_gen_number(g, b.buf, b.len);
		yajl_gen_map_close(g);
		pt_buf_release(&b);
	}
	yajl_gen_array_close(g);
}

int pt_report_tree(const struct pt_profile *p, const struct pt_agg *a, const struct pt_tree_opts *o,
		   FILE *out, struct pt_diag *d)
{
	uint32_t n, *idx, i, k, w = a->ntypes, t = o->type, shown = 0, dropped;
	struct adj *in = pt_xcalloc(a->nentries + 1, sizeof(*in));
	struct adj *outs = pt_xcalloc(a->nentries + 1, sizeof(*outs));
	struct pt_buf line = PT_BUF_INIT, v = PT_BUF_INIT;
	struct edge_sort es = {p, a, t, 1};
	int64_t total = a->total[t], sum = 0;
	regex_t re;
	yajl_gen g = NULL;

	if (o->pattern) {
		int rc = regcomp(&re, o->pattern, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[256];
			regerror(rc, &re, msg, sizeof(msg));
			free(in);
			free(outs);
			return pt_diag_error(d, "bad regular expression '%s': %s", o->pattern, msg);
		}
	}
	idx = pt_report_sorted(p, a, t, o->by_cum, &n);
	dropped = pt_report_node_fraction(a, t, o->node_fraction, idx, &n);
	if (o->pattern) {
		/* the matching functions only, as pprof -peek */
		for (i = k = 0; i < n; i++)
			if (!regexec(&re, pt_s(p, a->entries[idx[i]].name), 0, NULL, 0))
				idx[k++] = idx[i];
		n = k;
		regfree(&re);
	}
	for (i = 0; i < a->nedges; i++) {
		if (!a->edge_value[(size_t)i * w + t])
			continue;
		add_adj(&in[a->edges[i].callee], i);
		add_adj(&outs[a->edges[i].caller], i);
	}
	shown = o->limit < 0 || (unsigned long)o->limit > n ? n : (uint32_t)o->limit;

	if (o->format == PT_FMT_JSON) {
		g = pt_json_gen(out);
		yajl_gen_map_open(g);
		pt_json_cstr(g, "sample_type");
		pt_json_str(g, p, p->types[t].name);
		pt_json_cstr(g, "unit");
		pt_json_str(g, p, p->types[t].unit);
		pt_json_cstr(g, "total");
		pt_buf_add_raw(&v, total, p->types[t].decimals);
		yajl_gen_number(g, v.buf, v.len);
		pt_json_cstr(g, "edges_per_occurrence");
		yajl_gen_bool(g, a->edges_per_occurrence);
		pt_json_cstr(g, "nodes");
		yajl_gen_array_open(g);
	} else {
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
	}
	for (i = 0; i < shown; i++) {
		uint32_t e = idx[i];
		int64_t flat = a->flat[(size_t)e * w + t], cum = a->cum[(size_t)e * w + t];

		es.callers = 1;
		if (in[e].n > 1)
			qsort_r(in[e].v, in[e].n, sizeof(uint32_t), edge_cmp, &es);
		es.callers = 0;
		if (outs[e].n > 1)
			qsort_r(outs[e].v, outs[e].n, sizeof(uint32_t), edge_cmp, &es);
		sum = pt_add(sum, flat);
		if (g) {
			const struct pt_agg_entry *en = &a->entries[e];
			yajl_gen_map_open(g);
			pt_json_cstr(g, "name");
			pt_json_str(g, p, en->name);
			pt_json_cstr(g, "file");
			pt_json_str(g, p, en->file);
			pt_json_cstr(g, "line");
			pt_json_int(g, en->line > 0 ? en->line : 0);
			pt_json_cstr(g, "flat");
			pt_buf_reset(&v);
			pt_buf_add_raw(&v, flat, p->types[t].decimals);
			yajl_gen_number(g, v.buf, v.len);
			pt_json_cstr(g, "cum");
			pt_buf_reset(&v);
			pt_buf_add_raw(&v, cum, p->types[t].decimals);
			yajl_gen_number(g, v.buf, v.len);
			pt_json_cstr(g, "callers");
			json_edges(g, p, a, t, &in[e], 1);
			pt_json_cstr(g, "callees");
			json_edges(g, p, a, t, &outs[e], 0);
			yajl_gen_map_close(g);
			continue;
		}
		pt_buf_reset(&line);
		for (k = 0; k < in[e].n; k++)
			edge_line(&line, p, a, t, in[e].v[k], a->edges[in[e].v[k]].caller, cum);
		pt_buf_reset(&v);
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
		for (k = 0; k < outs[e].n; k++)
			edge_line(&line, p, a, t, outs[e].v[k], a->edges[outs[e].v[k]].callee, cum);
		pt_buf_addstr(&line, separator);
		fwrite(line.buf, 1, line.len, out);
	}
	if (g) {
		yajl_gen_array_close(g);
		yajl_gen_map_close(g);
		yajl_gen_free(g);
		fputc('\n', out);
	}
	for (i = 0; i <= a->nentries; i++) {
		free(in[i].v);
		free(outs[i].v);
	}
	free(in);
	free(outs);
	free(idx);
	pt_buf_release(&line);
	pt_buf_release(&v);
	return 0;
}
