/* writers-edge.c: builds the awkward profiles every writer must handle, straight in the
 * model (no reader can produce some of them: names with ';' or newlines, threads with a
 * timeline), and writes one with a writer, for the viewer tests (t5xxx) to check.
 *
 *   writers-edge CASE FORMAT [TYPE|all]
 * FORMAT "top" prints `top --format csv`, "topjson" `top --format json`, "svg-chart" the
 * svg writer with --flamechart.
 *
 * Cases: empty, single, names, deep, deeprec, threads, diff, oddlines. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "formats/format.h"
#include "core/profile.h"
#include "report/report.h"

static uint32_t frame(struct pt_profile *p, const char *name, const char *file, int64_t line,
		      uint32_t flags)
{
	return pt_profile_simple_frame(p, name, strlen(name), file ? pt_str(p, file) : 0, line,
				       flags);
}

/* names that break naive writers: separators, markup, quotes, control and non-UTF-8
 * bytes, a trailing " 12 34" that flamegraph.pl would read as counts */
static const char *const tricky[] = {
	"semi;colon",
	"say \"hi\" 'there' `now`",
	"<&> &amp; a<b>c",
	"line one\nline two\r\n",
	"bad utf8 \xff\xfe\xc3",
	"frame 12 34",
	"trailing space ",
	"ctl\x01\x1b[31mred\x7f",
	"tab\there",
	"]]> --> </script> </text>",
	"\xc3\xbcn\xc3\xaf"
	"c\xc3\xb8"
	"d\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5",
	"#hash %percent {brace} [bracket] \\back\\slash",
	"",
};
#define NTRICKY (sizeof(tricky) / sizeof(tricky[0]))

static void build_names(struct pt_profile *p)
{
	uint32_t fr[NTRICKY];
	int64_t v = 3;
	size_t i;

	pt_profile_add_type(p, "samples", "count");
	for (i = 0; i < NTRICKY; i++)
		fr[i] = frame(p, tricky[i], i % 2 ? "dir/<odd & \"file\">.c" : NULL, (int64_t)i + 1,
			      0);
	/* one stack through all of them, and each alone as a leaf under the first */
	pt_profile_add_sample(p, pt_profile_stack(p, fr, NTRICKY, 0), 0, &v, 0);
	for (i = 1; i < NTRICKY; i++) {
		uint32_t two[2] = {fr[0], fr[i]};
		v = (int64_t)i;
		pt_profile_add_sample(p, pt_profile_stack(p, two, 2, 0), 0, &v, 0);
	}
}

static void build_deep(struct pt_profile *p, int recursive)
{
	enum { DEPTH = 10000 };
	uint32_t *fr = malloc(DEPTH * sizeof(*fr));
	char name[32];
	int64_t v = 5;
	size_t i;

	pt_profile_add_type(p, "samples", "count");
	for (i = 0; i < DEPTH; i++) {
		snprintf(name, sizeof(name), "f%zu", recursive ? i % 2 : i);
		fr[i] = frame(p, name, "deep.c", (int64_t)(recursive ? i % 2 : i) + 1, 0);
	}
	pt_profile_add_sample(p, pt_profile_stack(p, fr, DEPTH, 0), 0, &v, 0);
	v = 2;
	pt_profile_add_sample(p, pt_profile_stack(p, fr, DEPTH / 2, 0), 0, &v, 0);
	free(fr);
}

/* two processes with three threads, a timeline, kernel/JIT/inlined frames, two types */
static void build_threads(struct pt_profile *p)
{
	static const struct {
		const char *comm;
		int64_t pid, tid;
	} th[] = {{"server", 100, 100}, {"server", 100, 101}, {"worker x", 200, 200}};
	uint32_t ls[3], t;
	int64_t time = 0;
	int i;

	p->keep_timeline = 1;
	pt_profile_add_type(p, "samples", "count");
	pt_profile_add_type(p, "cpu", "nanoseconds");
	p->default_type = 1;
	for (t = 0; t < 3; t++) {
		struct pt_label l[3];
		memset(l, 0, sizeof(l));
		l[0].key = pt_str(p, PT_LABEL_COMM);
		l[0].str = pt_str(p, th[t].comm);
		l[1].key = pt_str(p, PT_LABEL_PID);
		l[1].num = th[t].pid;
		l[2].key = pt_str(p, PT_LABEL_TID);
		l[2].num = th[t].tid;
		ls[t] = pt_profile_labelset(p, l, 3);
	}
	for (i = 0; i < 60; i++) {
		uint32_t fr[5], n = 0;
		int64_t v[2] = {1, 1000000 + (i % 3) * 250000};
		t = (uint32_t)(i / 7) % 3;
		fr[n++] = frame(p, "main", "main.c", 10, 0);
		if (i % 4 == 0) {
			fr[n++] = frame(p, "handle", "srv.c", 20 + (i / 4) % 2, 0);
			fr[n++] = frame(p, "parse", "srv.c", 40, PT_FRAME_INLINED);
		} else if (i % 4 == 1) {
			fr[n++] = frame(p, "Interp::run", NULL, 0, 0);
			fr[n++] = frame(p, "LFoo;.bar", NULL, 0, PT_FRAME_JIT);
		} else {
			fr[n++] = frame(p, "write", "io.c", 7, 0);
			fr[n++] = frame(p, "sys_write", NULL, 0, PT_FRAME_KERNEL);
			if (i % 4 == 3)
				fr[n++] = frame(p, "copy_user", NULL, 0, PT_FRAME_KERNEL);
		}
		time += 1000000 + (i % 5) * 10000;
		pt_profile_add_sample(p, pt_profile_stack(p, fr, n, 0), ls[t], v, time);
	}
	p->duration_nanos = time;
}

static void build_diff(struct pt_profile *p)
{
	static const struct {
		const char *stack[3];
		int64_t base, new;
	} rows[] = {
		{{"main", "grow", NULL}, 10, 30},   {{"main", "shrink", NULL}, 30, 10},
		{{"main", "same", "leaf"}, 20, 20}, {{"main", "gone", NULL}, 5, 0},
		{{"main", "born", NULL}, 0, 5},
	};
	size_t i;

	pt_profile_add_type(p, "base", "count");
	pt_profile_add_type(p, "new", "count");
	p->default_type = 1;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t fr[3], n = 0;
		int64_t v[2] = {rows[i].base, rows[i].new};
		while (n < 3 && rows[i].stack[n]) {
			fr[n] = frame(p, rows[i].stack[n], NULL, 0, 0);
			n++;
		}
		pt_profile_add_sample(p, pt_profile_stack(p, fr, n, 0), 0, v, 0);
	}
}

/* one sample of stack fr (n frames) with values k and 10 k */
static void add_two(struct pt_profile *p, const uint32_t *fr, size_t n, int64_t k)
{
	int64_t v[2] = {k, 10 * k};
	pt_profile_add_sample(p, pt_profile_stack(p, fr, n, 0), 0, v, 0);
}

/* One function at three lines that share their low 32 bits, the bits callgrind keys a
 * line by, so its writer gives them one position: the frame made first (the position's
 * first frame), the one of the first node with self cost, and the one above the first
 * call the walk meets each have a line of their own. Two types. */
static void build_oddlines(struct pt_profile *p)
{
	const int64_t big = (int64_t)1 << 32;
	uint32_t r0, r1, m, l;

	pt_profile_add_type(p, "samples", "count");
	pt_profile_add_type(p, "bytes", "bytes");
	frame(p, "run", "odd.c", 2 * big + 5, 0); /* made first, on no node */
	r0 = frame(p, "run", "odd.c", 5, 0);
	r1 = frame(p, "run", "odd.c", big + 5, 0);
	m = frame(p, "main", "odd.c", 1, 0);
	l = frame(p, "leaf", "odd.c", 9, 0);
	/* the walk meets run@5 first: a node's newest child comes first */
	add_two(p, (uint32_t[]){m, r1}, 2, 1);
	add_two(p, (uint32_t[]){m, r0, l}, 3, 2);
	add_two(p, (uint32_t[]){m, r0}, 2, 3);
	add_two(p, (uint32_t[]){m, r1, l}, 3, 4);
}

int main(int argc, char **argv)
{
	struct pt_profile p;
	struct pt_write_opts o;
	struct pt_diag d;
	const char *c;
	int ret = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: writers-edge CASE FORMAT [TYPE|all]\n");
		return 2;
	}
	c = argv[1];
	pt_profile_init(&p);
	pt_diag_init(&d, c);
	if (!strcmp(c, "empty")) {
		pt_profile_add_type(&p, "samples", "count");
	} else if (!strcmp(c, "single")) {
		int64_t v = 1;
		uint32_t f;
		pt_profile_add_type(&p, "samples", "count");
		f = frame(&p, "main", NULL, 0, 0);
		pt_profile_add_sample(&p, pt_profile_stack(&p, &f, 1, 0), 0, &v, 0);
	} else if (!strcmp(c, "names")) {
		build_names(&p);
	} else if (!strcmp(c, "deep") || !strcmp(c, "deeprec")) {
		build_deep(&p, !strcmp(c, "deeprec"));
	} else if (!strcmp(c, "threads")) {
		build_threads(&p);
	} else if (!strcmp(c, "diff")) {
		build_diff(&p);
	} else if (!strcmp(c, "oddlines")) {
		build_oddlines(&p);
	} else {
		fprintf(stderr, "writers-edge: unknown case '%s'\n", c);
		pt_profile_release(&p);
		return 2;
	}
	p.format = "test";

	pt_write_opts_init(&o);
	o.type = (int)p.default_type;
	if (argc > 3)
		o.type = !strcmp(argv[3], "all") ? PT_TYPE_ALL : atoi(argv[3]);
	if (!strcmp(argv[2], "top") || !strcmp(argv[2], "topjson")) {
		struct pt_top_opts to;
		struct pt_agg a;
		memset(&a, 0, sizeof(a));
		memset(&to, 0, sizeof(to));
		to.type = (uint32_t)o.type;
		to.limit = -1;
		to.format = !strcmp(argv[2], "top") ? PT_FMT_CSV : PT_FMT_JSON;
		if (pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d) < 0 ||
		    pt_report_top(&p, &a, &to, stdout, &d) < 0)
			ret = 1;
		pt_agg_release(&a);
	} else {
		const struct pt_format *f = pt_format_find(argv[2]);
		if (!strcmp(argv[2], "svg-chart")) {
			f = pt_format_find("svg");
			o.flags |= PT_WRITE_FLAMECHART;
		}
		if (!f || !f->write) {
			fprintf(stderr, "writers-edge: no writer '%s'\n", argv[2]);
			ret = 2;
		} else if (f->write(&p, &o, stdout, &d) < 0) {
			pt_diag_print(&d, stderr);
			ret = 1;
		}
	}
	pt_profile_release(&p);
	if (fflush(stdout) || ferror(stdout))
		ret = 1;
	return ret;
}
