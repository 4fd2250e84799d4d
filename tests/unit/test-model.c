/* test-model.c: the call tree and its derived views (aggregate.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "core/check.h"
#include "core/profile.h"
#include "tap.h"

static uint32_t fr(struct pt_profile *p, const char *name)
{
	return pt_profile_simple_frame(p, name, strlen(name), 0, 0, 0);
}

/* add a ';'-separated stack, root first, with values */
static void add(struct pt_profile *p, const char *stack, const int64_t *v)
{
	uint32_t frames[64];
	size_t n = 0;
	const char *s = stack;
	while (*s) {
		const char *e = strchr(s, ';');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		frames[n++] = pt_profile_simple_frame(p, s, len, 0, 0, 0);
		s += len + (e ? 1 : 0);
	}
	pt_profile_add_sample(p, pt_profile_stack(p, frames, n, 0), 0, v, 0);
}

static uint32_t entry(const struct pt_profile *p, const struct pt_agg *a, const char *name)
{
	uint32_t i;
	for (i = 0; i < a->nentries; i++)
		if (!strcmp(pt_s(p, a->entries[i].name), name))
			return i;
	return UINT32_MAX;
}

static int64_t edge(const struct pt_profile *p, const struct pt_agg *a, const char *from,
		    const char *to, uint32_t t)
{
	uint32_t i, f = entry(p, a, from), g = entry(p, a, to);
	for (i = 0; i < a->nedges; i++)
		if (a->edges[i].caller == f && a->edges[i].callee == g)
			return a->edge_value[(size_t)i * a->ntypes + t];
	return -1;
}

#define FLAT(a, e, t) ((a).flat[(size_t)(e) * (a).ntypes + (t)])
#define CUM(a, e, t)  ((a).cum[(size_t)(e) * (a).ntypes + (t)])

static void test_recursion(void)
{
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;
	int64_t one = 1, three = 3;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	add(&p, "A;B;A;B", &one);
	add(&p, "A;B;A", &three);
	pt_diag_init(&d, "test");
	ok(pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d) == 0, "aggregate a recursive profile");
	is_int(a.total[0], 4, "total counts every sample once");
	is_int(CUM(a, entry(&p, &a, "A"), 0), 4, "A;B;A;B: cum of A counted once per stack");
	is_int(CUM(a, entry(&p, &a, "B"), 0), 4, "cum of B counted once per stack");
	is_int(FLAT(a, entry(&p, &a, "A"), 0), 3, "flat of A is the leaf count");
	is_int(FLAT(a, entry(&p, &a, "B"), 0), 1, "flat of B is the leaf count");
	is_int(edge(&p, &a, "A", "B", 0), 4, "edge A->B once per stack");
	is_int(edge(&p, &a, "B", "A", 0), 4, "edge B->A once per stack");
	ok(CUM(a, entry(&p, &a, "A"), 0) <= a.total[0], "no cum exceeds the total");
	pt_agg_release(&a);
	pt_profile_release(&p);
}

static void test_direct_recursion_lines(void)
{
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;
	uint32_t f10, f20, frames[4], i, e;
	int64_t v = 5;
	int64_t self10 = -1, cum10 = -1, self20 = -1, cum20 = -1;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	f10 = pt_profile_simple_frame(&p, "fib", 3, pt_str(&p, "fib.rb"), 10, 0);
	f20 = pt_profile_simple_frame(&p, "fib", 3, pt_str(&p, "fib.rb"), 20, 0);
	frames[0] = f10;
	frames[1] = f10;
	frames[2] = f10;
	frames[3] = f20;
	pt_profile_add_sample(&p, pt_profile_stack(&p, frames, 4, 0), 0, &v, 0);
	pt_diag_init(&d, "test");
	pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d);
	e = entry(&p, &a, "fib");
	is_int(a.nentries, 1, "two lines of one function are one entry");
	is_int(CUM(a, e, 0), 5, "fib;fib;fib;fib: cum once");
	is_int(FLAT(a, e, 0), 5, "flat is the leaf's");
	is_int(edge(&p, &a, "fib", "fib", 0), 5, "self edge once per stack");
	for (i = 0; i < a.nlines; i++) {
		if (a.lines[i].line == 10) {
			self10 = a.line_self[i];
			cum10 = a.line_cum[i];
		} else if (a.lines[i].line == 20) {
			self20 = a.line_self[i];
			cum20 = a.line_cum[i];
		}
	}
	is_int(cum10, 5, "line 10 total once per stack although it recurs thrice");
	is_int(self10, 0, "line 10 has no self");
	is_int(self20, 5, "line 20 self");
	is_int(cum20, 5, "line 20 total");
	pt_agg_release(&a);
	pt_profile_release(&p);
}

static void test_empty(void)
{
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	pt_diag_init(&d, "test");
	ok(pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d) == 0, "aggregate an empty profile");
	is_int(a.nentries, 0, "no entries");
	is_int(a.total[0], 0, "zero total");
	is_int(pt_profile_total(&p, 0), 0, "profile total zero");
	pt_agg_release(&a);
	pt_profile_release(&p);
}

static void test_one_frame_and_types(void)
{
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;
	int64_t v1[2] = {1, 10}, v2[2] = {2, 25};
	uint32_t e;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	pt_profile_add_type(&p, "cpu", "nanoseconds");
	add(&p, "main", v1);
	add(&p, "main", v2);
	add(&p, "other", v1);
	pt_diag_init(&d, "test");
	pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d);
	e = entry(&p, &a, "main");
	is_int(FLAT(a, e, 0), 3, "one-frame stacks: flat samples");
	is_int(CUM(a, e, 0), 3, "one-frame stacks: cum = flat");
	is_int(FLAT(a, e, 1), 35, "second sample type kept apart");
	is_int(a.total[1], 45, "total of the second type");
	is_int(p.nsamples, 2, "identical stacks share a sample row");
	is_int(p.nrecords, 3, "every input sample counted");
	is_int(pt_profile_find_type(&p, "cpu"), 1, "find a type by name");
	is_int(pt_profile_find_type(&p, "0"), 0, "find a type by number");
	is_int(pt_profile_find_type(&p, "wall"), -1, "an unknown type is -1");
	pt_agg_release(&a);
	pt_profile_release(&p);
}

static void test_type_added_late(void)
{
	struct pt_profile p;
	int64_t v1[1] = {7}, v2[2] = {1, 100};

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	add(&p, "a;b", v1);
	pt_profile_add_type(&p, "cycles", "events");
	add(&p, "a;b", v2);
	add(&p, "a;c", v2);
	is_int(pt_profile_total(&p, 0), 9, "old rows keep their values when a type is added");
	is_int(pt_profile_total(&p, 1), 200, "old rows get 0 for the new type");
	pt_profile_release(&p);
}

/* a type per sample after many rows (perf meeting its events as it goes): the rows are
 * widened by doubling, a handful of times, and packed to ntypes after the read */
static void test_types_among_rows(void)
{
	struct pt_profile p;
	int64_t v[PT_MAX_TYPES];
	uint32_t t, widenings = 0, last = 0;
	char name[32], stack[32];
	int bad = 0;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "t0", "count");
	v[0] = 1;
	for (t = 0; t < 1000; t++) {
		snprintf(stack, sizeof(stack), "main;f%u", t);
		add(&p, stack, v);
	}
	for (t = 1; t < PT_MAX_TYPES; t++) {
		snprintf(name, sizeof(name), "t%u", t);
		if (pt_profile_add_type(&p, name, "count") != t)
			bad++;
		if (p.stride != last)
			widenings++;
		last = p.stride;
		memset(v, 0, sizeof(v));
		v[t] = (int64_t)t;
		snprintf(stack, sizeof(stack), "main;g%u", t);
		add(&p, stack, v);
	}
	is_int(bad, 0, "every type up to the cap is added");
	ok(pt_profile_add_type(&p, "one too many", "count") == UINT32_MAX, "the cap holds");
	ok(widenings <= 7, "the rows were widened %u times for %d types", widenings,
	   PT_MAX_TYPES - 1);
	ok(p.stride >= p.ntypes, "the stride covers the types while reading");
	pt_profile_pack(&p);
	is_int(p.stride, p.ntypes, "packed: the stride is ntypes again");
	is_int(pt_profile_total(&p, 0), 1000, "the first type's rows keep their values");
	for (t = 1; t < PT_MAX_TYPES; t++)
		if (pt_profile_total(&p, t) != (int64_t)t)
			bad++;
	is_int(bad, 0, "each later type holds exactly its one sample");
	for (t = 0; t < p.nnodes; t++) {
		uint32_t k;
		for (k = 0; k < p.ntypes; k++)
			if (p.node_self[(size_t)t * p.ntypes + k] < 0)
				bad++;
	}
	is_int(bad, 0, "no row holds garbage after packing");
	pt_profile_release(&p);
}

static void test_many_stacks(void)
{
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;
	uint32_t i, frames[3], root;
	int64_t one = 1;
	char name[32];

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	root = fr(&p, "main");
	for (i = 0; i < 150000; i++) {
		int n = snprintf(name, sizeof(name), "f%u", i % 1000);
		frames[0] = root;
		frames[1] = pt_profile_simple_frame(&p, name, (size_t)n, 0, 0, 0);
		n = snprintf(name, sizeof(name), "g%u", i);
		frames[2] = pt_profile_simple_frame(&p, name, (size_t)n, 0, 0, 0);
		pt_profile_add_sample(&p, pt_profile_stack(&p, frames, 3, 0), 0, &one, 0);
	}
	/* the same stacks again, leaf first */
	for (i = 0; i < 150000; i++) {
		int n = snprintf(name, sizeof(name), "g%u", i);
		frames[0] = pt_profile_simple_frame(&p, name, (size_t)n, 0, 0, 0);
		n = snprintf(name, sizeof(name), "f%u", i % 1000);
		frames[1] = pt_profile_simple_frame(&p, name, (size_t)n, 0, 0, 0);
		frames[2] = root;
		pt_profile_add_sample(&p, pt_profile_stack(&p, frames, 3, 1), 0, &one, 0);
	}
	is_int(p.nsamples, 150000, "150k unique stacks, each seen twice");
	is_int(p.nnodes, 1 + 1 + 1000 + 150000, "the tree shares prefixes");
	pt_diag_init(&d, "test");
	pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d);
	is_int(CUM(a, entry(&p, &a, "main"), 0), 300000, "main is in every stack");
	is_int(CUM(a, entry(&p, &a, "f7"), 0), 300, "f7 in 150 stacks x 2");
	is_int(a.nentries, 1 + 1000 + 150000, "one entry per function");
	pt_agg_release(&a);
	pt_profile_release(&p);
}

static void test_deep(void)
{
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;
	uint32_t *frames = malloc(100000 * sizeof(uint32_t)), i;
	int64_t one = 1;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	for (i = 0; i < 100000; i++)
		frames[i] = fr(&p, i % 2 ? "odd" : "even");
	pt_profile_add_sample(&p, pt_profile_stack(&p, frames, 100000, 0), 0, &one, 0);
	pt_diag_init(&d, "test");
	ok(pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d) == 0, "a 100000-frame stack aggregates");
	is_int(CUM(a, entry(&p, &a, "even"), 0), 1, "deep mutual recursion counted once");
	is_int(edge(&p, &a, "even", "odd", 0), 1, "deep edge counted once");
	pt_agg_release(&a);
	pt_profile_release(&p);
	free(frames);
}

static void test_granularity(void)
{
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;
	uint32_t frames[2];
	int64_t v = 2;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	frames[0] = pt_profile_simple_frame(&p, "main", 4, pt_str(&p, "a.c"), 3, 0);
	frames[1] = pt_profile_simple_frame(&p, "work", 4, pt_str(&p, "a.c"), 9, 0);
	pt_profile_add_sample(&p, pt_profile_stack(&p, frames, 2, 0), 0, &v, 0);
	pt_diag_init(&d, "test");
	pt_aggregate(&p, PT_GRAN_FILES, &a, &d);
	is_int(a.nentries, 1, "files granularity: one file");
	is_int(a.cum[0], 2, "the file counted once per stack");
	pt_agg_release(&a);
	pt_aggregate(&p, PT_GRAN_LINES, &a, &d);
	is_int(a.nentries, 2, "lines granularity: two lines");
	pt_agg_release(&a);
	pt_profile_release(&p);
}

static void test_labels(void)
{
	struct pt_profile p;
	struct pt_label l[2];
	uint32_t ls1, ls2, ls3, node;
	int64_t v = 1;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	memset(l, 0, sizeof(l));
	l[0].key = pt_str(&p, "pid");
	l[0].num = 42;
	l[1].key = pt_str(&p, "comm");
	l[1].str = pt_str(&p, "worker");
	ls1 = pt_profile_labelset(&p, l, 2);
	ls2 = pt_profile_labelset(&p, (struct pt_label[]){l[1], l[0]}, 2);
	ls3 = pt_profile_labelset(&p, l, 1);
	ok(ls1 == ls2, "label sets are the same in any order");
	ok(ls1 != ls3, "different label sets differ");
	node = pt_profile_stack(&p, (uint32_t[]){fr(&p, "x")}, 1, 0);
	pt_profile_add_sample(&p, node, ls1, &v, 0);
	pt_profile_add_sample(&p, node, ls3, &v, 0);
	is_int(p.nsamples, 2, "one row per (stack, labels)");
	is_int(p.node_self[node], 2, "the node holds the sum of its rows");
	pt_profile_release(&p);
}

/* children are found by their sibling list under a few and by the map above that;
 * every count around the switch must find the same nodes */
static void test_child_index(void)
{
	struct pt_profile p;
	uint32_t ids[40], f[40], i, k, bad = 0, before;
	char name[16];

	pt_profile_init(&p);
	for (i = 0; i < 40; i++) {
		int n = snprintf(name, sizeof(name), "c%u", i);
		f[i] = pt_profile_simple_frame(&p, name, (size_t)n, 0, 0, 0);
	}
	for (i = 0; i < 40; i++) {
		ids[i] = pt_profile_child(&p, 0, f[i]);
		/* after each new child, every earlier one is still found, never added again */
		before = p.nnodes;
		for (k = 0; k <= i; k++)
			if (pt_profile_child(&p, 0, f[k]) != ids[k])
				bad++;
		if (p.nnodes != before)
			bad++;
	}
	is_int(bad, 0, "children are found again before, at and after the switch to the map");
	is_int(p.nnodes, 41, "40 distinct children, no duplicates");
	ok(p.indexed_alloc && (p.indexed[0] & 1), "the root's children are in the map");
	for (i = 0, k = p.nodes[0].first_child; k; k = p.nodes[k].next_sibling)
		i++;
	is_int(i, 40, "the sibling list holds every child");
	pt_profile_release(&p);
}

/* top asks for flat and cum only: they equal the full computation, and edges and lines
 * are left empty */
static void test_views(void)
{
	struct pt_profile p;
	struct pt_agg full, some;
	struct pt_diag d;
	int64_t v = 3;
	uint32_t i, diff = 0;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "samples", "count");
	add(&p, "main;a;b;a", &v);
	add(&p, "main;a;c", &v);
	add(&p, "main;b", &v);
	pt_diag_init(&d, "test");
	ok(pt_aggregate(&p, PT_GRAN_FUNCTIONS, &full, &d) == 0, "full aggregate");
	ok(pt_aggregate_views(&p, PT_GRAN_FUNCTIONS, 0, &some, &d) == 0, "flat and cum only");
	is_int(some.nentries, full.nentries, "the same entries");
	for (i = 0; i < some.nentries && i < full.nentries; i++)
		if (FLAT(some, i, 0) != FLAT(full, i, 0) || CUM(some, i, 0) != CUM(full, i, 0))
			diff++;
	is_int(diff, 0, "the same flat and cum values");
	is_int(CUM(some, entry(&p, &some, "a"), 0), 6, "recursive a counted once per stack");
	is_int(some.nedges, 0, "no edges computed");
	ok(full.nedges > 0, "the full aggregate has edges");
	pt_agg_release(&full);
	pt_agg_release(&some);
	pt_profile_release(&p);
}

/* the model check after every read: a sound profile passes, each broken rule is named */
static void test_check(void)
{
	struct pt_profile p;
	struct pt_diag d;
	int64_t v = 2;
	uint32_t keep;

	pt_profile_init(&p);
	pt_diag_init(&d, "x");
	is_int(pt_profile_check(&p, &d), -1, "check: a profile without types fails");
	ok(!strcmp(d.msg, "no sample types in the profile"), "check: says so (%s)", d.msg);
	pt_profile_add_type(&p, "samples", "count");
	add(&p, "a;b;c", &v);
	add(&p, "a;d", &v);
	pt_profile_pack(&p);
	is_int(pt_profile_check(&p, &d), 0, "check: a sound profile passes");

	keep = p.nodes[2].parent;
	p.nodes[2].parent = 3;
	is_int(pt_profile_check(&p, &d), -1, "check: a node before its parent fails");
	ok(strstr(d.msg, "call tree node 2 comes before its parent") != NULL, "check: %s", d.msg);
	p.nodes[2].parent = keep;
	p.nodes[3].depth++;
	is_int(pt_profile_check(&p, &d), -1, "check: a wrong depth fails");
	p.nodes[3].depth--;

	keep = p.frames[1].func;
	p.frames[1].func = p.nfuncs;
	is_int(pt_profile_check(&p, &d), -1, "check: a frame without its function fails");
	ok(strstr(d.msg, "frame 1 has no function") != NULL, "check: %s", d.msg);
	p.frames[1].func = keep;

	keep = p.funcs[1].name;
	p.funcs[1].name = p.strings.n;
	is_int(pt_profile_check(&p, &d), -1, "check: an unresolved string id fails");
	p.funcs[1].name = keep;

	keep = p.samples[0].node;
	p.samples[0].node = p.nnodes;
	is_int(pt_profile_check(&p, &d), -1, "check: a row of a missing node fails");
	p.samples[0].node = keep;
	keep = p.samples[0].labels;
	p.samples[0].labels = p.nlabelsets;
	is_int(pt_profile_check(&p, &d), -1, "check: a row of a missing label set fails");
	p.samples[0].labels = keep;

	is_int(pt_profile_check(&p, &d), 0, "check: mended, it passes again");
	pt_profile_release(&p);
}

/* a function from the bytes of its strings: they take their ids in the order profile.h
 * documents (file, system name, name), whatever order the compiler evaluates in */
static void test_func_text(void)
{
	struct pt_profile p;
	uint32_t base, id, again, other;
	const struct pt_func *f;

	pt_profile_init(&p);
	base = p.strings.n;
	id = pt_profile_func_text(&p, pt_strref_cstr("run"), pt_strref_cstr("_run"),
				  pt_strref_cstr("run.go"), 12, 0);
	f = &p.funcs[id];
	is_int(f->file, base, "func text: the file takes the first new id");
	is_int(f->system_name, base + 1, "func text: the system name the second");
	is_int(f->name, base + 2, "func text: the name the third");
	is_int(p.strings.n, base + 3, "func text: three strings added");
	ok(!strcmp(pt_s(&p, f->file), "run.go") && !strcmp(pt_s(&p, f->system_name), "_run") &&
		   !strcmp(pt_s(&p, f->name), "run"),
	   "func text: each id holds its own string");
	is_int(f->start_line, 12, "func text: the start line kept");

	again = pt_profile_func_text(&p, pt_strref_of("run", 3), pt_strref_of("_run", 4),
				     pt_strref_of("run.go", 6), 12, 0);
	is_int(again, id, "func text: the same bytes give the same function");
	is_int(p.strings.n, base + 3, "func text: and no new string");

	/* a known file keeps its id; the new name with a NUL comes next, whole */
	other = pt_profile_func_text(&p, pt_strref_of("a\0b", 3), pt_strref_of(NULL, 0),
				     pt_strref_cstr("run.go"), 0, 7);
	f = &p.funcs[other];
	ok(other != id, "func text: another function");
	is_int(f->file, base, "func text: a string already there keeps its id");
	is_int(f->system_name, 0, "func text: no system name is id 0");
	is_int(f->name, base + 3, "func text: the new name takes the next id");
	is_int(pt_intern_len(&p.strings, f->name), 3, "func text: the name is its 3 bytes");
	is_int(f->ident, 7, "func text: the identity kept");

	/* two new strings, name and file, the system name empty: the file first */
	id = pt_profile_func_text(&p, pt_strref_cstr("b"), pt_strref_cstr(""),
				  pt_strref_cstr("b.go"), 0, 0);
	f = &p.funcs[id];
	is_int(f->file, base + 4, "func text: a new file before a new name");
	is_int(f->name, base + 5, "func text: the name after it");
	is_int(f->system_name, 0, "func text: the empty system name is id 0");
	pt_profile_release(&p);
}

int main(void)
{
	test_func_text();
	test_check();
	test_child_index();
	test_views();
	test_recursion();
	test_direct_recursion_lines();
	test_empty();
	test_one_frame_and_types();
	test_type_added_late();
	test_types_among_rows();
	test_many_stacks();
	test_deep();
	test_granularity();
	test_labels();
	return tap_done();
}
