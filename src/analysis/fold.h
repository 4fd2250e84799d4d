/* fold.h: aggregating while reading. A command whose only need is the flat/cum table
 * (top) asks the profile to fold each stack into per-entry values as the reader hands
 * it over, instead of building the call tree: memory then grows with the entries, not
 * with the tree's nodes, and no tree walk follows the read.
 *
 * Readers need not know. While folding, pt_profile_stack() maps the stack's frames to
 * entries and returns a placeholder node (PT_FOLD_NODE) that only the next
 * pt_profile_add_sample()/pt_profile_add_value() calls may use; those fold the values.
 * A reader that builds the tree itself (pt_profile_child) turns folding off at its
 * first call, before anything was folded, and the tree is built as usual. After the
 * reader, pt_profile_fold_finish() hangs the result on the profile as its aggregate
 * (p->agg), so the profile reads as aggregate-only at the folded granularity.
 *
 * Entries are made in the order the tree walk would make them (first appearance,
 * stacks in input order, root first), so every report reads the same either way.
 * Cum counts an entry once per stack, as the walk does. With `marks`, the fold also
 * keeps what pprof's "(inline)" marks need: for every caller -> callee pair of
 * function names, per sample type, whether it was seen and whether its first
 * occurrence in some stack was not inlined (pprof's graph rule). One difference
 * from the tree: the marks test each input sample's value for zero, where the tree
 * tests the sum of the samples of one stack and label set, so samples of one stack
 * that cancel out exactly still count there. */
#ifndef PT_FOLD_H
#define PT_FOLD_H

#include <stdint.h>

#include "analysis/aggregate.h"
#include "util/map.h"
#include "core/profile.h"

/* the node pt_profile_stack() returns while folding */
#define PT_FOLD_NODE 1u

enum pt_fold_state {
	PT_FOLD_WAITING, /* asked for; nothing folded yet */
	PT_FOLD_ON,	 /* stacks have been folded */
	PT_FOLD_OFF,	 /* the reader builds the tree: folding gave way */
};

struct pt_fold {
	enum pt_fold_state state;
	int marks;	     /* keep the inline-mark pairs */
	int frames_complete; /* the reader made every frame before its first stack */
	struct pt_agg agg;

	uint32_t *frame_entry; /* frame id -> entry + 1 (0: not mapped yet) */
	size_t frame_entry_alloc;
	uint32_t *entry_stamp; /* entry -> number of the last stack it was counted in */
	size_t entry_stamp_alloc;
	uint32_t stackno;

	/* the pending stack: its distinct entries, its leaf entry, its distinct pairs */
	uint32_t *uniq;
	size_t nuniq, uniq_alloc;
	uint32_t leaf; /* UINT32_MAX for an empty stack */

	/* inline marks: pairs of function-name string ids */
	struct pt_map pair_index; /* caller << 32 | callee -> pair */
	uint32_t *pair_callee;	  /* pair -> callee name */
	uint32_t *pair_stamp;	  /* pair -> number of the last stack that met it */
	uint8_t *pair_bits;	  /* pair * ntypes: 1 seen, 2 not inlined */
	uint32_t npairs;
	size_t pairs_alloc;
	uint32_t *stack_pairs; /* the pending stack's pairs, 2 * pair + (not inlined) */
	size_t nstack_pairs, stack_pairs_alloc;
	uint8_t *inline_name; /* with frames_complete: string id -> has an inlined frame */
	size_t inline_name_n;
	int inline_name_ready, inline_name_any;
};

/* Ask p to fold at granularity g (before the reader runs); `marks` also keeps what
 * pt_fold_marks() needs. */
void pt_profile_request_fold(struct pt_profile *p, enum pt_granularity g, int marks);
/* Readers that make every frame before their first stack say so (pprof): the marks
 * then follow only the names that have an inlined frame. */
void pt_profile_frames_complete(struct pt_profile *p);
/* After a successful read: a profile that folded becomes aggregate-only. */
void pt_profile_fold_finish(struct pt_profile *p);
/* pprof's mark of a function from its incoming calls: `calls` has 1 if some call into it
 * was always inlined, 2 if some was not: "(inline)" (1) only for the first alone,
 * "(partial-inline)" (2) for both, none (0) otherwise */
static inline unsigned char pt_inline_mark(unsigned char calls)
{
	return calls == 1 ? 1 : calls == 3 ? 2 : 0;
}

/* pprof's inline mark of every function name for type t, as pt_report_inline_marks()
 * returns them: an array of strings.n + 1 bytes, 1 "(inline)", 2 "(partial-inline)" */
unsigned char *pt_fold_marks(const struct pt_profile *p, uint32_t t);

/* the profile's side (profile.c) */
uint32_t pt_fold_stack(struct pt_profile *p, const uint32_t *frames, size_t n, int leaf_first);
/* values of the pending stack, or of the root (an empty stack) with `root` */
void pt_fold_values(struct pt_profile *p, const int64_t *values, int root);
void pt_fold_value(struct pt_profile *p, uint32_t t, int64_t v, int root);
void pt_fold_add_type(struct pt_fold *f);
void pt_fold_scale_type(struct pt_fold *f, uint32_t t, int64_t factor);
void pt_fold_free(struct pt_fold *f);

#endif
