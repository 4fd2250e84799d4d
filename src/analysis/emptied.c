/* emptied.c: the note for a profile the filters emptied (emptied.h): the label values
 * and the time span the profile had before them, gathered in one pass over its rows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/emptied.h"
#include "util/map.h"
#include "util/sort.h"
#include "util/text.h"
#include "util/xalloc.h"

/* values listed for a key before "... (N in all)" */
#define SHOWN_VALUES 10

int pt_profile_empty(const struct pt_profile *p)
{
	uint32_t t;

	for (t = 0; t < p->ntypes; t++)
		if (pt_profile_total(p, t))
			return 0;
	return 1;
}

/* one key's distinct values: string ids, or numbers when the label is numeric */
struct values {
	const struct pt_profile *p;
	uint32_t *strs;
	int64_t *nums;
	size_t nstrs, nums_n, salloc, nalloc;
	uint32_t unit; /* the first numeric value's unit */
};

static int str_cmp(const void *x, const void *y, void *ctx)
{
	const struct pt_profile *p = ctx;
	return strcmp(pt_s(p, *(const uint32_t *)x), pt_s(p, *(const uint32_t *)y));
}

static int num_cmp(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

static void gather(struct values *v, uint32_t key, const uint8_t *used)
{
	const struct pt_profile *p = v->p;
	struct pt_map strs, nums;
	uint32_t i, k;

	pt_map_init(&strs);
	pt_map_init(&nums);
	for (i = 0; i < p->nlabelsets; i++) {
		const struct pt_labelset *ls = &p->labelsets[i];
		if (!used[i])
			continue;
		for (k = 0; k < ls->n; k++) {
			const struct pt_label *l = &ls->v[k];
			uint32_t *slot;
			if (l->key != key)
				continue;
			slot = l->str ? pt_map_put(&strs, l->str)
				      : pt_map_put(&nums, (uint64_t)l->num);
			if (*slot != PT_MAP_NEW)
				continue;
			*slot = 0;
			if (l->str) {
				PT_ALLOC_GROW(v->strs, v->nstrs + 1, v->salloc);
				v->strs[v->nstrs++] = l->str;
			} else {
				if (!v->nums_n)
					v->unit = l->num_unit;
				PT_ALLOC_GROW(v->nums, v->nums_n + 1, v->nalloc);
				v->nums[v->nums_n++] = l->num;
			}
		}
	}
	pt_map_release(&strs);
	pt_map_release(&nums);
	if (v->nstrs > 1)
		qsort_r(v->strs, v->nstrs, sizeof(*v->strs), str_cmp, (void *)p);
	pt_qsort(v->nums, v->nums_n, sizeof(*v->nums), num_cmp);
}

/* "; KEY: a, b, ..." (or "; no label KEY") into b */
static void note_key(struct pt_buf *b, const struct pt_profile *p, const char *key, size_t klen,
		     const uint8_t *used)
{
	struct values v;
	uint32_t id = pt_intern_find(&p->strings, key, klen);
	size_t i, n;

	memset(&v, 0, sizeof(v));
	v.p = p;
	if (id)
		gather(&v, id, used);
	n = v.nstrs + v.nums_n;
	if (!n) {
		pt_buf_addf(b, "; no label %.*s", (int)klen, key);
		return;
	}
	pt_buf_addf(b, "; %.*s: ", (int)klen, key);
	for (i = 0; i < n && i < SHOWN_VALUES; i++) {
		if (i)
			pt_buf_addstr(b, ", ");
		if (i < v.nstrs)
			pt_buf_add_printable(b, pt_s(p, v.strs[i]),
					     pt_intern_len(&p->strings, v.strs[i]));
		else
			pt_buf_addf(b, "%lld", (long long)v.nums[i - v.nstrs]);
	}
	if (v.nums_n && v.unit && n <= SHOWN_VALUES)
		pt_buf_addf(b, " %s", pt_s(p, v.unit));
	if (n > SHOWN_VALUES)
		pt_buf_addf(b, ", ... (%zu in all)", n);
	free(v.strs);
	free(v.nums);
}

static void note_labels(struct pt_filter_scope *s, const struct pt_profile *p,
			const struct pt_filter *f)
{
	uint8_t *used = pt_xcalloc(p->nlabelsets ? p->nlabelsets : 1, 1);
	size_t i, j;
	uint32_t r;

	for (r = 0; r < p->nsamples; r++)
		used[p->samples[r].labels] = 1;
	for (i = 0; i < f->ntags; i++) {
		const struct pt_tag_cond *c = &f->tags[i];
		for (j = 0; j < i; j++)
			if (f->tags[j].keylen == c->keylen &&
			    !memcmp(f->tags[j].key, c->key, c->keylen))
				break;
		if (j == i)
			note_key(&s->labels, p, c->key, c->keylen, used);
	}
	free(used);
}

void pt_filter_scope_init(struct pt_filter_scope *s, const struct pt_profile *p,
			  const struct pt_filter *f)
{
	pt_buf_init(&s->labels);
	pt_buf_init(&s->span);
	if (f->ntags) /* without stacks (no rows) the filter fails before the note */
		note_labels(s, p, f);
	if (pt_filter_needs_timeline(f) && p->nevents) {
		/* the time window counts seconds from the first event (filter.c) */
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		size_t e;
		for (e = 0; e < p->nevents; e++) {
			if (p->events[e].time < lo)
				lo = p->events[e].time;
			if (p->events[e].time > hi)
				hi = p->events[e].time;
		}
		pt_buf_addf(&s->span, "; its samples span 0 to %g s", (double)pt_sub(hi, lo) / 1e9);
	}
}

void pt_filter_scope_release(struct pt_filter_scope *s)
{
	pt_buf_release(&s->labels);
	pt_buf_release(&s->span);
}

int pt_filter_emptied(const struct pt_filter_log *log, const struct pt_filter_scope *s,
		      struct pt_buf *b)
{
	size_t i;
	uint32_t t;

	for (i = 0; log && i < log->n; i++) {
		const struct pt_filter_step *st = &log->v[i];
		int had = 0, left = 0;
		for (t = 0; t < log->ntypes; t++) {
			had |= st->before[t] != 0;
			left |= st->before[t] != st->removed[t];
		}
		if (!had)
			return 0; /* empty before the filters: a note of its own */
		if (left)
			continue;
		pt_buf_add_printable(b, st->what, strlen(st->what));
		pt_buf_addstr(b, " keeps no samples");
		if (st->kind == PT_STEP_TIME)
			pt_buf_add(b, s->span.buf, s->span.len);
		else if (st->kind == PT_STEP_LABELS)
			pt_buf_add(b, s->labels.buf, s->labels.len);
		return 1;
	}
	return 0;
}
