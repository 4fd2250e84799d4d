/* test-fold.c: the fold as the readers' sink (fold.h) against the tree walk. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/fold.h"
#include "core/profile.h"
#include "core/sink.h"
#include "report/report.h"
#include "tap.h"

static uint32_t fr(struct pt_profile *p, const char *name, uint32_t flags)
{
	return pt_profile_simple_frame(p, name, strlen(name), 0, 0, flags);
}

/* the same input, as a reader would hand it over: frames root first */
static void feed(struct pt_profile *p, struct pt_sink *sink)
{
	uint32_t a = fr(p, "a", 0), b = fr(p, "b", 0), c = fr(p, "c", 0);
	uint32_t s1[] = {a, b, a, b}, s2[] = {a, c}, s3[] = {b};
	int64_t v1[] = {5, 50}, v2[] = {3, 0}, v3[] = {2, 20};

	pt_profile_add_type(p, "samples", "count");
	pt_profile_add_type(p, "cpu", "nanoseconds");
	pt_sink_sample(sink, p, s1, 4, 0, 0, v1, 0);
	pt_sink_sample(sink, p, s2, 2, 0, 0, v2, 0);
	pt_sink_sample(sink, p, s1, 4, 0, 0, v1, 0);
	pt_sink_sample(sink, p, s3, 1, 0, 0, v3, 0);
}

static int same_agg(const struct pt_agg *x, const struct pt_agg *y)
{
	size_t w = x->ntypes;
	uint32_t i;

	if (x->nentries != y->nentries || x->ntypes != y->ntypes ||
	    memcmp(x->total, y->total, w * sizeof(int64_t)))
		return 0;
	for (i = 0; i < x->nentries; i++)
		if (x->entries[i].name != y->entries[i].name ||
		    memcmp(x->flat + i * w, y->flat + i * w, w * sizeof(int64_t)) ||
		    memcmp(x->cum + i * w, y->cum + i * w, w * sizeof(int64_t)))
			return 0;
	return 1;
}

static void test_fold_equals_walk(void)
{
	struct pt_profile f, t;
	struct pt_fold fold;
	struct pt_agg af, at;
	struct pt_diag d;
	uint32_t e;

	pt_profile_init(&f);
	pt_profile_init(&t);
	pt_diag_init(&d, "test");
	pt_fold_init(&fold, &f, PT_GRAN_FUNCTIONS, 0);
	feed(&f, &fold.sink);
	feed(&t, NULL);
	is_int(pt_fold_finish(&fold, &f), 1, "the fold took the stacks");
	is_int(f.nnodes, 1, "folding builds no tree");
	ok(f.agg != NULL && !pt_profile_has_stacks(&f), "the fold is the profile's aggregate");
	is_int(f.nrecords, 4, "every sample is counted");
	is_int(pt_profile_total(&f, 1), 120, "total of a type");
	ok(pt_aggregate_views(&f, PT_GRAN_FUNCTIONS, 0, &af, &d) == 0, "aggregate of the fold");
	ok(pt_aggregate_views(&t, PT_GRAN_FUNCTIONS, 0, &at, &d) == 0, "aggregate of the tree");
	ok(same_agg(&af, &at), "same entries, in the same order, with the same values");
	e = pt_agg_find_func(&af, f.frames[fr(&f, "a", 0)].func);
	is_int(af.cum[e * 2], 13, "recursion counts once per stack");
	is_int(af.flat[e * 2], 0, "a is never a leaf");
	ok(pt_aggregate_views(&f, PT_GRAN_LINES, 0, &at, &d) < 0,
	   "another granularity than the folded one is refused");
	pt_agg_release(&af);
	pt_agg_release(&at);
	pt_fold_release(&fold);
	pt_profile_release(&f);
	pt_profile_release(&t);
}

static void test_tree_reader_keeps_its_tree(void)
{
	struct pt_profile p;
	struct pt_fold fold;
	int64_t v = 7;

	pt_profile_init(&p);
	pt_fold_init(&fold, &p, PT_GRAN_FUNCTIONS, 1);
	pt_profile_add_type(&p, "samples", "count");
	/* a reader whose input is a tree builds it and hands the sink nothing */
	pt_profile_add_sample(&p, pt_profile_child(&p, 0, fr(&p, "x", 0)), 0, &v, 0);
	is_int(pt_fold_finish(&fold, &p), 0, "nothing was folded");
	ok(p.agg == NULL && pt_profile_has_stacks(&p), "a reader that builds the tree keeps it");
	is_int(p.nnodes, 2, "its node is there");
	is_int(pt_profile_total(&p, 0), 7, "and its value");
	pt_fold_release(&fold);
	pt_profile_release(&p);
}

static void test_fold_root_and_types(void)
{
	struct pt_profile p;
	struct pt_fold fold;
	struct pt_agg a;
	struct pt_diag d;
	int64_t v = 4, vv[2] = {1, 10}, root[2] = {0, 5};
	uint32_t s[2];

	pt_profile_init(&p);
	pt_diag_init(&d, "test");
	pt_fold_init(&fold, &p, PT_GRAN_FUNCTIONS, 1);
	pt_profile_add_type(&p, "samples", "count");
	/* a record without frames before any stack: it counts in the total only */
	pt_sink_sample(&fold.sink, &p, NULL, 0, 0, 0, &v, 0);
	s[0] = fr(&p, "m", 0);
	s[1] = fr(&p, "n", PT_FRAME_INLINED);
	pt_sink_sample(&fold.sink, &p, s, 2, 0, 0, &v, 0);
	/* a type found later (perf's events): earlier values are 0 in it */
	pt_profile_add_type(&p, "cycles", "count");
	pt_sink_sample(&fold.sink, &p, s, 2, 0, 0, vv, 0);
	pt_sink_sample(&fold.sink, &p, NULL, 0, 0, 0, root, 0);
	is_int(pt_fold_finish(&fold, &p), 1, "folded");
	is_int(pt_profile_total(&p, 0), 9, "records without frames count");
	is_int(pt_profile_total(&p, 1), 15, "the later type, root value included");
	ok(pt_aggregate_views(&p, PT_GRAN_FUNCTIONS, 0, &a, &d) == 0, "aggregate");
	is_int(a.nentries, 2, "two entries");
	is_int(a.flat[1 * 2 + 0], 5, "leaf flat, first type");
	is_int(a.cum[0 * 2 + 1], 10, "cum of the later type");
	pt_agg_release(&a);
	{
		unsigned char *m = pt_report_inline_marks(&p, &fold, 0);
		is_int(m[p.funcs[p.frames[s[1]].func].name], 1,
		       "an always-inlined callee is marked (inline)");
		is_int(m[p.funcs[p.frames[s[0]].func].name], 0, "its caller is not");
		free(m);
	}
	pt_fold_release(&fold);
	pt_profile_release(&p);
}

static void test_fold_scales_with_the_reader(void)
{
	struct pt_profile p;
	struct pt_fold fold;
	int64_t v = 3;
	uint32_t s;

	pt_profile_init(&p);
	pt_fold_init(&fold, &p, PT_GRAN_FUNCTIONS, 0);
	pt_profile_add_type(&p, "samples", "count");
	s = fr(&p, "z", 0);
	pt_sink_sample(&fold.sink, &p, &s, 1, 0, 0, &v, 0);
	/* a collapsed count with more decimals: what was folded is rescaled too */
	pt_sink_scale_type(&fold.sink, &p, 0, 100);
	pt_sink_sample(&fold.sink, &p, &s, 1, 0, 0, &v, 0);
	pt_fold_finish(&fold, &p);
	is_int(pt_profile_total(&p, 0), 303, "the total before the scaling is scaled");
	is_int(p.agg->flat[0], 303, "and so is the flat value");
	pt_fold_release(&fold);
	pt_profile_release(&p);
}

int main(void)
{
	test_fold_equals_walk();
	test_tree_reader_keeps_its_tree();
	test_fold_scales_with_the_reader();
	test_fold_root_and_types();
	return tap_done();
}
