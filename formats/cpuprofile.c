/* cpuprofile.c: V8 CPU profiles: node/Chrome .cpuprofile (CDP Profiler.Profile) and the
 * legacy DevTools format (nested "head", "timestamps"), parsed with the trace events of
 * chrometrace.c and built by cpuprofile-tree.c; the format's row. See formats/cpuprofile.md. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "formats/cpuprofile.h"
#include "formats/format.h"
#include "formats/tracetee.h"
#include "formats/v8json.h"
#include "util/json.h"
#include "util/xalloc.h"

void pt_cpuprofile_unit_init(struct unit *u)
{
	memset(u, 0, sizeof(*u));
	u->start = u->end = NO_VALUE;
	u->pid = u->tid = NO_VALUE;
}

void pt_cpuprofile_unit_release(struct unit *u)
{
	free(u->nodes);
	free(u->children);
	free(u->ticks);
	free(u->samples);
	free(u->deltas);
	free(u->lines);
}

void pt_cpuprofile_unit_reset(struct unit *u)
{
	struct unit keep = *u;
	pt_cpuprofile_unit_init(u);
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

int pt_cpuprofile_push(struct reader *r, enum ctx c, enum arr a, uint32_t idx)
{
	if (!pt_v8json_depth_ok(&r->j, r->depth))
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
void pt_cpuprofile_repeat_deltas(struct unit *u)
{
	if (u->has_deltas)
		u->ndeltas = 0;
	u->has_deltas = 1;
}

const char *pt_cpuprofile_key_name(enum key k)
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

int pt_cpuprofile_wrong_type(struct reader *r, enum key k, const char *want)
{
	return pt_v8json_fail(&r->j, "'%s' is not %s", pt_cpuprofile_key_name(k), want);
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
int pt_cpuprofile_push_ints(struct reader *r, enum arr a)
{
	struct unit *u = r->cur;
	if (!pt_cpuprofile_push(r, C_INTS, a, 0))
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
/* a value in the profile object (or a trace's cpuProfile, or the top object) */
static int profile_value(struct reader *r, const struct level *l, enum key k, enum vkind vk,
			 const char *s, size_t len)
{
	struct unit *u = r->cur;
	int64_t x;

	switch (k) {
	case K_NODES:
		if (vk != V_ARRAY)
			return pt_cpuprofile_wrong_type(r, k, "an array");
		return pt_cpuprofile_push(r, C_NODES, 0, 0);
	case K_HEAD:
		if (vk != V_MAP)
			return pt_cpuprofile_wrong_type(r, k, "an object");
		u->legacy = u->one_based = 1;
		new_node(r);
		return pt_cpuprofile_push(r, C_NODE, 0, (uint32_t)(u->nnodes - 1));
	case K_SAMPLES:
	case K_DELTAS:
	case K_TIMESTAMPS:
		if (vk != V_ARRAY)
			return pt_cpuprofile_wrong_type(r, k, "an array");
		if (k == K_SAMPLES) {
			u->has_samples = 1;
			if (!u->samples_off)
				u->samples_off = pt_v8json_here(&r->j) - 1;
		} else {
			if (k == K_DELTAS)
				pt_cpuprofile_repeat_deltas(u);
			else
				u->has_timestamps = 1;
			if (!u->deltas_off)
				u->deltas_off = pt_v8json_here(&r->j) - 1;
		}
		return pt_cpuprofile_push_ints(r, k == K_SAMPLES  ? A_SAMPLES
						  : k == K_DELTAS ? A_DELTAS
								  : A_TIMESTAMPS);
	case K_START:
	case K_END:
		if (vk != V_NUMBER)
			return pt_cpuprofile_wrong_type(r, k, "a number");
		/* legacy profiles give seconds (maybe fractional), others microseconds;
		 * the unit is decided at the end, when "head" has been seen */
		{
			double dv = parse_double(s, len);
			if (!(dv > -9.2e15 && dv < 9.2e15))
				return pt_v8json_fail(&r->j, "'%s' out of range",
						      pt_cpuprofile_key_name(k));
			/* keep microseconds * 1, or seconds * 1e6 later: store raw x1000 */
			x = pt_llround(dv * 1000.0);
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
			return pt_cpuprofile_wrong_type(r, k, "an array");
		r->is_trace = 1;
		return pt_cpuprofile_push(r, C_EVENTS, 0, 0);
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
			return pt_cpuprofile_wrong_type(r, k, "an integer");
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
			return pt_cpuprofile_wrong_type(r, k, "an object");
		n->has_callframe = 1;
		return pt_cpuprofile_push(r, C_CALLFRAME, 0, 0);
	case K_CHILDREN:
		if (l->ctx != C_NODE)
			break;
		if (vk != V_ARRAY)
			return pt_cpuprofile_wrong_type(r, k, "an array");
		return pt_cpuprofile_push(r, C_CHILDREN, 0, ni);
	case K_TICKS:
		if (vk != V_ARRAY)
			return pt_cpuprofile_wrong_type(r, k, "an array");
		return pt_cpuprofile_push(r, C_TICKS, 0, ni);
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
			return pt_cpuprofile_wrong_type(r, k, "an integer");
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

static int on_value(struct reader *r, enum vkind vk, const char *s, size_t len)
{
	struct level *l = top(r);
	enum key k = r->key;
	struct unit *u = r->cur;
	int64_t x;
	int rc;

	r->key = K_NONE;
	if (r->j.skip)
		return pt_v8json_skip(&r->j, r->depth, vk == V_MAP || vk == V_ARRAY);
	if (!l) {
		/* the top-level value */
		r->j.top_seen = 1;
		if (vk == V_MAP)
			return pt_cpuprofile_push(r, C_TOP, 0, 0);
		if (vk == V_ARRAY) {
			r->is_trace = 1;
			return pt_cpuprofile_push(r, C_EVENTS, 0, 0);
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
		return pt_cpuprofile_push(r, C_NODE, 0, (uint32_t)(u->nnodes - 1));
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
			return pt_cpuprofile_push(r, C_NODE, 0, (uint32_t)(u->nnodes - 1));
		}
		return pt_v8json_fail(&r->j, "'children' holds something other than node ids");
	case C_TICKS:
		if (vk != V_MAP)
			return pt_v8json_fail(&r->j,
					      "'positionTicks' holds something other than objects");
		r->tick_line = r->tick_count = NO_VALUE;
		return pt_cpuprofile_push(r, C_TICK, 0, l->idx);
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
	case C_EVENT:
	case C_ARGS:
	case C_DATA:
		if ((rc = pt_chrometrace_value(r, l, k, vk, s, len)) != NOT_USED)
			return rc;
		break;
	}
	/* a value we do not use */
	return pt_v8json_pass(&r->j, vk == V_MAP || vk == V_ARRAY);
}

static int end_container(struct reader *r)
{
	struct level *l;
	struct unit *u = r->cur;

	if (pt_v8json_end_skip(&r->j))
		return 1;
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
		pt_chrometrace_event_end(r);
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
	return r->j.skip || !r->depth ? NULL : &r->stack[r->depth - 1];
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
		return pt_cpuprofile_push(r, C_NODE, 0, (uint32_t)(r->cur->nnodes - 1));
	}
	if (l && l->ctx == C_NODE && r->key == K_CALLFRAME) {
		r->key = K_NONE;
		r->cur->nodes[l->idx].has_callframe = 1;
		return pt_cpuprofile_push(r, C_CALLFRAME, 0, 0);
	}
	return on_value(ctx, V_MAP, NULL, 0);
}
static int cb_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	struct level *l = top(r);
	r->key = r->j.skip || !l ? K_NONE : lookup_key((enum ctx)l->ctx, s, len);
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

static void reader_init(struct reader *r, struct pt_profile *p, struct pt_diag *d, int lenient)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->j.d = d;
	r->lenient = lenient;
	pt_map_init(&r->unit_index);
	PT_ALLOC_GROW(r->units, 1, r->units_alloc);
	pt_cpuprofile_unit_init(&r->units[0]);
	r->nunits = 1;
	r->cur = &r->units[0];
	pt_cpuprofile_unit_init(&r->chunk);
	r->s_profile = pt_str(p, "Profile");
	r->s_chunk = pt_str(p, "ProfileChunk");
	r->s_cpuprofile = pt_str(p, "CpuProfile");
	r->s_thread_name = pt_str(p, "thread_name");
	r->s_anon = pt_str(p, "(anonymous)");
}

static void reader_release(struct reader *r, int mate)
{
	size_t i;

	if (!mate) /* a mate's handle is its host's */
		pt_v8json_release(&r->j);
	for (i = 0; i < r->nunits; i++)
		pt_cpuprofile_unit_release(&r->units[i]);
	free(r->units);
	pt_cpuprofile_unit_release(&r->chunk);
	free(r->stack);
	free(r->threads);
	pt_map_release(&r->unit_index);
}

/* the earliest start of units first.. (microseconds), INT64_MAX for none */
static int64_t units_origin(const struct reader *r, size_t first)
{
	int64_t origin = INT64_MAX;
	size_t i;

	for (i = first; i < r->nunits; i++)
		if (pt_cpuprofile_unit_start_us(&r->units[i]) < origin)
			origin = pt_cpuprofile_unit_start_us(&r->units[i]);
	return origin;
}

/* the profiles read into r->p: their types, then each unit's tree, timed from origin
 * (microseconds; INT64_MAX: the units' earliest start) */
static int build_units(struct reader *r, int64_t origin)
{
	struct pt_profile *p = r->p;
	int with_time = 0;
	size_t i, first = r->is_trace ? 1 : 0, nunits = r->nunits;
	int64_t last = INT64_MIN;

	if (first == nunits)
		return pt_diag_error_at(r->j.d, r->j.end_off,
					"no Profile or ProfileChunk events in the trace");
	if (!r->is_trace && !r->units[0].nnodes)
		return pt_diag_error_at(r->j.d, r->j.end_off,
					"not a V8 CPU profile: no 'nodes' or 'head'");
	pt_profile_add_type(p, "samples", "count");
	for (i = first; i < nunits; i++) {
		struct unit *u = &r->units[i];
		if (u->has_samples && (u->has_deltas || u->has_timestamps))
			with_time = 1;
	}
	if (origin == INT64_MAX)
		origin = units_origin(r, first);
	if (with_time) { /* time is what DevTools shows: the default when deltas give it */
		pt_profile_add_type(p, "wall", "microseconds");
		p->default_type = 1;
	}
	{
		/* the tree's nodes: one per node, and at most one per positionTicks entry
		 * for its lines; a row per node or line node hit */
		size_t nodes = 1, rows = 0;
		for (i = first; i < nunits; i++) {
			const struct unit *u = &r->units[i];
			size_t made = u->nnodes + u->nticks;
			nodes += made;
			rows += u->has_samples && u->nsamples < made ? u->nsamples : made;
		}
		pt_profile_reserve(p, nodes, rows);
	}
	for (i = first; i < nunits; i++) {
		struct unit *u = &r->units[i];
		uint32_t labels = 0;
		if (r->is_trace && pt_chrometrace_lost(r, u))
			continue;
		if (r->is_trace)
			labels = pt_chrometrace_labels(r, u);
		if (pt_cpuprofile_build_unit(r, u, with_time, origin, labels, &last) < 0) {
			if (r->is_trace)
				pt_chrometrace_which(r, u);
			return -1;
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
	return 0;
}

/* A trace's spans (B/E/X events), read by the tee's mate, join the CPU samples as a
 * type of their own, both timed from the earlier start. */
static int build_mixed(struct reader *r, struct pt_spans *spans)
{
	int64_t sorigin, origin = units_origin(r, 1);

	if (!spans || !pt_spans_any(spans, &sorigin) || r->nunits <= 1)
		return build_units(r, INT64_MAX);
	sorigin = sorigin >= 0 ? sorigin / 1000 : -((-(sorigin + 1)) / 1000) - 1;
	if (sorigin < origin)
		origin = sorigin;
	if (build_units(r, origin) < 0)
		return -1;
	if (pt_spans_build(spans, sat_mul1000(origin)) < 0)
		return -1;
	pt_profile_graft(r->p, pt_spans_profile(spans));
	return 0;
}

/* the cut_ok of a parse through the tee: the host's */
static int tee_cut_ok(void *ctx)
{
	return pt_chrometrace_cut_ok(((struct pt_tracetee *)ctx)->host.ctx);
}

static int cpuprofile_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			   struct pt_diag *d)
{
	struct reader r;
	const struct pt_v8json_opts jo = {1, NULL, pt_chrometrace_cut_ok};
	const struct pt_v8json_opts tjo = {1, NULL, tee_cut_ok};
	struct pt_tracetee tee;
	struct pt_spans *spans = NULL;
	const unsigned char *head;
	size_t hlen;
	int ret = -1;

	reader_init(&r, p, d, o->lenient);
	p->format = "cpuprofile";
	/* a trace: one parse, the spans' half reading the event array beside this one */
	head = pt_input_peek(in, 4096, &hlen);
	if (head && pt_tracetee_may_be_trace(head, hlen)) {
		memset(&tee, 0, sizeof(tee));
		tee.host = (struct pt_trace_half){.cb = &callbacks, .ctx = &r, .j = &r.j};
		spans = pt_spans_new(d, p->keep_timeline);
		pt_spans_half(spans, &tee.mate);
	}
	/* strings are bytes: names keep them, writers that need UTF-8 make it (text.h) */
	if (spans ? pt_v8json_parse(&r.j, &pt_tracetee_callbacks, &tee, in, &tjo) < 0
		  : pt_v8json_parse(&r.j, &callbacks, &r, in, &jo) < 0)
		goto out;
	ret = build_mixed(&r, spans);
out:
	pt_spans_free(spans);
	reader_release(&r, 0);
	return ret;
}

/* ---- the CPU samples' half of a trace that traceevents.c reads (tracetee.h) ---- */

struct pt_cpu_mate {
	struct reader r;
	struct pt_profile p;
};

static void mate_enter(void *ctx)
{
	struct reader *r = ctx;

	r->is_trace = 1;
	r->j.top_seen = 1;
	pt_cpuprofile_push(r, C_EVENTS, 0, 0);
}

struct pt_cpu_mate *pt_cpu_mate_new(struct pt_diag *d, int keep_timeline, int lenient)
{
	struct pt_cpu_mate *c = pt_xmalloc(sizeof(*c));

	pt_profile_init(&c->p);
	c->p.keep_timeline = keep_timeline;
	reader_init(&c->r, &c->p, d, lenient);
	c->r.mate = 1;
	return c;
}

/* the tee's question (tracetee.h): the members of an event this reader reads; the tee
 * keeps the numbers and strings of the others (a span's ph, ts, dur, cat) from it */
static int reads_event_key(const unsigned char *s, size_t len)
{
	return lookup_key(C_EVENT, s, len) != K_NONE;
}

void pt_cpu_mate_half(struct pt_cpu_mate *c, struct pt_trace_half *h)
{
	h->cb = &callbacks;
	h->ctx = &c->r;
	h->enter = mate_enter;
	h->reads_key = reads_event_key;
	h->j = &c->r.j;
}

int pt_cpu_mate_any(const struct pt_cpu_mate *c, int64_t *origin)
{
	*origin = units_origin(&c->r, 1);
	return c->r.is_trace && c->r.nunits > 1;
}

int pt_cpu_mate_build(struct pt_cpu_mate *c, int64_t origin)
{
	return build_units(&c->r, origin);
}

const struct pt_profile *pt_cpu_mate_profile(const struct pt_cpu_mate *c)
{
	return &c->p;
}

void pt_cpu_mate_free(struct pt_cpu_mate *c)
{
	if (!c)
		return;
	reader_release(&c->r, 1);
	pt_profile_release(&c->p);
	free(c);
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
	size_t i = pt_json_skip_ws(head, 0, len);

	if (i == len || (head[i] != '{' && head[i] != '['))
		return 0;
	if (PT_JSON_HAS_KEY(head, len, "traceEvents") || PT_JSON_HAS_KEY(head, len, "callFrame") ||
	    (PT_JSON_HAS_KEY(head, len, "head") && PT_JSON_HAS_KEY(head, len, "functionName")))
		return 80;
	if (head[i] == '[' && PT_JSON_HAS_KEY(head, len, "ph"))
		return 60;
	/* other writers may put a long samples array first */
	if (head[i] == '{' &&
	    (PT_JSON_HAS_KEY(head, len, "timeDeltas") || PT_JSON_HAS_KEY(head, len, "nodes") ||
	     starts_with_array(head + i + 1, len - i - 1, "\"samples\"")))
		return 50;
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
	.write = pt_cpuprofile_write,
	.wants_timeline = 1,
};
