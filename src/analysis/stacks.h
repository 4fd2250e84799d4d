/* stacks.h: keeping the distinct stacks while reading. A report that needs the stacks
 * but not the call tree (top --style pprof, whose graph is rebuilt from them) installs
 * this sink (core/sink.h) instead of letting the readers build the tree: it keeps one
 * row per distinct (label set, stack), as the tree keeps one sample row per (node,
 * label set), with the sums of its samples' values, and no node at all. A stack is its
 * frame ids as varints, so memory grows with the distinct stacks, and the cost of a
 * sample is one hash of its frames.
 *
 * The rows are made in the order the tree would make its sample rows (first
 * appearance), their values sum as the tree's rows do, and pt_stacks_graph() applies
 * the rules pt_graph_build() applies to the tree, so a report reads the same either
 * way. One difference: a record the sums leave out (pt_profile_account) makes no row
 * here, where the tree still has its nodes (they hold no value either way). */
#ifndef PT_STACKS_H
#define PT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/graph.h"
#include "core/profile.h"
#include "core/sink.h"
#include "util/hash.h"

struct pt_stacks {
	struct pt_sink sink; /* first: what the reader is handed */
	int taken;	     /* some stack was handed over */
	uint32_t n;	     /* rows */
	/* row r's key, its label set and then its frames (root first) as varints, is
	 * bytes[start[r]] up to bytes[start[r + 1]] */
	unsigned char *bytes;
	size_t nbytes, bytes_alloc;
	uint64_t *start;
	size_t rows_alloc;
	/* the rows by key, linear probing: row + 1 in the low half (0 = empty), the low
	 * half of its key's hash above it (the slot's place, and a tag compared before
	 * the key) */
	uint64_t *slots;
	uint32_t mask;
	struct pt_hash_key hkey; /* random: the stacks come from the input */
	int64_t *values;	 /* per row, `stride` values: the sums of its samples */
	uint32_t stride, ntypes;
	uint32_t *frames; /* the distinct frames in the order the rows first meet them */
	uint32_t nframes;
	size_t frames_alloc;
	unsigned char *met; /* per frame id: in frames[] */
	size_t met_alloc;
};

void pt_stacks_init(struct pt_stacks *s);
void pt_stacks_release(struct pt_stacks *s);
/* After a successful read of p: if the reader handed stacks over, p becomes
 * aggregate-only (no stacks of its own) with a table at granularity g that holds the
 * totals alone (the stacks are here), and 1 is returned; else 0 (p is whole). */
int pt_stacks_finish(struct pt_stacks *s, struct pt_profile *p, enum pt_granularity g);

/* the number of rows, and row r's value of type t */
static inline uint32_t pt_stacks_n(const struct pt_stacks *s)
{
	return s->n;
}
static inline int64_t pt_stacks_value(const struct pt_stacks *s, uint32_t r, uint32_t t)
{
	return t < s->ntypes ? s->values[(size_t)r * s->stride + t] : 0;
}

/* The distinct frames of the stacks in the order a tree would first meet them (rows in
 * order, each root first): *n of them, in an array s owns. */
const uint32_t *pt_stacks_frames(const struct pt_stacks *s, uint32_t *n);

/* pt_graph_build over the rows instead of a tree: the same vertices' flat, cum and
 * seen, and with `edges` the same edges (their weight, live, not_inline and residual;
 * calls 0, in the order the rows first meet them), else none. g is made by
 * pt_graph_init; o must have nt 1, no caller mapping and no flags but
 * PT_GRAPH_SELF_EDGES (other uses are a broken invariant). */
void pt_stacks_graph(struct pt_graph *g, const struct pt_stacks *s, const struct pt_profile *p,
		     const struct pt_graph_opts *o, int edges);

#endif
