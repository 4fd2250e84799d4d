/* report-diff.c: comparing two profiles function by function (pprof -diff_base, in a
 * table): flat and cum in both, the change, and the regression gate's cum-share test. */
#include "config.h"

#include <csv.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "report/report.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

static int64_t pow10i(uint32_t n)
{
	int64_t f = 1;
	while (n--)
		f *= 10;
	return f;
}

static int64_t mul_sat(int64_t v, int64_t f)
{
	int64_t r;
	if (__builtin_mul_overflow(v, f, &r))
		return v < 0 ? INT64_MIN : INT64_MAX;
	return r;
}

static int64_t scale(int64_t v, double factor)
{
	double x = (double)v * factor;
	if (x >= 9.2e18)
		return INT64_MAX;
	if (x <= -9.2e18)
		return INT64_MIN;
	return (int64_t)llround(x);
}

/* the row for an entry of p, found or added */
static uint32_t row_for(struct pt_diff *df, const struct pt_profile *p, const struct pt_agg *a,
			uint32_t e)
{
	const struct pt_agg_entry *en = &a->entries[e];
	struct pt_buf key = PT_BUF_INIT;
	uint32_t name =
		pt_intern(&df->strings, pt_s(p, en->name), pt_intern_len(&p->strings, en->name));
	uint32_t file =
		pt_intern(&df->strings, pt_s(p, en->file), pt_intern_len(&p->strings, en->file));
	int64_t line = a->gran == PT_GRAN_LINES || a->gran == PT_GRAN_ADDRESSES ? en->line : 0;
	uint32_t id;

	/* a function is the same in both profiles when its name and file are: its start
	 * line moves with every edit above it */
	pt_buf_add(&key, &name, sizeof(name));
	pt_buf_add(&key, &file, sizeof(file));
	pt_buf_add(&key, &line, sizeof(line));
	pt_buf_add(&key, &en->addr, sizeof(en->addr));
	id = pt_intern(&df->keys, key.buf, key.len);
	pt_buf_release(&key);
	if (id == df->nrows + 1) {
		struct pt_diff_row *r;
		PT_ALLOC_GROW(df->rows, (size_t)df->nrows + 1, df->alloc);
		r = &df->rows[df->nrows++];
		memset(r, 0, sizeof(*r));
		r->name = name;
		r->file = file;
		r->line = en->line;
		r->addr = en->addr;
	}
	return id - 1;
}

void pt_diff_build(struct pt_diff *df, const struct pt_profile *bp, const struct pt_agg *ba,
		   uint32_t bt, const struct pt_profile *np, const struct pt_agg *na, uint32_t nt,
		   int normalize)
{
	uint32_t bdec = bp->types[bt].decimals, ndec = np->types[nt].decimals, e, i;
	int64_t bmul, nmul;

	memset(df, 0, sizeof(*df));
	pt_arena_init(&df->arena);
	pt_intern_init(&df->strings, &df->arena);
	pt_intern_init(&df->keys, &df->arena);
	pt_intern(&df->keys, "", 0); /* key id 0 is "": rows are ids - 1 */
	df->decimals = bdec > ndec ? bdec : ndec;
	bmul = pow10i(df->decimals - bdec);
	nmul = pow10i(df->decimals - ndec);
	df->base_total = mul_sat(ba->total[bt], bmul);
	df->new_total = mul_sat(na->total[nt], nmul);
	df->factor = 1;
	if (normalize && df->base_total && df->base_total != df->new_total)
		df->factor = (double)df->new_total / (double)df->base_total;
	df->normalized = normalize;

	/* new first, so a function in both takes the new profile's start line */
	for (e = 0; e < na->nentries; e++) {
		uint32_t k = row_for(df, np, na, e); /* may move df->rows */
		struct pt_diff_row *r = &df->rows[k];
		r->new_flat =
			pt_add(r->new_flat, mul_sat(na->flat[(size_t)e * na->ntypes + nt], nmul));
		r->new_cum =
			pt_add(r->new_cum, mul_sat(na->cum[(size_t)e * na->ntypes + nt], nmul));
	}
	for (e = 0; e < ba->nentries; e++) {
		uint32_t k = row_for(df, bp, ba, e);
		struct pt_diff_row *r = &df->rows[k];
		r->base_flat =
			pt_add(r->base_flat, mul_sat(ba->flat[(size_t)e * ba->ntypes + bt], bmul));
		r->base_cum =
			pt_add(r->base_cum, mul_sat(ba->cum[(size_t)e * ba->ntypes + bt], bmul));
	}
	if (df->factor != 1) {
		for (i = 0; i < df->nrows; i++) {
			df->rows[i].base_flat = scale(df->rows[i].base_flat, df->factor);
			df->rows[i].base_cum = scale(df->rows[i].base_cum, df->factor);
		}
		df->base_total = df->new_total;
	}
}

void pt_diff_release(struct pt_diff *df)
{
	free(df->rows);
	pt_intern_release(&df->strings);
	pt_intern_release(&df->keys);
	pt_arena_release(&df->arena);
	memset(df, 0, sizeof(*df));
}

static uint64_t absdiff(int64_t a, int64_t b)
{
	return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

double pt_diff_share_change(const struct pt_diff *df, const struct pt_diff_row *r)
{
	return pt_pct(r->new_cum, df->new_total) - pt_pct(r->base_cum, df->base_total);
}

struct sort_ctx {
	const struct pt_diff *df;
	int by_cum;
};

static int row_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sort_ctx *c = ctx;
	const struct pt_diff_row *a = &c->df->rows[*(const uint32_t *)pa];
	const struct pt_diff_row *b = &c->df->rows[*(const uint32_t *)pb];
	uint64_t fa = absdiff(a->new_flat, a->base_flat), fb = absdiff(b->new_flat, b->base_flat);
	uint64_t ca = absdiff(a->new_cum, a->base_cum), cb = absdiff(b->new_cum, b->base_cum);
	int r;

	if (c->by_cum ? ca != cb : fa != fb)
		return (c->by_cum ? ca > cb : fa > fb) ? -1 : 1;
	if (c->by_cum ? fa != fb : ca != cb)
		return (c->by_cum ? fa > fb : ca > cb) ? -1 : 1;
	r = strcmp(pt_intern_str(&c->df->strings, a->name),
		   pt_intern_str(&c->df->strings, b->name));
	if (r)
		return r;
	r = strcmp(pt_intern_str(&c->df->strings, a->file),
		   pt_intern_str(&c->df->strings, b->file));
	if (r)
		return r;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

uint32_t *pt_diff_sorted(const struct pt_diff *df, int by_cum, uint32_t *n)
{
	uint32_t *idx = pt_xreallocarray(NULL, df->nrows ? df->nrows : 1, sizeof(uint32_t));
	struct sort_ctx c = {df, by_cum};
	uint32_t i, k = 0;

	for (i = 0; i < df->nrows; i++) {
		const struct pt_diff_row *r = &df->rows[i];
		if (r->base_flat || r->new_flat || r->base_cum || r->new_cum)
			idx[k++] = i;
	}
	qsort_r(idx, k, sizeof(*idx), row_cmp, &c);
	*n = k;
	return idx;
}

uint32_t *pt_diff_regressions(const struct pt_diff *df, double pct, double min_share, uint32_t *n)
{
	uint32_t *idx = pt_diff_sorted(df, 1, n), i, k = 0;

	for (i = 0; i < *n; i++) {
		const struct pt_diff_row *r = &df->rows[idx[i]];
		if (pt_pct(r->new_cum, df->new_total) < min_share)
			continue;
		if (pt_diff_share_change(df, r) > pct)
			idx[k++] = idx[i];
	}
	*n = k;
	return idx;
}

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
	uint32_t i, shown = o->limit < 0 || (unsigned long)o->limit > n ? n : (uint32_t)o->limit;

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
		    o->gran == PT_GRAN_FILES	   ? "files"
		    : o->gran == PT_GRAN_LINES	   ? "lines"
		    : o->gran == PT_GRAN_ADDRESSES ? "addresses"
						   : "functions",
		    o->by_cum ? "cum" : "flat");
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
	struct pt_buf v = PT_BUF_INIT;
	uint32_t i;

	fputs("name,file,line,base_flat,new_flat,base_cum,new_cum\n", out);
	for (i = 0; i < n; i++) {
		const struct pt_diff_row *r = &df->rows[idx[i]];
		csv_fwrite(out, pt_intern_str(&df->strings, r->name),
			   pt_intern_len(&df->strings, r->name));
		fputc(',', out);
		csv_fwrite(out, pt_intern_str(&df->strings, r->file),
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

static void json_value(yajl_gen g, int64_t v, uint32_t dec)
{
	struct pt_buf b = PT_BUF_INIT;
	pt_buf_add_raw(&b, v, dec);
	yajl_gen_number(g, b.buf, b.len);
	pt_buf_release(&b);
}

static void json_dstr(yajl_gen g, const struct pt_diff *df, uint32_t id)
{
	struct pt_buf b = PT_BUF_INIT;
	pt_buf_add_utf8(&b, pt_intern_str(&df->strings, id), pt_intern_len(&df->strings, id));
	yajl_gen_string(g, (const unsigned char *)b.buf, b.len);
	pt_buf_release(&b);
}

static void diff_json(const struct pt_diff *df, const struct pt_profile *p, uint32_t t,
		      const uint32_t *idx, uint32_t n, FILE *out)
{
	yajl_gen g = pt_json_gen(out);
	uint32_t i;

	yajl_gen_map_open(g);
	pt_json_cstr(g, "sample_type");
	pt_json_str(g, p, p->types[t].name);
	pt_json_cstr(g, "unit");
	pt_json_str(g, p, p->types[t].unit);
	pt_json_cstr(g, "base_total");
	json_value(g, df->base_total, df->decimals);
	pt_json_cstr(g, "new_total");
	json_value(g, df->new_total, df->decimals);
	pt_json_cstr(g, "normalized");
	yajl_gen_bool(g, df->normalized);
	pt_json_cstr(g, "rows");
	yajl_gen_array_open(g);
	for (i = 0; i < n; i++) {
		const struct pt_diff_row *r = &df->rows[idx[i]];
		yajl_gen_map_open(g);
		pt_json_cstr(g, "name");
		json_dstr(g, df, r->name);
		pt_json_cstr(g, "file");
		json_dstr(g, df, r->file);
		pt_json_cstr(g, "line");
		pt_json_int(g, r->line > 0 ? r->line : 0);
		pt_json_cstr(g, "base_flat");
		json_value(g, r->base_flat, df->decimals);
		pt_json_cstr(g, "new_flat");
		json_value(g, r->new_flat, df->decimals);
		pt_json_cstr(g, "base_cum");
		json_value(g, r->base_cum, df->decimals);
		pt_json_cstr(g, "new_cum");
		json_value(g, r->new_cum, df->decimals);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	yajl_gen_free(g);
	fputc('\n', out);
}

int pt_report_diff(const struct pt_diff *df, const struct pt_profile *p, uint32_t t,
		   const struct pt_diff_opts *o, FILE *out)
{
	uint32_t n, *idx = pt_diff_sorted(df, o->by_cum, &n);
	uint32_t shown = o->limit < 0 || (unsigned long)o->limit > n ? n : (uint32_t)o->limit;

	if (o->format == PT_FMT_TEXT)
		diff_text(df, p, t, o, idx, n, out);
	else if (o->format == PT_FMT_CSV)
		diff_csv(df, idx, shown, out);
	else
		diff_json(df, p, t, idx, shown, out);
	free(idx);
	return 0;
}
