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

#include "buf.h"
#include "format.h"
#include "intern.h"
#include "report.h"
#include "units.h"
#include "xalloc.h"

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

struct ss {
	const struct pt_profile *p;
	yajl_gen g;
	uint32_t *sframe;      /* profile frame id -> shared frame index */
	uint32_t elided;       /* shared index of the marker frame, UINT32_MAX if none */
	uint32_t *group_of_ls; /* label set id -> group */
	struct group *groups;
	size_t ngroups, groups_alloc;
	uint32_t *stack; /* scratch: one root-first stack */
	size_t stack_alloc;
	struct pt_buf b;
};

static void ss_key(yajl_gen g, const char *k)
{
	yajl_gen_string(g, (const unsigned char *)k, strlen(k));
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
	struct pt_arena arena;
	struct pt_intern keys;
	uint32_t f, n = 0;

	pt_arena_init(&arena);
	pt_intern_init(&keys, &arena);
	s->sframe = pt_xcalloc((size_t)p->nframes + 1, sizeof(uint32_t));
	ss_key(s->g, "frames");
	yajl_gen_array_open(s->g);
	for (f = 1; f < p->nframes; f++) {
		const struct pt_frame *fr = &p->frames[f];
		const struct pt_func *fn = &p->funcs[fr->func];
		uint32_t k[4] = {fn->name, fn->file, (uint32_t)fr->line, (uint32_t)fr->column};
		uint32_t id = pt_intern(&keys, k, sizeof(k)) - 1; /* id 0 is "" */
		s->sframe[f] = id;
		if (id < n)
			continue;
		n++;
		yajl_gen_map_open(s->g);
		ss_key(s->g, "name");
		if (fn->name)
			pt_json_str(s->g, p, fn->name);
		else
			pt_json_cstr(s->g, "(unknown)");
		if (fn->file) {
			ss_key(s->g, "file");
			pt_json_str(s->g, p, fn->file);
		}
		if (fr->line > 0) {
			ss_key(s->g, "line");
			pt_json_int(s->g, fr->line);
		}
		if (fr->column > 0) {
			ss_key(s->g, "col");
			pt_json_int(s->g, fr->column);
		}
		yajl_gen_map_close(s->g);
	}
	s->elided = UINT32_MAX;
	for (f = 1; f < p->nnodes; f++)
		if (p->nodes[f].depth > DEPTH_HEAD + DEPTH_TAIL + 1) {
			s->elided = n++;
			yajl_gen_map_open(s->g);
			ss_key(s->g, "name");
			pt_json_cstr(s->g, ELIDED_NAME);
			yajl_gen_map_close(s->g);
			break;
		}
	yajl_gen_array_close(s->g);
	pt_intern_release(&keys);
	pt_arena_release(&arena);
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

static void weight(yajl_gen g, struct pt_buf *b, int64_t v, uint32_t decimals)
{
	if (!decimals) {
		pt_json_int(g, v);
		return;
	}
	pt_buf_reset(b);
	pt_buf_add_raw(b, v, decimals);
	yajl_gen_number(g, b->buf, b->len);
}

/* the samples of one group for type t: events in time order, or one per stack row */
static void write_profile(struct ss *s, size_t gi, uint32_t t, int with_type)
{
	const struct pt_profile *p = s->p;
	uint32_t w = p->ntypes, dec = p->types[t].decimals, r;
	int64_t total = 0;
	size_t i, k, pass;

	/* the total first: speedscope takes the length as endValue - startValue */
	if (p->nevents) {
		for (i = 0; i < p->nevents; i++)
			if (s->group_of_ls[p->samples[p->events[i].sample].labels] == gi)
				total = pt_add(total, p->event_values[i * w + t]);
	} else {
		for (r = 0; r < p->nsamples; r++)
			if (s->group_of_ls[p->samples[r].labels] == gi &&
			    p->nodes[p->samples[r].node].depth)
				total = pt_add(total, p->sample_values[(size_t)r * w + t]);
	}

	yajl_gen_map_open(s->g);
	ss_key(s->g, "type");
	pt_json_cstr(s->g, "sampled");
	ss_key(s->g, "name");
	group_name(s, &s->groups[gi], t, with_type);
	pt_json_cstr(s->g, s->b.buf);
	ss_key(s->g, "unit");
	pt_json_cstr(s->g, ss_unit(p, t));
	ss_key(s->g, "startValue");
	pt_json_int(s->g, 0);
	ss_key(s->g, "endValue");
	weight(s->g, &s->b, total, dec);
	/* two passes over the same selection: samples, then weights */
	for (pass = 0; pass < 2; pass++) {
		ss_key(s->g, pass ? "weights" : "samples");
		yajl_gen_array_open(s->g);
		for (i = 0; i < (p->nevents ? p->nevents : p->nsamples); i++) {
			uint32_t row = p->nevents ? p->events[i].sample : (uint32_t)i;
			int64_t v = p->nevents ? p->event_values[i * w + t]
					       : p->sample_values[(size_t)row * w + t];
			size_t depth;
			if (s->group_of_ls[p->samples[row].labels] != gi || !v)
				continue;
			depth = p->nodes[p->samples[row].node].depth;
			if (!depth)
				continue;
			if (pass) {
				weight(s->g, &s->b, v, dec);
				continue;
			}
			node_stack(s, p->samples[row].node);
			yajl_gen_array_open(s->g);
			for (k = 0; k < depth; k++) {
				if (depth > DEPTH_HEAD + DEPTH_TAIL + 1 && k == DEPTH_HEAD) {
					yajl_gen_integer(s->g, s->elided);
					k = depth - DEPTH_TAIL;
				}
				yajl_gen_integer(s->g, s->stack[k]);
			}
			yajl_gen_array_close(s->g);
		}
		yajl_gen_array_close(s->g);
	}
	yajl_gen_map_close(s->g);
}

static int speedscope_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
			    struct pt_diag *d)
{
	struct ss s;
	uint32_t t, t0, t1;
	size_t gi;
	int ret = 0;

	if (!pt_profile_has_stacks(p))
		return pt_diag_error(d, "%s",
				     p->no_stacks_reason ? p->no_stacks_reason
							 : "the profile has no stacks");
	memset(&s, 0, sizeof(s));
	pt_buf_init(&s.b);
	s.p = p;
	s.g = pt_json_gen(out);
	t0 = o->type == PT_TYPE_ALL ? 0 : (uint32_t)o->type;
	t1 = o->type == PT_TYPE_ALL ? p->ntypes : t0 + 1;
	find_groups(&s);

	yajl_gen_map_open(s.g);
	ss_key(s.g, "$schema");
	pt_json_cstr(s.g, "https://www.speedscope.app/file-format-schema.json");
	ss_key(s.g, "exporter");
	pt_json_cstr(s.g, PACKAGE_NAME " " PACKAGE_VERSION);
	ss_key(s.g, "name");
	pt_buf_addf(&s.b, "%s profile", p->format ? p->format : "proftool");
	pt_json_cstr(s.g, s.b.buf);
	ss_key(s.g, "activeProfileIndex");
	pt_json_int(s.g, 0);
	ss_key(s.g, "shared");
	yajl_gen_map_open(s.g);
	shared_frames(&s);
	yajl_gen_map_close(s.g);
	ss_key(s.g, "profiles");
	yajl_gen_array_open(s.g);
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
		for (t = t0; t < t1; t++)
			write_profile(&s, gi, t, t1 - t0 > 1);
	}
	yajl_gen_array_close(s.g);
	if (yajl_gen_map_close(s.g) != yajl_gen_status_ok)
		ret = pt_diag_error(d, "internal error writing JSON");
	else
		fputc('\n', out);

	yajl_gen_free(s.g);
	free(s.sframe);
	free(s.group_of_ls);
	free(s.groups);
	free(s.stack);
	pt_buf_release(&s.b);
	return ret;
}

static const char *const speedscope_suffixes[] = {".speedscope.json", NULL};

const struct pt_format pt_format_speedscope = {
	.name = "speedscope",
	.description = "speedscope JSON, per thread and in time order where known (write only)",
	.suffixes = speedscope_suffixes,
	.write = speedscope_write,
	.wants_timeline = 1,
};
