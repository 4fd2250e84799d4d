/* fold.h: aggregating while reading. A command whose only need is the flat/cum table
 * (top) installs a fold as the readers' sink (core/sink.h): each stack is folded into
 * per-entry values as the reader hands it over, instead of building the call tree, so
 * memory grows with the entries, not with the tree's nodes, and no tree walk follows
 * the read. Readers that build their tree themselves (their input is a tree) hand the
 * fold nothing; the command then aggregates their tree as usual.
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

#include "analysis/cum.h"
#include "core/functable.h"
#include "core/profile.h"
#include "core/sink.h"
#include "util/map.h"

struct pt_fold {
	struct pt_sink sink; /* first: what the reader is handed */
	int folded;	     /* some stack (or record) was folded */
	int marks;	     /* keep the inline-mark pairs */
	int frames_complete; /* the reader made every frame before its first stack */
	struct pt_agg agg;

	uint32_t *frame_entry; /* frame id -> entry + 1 (0: not mapped yet) */
	size_t frame_entry_alloc;
	struct pt_cum cum; /* per entry: the rule's marks, one stack at a time */

	/* the pending stack: its distinct entries, its leaf entry, its distinct pairs */
	uint32_t *uniq;
	size_t nuniq, uniq_alloc;
	uint32_t leaf; /* UINT32_MAX for an empty stack */

	/* inline marks: pairs of function-name string ids */
	struct pt_map pair_index; /* caller << 32 | callee -> pair */
	uint32_t *pair_callee;	  /* pair -> callee name */
	struct pt_cum pair_cum;	  /* per pair: met in the pending stack (cum.h) */
	uint8_t *pair_bits;	  /* pair * pair_w: 1 seen, 2 not inlined */
	uint32_t pair_w;	  /* pair_bits' row width: the table's stride */
	uint32_t npairs;
	size_t pairs_alloc;
	uint32_t *stack_pairs; /* the pending stack's pairs, 2 * pair + (not inlined) */
	size_t nstack_pairs, stack_pairs_alloc;
	uint8_t *inline_name; /* with frames_complete: string id -> has an inlined frame */
	size_t inline_name_n;
	int inline_name_ready, inline_name_any;
};

/* A fold at granularity g for readers filling p; `marks` also keeps what
 * pt_fold_marks() needs. Hand &f->sink to the reader (struct pt_read_opts). */
void pt_fold_init(struct pt_fold *f, const struct pt_profile *p, enum pt_granularity g, int marks);
void pt_fold_release(struct pt_fold *f);
/* After a successful read: if the reader handed stacks over, p becomes aggregate-only,
 * holding the folded table (p->agg); returns 1 then, else 0 (p is whole as it is). */
int pt_fold_finish(struct pt_fold *f, struct pt_profile *p);

/* pprof's mark of a function from its incoming calls: `calls` has 1 if some call into it
 * was always inlined, 2 if some was not: "(inline)" (1) only for the first alone,
 * "(partial-inline)" (2) for both, none (0) otherwise */
static inline unsigned char pt_inline_mark(unsigned char calls)
{
	return calls == 1 ? 1 : calls == 3 ? 2 : 0;
}

/* pprof's inline mark of every function name of p for type t, from a fold that kept
 * its marks: an array of p->strings.n + 1 bytes, 1 "(inline)", 2 "(partial-inline)" */
unsigned char *pt_fold_marks(const struct pt_fold *f, const struct pt_profile *p, uint32_t t);

#endif
