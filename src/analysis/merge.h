/* merge.h: adding whole profiles together, as `go tool pprof a b` and `stackprof a b`
 * do: the same sample types (by name and unit, in any order), one fixed point, stacks
 * merged frame by frame, and per-function tables when either side has no stacks. The
 * merge is associative, so inputs may be merged in any grouping. */
#ifndef PT_MERGE_H
#define PT_MERGE_H

#include <stdint.h>

#include "core/profile.h"
#include "core/sink.h"
#include "util/diag.h"

struct pt_merge {
	struct pt_sink sink;	/* first: the append's sink (pt_merge_append) */
	struct pt_profile *dst; /* the first input, which the others are added to */
	const char *first_path; /* its display name, for messages */
	int timeline;		/* every input so far has a timeline */
	uint32_t *map;		/* src type -> dst type, for the input being added */
	size_t map_alloc;
	/* an input read straight into dst: its types mapped (1) or not theirs (-1) yet
	 * (0); the rows of dst it added to, in the order it first did, and what it added to
	 * each (its own types' order), as the input's own rows would have held it */
	struct pt_append append;
	int mapped;
	uint32_t *touched, *slot; /* slot[row]: its place in touched, if touched there */
	size_t ntouched, touched_alloc, slot_alloc;
	int64_t *added;
	size_t added_alloc;
};

/* Start a merge into dst, the first input (already read; path names it). */
void pt_merge_init(struct pt_merge *m, struct pt_profile *dst, const char *first_path);
/* What the next input's reader may read straight into the result (core/sink.h), its
 * profile then keeping the types, header and sums only: NULL when the result cannot
 * take it so (no stacks, a fixed point, simplified names, a timeline). The caller
 * reads the input unfiltered and unlabelled then, and adds it with pt_merge_add as any
 * other: the bytes written are those of the two-step merge. */
const struct pt_append *pt_merge_append(struct pt_merge *m);
/* Add src (read from path) into the merge; src may be changed (its fixed point) and is
 * the caller's to release after. -1 with d filled when the sample types differ. */
int pt_merge_add(struct pt_merge *m, struct pt_profile *src, const char *path, struct pt_diag *d);
/* After the last input: a timeline only some inputs had would misrepresent time, so it
 * is dropped. */
void pt_merge_finish(struct pt_merge *m);
void pt_merge_release(struct pt_merge *m);

/* A string label for every sample of a profile (`merge --label host=a`). */
struct pt_merge_label {
	const char *key, *value;
};
/* Put labels v[0..n) on every sample row of p, in place of any label of the same key
 * (the last of a repeated key wins); rows whose label sets become equal add up. A
 * profile without stacks has no rows and is left as it is. */
void pt_profile_set_labels(struct pt_profile *p, const struct pt_merge_label *v, size_t n);

/* Rebuild p in one canonical order that depends only on what it holds, not on the order
 * it was built in: nodes depth-first with siblings sorted by their frames' text (name,
 * file, lines, address, mapping), rows by node then label text, and strings, functions,
 * frames and label sets numbered by first use in that walk. A merge of merges then
 * writes the same bytes as one flat merge. Profiles without stacks are left as they are;
 * the producer's per-line table of old stackprof dumps (line_agg), which no writer
 * writes, is dropped. */
void pt_profile_canonical(struct pt_profile *p);

#endif
