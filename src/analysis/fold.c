/* fold.c: folding stacks into per-entry flat/cum values while reading (see fold.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/cum.h"
#include "analysis/fold.h"
#include "util/xalloc.h"

static void fold_sample(struct pt_sink *s, struct pt_profile *p, const uint32_t *frames, size_t n,
			int leaf_first, uint32_t labels, const int64_t *values, int64_t time);
static void fold_scale_type(struct pt_sink *s, struct pt_profile *p, uint32_t t, int64_t factor);
static void fold_frames_complete(struct pt_sink *s, struct pt_profile *p);

void pt_fold_init(struct pt_fold *f, const struct pt_profile *p, enum pt_granularity g, int marks)
{
	memset(f, 0, sizeof(*f));
	f->sink.sample = fold_sample;
	f->sink.scale_type = fold_scale_type;
	f->sink.frames_complete = fold_frames_complete;
	f->marks = marks;
	pt_agg_init(&f->agg, p->ntypes, g);
	pt_map_init(&f->pair_index);
	f->leaf = UINT32_MAX;
}

void pt_fold_release(struct pt_fold *f)
{
	pt_agg_release(&f->agg);
	free(f->frame_entry);
	pt_cum_release(&f->cum);
	free(f->uniq);
	pt_map_release(&f->pair_index);
	free(f->pair_callee);
	pt_cum_release(&f->pair_cum);
	free(f->pair_bits);
	free(f->stack_pairs);
	free(f->inline_name);
	memset(f, 0, sizeof(*f));
}

/* one more value column, in the table and in the pairs' bits (both re-strided only
 * when the table's row width grows, which it does by doubling) */
static void add_type(struct pt_fold *f)
{
	uint32_t w = f->agg.stride, nw, k;
	uint8_t *nb;

	pt_agg_add_type(&f->agg);
	nw = f->agg.stride;
	if (!f->pairs_alloc || nw == w) {
		f->pair_w = nw;
		return;
	}
	nb = pt_xcalloc(f->pairs_alloc, nw);
	for (k = 0; k < f->npairs; k++)
		memcpy(nb + (size_t)k * nw, f->pair_bits + (size_t)k * w, w);
	free(f->pair_bits);
	f->pair_bits = nb;
	f->pair_w = nw;
}

/* readers add sample types as they meet them (perf's events): catch up with p's */
static void sync_types(struct pt_fold *f, const struct pt_profile *p)
{
	while (f->agg.ntypes < p->ntypes)
		add_type(f);
}

int pt_fold_finish(struct pt_fold *f, struct pt_profile *p)
{
	if (!f->folded || p->agg)
		return 0;
	sync_types(f, p);
	p->agg = pt_xmalloc(sizeof(*p->agg));
	*p->agg = f->agg;
	pt_agg_pack(p->agg);
	pt_agg_init(&f->agg, 0, p->agg->gran);
	p->no_stacks_reason = "folded while reading";
	return 1;
}

static void fold_scale_type(struct pt_sink *s, struct pt_profile *p, uint32_t t, int64_t factor)
{
	struct pt_fold *f = (struct pt_fold *)s;
	struct pt_agg *a = &f->agg;
	uint32_t i, w;

	sync_types(f, p);
	w = a->stride;
	for (i = 0; i < a->nentries; i++) {
		a->flat[(size_t)i * w + t] *= factor;
		a->cum[(size_t)i * w + t] *= factor;
	}
	a->total[t] *= factor;
}

static void fold_frames_complete(struct pt_sink *s, struct pt_profile *p)
{
	(void)p;
	((struct pt_fold *)s)->frames_complete = 1;
}

/* the entry of frame fid, made on first sight */
static uint32_t entry_of(struct pt_profile *p, struct pt_fold *f, uint32_t fid)
{
	uint32_t e;

	if (fid >= f->frame_entry_alloc) {
		size_t old = f->frame_entry_alloc;
		PT_ALLOC_GROW(f->frame_entry, (size_t)fid + 1, f->frame_entry_alloc);
		memset(f->frame_entry + old, 0, (f->frame_entry_alloc - old) * sizeof(uint32_t));
	}
	if (f->frame_entry[fid])
		return f->frame_entry[fid] - 1;
	e = pt_agg_entry_for_frame(p, &f->agg, fid);
	f->frame_entry[fid] = e + 1;
	pt_cum_reserve(&f->cum, (size_t)e + 1);
	return e;
}

/* with frames_complete: which names can be marked at all (have an inlined frame) */
static void find_inline_names(const struct pt_profile *p, struct pt_fold *f)
{
	uint32_t i;

	f->inline_name_n = (size_t)p->strings.n + 1;
	f->inline_name = pt_xcalloc(f->inline_name_n, 1);
	for (i = 1; i < p->nframes; i++)
		if (p->frames[i].flags & PT_FRAME_INLINED) {
			f->inline_name[p->funcs[p->frames[i].func].name] = 1;
			f->inline_name_any = 1;
		}
	f->inline_name_ready = 1;
}

/* note the pair caller -> callee of this stack; its first occurrence decides */
static void note_pair(struct pt_fold *f, uint32_t caller, uint32_t callee, int inlined)
{
	uint32_t *slot = pt_map_put(&f->pair_index, (uint64_t)caller << 32 | callee), k;

	if (*slot == PT_MAP_NEW) {
		k = f->npairs;
		if ((size_t)k + 1 > f->pairs_alloc) {
			size_t old = f->pairs_alloc, w = f->agg.stride;
			PT_ALLOC_GROW(f->pair_callee, (size_t)k + 1, f->pairs_alloc);
			f->pair_bits = pt_xreallocarray(f->pair_bits, f->pairs_alloc, w ? w : 1);
			memset(f->pair_bits + old * w, 0, (f->pairs_alloc - old) * w);
			f->pair_w = (uint32_t)w;
		}
		*slot = k;
		f->pair_callee[k] = callee;
		pt_cum_reserve(&f->pair_cum, (size_t)k + 1);
		f->npairs++;
	}
	k = *slot;
	if (!pt_cum_first(&f->pair_cum, k))
		return;
	PT_ALLOC_GROW(f->stack_pairs, f->nstack_pairs + 1, f->stack_pairs_alloc);
	f->stack_pairs[f->nstack_pairs++] = 2 * k + !inlined;
}

/* the stack's caller -> callee pairs of function names, for the marks */
static void note_pairs(const struct pt_profile *p, struct pt_fold *f, const uint32_t *frames,
		       size_t n, int leaf_first)
{
	uint32_t prev_name = 0;
	size_t i;

	if (f->frames_complete && !f->inline_name_ready)
		find_inline_names(p, f);
	if (f->inline_name_ready && !f->inline_name_any)
		return; /* no frame is inlined: no name can be marked */
	for (i = 0; i < n; i++) {
		const struct pt_frame *fr = &p->frames[frames[leaf_first ? n - 1 - i : i]];
		uint32_t name = p->funcs[fr->func].name;
		/* pprof's graph: one node per name, no edge from a name to itself */
		if (i && prev_name != name &&
		    (!f->inline_name_ready || (name < f->inline_name_n && f->inline_name[name])))
			note_pair(f, prev_name, name, fr->flags & PT_FRAME_INLINED);
		prev_name = name;
	}
}

/* the pending stack: its distinct entries and its leaf (and pairs, with marks) */
static void fold_stack(struct pt_fold *f, struct pt_profile *p, const uint32_t *frames, size_t n,
		       int leaf_first)
{
	uint32_t *fe, *uniq, e = UINT32_MAX;
	size_t i, nu = 0, fe_n;
	struct pt_cum cum;

	f->nstack_pairs = 0;
	pt_cum_next_stack(&f->cum);
	if (f->marks)
		pt_cum_next_stack(&f->pair_cum);
	PT_ALLOC_GROW(f->uniq, n, f->uniq_alloc);
	/* the hot loop: locals, not the struct (the rule's marks too, as a copy), so
	 * stores to uniq cannot force reloads */
	fe = f->frame_entry;
	fe_n = f->frame_entry_alloc;
	cum = f->cum;
	uniq = f->uniq;
	for (i = 0; i < n; i++) {
		uint32_t fid = frames[leaf_first ? n - 1 - i : i];

		if (fid < fe_n && fe[fid]) {
			e = fe[fid] - 1;
		} else {
			e = entry_of(p, f, fid);
			fe = f->frame_entry;
			fe_n = f->frame_entry_alloc;
			cum = f->cum;
		}
		if (pt_cum_first(&cum, e))
			uniq[nu++] = e;
	}
	f->nuniq = nu;
	f->leaf = e;
	if (f->marks)
		note_pairs(p, f, frames, n, leaf_first);
}

static void mark_pairs(struct pt_fold *f, uint32_t t)
{
	uint32_t w = f->pair_w;
	size_t k;

	for (k = 0; k < f->nstack_pairs; k++) {
		uint32_t x = f->stack_pairs[k];
		f->pair_bits[(size_t)(x >> 1) * w + t] |= (uint8_t)(1 | (x & 1) << 1);
	}
}

/* value v of type t of the pending stack */
static void fold_value(struct pt_fold *f, uint32_t t, int64_t v)
{
	struct pt_agg *a = &f->agg;
	uint32_t w = a->stride;
	size_t k;

	a->total[t] = pt_add(a->total[t], v);
	if (f->leaf == UINT32_MAX) /* a record without frames */
		return;
	a->flat[(size_t)f->leaf * w + t] = pt_add(a->flat[(size_t)f->leaf * w + t], v);
	for (k = 0; k < f->nuniq; k++)
		a->cum[(size_t)f->uniq[k] * w + t] = pt_add(a->cum[(size_t)f->uniq[k] * w + t], v);
	if (v && f->nstack_pairs)
		mark_pairs(f, t);
}

static void fold_sample(struct pt_sink *s, struct pt_profile *p, const uint32_t *frames, size_t n,
			int leaf_first, uint32_t labels, const int64_t *values, int64_t time)
{
	struct pt_fold *f = (struct pt_fold *)s;
	uint32_t t;

	(void)labels; /* the table keeps no labels, and no time */
	(void)time;
	sync_types(f, p);
	f->folded = 1;
	fold_stack(f, p, frames, n, leaf_first);
	for (t = 0; t < f->agg.ntypes; t++)
		fold_value(f, t, values[t]);
}

unsigned char *pt_fold_marks(const struct pt_fold *f, const struct pt_profile *p, uint32_t t)
{
	unsigned char *inl = pt_xcalloc(p->strings.n + 1, 1);
	uint32_t k, w = f->pair_w;
	size_t i;

	for (k = 0; k < f->npairs; k++) {
		uint8_t b = f->pair_bits[(size_t)k * w + t];
		if (b & 1)
			inl[f->pair_callee[k]] |= b & 2 ? 2 : 1;
	}
	for (i = 0; i <= p->strings.n; i++)
		inl[i] = pt_inline_mark(inl[i]);
	return inl;
}
