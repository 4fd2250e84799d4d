/* diff.c: the diff table (pprof -diff_base, in a table) of two profiles matched
 * function by function (analysis/diff.h): flat and cum in both and the change. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"
#include "util/buf.h"
#include "report/report.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

void pt_diff_row_label(struct pt_buf *b, const struct pt_diff *df, const struct pt_diff_row *r)
{
	const struct pt_intern *s = &df->strings;

	/* as pt_report_entry_label prints an entry */
	pt_buf_add_printable(b, pt_intern_str(s, r->name), pt_intern_len(s, r->name));
	if (r->addr)
		pt_buf_addf(b, " 0x%" PRIx64, r->addr);
	if (r->file && r->file != r->name) {
		pt_buf_addstr(b, " (");
		pt_buf_add_printable(b, pt_intern_str(s, r->file), pt_intern_len(s, r->file));
		if (r->line > 0)
			pt_buf_addf(b, ":%" PRId64, r->line);
		pt_buf_addch(b, ')');
	}
}

/* a value for people: in the new profile's unit when its fixed point matches */
static void add_value(struct pt_buf *b, const struct pt_diff *df, const struct pt_profile *p,
		      uint32_t t, int64_t v, int sign)
{
	if (sign && v > 0)
		pt_buf_addch(b, '+');
	if (df->decimals == p->types[t].decimals)
		pt_buf_add_scaled(b, p, t, v);
	else
		pt_buf_add_raw(b, v, df->decimals);
}

static void add_change_pct(struct pt_buf *b, int64_t base, int64_t now)
{
	if (now == base)
		pt_buf_addstr(b, "0.00%");
	else if (!base)
		pt_buf_addstr(b, "new");
	else
		pt_buf_addf(b, "%+.2f%%",
			    ((double)now - (double)base) * 100.0 / fabs((double)base));
}

static void diff_text(const struct pt_diff *df, const struct pt_profile *p, uint32_t t,
		      const struct pt_diff_opts *o, const uint32_t *idx, uint32_t n, FILE *out)
{
	struct pt_buf line = PT_BUF_INIT, v = PT_BUF_INIT;
	uint32_t i, shown = (uint32_t)pt_report_shown(o->limit, n);

	pt_buf_addf(&line, "Type: %s\n", pt_s(p, p->types[t].name));
	pt_buf_addstr(&line, "Base: ");
	pt_buf_add_printable(&line, o->base_path, strlen(o->base_path));
	pt_buf_addstr(&line, ", total ");
	add_value(&line, df, p, t, df->base_total, 0);
	if (df->normalized)
		pt_buf_addf(&line, " (scaled by %.6g to the new total)", df->factor);
	pt_buf_addch(&line, '\n');
	if (o->base)
		pt_filter_log_describe(o->base_log, o->base, o->base_type, &line);
	pt_buf_addstr(&line, "New: ");
	pt_buf_add_printable(&line, o->new_path, strlen(o->new_path));
	pt_buf_addstr(&line, ", total ");
	add_value(&line, df, p, t, df->new_total, 0);
	pt_buf_addch(&line, '\n');
	pt_filter_log_describe(o->new_log, p, t, &line);
	pt_buf_addf(&line, "Showing %u of %u %s, sorted by the change of %s\n", shown, n,
		    pt_granularity_name(o->gran), o->by_cum ? "cum" : "flat");
	pt_buf_addf(&line, "%10s %10s %10s %8s %10s %10s %10s %8s  %s\n", "base flat", "new flat",
		    "change", "change%", "base cum", "new cum", "change", "change%", "name");
	fwrite(line.buf, 1, line.len, out);
	for (i = 0; i < shown; i++) {
		const struct pt_diff_row *r = &df->rows[idx[i]];
		int64_t vals[6] = {r->base_flat, r->new_flat, pt_sub(r->new_flat, r->base_flat),
				   r->base_cum,	 r->new_cum,  pt_sub(r->new_cum, r->base_cum)};
		int k;
		pt_buf_reset(&line);
		for (k = 0; k < 6; k++) {
			pt_buf_reset(&v);
			add_value(&v, df, p, t, vals[k], k % 3 == 2);
			pt_buf_addf(&line, "%10s ", v.buf);
			if (k % 3 == 2) {
				pt_buf_reset(&v);
				add_change_pct(&v, vals[k - 2], vals[k - 1]);
				pt_buf_addf(&line, "%8s ", v.buf);
			}
		}
		pt_buf_addch(&line, ' ');
		pt_diff_row_label(&line, df, r);
		pt_buf_addch(&line, '\n');
		fwrite(line.buf, 1, line.len, out);
	}
	pt_buf_release(&line);
	pt_buf_release(&v);
}

static void diff_csv(const struct pt_diff *df, const uint32_t *idx, uint32_t n, FILE *out)
{
	const struct pt_csv *csv = pt_csv();
	struct pt_buf v = PT_BUF_INIT;
	uint32_t i;

	fputs("name,file,line,base_flat,new_flat,base_cum,new_cum\n", out);
	for (i = 0; i < n; i++) {
		const struct pt_diff_row *r = &df->rows[idx[i]];
		csv->fwrite_field(out, pt_intern_str(&df->strings, r->name),
				  pt_intern_len(&df->strings, r->name));
		fputc(',', out);
		csv->fwrite_field(out, pt_intern_str(&df->strings, r->file),
				  pt_intern_len(&df->strings, r->file));
		pt_buf_reset(&v);
		pt_buf_addf(&v, ",%" PRId64 ",", r->line > 0 ? r->line : 0);
		pt_buf_add_raw(&v, r->base_flat, df->decimals);
		pt_buf_addch(&v, ',');
		pt_buf_add_raw(&v, r->new_flat, df->decimals);
		pt_buf_addch(&v, ',');
		pt_buf_add_raw(&v, r->base_cum, df->decimals);
		pt_buf_addch(&v, ',');
		pt_buf_add_raw(&v, r->new_cum, df->decimals);
		pt_buf_addch(&v, '\n');
		fwrite(v.buf, 1, v.len, out);
	}
	pt_buf_release(&v);
}

static void json_dstr(yajl_gen g, const struct pt_diff *df, uint32_t id)
{
	pt_json_strn(g, pt_intern_str(&df->strings, id), pt_intern_len(&df->strings, id));
}

static void diff_json(const struct pt_diff *df, const struct pt_profile *p, uint32_t t,
		      const uint32_t *idx, uint32_t n, FILE *out)
{
	yajl_gen g = pt_json_gen(out);
	uint32_t i;

	pt_yajl()->gen_map_open(g);
	pt_json_type(g, p, t);
	pt_json_cstr(g, "base_total");
	pt_json_raw(g, df->base_total, df->decimals);
	pt_json_cstr(g, "new_total");
	pt_json_raw(g, df->new_total, df->decimals);
	pt_json_key_bool(g, "normalized", df->normalized);
	pt_json_cstr(g, "rows");
	pt_yajl()->gen_array_open(g);
	for (i = 0; i < n; i++) {
		const struct pt_diff_row *r = &df->rows[idx[i]];
		pt_yajl()->gen_map_open(g);
		pt_json_cstr(g, "name");
		json_dstr(g, df, r->name);
		pt_json_cstr(g, "file");
		json_dstr(g, df, r->file);
		pt_json_key_int(g, "line", r->line > 0 ? r->line : 0);
		pt_json_cstr(g, "base_flat");
		pt_json_raw(g, r->base_flat, df->decimals);
		pt_json_cstr(g, "new_flat");
		pt_json_raw(g, r->new_flat, df->decimals);
		pt_json_cstr(g, "base_cum");
		pt_json_raw(g, r->base_cum, df->decimals);
		pt_json_cstr(g, "new_cum");
		pt_json_raw(g, r->new_cum, df->decimals);
		pt_yajl()->gen_map_close(g);
	}
	pt_yajl()->gen_array_close(g);
	pt_yajl()->gen_map_close(g);
	pt_json_done(g, out);
}

int pt_report_diff(const struct pt_diff *df, const struct pt_profile *p, uint32_t t,
		   const struct pt_diff_opts *o, FILE *out)
{
	uint32_t n, *idx = pt_diff_sorted(df, o->by_cum, &n);
	uint32_t shown = (uint32_t)pt_report_shown(o->limit, n);

	if (o->format == PT_FMT_TEXT)
		diff_text(df, p, t, o, idx, n, out);
	else if (o->format == PT_FMT_CSV)
		diff_csv(df, idx, shown, out);
	else
		diff_json(df, p, t, idx, shown, out);
	free(idx);
	return 0;
}
