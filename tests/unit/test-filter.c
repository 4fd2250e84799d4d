/* test-filter.c: filters, granularity and merge on profiles built here (labels,
 * timelines, files, aggregate-only), which the collapsed format cannot express. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/filter.h"
#include "core/profile.h"
#include "tap.h"

/* a ';'-separated stack, root first; a frame "name@file:line" has a file and line */
static uint32_t stack(struct pt_profile *p, const char *s)
{
	uint32_t frames[64];
	size_t n = 0;
	while (*s) {
		const char *e = strchr(s, ';'), *at, *colon;
		size_t len = e ? (size_t)(e - s) : strlen(s);
		uint32_t file = 0;
		int64_t line = 0;
		char tmp[128];
		memcpy(tmp, s, len);
		tmp[len] = 0;
		at = strchr(tmp, '@');
		if (at) {
			colon = strchr(at, ':');
			file = pt_strn(p, at + 1,
				       colon ? (size_t)(colon - at - 1) : strlen(at + 1));
			line = colon ? atoi(colon + 1) : 0;
			frames[n++] =
				pt_profile_simple_frame(p, tmp, (size_t)(at - tmp), file, line, 0);
		} else {
			frames[n++] = pt_profile_simple_frame(p, tmp, len, 0, 0, 0);
		}
		s += len + (e ? 1 : 0);
	}
	return pt_profile_stack(p, frames, n, 0);
}

static uint32_t labels(struct pt_profile *p, int64_t pid, int64_t tid, const char *comm)
{
	struct pt_label l[3];
	memset(l, 0, sizeof(l));
	l[0].key = pt_str(p, PT_LABEL_PID);
	l[0].num = pid;
	l[1].key = pt_str(p, PT_LABEL_TID);
	l[1].num = tid;
	l[2].key = pt_str(p, PT_LABEL_COMM);
	l[2].str = pt_str(p, comm);
	return pt_profile_labelset(p, l, 3);
}

/* four samples, one per second: (pid, tid, comm) = (1,1,main) (1,2,worker) (2,3,db)
 * (1,2,worker), values 1, 10, 100, 1000 */
static void build(struct pt_profile *p, int timeline)
{
	int64_t v;
	pt_profile_init(p);
	p->keep_timeline = timeline;
	pt_profile_add_type(p, "samples", "count");
	v = 1;
	pt_profile_add_sample(p, stack(p, "main;run;a"), labels(p, 1, 1, "main"), &v, 5);
	v = 10;
	pt_profile_add_sample(p, stack(p, "main;run;b"), labels(p, 1, 2, "worker"), &v,
			      5 + 1000000000LL);
	v = 100;
	pt_profile_add_sample(p, stack(p, "main;query"), labels(p, 2, 3, "db"), &v,
			      5 + 2000000000LL);
	v = 1000;
	pt_profile_add_sample(p, stack(p, "main;run;b"), labels(p, 1, 2, "worker"), &v,
			      5 + 3000000000LL);
}

static int64_t total_after(struct pt_filter *f, int timeline, size_t *nevents)
{
	struct pt_profile p;
	struct pt_diag d;
	int64_t t;
	build(&p, timeline);
	pt_diag_init(&d, "test");
	if (pt_filter_apply(&p, f, NULL, &d) < 0) {
		printf("# %s\n", d.msg);
		pt_profile_release(&p);
		return -1;
	}
	t = pt_profile_total(&p, 0);
	if (nevents)
		*nevents = p.nevents;
	pt_profile_release(&p);
	return t;
}

static void test_tags(void)
{
	struct pt_filter f;

	pt_filter_init(&f);
	pt_filter_add_tag(&f, "pid=1");
	is_int(total_after(&f, 0, NULL), 1011, "--tag pid=1 (numeric label)");
	pt_filter_init(&f);
	pt_filter_add_tag(&f, "pid=01");
	is_int(total_after(&f, 0, NULL), 1011, "numeric labels compare as numbers");
	pt_filter_init(&f);
	pt_filter_add_tag(&f, "comm=worker");
	is_int(total_after(&f, 0, NULL), 1010, "--tag comm=worker (string label)");
	pt_filter_init(&f);
	pt_filter_add_tag(&f, "comm=worker");
	pt_filter_add_tag(&f, "comm=db");
	is_int(total_after(&f, 0, NULL), 1110, "two values of one key: either");
	pt_filter_init(&f);
	pt_filter_add_tag(&f, "comm=worker");
	pt_filter_add_tag(&f, "pid=2");
	is_int(total_after(&f, 0, NULL), 0, "two keys: both");
	pt_filter_init(&f);
	pt_filter_add_tag(&f, "nosuch=1");
	is_int(total_after(&f, 0, NULL), 0, "a key no sample has keeps nothing");
	pt_filter_init(&f);
	pt_filter_add_pid(&f, "2");
	is_int(total_after(&f, 0, NULL), 100, "--process 2");
	pt_filter_init(&f);
	pt_filter_add_thread(&f, "2");
	is_int(total_after(&f, 0, NULL), 1010, "--thread 2 is the tid");
	pt_filter_init(&f);
	pt_filter_add_thread(&f, "main");
	is_int(total_after(&f, 0, NULL), 1, "--thread main is the comm");
	pt_filter_init(&f);
	ok(pt_filter_add_tag(&f, "novalue") < 0 && pt_filter_add_tag(&f, "=x") < 0,
	   "--tag without KEY= is refused");
}

static void test_labels_survive(void)
{
	struct pt_profile p;
	struct pt_filter f;
	struct pt_diag d;
	uint32_t r, workers = 0;

	build(&p, 1);
	pt_filter_init(&f);
	f.focus = "^run$";
	pt_diag_init(&d, "test");
	ok(pt_filter_apply(&p, &f, NULL, &d) == 0, "focus on a labelled profile");
	is_int(p.nsamples, 2, "rows of kept stacks stay apart by label");
	for (r = 0; r < p.nsamples; r++) {
		const struct pt_labelset *ls = &p.labelsets[p.samples[r].labels];
		uint32_t i;
		for (i = 0; i < ls->n; i++)
			if (!strcmp(pt_s(&p, ls->v[i].key), "comm") &&
			    !strcmp(pt_s(&p, ls->v[i].str), "worker"))
				workers += (uint32_t)p.sample_values[r];
	}
	is_int(workers, 1010, "labels are kept on the rows");
	is_int(p.nevents, 3, "timeline events of kept samples are kept");
	is_int(p.nrecords, 3, "kept records counted from the timeline");
	is_int(p.events[2].time, 5 + 3000000000LL, "event times unchanged");
	is_int(p.event_values[2], 1000, "event values unchanged");
	pt_profile_release(&p);
}

static void test_time_window(void)
{
	struct pt_filter f;
	size_t nev = 0;

	pt_filter_init(&f);
	f.has_time_from = 1;
	f.time_from = 1;
	f.has_time_to = 1;
	f.time_to = 3;
	is_int(total_after(&f, 1, &nev), 110, "--time-from 1 --time-to 3: seconds 1 and 2");
	is_int(nev, 2, "two events in the window");
	pt_filter_init(&f);
	f.has_time_from = 1;
	f.time_from = 2.5;
	is_int(total_after(&f, 1, &nev), 1000, "--time-from 2.5: the last one");
	pt_filter_init(&f);
	f.has_time_to = 1;
	f.time_to = 0.5;
	is_int(total_after(&f, 1, &nev), 1, "--time-to 0.5: the first (times from the first)");
	pt_filter_init(&f);
	f.has_time_to = 1;
	f.time_to = 1;
	is_int(total_after(&f, 0, NULL), -1, "no timeline: an error");
}

static void test_no_stacks(void)
{
	struct pt_profile p;
	struct pt_filter f;
	struct pt_diag d;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	p.agg = calloc(1, sizeof(*p.agg));
	pt_agg_init(p.agg, 1, PT_GRAN_FUNCTIONS);
	p.no_stacks_reason = "stackprof dump without raw samples";
	pt_filter_init(&f);
	f.hide = "x";
	pt_diag_init(&d, "test");
	ok(pt_filter_apply(&p, &f, NULL, &d) < 0, "a stack filter on an aggregate-only profile");
	ok(!strcmp(d.msg, "cannot apply --hide: the profile has no stacks (stackprof dump "
			  "without raw samples)"),
	   "the error names the filter: %s", d.msg);
	pt_profile_release(&p);
}

static void test_match_file(void)
{
	struct pt_profile p;
	struct pt_filter f;
	struct pt_diag d;
	int64_t v = 1;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	pt_profile_add_sample(&p, stack(&p, "main@app.rb:1;x@lib/util.rb:5"), 0, &v, 0);
	v = 2;
	pt_profile_add_sample(&p, stack(&p, "main@app.rb:1;y@app.rb:9"), 0, &v, 0);
	pt_filter_init(&f);
	f.focus = "util";
	pt_diag_init(&d, "test");
	pt_filter_apply(&p, &f, NULL, &d);
	is_int(pt_profile_total(&p, 0), 0, "names only: 'util' matches no function");
	pt_profile_release(&p);

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	v = 1;
	pt_profile_add_sample(&p, stack(&p, "main@app.rb:1;x@lib/util.rb:5"), 0, &v, 0);
	v = 2;
	pt_profile_add_sample(&p, stack(&p, "main@app.rb:1;y@app.rb:9"), 0, &v, 0);
	f.match_file = 1;
	pt_filter_apply(&p, &f, NULL, &d);
	is_int(pt_profile_total(&p, 0), 1, "--match-file: the file path matches");
	pt_profile_release(&p);
}

static void test_granularity(void)
{
	struct pt_profile p;
	struct pt_diag d;
	int64_t v = 1;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	pt_profile_add_sample(&p, stack(&p, "main@a.c:1;f@a.c:10;g@b.c:3"), 0, &v, 0);
	pt_profile_add_sample(&p, stack(&p, "main@a.c:2;f@a.c:11;g@b.c:3"), 0, &v, 0);
	pt_profile_add_sample(&p, stack(&p, "main@a.c:2;f@a.c:11;g@b.c:4"), 0, &v, 0);
	is_int(p.nnodes, 8, "by address (as read): 7 nodes and the root");
	pt_diag_init(&d, "test");
	ok(pt_filter_granularity(&p, PT_GRAN_LINES, &d) == 0, "re-key by lines");
	is_int(p.nnodes, 8, "lines: the same here (each frame has a distinct line)");
	ok(pt_filter_granularity(&p, PT_GRAN_FUNCTIONS, &d) == 0, "re-key by functions");
	is_int(p.nnodes, 4, "functions: main;f;g");
	is_int(pt_profile_total(&p, 0), 3, "values kept");
	ok(pt_filter_granularity(&p, PT_GRAN_FILES, &d) == 0, "re-key by files");
	is_int(p.nnodes, 4, "files: a.c;a.c;b.c");
	ok(!strcmp(pt_s(&p, p.funcs[p.frames[p.nodes[3].frame].func].name), "b.c"),
	   "a file frame is named by the file");
	pt_profile_release(&p);
}

static void test_merge(void)
{
	struct pt_profile a, b;
	uint32_t map[1] = {0};
	int64_t v = 4;

	build(&a, 1);
	a.time_nanos = 1000;
	a.duration_nanos = 4000000000LL;
	pt_profile_init(&b);
	b.keep_timeline = 1;
	pt_profile_add_type(&b, "samples", "count");
	pt_profile_add_sample(&b, stack(&b, "main;run;b"), labels(&b, 1, 2, "worker"), &v, 0);
	b.time_nanos = 500;
	b.duration_nanos = 10;
	pt_profile_merge(&a, &b, map);
	is_int(pt_profile_total(&a, 0), 1115, "merged total");
	is_int(a.nrecords, 5, "merged record count");
	is_int(a.nsamples, 3, "same stack and labels share a row");
	is_int(a.nevents, 5, "timelines appended");
	is_int(a.time_nanos, 500, "the earlier start");
	is_int(a.events[0].time, 505, "the first profile's events moved to the new start");
	is_int(a.events[4].time, 0, "the second profile's events on the same base");
	is_int(a.duration_nanos, 4000000500LL, "the span covers both");
	pt_profile_release(&a);
	pt_profile_release(&b);
}

static void test_deep(void)
{
	struct pt_profile p;
	struct pt_filter f;
	struct pt_diag d;
	uint32_t *frames = malloc(100000 * sizeof(uint32_t)), i, a, b;
	int64_t v = 1;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	a = pt_profile_simple_frame(&p, "a", 1, 0, 0, 0);
	b = pt_profile_simple_frame(&p, "b", 1, 0, 0, 0);
	for (i = 0; i < 100000; i++)
		frames[i] = i % 2 ? b : a;
	pt_profile_add_sample(&p, pt_profile_stack(&p, frames, 100000, 0), 0, &v, 0);
	for (i = 0; i < 100000; i++) {
		char name[16];
		int n = snprintf(name, sizeof(name), "f%u", i);
		frames[i] = pt_profile_simple_frame(&p, name, (size_t)n, 0, 0, 0);
	}
	pt_profile_add_sample(&p, pt_profile_stack(&p, frames, 100000, 0), 0, &v, 0);
	pt_filter_init(&f);
	f.collapse_recursion = 1;
	f.hide = "^f1";
	pt_diag_init(&d, "test");
	ok(pt_filter_apply(&p, &f, NULL, &d) == 0, "100000-deep stacks: hide and fold");
	is_int(pt_profile_total(&p, 0), 2, "values kept");
	ok(p.nnodes < 100000, "a;b;a;b... folded into a;b (%u nodes)", p.nnodes);
	pt_profile_release(&p);
	free(frames);
}

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* an aggregate-only profile: main -> x with value v, as a stackprof dump without raw */
static void build_agg(struct pt_profile *p, int64_t v)
{
	struct pt_agg_entry e;
	uint32_t m, x, ed;

	pt_profile_init(p);
	pt_profile_add_type(p, "samples", "count");
	p->agg = calloc(1, sizeof(*p->agg));
	pt_agg_init(p->agg, 1, PT_GRAN_FUNCTIONS);
	p->agg->edges_per_occurrence = 1;
	p->no_stacks_reason = "no raw samples";
	memset(&e, 0, sizeof(e));
	e.name = pt_str(p, "main");
	e.func = pt_profile_func(p, e.name, 0, 0, 0);
	m = pt_agg_entry(p->agg, 100, &e);
	e.name = pt_str(p, "x");
	e.func = pt_profile_func(p, e.name, 0, 0, 0);
	x = pt_agg_entry(p->agg, 200, &e);
	p->agg->cum[m] = v;
	p->agg->flat[x] = v;
	p->agg->cum[x] = v;
	ed = pt_agg_edge(p->agg, m, x);
	p->agg->edge_value[ed] = v;
	p->agg->total[0] = v;
	p->nrecords = (uint64_t)v;
}

/* "name flat cum" and "caller>callee value" lines, sorted: a canonical form */
static char *agg_dump(struct pt_profile *p)
{
	struct pt_agg a;
	struct pt_diag d;
	char **lines, *out;
	uint32_t i, n = 0;
	size_t len = 0;

	pt_diag_init(&d, "test");
	pt_aggregate(p, PT_GRAN_FUNCTIONS, &a, &d);
	lines = calloc(a.nentries + a.nedges + 1, sizeof(*lines));
	for (i = 0; i < a.nentries; i++) {
		lines[n] = malloc(128);
		snprintf(lines[n++], 128, "%s %lld %lld", pt_s(p, a.entries[i].name),
			 (long long)a.flat[i], (long long)a.cum[i]);
	}
	for (i = 0; i < a.nedges; i++) {
		lines[n] = malloc(128);
		snprintf(lines[n++], 128, "%s>%s %lld", pt_s(p, a.entries[a.edges[i].caller].name),
			 pt_s(p, a.entries[a.edges[i].callee].name), (long long)a.edge_value[i]);
	}
	qsort(lines, n, sizeof(*lines), strcmp_ptr);
	for (i = 0; i < n; i++)
		len += strlen(lines[i]) + 1;
	out = calloc(len + 1, 1);
	for (i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
		free(lines[i]);
	}
	free(lines);
	pt_agg_release(&a);
	return out;
}

static void test_merge_no_stacks(void)
{
	struct pt_profile a, b, c, l, r;
	struct pt_diag d;
	uint32_t map[1] = {0};
	char *left, *right;

	/* left = (a b) c, right = a (b c); a, c with stacks, b without */
	build(&a, 0);
	build_agg(&b, 5);
	pt_diag_init(&d, "test");
	ok(pt_profile_merge_any(&a, &b, map, &d) == 0, "stacks + aggregates");
	ok(!pt_profile_has_stacks(&a), "the result has no stacks");
	is_int(pt_profile_total(&a, 0), 1116, "totals add up");
	is_int(a.nrecords, 9, "records add up");
	build(&c, 0);
	pt_profile_merge_any(&a, &c, map, &d);
	l = a;
	left = agg_dump(&l);
	pt_profile_release(&b);
	pt_profile_release(&c);

	build(&r, 0);
	build_agg(&b, 5);
	build(&c, 0);
	ok(pt_profile_merge_any(&b, &c, map, &d) == 0, "aggregates + stacks");
	pt_profile_merge_any(&r, &b, map, &d);
	right = agg_dump(&r);
	ok(!strcmp(left, right), "associative without stacks too");
	ok(strstr(left, "main 0 2227\n") != NULL, "main's cum is the sum");
	ok(strstr(left, "main>x 5\n") != NULL, "edges add up");
	free(left);
	free(right);
	pt_profile_release(&l);
	pt_profile_release(&r);
	pt_profile_release(&b);
	pt_profile_release(&c);
}

int main(void)
{
	test_tags();
	test_labels_survive();
	test_time_window();
	test_no_stacks();
	test_match_file();
	test_granularity();
	test_merge();
	test_deep();
	test_merge_no_stacks();
	return tap_done();
}
