/* top.c: the flat/cumulative table (pprof -top, stackprof --text). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include "util/csv.h"
#include "util/buf.h"
#include "report/report.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

static void top_text(const struct pt_profile *p, const struct pt_agg *a,
		     const struct pt_top_opts *o, const uint32_t *idx, uint32_t n, uint32_t dropped,
		     FILE *out)
{
	struct pt_buf line = PT_BUF_INIT, v = PT_BUF_INIT;
	unsigned char *marks = pt_report_inline_marks(p, o->fold, o->type);
	int64_t total = a->total[o->type], sum = 0;
	uint32_t i, w = a->ntypes, shown = (uint32_t)pt_report_shown(o->limit, n);

	pt_buf_addf(&line, "Type: %s", pt_s(p, p->types[o->type].name));
	pt_buf_addstr(&line, "\nTotal: ");
	pt_buf_add_scaled(&line, p, o->type, total);
	pt_buf_addch(&line, '\n');
	pt_filter_log_describe(o->filters, p, o->type, &line);
	if (dropped) {
		pt_buf_addf(&line, "Dropped %u %s (cum < ", dropped,
			    a->gran == PT_GRAN_FUNCTIONS ? "functions" : "entries");
		pt_buf_add_scaled(&line, p, o->type, (int64_t)(o->node_fraction * (double)total));
		pt_buf_addstr(&line, ")\n");
	}
	pt_buf_addf(&line, "Showing %u of %u %s, sorted by %s\n", shown, n,
		    pt_granularity_name(a->gran), o->by_cum ? "cum" : "flat");
	pt_buf_addf(&line, "%10s %6s %6s %10s %6s  %s\n", "flat", "flat%", "sum%", "cum", "cum%",
		    "name");
	fwrite(line.buf, 1, line.len, out);
	for (i = 0; i < shown; i++) {
		uint32_t e = idx[i];
		int64_t flat = a->flat[(size_t)e * w + o->type],
			cum = a->cum[(size_t)e * w + o->type];
		char fp[32], sp[32], cp[32];

		sum = pt_add(sum, flat);
		snprintf(fp, sizeof(fp), "%.2f%%", pt_pct(flat, total));
		snprintf(sp, sizeof(sp), "%.2f%%", pt_pct(sum, total));
		snprintf(cp, sizeof(cp), "%.2f%%", pt_pct(cum, total));
		pt_buf_reset(&line);
		pt_buf_reset(&v);
		pt_buf_add_scaled(&v, p, o->type, flat);
		pt_buf_addf(&line, "%10s %6s %6s ", v.buf, fp, sp);
		pt_buf_reset(&v);
		pt_buf_add_scaled(&v, p, o->type, cum);
		pt_buf_addf(&line, "%10s %6s  ", v.buf, cp);
		pt_report_entry_label(&line, p, &a->entries[e]);
		pt_buf_addstr(&line, pt_report_inline_text(marks[a->entries[e].name]));
		pt_buf_addch(&line, '\n');
		fwrite(line.buf, 1, line.len, out);
	}
	pt_buf_release(&line);
	pt_buf_release(&v);
	free(marks);
}

static void top_csv(const struct pt_profile *p, const struct pt_agg *a, const struct pt_top_opts *o,
		    const uint32_t *idx, uint32_t n, FILE *out)
{
	const struct pt_csv *csv = pt_csv();
	int64_t total = a->total[o->type];
	uint32_t i, w = a->ntypes, dec = p->types[o->type].decimals;
	struct pt_buf v = PT_BUF_INIT;

	fputs("name,file,line,flat,flat_pct,cum,cum_pct\n", out);
	for (i = 0; i < n; i++) {
		const struct pt_agg_entry *e = &a->entries[idx[i]];
		int64_t flat = a->flat[(size_t)idx[i] * w + o->type];
		int64_t cum = a->cum[(size_t)idx[i] * w + o->type];

		/* libcsv quotes each field and doubles embedded quotes */
		csv->fwrite_field(out, pt_s(p, e->name), pt_intern_len(&p->strings, e->name));
		fputc(',', out);
		csv->fwrite_field(out, pt_s(p, e->file), pt_intern_len(&p->strings, e->file));
		pt_buf_reset(&v);
		pt_buf_addf(&v, ",%" PRId64 ",", e->line > 0 ? e->line : 0);
		pt_buf_add_raw(&v, flat, dec);
		pt_buf_addf(&v, ",%.4f,", pt_pct(flat, total));
		pt_buf_add_raw(&v, cum, dec);
		pt_buf_addf(&v, ",%.4f\n", pt_pct(cum, total));
		fwrite(v.buf, 1, v.len, out);
	}
	pt_buf_release(&v);
}

static void json_pct(yajl_gen g, double x)
{
	char tmp[64];
	int n = snprintf(tmp, sizeof(tmp), "%.4f", x);
	pt_yajl()->gen_number(g, tmp, (size_t)n);
}

static void top_json(const struct pt_profile *p, const struct pt_agg *a,
		     const struct pt_top_opts *o, const uint32_t *idx, uint32_t n, FILE *out)
{
	yajl_gen g = pt_json_gen(out);
	int64_t total = a->total[o->type];
	uint32_t i, w = a->ntypes, dec = p->types[o->type].decimals;

	pt_yajl()->gen_map_open(g);
	pt_json_type(g, p, o->type);
	pt_json_cstr(g, "total");
	pt_json_raw(g, total, dec);
	pt_json_cstr(g, "rows");
	pt_yajl()->gen_array_open(g);
	for (i = 0; i < n; i++) {
		const struct pt_agg_entry *e = &a->entries[idx[i]];
		int64_t flat = a->flat[(size_t)idx[i] * w + o->type];
		int64_t cum = a->cum[(size_t)idx[i] * w + o->type];

		pt_yajl()->gen_map_open(g);
		pt_json_entry(g, p, e);
		pt_json_cstr(g, "flat");
		pt_json_raw(g, flat, dec);
		pt_json_cstr(g, "flat_pct");
		json_pct(g, pt_pct(flat, total));
		pt_json_cstr(g, "cum");
		pt_json_raw(g, cum, dec);
		pt_json_cstr(g, "cum_pct");
		json_pct(g, pt_pct(cum, total));
		pt_yajl()->gen_map_close(g);
	}
	pt_yajl()->gen_array_close(g);
	pt_yajl()->gen_map_close(g);
	pt_json_done(g, out);
}

int pt_report_top(const struct pt_profile *p, const struct pt_agg *a, const struct pt_top_opts *o,
		  FILE *out, struct pt_diag *d)
{
	uint32_t n, *idx, dropped, shown;

	if (o->style == PT_STYLE_PPROF && o->format == PT_FMT_TEXT)
		return pt_report_top_pprof(p, o, out, d);
	if (o->format == PT_FMT_TEXT && o->style == PT_STYLE_STACKPROF)
		return pt_report_top_stackprof(p, a, o, out, d);
	/* the node fraction keeps a subset whatever the order: drop, then order only
	 * the rows shown */
	idx = pt_report_nonzero(a, o->type, &n);
	dropped = pt_report_node_fraction(a, o->type, o->node_fraction, idx, &n);
	shown = (uint32_t)pt_report_shown(o->limit, n);
	pt_report_sort_first(p, a, o->type, o->by_cum, idx, n, shown);
	if (o->format == PT_FMT_TEXT) {
		top_text(p, a, o, idx, n, dropped, out);
	} else {
		if (o->format == PT_FMT_CSV)
			top_csv(p, a, o, idx, shown, out);
		else
			top_json(p, a, o, idx, shown, out);
	}
	free(idx);
	return 0;
}
