/* speedscope.c: speedscope's JSON file format (https://www.speedscope.app), read and
 * written. The reader takes every profile of a file, sampled or evented, as a thread.
 * The writer: one shared frame table (deduplicated by name, file, line, column); "sampled" profiles
 * whose samples are root-first frame index lists with a weight each. With a timeline the
 * samples are the events in time order (speedscope's Time Order view); without, one
 * sample per stack. One profile per thread or process where the samples carry those
 * labels, times one per sample type with --sample-index all. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>

#include "util/buf.h"
#include "formats/format.h"
#include "formats/v8json.h"
#include "util/intern.h"
#include "util/json.h"
#include "util/map.h"
#include "core/units.h"
#include "util/xalloc.h"

/* speedscope walks its call tree recursively and fails ("Maximum call stack size
 * exceeded") somewhere near 4000 frames in Chromium: deeper stacks keep their DEPTH_HEAD
 * rootmost and DEPTH_TAIL leafmost frames around one marker frame. */
#define DEPTH_HEAD  1000
#define DEPTH_TAIL  999
#define ELIDED_NAME "(frames elided: stack deeper than 2000)"

struct group {
	uint32_t labels; /* the first label set seen for it: gives the name */
	int64_t pid, tid;
	uint32_t comm, thread; /* string ids, 0 if none */
};

/* The document is written by hand into `out` (flushed in chunks): yajl's generator costs
 * a call and a printf per number, and the samples are millions of numbers. Strings still
 * go through yajl (`str`, a generator that writes into `out`) so that they are escaped
 * exactly as before. */
struct ss {
	const struct pt_profile *p;
	FILE *fp;
	struct pt_buf out;
	yajl_gen str;
	uint32_t *sframe;      /* profile frame id -> shared frame index */
	uint32_t elided;       /* shared index of the marker frame, UINT32_MAX if none */
	uint32_t *group_of_ls; /* label set id -> group */
	uint32_t *row_depth;   /* sample row -> depth of its node (read once: cache misses) */
	struct group *groups;
	size_t ngroups, groups_alloc;
	/* the samples (event indices, or rows without a timeline) of each group, in order:
	 * group g's are order[gstart[g] .. gstart[g + 1]), so writing a group's profile
	 * costs its own samples, not all of them */
	size_t *gstart;
	uint32_t *order;
	uint32_t *stack; /* scratch: one root-first stack */
	size_t stack_alloc;
	/* Consecutive samples share long prefixes: the text of the last stack written,
	 * "[i,j,k," with the node and the text offset at each depth, is kept so that the
	 * next stack only walks up and prints where it differs. */
	char *digits;	  /* "N," per shared frame, 12 bytes apart; its length in dlen */
	uint8_t *dlen;	  /* per shared frame */
	uint32_t *pnodes; /* the last stack's nodes, root first */
	size_t *poff;	  /* offset in line of the entry at each depth, and one past */
	size_t pdepth, palloc;
	struct pt_buf line;
	struct pt_buf b;
};

/* a JSON string of n bytes: invalid UTF-8 as U+FFFD, then yajl's escaping */
static void ss_strn(struct ss *s, const char *str, size_t n)
{
	pt_yajl()->gen_reset(s->str, NULL);
	pt_json_strn(s->str, str, n);
}

static void ss_str(struct ss *s, const char *str)
{
	ss_strn(s, str, strlen(str));
}

static void ss_sid(struct ss *s, uint32_t id)
{
	ss_strn(s, pt_s(s->p, id), pt_intern_len(&s->p->strings, id));
}

/* `"key":`, preceded by a comma unless it opens an object */
static void ss_key(struct ss *s, const char *k, int first)
{
	if (!first)
		pt_buf_addch(&s->out, ',');
	ss_str(s, k);
	pt_buf_addch(&s->out, ':');
}

static const char *ss_unit(const struct pt_profile *p, uint32_t t)
{
	static const char *const units[] = {"nanoseconds", "microseconds", "milliseconds",
					    "seconds",	   "bytes",	   NULL};
	const char *u = pt_s(p, p->types[t].unit);
	size_t i;
	for (i = 0; units[i]; i++)
		if (!strcmp(u, units[i]))
			return units[i];
	return "none";
}

/* the shared frame table: frames that print alike (name, file, line, col) share one */
static uint32_t shared_frames(struct ss *s)
{
	const struct pt_profile *p = s->p;
	struct pt_buf *o = &s->out;
	struct pt_arena arena;
	struct pt_intern keys;
	uint32_t f, n = 0;

	pt_arena_init(&arena);
	pt_intern_init(&keys, &arena);
	s->sframe = pt_xcalloc((size_t)p->nframes + 1, sizeof(uint32_t));
	ss_key(s, "frames", 1);
	pt_buf_addch(o, '[');
	for (f = 1; f < p->nframes; f++) {
		const struct pt_frame *fr = &p->frames[f];
		const struct pt_func *fn = &p->funcs[fr->func];
		uint32_t k[4] = {fn->name, fn->file, (uint32_t)fr->line, (uint32_t)fr->column};
		uint32_t id = pt_intern(&keys, k, sizeof(k)) - 1; /* id 0 is "" */
		s->sframe[f] = id;
		if (id < n)
			continue;
		if (n++)
			pt_buf_addch(o, ',');
		pt_buf_addch(o, '{');
		ss_key(s, "name", 1);
		if (fn->name)
			ss_sid(s, fn->name);
		else
			ss_str(s, "(unknown)");
		if (fn->file) {
			ss_key(s, "file", 0);
			ss_sid(s, fn->file);
		}
		if (fr->line > 0) {
			ss_key(s, "line", 0);
			pt_buf_add_i64(o, fr->line);
		}
		if (fr->column > 0) {
			ss_key(s, "col", 0);
			pt_buf_add_i64(o, fr->column);
		}
		pt_buf_addch(o, '}');
		pt_buf_write_out(&s->out, s->fp, PT_BUF_BLOCK);
	}
	s->elided = UINT32_MAX;
	for (f = 1; f < p->nnodes; f++)
		if (p->nodes[f].depth > DEPTH_HEAD + DEPTH_TAIL + 1) {
			if (n)
				pt_buf_addch(o, ',');
			s->elided = n++;
			pt_buf_addch(o, '{');
			ss_key(s, "name", 1);
			ss_str(s, ELIDED_NAME);
			pt_buf_addch(o, '}');
			break;
		}
	pt_buf_addch(o, ']');
	pt_intern_release(&keys);
	pt_arena_release(&arena);
	/* every index as text once, for the samples */
	s->digits = pt_xmalloc(((size_t)n + 1) * 12);
	s->dlen = pt_xmalloc((size_t)n + 1);
	for (f = 0; f < n; f++) {
		char *d = s->digits + (size_t)f * 12;
		size_t len = pt_fmt_u64(d, f);
		d[len] = ',';
		s->dlen[f] = (uint8_t)(len + 1);
	}
	return n;
}

/* threads/processes: a group per distinct (pid, tid, comm, thread) of the label sets */
static void find_groups(struct ss *s)
{
	const struct pt_profile *p = s->p;
	uint32_t kpid = pt_intern_find(&p->strings, PT_LABEL_PID, strlen(PT_LABEL_PID));
	uint32_t ktid = pt_intern_find(&p->strings, PT_LABEL_TID, strlen(PT_LABEL_TID));
	uint32_t kcomm = pt_intern_find(&p->strings, PT_LABEL_COMM, strlen(PT_LABEL_COMM));
	uint32_t kthr = pt_intern_find(&p->strings, PT_LABEL_THREAD, strlen(PT_LABEL_THREAD));
	uint32_t ls, i;
	size_t gi;
	struct pt_arena arena;
	struct pt_intern keys; /* (pid, tid, comm, thread) -> group */

	pt_arena_init(&arena);
	pt_intern_init(&keys, &arena);
	s->group_of_ls = pt_xcalloc((size_t)p->nlabelsets + 1, sizeof(uint32_t));
	PT_ALLOC_GROW(s->groups, 1, s->groups_alloc);
	memset(&s->groups[0], 0, sizeof(s->groups[0]));
	s->groups[0].pid = s->groups[0].tid = -1;
	s->ngroups = 1; /* group 0: samples without thread labels */
	for (ls = 1; ls < p->nlabelsets; ls++) {
		struct group g;
		const struct pt_labelset *l = &p->labelsets[ls];
		memset(&g, 0, sizeof(g));
		g.pid = g.tid = -1;
		g.labels = ls;
		for (i = 0; i < l->n; i++) {
			const struct pt_label *lb = &l->v[i];
			if (lb->key == kpid)
				g.pid = lb->num;
			else if (lb->key == ktid)
				g.tid = lb->num;
			else if (lb->key == kcomm)
				g.comm = lb->str;
			else if (lb->key == kthr)
				g.thread = lb->str;
		}
		if (g.pid < 0 && g.tid < 0 && !g.comm && !g.thread) {
			gi = 0;
		} else {
			int64_t k[4] = {g.pid, g.tid, (int64_t)g.comm, (int64_t)g.thread};
			/* ids count up from 1 (0 is ""); group 0 has no key */
			gi = pt_intern(&keys, k, sizeof(k));
		}
		if (gi == s->ngroups) {
			PT_ALLOC_GROW(s->groups, s->ngroups + 1, s->groups_alloc);
			s->groups[s->ngroups++] = g;
		}
		s->group_of_ls[ls] = (uint32_t)gi;
	}
	pt_intern_release(&keys);
	pt_arena_release(&arena);
}

/* each group's samples in order (a counting sort by group) */
static void sort_groups(struct ss *s)
{
	const struct pt_profile *p = s->p;
	size_t n = p->nevents ? p->nevents : p->nsamples, i, g;
	size_t *at;

	s->gstart = pt_xcalloc(s->ngroups + 1, sizeof(size_t));
	s->order = pt_xmalloc((n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		uint32_t row = p->nevents ? p->events[i].sample : (uint32_t)i;
		s->gstart[s->group_of_ls[p->samples[row].labels] + 1]++;
	}
	for (g = 0; g < s->ngroups; g++)
		s->gstart[g + 1] += s->gstart[g];
	at = pt_xmalloc((s->ngroups + 1) * sizeof(size_t));
	memcpy(at, s->gstart, (s->ngroups + 1) * sizeof(size_t));
	for (i = 0; i < n; i++) {
		uint32_t row = p->nevents ? p->events[i].sample : (uint32_t)i;
		s->order[at[s->group_of_ls[p->samples[row].labels]]++] = (uint32_t)i;
	}
	free(at);
}

static void group_name(struct ss *s, const struct group *g, uint32_t t, int with_type)
{
	const struct pt_profile *p = s->p;
	struct pt_buf *b = &s->b;

	pt_buf_reset(b);
	if (g->thread)
		pt_buf_add(b, pt_s(p, g->thread), pt_intern_len(&p->strings, g->thread));
	else if (g->comm)
		pt_buf_add(b, pt_s(p, g->comm), pt_intern_len(&p->strings, g->comm));
	if (g->pid >= 0)
		pt_buf_addf(b, "%spid %" PRId64, b->len ? " " : "", g->pid);
	if (g->tid >= 0 && g->tid != g->pid)
		pt_buf_addf(b, "%stid %" PRId64, b->len ? " " : "", g->tid);
	if (with_type || !b->len) {
		if (b->len)
			pt_buf_addstr(b, " - ");
		pt_buf_add(b, pt_s(p, p->types[t].name),
			   pt_intern_len(&p->strings, p->types[t].name));
	}
}

/* root-first shared frame indices of node n into s->stack; returns the depth */
static size_t node_stack(struct ss *s, uint32_t n)
{
	const struct pt_profile *p = s->p;
	size_t depth = p->nodes[n].depth, i = depth;
	PT_ALLOC_GROW(s->stack, depth + 1, s->stack_alloc);
	while (n && i) {
		s->stack[--i] = s->sframe[p->nodes[n].frame];
		n = p->nodes[n].parent;
	}
	return depth;
}

static void weight(struct pt_buf *b, int64_t v, uint32_t decimals)
{
	if (decimals)
		pt_buf_add_raw(b, v, decimals);
	else
		pt_buf_add_i64(b, v);
}

/* "[i,j,k]" for a stack deeper than speedscope takes: the middle as the marker frame */
static void write_elided_stack(struct ss *s, uint32_t node, size_t depth)
{
	struct pt_buf *o = &s->out;
	size_t k;

	node_stack(s, node);
	pt_buf_addch(o, '[');
	for (k = 0; k < depth; k++) {
		if (k == DEPTH_HEAD) {
			pt_buf_add_u64(o, s->elided);
			pt_buf_addch(o, ',');
			k = depth - DEPTH_TAIL;
		}
		pt_buf_add_u64(o, s->stack[k]);
		pt_buf_addch(o, k + 1 < depth ? ',' : ']');
	}
	s->pdepth = 0; /* the kept stack does not match the line any more */
}

/* "[i,j,k]": the shared frame indices of a stack (depth >= 1), root first */
static void write_stack(struct ss *s, uint32_t node, size_t depth)
{
	const struct pt_profile *p = s->p;
	size_t i = depth, k;
	uint32_t n = node;

	if (depth > DEPTH_HEAD + DEPTH_TAIL + 1) {
		write_elided_stack(s, node, depth);
		return;
	}
	if (depth + 1 > s->palloc) {
		size_t want = s->palloc;
		PT_ALLOC_GROW(s->pnodes, depth + 1, want);
		s->poff = pt_xreallocarray(s->poff, want, sizeof(*s->poff));
		s->palloc = want;
	}
	/* up to the deepest node the last stack shares (the node at depth i is pnodes[i-1]) */
	while (i > 0 && !(i <= s->pdepth && s->pnodes[i - 1] == n)) {
		s->pnodes[--i] = n;
		n = p->nodes[n].parent;
	}
	if (!s->line.len) {
		pt_buf_addch(&s->line, '[');
		s->poff[0] = 1;
	}
	pt_buf_setlen(&s->line, s->poff[i]);
	pt_buf_grow(&s->line, (depth - i) * 12);
	for (k = i; k < depth; k++) {
		uint32_t f = s->sframe[p->nodes[s->pnodes[k]].frame];
		s->poff[k] = s->line.len;
		memcpy(s->line.buf + s->line.len, s->digits + (size_t)f * 12, 12);
		s->line.len += s->dlen[f];
	}
	s->poff[depth] = s->line.len;
	s->line.buf[s->line.len] = '\0';
	s->pdepth = depth;
	/* the line without its last comma, closed */
	pt_buf_add(&s->out, s->line.buf, s->line.len - 1);
	pt_buf_addch(&s->out, ']');
}

/* the samples of one group for type t: events in time order, or one per stack row */
static void write_profile(struct ss *s, size_t gi, uint32_t t, int with_type, int first)
{
	const struct pt_profile *p = s->p;
	struct pt_buf *o = &s->out;
	uint32_t w = p->ntypes, dec = p->types[t].decimals;
	int64_t total = 0;
	size_t k, pass, nout;

	/* the total first: speedscope takes the length as endValue - startValue */
	for (k = s->gstart[gi]; k < s->gstart[gi + 1]; k++) {
		size_t i = s->order[k];
		total = pt_add(total, p->nevents ? p->event_values[i * w + t]
						 : p->sample_values[i * w + t]);
	}

	if (!first)
		pt_buf_addch(o, ',');
	pt_buf_addch(o, '{');
	ss_key(s, "type", 1);
	ss_str(s, "sampled");
	ss_key(s, "name", 0);
	group_name(s, &s->groups[gi], t, with_type);
	ss_strn(s, s->b.buf, strlen(s->b.buf));
	ss_key(s, "unit", 0);
	ss_str(s, ss_unit(p, t));
	ss_key(s, "startValue", 0);
	pt_buf_addch(o, '0');
	ss_key(s, "endValue", 0);
	weight(o, total, dec);
	/* two passes over the same selection: samples, then weights */
	for (pass = 0; pass < 2; pass++) {
		ss_key(s, pass ? "weights" : "samples", 0);
		pt_buf_addch(o, '[');
		nout = 0;
		for (k = s->gstart[gi]; k < s->gstart[gi + 1]; k++) {
			size_t i = s->order[k];
			uint32_t row = p->nevents ? p->events[i].sample : (uint32_t)i;
			int64_t v = p->nevents ? p->event_values[i * w + t]
					       : p->sample_values[(size_t)row * w + t];
			size_t depth;
			if (!v)
				continue;
			depth = s->row_depth[row];
			if (nout++)
				pt_buf_addch(o, ',');
			if (pass)
				weight(o, v, dec);
			else if (!depth)
				pt_buf_addstr(o, "[]"); /* a sample without frames (Go's "6 @") */
			else
				write_stack(s, p->samples[row].node, depth);
			pt_buf_write_out(&s->out, s->fp, PT_BUF_BLOCK);
		}
		pt_buf_addch(o, ']');
	}
	pt_buf_addch(o, '}');
}

static int speedscope_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
			    struct pt_diag *d)
{
	struct ss s;
	uint32_t t, t0, t1;
	size_t gi;
	int first = 1;

	if (pt_profile_need_stacks(p, NULL, d) < 0)
		return -1;
	memset(&s, 0, sizeof(s));
	pt_buf_init(&s.b);
	pt_buf_init(&s.out);
	pt_buf_init(&s.line);
	s.p = p;
	s.fp = out;
	s.str = pt_json_gen_buf(&s.out);
	t0 = o->type == PT_TYPE_ALL ? 0 : (uint32_t)o->type;
	t1 = o->type == PT_TYPE_ALL ? p->ntypes : t0 + 1;
	find_groups(&s);
	sort_groups(&s);
	s.row_depth = pt_xmalloc(((size_t)p->nsamples + 1) * sizeof(uint32_t));
	for (t = 0; t < p->nsamples; t++)
		s.row_depth[t] = p->nodes[p->samples[t].node].depth;

	pt_buf_addch(&s.out, '{');
	ss_key(&s, "$schema", 1);
	ss_str(&s, "https://www.speedscope.app/file-format-schema.json");
	ss_key(&s, "exporter", 0);
	ss_str(&s, PACKAGE_NAME " " PACKAGE_VERSION);
	ss_key(&s, "name", 0);
	pt_buf_addf(&s.b, "%s profile", p->format ? p->format : "proftool");
	ss_str(&s, s.b.buf);
	ss_key(&s, "activeProfileIndex", 0);
	pt_buf_addch(&s.out, '0');
	ss_key(&s, "shared", 0);
	pt_buf_addch(&s.out, '{');
	shared_frames(&s);
	pt_buf_addch(&s.out, '}');
	ss_key(&s, "profiles", 0);
	pt_buf_addch(&s.out, '[');
	for (gi = 0; gi < s.ngroups; gi++) {
		/* group 0 (no thread labels) only if some row is in it, or nothing else is */
		if (gi == 0 && s.ngroups > 1) {
			uint32_t r;
			for (r = 0; r < p->nsamples; r++)
				if (!s.group_of_ls[p->samples[r].labels])
					break;
			if (r == p->nsamples)
				continue;
		}
		for (t = t0; t < t1; t++) {
			write_profile(&s, gi, t, t1 - t0 > 1, first);
			first = 0;
		}
	}
	pt_buf_addstr(&s.out, "]}\n");
	pt_buf_write_out(&s.out, out, 0);

	pt_yajl()->gen_free(s.str);
	free(s.sframe);
	free(s.group_of_ls);
	free(s.row_depth);
	free(s.groups);
	free(s.gstart);
	free(s.order);
	free(s.stack);
	free(s.digits);
	free(s.dlen);
	free(s.pnodes);
	free(s.poff);
	pt_buf_release(&s.line);
	pt_buf_release(&s.b);
	pt_buf_release(&s.out);
	return 0;
}

/* ---- reader ---- */

/* speedscope nests a stack one level (an array of indices): the document is shallow */
#define R_MAX_DEPTH 64
/* fraction digits a weight keeps in a type without a time unit (more are rounded) */
#define R_MAX_DECIMALS 9

struct rframe {
	uint32_t name, file; /* string ids */
	int64_t line, col;   /* 0 if absent */
	uint64_t off;	     /* its '{' */
	int has_name;
};

/* the stacks of sampled profiles, as a trie of shared-frame indices (node 0 = empty):
 * the frames may come after the profiles, so the model's tree is built at the end */
struct rtrie {
	uint32_t parent, frame;
};

struct revent {
	struct pt_dec at;
	uint64_t off;
	uint32_t frame;
	uint8_t type, has_at, has_frame, pad;
};

enum rkind { RK_NONE, RK_SAMPLED, RK_EVENTED };

struct rprof {
	uint64_t off;
	uint32_t name, unit; /* string ids; unit 0 if absent */
	enum rkind kind;
	int has_samples, has_weights, has_events;
	uint64_t weights_off;
	uint32_t *snodes; /* trie node of each sample */
	size_t nsamples, samples_alloc;
	struct pt_dec *weights;
	size_t nweights, weights_alloc;
	struct revent *events;
	size_t nevents, events_alloc;
	int32_t maxk; /* most fraction digits among its numbers */
};

enum rctx {
	RC_TOP,
	RC_SHARED,
	RC_FRAMES,
	RC_FRAME,
	RC_PROFILES,
	RC_PROFILE,
	RC_SAMPLES,
	RC_STACK,
	RC_WEIGHTS,
	RC_EVENTS,
	RC_EVENT,
};

enum rkey {
	RK_OTHER,
	RK_SHARED,
	RK_PROFILES,
	RK_FRAMES,
	RK_NAME,
	RK_FILE,
	RK_LINE,
	RK_COL,
	RK_TYPE,
	RK_UNIT,
	RK_SAMPLES,
	RK_WEIGHTS,
	RK_EVENTS,
	RK_AT,
	RK_FRAME,
};

static const struct pt_json_key rkeys[] = {
	{RC_TOP, "shared", RK_SHARED},
	{RC_TOP, "profiles", RK_PROFILES},
	{RC_SHARED, "frames", RK_FRAMES},
	{RC_FRAME, "name", RK_NAME},
	{RC_FRAME, "file", RK_FILE},
	{RC_FRAME, "line", RK_LINE},
	{RC_FRAME, "col", RK_COL},
	{RC_PROFILE, "type", RK_TYPE},
	{RC_PROFILE, "name", RK_NAME},
	{RC_PROFILE, "unit", RK_UNIT},
	{RC_PROFILE, "samples", RK_SAMPLES},
	{RC_PROFILE, "weights", RK_WEIGHTS},
	{RC_PROFILE, "events", RK_EVENTS},
	{RC_EVENT, "type", RK_TYPE},
	{RC_EVENT, "at", RK_AT},
	{RC_EVENT, "frame", RK_FRAME},
};

struct rd {
	struct pt_profile *p;
	struct pt_v8json j; /* the parse: yajl, offsets, the error, skipping */
	int has_frames, has_profiles;
	enum rctx stack[R_MAX_DEPTH];
	size_t depth;
	enum rkey key;
	struct rframe *frames;
	size_t nframes, frames_alloc;
	struct rprof *profs;
	size_t nprofs, profs_alloc;
	struct rtrie *trie;
	size_t ntrie, trie_alloc;
	struct pt_map children; /* (parent << 32 | frame) -> trie node */
	uint32_t cur;		/* the trie node of the stack being read */
	/* the largest frame index met, and where: checked once the frames are known */
	int64_t maxref;
	uint64_t maxref_off;
};

static int rd_push(struct rd *r, enum rctx c)
{
	if (r->depth >= R_MAX_DEPTH)
		return pt_v8json_fail(&r->j, "JSON nested deeper than %d levels", R_MAX_DEPTH);
	r->stack[r->depth++] = c;
	return 1;
}

/* the trie node under parent for frame index f */
static uint32_t rd_child(struct rd *r, uint32_t parent, uint32_t f)
{
	uint32_t *slot = pt_map_put(&r->children, (uint64_t)parent << 32 | f);

	if (*slot != PT_MAP_NEW)
		return *slot;
	PT_ALLOC_GROW(r->trie, r->ntrie + 1, r->trie_alloc);
	r->trie[r->ntrie].parent = parent;
	r->trie[r->ntrie].frame = f;
	*slot = (uint32_t)r->ntrie;
	return (uint32_t)r->ntrie++;
}

/* a frame index at off: its range is checked once the frame table is known */
static int rd_index(struct rd *r, const char *s, size_t len, uint64_t off, uint32_t *f)
{
	struct pt_dec x;
	int64_t v;

	if (pt_dec_parse(s, len, &x) < 0 || pt_dec_scale(&x, 0, &v) < 0 || x.k > 0 || v < 0 ||
	    v >= (int64_t)UINT32_MAX - 2)
		return pt_v8json_fail_at(&r->j, off, "frame index %.*s is out of range",
					 (int)(len > 40 ? 40 : len), s);
	if (v > r->maxref) {
		r->maxref = v;
		r->maxref_off = off;
	}
	*f = (uint32_t)v;
	return 1;
}

static void note_k(struct rprof *pr, const struct pt_dec *x)
{
	if (x->k > pr->maxk)
		pr->maxk = x->k;
}

static int rd_number(struct rd *r, enum rctx c, enum rkey k, const char *s, size_t len)
{
	uint64_t off = pt_v8json_here(&r->j) - len;
	struct rprof *pr = r->nprofs ? &r->profs[r->nprofs - 1] : NULL;
	struct pt_dec x;

	if (c == RC_STACK) {
		uint32_t f;
		if (!rd_index(r, s, len, off, &f))
			return 0;
		r->cur = rd_child(r, r->cur, f);
		return 1;
	}
	if (pt_dec_parse(s, len, &x) < 0)
		return pt_v8json_fail_at(&r->j, off, "number %.*s is out of range",
					 (int)(len > 40 ? 40 : len), s);
	if (c == RC_WEIGHTS) {
		if (x.m < 0)
			return pt_v8json_fail_at(&r->j, off, "negative weight");
		note_k(pr, &x);
		PT_ALLOC_GROW(pr->weights, pr->nweights + 1, pr->weights_alloc);
		pr->weights[pr->nweights++] = x;
		return 1;
	}
	if (c == RC_FRAME) {
		struct rframe *fr = &r->frames[r->nframes - 1];
		int64_t v;
		if (pt_dec_scale(&x, 0, &v) < 0)
			return pt_v8json_fail_at(&r->j, off, "'%s' is out of range",
						 k == RK_LINE ? "line" : "col");
		if (k == RK_LINE)
			fr->line = v > 0 ? v : 0;
		else
			fr->col = v > 0 ? v : 0;
		return 1;
	}
	if (c == RC_EVENT) {
		struct revent *ev = &pr->events[pr->nevents - 1];
		if (k == RK_AT) {
			note_k(pr, &x);
			ev->at = x;
			ev->has_at = 1;
			return 1;
		}
		if (!rd_index(r, s, len, off, &ev->frame))
			return 0;
		ev->has_frame = 1;
		return 1;
	}
	return 1;
}

/* the kind each key's value must have */
static enum pt_json_kind rkey_wants(enum rkey k)
{
	switch (k) {
	case RK_SHARED:
		return PT_JSON_MAP;
	case RK_PROFILES:
	case RK_FRAMES:
	case RK_SAMPLES:
	case RK_WEIGHTS:
	case RK_EVENTS:
		return PT_JSON_ARRAY;
	case RK_LINE:
	case RK_COL:
	case RK_AT:
	case RK_FRAME:
		return PT_JSON_NUMBER;
	default:
		return PT_JSON_STRING;
	}
}

static const char *rkey_name(enum rkey k)
{
	return pt_json_key_name(rkeys, sizeof(rkeys) / sizeof(rkeys[0]), k);
}

static int rd_string(struct rd *r, enum rctx c, enum rkey k, const char *s, size_t len)
{
	struct rprof *pr = r->nprofs ? &r->profs[r->nprofs - 1] : NULL;

	if (c == RC_FRAME) {
		struct rframe *fr = &r->frames[r->nframes - 1];
		if (k == RK_NAME) {
			fr->name = pt_strn(r->p, s, len);
			fr->has_name = 1;
		} else {
			fr->file = pt_strn(r->p, s, len);
		}
		return 1;
	}
	if (c == RC_EVENT) {
		struct revent *ev = &pr->events[pr->nevents - 1];
		if (len != 1 || (s[0] != 'O' && s[0] != 'C'))
			return pt_v8json_fail_at(&r->j, pt_v8json_here(&r->j) - len - 1,
						 "event type '%.*s' is neither O nor C",
						 (int)(len > 40 ? 40 : len), s);
		ev->type = (uint8_t)s[0];
		return 1;
	}
	/* a profile */
	if (k == RK_NAME) {
		pr->name = pt_strn(r->p, s, len);
	} else if (k == RK_UNIT) {
		pr->unit = pt_strn(r->p, s, len);
	} else if (len == 7 && !memcmp(s, "sampled", 7)) {
		pr->kind = RK_SAMPLED;
	} else if (len == 7 && !memcmp(s, "evented", 7)) {
		pr->kind = RK_EVENTED;
	} else {
		return pt_v8json_fail_at(&r->j, pt_v8json_here(&r->j) - len - 1,
					 "profile type '%.*s' is neither sampled nor evented",
					 (int)(len > 40 ? 40 : len), s);
	}
	return 1;
}

static int rd_value(struct rd *r, enum pt_json_kind vk, const char *s, size_t len)
{
	enum rkey k = r->key;
	enum rctx c;
	struct rprof *pr;

	r->key = RK_OTHER;
	if (r->j.skip) {
		if (pt_json_opens(vk))
			r->j.skip++;
		return 1;
	}
	if (!r->depth) {
		r->j.top_seen = 1;
		if (vk != PT_JSON_MAP)
			return pt_v8json_fail(&r->j,
					      "not a speedscope file: the JSON is not an object");
		return rd_push(r, RC_TOP);
	}
	c = r->stack[r->depth - 1];
	pr = r->nprofs ? &r->profs[r->nprofs - 1] : NULL;
	switch (c) {
	case RC_FRAMES:
		if (vk != PT_JSON_MAP)
			return pt_v8json_fail(&r->j, "an element of 'frames' is not an object");
		if (r->nframes >= UINT32_MAX - 2)
			return pt_v8json_fail(&r->j, "too many frames");
		PT_ALLOC_GROW(r->frames, r->nframes + 1, r->frames_alloc);
		memset(&r->frames[r->nframes], 0, sizeof(r->frames[0]));
		r->frames[r->nframes++].off = pt_v8json_here(&r->j) - 1;
		return rd_push(r, RC_FRAME);
	case RC_PROFILES:
		if (vk != PT_JSON_MAP)
			return pt_v8json_fail(&r->j, "an element of 'profiles' is not an object");
		PT_ALLOC_GROW(r->profs, r->nprofs + 1, r->profs_alloc);
		memset(&r->profs[r->nprofs], 0, sizeof(r->profs[0]));
		r->profs[r->nprofs++].off = pt_v8json_here(&r->j) - 1;
		return rd_push(r, RC_PROFILE);
	case RC_SAMPLES:
		if (vk != PT_JSON_ARRAY)
			return pt_v8json_fail(&r->j, "a sample is not an array of frame indices");
		if (pr->nsamples >= UINT32_MAX - 2)
			return pt_v8json_fail(&r->j, "too many samples");
		r->cur = 0;
		return rd_push(r, RC_STACK);
	case RC_STACK:
		if (vk != PT_JSON_NUMBER)
			return pt_v8json_fail(&r->j, "a sample's element is not a frame index");
		return rd_number(r, c, k, s, len);
	case RC_WEIGHTS:
		if (vk != PT_JSON_NUMBER)
			return pt_v8json_fail(&r->j, "a weight is not a number");
		return rd_number(r, c, k, s, len);
	case RC_EVENTS:
		if (vk != PT_JSON_MAP)
			return pt_v8json_fail(&r->j, "an event is not an object");
		PT_ALLOC_GROW(pr->events, pr->nevents + 1, pr->events_alloc);
		memset(&pr->events[pr->nevents], 0, sizeof(pr->events[0]));
		pr->events[pr->nevents++].off = pt_v8json_here(&r->j) - 1;
		return rd_push(r, RC_EVENT);
	default:
		break;
	}
	if (k == RK_OTHER) {
		if (pt_json_opens(vk))
			r->j.skip = 1;
		return 1;
	}
	if (vk != rkey_wants(k)) {
		return pt_v8json_fail_at(
			&r->j,
			pt_v8json_here(&r->j) -
				(vk == PT_JSON_NUMBER || vk == PT_JSON_STRING ? len : 1),
			"'%s' is not %s", rkey_name(k), pt_json_kind_name(rkey_wants(k)));
	}
	switch (k) {
	case RK_SHARED:
		return rd_push(r, RC_SHARED);
	case RK_FRAMES:
		if (r->has_frames)
			return pt_v8json_fail(&r->j, "a second 'frames'");
		r->has_frames = 1;
		return rd_push(r, RC_FRAMES);
	case RK_PROFILES:
		if (r->has_profiles)
			return pt_v8json_fail(&r->j, "a second 'profiles'");
		r->has_profiles = 1;
		return rd_push(r, RC_PROFILES);
	case RK_SAMPLES:
	case RK_WEIGHTS:
	case RK_EVENTS: {
		int *has = k == RK_SAMPLES   ? &pr->has_samples
			   : k == RK_WEIGHTS ? &pr->has_weights
					     : &pr->has_events;
		if (*has)
			return pt_v8json_fail(&r->j, "a second '%s'", rkey_name(k));
		*has = 1;
		if (k == RK_WEIGHTS)
			pr->weights_off = pt_v8json_here(&r->j) - 1;
		return rd_push(r, k == RK_SAMPLES   ? RC_SAMPLES
				  : k == RK_WEIGHTS ? RC_WEIGHTS
						    : RC_EVENTS);
	}
	case RK_LINE:
	case RK_COL:
	case RK_AT:
	case RK_FRAME:
		return rd_number(r, c, k, s, len);
	default:
		return rd_string(r, c, k, s, len);
	}
}

static int rd_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct rd *r = ctx;

	r->key = RK_OTHER;
	if (r->j.skip || !r->depth)
		return 1;
	r->key = pt_json_key_find(rkeys, sizeof(rkeys) / sizeof(rkeys[0]), r->stack[r->depth - 1],
				  s, len, RK_OTHER);
	return 1;
}
static int rd_end(void *ctx)
{
	struct rd *r = ctx;

	if (r->j.skip) {
		r->j.skip--;
		return 1;
	}
	if (r->depth && r->stack[r->depth - 1] == RC_STACK) {
		struct rprof *pr = &r->profs[r->nprofs - 1];
		PT_ALLOC_GROW(pr->snodes, pr->nsamples + 1, pr->samples_alloc);
		pr->snodes[pr->nsamples++] = r->cur;
	}
	if (r->depth)
		r->depth--;
	return 1;
}

PT_JSON_CALLBACKS(rd_callbacks, rd_value, rd_map_key, rd_end);

/* ---- from what was read to the model ---- */

/* a unit's scale: the model keeps time in nanoseconds (10^exp of the unit), bytes and
 * counts as they are (exp -1: a type whose decimals the weights decide) */
struct runit {
	const char *name, *type, *unit;
	int exp;
};

static const struct runit runits[] = {
	{"nanoseconds", "time", "nanoseconds", 0},
	{"microseconds", "time", "nanoseconds", 3},
	{"milliseconds", "time", "nanoseconds", 6},
	{"seconds", "time", "nanoseconds", 9},
	{"bytes", "space", "bytes", -1},
	{"none", "samples", "count", -1},
};

static const struct runit *unit_of(const struct pt_profile *p, const struct rprof *pr)
{
	const char *u = pr->unit ? pt_s(p, pr->unit) : "none";
	size_t i;
	for (i = 0; i < sizeof(runits) / sizeof(runits[0]); i++)
		if (!strcmp(u, runits[i].name))
			return &runits[i];
	return NULL;
}

struct build {
	struct rd *r;
	uint32_t *fid;	  /* shared frame index -> model frame */
	uint32_t *tnode;  /* trie node -> model node */
	uint32_t *pnodes; /* evented: the open frames' model nodes */
	uint32_t *pframes;
	uint64_t *poffs;
	size_t nopen, open_alloc;
	int64_t *vals;
};

static int64_t *one_value(struct build *b, uint32_t ntypes, uint32_t t, int64_t v)
{
	memset(b->vals, 0, ntypes * sizeof(int64_t));
	b->vals[t] = v;
	return b->vals;
}

static int build_sampled(struct build *b, const struct rprof *pr, uint32_t t, int32_t scale,
			 uint32_t labels, int time_unit)
{
	struct rd *r = b->r;
	struct pt_profile *p = r->p;
	int64_t at = 0;
	size_t i;

	if (!pr->has_samples || !pr->has_weights)
		return pt_diag_error_at(r->j.d, pr->off, "sampled profile without '%s'",
					pr->has_samples ? "weights" : "samples");
	if (pr->nsamples != pr->nweights)
		return pt_diag_error_at(r->j.d, pr->weights_off, "%zu weights for %zu samples",
					pr->nweights, pr->nsamples);
	for (i = 0; i < pr->nsamples; i++) {
		int64_t v;
		if (pt_dec_scale(&pr->weights[i], scale, &v) < 0)
			return pt_diag_error_at(r->j.d, pr->weights_off,
						"weight %zu is out of range", i);
		if (!v)
			continue;
		pt_profile_add_sample(p, b->tnode[pr->snodes[i]], labels,
				      one_value(b, p->ntypes, t, v), time_unit ? at : (int64_t)i);
		at = pt_add(at, v);
	}
	return 0;
}

static int build_evented(struct build *b, const struct rprof *pr, uint32_t t, int32_t scale,
			 uint32_t labels)
{
	struct rd *r = b->r;
	struct pt_profile *p = r->p;
	int64_t last = 0, first = 0;
	size_t i;

	if (!pr->has_events)
		return pt_diag_error_at(r->j.d, pr->off, "evented profile without 'events'");
	b->nopen = 0;
	for (i = 0; i < pr->nevents; i++) {
		const struct revent *ev = &pr->events[i];
		int64_t v;
		if (!ev->type || !ev->has_at || !ev->has_frame)
			return pt_diag_error_at(r->j.d, ev->off, "event without '%s'",
						!ev->type     ? "type"
						: !ev->has_at ? "at"
							      : "frame");
		if (pt_dec_scale(&ev->at, scale, &v) < 0)
			return pt_diag_error_at(r->j.d, ev->off, "'at' is out of range");
		if (!i)
			first = last = v;
		if (v < last)
			return pt_diag_error_at(r->j.d, ev->off,
						"time goes backwards: 'at' is less than the "
						"event before's");
		if (b->nopen && v > last)
			pt_profile_add_sample(p, b->pnodes[b->nopen - 1], labels,
					      one_value(b, p->ntypes, t, pt_sub(v, last)),
					      pt_sub(last, first));
		last = v;
		if (ev->type == 'O') {
			uint32_t parent = b->nopen ? b->pnodes[b->nopen - 1] : 0;
			if (b->nopen + 1 > b->open_alloc) {
				size_t want = b->open_alloc;
				PT_ALLOC_GROW(b->pnodes, b->nopen + 1, want);
				b->pframes = pt_xreallocarray(b->pframes, want, sizeof(uint32_t));
				b->poffs = pt_xreallocarray(b->poffs, want, sizeof(uint64_t));
				b->open_alloc = want;
			}
			b->pnodes[b->nopen] = pt_profile_child(p, parent, b->fid[ev->frame]);
			b->pframes[b->nopen] = ev->frame;
			b->poffs[b->nopen++] = ev->off;
		} else if (!b->nopen) {
			return pt_diag_error_at(r->j.d, ev->off,
						"close of frame %" PRIu32 " with no frame open",
						ev->frame);
		} else if (b->pframes[b->nopen - 1] != ev->frame) {
			return pt_diag_error_at(r->j.d, ev->off,
						"close of frame %" PRIu32 " while frame %" PRIu32
						" is open",
						ev->frame, b->pframes[b->nopen - 1]);
		} else {
			b->nopen--;
		}
	}
	if (b->nopen)
		return pt_diag_error_at(r->j.d, b->poffs[b->nopen - 1],
					"frame %" PRIu32 " opened here is never closed",
					b->pframes[b->nopen - 1]);
	return 0;
}

static int rd_build(struct rd *r, uint64_t end_off)
{
	struct pt_profile *p = r->p;
	struct build b;
	uint32_t tindex[sizeof(runits) / sizeof(runits[0])];
	int32_t tdec[sizeof(runits) / sizeof(runits[0])];
	size_t i, u;
	int ret = -1;

	memset(&b, 0, sizeof(b));
	b.r = r;
	if (!r->has_frames)
		return pt_diag_error_at(r->j.d, end_off,
					"not a speedscope file: no 'shared.frames'");
	if (!r->has_profiles)
		return pt_diag_error_at(r->j.d, end_off, "not a speedscope file: no 'profiles'");
	if (r->maxref >= 0 && (uint64_t)r->maxref >= r->nframes)
		return pt_diag_error_at(r->j.d, r->maxref_off,
					"frame index %" PRId64 " is out of range (%zu frames)",
					r->maxref, r->nframes);
	/* a type per unit, in the order the profiles name them */
	for (u = 0; u < sizeof(runits) / sizeof(runits[0]); u++) {
		tindex[u] = UINT32_MAX;
		tdec[u] = 0;
	}
	for (i = 0; i < r->nprofs; i++) {
		const struct rprof *pr = &r->profs[i];
		const struct runit *ru = unit_of(p, pr);
		if (!ru)
			return pt_diag_error_at(r->j.d, pr->off, "unknown unit '%s'",
						pt_s(p, pr->unit));
		if (pr->kind == RK_NONE)
			return pt_diag_error_at(r->j.d, pr->off, "profile without 'type'");
		u = (size_t)(ru - runits);
		if (ru->exp < 0 && pr->maxk > tdec[u])
			tdec[u] = pr->maxk > R_MAX_DECIMALS ? R_MAX_DECIMALS : pr->maxk;
	}
	for (i = 0; i < r->nprofs; i++) {
		u = (size_t)(unit_of(p, &r->profs[i]) - runits);
		if (tindex[u] == UINT32_MAX) {
			size_t v;
			tindex[u] = pt_profile_add_type(p, runits[u].type, runits[u].unit);
			if (runits[u].exp < 0)
				p->types[tindex[u]].decimals = (uint32_t)tdec[u];
			/* the three time units share one type */
			for (v = 0; v < sizeof(runits) / sizeof(runits[0]); v++)
				if (!strcmp(runits[v].type, runits[u].type))
					tindex[v] = tindex[u];
		}
	}
	if (!r->nprofs)
		return pt_diag_error_at(r->j.d, end_off, "no profiles in the file");

	b.fid = pt_xmalloc((r->nframes + 1) * sizeof(uint32_t));
	for (i = 0; i < r->nframes; i++) {
		const struct rframe *fr = &r->frames[i];
		struct pt_frame f;
		if (!fr->has_name) {
			pt_diag_error_at(r->j.d, fr->off, "frame %zu without 'name'", i);
			goto out;
		}
		memset(&f, 0, sizeof(f));
		/* functions apart by column, as V8's are (a column names one function of
		 * a line); the line is the frame's */
		f.func = pt_profile_func_ident(p, fr->name, 0, fr->file, 0, (uint64_t)fr->col);
		f.line = fr->line;
		f.column = fr->col;
		b.fid[i] = pt_profile_frame(p, &f);
	}
	b.tnode = pt_xmalloc((r->ntrie + 1) * sizeof(uint32_t));
	b.tnode[0] = 0;
	/* a trie node comes after its parent */
	for (i = 1; i < r->ntrie; i++)
		b.tnode[i] =
			pt_profile_child(p, b.tnode[r->trie[i].parent], b.fid[r->trie[i].frame]);
	b.vals = pt_xcalloc(p->ntypes + 1, sizeof(int64_t));
	for (i = 0; i < r->nprofs; i++) {
		const struct rprof *pr = &r->profs[i];
		const struct runit *ru = unit_of(p, pr);
		uint32_t t;
		int32_t scale;
		struct pt_label lab;
		char name[40];

		u = (size_t)(ru - runits);
		t = tindex[u];
		scale = ru->exp >= 0 ? ru->exp : tdec[u];
		memset(&lab, 0, sizeof(lab));
		lab.key = pt_str(p, PT_LABEL_THREAD);
		if (pr->name && pt_intern_len(&p->strings, pr->name)) {
			lab.str = pr->name;
		} else {
			snprintf(name, sizeof(name), "profile %zu", i + 1);
			lab.str = pt_str(p, name);
		}
		if (pr->kind == RK_SAMPLED
			    ? build_sampled(&b, pr, t, scale, pt_profile_labelset(p, &lab, 1),
					    ru->exp >= 0) < 0
			    : build_evented(&b, pr, t, scale, pt_profile_labelset(p, &lab, 1)) < 0)
			goto out;
	}
	ret = 0;
out:
	free(b.fid);
	free(b.tnode);
	free(b.pnodes);
	free(b.pframes);
	free(b.poffs);
	free(b.vals);
	return ret;
}

static int speedscope_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			   struct pt_diag *d)
{
	static const struct pt_v8json_opts opts = {.bytes = 1};
	struct rd r;
	int ret = -1;
	size_t i;

	(void)o;
	memset(&r, 0, sizeof(r));
	r.p = p;
	r.j.d = d;
	r.maxref = -1;
	p->format = "speedscope";
	pt_map_init(&r.children);
	PT_ALLOC_GROW(r.trie, 1, r.trie_alloc);
	r.trie[0].parent = r.trie[0].frame = 0;
	r.ntrie = 1;
	if (pt_v8json_parse(&r.j, &rd_callbacks, &r, in, &opts) < 0)
		goto out;
	ret = rd_build(&r, r.j.end_off);
out:
	pt_v8json_release(&r.j);
	for (i = 0; i < r.nprofs; i++) {
		free(r.profs[i].snodes);
		free(r.profs[i].weights);
		free(r.profs[i].events);
	}
	free(r.profs);
	free(r.frames);
	free(r.trie);
	pt_map_release(&r.children);
	return ret;
}

/* speedscope's files name their schema; a writer that leaves it out still has the
 * shared frame table and the profiles near the start */
static int speedscope_detect(const unsigned char *head, size_t len)
{
	static const char schema[] = "speedscope.app/file-format-schema.json";

	if (pt_json_first(head, len) != '{')
		return 0;
	if (memmem(head, len, schema, sizeof(schema) - 1))
		return 95;
	if (PT_JSON_HAS_KEY(head, len, "shared") && PT_JSON_HAS_KEY(head, len, "frames") &&
	    PT_JSON_HAS_KEY(head, len, "profiles"))
		return 70;
	return 0;
}

static const char *const speedscope_suffixes[] = {".speedscope.json", NULL};

const struct pt_format pt_format_speedscope = {
	.name = "speedscope",
	.description = "speedscope JSON (sampled and evented profiles), per thread and in time "
		       "order where known",
	.suffixes = speedscope_suffixes,
	.detect = speedscope_detect,
	.read = speedscope_read,
	.write = speedscope_write,
	.wants_timeline = 1,
};
