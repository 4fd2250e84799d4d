/* traceevents.c: Chrome's Trace Event Format with durations (B/E pairs, X complete
 * events, M thread and process names), as node --trace-events-enabled, clang
 * -ftime-trace and DevTools write it: a call tree per thread weighted by time. Read only;
 * see formats/traceevents.md. A trace's V8 CPU samples (Profile events) are cpuprofile.c's:
 * each reader reads the other's half of a trace through the tee (tracetee.h). */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "formats/format.h"
#include "formats/tracetee.h"
#include "formats/v8json.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/json.h"
#include "util/xalloc.h"

/* events nest args objects a few levels; deeper values are skipped, not stacked */
#define MAX_DEPTH 8
/* how far among the end events of one timestamp a close looks for the one that matches
 * the innermost open frame (speedscope looks at all of them; this bounds a crafted run
 * of thousands of ends at one time to linear cost) */
#define MATCH_WINDOW 1024

/* an event, by its input order; its times and thread are in its begin and end keys */
struct tev {
	uint64_t off;	/* its '{' */
	uint64_t args;	/* hash of its args as written, 0 without: with the name, its identity */
	uint32_t name;	/* string id of its name, 0 if none */
	uint32_t frame; /* model frame */
};

/* Begin and end queues as speedscope's importer orders them (src/import/trace-event.ts):
 * per thread by time; at one time, B events before X events, X events by longer
 * duration first, then in input order; ends likewise, X ends in their begins' order.
 * A key orders by (t1, isx, t2, idx) within its thread: t1 the time (nanoseconds), t2
 * an X begin's minus duration or an X end's begin (its duration then follows from t1
 * and t2), idx the event's input order; tx is its thread * 2, + 1 for an X event. 24
 * bytes, made as the event is read and compared inline: the sort is much of a big
 * trace's cost. */
struct skey {
	int64_t t1, t2;
	uint32_t idx, tx;
};

struct thread {
	int64_t pid, tid;
	uint64_t off; /* where the thread is first named (its first event) */
	int64_t tmax; /* its events' latest end (a B's or an E's is its ts) */
};

struct pname {
	int64_t pid;
	uint32_t name;
	uint32_t pad;
};

/* a sample of the global samples form ({"samples": [...], "stackFrames": {...}}) */
struct tsample {
	int64_t ts, weight;	  /* ts in nanoseconds; weight: its count, 1 without */
	uint64_t off;		  /* its '{' */
	uint32_t thread, sf, seq; /* sf: the skeys id of its stack frame */
	uint32_t pad;
};

/* an entry of stackFrames, by the skeys id of its key */
struct sframe {
	uint64_t off;	 /* its '{', 0 while only named by a sample or a parent */
	uint32_t name;	 /* string id, 0 without */
	uint32_t parent; /* skeys id, 0 for a root */
	uint32_t node;	 /* its call tree node once resolved, else NONE */
	uint32_t mark;	 /* on the chain being resolved */
};
#define NONE UINT32_MAX

enum ctx { C_TOP, C_EVENTS, C_EVENT, C_ARGS, C_SAMPLES, C_SAMPLE, C_FRAMES, C_FRAME };
enum key {
	K_OTHER,
	K_EVENTS,
	K_PH,
	K_NAME,
	K_PID,
	K_TID,
	K_TS,
	K_DUR,
	K_TDUR,
	K_ARGS,
	K_DETAIL,
	K_SAMPLES,
	K_FRAMES,
	K_SF,
	K_WEIGHT,
	K_PARENT,
};

/* the event being read: its fields come in any order */
struct cur {
	uint64_t off;
	char ph;
	int has_ts, has_dur, has_tdur, has_pid, has_tid, has_name, has_weight;
	struct pt_dec ts, dur, tdur, weight;
	uint64_t args;
	int64_t pid, tid;
	uint32_t name, arg_name, detail;
	uint32_t sf, parent; /* a sample's, a stack frame's: skeys ids, 0 without */
	uint32_t fid;	     /* the stack frame being read: its skeys id */
	uint64_t err_off;    /* a mate's first fault in the event + 1, 0 if none */
};

struct reader {
	struct pt_profile *p;
	struct pt_v8json j; /* the parse: yajl, offsets, the error, skipping */
	int has_events, array_form;
	int hashing; /* inside the args of the event: every token goes into c.args */
	enum ctx stack[MAX_DEPTH];
	size_t depth;
	enum key key;
	struct cur c;
	struct tev *ev;
	size_t nev, ev_alloc;
	struct skey *bk, *ek; /* the events' begin keys (B, X) and end keys (E, X) */
	size_t nbk, bk_alloc, nek, ek_alloc;
	struct thread *threads;
	size_t nthreads, threads_alloc;
	uint32_t *thread_names; /* per thread: thread_name string id, 0 if none */
	size_t thread_names_alloc;
	struct pname *pnames; /* the last process_name of each pid */
	size_t npnames, pnames_alloc;
	struct pt_intern pkeys; /* pid -> pnames index + 1 */
	struct pt_arena karena;
	struct pt_intern tkeys; /* (pid, tid) -> thread index + 1 */
	struct pt_intern fkeys; /* (name, detail) -> frame */
	uint32_t *fkey_frame;	/* fkeys id -> model frame */
	size_t fkey_frame_alloc;
	uint32_t nfkeys;
	int64_t origin; /* the earliest event's ts */
	int has_samples, has_frames;
	struct tsample *samples;
	size_t nsamples, samples_alloc;
	struct pt_intern skeys; /* a stackFrames key as written -> id */
	struct sframe *frames;	/* by skeys id (0 unused) */
	size_t nframes, frames_alloc;
	uint32_t s_profile, s_chunk, s_cpuprofile, s_thread_name, s_process_name;
	uint32_t last_thread; /* the thread thread_of found last */
	int mate;	      /* the spans' half of a trace read by cpuprofile.c (tracetee.h) */
	enum pt_json_kind vk; /* the kind of the value being read */
	char err[300];	      /* a mate: its fault in the event being read (c.err_off) */
};

static uint64_t here(const struct reader *r)
{
	return pt_v8json_here(&r->j);
}

static int fail_at(struct reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct reader *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int rc = 1;

	va_start(ap, fmt);
	if (r->mate && r->depth >= 2 && r->stack[1] == C_EVENT) {
		/* the CPU samples' reader tolerates what is wrong in events that are no
		 * spans: whether this one is, its end tells (commit) */
		if (!r->c.err_off) {
			r->c.err_off = off + 1;
			vsnprintf(r->err, sizeof(r->err), fmt, ap);
		}
		r->j.skip = pt_json_opens(r->vk);
	} else {
		rc = pt_v8json_vfail_at(&r->j, off, fmt, ap);
	}
	va_end(ap);
	return rc;
}

static int push(struct reader *r, enum ctx c)
{
	if (r->depth >= MAX_DEPTH)
		return fail_at(r, here(r), "JSON nested deeper than %d levels", MAX_DEPTH);
	r->stack[r->depth++] = c;
	return 1;
}

static uint32_t thread_of(struct reader *r, int64_t pid, int64_t tid)
{
	int64_t k[2] = {pid, tid};
	uint32_t id;

	/* a thread's events mostly come in runs */
	if (r->nthreads && pid == r->threads[r->last_thread].pid &&
	    tid == r->threads[r->last_thread].tid)
		return r->last_thread;
	id = pt_intern(&r->tkeys, k, sizeof(k));
	r->last_thread = id - 1;

	if (id > r->nthreads) { /* new: ids count up from 1 */
		PT_ALLOC_GROW(r->threads, r->nthreads + 1, r->threads_alloc);
		PT_ALLOC_GROW(r->thread_names, r->nthreads + 1, r->thread_names_alloc);
		r->threads[r->nthreads].pid = pid;
		r->threads[r->nthreads].tid = tid;
		r->threads[r->nthreads].off = r->c.off;
		r->threads[r->nthreads].tmax = INT64_MIN;
		r->thread_names[r->nthreads] = 0;
		r->nthreads++;
	}
	return id - 1;
}

/* the frame of an event: its name, and clang's args.detail (the file, the class or
 * function instantiated) after it, which tells clang's many "Source" events apart */
static uint32_t frame_of(struct reader *r, uint32_t name, uint32_t detail)
{
	uint32_t k[2] = {name, detail};
	uint32_t id = pt_intern(&r->fkeys, k, sizeof(k));
	struct pt_profile *p = r->p;

	if (id > r->nfkeys) { /* new: ids count up from 1 */
		PT_ALLOC_GROW(r->fkey_frame, (size_t)id + 1, r->fkey_frame_alloc);
		r->nfkeys = id;
		const char *n = name ? pt_s(p, name) : "(unnamed)";
		size_t nl = name ? pt_intern_len(&p->strings, name) : strlen(n);
		uint32_t f;
		if (detail && pt_intern_len(&p->strings, detail)) {
			size_t dl = pt_intern_len(&p->strings, detail);
			char *b = pt_xmalloc(nl + dl + 2);
			memcpy(b, n, nl);
			b[nl] = ' ';
			memcpy(b + nl + 1, pt_s(p, detail), dl);
			f = pt_profile_simple_frame(p, b, nl + 1 + dl, 0, 0, 0);
			free(b);
		} else {
			f = pt_profile_simple_frame(p, n, nl, 0, 0, 0);
		}
		r->fkey_frame[id] = f;
	}
	return r->fkey_frame[id];
}

/* the id of a stackFrames key (or of an sf or parent naming one, as written) */
static uint32_t stack_key(struct reader *r, const char *s, size_t len)
{
	uint32_t id = pt_intern(&r->skeys, s, len);

	if (id >= r->nframes) { /* new: ids count up from 1 */
		PT_ALLOC_GROW(r->frames, (size_t)id + 1, r->frames_alloc);
		for (; r->nframes <= id; r->nframes++) {
			memset(&r->frames[r->nframes], 0, sizeof(r->frames[0]));
			r->frames[r->nframes].node = NONE;
		}
	}
	return id;
}

static int commit_sample(struct reader *r)
{
	struct cur *c = &r->c;
	struct tsample *x;

	if (!c->has_ts)
		return fail_at(r, c->off, "a sample without 'ts'");
	if (!c->sf)
		return fail_at(r, c->off, "a sample without 'sf'");
	if (r->nsamples >= UINT32_MAX - 2)
		return fail_at(r, c->off, "too many samples");
	PT_ALLOC_GROW(r->samples, r->nsamples + 1, r->samples_alloc);
	x = &r->samples[r->nsamples];
	memset(x, 0, sizeof(*x));
	if (pt_dec_scale(&c->ts, 3, &x->ts) < 0)
		return fail_at(r, c->off, "'ts' is out of range");
	x->weight = 1;
	if (c->has_weight &&
	    (c->weight.k > 0 || pt_dec_scale(&c->weight, 0, &x->weight) < 0 || x->weight < 0))
		return fail_at(r, c->off, "'weight' is not a whole number of at least 0");
	x->off = c->off;
	x->thread = thread_of(r, c->has_pid ? c->pid : 0, c->has_tid ? c->tid : 0);
	if (x->thread >= UINT32_MAX / 2)
		return fail_at(r, c->off, "too many threads");
	x->sf = c->sf;
	x->seq = (uint32_t)r->nsamples++;
	return 1;
}

static int commit_frame(struct reader *r)
{
	struct sframe *f = &r->frames[r->c.fid];

	f->off = r->c.off + 1; /* 0 means not defined */
	f->name = r->c.has_name ? r->c.name : 0;
	f->parent = r->c.parent;
	return 1;
}

static void set_key(struct skey *k, int isx, size_t idx, uint32_t thread)
{
	k->idx = (uint32_t)idx;
	k->tx = thread << 1 | (uint32_t)isx;
}

static int commit(struct reader *r)
{
	struct cur *c = &r->c;
	struct tev *e;
	struct skey *k;
	int64_t v, ts, end;
	uint32_t thread;

	if (c->err_off) { /* a mate's: an error if the event is a span */
		if ((c->ph != 'B' && c->ph != 'E' && c->ph != 'X') ||
		    (c->name && (c->name == r->s_profile || c->name == r->s_chunk ||
				 c->name == r->s_cpuprofile)))
			return 1;
		return pt_v8json_fail_at(&r->j, c->err_off - 1, "%s", r->err);
	}
	if (c->ph == 'M') {
		if (!c->arg_name || !c->has_pid)
			return 1;
		if (c->name == r->s_thread_name && c->has_tid) {
			uint32_t t = thread_of(r, c->pid, c->tid); /* may move thread_names */
			r->thread_names[t] = c->arg_name;
		} else if (c->name == r->s_process_name) {
			uint32_t id = pt_intern(&r->pkeys, &c->pid, sizeof(c->pid));
			if (id > r->npnames) { /* new: ids count up from 1 */
				PT_ALLOC_GROW(r->pnames, r->npnames + 1, r->pnames_alloc);
				r->pnames[r->npnames].pid = c->pid;
				r->pnames[r->npnames++].pad = 0;
			}
			r->pnames[id - 1].name = c->arg_name;
		}
		return 1;
	}
	if (c->name &&
	    (c->name == r->s_profile || c->name == r->s_chunk || c->name == r->s_cpuprofile))
		return 1; /* V8 CPU samples: the CPU half's (tracetee.h) */
	if (c->ph != 'B' && c->ph != 'E' && c->ph != 'X')
		return 1;
	if (!c->has_ts)
		return fail_at(r, c->off, "'%c' event without 'ts'", c->ph);
	if (r->nev >= UINT32_MAX - 2)
		return fail_at(r, c->off, "too many events");
	if (pt_dec_scale(&c->ts, 3, &ts) < 0)
		return fail_at(r, c->off, "'ts' is out of range");
	end = ts;
	/* as speedscope: dur, else the thread duration tdur, else 0 */
	if (c->ph == 'X' && (c->has_dur || c->has_tdur)) {
		if (pt_dec_scale(c->has_dur ? &c->dur : &c->tdur, 3, &v) < 0)
			return fail_at(r, c->off, "'dur' is out of range");
		if (v < 0)
			return fail_at(r, c->off, "negative 'dur'");
		if (__builtin_add_overflow(ts, v, &end))
			return fail_at(r, c->off, "'ts' + 'dur' is out of range");
	}
	PT_ALLOC_GROW(r->ev, r->nev + 1, r->ev_alloc);
	e = &r->ev[r->nev];
	e->off = c->off;
	e->args = c->args;
	e->name = c->has_name ? c->name : 0;
	e->frame = frame_of(r, c->name, c->detail);
	thread = thread_of(r, c->has_pid ? c->pid : 0, c->has_tid ? c->tid : 0);
	if (thread >= UINT32_MAX / 2)
		return fail_at(r, c->off, "too many threads");
	if (c->ph != 'E') {
		PT_ALLOC_GROW(r->bk, r->nbk + 1, r->bk_alloc);
		k = &r->bk[r->nbk++];
		k->t1 = ts;
		k->t2 = c->ph == 'X' ? ts - end : 0;
		set_key(k, c->ph == 'X', r->nev, thread);
	}
	if (c->ph != 'B') {
		PT_ALLOC_GROW(r->ek, r->nek + 1, r->ek_alloc);
		k = &r->ek[r->nek++];
		k->t1 = end;
		k->t2 = c->ph == 'X' ? ts : 0;
		set_key(k, c->ph == 'X', r->nev, thread);
	}
	r->nev++;
	/* the earliest time and each thread's latest, while the event is at hand */
	r->origin = ts < r->origin ? ts : r->origin;
	if (end > r->threads[thread].tmax)
		r->threads[thread].tmax = end;
	return 1;
}

/* pid and tid: integers, or strings holding one */
static int int_value(struct reader *r, enum key k, const char *s, size_t len, int64_t *v)
{
	struct pt_dec x;

	if (pt_dec_parse(s, len, &x) < 0 || x.k > 0 || pt_dec_scale(&x, 0, v) < 0)
		return fail_at(r, here(r) - len, "'%s' is not an integer",
			       k == K_PID ? "pid" : "tid");
	return 1;
}

/* a hash of a token of the args (its kind, then its bytes): FNV-1a's step over 8-byte
 * words, then the last bytes one by one */
static void mix(struct reader *r, char kind, const char *s, size_t len)
{
	uint64_t h = r->c.args, w;
	size_t i = 0;

	h = (h ^ (unsigned char)kind) * 0x100000001b3u;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x100000001b3u;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
	r->c.args = h;
}

/* on_item: a value at the top, or an element of the events, samples or frames list
 * (context cx, or depth 0 for the top) */
static int on_item(struct reader *r, enum ctx cx, enum pt_json_kind vk, size_t len)
{
	struct cur *c = &r->c;
	uint32_t fid = c->fid;

	if (!r->depth) {
		r->j.top_seen = 1;
		if (vk == PT_JSON_ARRAY) {
			r->has_events = r->array_form = 1;
			return push(r, C_EVENTS);
		}
		if (vk != PT_JSON_MAP)
			return fail_at(r, here(r),
				       "not a trace: the JSON is neither an array nor an "
				       "object");
		return push(r, C_TOP);
	}
	if (vk != PT_JSON_MAP && r->mate) { /* junk between events: the host tolerates it */
		r->j.skip = vk == PT_JSON_ARRAY;
		return 1;
	}
	if (vk != PT_JSON_MAP)
		return fail_at(
			r, here(r) - (vk == PT_JSON_NUMBER || vk == PT_JSON_STRING ? len : 1), "%s",
			cx == C_EVENTS	  ? "a trace event is not an object"
			: cx == C_SAMPLES ? "a sample is not an object"
					  : "a stack frame is not an object");
	memset(c, 0, sizeof(*c));
	c->fid = fid;
	c->off = here(r) - 1;
	return push(r, cx == C_EVENTS ? C_EVENT : cx == C_SAMPLES ? C_SAMPLE : C_FRAME);
}

static int on_value(struct reader *r, enum pt_json_kind vk, const char *s, size_t len)
{
	enum key k = r->key;
	struct cur *c = &r->c;
	enum ctx cx;

	if (r->hashing) /* each kind as a letter; booleans as null, as ever */
		mix(r, "oans--"[vk], s, vk == PT_JSON_BOOL ? 0 : len);
	r->key = K_OTHER;
	r->vk = vk;
	if (r->j.skip) {
		if (pt_json_opens(vk))
			r->j.skip++;
		return 1;
	}
	cx = r->depth ? r->stack[r->depth - 1] : C_TOP;
	if (!r->depth || cx == C_EVENTS || cx == C_SAMPLES || cx == C_FRAMES)
		return on_item(r, cx, vk, len);
	if (k == K_OTHER) {
		if (pt_json_opens(vk))
			r->j.skip = 1;
		return 1;
	}
	switch (k) {
	case K_EVENTS:
		if (vk != PT_JSON_ARRAY)
			return fail_at(r, here(r), "'traceEvents' is not an array");
		if (r->has_events)
			return fail_at(r, here(r), "a second 'traceEvents'");
		r->has_events = 1;
		return push(r, C_EVENTS);
	case K_SAMPLES:
	case K_FRAMES:
		/* the global samples form; other shapes under these names are left alone,
		 * as every key this reader does not read */
		if (vk != (k == K_SAMPLES ? PT_JSON_ARRAY : PT_JSON_MAP)) {
			r->j.skip = pt_json_opens(vk);
			return 1;
		}
		if (k == K_SAMPLES)
			r->has_samples = 1;
		else
			r->has_frames = 1;
		return push(r, k == K_SAMPLES ? C_SAMPLES : C_FRAMES);
	case K_SF:
	case K_PARENT:
		/* a frame's key as a number or a string: "1" and 1 name one frame */
		if (vk != PT_JSON_NUMBER && vk != PT_JSON_STRING)
			return fail_at(r, here(r) - 1, "'%s' is neither a number nor a string",
				       k == K_SF ? "sf" : "parent");
		if (k == K_SF)
			c->sf = stack_key(r, s, len);
		else
			c->parent = stack_key(r, s, len);
		return 1;
	case K_WEIGHT:
		if ((vk != PT_JSON_NUMBER && vk != PT_JSON_STRING) ||
		    pt_dec_parse(s, len, &c->weight) < 0)
			return fail_at(r,
				       here(r) - (vk == PT_JSON_STRING	 ? len + 2
						  : vk == PT_JSON_NUMBER ? len
									 : 1),
				       "'weight' is not a number");
		c->has_weight = 1;
		return 1;
	case K_ARGS:
		if (vk != PT_JSON_MAP) {
			if (vk == PT_JSON_ARRAY)
				r->j.skip = 1;
			return 1;
		}
		r->hashing = 1;
		c->args = 0xcbf29ce484222325u;
		return push(r, C_ARGS);
	case K_PH:
		if (vk != PT_JSON_STRING)
			return fail_at(r, here(r), "'ph' is not a string");
		c->ph = len == 1 ? s[0] : '?';
		return 1;
	case K_NAME:
	case K_DETAIL:
		if (vk != PT_JSON_STRING)
			return 1; /* a name that is no string is no name */
		if (cx == C_ARGS) {
			if (k == K_NAME)
				c->arg_name = pt_strn(r->p, s, len);
			else
				c->detail = pt_strn(r->p, s, len);
		} else {
			c->name = pt_strn(r->p, s, len);
			c->has_name = 1;
		}
		return 1;
	case K_PID:
	case K_TID:
		if (vk != PT_JSON_NUMBER && vk != PT_JSON_STRING)
			return fail_at(r, here(r), "'%s' is not an integer",
				       k == K_PID ? "pid" : "tid");
		if (k == K_PID) {
			c->has_pid = 1;
			return int_value(r, k, s, len, &c->pid);
		}
		c->has_tid = 1;
		return int_value(r, k, s, len, &c->tid);
	case K_TS:
	case K_DUR:
	case K_TDUR: {
		struct pt_dec x;
		/* a number, or a string holding one (some writers quote them) */
		if ((vk != PT_JSON_NUMBER && vk != PT_JSON_STRING) || pt_dec_parse(s, len, &x) < 0)
			return fail_at(r,
				       here(r) - (vk == PT_JSON_NUMBER	 ? len
						  : vk == PT_JSON_STRING ? len + 2
									 : 1),
				       "'%s' is not a number",
				       k == K_TS    ? "ts"
				       : k == K_DUR ? "dur"
						    : "tdur");
		if (k == K_TS) {
			c->ts = x;
			c->has_ts = 1;
		} else if (k == K_TDUR) {
			c->tdur = x;
			c->has_tdur = 1;
		} else {
			c->dur = x;
			c->has_dur = 1;
		}
		return 1;
	}
	default:
		return 1;
	}
}

/* Which key s is in context c: a switch on the length, then compares of a fixed size
 * (inlined; ten keys an event) */
static enum key key_of(enum ctx c, const unsigned char *s, size_t len)
{
#define IS(lit)	     (!memcmp(s, lit, sizeof(lit) - 1))
#define EV_OR_SAMPLE (c == C_EVENT || c == C_SAMPLE)
	switch (len) {
	case 2:
		if (IS("ph") && c == C_EVENT)
			return K_PH;
		if (IS("ts") && EV_OR_SAMPLE)
			return K_TS;
		if (IS("sf") && c == C_SAMPLE)
			return K_SF;
		break;
	case 3:
		if (IS("pid") && EV_OR_SAMPLE)
			return K_PID;
		if (IS("tid") && EV_OR_SAMPLE)
			return K_TID;
		if (IS("dur") && c == C_EVENT)
			return K_DUR;
		break;
	case 4:
		if (IS("name") && (c == C_EVENT || c == C_ARGS || c == C_FRAME))
			return K_NAME;
		if (IS("args") && c == C_EVENT)
			return K_ARGS;
		if (IS("tdur") && c == C_EVENT)
			return K_TDUR;
		break;
	case 6:
		if (IS("detail") && c == C_ARGS)
			return K_DETAIL;
		if (IS("weight") && c == C_SAMPLE)
			return K_WEIGHT;
		if (IS("parent") && c == C_FRAME)
			return K_PARENT;
		break;
	case 7:
		if (IS("samples") && c == C_TOP)
			return K_SAMPLES;
		break;
	case 11:
		if (IS("traceEvents") && c == C_TOP)
			return K_EVENTS;
		if (IS("stackFrames") && c == C_TOP)
			return K_FRAMES;
		break;
	default:
		break;
	}
	return K_OTHER;
#undef EV_OR_SAMPLE
#undef IS
}

static int cb_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;

	if (r->hashing)
		mix(r, 'k', (const char *)s, len);
	r->key = K_OTHER;
	if (r->j.skip || !r->depth)
		return 1;
	if (r->stack[r->depth - 1] == C_FRAMES) {
		r->c.fid = stack_key(r, (const char *)s, len);
		return 1;
	}
	r->key = key_of(r->stack[r->depth - 1], s, len);
	return 1;
}

static int cb_end(void *ctx)
{
	struct reader *r = ctx;

	if (r->hashing)
		mix(r, 'e', NULL, 0);
	if (r->j.skip) {
		r->j.skip--;
		return 1;
	}
	if (!r->depth)
		return 1;
	if (r->stack[--r->depth] == C_ARGS)
		r->hashing = 0;
	else if (r->stack[r->depth] == C_EVENT)
		return commit(r);
	else if (r->stack[r->depth] == C_SAMPLE)
		return commit_sample(r);
	else if (r->stack[r->depth] == C_FRAME)
		return commit_frame(r);
	return 1;
}

PT_JSON_CALLBACKS(callbacks, on_value, cb_map_key, cb_end);

/* ---- the call trees ---- */

/* runs this short are put in order by insertion before the merges */
#define INS_RUN 32

static inline int skey_le(const struct skey *x, const struct skey *y)
{
	if (x->t1 != y->t1)
		return x->t1 < y->t1;
	if ((x->tx & 1) != (y->tx & 1))
		return (x->tx & 1) < (y->tx & 1);
	if (x->t2 != y->t2)
		return x->t2 < y->t2;
	return x->idx <= y->idx;
}

/* merges a[0..na) and b[0..nb), each in order, into out */
static void merge_keys(const struct skey *a, size_t na, const struct skey *b, size_t nb,
		       struct skey *out)
{
	size_t i = 0, j = 0, o = 0;

	if (na && nb && !skey_le(&a[na - 1], &b[0])) {
		while (i < na && j < nb)
			out[o++] = skey_le(&a[i], &b[j]) ? a[i++] : b[j++];
	}
	memcpy(out + o, a + i, (na - i) * sizeof(*a));
	memcpy(out + o + (na - i), b + j, (nb - j) * sizeof(*b));
}

/* k[0..n) in key order: a bottom-up merge sort over insertion-sorted runs, nothing to
 * do for keys already in order (a writer's usual order); tmp: room for n keys */
static void sort_run(struct skey *k, struct skey *tmp, size_t n)
{
	struct skey *src = k, *dst = tmp, *t;
	size_t i, j, w;

	for (i = 1; i < n && skey_le(&k[i - 1], &k[i]); i++)
		;
	if (i >= n)
		return;
	for (i = 0; i < n; i += INS_RUN) {
		size_t end = i + INS_RUN < n ? i + INS_RUN : n;
		for (j = i + 1; j < end; j++) {
			struct skey x = k[j];
			size_t m = j;
			for (; m > i && !skey_le(&k[m - 1], &x); m--)
				k[m] = k[m - 1];
			k[m] = x;
		}
	}
	for (w = INS_RUN; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t mid = i + w < n ? i + w : n, end = i + 2 * w < n ? i + 2 * w : n;
			merge_keys(src + i, mid - i, src + mid, end - mid, dst + i);
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(*k));
}

/* k[0..n) grouped by thread (a counting sort, keeping their order), then each group in
 * key order; from[t] .. from[t + 1]: thread t's keys (from: nthreads + 1 entries) */
static void sort_keys(struct skey *k, struct skey *tmp, size_t n, size_t nthreads, size_t *from)
{
	size_t i, t, grouped = 1;

	memset(from, 0, (nthreads + 1) * sizeof(*from));
	for (i = 0; i < n; i++) {
		from[(k[i].tx >> 1) + 1]++;
		grouped &= !i || k[i - 1].tx >> 1 <= k[i].tx >> 1;
	}
	for (t = 0; t < nthreads; t++)
		from[t + 1] += from[t];
	if (!grouped) {
		for (i = 0; i < n; i++)
			tmp[from[k[i].tx >> 1]++] = k[i];
		for (t = nthreads; t > 0; t--) /* from[t] moved to where from[t + 1] began */
			from[t] = from[t - 1];
		from[0] = 0;
		memcpy(k, tmp, n * sizeof(*k));
	}
	for (t = 0; t < nthreads; t++)
		if (from[t + 1] > from[t]) /* a thread of no keys (k may be NULL then) */
			sort_run(k + from[t], tmp, from[t + 1] - from[t]);
}

struct open {
	uint32_t node, ev; /* ev: the event's index */
};

struct walk {
	struct reader *r;
	struct open *st;
	size_t n, alloc;
	int64_t last, origin;
	uint32_t labels, type; /* type: the one the spans' values go to */
	int64_t v[PT_MAX_TYPES];
	uint64_t ignored, ignored_off, unclosed, unclosed_off;
};

static void charge(struct walk *w, int64_t t)
{
	struct pt_profile *p = w->r->p;
	if (w->n && t > w->last) {
		w->v[w->type] = t - w->last;
		pt_profile_add_sample(p, w->st[w->n - 1].node, w->labels, w->v,
				      w->last - w->origin);
	}
	w->last = t;
}

static uint32_t thread_labels(struct reader *r, uint32_t t)
{
	struct pt_profile *p = r->p;
	struct pt_label lab[4];
	uint32_t n = 0;
	size_t i;

	memset(lab, 0, sizeof(lab));
	lab[n].key = pt_str(p, PT_LABEL_PID);
	lab[n++].num = r->threads[t].pid;
	lab[n].key = pt_str(p, PT_LABEL_TID);
	lab[n++].num = r->threads[t].tid;
	if (r->thread_names[t]) {
		lab[n].key = pt_str(p, PT_LABEL_THREAD);
		lab[n++].str = r->thread_names[t];
	}
	i = pt_intern_find(&r->pkeys, &r->threads[t].pid, sizeof(r->threads[t].pid));
	if (i && i != UINT32_MAX) {
		lab[n].key = pt_str(p, PT_LABEL_COMM);
		lab[n++].str = r->pnames[i - 1].name;
	}
	return pt_profile_labelset(p, lab, n);
}

/* the events of one thread: begin keys b[0..nb), end keys e[0..ne), in queue order */
static void walk_thread(struct walk *w, const struct skey *b, size_t nb, struct skey *e, size_t ne,
			int64_t tmax)
{
	struct reader *r = w->r;
	const struct tev *ev = r->ev;
	size_t bi = 0, ei = 0, k;

	w->n = 0;
	w->last = INT64_MIN;
	while (bi < nb || ei < ne) {
		const struct tev *x;
		int take_b;
		if (ei == ne)
			take_b = 1;
		else if (bi == nb)
			take_b = 0;
		else if (b[bi].t1 != e[ei].t1)
			take_b = b[bi].t1 < e[ei].t1;
		else /* a zero-length span opens before it closes */
			take_b = ev[b[bi].idx].name == ev[e[ei].idx].name &&
				 ev[b[bi].idx].args == ev[e[ei].idx].args;
		if (take_b) {
			uint32_t parent;
			x = &ev[b[bi].idx];
			charge(w, b[bi].t1);
			parent = w->n ? w->st[w->n - 1].node : 0;
			PT_ALLOC_GROW(w->st, w->n + 1, w->alloc);
			w->st[w->n].node = pt_profile_child(r->p, parent, x->frame);
			w->st[w->n++].ev = b[bi++].idx;
			continue;
		}
		/* among the ends of this time, the one that closes the innermost open frame
		 * (by frame, else by name) goes first */
		if (w->n) {
			const struct tev *top = &ev[w->st[w->n - 1].ev];
			size_t lim = ei + MATCH_WINDOW < ne ? ei + MATCH_WINDOW : ne, j = ne;
			/* by identity (name and args) when the first is not it, else by name */
			int by_name =
				ev[e[ei].idx].name == top->name && ev[e[ei].idx].args == top->args;
			for (k = ei + 1; k < lim && e[k].t1 == e[ei].t1; k++)
				if (ev[e[k].idx].name == top->name &&
				    (by_name || ev[e[k].idx].args == top->args)) {
					j = k;
					break;
				}
			if (j == ne && !by_name)
				for (k = ei + 1; k < lim && e[k].t1 == e[ei].t1; k++)
					if (ev[e[k].idx].name == top->name) {
						j = k;
						break;
					}
			if (j != ne) {
				struct skey t = e[ei];
				e[ei] = e[j];
				e[j] = t;
			}
		}
		x = &ev[e[ei].idx];
		/* an end names what it ends (an E without a name ends the innermost); one
		 * that matches nothing open is left out, as speedscope does */
		if (!w->n || (x->name && ev[w->st[w->n - 1].ev].name != x->name)) {
			if (!w->ignored++)
				w->ignored_off = x->off;
			ei++;
			continue;
		}
		charge(w, e[ei++].t1);
		w->n--;
	}
	if (w->n) {
		if (!w->unclosed)
			w->unclosed_off = ev[w->st[0].ev].off;
		w->unclosed += w->n;
		charge(w, tmax);
		w->n = 0;
	}
}

/* ---- the global samples form ---- */

/* quoted for a message: a stackFrames key as written */
static const char *skey_text(const struct reader *r, uint32_t id, char *buf, size_t n)
{
	size_t len = pt_intern_len(&r->skeys, id);

	snprintf(buf, n, "%.*s%s", (int)(len < 40 ? len : 40), pt_intern_str(&r->skeys, id),
		 len > 40 ? "..." : "");
	return buf;
}

/* The call tree node of stack frame id (root first through its parents), resolving
 * the frames on the way once each: linear in the frames over all samples. */
static int frame_node(struct reader *r, uint32_t id, uint64_t off, uint32_t **chain, size_t *alloc,
		      uint32_t *out)
{
	struct sframe *fr = r->frames;
	char a[64], b[64];
	size_t n = 0;
	uint32_t x = id, from = 0, node;

	while (x && fr[x].node == NONE) {
		if (!fr[x].off) {
			if (from)
				return pt_diag_error_at(r->j.d, fr[from].off - 1,
							"stack frame '%s' names parent '%s', "
							"which is not in 'stackFrames'",
							skey_text(r, from, a, sizeof(a)),
							skey_text(r, x, b, sizeof(b)));
			return pt_diag_error_at(r->j.d, off, "'sf' '%s' is not in 'stackFrames'",
						skey_text(r, x, a, sizeof(a)));
		}
		if (fr[x].mark)
			return pt_diag_error_at(r->j.d, fr[x].off - 1,
						"stack frame '%s' is its own ancestor (a cycle of "
						"parents)",
						skey_text(r, x, a, sizeof(a)));
		fr[x].mark = 1;
		PT_ALLOC_GROW(*chain, n + 1, *alloc);
		(*chain)[n++] = x;
		from = x;
		x = fr[x].parent;
	}
	node = x ? fr[x].node : 0;
	while (n--) {
		struct sframe *f = &fr[(*chain)[n]];
		const char *name = f->name ? pt_s(r->p, f->name) : "(unnamed)";
		size_t len = f->name ? pt_intern_len(&r->p->strings, f->name) : strlen(name);
		node = pt_profile_child(r->p, node,
					pt_profile_simple_frame(r->p, name, len, 0, 0, 0));
		f->node = node;
		f->mark = 0;
	}
	*out = node;
	return 0;
}

/* Samples per thread in time order (input order at one time), each weighing the time
 * to its thread's next sample (the last 0), as speedscope's importer weighs them, and
 * its 'weight' as a count. */
static int build_samples(struct reader *r)
{
	struct pt_profile *p = r->p;
	struct skey *k = pt_xmalloc((r->nsamples + 1) * sizeof(*k)), *tmp;
	uint32_t *chain = NULL, labels = 0, thread = NONE;
	size_t alloc = 0, i, *from;
	int64_t origin = INT64_MAX;
	int ret = 0;

	if (r->nev)
		pt_diag_warn_at(r->j.d, r->ev[0].off,
				"the trace holds samples: its %zu B, E and X event%s left out",
				r->nev, r->nev == 1 ? " is" : "s are");
	memset(k, 0, r->nsamples * sizeof(*k));
	for (i = 0; i < r->nsamples; i++) {
		k[i].tx = r->samples[i].thread << 1;
		k[i].t1 = r->samples[i].ts;
		k[i].idx = (uint32_t)i;
		origin = r->samples[i].ts < origin ? r->samples[i].ts : origin;
	}
	from = pt_xmalloc((r->nthreads + 1) * sizeof(*from));
	tmp = pt_xmalloc((r->nsamples + 1) * sizeof(*tmp));
	sort_keys(k, tmp, r->nsamples, r->nthreads, from);
	free(tmp);
	free(from);
	pt_profile_add_type(p, "wall", "nanoseconds");
	pt_profile_add_type(p, "samples", "count");
	for (i = 0; i < r->nsamples && !ret; i++) {
		const struct tsample *x = &r->samples[k[i].idx];
		int64_t v[2] = {0, x->weight};
		uint32_t node = 0;
		if (i + 1 < r->nsamples && k[i + 1].tx >> 1 == x->thread)
			v[0] = k[i + 1].t1 - x->ts;
		if (x->thread != thread)
			labels = thread_labels(r, thread = x->thread);
		ret = frame_node(r, x->sf, x->off, &chain, &alloc, &node);
		if (!ret)
			pt_profile_add_sample(p, node, labels, v, x->ts - origin);
	}
	free(chain);
	free(k);
	return ret;
}

/* The spans' call trees into r->p, timed from origin (nanoseconds): alone, as type
 * "wall"; beside a trace's CPU samples (the mate, or the host whose mate read them:
 * mixed), as type "duration" after theirs. */
static int build(struct reader *r, int64_t origin, int mixed)
{
	struct pt_profile *p = r->p;
	struct walk w;
	size_t *bf, *ef, t;
	struct skey *tmp;

	bf = pt_xmalloc((r->nthreads + 1) * sizeof(*bf));
	ef = pt_xmalloc((r->nthreads + 1) * sizeof(*ef));
	tmp = pt_xmalloc((r->nev + 1) * sizeof(*tmp));
	sort_keys(r->bk, tmp, r->nbk, r->nthreads, bf);
	sort_keys(r->ek, tmp, r->nek, r->nthreads, ef);
	free(tmp);

	memset(&w, 0, sizeof(w));
	w.type = pt_profile_add_type(p, mixed ? "duration" : "wall", "nanoseconds");
	if (w.type == UINT32_MAX)
		return pt_diag_error_at(r->j.d, r->ev[0].off, "too many sample types");
	w.r = r;
	w.origin = origin;
	for (t = 0; t < r->nthreads; t++) {
		if (bf[t] == bf[t + 1] && ef[t] == ef[t + 1])
			continue;
		w.labels = thread_labels(r, (uint32_t)t);
		/* a thread may have ends and no begins (or the reverse): that array is NULL */
		walk_thread(&w, r->bk ? r->bk + bf[t] : NULL, bf[t + 1] - bf[t],
			    r->ek ? r->ek + ef[t] : NULL, ef[t + 1] - ef[t], r->threads[t].tmax);
	}
	if (w.unclosed)
		pt_diag_warn_at(r->j.d, w.unclosed_off,
				"%" PRIu64 " begin event%s (the first here): %s at their thread's "
				"last timestamp",
				w.unclosed, w.unclosed == 1 ? " never ends" : "s never end",
				w.unclosed == 1 ? "it ends" : "they end");
	if (w.ignored)
		pt_diag_warn_at(r->j.d, w.ignored_off,
				"%" PRIu64 " end event%s no open begin event (the first here): "
				"left out",
				w.ignored, w.ignored == 1 ? " matches" : "s match");
	free(w.st);
	free(bf);
	free(ef);
	for (t = 0; mixed && t < r->nthreads; t++) /* alone, as before: no duration */
		if (pt_sub(r->threads[t].tmax, origin) > p->duration_nanos)
			p->duration_nanos = pt_sub(r->threads[t].tmax, origin);
	return 0;
}

static int64_t ns_of_us(int64_t us)
{
	return us > INT64_MAX / 1000 ? INT64_MAX : us < INT64_MIN / 1000 ? INT64_MIN : us * 1000;
}

static int64_t floor_us(int64_t ns)
{
	return ns >= 0 ? ns / 1000 : -((-(ns + 1)) / 1000) - 1;
}

/* the profile of what the parse read: the global samples form, the spans, the mate's
 * CPU samples, or both these, the CPU samples first (their types as cpuprofile.c
 * makes them), the spans as type "duration" */
static int build_all(struct reader *r, struct pt_cpu_mate *cpu, uint64_t end_off)
{
	int64_t origin;

	if (!r->has_events)
		return pt_diag_error_at(r->j.d, end_off, "not a trace: no 'traceEvents'");
	if (r->nsamples)
		return build_samples(r);
	if (!pt_cpu_mate_any(cpu, &origin)) {
		if (!r->nev)
			return pt_diag_error_at(r->j.d, end_off,
						"no B, E, X or Profile events in the trace");
		return build(r, r->origin, 0);
	}
	if (r->nev && floor_us(r->origin) < origin)
		origin = floor_us(r->origin);
	if (pt_cpu_mate_build(cpu, origin) < 0)
		return -1;
	/* the CPU half's types first, its default the profile's */
	r->p->default_type = pt_profile_graft(r->p, pt_cpu_mate_profile(cpu)) +
			     pt_cpu_mate_profile(cpu)->default_type;
	return r->nev ? build(r, ns_of_us(origin), 1) : 0;
}

static void reader_init(struct reader *r, struct pt_profile *p, struct pt_diag *d)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->j.d = d;
	r->origin = INT64_MAX;
	pt_arena_init(&r->karena);
	pt_intern_init(&r->tkeys, &r->karena);
	pt_intern_init(&r->fkeys, &r->karena);
	pt_intern_init(&r->pkeys, &r->karena);
	pt_intern_init(&r->skeys, &r->karena);
	r->s_profile = pt_str(p, "Profile");
	r->s_chunk = pt_str(p, "ProfileChunk");
	r->s_cpuprofile = pt_str(p, "CpuProfile");
	r->s_thread_name = pt_str(p, "thread_name");
	r->s_process_name = pt_str(p, "process_name");
}

static void reader_release(struct reader *r)
{
	if (!r->mate) /* a mate's handle is its host's */
		pt_v8json_release(&r->j);
	free(r->ev);
	free(r->bk);
	free(r->ek);
	free(r->threads);
	free(r->thread_names);
	free(r->pnames);
	free(r->fkey_frame);
	pt_intern_release(&r->tkeys);
	pt_intern_release(&r->fkeys);
	pt_intern_release(&r->pkeys);
	pt_intern_release(&r->skeys);
	free(r->samples);
	free(r->frames);
	pt_arena_release(&r->karena);
}

/* Room for the events of an input of `size` bytes at once. Grown by doubling, the three
 * event arrays were copied and their fresh pages touched again at each step, a fifth
 * of the CPU of a 100 MB trace. A span event takes over 100 bytes as producers write
 * it (clang's about 180), so this is about what a trace of spans fills; until then it
 * is address space, not memory. */
static void reserve(struct reader *r, uint64_t size)
{
	size_t n = size / 128 < ((size_t)1 << 23) ? (size_t)(size / 128) : (size_t)1 << 23;

	if (n < 4096)
		return;
	PT_ALLOC_GROW(r->ev, n, r->ev_alloc);
	PT_ALLOC_GROW(r->bk, n, r->bk_alloc);
	PT_ALLOC_GROW(r->ek, n, r->ek_alloc);
}

/* the cut_ok of the parse through the tee: the format lets the array's closing ']' go
 * (a trace cut when its writer died): what ends between two events is whole */
static int tee_cut_ok(void *ctx)
{
	const struct reader *r = ((struct pt_tracetee *)ctx)->host.ctx;

	return r->array_form && r->depth == 1 && !r->j.skip;
}

static int traceevents_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			    struct pt_diag *d)
{
	static const struct pt_v8json_opts opts = {.bytes = 1, .cut_ok = tee_cut_ok};
	struct reader r;
	struct pt_tracetee tee;
	struct pt_cpu_mate *cpu;
	int ret = -1;

	reader_init(&r, p, d);
	reserve(&r, in->size);
	p->format = "traceevents";
	/* one parse: the CPU samples' half reads the event array beside this one */
	memset(&tee, 0, sizeof(tee));
	tee.host = (struct pt_trace_half){.cb = &callbacks, .ctx = &r, .j = &r.j};
	cpu = pt_cpu_mate_new(d, p->keep_timeline, o->lenient);
	pt_cpu_mate_half(cpu, &tee.mate);
	if (pt_v8json_parse(&r.j, &pt_tracetee_callbacks, &tee, in, &opts) < 0)
		goto out;
	ret = build_all(&r, cpu, r.j.end_off);
out:
	pt_cpu_mate_free(cpu);
	reader_release(&r);
	return ret;
}

/* ---- the spans' half of a trace that cpuprofile.c reads (tracetee.h) ---- */

struct pt_spans {
	struct reader r;
	struct pt_profile p;
};

static void spans_enter(void *ctx)
{
	struct reader *r = ctx;

	r->j.top_seen = r->has_events = 1;
	push(r, C_EVENTS);
}

struct pt_spans *pt_spans_new(struct pt_diag *d, int keep_timeline)
{
	struct pt_spans *s = pt_xmalloc(sizeof(*s));

	pt_profile_init(&s->p);
	s->p.keep_timeline = keep_timeline;
	reader_init(&s->r, &s->p, d);
	s->r.mate = 1;
	return s;
}

void pt_spans_half(struct pt_spans *s, struct pt_trace_half *h)
{
	h->cb = &callbacks;
	h->ctx = &s->r;
	h->enter = spans_enter;
	h->j = &s->r.j;
}

int pt_spans_any(const struct pt_spans *s, int64_t *origin)
{
	*origin = s->r.origin;
	return s->r.nev > 0;
}

int pt_spans_build(struct pt_spans *s, int64_t origin)
{
	return build(&s->r, origin, 1);
}

const struct pt_profile *pt_spans_profile(const struct pt_spans *s)
{
	return &s->p;
}

void pt_spans_free(struct pt_spans *s)
{
	if (!s)
		return;
	reader_release(&s->r);
	pt_profile_release(&s->p);
	free(s);
}

/* A trace names its phases ("ph"). One that holds V8 CPU samples (Profile events, or
 * DevTools' own markers) stays with the cpuprofile reader, which scores 80 for a
 * "traceEvents" object and 60 for an array with "ph": this one scores below that for
 * those, above it for the rest. */
static int traceevents_detect(const unsigned char *head, size_t len)
{
	static const char *const v8[] = {
		"\"Profile\"",		"\"ProfileChunk\"",
		"\"CpuProfile\"",	"\"cpuProfile\"",
		"v8.cpu_profiler",	"TracingStartedInBrowser",
		"TracingStartedInPage", "disabled-by-default-devtools.timeline",
	};
	int first = pt_json_first(head, len);
	size_t k;

	if (first != '[' && first != '{')
		return 0;
	if (first == '{' && !PT_JSON_HAS_KEY(head, len, "traceEvents"))
		return 0;
	/* the global samples form may hold no events: "traceEvents": [] */
	if (!PT_JSON_HAS_KEY(head, len, "ph") &&
	    !(first == '{' && PT_JSON_HAS_KEY(head, len, "samples") &&
	      (PT_JSON_HAS_KEY(head, len, "sf") || PT_JSON_HAS_KEY(head, len, "stackFrames"))))
		return 0;
	for (k = 0; k < sizeof(v8) / sizeof(v8[0]); k++)
		if (memmem(head, len, v8[k], strlen(v8[k])))
			return 40;
	return 85;
}

static const char *const traceevents_suffixes[] = {".json", "node_trace.*", NULL};

const struct pt_format pt_format_traceevents = {
	.name = "traceevents",
	.description = "Chrome trace events with durations (B/E, X, M): node "
		       "--trace-events-enabled, clang -ftime-trace",
	.suffixes = traceevents_suffixes,
	.detect = traceevents_detect,
	.read = traceevents_read,
	.write = NULL,
};
