/* cum.h: the cumulative rule, in one place: a key (a function, a table entry, an edge,
 * a source line, a graph vertex) counts once per stack, at its rootmost occurrence,
 * however often it recurs there. Every cumulative value of every report comes from here.
 *
 * The rule is pt_cum_counts(); two kinds of bookkeeping feed it, both O(1) per frame
 * and neither clearing anything between stacks:
 *  - stacks handed over one by one (the fold while reading): pt_cum_next_stack() starts
 *    a stack, pt_cum_first() says whether a key counts in it; each key's mark holds the
 *    number of the last stack that met it (an epoch), so a stack costs its depth;
 *  - a depth-first walk of a call tree, where the stack is the path from the root:
 *    pt_cum_enter() on the way down says whether the node counts, pt_cum_leave() on the
 *    way up undoes it; each key's mark holds its occurrences on the path.
 * A struct pt_cum is used in one way only. Building with PT_CUM_BROKEN (a test build,
 * never the program) counts every occurrence instead: tests/t6100 shows that every
 * report then fails its checks. */
#ifndef PT_CUM_H
#define PT_CUM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/xalloc.h"

struct pt_cum {
	uint32_t *mark; /* per key: see above; keys below n */
	size_t n;
	uint32_t epoch; /* stacks: the current stack's number, from 1 */
};

/* marks for nkeys keys, all clear. Inline, as release is, so that a walk's own
 * struct pt_cum never escapes and its fields can stay in registers. */
static inline void pt_cum_init(struct pt_cum *c, size_t nkeys)
{
	c->n = nkeys;
	c->mark = pt_xcalloc(nkeys ? nkeys : 1, sizeof(uint32_t));
	c->epoch = 0;
}

static inline void pt_cum_release(struct pt_cum *c)
{
	free(c->mark);
	c->mark = NULL;
	c->n = 0;
	c->epoch = 0;
}
/* room for keys below nkeys (new marks clear); the marks may move */
void pt_cum_reserve(struct pt_cum *c, size_t nkeys);
/* every mark clear, the stack numbers from 1 again (pt_cum_next_stack's wrap) */
void pt_cum_wrap(struct pt_cum *c);

/* The rule: an occurrence of a key counts unless the stack has counted it already. */
static inline int pt_cum_counts(int already)
{
#ifdef PT_CUM_BROKEN
	(void)already;
	return 1;
#else
	return !already;
#endif
}

/* ---- stacks one by one ---- */

/* the next stack: every key is unmet in it (the marks are cleared only when the
 * stack numbers wrap, once in 2^32 stacks) */
static inline void pt_cum_next_stack(struct pt_cum *c)
{
	if (++c->epoch == 0)
		pt_cum_wrap(c);
}

/* whether key k counts in the current stack; it is met from now on */
static inline int pt_cum_first(struct pt_cum *c, uint32_t k)
{
	if (c->mark[k] == c->epoch)
		return pt_cum_counts(1);
	c->mark[k] = c->epoch;
	return pt_cum_counts(0);
}

/* ---- the path of a depth-first walk ---- */

/* entering a node of key k: whether it counts (no node of k above it counted) */
static inline int pt_cum_enter(struct pt_cum *c, uint32_t k)
{
	return pt_cum_counts(c->mark[k]++ != 0);
}

/* leaving a node of key k that was entered */
static inline void pt_cum_leave(struct pt_cum *c, uint32_t k)
{
	c->mark[k]--;
}

#endif
