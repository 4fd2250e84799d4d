/* gotrace.c: Go execution traces (runtime/trace, /debug/pprof/trace): every version is
 * detected by its header; the format Go 1.11 to 1.21 write is read into four blocking
 * profiles (net, sync, syscall, sched) as `go tool trace -pprof=TYPE` computes them. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/gotrace.h"
#include "core/gosplit.h"
#include "util/map.h"
#include "util/xalloc.h"

/* event types of the 1.11-1.21 format */
enum {
	EV_NONE,
	EV_BATCH,
	EV_FREQUENCY,
	EV_STACK,
	EV_GOMAXPROCS,
	EV_PROC_START,
	EV_PROC_STOP,
	EV_GC_START,
	EV_GC_DONE,
	EV_STW_START,
	EV_STW_DONE,
	EV_SWEEP_START,
	EV_SWEEP_DONE,
	EV_GO_CREATE,
	EV_GO_START,
	EV_GO_END,
	EV_GO_STOP,
	EV_GO_SCHED,
	EV_GO_PREEMPT,
	EV_GO_SLEEP,
	EV_GO_BLOCK,
	EV_GO_UNBLOCK,
	EV_GO_BLOCK_SEND,
	EV_GO_BLOCK_RECV,
	EV_GO_BLOCK_SELECT,
	EV_GO_BLOCK_SYNC,
	EV_GO_BLOCK_COND,
	EV_GO_BLOCK_NET,
	EV_GO_SYSCALL,
	EV_GO_SYSEXIT,
	EV_GO_SYSBLOCK,
	EV_GO_WAITING,
	EV_GO_IN_SYSCALL,
	EV_HEAP_ALLOC,
	EV_HEAP_GOAL,
	EV_TIMER_GOROUTINE,
	EV_FUTILE_WAKEUP,
	EV_STRING,
	EV_GO_START_LOCAL,
	EV_GO_UNBLOCK_LOCAL,
	EV_GO_SYSEXIT_LOCAL,
	EV_GO_START_LABEL,
	EV_GO_BLOCK_GC,
	EV_ASSIST_START,
	EV_ASSIST_DONE,
	EV_TASK_CREATE,
	EV_TASK_END,
	EV_REGION,
	EV_LOG,
	EV_CPU_SAMPLE,
	EV_COUNT
};

struct evdesc {
	const char *name;
	int minver;
	int nargs; /* raw arguments, timestamp and stack included; -1: the stack record */
	int stack; /* the last argument is a stack id */
};

static const struct evdesc descs[EV_COUNT] = {
	[EV_BATCH] = {"Batch", 1005, 2, 0},
	[EV_FREQUENCY] = {"Frequency", 1005, 1, 0},
	[EV_STACK] = {"Stack", 1005, -1, 0},
	[EV_GOMAXPROCS] = {"Gomaxprocs", 1005, 3, 1},
	[EV_PROC_START] = {"ProcStart", 1005, 2, 0},
	[EV_PROC_STOP] = {"ProcStop", 1005, 1, 0},
	[EV_GC_START] = {"GCStart", 1005, 3, 1},
	[EV_GC_DONE] = {"GCDone", 1005, 1, 0},
	[EV_STW_START] = {"GCSTWStart", 1005, 2, 0},
	[EV_STW_DONE] = {"GCSTWDone", 1005, 1, 0},
	[EV_SWEEP_START] = {"GCSweepStart", 1005, 2, 1},
	[EV_SWEEP_DONE] = {"GCSweepDone", 1005, 3, 0},
	[EV_GO_CREATE] = {"GoCreate", 1005, 4, 1},
	[EV_GO_START] = {"GoStart", 1005, 3, 0},
	[EV_GO_END] = {"GoEnd", 1005, 1, 0},
	[EV_GO_STOP] = {"GoStop", 1005, 2, 1},
	[EV_GO_SCHED] = {"GoSched", 1005, 2, 1},
	[EV_GO_PREEMPT] = {"GoPreempt", 1005, 2, 1},
	[EV_GO_SLEEP] = {"GoSleep", 1005, 2, 1},
	[EV_GO_BLOCK] = {"GoBlock", 1005, 2, 1},
	[EV_GO_UNBLOCK] = {"GoUnblock", 1005, 4, 1},
	[EV_GO_BLOCK_SEND] = {"GoBlockSend", 1005, 2, 1},
	[EV_GO_BLOCK_RECV] = {"GoBlockRecv", 1005, 2, 1},
	[EV_GO_BLOCK_SELECT] = {"GoBlockSelect", 1005, 2, 1},
	[EV_GO_BLOCK_SYNC] = {"GoBlockSync", 1005, 2, 1},
	[EV_GO_BLOCK_COND] = {"GoBlockCond", 1005, 2, 1},
	[EV_GO_BLOCK_NET] = {"GoBlockNet", 1005, 2, 1},
	[EV_GO_SYSCALL] = {"GoSysCall", 1005, 2, 1},
	[EV_GO_SYSEXIT] = {"GoSysExit", 1005, 4, 0},
	[EV_GO_SYSBLOCK] = {"GoSysBlock", 1005, 1, 0},
	[EV_GO_WAITING] = {"GoWaiting", 1005, 2, 0},
	[EV_GO_IN_SYSCALL] = {"GoInSyscall", 1005, 2, 0},
	[EV_HEAP_ALLOC] = {"HeapAlloc", 1005, 2, 0},
	[EV_HEAP_GOAL] = {"HeapGoal", 1005, 2, 0},
	[EV_TIMER_GOROUTINE] = {"TimerGoroutine", 1005, 1, 0},
	[EV_FUTILE_WAKEUP] = {"FutileWakeup", 1005, 1, 0},
	[EV_STRING] = {"String", 1007, 0, 0},
	[EV_GO_START_LOCAL] = {"GoStartLocal", 1007, 2, 0},
	[EV_GO_UNBLOCK_LOCAL] = {"GoUnblockLocal", 1007, 3, 1},
	[EV_GO_SYSEXIT_LOCAL] = {"GoSysExitLocal", 1007, 3, 0},
	[EV_GO_START_LABEL] = {"GoStartLabel", 1008, 4, 0},
	[EV_GO_BLOCK_GC] = {"GoBlockGC", 1008, 2, 1},
	[EV_ASSIST_START] = {"GCMarkAssistStart", 1009, 2, 1},
	[EV_ASSIST_DONE] = {"GCMarkAssistDone", 1009, 1, 0},
	[EV_TASK_CREATE] = {"UserTaskCreate", 1011, 5, 1},
	[EV_TASK_END] = {"UserTaskEnd", 1011, 3, 1},
	[EV_REGION] = {"UserRegion", 1011, 5, 1},
	[EV_LOG] = {"UserLog", 1011, 4, 1},
	[EV_CPU_SAMPLE] = {"CPUSample", 1019, 5, 1},
};

#define MAX_FRAMES 1000 /* the runtime's limit, and the parser's */
#define MAX_ARGS   (2 + 4 * MAX_FRAMES)
#define MAX_STRING 1000000

int pt_gotrace_version(const unsigned char *h, size_t len)
{
	int ver, i = 0;
	static const char tail[] = " trace\0\0\0\0";

	if (len < 16 || memcmp(h, "go ", 3) || h[3] < '1' || h[3] > '9' || h[4] != '.' ||
	    h[5] < '1' || h[5] > '9')
		return -1;
	ver = h[5] - '0';
	while (i < 2 && h[6 + i] >= '0' && h[6 + i] <= '9')
		ver = ver * 10 + (h[6 + i++] - '0');
	if (memcmp(h + 6 + i, tail, (size_t)(10 - i)))
		return -1;
	return (h[3] - '0') * 1000 + ver;
}

int pt_gotrace_native(int ver)
{
	/* the versions whose header Go 1.11 to 1.21 write (1.12-1.18 wrote "1.11", 1.20
	 * "1.19"): one event table, CPU samples from 1.19 on */
	return ver == 1011 || ver == 1019 || ver == 1021;
}

static int gotrace_detect(const unsigned char *h, size_t len)
{
	size_t i;

	if (pt_gotrace_version(h, len) > 0)
		return 100;
	/* "go 1.N" and garbage: ours, broken (the reader says where) */
	if (len >= 6 && !memcmp(h, "go 1.", 5) && h[5] >= '0' && h[5] <= '9') {
		for (i = 6; i < len && i < 9 && h[i] >= '0' && h[i] <= '9'; i++)
			;
		if (len >= i + 6 && !memcmp(h + i, " trace", 6))
			return 90;
	}
	return 0;
}

/* one event as the reader sees it */
struct ev {
	uint8_t type;
	uint64_t off; /* byte offset in the file */
	int64_t ticks;
	int64_t ts; /* nanoseconds since the first event, set when ordered */
	uint64_t g;
	uint64_t args[4]; /* after the timestamp, without the stack */
	uint64_t stk;
};

/* the events of one P: the byte ranges of its batches, decoded one event at a time */
struct pstream {
	uint32_t first_seg, cur_seg, last_seg;
	size_t pos, end;
	int64_t last_ticks;
	uint64_t last_g;
	int has_head;
	struct ev head;
	uint32_t next_waiter; /* waiting list of a goroutine; UINT32_MAX ends it */
	int in_heap;
};

struct seg {
	size_t start, end;
	int64_t ticks;
	uint32_t next; /* next segment of the same P, UINT32_MAX = none */
};

enum { G_DEAD, G_RUNNABLE, G_RUNNING, G_WAITING };

struct pending {
	uint8_t type; /* EV_NONE: none */
	int64_t ts;
	uint64_t stk;
};

/* a goroutine's time split as internal/trace's GoroutineStats makes it: the pending
 * times are 0 when none is pending (Go's sentinel, kept so that the numbers agree) */
struct gsplit {
	uint8_t created, named, ended, in_assist;
	uint64_t start_stk, name_stk;
	int64_t creation;
	int64_t v[PT_GOSPLIT_N];
	int64_t last_start, block_net, block_sync, block_syscall, block_sched, block_sweep;
	int64_t assist_start;
	/* the GC cycles ended while it lives, from the running sums (so that a GC's end
	 * costs nothing per goroutine): r->gc.sum and r->gc.done at its creation, and what
	 * the cycle running then had run before it (counted from the creation on) */
	int64_t gc_sum0, gc_adj;
	uint64_t gc_done0;
};

struct gst {
	uint64_t id;
	/* ordering (the sequence numbers the runtime writes) */
	uint64_t oseq;
	uint8_t ostatus;
	/* the state machine */
	uint8_t state;
	struct pending ev;
	int64_t last_sysblock; /* ticks, 0 = none */
	uint32_t waiters;      /* first pstream waiting for this goroutine */
	struct gsplit sp;
};

struct stack {
	size_t first; /* into frames: 4 values per frame (pc, fn, file, line) */
	uint32_t n;
	uint64_t off;
	int64_t v[PT_GOTRACE_NTYPES];
};

/* a phase of the runtime that runs alone, a GC cycle or a stop-the-world: Go's
 * postProcessTrace starts one only when none runs */
struct phase {
	int on;
	int64_t start;	  /* when the running one started (0: none runs) */
	int64_t sum, max; /* of the durations ended */
	uint64_t started, done;
};

struct rd {
	const unsigned char *b;
	size_t len, pos;
	int ver;
	struct pt_diag *d;
	uint64_t *args; /* MAX_ARGS */
	size_t nargs;
	const unsigned char *str; /* EV_STRING's bytes */
	size_t slen;

	struct pt_map strings;	/* string id -> profile string id */
	struct pt_map stack_ix; /* stack id -> index in stacks */
	struct stack *stacks;
	size_t nstacks, stacks_alloc;
	uint64_t *frames;
	size_t nframes, frames_alloc;
	struct pt_map p_ix; /* P id -> index in ps */
	struct pstream *ps;
	size_t nps, ps_alloc;
	struct seg *segs;
	size_t nsegs, segs_alloc;
	struct pt_map g_ix; /* goroutine id -> index in gs */
	struct gst *gs;
	size_t ngs, gs_alloc;
	uint32_t *heap;
	size_t nheap;
	int64_t freq, min_ticks;
	int have_min;
	double ns_per_tick;
	int64_t last_ticks, last_ts;
	uint64_t budget; /* waiting-list rechecks left (a crafted trace must not cost n^2) */
	struct pt_profile *p;

	/* the goroutine split (PT_READ_GOROUTINE_IDS) and the GC summary */
	int split;
	struct phase gc, stw;
	int64_t gc_ns;
};

static int truncated(struct rd *r, uint64_t off)
{
	return pt_diag_error_at(r->d, off, "truncated: the trace ends inside an event");
}

static int read_val(struct rd *r, uint64_t off, uint64_t *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 10; i++) {
		unsigned char c;
		if (r->pos >= r->len)
			return truncated(r, off);
		c = r->b[r->pos++];
		*v |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80))
			return 0;
	}
	return pt_diag_error_at(r->d, off, "bad varint in an event argument");
}

/* Decode the raw event at r->pos: type, arguments (r->args), its string if any. */
static int read_raw(struct rd *r, uint8_t *typep, uint64_t *offp)
{
	uint64_t off = r->pos, v, evlen, ln;
	unsigned char b;
	int type, narg;
	size_t start;

	b = r->b[r->pos++];
	type = b & 0x3f;
	narg = (b >> 6) + 1;
	*typep = (uint8_t)type;
	*offp = off;
	r->nargs = 0;
	if (type == EV_NONE || type >= EV_COUNT || descs[type].minver > r->ver)
		return pt_diag_error_at(r->d, off, "unknown event type %d", type);
	if (type == EV_STRING) {
		if (read_val(r, off, &r->args[0]) || read_val(r, off, &ln))
			return -1;
		if (!ln || ln > MAX_STRING)
			return pt_diag_error_at(r->d, off, "string has bad length %" PRIu64, ln);
		if (ln > r->len - r->pos)
			return pt_diag_error_at(r->d, off,
						"string length %" PRIu64 " runs past the end", ln);
		r->str = r->b + r->pos;
		r->slen = (size_t)ln;
		r->pos += (size_t)ln;
		return 0;
	}
	if (narg < 4) {
		while (narg--) {
			if (read_val(r, off, &r->args[r->nargs++]))
				return -1;
		}
	} else {
		if (read_val(r, off, &evlen))
			return -1;
		if (evlen > r->len - r->pos)
			return pt_diag_error_at(
				r->d, off, "event length %" PRIu64 " runs past the end", evlen);
		start = r->pos;
		while (evlen > r->pos - start) {
			if (r->nargs == MAX_ARGS)
				return pt_diag_error_at(r->d, off,
							"%s event has too many arguments",
							descs[type].name);
			if (read_val(r, off, &v))
				return -1;
			r->args[r->nargs++] = v;
		}
		if (evlen != r->pos - start)
			return pt_diag_error_at(r->d, off, "%s event has wrong length",
						descs[type].name);
	}
	if (type == EV_LOG) {
		if (read_val(r, off, &ln))
			return -1;
		if (ln > MAX_STRING || ln > r->len - r->pos)
			return pt_diag_error_at(
				r->d, off, "log message length %" PRIu64 " runs past the end", ln);
		r->pos += (size_t)ln;
	}
	if (type == EV_STACK) {
		if (r->nargs < 2 || r->args[1] > MAX_FRAMES || r->nargs != 2 + 4 * r->args[1])
			return pt_diag_error_at(r->d, off, "stack record has a bad frame count");
	} else if (r->nargs != (size_t)descs[type].nargs) {
		return pt_diag_error_at(r->d, off, "%s event has %zu arguments, not %d",
					descs[type].name, r->nargs, descs[type].nargs);
	}
	return 0;
}

static int timed(int type)
{
	return type != EV_BATCH && type != EV_FREQUENCY && type != EV_STACK && type != EV_STRING &&
	       type != EV_TIMER_GOROUTINE;
}

static uint32_t pstream_of(struct rd *r, uint64_t p)
{
	uint32_t *slot = pt_map_put(&r->p_ix, p);
	struct pstream *s;

	if (*slot != PT_MAP_NEW)
		return *slot;
	*slot = (uint32_t)r->nps;
	PT_ALLOC_GROW(r->ps, r->nps + 1, r->ps_alloc);
	s = &r->ps[r->nps++];
	memset(s, 0, sizeof(*s));
	s->first_seg = s->cur_seg = s->last_seg = UINT32_MAX;
	s->next_waiter = UINT32_MAX;
	return *slot;
}

static struct gst *g_of(struct rd *r, uint64_t id)
{
	uint32_t *slot = pt_map_put(&r->g_ix, id);
	struct gst *g;

	if (*slot == PT_MAP_NEW) {
		*slot = (uint32_t)r->ngs;
		PT_ALLOC_GROW(r->gs, r->ngs + 1, r->gs_alloc);
		g = &r->gs[r->ngs++];
		memset(g, 0, sizeof(*g));
		g->id = id;
		g->waiters = UINT32_MAX;
	}
	return &r->gs[*slot];
}

/* First pass: check every event, keep strings and stacks, find each P's batches and the
 * first timestamp. */
static int scan(struct rd *r)
{
	uint32_t cur = UINT32_MAX;
	int64_t last = 0;
	int have_freq = 0;

	r->pos = 16;
	while (r->pos < r->len) {
		uint8_t type;
		uint64_t off;
		int64_t t;

		if (read_raw(r, &type, &off))
			return -1;
		switch (type) {
		case EV_BATCH: {
			uint32_t pi = pstream_of(r, r->args[0]);
			struct pstream *s = &r->ps[pi];
			if (cur != UINT32_MAX)
				r->segs[cur].end = (size_t)off;
			PT_ALLOC_GROW(r->segs, r->nsegs + 1, r->segs_alloc);
			cur = (uint32_t)r->nsegs++;
			r->segs[cur].start = r->pos;
			r->segs[cur].end = r->len;
			r->segs[cur].ticks = (int64_t)r->args[1];
			r->segs[cur].next = UINT32_MAX;
			if (s->last_seg == UINT32_MAX)
				s->first_seg = cur;
			else
				r->segs[s->last_seg].next = cur;
			s->last_seg = cur;
			last = (int64_t)r->args[1];
			break;
		}
		case EV_FREQUENCY:
			if ((int64_t)r->args[0] <= 0)
				return pt_diag_error_at(r->d, off, "bad tick frequency %" PRId64,
							(int64_t)r->args[0]);
			r->freq = (int64_t)r->args[0];
			have_freq = 1;
			break;
		case EV_STRING: {
			uint32_t *slot;
			if (!r->args[0])
				return pt_diag_error_at(r->d, off, "string has id 0");
			slot = pt_map_put(&r->strings, r->args[0]);
			if (*slot != PT_MAP_NEW)
				return pt_diag_error_at(r->d, off,
							"string id %" PRIu64 " defined twice",
							r->args[0]);
			*slot = pt_strn(r->p, (const char *)r->str, r->slen);
			break;
		}
		case EV_STACK: {
			uint32_t n = (uint32_t)r->args[1], *slot;
			struct stack *st;
			if (!r->args[0] || !n)
				break;
			PT_ALLOC_GROW(r->stacks, r->nstacks + 1, r->stacks_alloc);
			PT_ALLOC_GROW(r->frames, r->nframes + 4 * (size_t)n, r->frames_alloc);
			st = &r->stacks[r->nstacks];
			memset(st, 0, sizeof(*st));
			st->first = r->nframes;
			st->n = n;
			st->off = off;
			memcpy(r->frames + r->nframes, r->args + 2,
			       4 * (size_t)n * sizeof(uint64_t));
			r->nframes += 4 * (size_t)n;
			slot = pt_map_put(&r->stack_ix, r->args[0]);
			*slot = (uint32_t)r->nstacks++; /* a later record of an id wins, as in Go */
			break;
		}
		case EV_TIMER_GOROUTINE:
			break;
		default:
			if (cur == UINT32_MAX)
				return pt_diag_error_at(r->d, off,
							"%s event before the first batch",
							descs[type].name);
			last = (int64_t)((uint64_t)last + r->args[0]);
			t = last;
			if (type == EV_CPU_SAMPLE)
				t = (int64_t)r->args[1];
			else if (type == EV_GO_SYSEXIT && r->args[3])
				t = (int64_t)r->args[3];
			if (!r->have_min || t < r->min_ticks)
				r->min_ticks = t;
			r->have_min = 1;
			break;
		}
	}
	if (!r->nsegs || !r->have_min)
		return pt_diag_error_at(r->d, 16, "trace is empty");
	if (!have_freq)
		return pt_diag_error_at(r->d, 16, "trace has no frequency event");
	r->ns_per_tick = 1e9 / (double)r->freq;
	return 0;
}

/* next event of P stream s into s->head (has_head 0 at its end) */
static int next_event(struct rd *r, struct pstream *s)
{
	s->has_head = 0;
	for (;;) {
		struct ev *e = &s->head;
		const struct evdesc *dsc;
		uint8_t type;
		uint64_t off;
		size_t i, na;

		if (s->cur_seg == UINT32_MAX || s->pos >= s->end) {
			uint32_t next =
				s->cur_seg == UINT32_MAX ? s->first_seg : r->segs[s->cur_seg].next;
			if (next == UINT32_MAX) {
				s->pos = s->end;
				return 0;
			}
			s->cur_seg = next;
			s->pos = r->segs[next].start;
			s->end = r->segs[next].end;
			s->last_ticks = r->segs[next].ticks;
			continue;
		}
		r->pos = s->pos;
		if (read_raw(r, &type, &off))
			return -1;
		s->pos = r->pos;
		if (!timed(type))
			continue;
		s->last_ticks = (int64_t)((uint64_t)s->last_ticks + r->args[0]);
		if (type == EV_CPU_SAMPLE)
			continue; /* not part of any profile here */
		dsc = &descs[type];
		memset(e, 0, sizeof(*e));
		e->type = type;
		e->off = off;
		e->ticks = s->last_ticks;
		e->g = s->last_g;
		na = r->nargs - 1 - (size_t)dsc->stack;
		for (i = 0; i < na && i < 4; i++)
			e->args[i] = r->args[1 + i];
		if (dsc->stack)
			e->stk = r->args[r->nargs - 1];
		switch (type) {
		case EV_GO_START:
		case EV_GO_START_LOCAL:
		case EV_GO_START_LABEL:
			s->last_g = e->args[0];
			e->g = s->last_g;
			break;
		case EV_STW_START:
			if (e->args[0] > 1)
				return pt_diag_error_at(r->d, off,
							"unknown stop-the-world kind %" PRIu64,
							e->args[0]);
			/* fall through */
		case EV_GC_START:
		case EV_GC_DONE:
		case EV_STW_DONE:
			e->g = 0;
			break;
		case EV_GO_END:
		case EV_GO_STOP:
		case EV_GO_SCHED:
		case EV_GO_PREEMPT:
		case EV_GO_SLEEP:
		case EV_GO_BLOCK:
		case EV_GO_BLOCK_SEND:
		case EV_GO_BLOCK_RECV:
		case EV_GO_BLOCK_SELECT:
		case EV_GO_BLOCK_SYNC:
		case EV_GO_BLOCK_COND:
		case EV_GO_BLOCK_NET:
		case EV_GO_SYSBLOCK:
		case EV_GO_BLOCK_GC:
			s->last_g = 0;
			break;
		case EV_GO_SYSEXIT:
		case EV_GO_SYSEXIT_LOCAL:
		case EV_GO_WAITING:
		case EV_GO_IN_SYSCALL:
			e->g = e->args[0];
			break;
		}
		if (dsc->stack && e->stk && pt_map_get(&r->stack_ix, e->stk) == UINT32_MAX)
			return pt_diag_error_at(r->d, off,
						"%s event names stack %" PRIu64
						", which the trace lacks",
						dsc->name, e->stk);
		if (type == EV_GO_CREATE && e->args[1] &&
		    pt_map_get(&r->stack_ix, e->args[1]) == UINT32_MAX)
			return pt_diag_error_at(r->d, off,
						"GoCreate event names stack %" PRIu64
						", which the trace lacks",
						e->args[1]);
		s->has_head = 1;
		return 0;
	}
}

/* the runtime's sequence rules (internal/trace's order.go) */
#define NOSEQ	    UINT64_MAX
#define SEQINC	    (UINT64_MAX - 1)
#define G_UNORDERED UINT64_MAX
#define G_GARBAGE   (UINT64_MAX - 1)

struct trans {
	uint64_t g, iseq, nseq;
	uint8_t istatus, nstatus;
};

static void transition_of(const struct ev *e, struct trans *t)
{
	t->g = G_UNORDERED;
	switch (e->type) {
	case EV_GO_CREATE:
		*t = (struct trans){e->args[0], 0, 1, G_DEAD, G_RUNNABLE};
		break;
	case EV_GO_WAITING:
	case EV_GO_IN_SYSCALL:
		*t = (struct trans){e->g, 1, 2, G_RUNNABLE, G_WAITING};
		break;
	case EV_GO_START:
	case EV_GO_START_LABEL:
		*t = (struct trans){e->g, e->args[1], e->args[1] + 1, G_RUNNABLE, G_RUNNING};
		break;
	case EV_GO_START_LOCAL:
		*t = (struct trans){e->g, NOSEQ, SEQINC, G_RUNNABLE, G_RUNNING};
		break;
	case EV_GO_BLOCK:
	case EV_GO_BLOCK_SEND:
	case EV_GO_BLOCK_RECV:
	case EV_GO_BLOCK_SELECT:
	case EV_GO_BLOCK_SYNC:
	case EV_GO_BLOCK_COND:
	case EV_GO_BLOCK_NET:
	case EV_GO_SLEEP:
	case EV_GO_SYSBLOCK:
	case EV_GO_BLOCK_GC:
		*t = (struct trans){e->g, NOSEQ, NOSEQ, G_RUNNING, G_WAITING};
		break;
	case EV_GO_SCHED:
	case EV_GO_PREEMPT:
		*t = (struct trans){e->g, NOSEQ, NOSEQ, G_RUNNING, G_RUNNABLE};
		break;
	case EV_GO_UNBLOCK:
	case EV_GO_SYSEXIT:
		*t = (struct trans){e->args[0], e->args[1], e->args[1] + 1, G_WAITING, G_RUNNABLE};
		break;
	case EV_GO_UNBLOCK_LOCAL:
	case EV_GO_SYSEXIT_LOCAL:
		*t = (struct trans){e->args[0], NOSEQ, SEQINC, G_WAITING, G_RUNNABLE};
		break;
	case EV_GC_START:
		*t = (struct trans){G_GARBAGE, e->args[0], e->args[0] + 1, G_DEAD, G_DEAD};
		break;
	}
}

static int ready(struct rd *r, const struct trans *t)
{
	uint32_t i;
	const struct gst *g;

	if (t->g == G_UNORDERED)
		return 1;
	i = pt_map_get(&r->g_ix, t->g);
	if (i == UINT32_MAX) /* never seen: seq 0, dead */
		return (t->iseq == NOSEQ || t->iseq == 0) && t->istatus == G_DEAD;
	g = &r->gs[i];
	return (t->iseq == NOSEQ || t->iseq == g->oseq) && t->istatus == g->ostatus;
}

/* the frontier: a min-heap of P streams by their head's ticks, then P order */
static int heap_less(const struct rd *r, uint32_t a, uint32_t b)
{
	const struct ev *x = &r->ps[a].head, *y = &r->ps[b].head;
	return x->ticks != y->ticks ? x->ticks < y->ticks : a < b;
}

static void heap_push(struct rd *r, uint32_t s)
{
	size_t i = r->nheap++;
	while (i) {
		size_t up = (i - 1) / 2;
		if (!heap_less(r, s, r->heap[up]))
			break;
		r->heap[i] = r->heap[up];
		i = up;
	}
	r->heap[i] = s;
}

static uint32_t heap_pop(struct rd *r)
{
	uint32_t top = r->heap[0], x = r->heap[--r->nheap];
	size_t i = 0, n = r->nheap;

	if (!n)
		return top;
	while (2 * i + 1 < n) {
		size_t c = 2 * i + 1;
		if (c + 1 < n && heap_less(r, r->heap[c + 1], r->heap[c]))
			c++;
		if (!heap_less(r, r->heap[c], x))
			break;
		r->heap[i] = r->heap[c];
		i = c;
	}
	r->heap[i] = x;
	return top;
}

/* put stream s's head on the frontier, or on the waiting list of its goroutine */
static void place(struct rd *r, uint32_t s)
{
	struct trans t;
	struct gst *g;

	if (!r->ps[s].has_head)
		return;
	transition_of(&r->ps[s].head, &t);
	if (ready(r, &t)) {
		heap_push(r, s);
		return;
	}
	g = g_of(r, t.g);
	r->ps[s].next_waiter = g->waiters;
	g->waiters = s;
}

static int wake(struct rd *r, uint64_t gid)
{
	uint32_t i = pt_map_get(&r->g_ix, gid), s;

	if (i == UINT32_MAX)
		return 0;
	s = r->gs[i].waiters;
	r->gs[i].waiters = UINT32_MAX;
	while (s != UINT32_MAX) {
		uint32_t next = r->ps[s].next_waiter;
		if (!r->budget--)
			return pt_diag_error_at(r->d, r->ps[s].head.off,
						"events too tangled to order (%zu processors)",
						r->nps);
		r->ps[s].next_waiter = UINT32_MAX;
		place(r, s); /* may put it back on the list */
		s = next;
	}
	return 0;
}

/* ticks to nanoseconds since the first event, in floating point as Go's parser does */
static int to_ns(struct rd *r, int64_t ticks, uint64_t off, int64_t *ns)
{
	double v = (double)(int64_t)((uint64_t)ticks - (uint64_t)r->min_ticks) * r->ns_per_tick;
	if (!(v > -9.2e18 && v < 9.2e18))
		return pt_diag_error_at(r->d, off, "timestamp out of range");
	*ns = (int64_t)v;
	return 0;
}

/* which profile a blocking event's delay goes to, -1 none */
static int kind_of(uint8_t type)
{
	switch (type) {
	case EV_GO_BLOCK_NET:
		return PT_GOTRACE_NET;
	case EV_GO_BLOCK_SEND:
	case EV_GO_BLOCK_RECV:
	case EV_GO_BLOCK_SELECT:
	case EV_GO_BLOCK_SYNC:
	case EV_GO_BLOCK_COND:
	case EV_GO_BLOCK_GC:
		return PT_GOTRACE_SYNC;
	case EV_GO_SYSCALL:
		return PT_GOTRACE_SYSCALL;
	case EV_GO_UNBLOCK:
	case EV_GO_CREATE:
		return PT_GOTRACE_SCHED;
	}
	return -1;
}

/* pe is linked to the event at ts that ended it: its delay goes to its stack */
static void link_ev(struct rd *r, struct pending *pe, int64_t ts)
{
	int k = kind_of(pe->type);
	uint32_t si;

	if (k >= 0 && pe->stk && ts - pe->ts > 0) {
		si = pt_map_get(&r->stack_ix, pe->stk);
		if (si != UINT32_MAX)
			r->stacks[si].v[k] = pt_add(r->stacks[si].v[k], ts - pe->ts);
	}
	pe->type = EV_NONE;
}

static int not_state(struct rd *r, const struct ev *e, uint64_t g, const char *want)
{
	return pt_diag_error_at(r->d, e->off, "goroutine %" PRIu64 " is not %s at its %s event", g,
				want, descs[e->type].name);
}

static int running(struct rd *r, const struct ev *e, struct gst *g, int allow_g0)
{
	if (g->state != G_RUNNING)
		return not_state(r, e, e->g, "running");
	if (!allow_g0 && !e->g)
		return pt_diag_error_at(r->d, e->off, "goroutine 0 has a %s event",
					descs[e->type].name);
	return 0;
}

static void set_pending(struct gst *g, const struct ev *e)
{
	g->ev.type = e->type;
	g->ev.ts = e->ts;
	g->ev.stk = e->stk;
}

/* the goroutine state machine (internal/trace's postProcessTrace), linking each blocking
 * event to the event that ended it */
static int process(struct rd *r, struct ev *e)
{
	struct gst *g = g_of(r, e->g), *g1;

	switch (e->type) {
	case EV_GO_WAITING:
	case EV_GO_IN_SYSCALL:
		if (g->state != G_RUNNABLE)
			return not_state(r, e, e->g, "runnable");
		g->state = G_WAITING;
		set_pending(g, e);
		break;
	case EV_GO_CREATE:
		if (running(r, e, g, 1))
			return -1;
		if (pt_map_get(&r->g_ix, e->args[0]) != UINT32_MAX &&
		    g_of(r, e->args[0])->state != G_DEAD)
			return pt_diag_error_at(r->d, e->off, "goroutine %" PRIu64 " created twice",
						e->args[0]);
		g1 = g_of(r, e->args[0]);
		g1->state = G_RUNNABLE;
		set_pending(g1, e);
		break;
	case EV_GO_START:
	case EV_GO_START_LABEL:
		if (g->state != G_RUNNABLE)
			return not_state(r, e, e->g, "runnable");
		g->state = G_RUNNING;
		link_ev(r, &g->ev, e->ts);
		break;
	case EV_GO_END:
	case EV_GO_STOP:
		if (running(r, e, g, 0))
			return -1;
		g->state = G_DEAD;
		break;
	case EV_GO_SCHED:
	case EV_GO_PREEMPT:
		if (running(r, e, g, 0))
			return -1;
		g->state = G_RUNNABLE;
		set_pending(g, e);
		break;
	case EV_GO_UNBLOCK:
		if (g->state != G_RUNNING)
			return not_state(r, e, e->g, "running");
		if (e->args[0] == e->g)
			return pt_diag_error_at(r->d, e->off,
						"goroutine %" PRIu64 " unblocks itself", e->g);
		g1 = g_of(r, e->args[0]);
		if (g1->state != G_WAITING)
			return not_state(r, e, e->args[0], "waiting");
		link_ev(r, &g1->ev, e->ts);
		g1->state = G_RUNNABLE;
		set_pending(g1, e);
		break;
	case EV_GO_SYSCALL:
		if (running(r, e, g, 0))
			return -1;
		set_pending(g, e);
		break;
	case EV_GO_SYSBLOCK:
		if (running(r, e, g, 0))
			return -1;
		g->state = G_WAITING;
		break;
	case EV_GO_SYSEXIT:
		if (g->state != G_WAITING)
			return not_state(r, e, e->g, "waiting");
		if (g->ev.type == EV_GO_SYSCALL)
			link_ev(r, &g->ev, e->ts);
		g->state = G_RUNNABLE;
		set_pending(g, e);
		break;
	case EV_GO_SLEEP:
	case EV_GO_BLOCK:
	case EV_GO_BLOCK_SEND:
	case EV_GO_BLOCK_RECV:
	case EV_GO_BLOCK_SELECT:
	case EV_GO_BLOCK_SYNC:
	case EV_GO_BLOCK_COND:
	case EV_GO_BLOCK_NET:
	case EV_GO_BLOCK_GC:
		if (running(r, e, g, 0))
			return -1;
		g->state = G_WAITING;
		set_pending(g, e);
		break;
	case EV_FUTILE_WAKEUP:
		/* no runtime since Go 1.5 writes it; removing futile wakeups would need
		 * the events after it */
		return pt_diag_error_at(r->d, e->off, "futile wakeup events are not supported");
	}
	return 0;
}

static void phase_add(struct phase *ph, int64_t d)
{
	ph->sum = pt_add(ph->sum, d);
	if (d > ph->max)
		ph->max = d;
}

static int phase_start(struct rd *r, struct phase *ph, const struct ev *e, const char *running)
{
	if (ph->on)
		return pt_diag_error_at(r->d, e->off, "%s", running);
	ph->on = 1;
	ph->start = e->ts;
	ph->started++;
	return 0;
}

static int phase_end(struct rd *r, struct phase *ph, const struct ev *e, const char *none)
{
	if (!ph->on)
		return pt_diag_error_at(r->d, e->off, "%s", none);
	ph->on = 0;
	phase_add(ph, e->ts - ph->start);
	ph->done++;
	ph->start = 0;
	return 0;
}

/* The GC summary and Go's pairing rules for GC cycles and stop-the-world phases
 * (internal/trace's postProcessTrace): a cycle or phase starts only when none runs. */
static int gc_event(struct rd *r, const struct ev *e)
{
	switch (e->type) {
	case EV_GC_START:
		return phase_start(r, &r->gc, e, "GC starts while a GC runs");
	case EV_GC_DONE:
		return phase_end(r, &r->gc, e, "GC ends but none runs");
	case EV_STW_START:
		return phase_start(r, &r->stw, e, "stop-the-world starts while one runs");
	case EV_STW_DONE:
		return phase_end(r, &r->stw, e, "stop-the-world ends but none runs");
	}
	return 0;
}

/* a pending time: v += now - since, if one is pending (since != 0) */
static void settle(int64_t *v, int64_t *since, int64_t now)
{
	if (*since) {
		*v = pt_add(*v, now - *since);
		*since = 0;
	}
}

/* the goroutine's pending times up to `now` (GoroutineStats' finalize, once at its end
 * event and once more at the end of the trace); ends it if `end` */
static void split_finalize(struct rd *r, struct gsplit *sp, int64_t now, int end)
{
	if (!sp->ended) { /* the GC cycles that ended while it lived */
		int64_t gc = pt_sub(r->gc.sum, sp->gc_sum0);
		if (sp->gc_adj && r->gc.done > sp->gc_done0)
			gc = pt_sub(gc, sp->gc_adj);
		sp->v[PT_GOSPLIT_GC] = pt_add(sp->v[PT_GOSPLIT_GC], gc);
	}
	if (r->gc.start) /* the one running now (Go's "GC active" is a start time != 0) */
		sp->v[PT_GOSPLIT_GC] =
			pt_add(sp->v[PT_GOSPLIT_GC],
			       now - (sp->creation < r->gc.start ? r->gc.start : sp->creation));
	if (!sp->v[PT_GOSPLIT_TOTAL])
		sp->v[PT_GOSPLIT_TOTAL] = now - sp->creation;
	settle(&sp->v[PT_GOSPLIT_EXEC], &sp->last_start, now);
	settle(&sp->v[PT_GOSPLIT_NET], &sp->block_net, now);
	settle(&sp->v[PT_GOSPLIT_SYNC], &sp->block_sync, now);
	settle(&sp->v[PT_GOSPLIT_SYSCALL], &sp->block_syscall, now);
	settle(&sp->v[PT_GOSPLIT_SCHED], &sp->block_sched, now);
	settle(&sp->v[PT_GOSPLIT_SWEEP], &sp->block_sweep, now);
	if (end)
		sp->ended = 1;
}

/* the goroutine an event's split is about, NULL if the trace did not create it */
static struct gsplit *split_of(struct rd *r, uint64_t g)
{
	uint32_t i = pt_map_get(&r->g_ix, g);
	return i != UINT32_MAX && r->gs[i].sp.created ? &r->gs[i].sp : NULL;
}

/* stops running: its execution time so far (Go adds now - 0 when no start is known) */
static void stop_running(struct gsplit *sp, int64_t now)
{
	sp->v[PT_GOSPLIT_EXEC] = pt_add(sp->v[PT_GOSPLIT_EXEC], now - sp->last_start);
	sp->last_start = 0;
}

static void split_create(struct rd *r, const struct ev *e)
{
	struct gsplit *sp = &g_of(r, e->args[0])->sp;

	memset(sp, 0, sizeof(*sp));
	sp->created = 1;
	sp->creation = e->ts;
	sp->start_stk = e->args[1];
	sp->block_sched = e->ts;
	sp->gc_sum0 = r->gc.sum;
	sp->gc_done0 = r->gc.done;
	if (r->gc.on && r->gc.start < e->ts)
		sp->gc_adj = e->ts - r->gc.start;
}

/* one event into the split of its goroutines (internal/trace's GoroutineStats) */
static void split_event(struct rd *r, const struct ev *e)
{
	struct gsplit *sp = split_of(r, e->type == EV_GO_UNBLOCK ? e->args[0] : e->g);
	int64_t ts = e->ts;

	if (e->type == EV_GO_CREATE) {
		split_create(r, e);
		return;
	}
	if (!sp)
		return;
	switch (e->type) {
	case EV_GO_START:
	case EV_GO_START_LABEL:
		if (!sp->named) {
			sp->named = 1;
			sp->name_stk = sp->start_stk;
		}
		sp->last_start = ts;
		settle(&sp->v[PT_GOSPLIT_SCHED], &sp->block_sched, ts);
		break;
	case EV_GO_END:
	case EV_GO_STOP:
		split_finalize(r, sp, ts, 1);
		break;
	case EV_GO_BLOCK_SEND:
	case EV_GO_BLOCK_RECV:
	case EV_GO_BLOCK_SELECT:
	case EV_GO_BLOCK_SYNC:
	case EV_GO_BLOCK_COND:
		stop_running(sp, ts);
		sp->block_sync = ts;
		break;
	case EV_GO_SCHED:
	case EV_GO_PREEMPT:
		stop_running(sp, ts);
		sp->block_sched = ts;
		break;
	case EV_GO_SLEEP:
	case EV_GO_BLOCK:
	case EV_GO_BLOCK_GC:
		stop_running(sp, ts);
		break;
	case EV_GO_BLOCK_NET:
		stop_running(sp, ts);
		sp->block_net = ts;
		break;
	case EV_GO_SYSBLOCK:
		stop_running(sp, ts);
		sp->block_syscall = ts;
		break;
	case EV_GO_UNBLOCK:
		settle(&sp->v[PT_GOSPLIT_NET], &sp->block_net, ts);
		settle(&sp->v[PT_GOSPLIT_SYNC], &sp->block_sync, ts);
		sp->block_sched = ts;
		break;
	case EV_GO_SYSEXIT:
		settle(&sp->v[PT_GOSPLIT_SYSCALL], &sp->block_syscall, ts);
		sp->block_sched = ts;
		break;
	case EV_SWEEP_START:
		sp->block_sweep = ts;
		break;
	case EV_SWEEP_DONE:
		settle(&sp->v[PT_GOSPLIT_SWEEP], &sp->block_sweep, ts);
		break;
	case EV_ASSIST_START:
		sp->in_assist = 1;
		sp->assist_start = ts;
		break;
	case EV_ASSIST_DONE:
		if (sp->in_assist)
			sp->v[PT_GOSPLIT_ASSIST] =
				pt_add(sp->v[PT_GOSPLIT_ASSIST], ts - sp->assist_start);
		sp->in_assist = 0;
		break;
	}
}

/* Second pass: the events of all Ps merged in the order the runtime's sequence numbers
 * and timestamps give (internal/trace's order1007), each run through the state machine. */
static int merge(struct rd *r)
{
	size_t i;
	int first = 1;

	r->heap = pt_xmalloc((r->nps + 1) * sizeof(*r->heap));
	r->budget = 64 * (uint64_t)r->len + 1024;
	for (i = 0; i < r->nps; i++) {
		if (next_event(r, &r->ps[i]))
			return -1;
		place(r, (uint32_t)i);
	}
	while (r->nheap) {
		uint32_t si = heap_pop(r);
		struct pstream *s = &r->ps[si];
		struct ev *e = &s->head;
		struct trans t;
		struct gst *g;

		transition_of(e, &t);
		if (!ready(r, &t))
			return pt_diag_error_at(r->d, e->off, "no consistent order of events");
		if (t.g != G_UNORDERED) {
			g = g_of(r, t.g);
			if (t.nseq == NOSEQ)
				t.nseq = g->oseq;
			else if (t.nseq == SEQINC)
				t.nseq = g->oseq + 1;
			g->oseq = t.nseq;
			g->ostatus = t.nstatus;
		}
		switch (e->type) {
		case EV_GO_START_LOCAL:
			e->type = EV_GO_START;
			break;
		case EV_GO_UNBLOCK_LOCAL:
			e->type = EV_GO_UNBLOCK;
			break;
		case EV_GO_SYSEXIT_LOCAL:
			e->type = EV_GO_SYSEXIT;
			e->args[2] = 0; /* Go reads the real time of a local exit from here */
			break;
		}
		if (!first && e->ticks < r->last_ticks)
			return pt_diag_error_at(r->d, e->off, "time stamps out of order");
		first = 0;
		r->last_ticks = e->ticks;
		g = g_of(r, e->g);
		if (e->type == EV_GO_SYSBLOCK || e->type == EV_GO_IN_SYSCALL) {
			g->last_sysblock = e->ticks;
		} else if (e->type == EV_GO_SYSEXIT && e->args[2]) {
			/* the time the syscall really returned */
			if (!g->last_sysblock)
				return pt_diag_error_at(r->d, e->off, "stray syscall exit");
			if ((int64_t)e->args[2] < g->last_sysblock)
				return pt_diag_error_at(r->d, e->off, "time stamps out of order");
			e->ticks = (int64_t)e->args[2];
		}
		if (to_ns(r, e->ticks, e->off, &e->ts))
			return -1;
		if (e->ts > r->last_ts)
			r->last_ts = e->ts;
		if (process(r, e) || gc_event(r, e))
			return -1;
		if (r->split)
			split_event(r, e);
		if (next_event(r, s))
			return -1;
		place(r, si);
		if (t.g != G_UNORDERED && wake(r, t.g))
			return -1;
	}
	for (i = 0; i < r->nps; i++)
		if (r->ps[i].has_head)
			return pt_diag_error_at(r->d, r->ps[i].head.off,
						"no consistent order of events");
	return 0;
}

/* a string of the trace, or an error naming the stack that wants it */
static int string_of(struct rd *r, uint64_t sid, const struct stack *st, uint32_t *out)
{
	uint32_t v;
	if (!sid) {
		*out = 0;
		return 0;
	}
	v = pt_map_get(&r->strings, sid);
	if (v == UINT32_MAX)
		return pt_diag_error_at(r->d, st->off,
					"stack names string %" PRIu64 ", which the trace lacks",
					sid);
	*out = v;
	return 0;
}

static int emit(struct rd *r, const struct pt_read_opts *o)
{
	struct pt_profile *p = r->p;
	uint32_t *frames = NULL, *idx = NULL;
	size_t i, j, k, n = 0, nf = 0;
	int ret = -1;

	/* every frame first (a sink may want them all before the first stack) */
	idx = pt_xmalloc((r->nstacks + 1) * sizeof(*idx));
	frames = pt_xmalloc((r->nframes / 4 + 1) * sizeof(*frames));
	for (i = 0; i < r->nstacks; i++) {
		struct stack *st = &r->stacks[i];
		int used = 0;
		for (k = 0; k < PT_GOTRACE_NTYPES; k++)
			used |= st->v[k] != 0;
		if (!used)
			continue;
		idx[n++] = (uint32_t)i;
		for (j = 0; j < st->n; j++) {
			const uint64_t *f = r->frames + st->first + 4 * j;
			struct pt_frame fr;
			uint32_t name = 0, file = 0;
			if (string_of(r, f[1], st, &name) || string_of(r, f[2], st, &file))
				goto out;
			memset(&fr, 0, sizeof(fr));
			fr.func = pt_profile_func(p, name, name, file, 0);
			fr.line = (int64_t)f[3];
			fr.addr = f[0];
			frames[nf++] = pt_profile_frame(p, &fr);
		}
	}
	pt_sink_frames_complete(o->sink, p);
	for (i = 0, nf = 0; i < n; i++) {
		struct stack *st = &r->stacks[idx[i]];
		pt_sink_sample(o->sink, p, frames + nf, st->n, 1, 0, st->v, 0);
		nf += st->n;
	}
	ret = 0;
out:
	free(frames);
	free(idx);
	return ret;
}

static void meta_num(struct pt_profile *p, const char *key, int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	pt_profile_add_meta(p, key, buf);
}

/* the frame a goroutine's row stands on: where it started, as go tool trace names it */
static int split_frame(struct rd *r, const struct gsplit *sp, uint32_t *out)
{
	struct pt_profile *p = r->p;
	uint32_t si =
		sp->named && sp->name_stk ? pt_map_get(&r->stack_ix, sp->name_stk) : UINT32_MAX;
	const struct stack *st;
	const uint64_t *f;
	struct pt_frame fr;
	uint32_t name = 0, file = 0;

	if (si == UINT32_MAX) {
		*out = pt_profile_simple_frame(p, PT_GOSPLIT_NEVER_RAN,
					       strlen(PT_GOSPLIT_NEVER_RAN), 0, 0,
					       PT_FRAME_SYNTHETIC);
		return 0;
	}
	st = &r->stacks[si];
	f = r->frames + st->first;
	if (string_of(r, f[1], st, &name) || string_of(r, f[2], st, &file))
		return -1;
	memset(&fr, 0, sizeof(fr));
	fr.func = pt_profile_func(p, name, name, file, 0);
	fr.line = (int64_t)f[3];
	fr.addr = f[0];
	*out = pt_profile_frame(p, &fr);
	return 0;
}

/* the goroutine split: one row per goroutine the trace created, and the GC summary */
static int emit_split(struct rd *r, const struct pt_read_opts *o)
{
	struct pt_profile *p = r->p;
	uint32_t *frames = pt_xmalloc((r->ngs + 1) * sizeof(*frames));
	struct pt_label l;
	size_t i;
	int ret = -1;

	memset(&l, 0, sizeof(l));
	l.key = pt_str(p, "goroutine");
	for (i = 0; i < r->ngs; i++) {
		struct gsplit *sp = &r->gs[i].sp;
		if (!sp->created)
			continue;
		split_finalize(r, sp, r->last_ts, 0);
		if (split_frame(r, sp, &frames[i]))
			goto out;
	}
	pt_sink_frames_complete(o->sink, p);
	for (i = 0; i < r->ngs; i++) {
		if (!r->gs[i].sp.created)
			continue;
		l.num = (int64_t)r->gs[i].id;
		pt_sink_sample(o->sink, p, &frames[i], 1, 1, pt_profile_labelset(p, &l, 1),
			       r->gs[i].sp.v, 0);
	}
	if (r->gc.on)
		r->gc_ns = pt_add(r->gc.sum, r->last_ts - r->gc.start);
	else
		r->gc_ns = r->gc.sum;
	if (r->stw.on)
		phase_add(&r->stw, r->last_ts - r->stw.start);
	pt_profile_add_meta(p, PT_GOSPLIT_META_MARK, "1");
	meta_num(p, PT_GOSPLIT_META_GC, (int64_t)r->gc.started);
	meta_num(p, PT_GOSPLIT_META_GC_NS, r->gc_ns);
	meta_num(p, PT_GOSPLIT_META_STW, (int64_t)r->stw.started);
	meta_num(p, PT_GOSPLIT_META_STW_NS, r->stw.sum);
	meta_num(p, PT_GOSPLIT_META_STW_MAX, r->stw.max);
	ret = 0;
out:
	free(frames);
	return ret;
}

int pt_gotrace_unknown(struct pt_diag *d, int ver)
{
	return pt_diag_error_at(d, 0,
				"Go %d.%d trace: proftool reads the traces of Go 1.11 to 1.21 "
				"itself; run 'go tool trace -pprof=TYPE %s' for TYPE net, sync, "
				"syscall and sched, or put go on PATH",
				ver / 1000, ver % 1000, d->path ? d->path : "FILE");
}

/* a trace the reader does not read itself, through the command's go tool trace adapter */
static int via_go(const unsigned char *data, size_t len, int ver, struct pt_profile *p,
		  const struct pt_read_opts *o, struct pt_diag *d)
{
	static const char *const names[PT_GOTRACE_NTYPES] = {"net", "sync", "syscall", "sched"};
	char vbuf[32];
	size_t i;
	int ret;

	if (o->flags & PT_READ_GOROUTINE_IDS)
		return pt_diag_error_at(d, 0,
					"Go %d.%d trace: the goroutine analysis needs a trace "
					"proftool reads itself (Go 1.11 to 1.21)%s",
					ver / 1000, ver % 1000,
					pt_gotrace_native(ver) ? "; drop --via-go" : "");
	if (!o->via_go)
		return pt_gotrace_unknown(d, ver);
	for (i = 0; i < PT_GOTRACE_NTYPES; i++)
		pt_profile_add_type(p, names[i], "nanoseconds");
	p->default_type = PT_GOTRACE_SYNC;
	snprintf(vbuf, sizeof(vbuf), "%d.%d", ver / 1000, ver % 1000);
	pt_profile_add_meta(p, "go_trace_version", vbuf);
	ret = o->via_go(data, len, ver, p, o, d);
	if (ret == 1)
		ret = (o->flags & PT_READ_VIA_GO)
			      ? pt_diag_error_at(d, 0, "--via-go: no go command on PATH")
			      : pt_gotrace_unknown(d, ver);
	return ret;
}

static int gotrace_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			struct pt_diag *d)
{
	static const char *const names[PT_GOTRACE_NTYPES] = {"net", "sync", "syscall", "sched"};
	static const char *const split_names[PT_GOSPLIT_N] = PT_GOSPLIT_NAMES;
	struct rd r;
	unsigned char *data = NULL;
	size_t len = 0, i;
	char vbuf[32];
	int ret = -1;

	memset(&r, 0, sizeof(r));
	if (pt_input_slurp(in, &data, &len))
		return -1;
	r.b = data;
	r.len = len;
	r.d = d;
	r.p = p;
	r.ver = pt_gotrace_version(data, len);
	if (r.ver < 0) {
		ret = pt_diag_error_at(d, 0,
				       "bad Go trace header (want \"go 1.N trace\" and "
				       "four NUL bytes)");
		free(data);
		return ret;
	}
	if (!pt_gotrace_native(r.ver) || (o->flags & PT_READ_VIA_GO)) {
		ret = via_go(data, len, r.ver, p, o, d);
		free(data);
		return ret;
	}
	pt_map_init(&r.strings);
	pt_map_init(&r.stack_ix);
	pt_map_init(&r.p_ix);
	pt_map_init(&r.g_ix);
	r.args = pt_xmalloc(MAX_ARGS * sizeof(*r.args));
	r.split = (o->flags & PT_READ_GOROUTINE_IDS) != 0;
	if (r.split) {
		for (i = 0; i < PT_GOSPLIT_N; i++)
			pt_profile_add_type(p, split_names[i], "nanoseconds");
		p->default_type = PT_GOSPLIT_EXEC;
	} else {
		for (i = 0; i < PT_GOTRACE_NTYPES; i++)
			pt_profile_add_type(p, names[i], "nanoseconds");
		p->default_type = PT_GOTRACE_SYNC;
	}
	snprintf(vbuf, sizeof(vbuf), "%d.%d", r.ver / 1000, r.ver % 1000);
	pt_profile_add_meta(p, "go_trace_version", vbuf);
	/* goroutine 0 (the runtime itself) runs from the start */
	g_of(&r, 0)->state = G_RUNNING;
	if (scan(&r) || merge(&r) || (r.split ? emit_split(&r, o) : emit(&r, o)))
		goto out;
	p->duration_nanos = r.last_ts;
	ret = 0;
out:
	pt_map_release(&r.strings);
	pt_map_release(&r.stack_ix);
	pt_map_release(&r.p_ix);
	pt_map_release(&r.g_ix);
	free(r.args);
	free(r.stacks);
	free(r.frames);
	free(r.ps);
	free(r.segs);
	free(r.gs);
	free(r.heap);
	free(data);
	return ret;
}

static const char *const gotrace_suffixes[] = {NULL};

const struct pt_format pt_format_gotrace = {
	.name = "gotrace",
	.description = "Go execution trace (runtime/trace, /debug/pprof/trace)",
	.suffixes = gotrace_suffixes,
	.detect = gotrace_detect,
	.read = gotrace_read,
};
