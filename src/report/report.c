/* report.c: what every report shares: sorting entries, labels, JSON helpers. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "core/units.h"
#include "report/report.h"
#include "util/text.h"
#include "util/xalloc.h"

int pt_parse_report_format(const char *s, enum pt_report_format *f)
{
	if (!strcmp(s, "text"))
		*f = PT_FMT_TEXT;
	else if (!strcmp(s, "csv"))
		*f = PT_FMT_CSV;
	else if (!strcmp(s, "json"))
		*f = PT_FMT_JSON;
	else
		return -1;
	return 0;
}

struct sort_ctx {
	const struct pt_profile *p;
	const struct pt_agg *a;
	uint32_t t;
	int by_cum;
};

static int cmp_i64_desc(int64_t x, int64_t y)
{
	return x > y ? -1 : x < y;
}

static int entry_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sort_ctx *c = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb, w = c->a->ntypes;
	const struct pt_agg_entry *ea = &c->a->entries[a], *eb = &c->a->entries[b];
	int64_t fa = c->a->flat[(size_t)a * w + c->t], fb = c->a->flat[(size_t)b * w + c->t];
	int64_t ca = c->a->cum[(size_t)a * w + c->t], cb = c->a->cum[(size_t)b * w + c->t];
	int r;

	r = c->by_cum ? cmp_i64_desc(ca, cb) : cmp_i64_desc(fa, fb);
	if (r)
		return r;
	r = strcmp(pt_s(c->p, ea->name), pt_s(c->p, eb->name));
	if (r)
		return r;
	r = c->by_cum ? cmp_i64_desc(fa, fb) : cmp_i64_desc(ca, cb);
	if (r)
		return r;
	r = strcmp(pt_s(c->p, ea->file), pt_s(c->p, eb->file));
	if (r)
		return r;
	if (ea->line != eb->line)
		return ea->line < eb->line ? -1 : 1;
	if (ea->addr != eb->addr)
		return ea->addr < eb->addr ? -1 : 1;
	return a < b ? -1 : a > b;
}

uint32_t *pt_report_nonzero(const struct pt_agg *a, uint32_t type, uint32_t *n)
{
	uint32_t *idx = pt_xreallocarray(NULL, a->nentries ? a->nentries : 1, sizeof(uint32_t));
	uint32_t i, k = 0, w = a->ntypes;

	for (i = 0; i < a->nentries; i++)
		if (a->flat[(size_t)i * w + type] || a->cum[(size_t)i * w + type])
			idx[k++] = i;
	*n = k;
	return idx;
}

uint32_t *pt_report_sorted(const struct pt_profile *p, const struct pt_agg *a, uint32_t type,
			   int by_cum, uint32_t *n)
{
	uint32_t *idx = pt_report_nonzero(a, type, n);
	struct sort_ctx c = {p, a, type, by_cum};

	qsort_r(idx, *n, sizeof(*idx), entry_cmp, &c);
	return idx;
}

/* sift idx[i] down the heap idx[0..n) whose root is the last in entry_cmp's order */
static void sift_down(uint32_t *idx, uint32_t n, uint32_t i, struct sort_ctx *c)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i, x;
		if (l < n && entry_cmp(&idx[l], &idx[m], c) > 0)
			m = l;
		if (r < n && entry_cmp(&idx[r], &idx[m], c) > 0)
			m = r;
		if (m == i)
			return;
		x = idx[i];
		idx[i] = idx[m];
		idx[m] = x;
		i = m;
	}
}

void pt_report_sort_first(const struct pt_profile *p, const struct pt_agg *a, uint32_t type,
			  int by_cum, uint32_t *idx, uint32_t n, uint32_t k)
{
	struct sort_ctx c = {p, a, type, by_cum};
	uint32_t i, x;

	if (k >= n / 2) {
		qsort_r(idx, n, sizeof(*idx), entry_cmp, &c);
		return;
	}
	/* idx[0..k) as a heap of the k first seen so far, the latest-ordered at its
	 * root: each later entry that orders before the root replaces it. n log k
	 * compares, so `top -n 20` over a million functions is linear. */
	for (i = k / 2; i-- > 0;)
		sift_down(idx, k, i, &c);
	for (i = k; i < n && k; i++)
		if (entry_cmp(&idx[i], &idx[0], &c) < 0) {
			x = idx[0];
			idx[0] = idx[i];
			idx[i] = x;
			sift_down(idx, k, 0, &c);
		}
	qsort_r(idx, k, sizeof(*idx), entry_cmp, &c);
}

uint32_t pt_report_node_fraction(const struct pt_agg *a, uint32_t t, double fraction, uint32_t *idx,
				 uint32_t *n)
{
	double min = fraction * (double)a->total[t];
	uint32_t i, k = 0;

	if (fraction <= 0)
		return 0;
	for (i = 0; i < *n; i++)
		if ((double)a->cum[(size_t)idx[i] * a->ntypes + t] >= min)
			idx[k++] = idx[i];
	i = *n - k;
	*n = k;
	return i;
}

void pt_report_entry_label(struct pt_buf *b, const struct pt_profile *p,
			   const struct pt_agg_entry *e)
{
	const char *name = pt_s(p, e->name);
	pt_buf_add_printable(b, name, pt_intern_len(&p->strings, e->name));
	if (e->addr)
		pt_buf_addf(b, " 0x%" PRIx64, e->addr);
	if (e->file && e->file != e->name) {
		pt_buf_addstr(b, " (");
		pt_buf_add_printable(b, pt_s(p, e->file), pt_intern_len(&p->strings, e->file));
		if (e->line > 0)
			pt_buf_addf(b, ":%" PRId64, e->line);
		pt_buf_addch(b, ')');
	}
}

void pt_json_str(yajl_gen g, const struct pt_profile *p, uint32_t id)
{
	pt_json_strn(g, pt_s(p, id), pt_intern_len(&p->strings, id));
}

void pt_json_raw(yajl_gen g, int64_t v, uint32_t decimals)
{
	struct pt_buf b = PT_BUF_INIT;

	if (!decimals) { /* the same digits as pt_buf_add_raw's, without a buffer */
		pt_json_int(g, v);
		return;
	}
	pt_buf_add_raw(&b, v, decimals);
	pt_yajl()->gen_number(g, b.buf, b.len);
	pt_buf_release(&b);
}

void pt_json_type(yajl_gen g, const struct pt_profile *p, uint32_t t)
{
	pt_json_cstr(g, "sample_type");
	pt_json_str(g, p, p->types[t].name);
	pt_json_cstr(g, "unit");
	pt_json_str(g, p, p->types[t].unit);
}

void pt_json_entry(yajl_gen g, const struct pt_profile *p, const struct pt_agg_entry *e)
{
	pt_json_cstr(g, "name");
	pt_json_str(g, p, e->name);
	pt_json_cstr(g, "file");
	pt_json_str(g, p, e->file);
	pt_json_key_int(g, "line", e->line > 0 ? e->line : 0);
}
