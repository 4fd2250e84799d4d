/* goroutines.c: `proftool goroutines`: goroutines with identical stacks grouped, as
 * panicparse prints a dump: each group's count, states, wait-time range, whether it is
 * locked to a thread, its first goroutine ids and its stack (leaf first); and the
 * goroutines of an execution trace grouped by start function with their time split and
 * the trace's GC summary, as go tool trace's goroutine pages show them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/gosplit.h"
#include "core/units.h"
#include "report/report.h"
#include "util/csv.h"
#include "util/sort.h"
#include "util/xalloc.h"

#define MAX_STATES 8

struct group {
	uint32_t node;
	int64_t count, wait_min, wait_max, locked;
	int has_wait;
	uint32_t states[MAX_STATES]; /* string ids, in the order met */
	uint32_t nstates, more_states;
	int64_t ids[PT_GOROUTINES_IDS]; /* the smallest ids, ascending */
	uint32_t nids;
	int crashed; /* holds the goroutine a crash dump printed first */
};

struct gctx {
	const struct pt_profile *p;
	uint32_t state_key, wait_key, locked_key, id_key;
	int crash; /* the dump is a crash's: crashed_id is its goroutine */
	int64_t crashed_id;
};

/* id into the smallest PT_GOROUTINES_IDS ids, ascending */
static void add_id(int64_t *ids, uint32_t *nids, int64_t id)
{
	uint32_t k;

	if (*nids == PT_GOROUTINES_IDS && id >= ids[*nids - 1])
		return;
	if (*nids < PT_GOROUTINES_IDS)
		(*nids)++;
	for (k = *nids - 1; k > 0 && ids[k - 1] > id; k--)
		ids[k] = ids[k - 1];
	ids[k] = id;
}

static void add_state(struct group *g, uint32_t s)
{
	uint32_t k;

	for (k = 0; k < g->nstates; k++)
		if (g->states[k] == s)
			return;
	if (g->nstates < MAX_STATES)
		g->states[g->nstates++] = s;
	else
		g->more_states = 1;
}

/* one sample row into its group */
static void add_row(const struct gctx *c, struct group *g, const struct pt_labelset *ls, int64_t v)
{
	int64_t wait = 0;
	uint32_t k;

	g->count = pt_add(g->count, v);
	for (k = 0; k < ls->n; k++) {
		const struct pt_label *l = &ls->v[k];
		if (l->key == c->state_key && l->str)
			add_state(g, l->str);
		else if (l->key == c->wait_key)
			wait = l->num;
		else if (l->key == c->locked_key)
			g->locked = pt_add(g->locked, v);
		else if (l->key == c->id_key && !l->str) {
			add_id(g->ids, &g->nids, l->num);
			if (c->crash && l->num == c->crashed_id)
				g->crashed = 1;
		}
	}
	if (!g->has_wait || wait < g->wait_min)
		g->wait_min = wait;
	if (!g->has_wait || wait > g->wait_max)
		g->wait_max = wait;
	g->has_wait = 1;
}

static int cmp_count(const struct group *a, const struct group *b)
{
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return 0;
}

static int cmp_wait(const struct group *a, const struct group *b)
{
	if (a->wait_max != b->wait_max)
		return a->wait_max > b->wait_max ? -1 : 1;
	return 0;
}

/* ties: the group whose first goroutine is oldest (smallest id), then the stack */
static int cmp_tail(const struct group *a, const struct group *b)
{
	int64_t x = a->nids ? a->ids[0] : INT64_MAX, y = b->nids ? b->ids[0] : INT64_MAX;
	if (x != y)
		return x < y ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

/* panicparse's order: the group of the goroutine that crashed first, then the rest */
static int by_count(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	int c = b->crashed - a->crashed;
	if (!c)
		c = cmp_count(a, b);
	if (!c)
		c = cmp_wait(a, b);
	return c ? c : cmp_tail(a, b);
}

static int by_wait(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	int c = b->crashed - a->crashed;
	if (!c)
		c = cmp_wait(a, b);
	if (!c)
		c = cmp_count(a, b);
	return c ? c : cmp_tail(a, b);
}

static void text_group(const struct pt_profile *p, const struct group *g, struct pt_buf *b)
{
	uint32_t k, n;

	pt_buf_addf(b, "%lld:", (long long)g->count);
	for (k = 0; k < g->nstates; k++) {
		pt_buf_addstr(b, k ? ", " : " ");
		pt_buf_addstr(b, pt_s(p, g->states[k]));
	}
	if (g->more_states)
		pt_buf_addstr(b, ", ...");
	if (g->wait_max > 0) {
		if (g->wait_min == g->wait_max)
			pt_buf_addf(b, " [%lld minutes]", (long long)g->wait_max);
		else
			pt_buf_addf(b, " [%lld-%lld minutes]", (long long)g->wait_min,
				    (long long)g->wait_max);
	}
	if (g->locked)
		pt_buf_addstr(b, g->locked == g->count ? " [locked to thread]"
						       : " [some locked to thread]");
	if (g->nids) {
		pt_buf_addstr(b, g->count == 1 ? " goroutine" : " goroutines");
		for (k = 0; k < g->nids; k++)
			pt_buf_addf(b, " %lld", (long long)g->ids[k]);
		if ((int64_t)g->nids < g->count)
			pt_buf_addstr(b, " ...");
	}
	pt_buf_addch(b, '\n');
	for (n = g->node; n; n = p->nodes[n].parent) {
		const struct pt_frame *f = pt_frame_of(p, n);
		const struct pt_func *fn = &p->funcs[f->func];
		pt_buf_addstr(b, "    ");
		pt_buf_addstr(b, pt_s(p, fn->name));
		if (fn->file) {
			pt_buf_addstr(b, "\n        ");
			pt_buf_addstr(b, pt_s(p, fn->file));
			if (f->line > 0)
				pt_buf_addf(b, ":%lld", (long long)f->line);
		}
		pt_buf_addch(b, '\n');
	}
	pt_buf_addch(b, '\n');
}

static void json_group(const struct pt_profile *p, const struct group *g, yajl_gen j)
{
	uint32_t k, n;

	pt_yajl()->gen_map_open(j);
	pt_json_key_int(j, "count", g->count);
	pt_json_cstr(j, "states");
	pt_yajl()->gen_array_open(j);
	for (k = 0; k < g->nstates; k++)
		pt_json_str(j, p, g->states[k]);
	pt_yajl()->gen_array_close(j);
	pt_json_key_int(j, "wait_minutes_min", g->wait_min);
	pt_json_key_int(j, "wait_minutes_max", g->wait_max);
	pt_json_key_int(j, "locked_to_thread", g->locked);
	pt_json_cstr(j, "ids");
	pt_yajl()->gen_array_open(j);
	for (k = 0; k < g->nids; k++)
		pt_json_int(j, g->ids[k]);
	pt_yajl()->gen_array_close(j);
	if (g->crashed) {
		pt_json_key_bool(j, "crashed", 1);
	}
	pt_json_cstr(j, "frames");
	pt_yajl()->gen_array_open(j);
	for (n = g->node; n; n = p->nodes[n].parent) {
		const struct pt_frame *f = pt_frame_of(p, n);
		const struct pt_func *fn = &p->funcs[f->func];
		pt_yajl()->gen_map_open(j);
		pt_json_cstr(j, "function");
		pt_json_str(j, p, fn->name);
		pt_json_cstr(j, "file");
		pt_json_str(j, p, fn->file);
		pt_json_key_int(j, "line", f->line > 0 ? f->line : 0);
		if (f->flags & PT_FRAME_CREATOR) {
			pt_json_key_bool(j, "creator", 1);
		}
		pt_yajl()->gen_map_close(j);
	}
	pt_yajl()->gen_array_close(j);
	pt_yajl()->gen_map_close(j);
}

/* ---- an execution trace's goroutines (core/gosplit.h): grouped by start function ---- */

struct tgroup {
	uint32_t node;
	int64_t count;
	int64_t v[PT_GOSPLIT_N];
	int64_t ids[PT_GOROUTINES_IDS];
	uint32_t nids;
};

static int64_t tgroup_wait(const struct tgroup *g)
{
	return pt_add(pt_add(g->v[PT_GOSPLIT_NET], g->v[PT_GOSPLIT_SYNC]),
		      pt_add(g->v[PT_GOSPLIT_SYSCALL], g->v[PT_GOSPLIT_SCHED]));
}

static int tcmp_tail(const struct tgroup *a, const struct tgroup *b)
{
	if (a->v[PT_GOSPLIT_EXEC] != b->v[PT_GOSPLIT_EXEC])
		return a->v[PT_GOSPLIT_EXEC] > b->v[PT_GOSPLIT_EXEC] ? -1 : 1;
	if (a->ids[0] != b->ids[0])
		return a->ids[0] < b->ids[0] ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

static int tby_count(const void *x, const void *y)
{
	const struct tgroup *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return tcmp_tail(a, b);
}

static int tby_wait(const void *x, const void *y)
{
	const struct tgroup *a = x, *b = y;
	int64_t wa = tgroup_wait(a), wb = tgroup_wait(b);
	if (wa != wb)
		return wa > wb ? -1 : 1;
	return tby_count(x, y);
}

static int64_t meta_int(const struct pt_profile *p, const char *key)
{
	const char *s = pt_profile_meta(p, key);
	return s ? strtoll(s, NULL, 10) : 0;
}

/* the rows (one per goroutine) into groups by their start function's node */
static struct tgroup *tgroups(const struct pt_profile *p, uint32_t *ngroups, int64_t *ngs)
{
	struct tgroup *groups = NULL;
	uint32_t *group_of = pt_xcalloc((size_t)p->nnodes + 1, sizeof(uint32_t));
	uint32_t i, k, n = 0, id_key = pt_intern_find(&p->strings, "goroutine", 9);
	size_t galloc = 0;

	*ngs = 0;
	for (i = 0; i < p->nsamples; i++) {
		const struct pt_sample *s = &p->samples[i];
		const struct pt_labelset *ls = &p->labelsets[s->labels];
		struct tgroup *g;
		if (!group_of[s->node]) {
			PT_ALLOC_GROW(groups, (size_t)n + 1, galloc);
			memset(&groups[n], 0, sizeof(groups[0]));
			groups[n].node = s->node;
			group_of[s->node] = ++n;
		}
		g = &groups[group_of[s->node] - 1];
		g->count++;
		(*ngs)++;
		pt_add_values(g->v, p->sample_values + (size_t)i * p->ntypes, PT_GOSPLIT_N);
		for (k = 0; k < ls->n; k++)
			if (id_key && ls->v[k].key == id_key && !ls->v[k].str)
				add_id(g->ids, &g->nids, ls->v[k].num);
	}
	free(group_of);
	*ngroups = n;
	return groups;
}

static void trace_json(const struct pt_profile *p, const struct tgroup *groups, uint32_t n,
		       int64_t ngs, FILE *out)
{
	static const char *const names[PT_GOSPLIT_N] = PT_GOSPLIT_NAMES;
	static const char *const gc[][2] = {{"cycles", PT_GOSPLIT_META_GC},
					    {"nanoseconds", PT_GOSPLIT_META_GC_NS},
					    {"stw_count", PT_GOSPLIT_META_STW},
					    {"stw_nanoseconds", PT_GOSPLIT_META_STW_NS},
					    {"stw_longest_nanoseconds", PT_GOSPLIT_META_STW_MAX}};
	yajl_gen j = pt_json_gen(out);
	uint32_t i, k;

	pt_yajl()->gen_map_open(j);
	pt_json_key_int(j, "goroutines", ngs);
	pt_json_cstr(j, "gc");
	pt_yajl()->gen_map_open(j);
	for (k = 0; k < sizeof(gc) / sizeof(gc[0]); k++) {
		pt_json_cstr(j, gc[k][0]);
		pt_json_int(j, meta_int(p, gc[k][1]));
	}
	pt_yajl()->gen_map_close(j);
	pt_json_cstr(j, "groups");
	pt_yajl()->gen_array_open(j);
	for (i = 0; i < n; i++) {
		const struct tgroup *g = &groups[i];
		const struct pt_frame *f = pt_frame_of(p, g->node);
		pt_yajl()->gen_map_open(j);
		pt_json_cstr(j, "function");
		pt_json_str(j, p, p->funcs[f->func].name);
		pt_json_cstr(j, "file");
		pt_json_str(j, p, p->funcs[f->func].file);
		pt_json_key_int(j, "line", f->line > 0 ? f->line : 0);
		pt_json_key_int(j, "count", g->count);
		for (k = 0; k < PT_GOSPLIT_N; k++) {
			pt_json_cstr(j, names[k]);
			pt_json_int(j, g->v[k]);
		}
		pt_json_cstr(j, "ids");
		pt_yajl()->gen_array_open(j);
		for (k = 0; k < g->nids; k++)
			pt_json_int(j, g->ids[k]);
		pt_yajl()->gen_array_close(j);
		pt_yajl()->gen_map_close(j);
	}
	pt_yajl()->gen_array_close(j);
	pt_yajl()->gen_map_close(j);
	pt_json_done(j, out);
}

static void trace_csv(const struct pt_profile *p, const struct tgroup *groups, uint32_t n,
		      FILE *out)
{
	static const char *const names[PT_GOSPLIT_N] = PT_GOSPLIT_NAMES;
	const struct pt_csv *csv = pt_csv();
	uint32_t i, k;

	fputs("function,file,line,count", out);
	for (k = 0; k < PT_GOSPLIT_N; k++)
		fprintf(out, ",%s", names[k]);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct tgroup *g = &groups[i];
		const struct pt_frame *f = pt_frame_of(p, g->node);
		const char *name = pt_s(p, p->funcs[f->func].name);
		const char *file = pt_s(p, p->funcs[f->func].file);
		csv->fwrite_field(out, name, strlen(name));
		fputc(',', out);
		csv->fwrite_field(out, file, strlen(file));
		fprintf(out, ",%lld,%lld", (long long)(f->line > 0 ? f->line : 0),
			(long long)g->count);
		for (k = 0; k < PT_GOSPLIT_N; k++)
			fprintf(out, ",%lld", (long long)g->v[k]);
		fputc('\n', out);
	}
}

/* a duration in the text report: 0 as "-" so that the columns that matter stand out */
static void text_dur(struct pt_buf *b, const struct pt_profile *p, int64_t v, int width)
{
	struct pt_buf t = PT_BUF_INIT;
	if (v)
		pt_buf_add_scaled(&t, p, PT_GOSPLIT_EXEC, v);
	else
		pt_buf_addstr(&t, "-");
	pt_buf_addf(b, " %*s", width, t.buf);
	pt_buf_release(&t);
}

static void trace_text(const struct pt_profile *p, const struct tgroup *groups, uint32_t n,
		       uint32_t all, int64_t ngs, FILE *out)
{
	static const char *const heads[PT_GOSPLIT_N] = {"execution", "network", "sync",
							"syscall",   "sched",	"sweep",
							"assist",    "gc",	"total"};
	struct pt_buf b = PT_BUF_INIT;
	uint32_t i, k;

	pt_buf_addf(&b, "%lld goroutines in %u groups by start function, ", (long long)ngs, all);
	pt_buf_add_scaled(&b, p, PT_GOSPLIT_EXEC, p->duration_nanos);
	pt_buf_addf(&b, " of trace\nGC: %lld cycles, ", (long long)meta_int(p, PT_GOSPLIT_META_GC));
	pt_buf_add_scaled(&b, p, PT_GOSPLIT_EXEC, meta_int(p, PT_GOSPLIT_META_GC_NS));
	pt_buf_addf(&b, " in all; stop-the-world %lld times, ",
		    (long long)meta_int(p, PT_GOSPLIT_META_STW));
	pt_buf_add_scaled(&b, p, PT_GOSPLIT_EXEC, meta_int(p, PT_GOSPLIT_META_STW_NS));
	pt_buf_addstr(&b, " in all, longest ");
	pt_buf_add_scaled(&b, p, PT_GOSPLIT_EXEC, meta_int(p, PT_GOSPLIT_META_STW_MAX));
	pt_buf_addstr(&b, "\n\n count");
	for (k = 0; k < PT_GOSPLIT_N; k++)
		pt_buf_addf(&b, " %9s", heads[k]);
	pt_buf_addstr(&b, "  function\n");
	for (i = 0; i < n; i++) {
		const struct tgroup *g = &groups[i];
		const struct pt_frame *f = pt_frame_of(p, g->node);
		pt_buf_addf(&b, "%6lld", (long long)g->count);
		for (k = 0; k < PT_GOSPLIT_N; k++)
			text_dur(&b, p, g->v[k], 9);
		pt_buf_addf(&b, "  %s\n", pt_s(p, p->funcs[f->func].name));
		pt_buf_write_out(&b, out, PT_BUF_BLOCK);
	}
	pt_buf_write_out(&b, out, 0);
	pt_buf_release(&b);
}

static int trace_goroutines(const struct pt_profile *p, const struct pt_goroutines_opts *o,
			    FILE *out, struct pt_diag *d)
{
	struct tgroup *groups;
	uint32_t n, all;
	int64_t ngs;

	if (p->ntypes != PT_GOSPLIT_N || pt_profile_need_stacks(p, NULL, d) < 0)
		return pt_diag_error(d, "not a goroutine split of an execution trace");
	groups = tgroups(p, &n, &ngs);
	if (n)
		pt_qsort(groups, n, sizeof(groups[0]), o->by_wait ? tby_wait : tby_count);
	all = n;
	n = (uint32_t)pt_report_shown(o->limit, n);
	if (o->format == PT_FMT_JSON)
		trace_json(p, groups, n, ngs, out);
	else if (o->format == PT_FMT_CSV)
		trace_csv(p, groups, n, out);
	else
		trace_text(p, groups, n, all, ngs, out);
	free(groups);
	return 0;
}

/* a crash dump's reason ("panic: ...", "fatal error: ..."), a line each in input order */
static void crash_reason(const struct pt_profile *p, struct pt_buf *b)
{
	size_t k;

	for (k = 0; k < p->nmeta; k++) {
		const char *key = pt_s(p, p->meta[k].key);
		if (!strcmp(key, PT_GO_META_PANIC) || !strcmp(key, PT_GO_META_FATAL))
			pt_buf_addf(b, "%s: %s\n", key, pt_s(p, p->meta[k].value));
	}
}

static void dump_json(const struct pt_profile *p, const struct gctx *c, const struct group *groups,
		      uint32_t n, int64_t total, FILE *out)
{
	yajl_gen j = pt_json_gen(out);
	uint32_t i;

	pt_yajl()->gen_map_open(j);
	pt_json_key_int(j, "total", total);
	if (c->crash) {
		struct pt_buf b = PT_BUF_INIT;
		crash_reason(p, &b);
		if (b.len)
			b.buf[--b.len] = '\0';
		pt_json_cstr(j, "reason");
		pt_yajl()->gen_string(j, (const unsigned char *)b.buf, b.len);
		pt_json_key_int(j, "crashing_goroutine", c->crashed_id);
		pt_buf_release(&b);
	}
	pt_json_cstr(j, "groups");
	pt_yajl()->gen_array_open(j);
	for (i = 0; i < n; i++)
		json_group(p, &groups[i], j);
	pt_yajl()->gen_array_close(j);
	pt_yajl()->gen_map_close(j);
	pt_json_done(j, out);
}

int pt_report_goroutines(const struct pt_profile *p, const struct pt_goroutines_opts *o, FILE *out,
			 struct pt_diag *d)
{
	const char *crashed;
	struct gctx c;
	struct group *groups = NULL;
	uint32_t *group_of, i, ngroups = 0, all;
	int64_t total = 0;
	size_t galloc = 0;

	if (pt_profile_meta(p, PT_GOSPLIT_META_MARK))
		return trace_goroutines(p, o, out, d);
	if (o->format == PT_FMT_CSV)
		return pt_diag_error(d, "--format csv is for execution traces; a goroutine "
					"dump prints text or json");
	if (pt_profile_need_stacks(p, NULL, d) < 0)
		return -1;
	c.p = p;
	c.state_key = pt_intern_find(&p->strings, "state", 5);
	c.wait_key = pt_intern_find(&p->strings, "wait", 4);
	c.locked_key = pt_intern_find(&p->strings, "locked", 6);
	c.id_key = pt_intern_find(&p->strings, "goroutine", 9);
	crashed = pt_profile_meta(p, PT_GO_META_CRASHED);
	c.crash = crashed != NULL;
	c.crashed_id = crashed ? strtoll(crashed, NULL, 10) : 0;
	/* pt_intern_find gives 0 for an absent string; 0 is "" and no label key */
	group_of = pt_xcalloc((size_t)p->nnodes + 1, sizeof(uint32_t));
	for (i = 0; i < p->nsamples; i++) {
		const struct pt_sample *s = &p->samples[i];
		int64_t v = p->sample_values[(size_t)i * p->ntypes + o->type];
		uint32_t gi;
		if (!v)
			continue;
		if (!group_of[s->node]) {
			PT_ALLOC_GROW(groups, (size_t)ngroups + 1, galloc);
			memset(&groups[ngroups], 0, sizeof(groups[0]));
			groups[ngroups].node = s->node;
			group_of[s->node] = ++ngroups;
		}
		gi = group_of[s->node] - 1;
		add_row(&c, &groups[gi], &p->labelsets[s->labels], v);
		total = pt_add(total, v);
	}
	free(group_of);
	if (ngroups)
		pt_qsort(groups, ngroups, sizeof(groups[0]), o->by_wait ? by_wait : by_count);
	all = ngroups;
	ngroups = (uint32_t)pt_report_shown(o->limit, ngroups);
	if (o->format == PT_FMT_JSON) {
		dump_json(p, &c, groups, ngroups, total, out);
	} else {
		struct pt_buf b = PT_BUF_INIT;
		/* a crash: its reason first, as Go printed it, then the groups */
		crash_reason(p, &b);
		if (b.len)
			pt_buf_addch(&b, '\n');
		pt_buf_addf(&b, "%lld goroutines in %u groups\n\n", (long long)total, all);
		for (i = 0; i < ngroups; i++) {
			text_group(p, &groups[i], &b);
			pt_buf_write_out(&b, out, PT_BUF_BLOCK);
		}
		pt_buf_write_out(&b, out, 0);
		pt_buf_release(&b);
	}
	free(groups);
	return 0;
}
