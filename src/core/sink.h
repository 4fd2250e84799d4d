/* sink.h: where a reader hands the stacks it reads. By default they build the profile's
 * call tree; a command that needs less than the tree installs a sink of its own (top's
 * fold, analysis/fold.h), the way Linux perf's tools install their struct perf_tool
 * callbacks. A reader calls these and knows nothing of who listens.
 *
 * A reader either hands every stack to the sink or builds the tree itself with
 * pt_profile_child (a format whose input already is a tree); it never mixes the two. */
#ifndef PT_SINK_H
#define PT_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "core/profile.h"

struct pt_sink {
	/* One input record: its stack (frame ids of p, root first unless leaf_first; n may
	 * be 0 for a record with no frames), its label set, its p->ntypes values (types
	 * may have been added since the last call: their earlier values were 0) and its
	 * time (see pt_profile_add_sample). */
	void (*sample)(struct pt_sink *s, struct pt_profile *p, const uint32_t *frames, size_t n,
		       int leaf_first, uint32_t labels, const int64_t *values, int64_t time);
	/* every value of type t so far was multiplied by factor (fixed-point rescaling) */
	void (*scale_type)(struct pt_sink *s, struct pt_profile *p, uint32_t t, int64_t factor);
	/* the reader has made every frame its stacks will use; NULL if the sink does not
	 * care */
	void (*frames_complete)(struct pt_sink *s, struct pt_profile *p);
};

/* A merge that adds its inputs straight into its result (analysis/merge.h): a reader
 * that can makes its strings, functions, mappings, frames and label sets in dst and hands
 * its stacks, in dst's ids, to sink; the profile it reads into keeps the rest (sample
 * types, period, times, comments, the sums of the records read) and no stacks. A reader
 * that cannot, or meets what only its own profile can hold, reads as without it. */
struct pt_append {
	struct pt_profile *dst;
	struct pt_sink *sink;
};

/* Hand one record to s; with s NULL, add it to p's call tree and sample rows. (Inline:
 * it is on every reader's path, once per input record.) */
static inline void pt_sink_sample(struct pt_sink *s, struct pt_profile *p, const uint32_t *frames,
				  size_t n, int leaf_first, uint32_t labels, const int64_t *values,
				  int64_t time)
{
	if (s) {
		/* the sums a sink makes are bounded like the tree's (left out if not) */
		if (pt_profile_account(p, values) < 0)
			return;
		s->sample(s, p, frames, n, leaf_first, labels, values, time);
		p->nrecords++;
		return;
	}
	pt_profile_add_sample(p, pt_profile_stack(p, frames, n, leaf_first), labels, values, time);
}
/* Multiply every value of type t by factor, in p and in s. */
void pt_sink_scale_type(struct pt_sink *s, struct pt_profile *p, uint32_t t, int64_t factor);
/* Tell s that every frame is made (nothing without a sink). */
void pt_sink_frames_complete(struct pt_sink *s, struct pt_profile *p);

#endif
