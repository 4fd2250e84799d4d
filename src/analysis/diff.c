/* diff.c: matching two profiles' tables entry by entry, normalizing, the regression
 * test, and the two-type profile of the differential stack outputs. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/filter.h"
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

uint32_t pt_diff_row_for(struct pt_diff *df, const struct pt_profile *p, const struct pt_agg *a,
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

void pt_diff_init(struct pt_diff *df)
{
	memset(df, 0, sizeof(*df));
	pt_arena_init(&df->arena);
	pt_intern_init(&df->strings, &df->arena);
	pt_intern_init(&df->keys, &df->arena);
	pt_intern(&df->keys, "", 0); /* key id 0 is "": rows are ids - 1 */
	df->factor = 1;
}

void pt_diff_build(struct pt_diff *df, const struct pt_profile *bp, const struct pt_agg *ba,
		   uint32_t bt, const struct pt_profile *np, const struct pt_agg *na, uint32_t nt,
		   int normalize)
{
	uint32_t bdec = bp->types[bt].decimals, ndec = np->types[nt].decimals, e, i;
	int64_t bmul, nmul;

	pt_diff_init(df);
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
		uint32_t k = pt_diff_row_for(df, np, na, e); /* may move df->rows */
		struct pt_diff_row *r = &df->rows[k];
		r->new_flat =
			pt_add(r->new_flat, mul_sat(na->flat[(size_t)e * na->ntypes + nt], nmul));
		r->new_cum =
			pt_add(r->new_cum, mul_sat(na->cum[(size_t)e * na->ntypes + nt], nmul));
	}
	for (e = 0; e < ba->nentries; e++) {
		uint32_t k = pt_diff_row_for(df, bp, ba, e);
		struct pt_diff_row *r = &df->rows[k];
		r->base_flat =
			pt_add(r->base_flat, mul_sat(ba->flat[(size_t)e * ba->ntypes + bt], bmul));
		r->base_cum =
			pt_add(r->base_cum, mul_sat(ba->cum[(size_t)e * ba->ntypes + bt], bmul));
	}
	if (df->factor != 1) {
		for (i = 0; i < df->nrows; i++) {
			df->rows[i].base_flat = pt_mul_round(df->rows[i].base_flat, df->factor);
			df->rows[i].base_cum = pt_mul_round(df->rows[i].base_cum, df->factor);
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

int pt_diff_row_cmp(const struct pt_diff *df, uint32_t x, uint32_t y)
{
	const struct pt_diff_row *a = &df->rows[x], *b = &df->rows[y];
	int r = strcmp(pt_intern_str(&df->strings, a->name), pt_intern_str(&df->strings, b->name));

	if (r)
		return r;
	r = strcmp(pt_intern_str(&df->strings, a->file), pt_intern_str(&df->strings, b->file));
	if (r)
		return r;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
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

	if (c->by_cum ? ca != cb : fa != fb)
		return (c->by_cum ? ca > cb : fa > fb) ? -1 : 1;
	if (c->by_cum ? fa != fb : ca != cb)
		return (c->by_cum ? fa > fb : ca > cb) ? -1 : 1;
	return pt_diff_row_cmp(c->df, *(const uint32_t *)pa, *(const uint32_t *)pb);
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

/* one profile with the types base and new, for the stack outputs */
void pt_diff_stacks(struct pt_profile *both, struct pt_profile *bp, uint32_t bt,
		    struct pt_profile *np, uint32_t nt, const struct pt_diff *df)
{
	uint32_t *map;
	uint32_t t;

	pt_profile_init(both);
	both->format = np->format;
	both->totals_in_meta = np->totals_in_meta;
	pt_profile_add_type(both, "base", pt_s(np, np->types[nt].unit));
	pt_profile_add_type(both, "new", pt_s(np, np->types[nt].unit));
	both->types[0].decimals = both->types[1].decimals = df->decimals;
	both->default_type = 1;
	/* the same fixed point in both */
	while (bp->types[bt].decimals < df->decimals) {
		pt_profile_scale_type(bp, bt, 10);
		bp->types[bt].decimals++;
	}
	while (np->types[nt].decimals < df->decimals) {
		pt_profile_scale_type(np, nt, 10);
		np->types[nt].decimals++;
	}
	map = pt_xmalloc((bp->ntypes > np->ntypes ? bp->ntypes : np->ntypes) * sizeof(*map));
	for (t = 0; t < bp->ntypes; t++)
		map[t] = t == bt ? 0 : PT_TYPE_SKIP;
	pt_profile_merge(both, bp, map);
	if (df->factor != 1)
		pt_profile_mul_type(both, 0, df->factor);
	for (t = 0; t < np->ntypes; t++)
		map[t] = t == nt ? 1 : PT_TYPE_SKIP;
	pt_profile_merge(both, np, map);
	free(map);
}
