/* cmd-heap.c: `proftool heap`: a V8 heap snapshot per constructor (DevTools' Summary),
 * the retaining paths of the largest objects, and the comparison of two snapshots. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dominator.h"
#include "analysis/heapleak.h"
#include "analysis/heapowner.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/ci.h"
#include "report/heap.h"
#include "util/xalloc.h"

enum {
	OPT_RETAINERS = PT_OPT_CMD_BASE,
	OPT_DIFF,
	OPT_FAIL_GROWTH,
	OPT_MAX_SIZE,
	OPT_SNAPSHOT_SIZES,
	OPT_RAW_SIZES,
	OPT_QUIET,
	OPT_BY,
	OPT_LEAKS,
	OPT_FAIL_LEAK,
	OPT_PAGES,
	OPT_PAGE_SIZE,
	OPT_SLOT_SIZE,
	OPT_JUNIT,
	OPT_METRICS,
};

struct heap_args {
	const char *retainers;
	int diff;
	int64_t fail_bytes;
	double fail_pct;
	uint64_t max_size;
	int snapshot_sizes; /* the snapshot's own self sizes, not DevTools' moved ones */
	int raw_sizes;	    /* text gives bytes, not kB and MB */
	int quiet;
	enum pt_heap_by by;
	int leaks;
	int64_t fail_leak;
	int pages;
	uint64_t page_size, slot_size;
	const char *junit, *metrics; /* --diff's CI reports, or NULL */
};

static int heap_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt heap_options[] = {
	PT_OPT_NODES_ROW("show the N largest constructors; 0 shows all (default 30 for text, "
			 "all for csv/json; --retainers: 5 objects)"),
	PT_OPT_FORMAT_ROW("text|csv|json", "output format; csv and json give sizes in bytes"),
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout; FILE.html: the summary and the "
			  "retainers of the largest classes as a page"),
	{"retainers", 0, required_argument, OPT_RETAINERS, "RE",
	 "the retaining path DevTools' Retainers pane opens (shortest from the globals, by "
	 "DevTools' distance) to each of the largest objects of the constructors matching RE "
	 "(a pattern, see PATTERNS in the man page)"},
	{"diff", 0, no_argument, OPT_DIFF, NULL,
	 "compare two snapshots BASE NEW per constructor by object id (DevTools' Comparison)"},
	{"fail-on-growth", 0, required_argument, OPT_FAIL_GROWTH, "BYTES|PCT%",
	 "with --diff: exit 3 when a constructor's size grew by more than BYTES (64K, 1M...) "
	 "or PCT percent of its size in BASE"},
	{"junit", 0, required_argument, OPT_JUNIT, "FILE",
	 "with --diff: also write a JUnit XML report, a test case per changed row, a "
	 "failure for each past --fail-on-growth"},
	{"metrics", 0, required_argument, OPT_METRICS, "FILE",
	 "with --diff: also write OpenMetrics lines, each changed row's size in BASE and NEW "
	 "and its change"},
	{"by", 0, required_argument, OPT_BY, "class|site|generation",
	 "group objects by class (the default), or, for a Ruby dump made with allocation "
	 "tracing, by allocation site (file:line) or GC generation; also for --diff and "
	 "--leaks"},
	{"leaks", 0, no_argument, OPT_LEAKS, NULL,
	 "a leak verdict over snapshots BASE TARGET... FINAL of one process: the objects of "
	 "FINAL allocated after BASE and alive in every snapshot since (V8: by node id; "
	 "Ruby: by address and type)"},
	{"fail-on-leak", 0, required_argument, OPT_FAIL_LEAK, "BYTES",
	 "with --leaks: exit 3 when the leaked objects of a class (or site, generation) "
	 "retain more than BYTES (64K, 1M...), one stderr line per such row"},
	{"pages", 0, no_argument, OPT_PAGES, NULL,
	 "a Ruby dump's heap pages: page count, live slots per page, pages under 25% full, "
	 "one row per page; with -o FILE.svg, every page drawn as a row of slots coloured "
	 "by type (free grey, pinned outlined)"},
	{"page-size", 0, required_argument, OPT_PAGE_SIZE, "SIZE",
	 "with --pages: the GC's page size, a power of two (default 16K, Ruby up to 3.1; "
	 "64K for 3.2 on)"},
	{"slot-size", 0, required_argument, OPT_SLOT_SIZE, "BYTES",
	 "with --pages: the slot size (default 40, RVALUE_SIZE)"},
	{"snapshot-sizes", 0, no_argument, OPT_SNAPSHOT_SIZES, NULL,
	 "keep each node's own self size, as the snapshot (and memlab) has it, instead of "
	 "DevTools' moving the sizes of hidden nodes and arrays one object owns to it"},
	{"raw-sizes", 0, no_argument, OPT_RAW_SIZES, NULL,
	 "text: sizes in bytes, not scaled to kB and MB (csv and json always give bytes)"},
	{"quiet", 0, no_argument, OPT_QUIET, NULL,
	 "no progress on a terminal's standard error (shown for reads past 2 s)"},
	{"max-input-size", 0, required_argument, OPT_MAX_SIZE, "SIZE",
	 "refuse inputs larger than SIZE after decompression (default 8G)"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {heap_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"heap",
	"heap [OPTIONS] FILE | heap --diff [OPTIONS] BASE NEW\n"
	"       | heap --leaks [OPTIONS] BASE TARGET... FINAL",
	"Summarize a V8 heap snapshot (.heapsnapshot) per constructor as Chrome DevTools'\n"
	"Summary view does: object count, shallow size and retained size (from the\n"
	"dominator tree, with DevTools' rules for weak edges), sorted by retained size.\n"
	"A Ruby heap dump (ObjectSpace.dump_all) gets the same summary per class, or per\n"
	"allocation site or generation.",
	tables, heap_option};

static int heap_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	struct heap_args *a = ctx;
	uint64_t v;
	size_t n;

	switch (id) {
	case OPT_RETAINERS:
		a->retainers = arg;
		return 1;
	case OPT_DIFF:
		a->diff = 1;
		return 1;
	case OPT_SNAPSHOT_SIZES:
		a->snapshot_sizes = 1;
		return 1;
	case OPT_RAW_SIZES:
		a->raw_sizes = 1;
		return 1;
	case OPT_QUIET:
		a->quiet = 1;
		return 1;
	case OPT_BY:
		if (!strcmp(arg, "class"))
			a->by = PT_HEAP_BY_CLASS;
		else if (!strcmp(arg, "site"))
			a->by = PT_HEAP_BY_SITE;
		else if (!strcmp(arg, "generation"))
			a->by = PT_HEAP_BY_GENERATION;
		else {
			pt_usage_error(sp, "bad grouping '%s' for --by (class, site, generation)",
				       arg);
			return -1;
		}
		return 1;
	case OPT_JUNIT:
		a->junit = arg;
		return 1;
	case OPT_METRICS:
		a->metrics = arg;
		return 1;
	case OPT_LEAKS:
		a->leaks = 1;
		return 1;
	case OPT_PAGES:
		a->pages = 1;
		return 1;
	case OPT_PAGE_SIZE:
		if (pt_parse_size(arg, &v) < 0 || v < 256 || v > ((uint64_t)1 << 30) ||
		    (v & (v - 1))) {
			pt_usage_error(sp, "bad page size '%s' (a power of two, 256 to 1G)", arg);
			return -1;
		}
		a->page_size = v;
		return 1;
	case OPT_SLOT_SIZE:
		if (pt_parse_size(arg, &v) < 0 || v < 8 || v > 65536) {
			pt_usage_error(sp, "bad slot size '%s' (8 to 64K bytes)", arg);
			return -1;
		}
		a->slot_size = v;
		return 1;
	case OPT_FAIL_LEAK:
		if (pt_parse_size(arg, &v) < 0 || v > INT64_MAX) {
			pt_usage_error(sp, "bad size '%s' for --fail-on-leak", arg);
			return -1;
		}
		a->fail_leak = (int64_t)v;
		return 1;
	case OPT_FAIL_GROWTH:
		n = strlen(arg);
		if (n && arg[n - 1] == '%') {
			char *end;
			double p = strtod(arg, &end);
			if (end != arg + n - 1 || !(p >= 0)) {
				pt_usage_error(sp, "bad percentage '%s' for --fail-on-growth", arg);
				return -1;
			}
			a->fail_pct = p;
			return 1;
		}
		if (pt_parse_size(arg, &v) < 0 || v > INT64_MAX) {
			pt_usage_error(sp, "bad size '%s' for --fail-on-growth (BYTES or PCT%%)",
				       arg);
			return -1;
		}
		a->fail_bytes = (int64_t)v;
		return 1;
	case OPT_MAX_SIZE:
		if (pt_parse_size(arg, &a->max_size) < 0) {
			pt_usage_error(sp, "bad size '%s' for --max-input-size", arg);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* through the driver: detected, read, DevTools' sizes unless --snapshot-sizes; --by site
 * and generation only for Ruby dumps */
static int load(const char *path, const struct heap_args *a, struct pt_heapgraph *g)
{
	int ret = pt_run_heap(path, a->max_size, a->snapshot_sizes, a->quiet, g);

	if (!ret && a->by != PT_HEAP_BY_CLASS && !g->rb_addr) {
		fprintf(stderr,
			"proftool: %s: --by site and --by generation need a Ruby heap dump, "
			"not a V8 snapshot\n",
			path);
		ret = PT_EXIT_INPUT;
	}
	return ret;
}

struct emit_ctx {
	const struct heap_args *a;
	const struct pt_report_args *ra;
	const char *path;
	struct pt_heapgraph *g;
	struct pt_heap_dom *dom;
	struct pt_heap_summary *s;
	struct pt_pattern *re;
	struct pt_heap_pages *pages;
	struct pt_heap_diff *df;
};

/* -o FILE.html (or .htm): the summary as a page */
static int html_out(const struct pt_report_args *ra)
{
	size_t n = ra->outpath ? strlen(ra->outpath) : 0;
	return (n > 5 && !strcmp(ra->outpath + n - 5, ".html")) ||
	       (n > 4 && !strcmp(ra->outpath + n - 4, ".htm"));
}

static int emit_summary(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	(void)d;
	if (html_out(c->ra))
		return pt_report_heap_html(c->g, c->dom, c->s, c->path, out);
	return pt_report_heap(c->s, c->path,
			      pt_report_limit(c->ra, c->ra->format == PT_FMT_TEXT ? 30 : -1),
			      c->ra->format, c->a->raw_sizes, out);
}

static int emit_retainers(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	return pt_report_heap_retainers(c->g, c->dom, c->s, c->re, pt_report_limit(c->ra, 5),
					c->ra->format, c->a->raw_sizes, out, d);
}

static int emit_diff(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	(void)d;
	return pt_report_heap_diff_rows(
		c->df, pt_report_limit(c->ra, c->ra->format == PT_FMT_TEXT ? 30 : -1),
		c->ra->format, c->a->raw_sizes, out);
}

/* --junit: a test case per changed row, the rows past the gate failures */
static int emit_junit(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	const struct pt_heap_diff *df = c->df;
	struct pt_ci_case *cases = pt_xcalloc(df->n ? df->n : 1, sizeof(*cases));
	struct pt_buf *text = pt_xcalloc(2 * (df->n ? df->n : 1), sizeof(*text));
	size_t i;

	(void)d;
	for (i = 0; i < df->n; i++) {
		const struct pt_heap_diff_row *r = &df->rows[i];
		cases[i].name = r->name;
		pt_buf_addf(&text[2 * i],
			    "%" PRIu64 " new, %" PRIu64 " deleted, %+" PRId64 " bytes (%" PRIu64
			    " -> %" PRId64 " bytes)",
			    r->added, r->deleted, r->size_delta, r->base_size,
			    (int64_t)r->base_size + r->size_delta);
		cases[i].detail = text[2 * i].buf;
		if (r->over) {
			pt_heap_diff_offender(&text[2 * i + 1], r);
			pt_buf_addstr(&text[2 * i + 1], ": grew past --fail-on-growth");
			cases[i].failure = text[2 * i + 1].buf;
		}
	}
	pt_ci_junit(out, "proftool heap --diff", cases, df->n);
	for (i = 0; i < 2 * df->n; i++)
		pt_buf_release(&text[i]);
	free(text);
	free(cases);
	return 0;
}

/* --metrics: each changed row's bytes in BASE and NEW and the change */
static int emit_metrics(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	const struct pt_heap_diff *df = c->df;
	static const char *const names[3] = {"proftool_heap_base_bytes", "proftool_heap_new_bytes",
					     "proftool_heap_size_change_bytes"};
	static const char *const help[3] = {"the row's objects' size in BASE, bytes",
					    "the row's objects' size in NEW, bytes",
					    "NEW's size less BASE's, bytes"};
	const char *label = c->a->by == PT_HEAP_BY_SITE		? "site"
			    : c->a->by == PT_HEAP_BY_GENERATION ? "generation"
								: "class";
	size_t i;
	int m;

	(void)d;
	for (m = 0; m < 3; m++) {
		pt_ci_metric_family(out, names[m], help[m]);
		for (i = 0; i < df->n; i++) {
			const struct pt_heap_diff_row *r = &df->rows[i];
			double v = m == 0   ? (double)r->base_size
				   : m == 1 ? (double)r->base_size + (double)r->size_delta
					    : (double)r->size_delta;
			pt_ci_metric(out, names[m], label, r->name, v);
		}
	}
	pt_ci_metrics_end(out);
	return 0;
}

/* --diff: the table, the CI reports, then the gate's lines on standard error */
static int run_diff(const struct heap_args *a, const struct pt_report_args *ra, char **files)
{
	struct pt_heapgraph g, g2;
	struct pt_heap_diff df;
	struct emit_ctx c;
	size_t i, n = 0;
	int ret;

	if ((ret = load(files[0], a, &g))) {
		pt_heapgraph_release(&g);
		return ret;
	}
	if ((ret = load(files[1], a, &g2))) {
		pt_heapgraph_release(&g);
		pt_heapgraph_release(&g2);
		return ret;
	}
	pt_heap_diff_by(&g, &g2, a->by, a->fail_bytes, a->fail_pct, &df);
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.ra = ra;
	c.path = files[1];
	c.df = &df;
	ret = pt_cli_emit(ra->outpath, files[1], emit_diff, &c);
	if (!ret && a->junit)
		ret = pt_cli_emit(a->junit, a->junit, emit_junit, &c);
	if (!ret && a->metrics)
		ret = pt_cli_emit(a->metrics, a->metrics, emit_metrics, &c);
	if (!ret && df.grew_over) {
		struct pt_buf b = PT_BUF_INIT;
		/* each offender on standard error, as diff --fail-on-regression does */
		for (i = 0; i < df.n; i++) {
			if (!df.rows[i].over)
				continue;
			pt_buf_reset(&b);
			pt_heap_diff_offender(&b, &df.rows[i]);
			fprintf(stderr, "proftool: heap: regression: %s\n", b.buf);
			n++;
		}
		pt_buf_release(&b);
		fprintf(stderr, "proftool: heap: %zu %s grew past --fail-on-growth\n", n,
			n == 1 ? "row" : "rows");
		ret = PT_EXIT_REGRESSION;
	}
	pt_heap_diff_release(&df);
	pt_heapgraph_release(&g);
	pt_heapgraph_release(&g2);
	return ret;
}

/* --fail-on-leak: one stderr line per row whose leaked objects retain more than the
 * limit; PT_EXIT_REGRESSION if any */
static int leak_gate(const struct pt_heap_summary *s, const char *path, int64_t limit)
{
	size_t i, k, nover = 0;

	for (i = 0; limit >= 0 && i < s->n; i++) {
		const struct pt_heap_row *r = &s->rows[i];
		if (r->retained <= (uint64_t)limit)
			continue;
		nover++;
		fprintf(stderr, "proftool: %s: leak: ", path);
		for (k = 0; r->name[k] && k < 200; k++) { /* one line, whatever the name holds */
			int ch = (unsigned char)r->name[k];
			fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, stderr);
		}
		fprintf(stderr,
			": %" PRIu64 " objects retain %" PRIu64 " bytes (over %" PRId64 ")\n",
			r->count, r->retained, limit);
	}
	return nover ? PT_EXIT_REGRESSION : PT_EXIT_OK;
}

static int emit_pages(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	size_t n = c->ra->outpath ? strlen(c->ra->outpath) : 0;
	(void)d;
	if (n > 4 && !strcmp(c->ra->outpath + n - 4, ".svg"))
		return pt_report_heap_pages_svg(c->pages, c->g, c->path, out);
	return pt_report_heap_pages(c->pages, c->path,
				    pt_report_limit(c->ra, c->ra->format == PT_FMT_TEXT ? 30 : -1),
				    c->ra->format, out);
}

/* --pages: a Ruby dump's objects on their heap pages */
static int run_pages(const struct heap_args *a, const struct pt_report_args *ra, const char *path)
{
	struct pt_heapgraph g;
	struct pt_heap_pages pages;
	struct emit_ctx c;
	int ret;

	if ((ret = load(path, a, &g))) {
		pt_heapgraph_release(&g);
		return ret;
	}
	if (!g.rb_addr) {
		fprintf(stderr, "proftool: %s: --pages needs a Ruby heap dump, not a V8 snapshot\n",
			path);
		pt_heapgraph_release(&g);
		return PT_EXIT_INPUT;
	}
	if ((a->page_size ? a->page_size : 16384) - 8 < 4 * (a->slot_size ? a->slot_size : 40)) {
		pt_heapgraph_release(&g);
		return pt_usage_error(&spec, "a page must hold 4 slots at least");
	}
	pt_heap_pages(&g, a->page_size ? a->page_size : 16384, a->slot_size ? a->slot_size : 40,
		      &pages);
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.ra = ra;
	c.path = path;
	c.g = &g;
	c.pages = &pages;
	ret = pt_cli_emit(ra->outpath, path, emit_pages, &c);
	pt_heap_pages_release(&pages);
	pt_heapgraph_release(&g);
	return ret;
}

/* --leaks: each snapshot read in turn, only the last one kept */
static int run_leaks(const struct heap_args *a, const struct pt_report_args *ra, int n,
		     char **files)
{
	struct pt_heap_series series;
	struct pt_heapgraph g;
	struct pt_heap_dom dom;
	struct pt_heap_summary s;
	struct emit_ctx c;
	uint8_t *leaked = NULL;
	int i, ret = 0;

	pt_heap_series_init(&series);
	for (i = 0; i < n; i++) {
		if ((ret = load(files[i], a, &g))) {
			pt_heapgraph_release(&g);
			goto out;
		}
		if (i == n - 1)
			leaked = pt_xmalloc(g.nnodes + 1);
		if (pt_heap_series_add(&series, &g, i == n - 1 ? leaked : NULL) < 0) {
			fprintf(stderr,
				"proftool: %s: not of the kind of %s (V8 snapshots and Ruby dumps "
				"do not mix in --leaks)\n",
				files[i], files[0]);
			pt_heapgraph_release(&g);
			ret = PT_EXIT_INPUT;
			goto out;
		}
		if (i < n - 1)
			pt_heapgraph_release(&g);
	}
	pt_heap_dominators(&g, &dom);
	pt_heap_summarize_by(&g, &dom, a->by, leaked, &s);
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.ra = ra;
	c.path = files[n - 1];
	c.s = &s;
	ret = pt_cli_emit(ra->outpath, files[n - 1], emit_summary, &c);
	if (!ret)
		ret = leak_gate(&s, files[n - 1], a->fail_leak);
	pt_heap_summary_release(&s);
	pt_heap_dom_release(&dom);
	pt_heapgraph_release(&g);
out:
	free(leaked);
	pt_heap_series_release(&series);
	return ret;
}

int cmd_heap(int argc, char **argv)
{
	struct heap_args a;
	struct pt_report_args ra;
	struct pt_heapgraph g;
	struct pt_heap_dom dom;
	struct pt_heap_summary s;
	struct emit_ctx c;
	struct pt_pattern *re = NULL;
	char err[256];
	int ret, nfiles;

	memset(&a, 0, sizeof(a));
	a.fail_bytes = -1;
	a.fail_pct = -1;
	a.fail_leak = -1;
	pt_report_args_init(&ra, 1, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, NULL, &ra, &a)) >= 0)
		return ret;
	nfiles = argc - optind;
	if (a.fail_leak >= 0 && !a.leaks)
		return pt_usage_error(&spec, "--fail-on-leak needs --leaks");
	if (a.leaks) {
		if (a.diff || a.retainers)
			return pt_usage_error(&spec,
					      "--leaks goes with neither --diff nor --retainers");
		if (nfiles < 3 || nfiles > PT_HEAP_SERIES_MAX)
			return pt_usage_error(&spec, "--leaks takes 3 to %d snapshots",
					      PT_HEAP_SERIES_MAX);
		return run_leaks(&a, &ra, nfiles, argv + optind);
	}
	if ((a.page_size || a.slot_size) && !a.pages)
		return pt_usage_error(&spec, "--page-size and --slot-size need --pages");
	if (a.pages) {
		if (a.diff || a.retainers || nfiles != 1)
			return pt_usage_error(&spec, "--pages takes one Ruby heap dump");
		return run_pages(&a, &ra, argv[optind]);
	}
	if (nfiles != (a.diff ? 2 : 1))
		return pt_usage_error(&spec, a.diff ? "--diff takes two snapshots, BASE and NEW"
						    : "one snapshot FILE expected");
	if (!a.diff && (a.fail_bytes >= 0 || a.fail_pct >= 0))
		return pt_usage_error(&spec, "--fail-on-growth needs --diff");
	if (!a.diff && (a.junit || a.metrics))
		return pt_usage_error(&spec, "--junit and --metrics need --diff");
	if (a.diff && a.retainers)
		return pt_usage_error(&spec, "--retainers and --diff do not go together");
	if (a.retainers && ra.format == PT_FMT_CSV)
		return pt_usage_error(&spec, "--retainers prints text or json");
	memset(&c, 0, sizeof(c));
	c.a = &a;
	c.ra = &ra;
	c.path = argv[optind];
	if (a.diff)
		return run_diff(&a, &ra, argv + optind);
	if (a.retainers && !(re = pt_pattern_compile(a.retainers, err, sizeof(err))))
		return pt_usage_error(&spec, "bad regular expression '%s' for --retainers: %s",
				      a.retainers, err);
	if ((ret = load(argv[optind], &a, &g))) {
		pt_heapgraph_release(&g);
		pt_pattern_free(re);
		return ret;
	}
	pt_heap_dominators(&g, &dom);
	pt_heap_summarize_by(&g, &dom, a.by, NULL, &s);
	c.g = &g;
	c.dom = &dom;
	c.s = &s;
	if (a.retainers) {
		c.re = re;
		ret = pt_cli_emit(ra.outpath, argv[optind], emit_retainers, &c);
		pt_pattern_free(re);
	} else {
		ret = pt_cli_emit(ra.outpath, argv[optind], emit_summary, &c);
	}
	pt_heap_summary_release(&s);
	pt_heap_dom_release(&dom);
	pt_heapgraph_release(&g);
	return ret;
}
