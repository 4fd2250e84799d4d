/* runs.c: the table of `diff` over repeated runs (analysis/runs.h): each function's
 * median shares a side, the change with its interval, p and q; text, CSV and JSON. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/csv.h"
#include "util/text.h"

/* "+1.23" or "-inf" */
static void add_points(struct pt_buf *b, double v)
{
	if (isinf(v))
		pt_buf_addstr(b, v > 0 ? "+inf" : "-inf");
	else
		pt_buf_addf(b, "%+.2f", v);
}

static void runs_header(const struct pt_runs *r, const struct pt_runs_opts *o, struct pt_buf *b)
{
	const char *what = pt_granularity_name(o->gran);
	/* "functions", "files", "lines", "addresses": one of them without its plural ending */
	int cut = r->ntested != 1 ? 0 : o->gran == PT_GRAN_ADDRESSES ? 2 : 1;

	pt_buf_addf(b, "Type: %s\n", o->type_name);
	pt_buf_addf(b, "Base: %zu runs, median total %.6g %s\n", r->nbase, r->base_total,
		    o->total_unit);
	pt_buf_addf(b, "New: %zu runs, median total %.6g %s (", r->nnew, r->new_total,
		    o->total_unit);
	add_points(b, r->total_growth);
	if (r->nbase >= 2 && r->nnew >= 2)
		pt_buf_addf(b, "%%, p=%.4g)\n", r->total_p);
	else
		pt_buf_addstr(b, "%, no test: one run a side)\n");
	pt_buf_addf(b,
		    "Tested %zu %.*s whose cum shares over all runs average at least %.2f%% and "
		    "spread over more than %.2f points (Mann-Whitney U, p adjusted over them by "
		    "Benjamini-Hochberg: q; intervals at %.0f%%)\n",
		    r->ntested, (int)(strlen(what) - (size_t)cut), what, o->min_share, o->spread,
		    (1 - o->alpha) * 100);
}

static void runs_text(const struct pt_runs *r, const struct pt_runs_opts *o, const uint32_t *idx,
		      uint32_t n, FILE *out)
{
	struct pt_buf line = PT_BUF_INIT, v = PT_BUF_INIT;
	uint32_t i, shown = (uint32_t)pt_report_shown(o->limit, n);

	runs_header(r, o, &line);
	pt_buf_addf(&line, "Showing %u of %u %s, sorted by the change of the median cum share\n",
		    shown, n, pt_granularity_name(o->gran));
	pt_buf_addf(&line, "%9s %9s %9s %9s %8s %-17s %8s %8s  %s\n", "base flat", "new flat",
		    "base cum", "new cum", "change", "interval", "p", "q", "name");
	fwrite(line.buf, 1, line.len, out);
	for (i = 0; i < shown; i++) {
		const struct pt_runs_stat *s = &r->stats[idx[i]];
		pt_buf_reset(&line);
		pt_buf_addf(&line, "%8.2f%% %8.2f%% %8.2f%% %8.2f%% ", s->base_flat, s->new_flat,
			    s->base_cum, s->new_cum);
		pt_buf_reset(&v);
		add_points(&v, s->change);
		pt_buf_addf(&line, "%8s ", v.buf);
		pt_buf_reset(&v);
		if (s->tested) {
			pt_buf_addch(&v, '[');
			add_points(&v, s->lo);
			pt_buf_addstr(&v, ", ");
			add_points(&v, s->hi);
			pt_buf_addch(&v, ']');
			pt_buf_addf(&line, "%-17s %8.4f %8.4f  ", v.buf, s->p, s->q);
		} else {
			pt_buf_addf(&line, "%-17s %8s %8s  ", "not tested", "-", "-");
		}
		pt_diff_row_label(&line, &r->table, &r->table.rows[idx[i]]);
		pt_buf_addch(&line, '\n');
		fwrite(line.buf, 1, line.len, out);
	}
	pt_buf_release(&line);
	pt_buf_release(&v);
}

static void runs_csv(const struct pt_runs *r, const uint32_t *idx, uint32_t n, FILE *out)
{
	const struct pt_csv *csv = pt_csv();
	uint32_t i;

	fputs("name,file,line,base_flat_share,new_flat_share,base_cum_share,new_cum_share,change,"
	      "change_low,change_high,p,q,tested\n",
	      out);
	for (i = 0; i < n; i++) {
		const struct pt_diff_row *row = &r->table.rows[idx[i]];
		const struct pt_runs_stat *s = &r->stats[idx[i]];
		csv->fwrite_field(out, pt_intern_str(&r->table.strings, row->name),
				  pt_intern_len(&r->table.strings, row->name));
		fputc(',', out);
		csv->fwrite_field(out, pt_intern_str(&r->table.strings, row->file),
				  pt_intern_len(&r->table.strings, row->file));
		fprintf(out, ",%" PRId64 ",%.6f,%.6f,%.6f,%.6f,%.6f,%g,%g,%.6g,%.6g,%d\n",
			row->line > 0 ? row->line : 0, s->base_flat, s->new_flat, s->base_cum,
			s->new_cum, s->change, s->lo, s->hi, s->p, s->q, s->tested);
	}
}

/* a double as JSON: null where JSON has no number (an interval's open end) */
static void json_double(yajl_gen g, double v)
{
	if (isfinite(v))
		pt_yajl()->gen_double(g, v);
	else
		pt_yajl()->gen_null(g);
}

static void json_member(yajl_gen g, const char *key, double v)
{
	pt_json_cstr(g, key);
	json_double(g, v);
}

static void runs_json(const struct pt_runs *r, const struct pt_runs_opts *o, const uint32_t *idx,
		      uint32_t n, FILE *out)
{
	yajl_gen g = pt_json_gen(out);
	uint32_t i;

	pt_yajl()->gen_map_open(g);
	pt_json_key_str(g, "sample_type", o->type_name);
	pt_json_key_int(g, "base_runs", (int64_t)r->nbase);
	pt_json_key_int(g, "new_runs", (int64_t)r->nnew);
	json_member(g, "base_total", r->base_total);
	json_member(g, "new_total", r->new_total);
	json_member(g, "total_growth", r->total_growth);
	json_member(g, "total_p", r->total_p);
	json_member(g, "alpha", o->alpha);
	json_member(g, "min_share", o->min_share);
	json_member(g, "spread", o->spread);
	pt_json_cstr(g, "rows");
	pt_yajl()->gen_array_open(g);
	for (i = 0; i < n; i++) {
		const struct pt_diff_row *row = &r->table.rows[idx[i]];
		const struct pt_runs_stat *s = &r->stats[idx[i]];
		pt_yajl()->gen_map_open(g);
		pt_json_cstr(g, "name");
		pt_json_strn(g, pt_intern_str(&r->table.strings, row->name),
			     pt_intern_len(&r->table.strings, row->name));
		pt_json_cstr(g, "file");
		pt_json_strn(g, pt_intern_str(&r->table.strings, row->file),
			     pt_intern_len(&r->table.strings, row->file));
		pt_json_key_int(g, "line", row->line > 0 ? row->line : 0);
		json_member(g, "base_flat_share", s->base_flat);
		json_member(g, "new_flat_share", s->new_flat);
		json_member(g, "base_cum_share", s->base_cum);
		json_member(g, "new_cum_share", s->new_cum);
		json_member(g, "change", s->change);
		json_member(g, "change_low", s->lo);
		json_member(g, "change_high", s->hi);
		json_member(g, "p", s->p);
		json_member(g, "q", s->q);
		pt_json_key_bool(g, "tested", s->tested);
		pt_yajl()->gen_map_close(g);
	}
	pt_yajl()->gen_array_close(g);
	pt_yajl()->gen_map_close(g);
	pt_json_done(g, out);
}

int pt_report_runs(const struct pt_runs *r, const struct pt_runs_opts *o, FILE *out)
{
	uint32_t n, *idx = pt_runs_sorted(r, &n);
	uint32_t shown = (uint32_t)pt_report_shown(o->limit, n);

	if (o->format == PT_FMT_TEXT)
		runs_text(r, o, idx, n, out);
	else if (o->format == PT_FMT_CSV)
		runs_csv(r, idx, shown, out);
	else
		runs_json(r, o, idx, shown, out);
	free(idx);
	return 0;
}
