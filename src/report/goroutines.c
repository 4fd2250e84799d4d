/* goroutines.c: `proftool goroutines`: goroutines with identical stacks grouped, as
 * panicparse prints a dump: each group's count, states, wait-time range, whether it is
 * locked to a thread, its first goroutine ids and its stack (leaf first). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"
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
};

struct gctx {
	const struct pt_profile *p;
	uint32_t state_key, wait_key, locked_key, id_key;
};

static void add_id(struct group *g, int64_t id)
{
	uint32_t k;

	if (g->nids == PT_GOROUTINES_IDS && id >= g->ids[g->nids - 1])
		return;
	if (g->nids < PT_GOROUTINES_IDS)
		g->nids++;
	for (k = g->nids - 1; k > 0 && g->ids[k - 1] > id; k--)
		g->ids[k] = g->ids[k - 1];
	g->ids[k] = id;
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
		else if (l->key == c->id_key && !l->str)
			add_id(g, l->num);
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

static int by_count(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	int c = cmp_count(a, b);
	if (!c)
		c = cmp_wait(a, b);
	return c ? c : cmp_tail(a, b);
}

static int by_wait(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	int c = cmp_wait(a, b);
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

	yajl_gen_map_open(j);
	pt_json_cstr(j, "count");
	pt_json_int(j, g->count);
	pt_json_cstr(j, "states");
	yajl_gen_array_open(j);
	for (k = 0; k < g->nstates; k++)
		pt_json_str(j, p, g->states[k]);
	yajl_gen_array_close(j);
	pt_json_cstr(j, "wait_minutes_min");
	pt_json_int(j, g->wait_min);
	pt_json_cstr(j, "wait_minutes_max");
	pt_json_int(j, g->wait_max);
	pt_json_cstr(j, "locked_to_thread");
	pt_json_int(j, g->locked);
	pt_json_cstr(j, "ids");
	yajl_gen_array_open(j);
	for (k = 0; k < g->nids; k++)
		pt_json_int(j, g->ids[k]);
	yajl_gen_array_close(j);
	pt_json_cstr(j, "frames");
	yajl_gen_array_open(j);
	for (n = g->node; n; n = p->nodes[n].parent) {
		const struct pt_frame *f = pt_frame_of(p, n);
		const struct pt_func *fn = &p->funcs[f->func];
		yajl_gen_map_open(j);
		pt_json_cstr(j, "function");
		pt_json_str(j, p, fn->name);
		pt_json_cstr(j, "file");
		pt_json_str(j, p, fn->file);
		pt_json_cstr(j, "line");
		pt_json_int(j, f->line > 0 ? f->line : 0);
		if (f->flags & PT_FRAME_CREATOR) {
			pt_json_cstr(j, "creator");
			yajl_gen_bool(j, 1);
		}
		yajl_gen_map_close(j);
	}
	yajl_gen_array_close(j);
	yajl_gen_map_close(j);
}

int pt_report_goroutines(const struct pt_profile *p, const struct pt_goroutines_opts *o, FILE *out,
			 struct pt_diag *d)
{
	struct gctx c;
	struct group *groups = NULL;
	uint32_t *group_of, i, ngroups = 0, all;
	int64_t total = 0;
	size_t galloc = 0;

	if (pt_profile_need_stacks(p, NULL, d) < 0)
		return -1;
	c.p = p;
	c.state_key = pt_intern_find(&p->strings, "state", 5);
	c.wait_key = pt_intern_find(&p->strings, "wait", 4);
	c.locked_key = pt_intern_find(&p->strings, "locked", 6);
	c.id_key = pt_intern_find(&p->strings, "goroutine", 9);
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
		yajl_gen j = pt_json_gen(out);
		yajl_gen_map_open(j);
		pt_json_cstr(j, "total");
		pt_json_int(j, total);
		pt_json_cstr(j, "groups");
		yajl_gen_array_open(j);
		for (i = 0; i < ngroups; i++)
			json_group(p, &groups[i], j);
		yajl_gen_array_close(j);
		yajl_gen_map_close(j);
		yajl_gen_free(j);
		fputc('\n', out);
	} else {
		struct pt_buf b = PT_BUF_INIT;
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
