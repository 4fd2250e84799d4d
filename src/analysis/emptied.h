/* emptied.h: a profile without samples, and filters that keep none: what to say, with
 * what the profile holds that the filters select on (the values of the label keys they
 * name, the time its samples span), so that a user sees why nothing is left. */
#ifndef PT_EMPTIED_H
#define PT_EMPTIED_H

#include "analysis/filter.h"
#include "core/profile.h"
#include "util/buf.h"

/* 1 when no sample of p has a nonzero value of any type (no type at all included) */
int pt_profile_empty(const struct pt_profile *p);

/* What p holds that f selects on, noted before the filters run (they replace p). */
struct pt_filter_scope {
	struct pt_buf labels; /* "; KEY: V, V, ...; no label KEY" for the keys of f's conditions */
	struct pt_buf span;   /* "; its samples span 0 to S s" when f has a time window */
};

void pt_filter_scope_init(struct pt_filter_scope *s, const struct pt_profile *p,
			  const struct pt_filter *f);
void pt_filter_scope_release(struct pt_filter_scope *s);

/* After the filters: when a step of log took the last samples of a profile that had some,
 * "WHAT keeps no samples" and the scope's note for that kind of step into b, and 1;
 * else 0 (b untouched). */
int pt_filter_emptied(const struct pt_filter_log *log, const struct pt_filter_scope *s,
		      struct pt_buf *b);

#endif
