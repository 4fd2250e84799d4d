/* tracetee.h: one parse of a Chrome trace for its two readers. The reader the input was
 * detected as (the host) gets every token; the other (the mate) gets the tokens of the
 * trace's event array, so a trace holding both V8 CPU samples (Profile events,
 * cpuprofile.c) and spans (B/E/X events, traceevents.c) is read in one pass whichever
 * reader it was given to, each half into a profile of its own that the host joins
 * (pt_profile_graft). */
#ifndef PT_TRACETEE_H
#define PT_TRACETEE_H

#include <stdint.h>
#include <yajl/yajl_parse.h>

#include "core/profile.h"
#include "formats/v8json.h"
#include "util/diag.h"

/* one reader of the parse: its callbacks (ctx: its state) and its parse state j, which
 * keeps yajl's handle, the chunk's offset (its error offsets come from them) and its
 * failure */
struct pt_trace_half {
	const yajl_callbacks *cb;
	void *ctx;
	void (*enter)(void *ctx); /* the mate's: the event array has opened */
	struct pt_v8json *j;
	/* the mate's, or NULL: whether it reads an event's own member under key s. A
	 * member under another key whose value is no container is not handed to it: to
	 * a reader that ignores a key, a member without one is the same. */
	int (*reads_key)(const unsigned char *s, size_t len);
};

/* The parse state: zero it, set host and mate, hand yajl pt_tracetee_callbacks with
 * the tee as ctx. A mate that fails stops the parse with its error in the diag both
 * share, and marks the host failed. */
struct pt_tracetee {
	struct pt_trace_half host, mate;
	uint64_t depth;	 /* containers open */
	uint64_t events; /* inside the event array: containers open from it; else 0 */
	int key_events;	 /* the top object's last key was "traceEvents" */
	int done;	 /* the event array has been read */
	int in_event;	 /* events == 2 is inside an event object */
	int drop;	 /* the mate is not handed the member being read */
};

extern const yajl_callbacks pt_tracetee_callbacks;

/* Whether the input starting with head[0..len) may be a trace (an array, or an object
 * naming "traceEvents"): the host then parses through the tee. */
int pt_tracetee_may_be_trace(const unsigned char *head, size_t len);

/* ---- the spans' half (traceevents.c) as a mate ---- */
struct pt_spans;
/* its profile keeps a timeline when keep_timeline; errors go to d */
struct pt_spans *pt_spans_new(struct pt_diag *d, int keep_timeline);
void pt_spans_half(struct pt_spans *s, struct pt_trace_half *h);
/* 1 when it read B, E or X events; their earliest time (nanoseconds) in *origin */
int pt_spans_any(const struct pt_spans *s, int64_t *origin);
/* its call tree into its own profile, type "duration" (nanoseconds), timed from
 * origin (nanoseconds): 0, or -1 with the error in d */
int pt_spans_build(struct pt_spans *s, int64_t origin);
const struct pt_profile *pt_spans_profile(const struct pt_spans *s);
void pt_spans_free(struct pt_spans *s);

/* ---- the CPU samples' half (cpuprofile.c) as a mate ---- */
struct pt_cpu_mate;
struct pt_cpu_mate *pt_cpu_mate_new(struct pt_diag *d, int keep_timeline, int lenient);
void pt_cpu_mate_half(struct pt_cpu_mate *c, struct pt_trace_half *h);
/* 1 when it read Profile, ProfileChunk or CpuProfile events; their earliest start
 * (microseconds) in *origin */
int pt_cpu_mate_any(const struct pt_cpu_mate *c, int64_t *origin);
/* its samples into its own profile as the cpuprofile reader makes them, timed from
 * origin (microseconds; INT64_MAX: their own start): 0, or -1 with the error in d */
int pt_cpu_mate_build(struct pt_cpu_mate *c, int64_t origin);
const struct pt_profile *pt_cpu_mate_profile(const struct pt_cpu_mate *c);
void pt_cpu_mate_free(struct pt_cpu_mate *c);

#endif
