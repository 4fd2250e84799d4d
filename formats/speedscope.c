/* speedscope.c: speedscope's JSON file format (https://www.speedscope.app), write only.
 * One shared frame table (deduplicated by name, file, line, column); "sampled" profiles
 * whose samples are root-first frame index lists with a weight each. With a timeline the
 * samples are the events in time order (speedscope's Time Order view); without, one
 * sample per stack. One profile per thread or process where the samples carry those
 * labels, times one per sample type with --sample-index all. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "util/buf.h"
#include "formats/format.h"
#include "util/intern.h"
#include "util/json.h"
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
	yajl_gen_reset(s->str, NULL);
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
		for (gi = 0; gi < s->ngroups; gi++)
			if (s->groups[gi].pid == g.pid && s->groups[gi].tid == g.tid &&
			    s->groups[gi].comm == g.comm && s->groups[gi].thread == g.thread)
				break;
		if (gi == s->ngroups) {
			PT_ALLOC_GROW(s->groups, s->ngroups + 1, s->groups_alloc);
			s->groups[s->ngroups++] = g;
		}
		s->group_of_ls[ls] = (uint32_t)gi;
	}
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
	uint32_t w = p->ntypes, dec = p->types[t].decimals, r;
	int64_t total = 0;
	size_t i, pass, nout;

	/* the total first: speedscope takes the length as endValue - startValue */
	if (p->nevents) {
		for (i = 0; i < p->nevents; i++)
			if (s->group_of_ls[p->samples[p->events[i].sample].labels] == gi)
				total = pt_add(total, p->event_values[i * w + t]);
	} else {
		for (r = 0; r < p->nsamples; r++)
			if (s->group_of_ls[p->samples[r].labels] == gi && s->row_depth[r])
				total = pt_add(total, p->sample_values[(size_t)r * w + t]);
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
		for (i = 0; i < (p->nevents ? p->nevents : p->nsamples); i++) {
			uint32_t row = p->nevents ? p->events[i].sample : (uint32_t)i;
			int64_t v = p->nevents ? p->event_values[i * w + t]
					       : p->sample_values[(size_t)row * w + t];
			size_t depth;
			if (s->group_of_ls[p->samples[row].labels] != gi || !v)
				continue;
			depth = s->row_depth[row];
			if (!depth)
				continue;
			if (nout++)
				pt_buf_addch(o, ',');
			if (pass)
				weight(o, v, dec);
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

	yajl_gen_free(s.str);
	free(s.sframe);
	free(s.group_of_ls);
	free(s.row_depth);
	free(s.groups);
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

static const char *const speedscope_suffixes[] = {".speedscope.json", NULL};

const struct pt_format pt_format_speedscope = {
	.name = "speedscope",
	.description = "speedscope JSON, per thread and in time order where known (write only)",
	.suffixes = speedscope_suffixes,
	.write = speedscope_write,
	.wants_timeline = 1,
};
