/* filter.h: transforms on the call tree. Each builds a NEW profile from an old one
 * (frames, functions, labels and timeline events of the kept samples re-added), so the
 * model's invariants hold afterwards and every report and writer works unchanged.
 *
 * Filters (pprof's -focus/-ignore/-hide/-show/-show_from/-prune_from, -tagfocus, a time
 * window, folding recursion) run in a fixed order, each as one pass that records what it
 * removed in a struct pt_filter_log. Regexes are util/pattern.h's (PCRE2, RE2's syntax),
 * unanchored, matched against the function name (and the file path with match_file).
 *
 * The same copying machinery re-keys a tree at a coarser granularity (functions, files,
 * lines) for writers, and merges one profile into another (pt_profile_merge). */
#ifndef PT_FILTER_H
#define PT_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/aggregate.h"
#include "util/buf.h"
#include "util/diag.h"
#include "core/profile.h"

/* one alternative of a label condition: the row must have label key == value. The
 * strings are not owned (they point into argv or are constants). */
struct pt_tag_cond {
	const char *key, *value;
	size_t keylen;
	uint32_t group; /* a row must match one alternative of every group */
	int from_tag;	/* made by --tag (a later --tag on the same key joins its group) */
	int ignore;	/* made by --tag-ignore: a row with a matching label goes (no group) */
	/* value is one of pprof's numeric ranges ("1kb:", ":64kb", "1mb:2mb", "2kb"): it
	 * holds numeric labels that, scaled to `unit`, lie within lo..hi */
	int range, has_lo, has_hi;
	double lo, hi;
	char unit[16];
};

#define PT_FILTER_MAX_TAGS 64

struct pt_filter {
	const char *focus, *ignore, *hide, *show, *show_from, *prune_from; /* regex or NULL */
	int match_file; /* match the function's file path too */
	struct pt_tag_cond tags[PT_FILTER_MAX_TAGS];
	size_t ntags;
	uint32_t ngroups;
	int collapse_recursion;
	/* --tag-root, --tag-leaf (pprof's -tagroot, -tagleaf): comma-separated label keys
	 * whose values become frames at the root or leaf of every stack, before the
	 * filters; NULL for none */
	const char *tag_root, *tag_leaf;
	int has_time_from, has_time_to;
	double time_from, time_to; /* seconds from the first event */
};

void pt_filter_init(struct pt_filter *f);
/* --tag KEY=VALUE: conditions on the same key are alternatives; -1 if arg has no '='
 * or there are too many conditions. arg must outlive f. */
int pt_filter_add_tag(struct pt_filter *f, const char *arg);
/* --tag-ignore KEY=VALUE (pprof's -tagignore): a row with a label that matches goes;
 * -1 as pt_filter_add_tag. VALUE is matched as --tag's is. */
int pt_filter_add_tag_ignore(struct pt_filter *f, const char *arg);
/* --process N (label "pid") and --thread TID|NAME (the "tid" label for a number, the
 * "thread" or "comm" label for a name): a group of their own. -1 if too many. */
int pt_filter_add_pid(struct pt_filter *f, const char *arg);
int pt_filter_add_thread(struct pt_filter *f, const char *arg);
/* 1 if any filter is set */
int pt_filter_active(const struct pt_filter *f);
/* the filters need the timeline (time window) */
int pt_filter_needs_timeline(const struct pt_filter *f);
/* Check the regexes; -1 with d filled naming the bad one. */
int pt_filter_check(const struct pt_filter *f, struct pt_diag *d);

/* which pass a step is, for a note on what the profile holds when it kept nothing */
enum pt_filter_step_kind { PT_STEP_STACKS, PT_STEP_TIME, PT_STEP_LABELS };

/* what one filter pass removed, per sample type */
struct pt_filter_step {
	char *what;	  /* "--focus 'RE'" */
	enum pt_filter_step_kind kind;
	int64_t *before;  /* ntypes totals before the pass */
	int64_t *removed; /* ntypes */
};

struct pt_filter_log {
	struct pt_filter_step *v;
	size_t n, alloc;
	uint32_t ntypes;
	/* ntypes: the sum of |value| over every sample before the first pass, the samples
	 * a -hide left without a frame included (pprof's total, of the whole profile);
	 * NULL until a pass ran */
	int64_t *whole;
	/* the main mapping's file and build id before the first pass (pprof's "File:"
	 * and "Build ID:", which its filters keep); NULL for none */
	char *main_file, *main_build_id;
};

void pt_filter_log_init(struct pt_filter_log *l);
void pt_filter_log_release(struct pt_filter_log *l);
/* one line per step, "Filter: WHAT removed V of TOTAL (P%)\n", values of type t of p */
void pt_filter_log_describe(const struct pt_filter_log *l, const struct pt_profile *p, uint32_t t,
			    struct pt_buf *b);

/* go tool pprof's "Active filters:" legend for f: that line and one per filter pprof
 * has (focus, ignore, hide, show, show_from, tagfocus, tagignore), "   NAME=VALUE", each
 * cut at 80 bytes; nothing when f has none of them */
void pt_filter_pprof_legend(const struct pt_filter *f, struct pt_buf *b);

/* Apply every filter of f to *p (replaced by the result; the old one is released).
 * log (may be NULL) gets one step per filter applied. Returns 0, or -1 with d filled
 * (a regex that does not compile, a stack filter on a profile without stacks, a time
 * window without a timeline: *p is then unchanged; a regex too costly to match on a
 * name: *p may hold the passes before it). */
int pt_filter_apply(struct pt_profile *p, const struct pt_filter *f, struct pt_filter_log *log,
		    struct pt_diag *d);

/* Re-key *p's tree at granularity g (functions: one frame per function; files: one
 * frame per source file, or binary when there is none; lines: one per function and
 * line; addresses: unchanged). -1 with d filled for a profile without stacks. */
int pt_filter_granularity(struct pt_profile *p, enum pt_granularity g, struct pt_diag *d);

/* "functions", "files", "lines", "addresses"; -1 if none */
int pt_parse_granularity(const char *s, enum pt_granularity *g);
/* g's name as pt_parse_granularity takes it, the plural that counts a table's rows */
const char *pt_granularity_name(enum pt_granularity g);

#define PT_TYPE_SKIP UINT32_MAX

/* Add every sample of src (rows, timeline events, record count) into dst. type_map[t]
 * is dst's type for src's type t, or PT_TYPE_SKIP to leave that type out. Strings, functions,
 * mappings, frames and label sets are translated; stacks are merged by frame. Both need stacks
 * (checked by callers). */
void pt_profile_merge(struct pt_profile *dst, const struct pt_profile *src,
		      const uint32_t *type_map);
/* The same, and when either has no stacks (stackprof without raw samples), dst becomes
 * aggregate-only: per-function flat, cum, edges and lines add up (cum and once-per-stack
 * edges are additive over disjoint sample sets). -1 with d filled on failure. */
int pt_profile_merge_any(struct pt_profile *dst, const struct pt_profile *src,
			 const uint32_t *type_map, struct pt_diag *d);

#endif
