/* tags.c: `proftool tags`, go tool pprof -tags: every label key with the value of each
 * of its label values, their shares and the key's total, in pprof's layout (its
 * tabwriter, right-aligned, one block a key). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "core/units.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/map.h"
#include "util/text.h"
#include "util/xalloc.h"

struct tag {
	uint32_t key;	/* the profile's string id of the label key */
	uint32_t value; /* the id of the value's text in the local intern */
	int64_t sum;
};

struct tags {
	const struct pt_profile *p;
	struct pt_arena arena;
	struct pt_intern text; /* the values as pprof prints them */
	struct pt_map index;   /* key << 32 | value -> tags[] */
	struct tag *v;
	size_t n, alloc;
};

static void add(struct tags *g, uint32_t key, const char *text, size_t len, int64_t v)
{
	uint32_t value = pt_intern(&g->text, text, len);
	uint32_t *slot = pt_map_put(&g->index, (uint64_t)key << 32 | value);

	if (*slot == PT_MAP_NEW) {
		PT_ALLOC_GROW(g->v, g->n + 1, g->alloc);
		g->v[g->n].key = key;
		g->v[g->n].value = value;
		g->v[g->n].sum = 0;
		*slot = (uint32_t)g->n++;
	}
	g->v[*slot].sum = pt_add(g->v[*slot].sum, v);
}

/* every label of every row with a value of type t (rows whose values are all zero are
 * left out, as pprof leaves such samples out when it reads a profile) */
static void collect(struct tags *g, uint32_t t)
{
	const struct pt_profile *p = g->p;
	struct pt_buf num = PT_BUF_INIT;
	uint32_t row, i, k;

	for (row = 0; row < p->nsamples; row++) {
		const struct pt_labelset *ls = &p->labelsets[p->samples[row].labels];
		const int64_t *v = p->sample_values + (size_t)row * p->ntypes;
		int zero = 1;
		for (k = 0; k < p->ntypes; k++)
			zero &= v[k] == 0;
		if (zero)
			continue;
		for (i = 0; i < ls->n; i++) {
			const struct pt_label *l = &ls->v[i];
			if (l->str) {
				add(g, l->key, pt_s(p, l->str), pt_intern_len(&p->strings, l->str),
				    v[t]);
			} else {
				pt_buf_reset(&num);
				pt_pprof_label(&num, l->num, pt_pprof_num_label_unit(p, l),
					       "minimum");
				add(g, l->key, num.buf, num.len, v[t]);
			}
		}
	}
	pt_buf_release(&num);
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
}

/* keys by name; a key's values by |sum|, most first, then by text */
static int by_key_then_sum(const void *pa, const void *pb, void *ctx)
{
	const struct tags *g = ctx;
	const struct tag *a = pa, *b = pb;
	int c;

	if (a->key != b->key &&
	    (c = strcmp(pt_s(g->p, a->key), pt_s(g->p, b->key))) != 0)
		return c;
	if (abs64(a->sum) != abs64(b->sum))
		return abs64(a->sum) > abs64(b->sum) ? -1 : 1;
	return strcmp(pt_intern_str(&g->text, a->value), pt_intern_str(&g->text, b->value));
}

/* the width tabwriter gives text: its UTF-8 characters */
static size_t width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

static void pad(struct pt_buf *b, size_t n)
{
	while (n--)
		pt_buf_addch(b, ' ');
}

/* one key's block, tags v[0..n-1]: "key:\t Total X" then " \tV (P):\t value" lines,
 * cells right-aligned to the widest of the block plus one */
static void block(const struct tags *g, const struct tag *v, size_t n, uint32_t t,
		  struct pt_buf *out)
{
	const struct pt_profile *p = g->p;
	const char *su = pt_s(p, p->types[t].unit), *unit;
	struct pt_buf key = PT_BUF_INIT, *cells = pt_xcalloc(n, sizeof(*cells));
	size_t i, w0, w1 = 0;
	int64_t total = 0;
	double x;

	for (i = 0; i < n; i++)
		total = pt_add(total, v[i].sum);
	pt_buf_addf(&key, "%s:", pt_s(p, v[0].key));
	for (i = 0; i < n; i++) {
		x = pt_pprof_scale(v[i].sum, su, "minimum", &unit);
		pt_buf_addf(&cells[i], "%.1f%s", x, unit);
		if (total > 0) {
			pt_buf_addstr(&cells[i], " (");
			pt_buf_add_pprof_pct(&cells[i], v[i].sum, total);
			pt_buf_addch(&cells[i], ')');
		}
		pt_buf_addch(&cells[i], ':');
		if (width(cells[i].buf, cells[i].len) + 1 > w1)
			w1 = width(cells[i].buf, cells[i].len) + 1;
	}
	w0 = width(key.buf, key.len) + 1;
	if (w0 < 2)
		w0 = 2;
	pad(out, w0 - width(key.buf, key.len));
	x = pt_pprof_scale(total, su, "minimum", &unit);
	pt_buf_addf(out, "%s Total %.1f%s\n", key.buf, x, unit);
	for (i = 0; i < n; i++) {
		pad(out, w0 - 1);
		pt_buf_addch(out, ' ');
		pad(out, w1 - width(cells[i].buf, cells[i].len));
		pt_buf_addf(out, "%s ", cells[i].buf);
		pt_buf_add_printable(out, pt_intern_str(&g->text, v[i].value),
				     pt_intern_len(&g->text, v[i].value));
		pt_buf_addch(out, '\n');
		pt_buf_release(&cells[i]);
	}
	pt_buf_addch(out, '\n');
	free(cells);
	pt_buf_release(&key);
}

int pt_report_tags(const struct pt_profile *p, uint32_t t, FILE *out, struct pt_diag *d)
{
	struct tags g;
	struct pt_buf b = PT_BUF_INIT;
	size_t i, j;

	(void)d;
	memset(&g, 0, sizeof(g));
	g.p = p;
	pt_arena_init(&g.arena);
	pt_intern_init(&g.text, &g.arena);
	pt_map_init(&g.index);
	collect(&g, t);
	if (g.n > 1) /* never qsort NULL (UBSan) */
		qsort_r(g.v, g.n, sizeof(*g.v), by_key_then_sum, &g);
	for (i = 0; i < g.n; i = j) {
		for (j = i; j < g.n && g.v[j].key == g.v[i].key; j++)
			;
		pt_buf_reset(&b);
		block(&g, g.v + i, j - i, t, &b);
		fwrite(b.buf, 1, b.len, out);
	}
	pt_buf_release(&b);
	free(g.v);
	pt_map_release(&g.index);
	pt_intern_release(&g.text);
	pt_arena_release(&g.arena);
	return 0;
}
