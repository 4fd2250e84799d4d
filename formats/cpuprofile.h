/* cpuprofile.h: inside the V8 CPU profile reader (not for other files): what it collects
 * per profile ("unit") and its parse state, shared by the .cpuprofile parse
 * (cpuprofile.c), the Chrome trace events' (chrometrace.c) and the tree building
 * (cpuprofile-tree.c); and the writer (cpuprofile-write.c) of the format's row. */
#ifndef PT_CPUPROFILE_H
#define PT_CPUPROFILE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "core/profile.h"
#include "formats/format.h"
#include "formats/v8json.h"
#include "util/map.h"
#include "util/round.h"

#define NO_VALUE INT64_MIN

struct rnode {
	int64_t id, parent_id;	    /* parent_id NO_VALUE when absent */
	int64_t line, col;	    /* as written; NO_VALUE when absent */
	int64_t hit_count;	    /* NO_VALUE when absent */
	uint32_t name, url, script; /* string ids; script = scriptId's text */
	uint32_t parent;	    /* resolved: node index, UINT32_MAX = none */
	uint32_t ptnode;	    /* resolved: call tree node */
	uint32_t frame;		    /* resolved: frame without a line (0 = dropped root) */
	uint32_t ticks;		    /* resolved: first tick of this node not handed out */
	uint32_t nticks;	    /* resolved: its ticks from there */
	uint8_t has_callframe;	    /* 1 once its callFrame object opens */
	uint8_t orphan;		    /* --lenient: its parent is missing, it hangs from the root */
	uint8_t gc;		    /* V8's top-level "(garbage collector)" (add_samples) */
	uint64_t off;		    /* input offset of its object, for errors */
};

struct pair {
	uint32_t parent; /* node index */
	uint32_t pad;
	int64_t child; /* node id */
	uint64_t off;  /* input offset of the child id, for errors */
};

struct tick {
	uint32_t node; /* node index */
	uint32_t seq;  /* input order, for a stable sort */
	int64_t line, ticks;
};

struct unit {
	struct rnode *nodes;
	size_t nnodes, nodes_alloc;
	struct pair *children;
	size_t nchildren, children_alloc;
	struct tick *ticks;
	size_t nticks, ticks_alloc;
	int64_t *samples;
	size_t nsamples, samples_alloc;
	int64_t *deltas; /* timeDeltas, or legacy absolute timestamps */
	size_t ndeltas, deltas_alloc;
	int64_t *lines; /* trace: per-sample leaf line */
	size_t nlines, lines_alloc;
	int64_t start, end; /* microseconds; NO_VALUE when absent */
	int has_samples, has_deltas, has_timestamps, legacy, one_based;
	uint64_t samples_off, deltas_off; /* input offsets of the arrays, for errors */
	/* trace identity */
	int64_t pid, tid;
	uint32_t id; /* string id of the profile id */
	int has_profile_event;
};

struct thread_name {
	int64_t pid, tid;
	uint32_t name;
};

enum ctx {
	C_TOP,	   /* a top-level object: a profile, or {traceEvents: [...]} */
	C_PROFILE, /* cpuProfile object inside a trace event */
	C_NODES,   /* "nodes" array */
	C_NODE,	   /* node object (also legacy nested node) */
	C_CALLFRAME,
	C_CHILDREN, /* ids, or legacy node objects */
	C_TICKS,
	C_TICK,
	C_INTS, /* samples / timeDeltas / timestamps / lines: target in `arr` */
	C_EVENTS,
	C_EVENT,
	C_ARGS,
	C_DATA,
};

enum key {
	K_NONE,
	K_NODES,
	K_HEAD,
	K_SAMPLES,
	K_DELTAS,
	K_TIMESTAMPS,
	K_START,
	K_END,
	K_TYPEID,
	K_TRACE_EVENTS,
	K_ID,
	K_CALLFRAME,
	K_HITCOUNT,
	K_CHILDREN,
	K_TICKS,
	K_PARENT,
	K_FUNCNAME,
	K_URL,
	K_SCRIPT,
	K_LINE,
	K_COL,
	K_BAILOUT,
	K_TICKCOUNT,
	K_PID,
	K_TID,
	K_NAME,
	K_ARGS,
	K_DATA,
	K_CPUPROFILE,
	K_LINES,
};

enum arr { A_SAMPLES, A_DELTAS, A_TIMESTAMPS, A_LINES };

struct level {
	uint8_t ctx, arr;
	uint32_t idx; /* C_NODE: node index in the current unit */
};

struct reader {
	struct pt_v8json j;
	struct pt_profile *p;
	int lenient; /* --lenient: read past references to missing nodes */
	int mate;    /* the CPU half of a trace traceevents.c reads (tracetee.h) */

	struct level *stack;
	size_t depth, stack_alloc;
	enum key key;
	int is_trace;

	struct unit *units; /* units[0]: the plain profile */
	size_t nunits, units_alloc;
	struct unit *cur;  /* where profile data goes now */
	struct unit chunk; /* the trace event being read */
	struct pt_map unit_index;

	/* the trace event being read */
	int64_t ev_pid, ev_tid;
	uint32_t ev_name, ev_id, ev_argname;
	uint32_t s_profile, s_chunk, s_cpuprofile, s_thread_name, s_anon;
	uint64_t ncpuprofile;
	struct thread_name *threads;
	size_t nthreads, threads_alloc;

	uint32_t last_str[3]; /* intern_cached: functionName, url, scriptId */

	/* the tick object being read */
	int64_t tick_line, tick_count;

	/* the number array being read (samples, timeDeltas, ...), NULL outside one: its
	 * elements skip the state machine (cb_number). Points into r->cur, which stays
	 * put until the array ends. */
	int64_t **ints;
	size_t *nints, *ints_alloc;
	const char *ints_what;
	int ints_frac;
};

enum vkind { V_MAP, V_ARRAY, V_NUMBER, V_STRING, V_OTHER };

/* what a helper of the parse returns for a value it does not use (it then skips it) */
#define NOT_USED 2

/* a double as int64_t, saturated (casting an out-of-range double is undefined) */
static inline int64_t d2i(double x)
{
	if (!(x > -9.2e18))
		return x != x ? 0 : INT64_MIN;
	if (!(x < 9.2e18))
		return INT64_MAX;
	return pt_llround(x);
}

static inline int64_t sat_mul1000(int64_t v)
{
	if (v > INT64_MAX / 1000)
		return INT64_MAX;
	if (v < INT64_MIN / 1000)
		return INT64_MIN;
	return v * 1000;
}

/* legacy start/endTime: stored as seconds x 1000, returned as microseconds */
static inline int64_t legacy_us(int64_t v)
{
	return d2i((double)v * 1000.0);
}

/* ---- the .cpuprofile parse (cpuprofile.c) ---- */

/* a unit's life: init, reset (empty again, its arrays kept), release */
void pt_cpuprofile_unit_init(struct unit *u);
void pt_cpuprofile_unit_reset(struct unit *u);
void pt_cpuprofile_unit_release(struct unit *u);
/* enter a container of context c (a number array a, node index idx): 1, or 0 with the
 * error (too deep) */
int pt_cpuprofile_push(struct reader *r, enum ctx c, enum arr a, uint32_t idx);
/* enter a number array of the current unit */
int pt_cpuprofile_push_ints(struct reader *r, enum arr a);
/* a second timeDeltas array replaces the first */
void pt_cpuprofile_repeat_deltas(struct unit *u);
const char *pt_cpuprofile_key_name(enum key k);
/* the error "'KEY' is not WANT", 0 */
int pt_cpuprofile_wrong_type(struct reader *r, enum key k, const char *want);

/* ---- Chrome trace files' profile events (chrometrace.c) ---- */

/* A value in the trace's event array, in an event, its args or args.data (l is one of
 * C_EVENTS, C_EVENT, C_ARGS, C_DATA): 1, 0 (an error, stop) or NOT_USED. */
int pt_chrometrace_value(struct reader *r, const struct level *l, enum key k, enum vkind vk,
			 const char *s, size_t len);
/* an event has ended: its data (r->chunk) joins its profile's unit */
void pt_chrometrace_event_end(struct reader *r);
/* pt_v8json_opts' cut_ok: a trace's event array may lack its closing ']' */
int pt_chrometrace_cut_ok(void *ctx);
/* --lenient: 1 when every chunk of unit u was lost (its samples are counted as dangling
 * and it is left out), else 0 */
int pt_chrometrace_lost(struct reader *r, const struct unit *u);
/* the labels of unit u's samples: its pid, tid and thread name */
uint32_t pt_chrometrace_labels(struct reader *r, const struct unit *u);
/* the error of building unit u says which profile of the trace it is */
void pt_chrometrace_which(struct reader *r, const struct unit *u);

/* ---- the call tree from the units (cpuprofile-tree.c) ---- */

/* unit u into r->p's tree, its samples labelled `labels`, timed from origin (in
 * microseconds; *last: the latest sample's time); 0 or -1 with the error in r->j.d */
int pt_cpuprofile_build_unit(struct reader *r, struct unit *u, int with_time, int64_t origin,
			     uint32_t labels, int64_t *last);
/* when unit u starts, in microseconds */
int64_t pt_cpuprofile_unit_start_us(const struct unit *u);

/* ---- the writer (cpuprofile-write.c) ---- */

int pt_cpuprofile_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *fp,
			struct pt_diag *d);

#endif
