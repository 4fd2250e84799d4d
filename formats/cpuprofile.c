/* cpuprofile.c: V8 CPU profiles: node/Chrome .cpuprofile (CDP Profiler.Profile), the
 * legacy DevTools format (nested "head", "timestamps"), and Chrome trace event files
 * (Profile/ProfileChunk events); plus the .cpuprofile writer. See formats/cpuprofile.md. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "util/buf.h"
#include "util/json.h"
#include "formats/format.h"
#include "formats/v8json.h"
#include "util/map.h"
#include "util/sort.h"
#include "core/units.h"
#include "util/xalloc.h"

#define NO_VALUE INT64_MIN
/* samples the writer makes up from counts: up to SYNTH_ANY in all, or up to SYNTH_PER_NODE
 * per node of the call tree, and never more than MAX_SYNTH. The output then grows with
 * the tree, not with a count: an 11-byte "a;b 999999" no longer makes 7 MB (the fuzzer's
 * per-byte CPU check found it). 250,000 samples are about 1.7 MB of output. */
#define SYNTH_ANY      250000
#define SYNTH_PER_NODE 32
#define MAX_SYNTH      1000000

/* ---- what the reader collects, per profile ("unit") ---- */

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

	struct level *stack;
	size_t depth, stack_alloc;
	uint64_t skip; /* depth inside a value we ignore */
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

static void unit_init(struct unit *u)
{
	memset(u, 0, sizeof(*u));
	u->start = u->end = NO_VALUE;
	u->pid = u->tid = NO_VALUE;
}

static void unit_release(struct unit *u)
{
	free(u->nodes);
	free(u->children);
	free(u->ticks);
	free(u->samples);
	free(u->deltas);
	free(u->lines);
}

static void unit_reset(struct unit *u)
{
	struct unit keep = *u;
	unit_init(u);
	u->nodes = keep.nodes;
	u->nodes_alloc = keep.nodes_alloc;
	u->children = keep.children;
	u->children_alloc = keep.children_alloc;
	u->ticks = keep.ticks;
	u->ticks_alloc = keep.ticks_alloc;
	u->samples = keep.samples;
	u->samples_alloc = keep.samples_alloc;
	u->deltas = keep.deltas;
	u->deltas_alloc = keep.deltas_alloc;
	u->lines = keep.lines;
	u->lines_alloc = keep.lines_alloc;
}

/* ---- numbers ---- */

/* A plain integer of at most 18 digits (it cannot overflow), as most numbers in a
 * profile are: 1 with *v set, else 0 and pt_v8json_num decides. Inlined in the callbacks. */
static inline int quick_int(const char *s, size_t n, int64_t *v)
{
	size_t i = n && s[0] == '-';
	uint64_t acc = 0;

	if (i == n || n - i > 18)
		return 0;
	for (; i < n; i++) {
		unsigned dig = (unsigned)(unsigned char)s[i] - '0';
		if (dig > 9)
			return 0;
		acc = acc * 10 + dig;
	}
	*v = s[0] == '-' ? -(int64_t)acc : (int64_t)acc;
	return 1;
}

static double parse_double(const char *s, size_t n)
{
	char buf[64];
	if (n >= sizeof(buf))
		return NAN;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

/* a double as int64_t, saturated (casting an out-of-range double is undefined) */
static int64_t d2i(double x)
{
	if (!(x > -9.2e18))
		return x != x ? 0 : INT64_MIN;
	if (!(x < 9.2e18))
		return INT64_MAX;
	return (int64_t)llround(x);
}

static int64_t sat_mul1000(int64_t v)
{
	if (v > INT64_MAX / 1000)
		return INT64_MAX;
	if (v < INT64_MIN / 1000)
		return INT64_MIN;
	return v * 1000;
}

/* legacy start/endTime: stored as seconds x 1000, returned as microseconds */
static int64_t legacy_us(int64_t v)
{
	return d2i((double)v * 1000.0);
}

/* ---- keys ---- */

/* Which key s is, if it matters in context c. A switch on the length with
 * fixed-size compares (inlined, no memcmp calls): a profile has ~10 keys per node. */
static enum key lookup_key(enum ctx c, const unsigned char *s, size_t n)
{
	enum key k = K_NONE;
	uint32_t ctxs = 0; /* bit per enum ctx where the key means something */

#define B(c)	(1u << (c))
#define IS(lit) (!memcmp(s, lit, sizeof(lit) - 1))
#define KEY(lit, key, where)                                                                       \
	if (IS(lit)) {                                                                             \
		k = key;                                                                           \
		ctxs = where;                                                                      \
		break;                                                                             \
	}
	switch (n) {
	case 2:
		KEY("id", K_ID, B(C_NODE) | B(C_EVENT));
		break;
	case 3:
		KEY("url", K_URL, B(C_NODE) | B(C_CALLFRAME));
		KEY("pid", K_PID, B(C_EVENT));
		KEY("tid", K_TID, B(C_EVENT));
		break;
	case 4:
		KEY("head", K_HEAD, B(C_TOP) | B(C_PROFILE));
		KEY("line", K_LINE, B(C_TICK));
		KEY("name", K_NAME, B(C_EVENT) | B(C_ARGS));
		KEY("args", K_ARGS, B(C_EVENT));
		KEY("data", K_DATA, B(C_ARGS));
		break;
	case 5:
		KEY("nodes", K_NODES, B(C_TOP) | B(C_PROFILE));
		KEY("ticks", K_TICKCOUNT, B(C_TICK));
		KEY("lines", K_LINES, B(C_DATA));
		break;
	case 6:
		KEY("typeId", K_TYPEID, B(C_TOP) | B(C_PROFILE));
		KEY("parent", K_PARENT, B(C_NODE));
		break;
	case 7:
		KEY("samples", K_SAMPLES, B(C_TOP) | B(C_PROFILE));
		KEY("endTime", K_END, B(C_TOP) | B(C_PROFILE) | B(C_DATA));
		break;
	case 8:
		KEY("hitCount", K_HITCOUNT, B(C_NODE) | B(C_TICK));
		KEY("children", K_CHILDREN, B(C_NODE));
		KEY("scriptId", K_SCRIPT, B(C_NODE) | B(C_CALLFRAME));
		break;
	case 9:
		KEY("callFrame", K_CALLFRAME, B(C_NODE));
		KEY("startTime", K_START, B(C_TOP) | B(C_PROFILE) | B(C_DATA));
		KEY("lineTicks", K_TICKS, B(C_NODE) | B(C_CALLFRAME));
		break;
	case 10:
		KEY("lineNumber", K_LINE, B(C_NODE) | B(C_CALLFRAME));
		KEY("timeDeltas", K_DELTAS, B(C_TOP) | B(C_PROFILE) | B(C_DATA));
		KEY("timestamps", K_TIMESTAMPS, B(C_TOP) | B(C_PROFILE));
		KEY("cpuProfile", K_CPUPROFILE, B(C_DATA));
		break;
	case 11:
		KEY("traceEvents", K_TRACE_EVENTS, B(C_TOP));
		break;
	case 12:
		KEY("functionName", K_FUNCNAME, B(C_NODE) | B(C_CALLFRAME));
		KEY("columnNumber", K_COL, B(C_NODE) | B(C_CALLFRAME));
		break;
	case 13:
		KEY("positionTicks", K_TICKS, B(C_NODE));
		KEY("bailoutReason", K_BAILOUT, B(C_CALLFRAME));
		break;
	default:
		break;
	}
	if (!(ctxs & B(c)))
		return K_NONE;
	/* in a tick object "hitCount" is v8-profiler-next's name for ticks */
	if (k == K_HITCOUNT && c == C_TICK)
		return K_TICKCOUNT;
	return k;
#undef KEY
#undef IS
#undef B
}

/* ---- the state stack ---- */

static int push(struct reader *r, enum ctx c, enum arr a, uint32_t idx)
{
	if (!pt_v8json_depth_ok(&r->j, r->depth + r->skip))
		return 0;
	PT_ALLOC_GROW(r->stack, r->depth + 1, r->stack_alloc);
	r->stack[r->depth].ctx = (uint8_t)c;
	r->stack[r->depth].arr = (uint8_t)a;
	r->stack[r->depth].idx = idx;
	r->depth++;
	return 1;
}

static struct level *top(struct reader *r)
{
	return r->depth ? &r->stack[r->depth - 1] : NULL;
}

static struct rnode *new_node(struct reader *r)
{
	struct unit *u = r->cur;
	struct rnode *n;

	PT_ALLOC_GROW(u->nodes, u->nnodes + 1, u->nodes_alloc);
	n = &u->nodes[u->nnodes++];
	memset(n, 0, sizeof(*n));
	n->id = n->parent_id = n->line = n->col = n->hit_count = NO_VALUE;
	n->off = pt_v8json_here(&r->j) - 1; /* its '{' */
	return n;
}

/* A timeDeltas array. Chrome traces repeat a chunk's deltas inside its cpuProfile and
 * beside it; a second array in one object or event gives the same deltas again, so it
 * replaces the first instead of adding to it (as DevTools reads it) */
static void repeat_deltas(struct unit *u)
{
	if (u->has_deltas)
		u->ndeltas = 0;
	u->has_deltas = 1;
}

static const char *key_name(enum key k)
{
	switch (k) {
	case K_NODES:
		return "nodes";
	case K_SAMPLES:
		return "samples";
	case K_DELTAS:
		return "timeDeltas";
	case K_TIMESTAMPS:
		return "timestamps";
	case K_CHILDREN:
		return "children";
	case K_TICKS:
		return "positionTicks";
	case K_CALLFRAME:
		return "callFrame";
	case K_HEAD:
		return "head";
	case K_ID:
		return "id";
	case K_PARENT:
		return "parent";
	case K_HITCOUNT:
		return "hitCount";
	case K_LINE:
		return "lineNumber";
	case K_COL:
		return "columnNumber";
	case K_START:
		return "startTime";
	case K_END:
		return "endTime";
	case K_LINES:
		return "lines";
	case K_TRACE_EVENTS:
		return "traceEvents";
	case K_TICKCOUNT:
		return "ticks";
	default:
		return "value";
	}
}

enum vkind { V_MAP, V_ARRAY, V_NUMBER, V_STRING, V_OTHER };

static int wrong_type(struct reader *r, enum key k, const char *want)
{
	return pt_v8json_fail(&r->j, "'%s' is not %s", key_name(k), want);
}

/* Intern a callFrame string; neighbouring nodes mostly share url and scriptId, so
 * one remembered string per key skips most hash lookups. */
static uint32_t intern_cached(struct reader *r, int slot, const char *s, size_t len)
{
	struct pt_profile *p = r->p;
	uint32_t id = r->last_str[slot];
	if (id && pt_intern_len(&p->strings, id) == len && !memcmp(pt_s(p, id), s, len))
		return id;
	id = pt_strn(p, s, len);
	r->last_str[slot] = id;
	return id;
}

static const char *const arr_name[] = {"samples", "timeDeltas", "timestamps", "lines"};

/* enter a number array of the current unit */
static int push_ints(struct reader *r, enum arr a)
{
	struct unit *u = r->cur;
	if (!push(r, C_INTS, a, 0))
		return 0;
	if (a == A_SAMPLES) {
		r->ints = &u->samples;
		r->nints = &u->nsamples;
		r->ints_alloc = &u->samples_alloc;
	} else if (a == A_LINES) {
		r->ints = &u->lines;
		r->nints = &u->nlines;
		r->ints_alloc = &u->lines_alloc;
	} else {
		r->ints = &u->deltas;
		r->nints = &u->ndeltas;
		r->ints_alloc = &u->deltas_alloc;
	}
	r->ints_what = arr_name[a];
	r->ints_frac = a == A_DELTAS || a == A_TIMESTAMPS;
	/* samples and timeDeltas are as long as each other: the second one read gets the
	 * first one's length at once, instead of growing to it through copies */
	if (a == A_SAMPLES)
		PT_ALLOC_GROW(u->samples, u->nsamples + u->ndeltas, u->samples_alloc);
	else if (a != A_LINES)
		PT_ALLOC_GROW(u->deltas, u->ndeltas + u->nsamples, u->deltas_alloc);
	return 1;
}

/* a value (scalar, or the start of a container) arrives in the current context */
/* what a helper of on_value returns for a value it does not use */
#define NOT_USED 2

/* a value in the profile object (or a trace's cpuProfile, or the top object) */
static int profile_value(struct reader *r, const struct level *l, enum key k, enum vkind vk,
			 const char *s, size_t len)
{
	struct unit *u = r->cur;
	int64_t x;

	switch (k) {
	case K_NODES:
		if (vk != V_ARRAY)
			return wrong_type(r, k, "an array");
		return push(r, C_NODES, 0, 0);
	case K_HEAD:
		if (vk != V_MAP)
			return wrong_type(r, k, "an object");
		u->legacy = u->one_based = 1;
		new_node(r);
		return push(r, C_NODE, 0, (uint32_t)(u->nnodes - 1));
	case K_SAMPLES:
	case K_DELTAS:
	case K_TIMESTAMPS:
		if (vk != V_ARRAY)
			return wrong_type(r, k, "an array");
		if (k == K_SAMPLES) {
			u->has_samples = 1;
			if (!u->samples_off)
				u->samples_off = pt_v8json_here(&r->j) - 1;
		} else {
			if (k == K_DELTAS)
				repeat_deltas(u);
			else
				u->has_timestamps = 1;
			if (!u->deltas_off)
				u->deltas_off = pt_v8json_here(&r->j) - 1;
		}
		return push_ints(r, k == K_SAMPLES  ? A_SAMPLES
				    : k == K_DELTAS ? A_DELTAS
						    : A_TIMESTAMPS);
	case K_START:
	case K_END:
		if (vk != V_NUMBER)
			return wrong_type(r, k, "a number");
		/* legacy profiles give seconds (maybe fractional), others microseconds;
		 * the unit is decided at the end, when "head" has been seen */
		{
			double dv = parse_double(s, len);
			if (!(dv > -9.2e15 && dv < 9.2e15))
				return pt_v8json_fail(&r->j, "'%s' out of range", key_name(k));
			/* keep microseconds * 1, or seconds * 1e6 later: store raw x1000 */
			x = (int64_t)llround(dv * 1000.0);
		}
		if (k == K_START)
			u->start = x;
		else
			u->end = x;
		return 1;
	case K_TYPEID:
		u->one_based = 1;
		break;
	case K_TRACE_EVENTS:
		if (l->ctx != C_TOP)
			break;
		if (vk != V_ARRAY)
			return wrong_type(r, k, "an array");
		r->is_trace = 1;
		return push(r, C_EVENTS, 0, 0);
	default:
		break;
	}
	return NOT_USED;
}

/* a value in a node or its callFrame */
static int node_value(struct reader *r, const struct level *l, enum key k, enum vkind vk,
		      const char *s, size_t len)
{
	struct unit *u = r->cur;
	int64_t x;

	uint32_t ni = l->ctx == C_NODE ? l->idx : r->stack[r->depth - 2].idx;
	struct rnode *n = &u->nodes[ni];
	switch (k) {
	case K_ID:
	case K_PARENT:
	case K_HITCOUNT:
		if (l->ctx != C_NODE)
			break;
		if (vk != V_NUMBER || pt_v8json_num(s, len, &x, 0) < 0)
			return wrong_type(r, k, "an integer");
		if (k == K_ID)
			n->id = x;
		else if (k == K_PARENT)
			n->parent_id = x;
		else
			n->hit_count = x;
		return 1;
	case K_CALLFRAME:
		if (l->ctx != C_NODE)
			break;
		if (vk != V_MAP)
			return wrong_type(r, k, "an object");
		n->has_callframe = 1;
		return push(r, C_CALLFRAME, 0, 0);
	case K_CHILDREN:
		if (l->ctx != C_NODE)
			break;
		if (vk != V_ARRAY)
			return wrong_type(r, k, "an array");
		return push(r, C_CHILDREN, 0, ni);
	case K_TICKS:
		if (vk != V_ARRAY)
			return wrong_type(r, k, "an array");
		return push(r, C_TICKS, 0, ni);
	case K_FUNCNAME:
	case K_URL:
	case K_SCRIPT:
		if (vk == V_STRING || (k == K_SCRIPT && vk == V_NUMBER)) {
			uint32_t sid = intern_cached(r, k - K_FUNCNAME, s, len);
			if (k == K_FUNCNAME)
				n->name = sid;
			else if (k == K_URL)
				n->url = sid;
			else
				n->script = sid;
			return 1;
		}
		if (vk == V_OTHER)
			return 1; /* null */
		return pt_v8json_fail(&r->j, "'%s' is not a string",
				      k == K_FUNCNAME ? "functionName"
				      : k == K_URL    ? "url"
						      : "scriptId");
	case K_LINE:
	case K_COL:
		if (vk != V_NUMBER || pt_v8json_num(s, len, &x, 0) < 0)
			return wrong_type(r, k, "an integer");
		if (k == K_LINE)
			n->line = x;
		else
			n->col = x;
		return 1;
	case K_BAILOUT:
		u->one_based = 1;
		break;
	default:
		break;
	}
	return NOT_USED;
}

/* a value in a trace event */
static int event_value(struct reader *r, enum key k, enum vkind vk, const char *s, size_t len)
{
	int64_t x;

	switch (k) {
	case K_PID:
	case K_TID:
		if (vk == V_NUMBER && pt_v8json_num(s, len, &x, 0) == 0) {
			if (k == K_PID)
				r->ev_pid = x;
			else
				r->ev_tid = x;
		}
		if (vk == V_STRING) {
			/* some writers quote ids; take a decimal string as a number */
			if (pt_v8json_num(s, len, &x, 0) == 0) {
				if (k == K_PID)
					r->ev_pid = x;
				else
					r->ev_tid = x;
			}
		}
		if (vk == V_MAP || vk == V_ARRAY)
			break;
		return 1;
	case K_ID:
		if (vk == V_STRING || vk == V_NUMBER) {
			r->ev_id = pt_strn(r->p, s, len);
			return 1;
		}
		break;
	case K_NAME:
		if (vk == V_STRING) {
			r->ev_name = pt_strn(r->p, s, len);
			return 1;
		}
		break;
	case K_ARGS:
		if (vk == V_MAP)
			return push(r, C_ARGS, 0, 0);
		break;
	default:
		break;
	}
	return NOT_USED;
}

/* a value in a trace event's args.data */
static int data_value(struct reader *r, enum key k, enum vkind vk, const char *s, size_t len)
{
	struct unit *u = r->cur;
	int64_t x;

	switch (k) {
	case K_CPUPROFILE:
		if (vk != V_MAP)
			return wrong_type(r, k, "an object");
		return push(r, C_PROFILE, 0, 0);
	case K_DELTAS:
	case K_LINES:
		if (vk != V_ARRAY)
			return wrong_type(r, k, "an array");
		if (k == K_DELTAS) {
			repeat_deltas(u);
			if (!u->deltas_off)
				u->deltas_off = pt_v8json_here(&r->j) - 1;
		}
		return push_ints(r, k == K_DELTAS ? A_DELTAS : A_LINES);
	case K_START:
	case K_END:
		if (vk != V_NUMBER || pt_v8json_num(s, len, &x, 0) < 0)
			return wrong_type(r, k, "a number");
		if (x > INT64_MAX / 1000 || x < INT64_MIN / 1000)
			return pt_v8json_fail(&r->j, "'%s' out of range", key_name(k));
		if (k == K_START)
			u->start = x * 1000;
		else
			u->end = x * 1000;
		return 1;
	default:
		break;
	}
	return NOT_USED;
}

static int on_value(struct reader *r, enum vkind vk, const char *s, size_t len)
{
	struct level *l = top(r);
	enum key k = r->key;
	struct unit *u = r->cur;
	int64_t x;
	int rc;

	r->key = K_NONE;
	if (r->skip) {
		if (vk == V_MAP || vk == V_ARRAY)
			r->skip++;
		if (!pt_v8json_depth_ok(&r->j, r->depth + r->skip))
			return 0;
		return 1;
	}
	if (!l) {
		/* the top-level value */
		r->j.top_seen = 1;
		if (vk == V_MAP)
			return push(r, C_TOP, 0, 0);
		if (vk == V_ARRAY) {
			r->is_trace = 1;
			return push(r, C_EVENTS, 0, 0);
		}
		return pt_v8json_fail(&r->j,
				      "not a V8 CPU profile or trace: the JSON is not an object or "
				      "array");
	}
	switch ((enum ctx)l->ctx) {
	case C_TOP:
	case C_PROFILE:
		if ((rc = profile_value(r, l, k, vk, s, len)) != NOT_USED)
			return rc;
		break;
	case C_NODES:
		if (vk != V_MAP)
			return pt_v8json_fail(&r->j, "'nodes' holds something other than objects");
		new_node(r);
		return push(r, C_NODE, 0, (uint32_t)(u->nnodes - 1));
	case C_NODE:
	case C_CALLFRAME:
		if ((rc = node_value(r, l, k, vk, s, len)) != NOT_USED)
			return rc;
		break;
	case C_CHILDREN:
		if (vk == V_NUMBER) {
			if (pt_v8json_num(s, len, &x, 0) < 0)
				return pt_v8json_fail(&r->j, "'children' holds a non-integer");
			PT_ALLOC_GROW(u->children, u->nchildren + 1, u->children_alloc);
			u->children[u->nchildren].parent = l->idx;
			u->children[u->nchildren].pad = 0;
			u->children[u->nchildren].child = x;
			u->children[u->nchildren].off = pt_v8json_here(&r->j) - len;
			u->nchildren++;
			return 1;
		}
		if (vk == V_MAP && u->legacy) {
			/* legacy: the child node itself; its parent is the enclosing node */
			struct rnode *n = new_node(r);
			n->parent_id = NO_VALUE;
			return push(r, C_NODE, 0, (uint32_t)(u->nnodes - 1));
		}
		return pt_v8json_fail(&r->j, "'children' holds something other than node ids");
	case C_TICKS:
		if (vk != V_MAP)
			return pt_v8json_fail(&r->j,
					      "'positionTicks' holds something other than objects");
		r->tick_line = r->tick_count = NO_VALUE;
		return push(r, C_TICK, 0, l->idx);
	case C_TICK:
		if (k == K_LINE || k == K_TICKCOUNT) {
			if (vk != V_NUMBER || pt_v8json_num(s, len, &x, 0) < 0)
				return pt_v8json_fail(&r->j, "'%s' is not an integer",
						      k == K_LINE ? "line" : "ticks");
			if (k == K_LINE)
				r->tick_line = x;
			else
				r->tick_count = x;
			return 1;
		}
		break;
	case C_INTS:
		/* numbers went to cb_number's fast path */
		return pt_v8json_fail(&r->j, "'%s' holds a non-number", r->ints_what);
	case C_EVENTS:
		if (vk != V_MAP)
			break; /* tolerate junk between events */
		r->ev_pid = r->ev_tid = NO_VALUE;
		r->ev_name = r->ev_id = r->ev_argname = 0;
		unit_reset(&r->chunk);
		r->cur = &r->chunk;
		return push(r, C_EVENT, 0, 0);
	case C_EVENT:
		if ((rc = event_value(r, k, vk, s, len)) != NOT_USED)
			return rc;
		break;
	case C_ARGS:
		if (k == K_DATA && vk == V_MAP)
			return push(r, C_DATA, 0, 0);
		if (k == K_NAME && vk == V_STRING) {
			r->ev_argname = pt_strn(r->p, s, len);
			return 1;
		}
		break;
	case C_DATA:
		if ((rc = data_value(r, k, vk, s, len)) != NOT_USED)
			return rc;
		break;
	}
	/* a value we do not use */
	if (vk == V_MAP || vk == V_ARRAY)
		r->skip = 1;
	return 1;
}

static uint32_t unit_for(struct reader *r, int64_t pid, uint32_t id)
{
	uint64_t key = (uint64_t)pid * 1000003u ^ ((uint64_t)id << 20) ^ id;
	uint32_t *slot, i;

	/* the map is a first guess; confirm pid and id (collisions fall back to a scan) */
	slot = pt_map_put(&r->unit_index, key);
	if (*slot != PT_MAP_NEW && r->units[*slot].pid == pid && r->units[*slot].id == id)
		return *slot;
	for (i = 1; i < r->nunits; i++)
		if (r->units[i].pid == pid && r->units[i].id == id)
			return i;
	PT_ALLOC_GROW(r->units, r->nunits + 1, r->units_alloc);
	i = (uint32_t)r->nunits++;
	unit_init(&r->units[i]);
	r->units[i].pid = pid;
	r->units[i].id = id;
	slot = pt_map_put(&r->unit_index, key);
	if (*slot == PT_MAP_NEW)
		*slot = i;
	return i;
}

/* append the event just read (r->chunk) to its profile */
static void commit_event1(struct reader *r)
{
	struct unit *c = &r->chunk, *u;
	uint32_t ui, base;
	size_t i;

	if (!r->ev_name)
		return;
	if (r->ev_name == r->s_thread_name) {
		if (r->ev_argname) {
			PT_ALLOC_GROW(r->threads, r->nthreads + 1, r->threads_alloc);
			r->threads[r->nthreads].pid = r->ev_pid;
			r->threads[r->nthreads].tid = r->ev_tid;
			r->threads[r->nthreads].name = r->ev_argname;
			r->nthreads++;
		}
		return;
	}
	if (r->ev_name == r->s_cpuprofile) {
		/* old Chrome: one event holds the whole profile; give it its own identity */
		char idbuf[48];
		snprintf(idbuf, sizeof(idbuf), "CpuProfile#%" PRIu64, ++r->ncpuprofile);
		ui = unit_for(r, r->ev_pid, pt_str(r->p, idbuf));
	} else if (r->ev_name == r->s_profile || r->ev_name == r->s_chunk) {
		ui = unit_for(r, r->ev_pid, r->ev_id);
	} else {
		return;
	}
	u = &r->units[ui];
	if (r->ev_name == r->s_profile) {
		u->has_profile_event = 1;
		u->tid = r->ev_tid;
	} else if (!u->has_profile_event && u->tid == NO_VALUE) {
		u->tid = r->ev_tid; /* no Profile event (yet): the chunk's thread */
	}
	if (c->start != NO_VALUE)
		u->start = c->start;
	if (c->end != NO_VALUE)
		u->end = c->end;
	base = (uint32_t)u->nnodes;
	for (i = 0; i < c->nnodes; i++) {
		PT_ALLOC_GROW(u->nodes, u->nnodes + 1, u->nodes_alloc);
		u->nodes[u->nnodes++] = c->nodes[i];
	}
	for (i = 0; i < c->nchildren; i++) {
		PT_ALLOC_GROW(u->children, u->nchildren + 1, u->children_alloc);
		u->children[u->nchildren] = c->children[i];
		u->children[u->nchildren++].parent += base;
	}
	for (i = 0; i < c->nticks; i++) {
		PT_ALLOC_GROW(u->ticks, u->nticks + 1, u->ticks_alloc);
		u->ticks[u->nticks] = c->ticks[i];
		u->ticks[u->nticks++].node += base;
	}
	/* per-chunk lines are optional (V8 omits them when all are 0): pad to samples */
	if (c->nsamples || c->nlines) {
		PT_ALLOC_GROW(u->lines, u->nsamples + c->nsamples, u->lines_alloc);
		for (i = 0; i < c->nsamples; i++)
			u->lines[u->nsamples + i] = i < c->nlines ? c->lines[i] : 0;
		PT_ALLOC_GROW(u->samples, u->nsamples + c->nsamples, u->samples_alloc);
		if (c->nsamples)
			memcpy(u->samples + u->nsamples, c->samples, c->nsamples * sizeof(int64_t));
		u->nsamples += c->nsamples;
		u->nlines = u->nsamples;
	}
	/* deltas: keep them aligned with samples even if a chunk is inconsistent; the
	 * counts are compared at the end */
	PT_ALLOC_GROW(u->deltas, u->ndeltas + c->ndeltas, u->deltas_alloc);
	if (c->ndeltas)
		memcpy(u->deltas + u->ndeltas, c->deltas, c->ndeltas * sizeof(int64_t));
	u->ndeltas += c->ndeltas;
	u->has_samples |= c->has_samples || c->nsamples;
	u->has_deltas |= c->has_deltas;
	if (!u->samples_off) /* errors point at the first chunk's arrays */
		u->samples_off = c->samples_off;
	if (!u->deltas_off)
		u->deltas_off = c->deltas_off;
	u->legacy |= c->legacy;
	u->one_based |= c->one_based;
}

static void commit_event(struct reader *r)
{
	commit_event1(r);
	r->cur = &r->units[0]; /* units may have moved */
}

static int end_container(struct reader *r)
{
	struct level *l;
	struct unit *u = r->cur;

	if (r->skip) {
		r->skip--;
		return 1;
	}
	l = top(r);
	if (!l)
		return 1;
	switch ((enum ctx)l->ctx) {
	case C_NODE: {
		struct rnode *n = &u->nodes[l->idx];
		if (n->id == NO_VALUE)
			return pt_v8json_fail(&r->j, "node without an 'id'");
		/* the legacy format gives the frame's fields on the node itself */
		if (!n->has_callframe && !u->legacy)
			return pt_v8json_fail(&r->j, "node without a 'callFrame'");
		/* legacy nested node: link it to the enclosing node */
		if (r->depth >= 3 && r->stack[r->depth - 2].ctx == C_CHILDREN &&
		    r->stack[r->depth - 3].ctx == C_NODE) {
			PT_ALLOC_GROW(u->children, u->nchildren + 1, u->children_alloc);
			u->children[u->nchildren].parent = r->stack[r->depth - 3].idx;
			u->children[u->nchildren].pad = 0;
			u->children[u->nchildren].child = n->id;
			u->nchildren++;
		}
		break;
	}
	case C_TICK:
		if (r->tick_line != NO_VALUE && r->tick_count != NO_VALUE) {
			PT_ALLOC_GROW(u->ticks, u->nticks + 1, u->ticks_alloc);
			u->ticks[u->nticks].node = l->idx;
			u->ticks[u->nticks].seq = (uint32_t)u->nticks;
			u->ticks[u->nticks].line = r->tick_line;
			u->ticks[u->nticks].ticks = r->tick_count;
			u->nticks++;
		}
		break;
	case C_EVENT:
		commit_event(r);
		break;
	case C_INTS:
		r->ints = NULL;
		break;
	default:
		break;
	}
	r->depth--;
	return 1;
}

/* ---- yajl callbacks ----
 * Each callback first tries the few (context, key) pairs that make up nearly all of a
 * profile, with branches of its own (one switch over every context mispredicts often);
 * anything else, errors included, goes to on_value, which handles every case. */

/* the top level, or NULL inside an ignored value or outside any */
static struct level *hot_level(struct reader *r)
{
	return r->skip || !r->depth ? NULL : &r->stack[r->depth - 1];
}

static int cb_null(void *ctx)
{
	return on_value(ctx, V_OTHER, NULL, 0);
}
static int cb_boolean(void *ctx, int b)
{
	(void)b;
	return on_value(ctx, V_OTHER, NULL, 0);
}
static int cb_number(void *ctx, const char *s, size_t len)
{
	struct reader *r = ctx;
	int64_t x;

	if (!r->ints) {
		struct level *l = hot_level(r);
		enum key k = r->key;
		if (!l || (!quick_int(s, len, &x) && pt_v8json_num(s, len, &x, 0) < 0))
			return on_value(ctx, V_NUMBER, s, len);
		if (l->ctx == C_CALLFRAME && (k == K_LINE || k == K_COL)) {
			struct rnode *n = &r->cur->nodes[l[-1].idx];
			if (k == K_LINE)
				n->line = x;
			else
				n->col = x;
		} else if (l->ctx == C_CHILDREN) {
			struct unit *u = r->cur;
			PT_ALLOC_GROW(u->children, u->nchildren + 1, u->children_alloc);
			u->children[u->nchildren].parent = l->idx;
			u->children[u->nchildren].pad = 0;
			u->children[u->nchildren].child = x;
			u->children[u->nchildren].off = pt_v8json_here(&r->j) - len;
			u->nchildren++;
		} else if (l->ctx == C_NODE && k == K_ID) {
			r->cur->nodes[l->idx].id = x;
		} else if (l->ctx == C_NODE && k == K_HITCOUNT) {
			r->cur->nodes[l->idx].hit_count = x;
		} else if (l->ctx == C_TICK && k == K_LINE) {
			r->tick_line = x;
		} else if (l->ctx == C_TICK && k == K_TICKCOUNT) {
			r->tick_count = x;
		} else {
			return on_value(ctx, V_NUMBER, s, len);
		}
		r->key = K_NONE;
		return 1;
	}
	/* an element of samples, timeDeltas...: the bulk of a profile's numbers */
	if (!quick_int(s, len, &x) && pt_v8json_num(s, len, &x, r->ints_frac) < 0)
		return pt_v8json_fail(&r->j, "number out of range in '%s'", r->ints_what);
	PT_ALLOC_GROW(*r->ints, *r->nints + 1, *r->ints_alloc);
	(*r->ints)[(*r->nints)++] = x;
	return 1;
}
static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	struct level *l = hot_level(r);
	enum key k = r->key;

	if (l && l->ctx == C_CALLFRAME && k >= K_FUNCNAME && k <= K_SCRIPT) {
		struct rnode *n = &r->cur->nodes[l[-1].idx];
		uint32_t id = intern_cached(r, k - K_FUNCNAME, (const char *)s, len);
		if (k == K_FUNCNAME)
			n->name = id;
		else if (k == K_URL)
			n->url = id;
		else
			n->script = id;
		r->key = K_NONE;
		return 1;
	}
	return on_value(ctx, V_STRING, (const char *)s, len);
}
static int cb_start_map(void *ctx)
{
	struct reader *r = ctx;
	struct level *l = hot_level(r);

	if (l && l->ctx == C_NODES) {
		r->key = K_NONE;
		new_node(r);
		return push(r, C_NODE, 0, (uint32_t)(r->cur->nnodes - 1));
	}
	if (l && l->ctx == C_NODE && r->key == K_CALLFRAME) {
		r->key = K_NONE;
		r->cur->nodes[l->idx].has_callframe = 1;
		return push(r, C_CALLFRAME, 0, 0);
	}
	return on_value(ctx, V_MAP, NULL, 0);
}
static int cb_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	struct level *l = top(r);
	r->key = r->skip || !l ? K_NONE : lookup_key((enum ctx)l->ctx, s, len);
	return 1;
}
static int cb_start_array(void *ctx)
{
	return on_value(ctx, V_ARRAY, NULL, 0);
}

static int cb_end(void *ctx)
{
	return end_container(ctx);
}

static const yajl_callbacks callbacks = {
	cb_null,      cb_boolean, NULL,	  NULL,		  cb_number, cb_string,
	cb_start_map, cb_map_key, cb_end, cb_start_array, cb_end,
};

/* ---- building the call tree ---- */

static int is_synthetic(const char *name)
{
	return !strcmp(name, "(root)") || !strcmp(name, "(program)") || !strcmp(name, "(idle)") ||
	       !strcmp(name, "(garbage collector)");
}

/* frame of node n (line 0: the function, without a current line) */
static uint32_t node_frame(struct reader *r, struct unit *u, struct rnode *n)
{
	struct pt_profile *p = r->p;
	struct pt_frame f;
	const char *name = pt_s(p, n->name), *url = pt_s(p, n->url);
	const char *script = pt_s(p, n->script);
	int64_t l = n->line, c = n->col;
	uint32_t file = n->url;

	/* human line/column: 1-based, 0 = unknown */
	if (u->one_based) {
		l = l > 0 ? l : 0;
		c = c > 0 ? c : 0;
	} else {
		l = l != NO_VALUE && l >= 0 ? l + 1 : 0;
		c = c != NO_VALUE && c >= 0 ? c + 1 : 0;
	}
	memset(&f, 0, sizeof(f));
	if (!*url && !is_synthetic(name) && l > 0 && *script && strcmp(script, "0")) {
		/* eval / new Function code: no url, only the script id tells two apart;
		 * DevTools calls such a script "VM<scriptId>", and so do we */
		char vm[80];
		snprintf(vm, sizeof(vm), "VM%s", script);
		file = pt_str(p, vm);
	}
	if (!*url && l == 0)
		f.flags = is_synthetic(name) ? PT_FRAME_SYNTHETIC : PT_FRAME_NATIVE;
	/* the column is part of the function, as in DevTools (a function is name,
	 * script, line and column): minified code has many functions on one line, often
	 * of one name */
	f.func = pt_profile_func_ident(p, *name ? n->name : r->s_anon, 0, file, l, (uint64_t)c);
	f.column = c;
	return pt_profile_frame(p, &f);
}

/* callFrame -> frame, for node_frame_cached: a profile repeats a few hundred callFrames
 * over many thousands of nodes. The fields are copied here, as comparing with the node
 * that first had them would reach back into the (big) node array. */
struct cfentry {
	int64_t line, col;
	uint32_t name, url, script, frame;
};

struct cfcache {
	struct pt_map map; /* key made of the fields -> index in v */
	struct cfentry *v;
	size_t n, alloc;
};

static uint32_t node_frame_cached(struct reader *r, struct unit *u, struct cfcache *c,
				  struct rnode *n)
{
	/* a key that tells callFrames apart well enough (the map mixes it again; the
	 * fields are compared on a hit) */
	uint64_t key = ((uint64_t)n->name << 32 | n->url) * 0x9e3779b97f4a7c15ULL ^
		       (uint64_t)n->script * 0xc2b2ae3d27d4eb4fULL ^
		       (uint64_t)n->line * 0x165667b19e3779f9ULL ^
		       (uint64_t)n->col * 0x27d4eb2f165667c5ULL;
	uint32_t *slot = pt_map_put(&c->map, key);
	struct cfentry *e;

	if (*slot != PT_MAP_NEW) {
		e = &c->v[*slot];
		if (e->name == n->name && e->url == n->url && e->script == n->script &&
		    e->line == n->line && e->col == n->col)
			return e->frame;
		return node_frame(r, u, n); /* a hash collision */
	}
	PT_ALLOC_GROW(c->v, c->n + 1, c->alloc);
	*slot = (uint32_t)c->n;
	e = &c->v[c->n++];
	e->line = n->line;
	e->col = n->col;
	e->name = n->name;
	e->url = n->url;
	e->script = n->script;
	e->frame = node_frame(r, u, n);
	return e->frame;
}

/* the call-tree node that node n's variants with a current line go under: its
 * parent's, or the top of the tree for the root (made there by build_unit) */
static uint32_t parent_ptnode(const struct unit *u, const struct rnode *n)
{
	return n->parent == UINT32_MAX ? 0 : u->nodes[n->parent].ptnode;
}

/* node n's frame with a current line (a positionTicks or trace `lines` line) */
static uint32_t line_frame(struct pt_profile *p, const struct rnode *n, int64_t line)
{
	struct pt_frame f = p->frames[n->frame];
	f.line = line;
	return pt_profile_frame(p, &f);
}

static int cmp_tick(const void *a, const void *b)
{
	const struct tick *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq; /* qsort is not stable */
}

/* node id -> node index: a plain array when the ids are dense (node numbers its nodes
 * 1..N), else a hash map */
struct idmap {
	uint32_t *dense;
	int64_t ndense;
	struct pt_map map;
};

static void idmap_init(struct idmap *m, const struct unit *u)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i;

	memset(m, 0, sizeof(*m));
	pt_map_init(&m->map);
	for (i = 0; i < u->nnodes; i++) {
		if (u->nodes[i].id < lo)
			lo = u->nodes[i].id;
		if (u->nodes[i].id > hi)
			hi = u->nodes[i].id;
	}
	if (u->nnodes && lo >= 0 && hi < 4 * (int64_t)u->nnodes + 64) {
		m->ndense = hi + 1;
		m->dense = pt_xmalloc((size_t)m->ndense * sizeof(uint32_t));
		memset(m->dense, 0xff, (size_t)m->ndense * sizeof(uint32_t));
	}
}

static uint32_t idmap_get(const struct idmap *m, int64_t id)
{
	if (m->dense)
		return id >= 0 && id < m->ndense ? m->dense[id] : UINT32_MAX;
	return pt_map_get(&m->map, (uint64_t)id);
}

/* record id -> idx; 0 if the id was there already */
static int idmap_put(struct idmap *m, int64_t id, uint32_t idx)
{
	uint32_t *slot;
	if (m->dense) {
		if (m->dense[id] != UINT32_MAX)
			return 0;
		m->dense[id] = idx;
		return 1;
	}
	slot = pt_map_put(&m->map, (uint64_t)id);
	if (*slot != PT_MAP_NEW)
		return 0;
	*slot = idx;
	return 1;
}

static void idmap_release(struct idmap *m)
{
	free(m->dense);
	pt_map_release(&m->map);
}

/* Resolve ids, check the tree, make call-tree nodes and add the samples of unit u.
 * origin: the microsecond time that timeline times count from. */
/* ids to node indexes in ids, and every node's parent from the parent ids and the
 * children lists, checked: known ids, one parent each, one root; 0 or -1 */
static int link_nodes(struct reader *r, struct unit *u, struct idmap *ids, uint32_t *rootp)
{
	uint32_t root = UINT32_MAX;
	size_t i;

	if (!u->nnodes) {
		pt_diag_error_at(r->j.d, r->j.end_off, "the profile has no nodes");
		return -1;
	}
	for (i = 0; i < u->nnodes; i++) {
		struct rnode *n = &u->nodes[i];
		if (!idmap_put(ids, n->id, (uint32_t)i)) {
			pt_diag_error_at(r->j.d, n->off, "duplicate node id %" PRId64, n->id);
			return -1;
		}
		n->parent = UINT32_MAX;
		n->nticks = 0;
	}
	for (i = 0; i < u->nnodes; i++) {
		struct rnode *n = &u->nodes[i];
		if (n->parent_id != NO_VALUE) {
			uint32_t pi = idmap_get(ids, n->parent_id);
			if (pi == UINT32_MAX && r->lenient) {
				/* speedscope's reading of a trace whose chunks were lost */
				pt_diag_dangling(r->j.d, n->off);
				n->orphan = 1;
				continue;
			}
			if (pi == UINT32_MAX) {
				pt_diag_error_at(r->j.d, n->off,
						 "unknown parent node id %" PRId64
						 " of node %" PRId64,
						 n->parent_id, n->id);
				return -1;
			}
			n->parent = pi;
		}
	}
	for (i = 0; i < u->nchildren; i++) {
		uint32_t ci = idmap_get(ids, u->children[i].child);
		struct rnode *c;
		if (ci == UINT32_MAX) {
			pt_diag_error_at(r->j.d, u->children[i].off,
					 "unknown node id %" PRId64 " in children of node %" PRId64,
					 u->children[i].child, u->nodes[u->children[i].parent].id);
			return -1;
		}
		c = &u->nodes[ci];
		if (c->parent != UINT32_MAX && c->parent != u->children[i].parent) {
			pt_diag_error_at(
				r->j.d, u->children[i].off,
				"node id %" PRId64 " has two parents (%" PRId64 " and %" PRId64 ")",
				c->id, u->nodes[c->parent].id, u->nodes[u->children[i].parent].id);
			return -1;
		}
		c->parent = u->children[i].parent;
	}
	for (i = 0; i < u->nnodes; i++) {
		if (u->nodes[i].parent != UINT32_MAX || u->nodes[i].orphan)
			continue;
		if (root != UINT32_MAX) {
			pt_diag_error_at(r->j.d, u->nodes[i].off,
					 "two root nodes (ids %" PRId64 " and %" PRId64 ")",
					 u->nodes[root].id, u->nodes[i].id);
			return -1;
		}
		root = (uint32_t)i;
	}
	if (root == UINT32_MAX) {
		pt_diag_error_at(r->j.d, u->nodes[0].off,
				 "no root node: the parent links form a cycle");
		return -1;
	}
	for (i = 0; i < u->nnodes; i++)
		if (u->nodes[i].orphan && u->nodes[i].parent == UINT32_MAX)
			u->nodes[i].parent = root;
	*rootp = root;
	return 0;
}

/* the call-tree node of every node, walking up with an explicit chain; 0, or -1 on a
 * cycle */
static int place_nodes(struct reader *r, struct unit *u, struct cfcache *frames, uint32_t root)
{
	struct pt_profile *p = r->p;
	uint32_t *chain = NULL;
	uint8_t *state = NULL;
	size_t nchain = 0, chain_alloc = 0, i;

	/* call-tree node of every node, walking up with an explicit chain (no recursion);
	 * state: 0 new, 1 on the chain, 2 done (apart from the nodes: every byte per node
	 * costs, the node array is most of what a big profile's reading touches) */
	state = pt_xcalloc(u->nnodes, 1);
	{
		struct rnode *rt = &u->nodes[root];
		state[root] = 2;
		if (!strcmp(pt_s(p, rt->name), "(root)")) {
			rt->frame = 0;
			rt->ptnode = 0;
		} else {
			rt->frame = node_frame(r, u, rt);
			rt->ptnode = pt_profile_child(p, 0, rt->frame);
		}
	}
	for (i = 0; i < u->nnodes; i++) {
		uint32_t j = (uint32_t)i;
		nchain = 0;
		while (state[j] == 0) {
			state[j] = 1;
			PT_ALLOC_GROW(chain, nchain + 1, chain_alloc);
			chain[nchain++] = j;
			j = u->nodes[j].parent;
		}
		if (state[j] == 1) {
			pt_diag_error_at(r->j.d, u->nodes[j].off,
					 "cycle in the node tree (through node id %" PRId64 ")",
					 u->nodes[j].id);
			free(chain);
			free(state);
			return -1;
		}
		while (nchain) {
			struct rnode *n = &u->nodes[chain[--nchain]];
			n->frame = node_frame_cached(r, u, frames, n);
			n->ptnode = pt_profile_child(p, u->nodes[n->parent].ptnode, n->frame);
			state[chain[nchain]] = 2;
		}
	}

	free(chain);
	free(state);
	return 0;
}

/* positionTicks, grouped per node */
static void group_ticks(struct unit *u)
{
	size_t i;

	if (!u->nticks)
		return;
	/* they come in node order from a .cpuprofile: sort only if not */
	for (i = 1; i < u->nticks && cmp_tick(&u->ticks[i - 1], &u->ticks[i]) < 0; i++)
		;
	if (i < u->nticks)
		qsort(u->ticks, u->nticks, sizeof(*u->ticks), cmp_tick);
	for (i = u->nticks; i-- > 0;) {
		u->nodes[u->ticks[i].node].ticks = (uint32_t)i;
		u->nodes[u->ticks[i].node].nticks++;
	}
}

/* no samples array: hitCount is all there is (no timeline, no time) */
static int add_hit_counts(struct reader *r, struct unit *u, uint32_t labels)
{
	struct pt_profile *p = r->p;
	size_t i;

	for (i = 0; i < u->nnodes; i++) {
		struct rnode *n = &u->nodes[i];
		int64_t left = n->hit_count == NO_VALUE ? 0 : n->hit_count;
		uint32_t k;
		if (left < 0) {
			pt_diag_error_at(r->j.d, n->off, "negative hitCount in node %" PRId64,
					 n->id);
			return -1;
		}
		for (k = 0; k < n->nticks && left > 0; k++) {
			struct tick *t = &u->ticks[n->ticks + k];
			int64_t c = t->ticks < left ? t->ticks : left;
			if (t->line <= 0 || c <= 0 || !n->frame)
				continue;
			pt_profile_add_value(
				p,
				pt_profile_child(p, parent_ptnode(u, n), line_frame(p, n, t->line)),
				labels, 0, c);
			left -= c;
		}
		if (left > 0)
			pt_profile_add_value(p, n->ptnode, labels, 0, left);
	}
	return 0;
}

/* the times array and the samples go together */
static int check_times(struct reader *r, struct unit *u)
{
	if (u->has_deltas && u->ndeltas != u->nsamples) {
		pt_diag_error_at(r->j.d, u->deltas_off,
				 "'timeDeltas' and 'samples' differ in length (%zu and %zu)",
				 u->ndeltas, u->nsamples);
		return -1;
	}
	/* v8-profiler-node8 writes one timestamp more than samples: samples go with the
	 * timestamps of their index, the last is left over (as speedscope reads it) */
	if (u->has_timestamps && u->ndeltas == u->nsamples + 1)
		u->ndeltas--;
	if (u->has_timestamps && u->ndeltas != u->nsamples) {
		pt_diag_error_at(r->j.d, u->deltas_off,
				 "'timestamps' and 'samples' differ in length (%zu and %zu)",
				 u->ndeltas, u->nsamples);
		return -1;
	}
	return 0;
}

/* node n is V8's top-level "(garbage collector)" node */
static int is_gc_node(const struct pt_profile *p, const struct unit *u, const struct rnode *n)
{
	return parent_ptnode(u, n) == 0 && n->frame && !*pt_s(p, n->url) &&
	       !strcmp(pt_s(p, n->name), "(garbage collector)");
}

/* The samples of a unit in time order, each weighed once the next one's time is known.
 * In time order already (the usual case) each goes into the profile at once; otherwise
 * node and weight wait in arrays for the input's order. */
struct weigh {
	struct pt_profile *p;
	struct unit *u;
	const int64_t *tm; /* each sample's time (microseconds), NULL if all are 0 */
	uint32_t *node;	   /* out of order: each sample's node, UINT32_MAX left out */
	int64_t *dur;	   /* out of order: each sample's weight */
	uint32_t labels, prev_node;
	int prev_gc, with_time;
	int64_t origin;
};

/* the call-tree node of sample s, node nd: with its line, if it has one (a trace's
 * `lines` entry, else the next of the node's positionTicks lines, one per sample) */
static uint32_t sample_node(struct pt_profile *p, struct unit *u, struct rnode *nd, size_t s)
{
	int64_t line = 0;

	if (u->nlines == u->nsamples && u->lines)
		line = u->lines[s];
	while (!line && nd->nticks) {
		struct tick *tk = &u->ticks[nd->ticks];
		if (tk->ticks > 0 && tk->line > 0) {
			tk->ticks--;
			line = tk->line;
		} else {
			nd->ticks++;
			nd->nticks--;
		}
	}
	if (line > 0 && nd->frame)
		return pt_profile_child(p, parent_ptnode(u, nd), line_frame(p, nd, line));
	return nd->ptnode;
}

/* sample s (node index ni), the next one in time order at time next */
static void weigh_one(struct weigh *w, size_t s, uint32_t ni, int64_t next)
{
	struct rnode *nd = &w->u->nodes[ni];
	int gc = nd->gc;
	int64_t v[2], t;
	uint32_t node;

	if (gc && w->prev_gc)
		node = w->prev_node; /* the same collection goes on */
	else if (gc)
		node = pt_profile_child(w->p, w->prev_node, nd->frame);
	else
		node = sample_node(w->p, w->u, nd, s);
	w->prev_node = node;
	w->prev_gc = gc;
	v[0] = 1;
	t = w->tm ? w->tm[s] : 0;
	v[1] = w->with_time && next > t ? pt_sub(next, t) : 0; /* saturates */
	if (w->node) {
		w->node[s] = node;
		w->dur[s] = v[1];
		return;
	}
	pt_profile_add_sample(w->p, node, w->labels, v, sat_mul1000(pt_sub(t, w->origin)));
}

/* The samples of unit u, each at its own time; a sample's weight is the time to the next
 * one in time order and the last one's the time to endTime. The timeline keeps the
 * input's order. Chrome DevTools' rules (CPUProfileDataModel): V8 records a few samples
 * out of time order (negative time deltas), and DevTools sorts them by time before
 * weighing them; a "(garbage collector)" sample goes on top of the stack of the sample
 * before it, as V8 takes no stack while it collects: the collection runs inside the
 * JavaScript that allocated. Under --lenient the time of samples left out goes to the
 * kept sample before them. */
static int add_samples(struct reader *r, struct unit *u, const struct idmap *ids, int with_time,
		       int64_t origin, uint32_t labels, int64_t *last)
{
	struct pt_profile *p = r->p;
	int timed = u->has_deltas || u->has_timestamps, sorted = 1, ret = -1;
	/* times in microseconds */
	int64_t start = u->start != NO_VALUE ? u->start / 1000 : 0;
	int64_t end = u->end != NO_VALUE ? u->end / 1000 : NO_VALUE;
	int64_t raw, tmax = INT64_MIN, prev_t = INT64_MIN, *tm;
	struct pt_keyed *ord = NULL, *tmp = NULL, *by_time;
	struct weigh w;
	size_t s, k, n = 0, pending = SIZE_MAX;

	if (u->legacy && u->start != NO_VALUE)
		start = legacy_us(u->start);
	if (u->legacy && u->end != NO_VALUE)
		end = legacy_us(u->end);
	raw = start;
	/* the times take the place of the deltas they are summed from: no array more */
	tm = timed ? u->deltas : NULL;
	memset(&w, 0, sizeof(w));
	w.p = p;
	w.u = u;
	w.tm = tm;
	w.labels = labels;
	w.with_time = with_time && timed;
	w.origin = origin;

	for (k = 0; k < u->nnodes; k++)
		u->nodes[k].gc = (uint8_t)is_gc_node(p, u, &u->nodes[k]);
	/* the times, and which samples are left out: each sample's id becomes its node's
	 * index (UINT32_MAX, left out), looked up once */
	for (s = 0; s < u->nsamples; s++) {
		uint32_t ni = idmap_get(ids, u->samples[s]);
		int64_t t = 0;
		if (u->has_deltas) {
			raw = pt_add(raw, u->deltas[s]);
			t = u->deltas[s] = raw;
		} else if (u->has_timestamps) {
			t = u->deltas[s];
		}
		if (t > tmax)
			tmax = t;
		if (ni == UINT32_MAX) {
			if (!r->lenient) {
				pt_diag_error_at(r->j.d, u->samples_off,
						 "unknown node id %" PRId64
						 " in samples (entry %zu)",
						 u->samples[s], s);
				goto out;
			}
			pt_diag_dangling(r->j.d, u->samples_off); /* its time still passes */
			u->samples[s] = UINT32_MAX;
			continue;
		}
		u->samples[s] = ni;
		n++;
		if (t < prev_t)
			sorted = 0;
		prev_t = t;
		if (timed && t > *last)
			*last = t;
	}
	/* after the last sample: endTime, or the last sample left out if one is later */
	if (end == NO_VALUE)
		end = tmax;

	if (sorted) {
		for (s = 0; s < u->nsamples; s++) {
			if ((uint32_t)u->samples[s] == UINT32_MAX)
				continue;
			if (pending != SIZE_MAX)
				weigh_one(&w, pending, (uint32_t)u->samples[pending],
					  tm ? tm[s] : 0);
			pending = s;
		}
		if (pending != SIZE_MAX)
			weigh_one(&w, pending, (uint32_t)u->samples[pending], end);
		ret = 0;
		goto out;
	}

	/* out of time order: weighed in time order (stable: equal times keep the input's
	 * order), then put in the input's order */
	ord = pt_xreallocarray(NULL, n, sizeof(*ord));
	tmp = pt_xreallocarray(NULL, n, sizeof(*tmp));
	w.node = pt_xreallocarray(NULL, u->nsamples, sizeof(*w.node));
	w.dur = pt_xreallocarray(NULL, u->nsamples, sizeof(*w.dur));
	for (s = 0, k = 0; s < u->nsamples; s++) {
		w.node[s] = UINT32_MAX;
		if ((uint32_t)u->samples[s] == UINT32_MAX)
			continue;
		/* the key orders int64 times as unsigned numbers */
		ord[k].key = (uint64_t)tm[s] ^ UINT64_C(0x8000000000000000); /* sorted if !tm */
		ord[k].x = 0;
		ord[k].a = (uint32_t)s;
		ord[k++].b = 0;
	}
	by_time = pt_sort_keyed(ord, tmp, n, 64);
	for (k = 0; k < n; k++) {
		s = by_time[k].a;
		weigh_one(&w, s, (uint32_t)u->samples[s], k + 1 < n ? tm[by_time[k + 1].a] : end);
	}
	for (s = 0; s < u->nsamples; s++) {
		int64_t v[2];
		if (w.node[s] == UINT32_MAX)
			continue;
		v[0] = 1;
		v[1] = w.dur[s];
		pt_profile_add_sample(p, w.node[s], labels, v, sat_mul1000(pt_sub(tm[s], origin)));
	}
	ret = 0;
out:
	free(ord);
	free(tmp);
	free(w.node);
	free(w.dur);
	return ret;
}

static int build_unit(struct reader *r, struct unit *u, int with_time, int64_t origin,
		      uint32_t labels, int64_t *last)
{
	struct idmap ids;
	struct cfcache frames;
	uint32_t root = UINT32_MAX;
	int ret = -1;

	idmap_init(&ids, u);
	memset(&frames, 0, sizeof(frames));
	pt_map_init(&frames.map);
	if (link_nodes(r, u, &ids, &root) < 0 || place_nodes(r, u, &frames, root) < 0)
		goto out;
	group_ticks(u);
	if (!u->has_samples)
		ret = add_hit_counts(r, u, labels);
	else if (check_times(r, u) == 0)
		ret = add_samples(r, u, &ids, with_time, origin, labels, last);
out:
	idmap_release(&ids);
	pt_map_release(&frames.map);
	free(frames.v);
	return ret;
}

/* the earliest start of any unit, in microseconds (timeline origin) */
static int64_t unit_start_us(const struct unit *u)
{
	if (u->legacy) {
		if (u->has_timestamps && u->ndeltas)
			return u->deltas[0];
		return u->start != NO_VALUE ? legacy_us(u->start) : 0;
	}
	return u->start != NO_VALUE ? u->start / 1000 : 0;
}

/* a trace array may lack its closing ']' (the trace format allows it) */
static int trace_cut_ok(void *ctx)
{
	const struct reader *r = ctx;
	return r->is_trace && r->depth == 1 && r->stack[0].ctx == C_EVENTS && !r->skip;
}

static int cpuprofile_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			   struct pt_diag *d)
{
	struct reader r;
	const struct pt_v8json_opts jo = {1, NULL, trace_cut_ok};
	int ret = -1, with_time = 0;
	size_t i, first, nunits;
	int64_t origin = INT64_MAX, last = INT64_MIN;

	(void)o;
	memset(&r, 0, sizeof(r));
	r.p = p;
	r.j.d = d;
	r.lenient = o->lenient;
	p->format = "cpuprofile";
	pt_map_init(&r.unit_index);
	PT_ALLOC_GROW(r.units, 1, r.units_alloc);
	unit_init(&r.units[0]);
	r.nunits = 1;
	r.cur = &r.units[0];
	unit_init(&r.chunk);
	r.s_profile = pt_str(p, "Profile");
	r.s_chunk = pt_str(p, "ProfileChunk");
	r.s_cpuprofile = pt_str(p, "CpuProfile");
	r.s_thread_name = pt_str(p, "thread_name");
	r.s_anon = pt_str(p, "(anonymous)");
	/* strings are bytes: names keep them, writers that need UTF-8 make it (text.h) */
	if (pt_v8json_parse(&r.j, &callbacks, &r, in, &jo) < 0)
		goto out;

	/* which units hold profiles */
	first = r.is_trace ? 1 : 0;
	nunits = r.nunits;
	if (first == nunits) {
		pt_diag_error_at(d, r.j.end_off, "no Profile or ProfileChunk events in the trace");
		goto out;
	}
	if (!r.is_trace && !r.units[0].nnodes) {
		pt_diag_error_at(d, r.j.end_off, "not a V8 CPU profile: no 'nodes' or 'head'");
		goto out;
	}
	pt_profile_add_type(p, "samples", "count");
	for (i = first; i < nunits; i++) {
		struct unit *u = &r.units[i];
		if (u->has_samples && (u->has_deltas || u->has_timestamps))
			with_time = 1;
		if (unit_start_us(u) < origin)
			origin = unit_start_us(u);
	}
	if (with_time)
		pt_profile_add_type(p, "wall", "microseconds");
	{
		/* the tree's nodes: one per node, and at most one per positionTicks entry
		 * for its lines; a row per node or line node hit */
		size_t nodes = 1, rows = 0;
		for (i = first; i < nunits; i++) {
			const struct unit *u = &r.units[i];
			size_t made = u->nnodes + u->nticks;
			nodes += made;
			rows += u->has_samples && u->nsamples < made ? u->nsamples : made;
		}
		pt_profile_reserve(p, nodes, rows);
	}
	for (i = first; i < nunits; i++) {
		struct unit *u = &r.units[i];
		uint32_t labels = 0;
		if (r.is_trace && r.lenient && !u->nnodes) {
			/* every chunk of this profile was lost: its samples (if any) name
			 * nodes the input lacks */
			size_t k;
			for (k = 0; k < u->nsamples; k++)
				pt_diag_dangling(d, u->samples_off);
			continue;
		}
		if (r.is_trace) {
			struct pt_label lab[3];
			uint32_t nl = 0;
			size_t k;
			memset(lab, 0, sizeof(lab));
			if (u->pid != NO_VALUE) {
				lab[nl].key = pt_str(p, PT_LABEL_PID);
				lab[nl++].num = u->pid;
			}
			if (u->tid != NO_VALUE) {
				lab[nl].key = pt_str(p, PT_LABEL_TID);
				lab[nl++].num = u->tid;
			}
			for (k = 0; k < r.nthreads; k++)
				if (r.threads[k].pid == u->pid && r.threads[k].tid == u->tid) {
					lab[nl].key = pt_str(p, PT_LABEL_THREAD);
					lab[nl++].str = r.threads[k].name;
					break;
				}
			labels = pt_profile_labelset(p, lab, nl);
		}
		if (build_unit(&r, u, with_time, origin, labels, &last) < 0) {
			if (r.is_trace) {
				/* say which profile of the trace */
				char msg[sizeof(d->msg)];
				enum pt_diag_where w = d->where;
				uint64_t pos = d->pos;
				snprintf(msg, sizeof(msg), "%s", d->msg);
				pt_diag_error(d, "profile pid %" PRId64 " id '%s': %s", u->pid,
					      pt_s(p, u->id), msg);
				d->where = w; /* keep the offset the error had */
				d->pos = pos;
			}
			goto out;
		}
		if (u->end != NO_VALUE) {
			int64_t e = u->legacy ? legacy_us(u->end) : u->end / 1000;
			if (e > last)
				last = e;
		}
	}
	/* duration: from the earliest start to the latest sample or endTime */
	if (last != INT64_MIN && last > origin)
		p->duration_nanos = sat_mul1000(pt_sub(last, origin));
	ret = 0;
out:
	pt_v8json_release(&r.j);
	for (i = 0; i < r.nunits; i++)
		unit_release(&r.units[i]);
	free(r.units);
	unit_release(&r.chunk);
	free(r.stack);
	free(r.threads);
	pt_map_release(&r.unit_index);
	return ret;
}

/* s (after an object's '{') opens with key k whose value is an array */
static int starts_with_array(const unsigned char *s, size_t len, const char *k)
{
	size_t i = 0, n = strlen(k);
	while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
		i++;
	if (len - i < n || memcmp(s + i, k, n))
		return 0;
	for (i += n; i < len && (s[i] == ' ' || s[i] == ':' || s[i] == '\n'); i++)
		;
	return i < len && s[i] == '[';
}

static int cpuprofile_detect(const unsigned char *head, size_t len)
{
	size_t i = 0;
	const char *s = (const char *)head;

	while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
		i++;
	if (i == len || (head[i] != '{' && head[i] != '['))
		return 0;
	if (memmem(s, len, "\"traceEvents\"", 13) || memmem(s, len, "\"callFrame\"", 11) ||
	    (memmem(s, len, "\"head\"", 6) && memmem(s, len, "\"functionName\"", 14)))
		return 80;
	if (head[i] == '[' && memmem(s, len, "\"ph\"", 4))
		return 60;
	/* other writers may put a long samples array first */
	if (head[i] == '{' &&
	    (memmem(s, len, "\"timeDeltas\"", 12) || memmem(s, len, "\"nodes\"", 7) ||
	     starts_with_array(head + i + 1, len - i - 1, "\"samples\"")))
		return 50;
	return 0;
}

/* ---- writer ---- */

/* One output node per (parent, function, column): our tree may split a function into
 * siblings by current line (positionTicks), which a .cpuprofile keeps inside one node. */
struct wnode {
	uint32_t parent, cf, first_child, next_sibling, last_child;
	uint32_t id; /* output id, 1.. in pre-order */
	int64_t hits;
};

struct wtick {
	uint32_t node;
	uint32_t pad;
	int64_t line, ticks;
};

struct writer {
	const struct pt_profile *p;
	struct wnode *nodes;
	size_t n, alloc;
	struct pt_map index;   /* parent << 32 | cf -> wnode */
	struct pt_map cfindex; /* func << 32 | column -> cf */
	uint32_t *cf_frame;    /* cf -> a frame with that function and column */
	size_t ncf, cf_alloc;
	struct pt_map ticks_index; /* wnode << 32 | line -> wtick */
	struct wtick *ticks;
	size_t nticks, ticks_alloc;
	struct pt_buf out;
	FILE *fp;
};

static uint32_t wnode_new(struct writer *w, uint32_t parent, uint32_t cf)
{
	uint32_t id = (uint32_t)w->n;
	PT_ALLOC_GROW(w->nodes, w->n + 1, w->alloc);
	memset(&w->nodes[id], 0, sizeof(w->nodes[id]));
	w->nodes[id].parent = parent;
	w->nodes[id].cf = cf;
	/* children kept in creation order */
	if (w->nodes[parent].last_child)
		w->nodes[w->nodes[parent].last_child].next_sibling = id;
	else
		w->nodes[parent].first_child = id;
	w->nodes[parent].last_child = id;
	w->n++;
	return id;
}

static uint32_t wnode_child(struct writer *w, uint32_t parent, uint32_t cf)
{
	uint32_t *slot = pt_map_put(&w->index, (uint64_t)parent << 32 | cf);
	if (*slot == PT_MAP_NEW)
		*slot = wnode_new(w, parent, cf);
	return *slot;
}

static void add_hit(struct writer *w, uint32_t wn, int64_t line, int64_t count)
{
	uint32_t *slot;
	w->nodes[wn].hits = pt_add(w->nodes[wn].hits, count);
	if (line <= 0)
		return;
	slot = pt_map_put(&w->ticks_index, (uint64_t)wn << 32 | ((uint64_t)line & 0xffffffffu));
	if (*slot == PT_MAP_NEW) {
		PT_ALLOC_GROW(w->ticks, w->nticks + 1, w->ticks_alloc);
		w->ticks[w->nticks].node = wn;
		w->ticks[w->nticks].pad = 0;
		w->ticks[w->nticks].line = line;
		w->ticks[w->nticks].ticks = 0;
		*slot = (uint32_t)w->nticks++;
	}
	w->ticks[*slot].ticks = pt_add(w->ticks[*slot].ticks, count);
}

static int cmp_wtick(const void *a, const void *b)
{
	const struct wtick *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* "VM123": the name our reader gives code without a url (eval, new Function) */
static int vm_script(const char *file, const char **digits)
{
	const char *s;
	if (strncmp(file, "VM", 2) || !file[2])
		return 0;
	for (s = file + 2; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	*digits = file + 2;
	return 1;
}

/* `,"callFrame":{...},"hitCount":` for the cf (0: the root) onto b; a script gets its
 * id from `scripts` the first time its file is seen, so call this in writing order */
static void call_frame(const struct writer *w, struct pt_buf *b, struct pt_intern *scripts,
		       uint32_t cf, uint64_t vm_max)
{
	const struct pt_profile *p = w->p;
	const char *name = "(root)", *file = "", *digits;
	size_t namelen = 6, filelen = 0;
	int64_t line = 0, col = 0;
	char script[32] = "0";

	if (cf) {
		const struct pt_frame *f = &p->frames[w->cf_frame[cf]];
		const struct pt_func *fn = &p->funcs[f->func];
		name = pt_s(p, fn->name);
		namelen = pt_intern_len(&p->strings, fn->name);
		file = pt_s(p, fn->file);
		filelen = pt_intern_len(&p->strings, fn->file);
		line = fn->start_line;
		col = f->column;
		if (!strcmp(name, "(anonymous)"))
			namelen = 0;
		if (vm_script(file, &digits)) {
			snprintf(script, sizeof(script), "%s", digits);
			filelen = 0;
		} else if (filelen) {
			uint32_t sid = pt_intern(scripts, file, filelen);
			snprintf(script, sizeof(script), "%" PRIu64, vm_max + (uint64_t)sid);
		}
	}
	pt_buf_addstr(b, ",\"callFrame\":{\"functionName\":");
	pt_buf_add_json_str(b, name, namelen);
	pt_buf_addf(b, ",\"scriptId\":\"%s\",\"url\":", script);
	pt_buf_add_json_str(b, file, filelen);
	pt_buf_addf(b, ",\"lineNumber\":%" PRId64 ",\"columnNumber\":%" PRId64 "},\"hitCount\":",
		    line > 0 ? line - 1 : -1, col > 0 ? col - 1 : -1);
}

struct timed {
	int64_t time;
	uint32_t event;
	uint32_t pad;
};

static int cmp_timed(const void *a, const void *b)
{
	const struct timed *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->event < y->event ? -1 : x->event > y->event;
}

/* The samples a writer lays out: the output node of each, its time delta, and the
 * profile's start and end (microseconds). */
struct wsamples {
	uint32_t *node;
	int64_t *delta;
	size_t n, alloc;
	int64_t start, end;
};

static void wsamples_add(struct wsamples *ws, uint32_t node, int64_t delta)
{
	if (ws->n + 1 > ws->alloc) {
		PT_ALLOC_GROW(ws->node, ws->n + 1, ws->alloc);
		ws->delta = pt_xreallocarray(ws->delta, ws->alloc, sizeof(int64_t));
	}
	ws->node[ws->n] = node;
	ws->delta[ws->n] = delta;
	ws->n++;
}

/* The output node of every tree node, in node order (a parent has a smaller id than
 * its children), and the callFrames (cf) of w. A node whose (function, column) several
 * frames share, or that is below such a node, may meet another node of the same path
 * and goes through the (parent, cf) hash; the others get their own wnode directly.
 * *cf_used says which cfs a node has. */
static uint32_t *map_nodes(struct writer *w, uint8_t **cf_used)
{
	const struct pt_profile *p = w->p;
	uint32_t *cf_of_frame, *wnode_of, fi, n;
	uint8_t *cf_shared, *tainted;

	cf_of_frame = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	cf_shared = pt_xcalloc((size_t)p->nframes + 1, 1);
	for (fi = 1; fi < p->nframes; fi++) {
		const struct pt_frame *fr = &p->frames[fi];
		uint64_t key = (uint64_t)fr->func << 32 | ((uint64_t)fr->column & 0xffffffffu);
		uint32_t *slot = pt_map_put(&w->cfindex, key);
		if (*slot == PT_MAP_NEW) {
			PT_ALLOC_GROW(w->cf_frame, w->ncf + 1, w->cf_alloc);
			w->cf_frame[w->ncf] = fi;
			*slot = (uint32_t)w->ncf++;
		} else {
			cf_shared[*slot] = 1;
		}
		cf_of_frame[fi] = *slot;
	}
	*cf_used = pt_xcalloc(w->ncf, 1);
	tainted = pt_xmalloc((size_t)p->nnodes);
	tainted[0] = 0;
	PT_ALLOC_GROW(w->nodes, p->nnodes, w->alloc);
	wnode_of = pt_xmalloc((size_t)p->nnodes * sizeof(uint32_t));
	wnode_of[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t cf = cf_of_frame[p->nodes[n].frame], par = p->nodes[n].parent;
		if (!(*cf_used)[cf]) {
			/* the first node's frame speaks for the cf, as columns are cut to
			 * 32 bits in its key */
			(*cf_used)[cf] = 1;
			w->cf_frame[cf] = p->nodes[n].frame;
		}
		tainted[n] = tainted[par] || cf_shared[cf];
		if (tainted[n])
			wnode_of[n] = wnode_child(w, wnode_of[par], cf);
		else
			wnode_of[n] = wnode_new(w, wnode_of[par], cf);
	}
	free(tainted);
	free(cf_shared);
	free(cf_of_frame);
	return wnode_of;
}

/* The timeline, in time order: one sample per event. The last sample lasts as long as
 * its time value says (of the first type with a time unit, time_type). */
static void samples_from_timeline(struct writer *w, const uint32_t *wnode_of, int64_t time_type,
				  struct wsamples *ws)
{
	const struct pt_profile *p = w->p;
	struct timed *ord = pt_xreallocarray(NULL, p->nevents, sizeof(*ord));
	int64_t prev = 0;
	size_t k;

	for (k = 0; k < p->nevents; k++) {
		ord[k].time = p->events[k].time / 1000;
		ord[k].event = (uint32_t)k;
		ord[k].pad = 0;
	}
	qsort(ord, p->nevents, sizeof(*ord), cmp_timed);
	ws->start = p->time_nanos / 1000;
	for (k = 0; k < p->nevents; k++) {
		const struct pt_event *e = &p->events[ord[k].event];
		uint32_t node = p->samples[e->sample].node;
		wsamples_add(ws, wnode_of[node], pt_sub(ord[k].time, prev));
		prev = ord[k].time;
		add_hit(w, wnode_of[node], node ? pt_frame_of(p, node)->line : 0, 1);
	}
	ws->end = pt_add(ws->start, prev);
	if (time_type >= 0) {
		double tns = 0;
		pt_unit_is_time(pt_s(p, p->types[time_type].unit), &tns);
		ws->end = pt_add(
			ws->end,
			d2i((double)p->event_values[(size_t)ord[ws->n - 1].event * p->ntypes +
						    (size_t)time_type] *
			    tns / 1000.0));
	}
	free(ord);
}

/* No timeline: the tree in depth-first order. A time value (type t, ns nanoseconds a
 * unit, when timeunit) becomes one sample lasting that long; a count v becomes v
 * samples 1 ms apart (one sample lasting v ms when the counts add up to more than the
 * SYNTH_ limits allow); any other unit (bytes...) one sample lasting v microseconds. */
static void samples_from_tree(struct writer *w, const uint32_t *wnode_of, uint32_t t, int timeunit,
			      double ns, struct wsamples *ws)
{
	const struct pt_profile *p = w->p;
	int64_t total = 0, div = 1, prev_us = 0, sum = 0;
	int replicate = 0, count = !strcmp(pt_s(p, p->types[t].unit), "count");
	uint32_t i, n;

	for (i = 0; i < p->types[t].decimals; i++)
		div *= 10;
	if (!timeunit && count) {
		for (n = 0; n < p->nnodes; n++) {
			int64_t v = p->node_self[(size_t)n * p->ntypes + t] / div;
			if (v > 0)
				total = pt_add(total, v);
		}
		replicate = total <= MAX_SYNTH &&
			    (total <= SYNTH_ANY || total <= (int64_t)SYNTH_PER_NODE * p->nnodes);
	}
	ws->start = p->time_nanos / 1000;
	n = 0;
	for (;;) {
		int64_t v = p->node_self[(size_t)n * p->ntypes + t] / div;
		if (v > 0) {
			int64_t reps = replicate ? v : 1, rep, us;
			if (timeunit)
				us = d2i((double)v * ns / 1000.0);
			else if (replicate)
				us = 1000;
			else if (count)
				us = v > INT64_MAX / 1000 ? INT64_MAX : v * 1000;
			else
				us = v;
			for (rep = 0; rep < reps; rep++) {
				/* DevTools weighs a sample by the time to the next one: the
				 * delta of sample i carries the weight of i - 1 */
				wsamples_add(ws, wnode_of[n], prev_us);
				prev_us = us;
				sum = pt_add(sum, us);
			}
			add_hit(w, wnode_of[n], n ? pt_frame_of(p, n)->line : 0, reps);
		}
		/* next node in depth-first order */
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		while (n && !p->nodes[n].next_sibling)
			n = p->nodes[n].parent;
		if (!n)
			break;
		n = p->nodes[n].next_sibling;
	}
	ws->end = pt_add(ws->start, sum);
}

/* ids in pre-order: root first, parents before children */
static void number_nodes(struct writer *w)
{
	uint32_t next_id = 1, n = 0;

	for (;;) {
		w->nodes[n].id = next_id++;
		if (w->nodes[n].first_child) {
			n = w->nodes[n].first_child;
			continue;
		}
		while (n && !w->nodes[n].next_sibling)
			n = w->nodes[n].parent;
		if (!n)
			break;
		n = w->nodes[n].next_sibling;
	}
}

/* the largest N of the "VMN" scripts of the used cfs (call_frame numbers the others
 * past it) */
static uint64_t vm_scripts_max(const struct writer *w, const uint8_t *cf_used)
{
	const struct pt_profile *p = w->p;
	uint64_t vm_max = 0;
	uint32_t n;

	for (n = 1; n < w->ncf; n++) {
		const char *digits;
		if (!cf_used[n])
			continue;
		const struct pt_func *fn = &p->funcs[p->frames[w->cf_frame[n]].func];
		if (vm_script(pt_s(p, fn->file), &digits)) {
			uint64_t v = strtoull(digits, NULL, 10);
			if (v > vm_max)
				vm_max = v;
		}
	}
	return vm_max;
}

/* one node's object: id, callFrame (cftext from cf_off/cf_len), hits, children, ticks */
static void write_node(struct writer *w, uint32_t n, const struct pt_buf *cftext,
		       const size_t *cf_off, const size_t *cf_len, const uint32_t *tick_first)
{
	const struct wnode *wn = &w->nodes[n];
	uint32_t c;

	if (n)
		pt_buf_addch(&w->out, ',');
	pt_buf_addstr(&w->out, "{\"id\":");
	pt_buf_add_u64(&w->out, wn->id);
	pt_buf_add(&w->out, cftext->buf + cf_off[wn->cf], cf_len[wn->cf]);
	pt_buf_add_i64(&w->out, wn->hits);
	if (wn->first_child) {
		pt_buf_addstr(&w->out, ",\"children\":[");
		for (c = wn->first_child; c; c = w->nodes[c].next_sibling) {
			if (c != wn->first_child)
				pt_buf_addch(&w->out, ',');
			pt_buf_add_u64(&w->out, w->nodes[c].id);
		}
		pt_buf_addch(&w->out, ']');
	}
	if (tick_first[n] != UINT32_MAX) {
		size_t t0 = tick_first[n], t1;
		pt_buf_addstr(&w->out, ",\"positionTicks\":[");
		for (t1 = t0; t1 < w->nticks && w->ticks[t1].node == n; t1++) {
			pt_buf_addstr(&w->out, t1 == t0 ? "{\"line\":" : ",{\"line\":");
			pt_buf_add_i64(&w->out, w->ticks[t1].line);
			pt_buf_addstr(&w->out, ",\"ticks\":");
			pt_buf_add_i64(&w->out, w->ticks[t1].ticks);
			pt_buf_addch(&w->out, '}');
		}
		pt_buf_addch(&w->out, ']');
	}
	pt_buf_addch(&w->out, '}');
}

/* "nodes": in pre-order. The callFrame text of a cf is made the first time it is
 * written (that is when its script gets its id) and copied after that. */
static void write_nodes(struct writer *w, struct pt_intern *scripts, uint64_t vm_max)
{
	struct pt_buf cftext = PT_BUF_INIT;
	size_t *cf_off = pt_xmalloc(w->ncf * sizeof(size_t));
	size_t *cf_len = pt_xmalloc(w->ncf * sizeof(size_t));
	uint32_t *tick_first = pt_xmalloc(w->n * sizeof(uint32_t)), n = 0;
	size_t k;

	if (w->nticks)
		qsort(w->ticks, w->nticks, sizeof(*w->ticks), cmp_wtick);
	for (k = 0; k < w->n; k++)
		tick_first[k] = UINT32_MAX;
	for (k = w->nticks; k-- > 0;)
		tick_first[w->ticks[k].node] = (uint32_t)k;
	for (k = 0; k < w->ncf; k++)
		cf_off[k] = SIZE_MAX;
	pt_buf_addstr(&w->out, "{\"nodes\":[");
	for (;;) {
		const struct wnode *wn = &w->nodes[n];
		if (cf_off[wn->cf] == SIZE_MAX) {
			cf_off[wn->cf] = cftext.len;
			call_frame(w, &cftext, scripts, wn->cf, vm_max);
			cf_len[wn->cf] = cftext.len - cf_off[wn->cf];
		}
		write_node(w, n, &cftext, cf_off, cf_len, tick_first);
		pt_buf_write_out(&w->out, w->fp, PT_BUF_BLOCK);
		if (wn->first_child) {
			n = wn->first_child;
			continue;
		}
		while (n && !w->nodes[n].next_sibling)
			n = w->nodes[n].parent;
		if (!n)
			break;
		n = w->nodes[n].next_sibling;
	}
	free(cf_off);
	free(cf_len);
	free(tick_first);
	pt_buf_release(&cftext);
}

/* the rest of the document: start, end, the samples' node ids and deltas */
static void write_samples(struct writer *w, const struct wsamples *ws)
{
	size_t k;

	pt_buf_addstr(&w->out, "],\"startTime\":");
	pt_buf_add_i64(&w->out, ws->start);
	pt_buf_addstr(&w->out, ",\"endTime\":");
	pt_buf_add_i64(&w->out, ws->end);
	pt_buf_addstr(&w->out, ",\"samples\":[");
	for (k = 0; k < ws->n; k++) {
		if (k)
			pt_buf_addch(&w->out, ',');
		pt_buf_add_u64(&w->out, w->nodes[ws->node[k]].id);
		pt_buf_write_out(&w->out, w->fp, PT_BUF_BLOCK);
	}
	pt_buf_addstr(&w->out, "],\"timeDeltas\":[");
	for (k = 0; k < ws->n; k++) {
		if (k)
			pt_buf_addch(&w->out, ',');
		pt_buf_add_i64(&w->out, ws->delta[k]);
		pt_buf_write_out(&w->out, w->fp, PT_BUF_BLOCK);
	}
	pt_buf_addstr(&w->out, "]}\n");
	pt_buf_write_out(&w->out, w->fp, 0);
}

static int cpuprofile_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *fp,
			    struct pt_diag *d)
{
	struct writer w;
	struct wsamples ws;
	uint32_t *wnode_of, t, i;
	uint8_t *cf_used;
	struct pt_intern scripts;
	struct pt_arena arena;
	double ns = 0;
	int timeunit, has_times = 0;
	int64_t time_type = -1;
	size_t k;

	if (!pt_profile_has_stacks(p))
		return pt_diag_error(d, "%s",
				     p->no_stacks_reason ? p->no_stacks_reason
							 : "the profile has no stacks");
	t = o->type >= 0 && (uint32_t)o->type < p->ntypes ? (uint32_t)o->type : p->default_type;
	if (t >= p->ntypes)
		return pt_diag_error(d, "the profile has no sample types");
	timeunit = pt_unit_is_time(pt_s(p, p->types[t].unit), &ns);
	for (i = 0; i < p->ntypes && time_type < 0; i++)
		if (pt_unit_is_time(pt_s(p, p->types[i].unit), &ns))
			time_type = i;
	if (timeunit)
		pt_unit_is_time(pt_s(p, p->types[t].unit), &ns);

	memset(&w, 0, sizeof(w));
	memset(&ws, 0, sizeof(ws));
	w.p = p;
	w.fp = fp;
	pt_buf_init(&w.out);
	pt_map_init(&w.index);
	pt_map_init(&w.cfindex);
	pt_map_init(&w.ticks_index);
	pt_arena_init(&arena);
	pt_intern_init(&scripts, &arena);
	PT_ALLOC_GROW(w.nodes, 1, w.alloc);
	memset(&w.nodes[0], 0, sizeof(w.nodes[0]));
	w.n = 1;
	PT_ALLOC_GROW(w.cf_frame, 1, w.cf_alloc);
	w.cf_frame[0] = 0;
	w.ncf = 1;

	wnode_of = map_nodes(&w, &cf_used);
	/* the samples, in order, with the time to the previous one */
	for (k = 1; k < p->nevents && !has_times; k++)
		has_times = p->events[k].time != p->events[0].time;
	if (has_times)
		samples_from_timeline(&w, wnode_of, time_type, &ws);
	else
		samples_from_tree(&w, wnode_of, t, timeunit, ns, &ws);
	number_nodes(&w);
	write_nodes(&w, &scripts, vm_scripts_max(&w, cf_used));
	write_samples(&w, &ws);

	free(wnode_of);
	free(cf_used);
	free(ws.node);
	free(ws.delta);
	free(w.nodes);
	free(w.cf_frame);
	free(w.ticks);
	pt_map_release(&w.index);
	pt_map_release(&w.cfindex);
	pt_map_release(&w.ticks_index);
	pt_intern_release(&scripts);
	pt_arena_release(&arena);
	pt_buf_release(&w.out);
	return 0;
}

static const char *const cpuprofile_suffixes[] = {".cpuprofile", NULL};

const struct pt_format pt_format_cpuprofile = {
	.name = "cpuprofile",
	.description = "V8 CPU profile: node --cpu-prof / Chrome DevTools .cpuprofile (also the "
		       "legacy 'head' format and Chrome trace files with Profile events)",
	.suffixes = cpuprofile_suffixes,
	.detect = cpuprofile_detect,
	.read = cpuprofile_read,
	.write = cpuprofile_write,
	.wants_timeline = 1,
};
