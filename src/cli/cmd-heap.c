/* cmd-heap.c: `proftool heap`: a V8 heap snapshot per constructor (DevTools' Summary),
 * the retaining paths of the largest objects, and the comparison of two snapshots. */
#include "config.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dominator.h"
#include "analysis/heapowner.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/heap.h"

enum {
	OPT_RETAINERS = PT_OPT_CMD_BASE,
	OPT_DIFF,
	OPT_FAIL_GROWTH,
	OPT_MAX_SIZE,
	OPT_RAW_SIZES,
};

struct heap_args {
	const char *retainers;
	int diff;
	int64_t fail_bytes;
	double fail_pct;
	uint64_t max_size;
	int raw_sizes;
};

static int heap_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt heap_options[] = {
	PT_OPT_NODES_ROW("show the N largest constructors; 0 shows all (default 30 for text, "
			 "all for csv/json; --retainers: 5 objects)"),
	PT_OPT_FORMAT_ROW("text|csv|json", "output format; csv and json give sizes in bytes"),
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	{"retainers", 0, required_argument, OPT_RETAINERS, "RE",
	 "the retaining path DevTools' Retainers pane opens (shortest from the globals, by "
	 "DevTools' distance) to each of the largest objects of the constructors matching RE "
	 "(extended regex)"},
	{"diff", 0, no_argument, OPT_DIFF, NULL,
	 "compare two snapshots BASE NEW per constructor by object id (DevTools' Comparison)"},
	{"fail-on-growth", 0, required_argument, OPT_FAIL_GROWTH, "BYTES|PCT%",
	 "with --diff: exit 3 when a constructor's size grew by more than BYTES (64K, 1M...) "
	 "or PCT percent of its size in BASE"},
	{"raw-sizes", 0, no_argument, OPT_RAW_SIZES, NULL,
	 "keep each node's own self size, as the snapshot (and memlab) has it, instead of "
	 "DevTools' moving the sizes of hidden nodes and arrays one object owns to it"},
	{"max-input-size", 0, required_argument, OPT_MAX_SIZE, "SIZE",
	 "refuse inputs larger than SIZE after decompression (default 8G)"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {heap_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"heap", "heap [OPTIONS] FILE | heap --diff [OPTIONS] BASE NEW",
	"Summarize a V8 heap snapshot (.heapsnapshot) per constructor as Chrome DevTools'\n"
	"Summary view does: object count, shallow size and retained size (from the\n"
	"dominator tree, with DevTools' rules for weak edges), sorted by retained size.\n"
	"A Ruby heap dump (ObjectSpace.dump_all) gets the same summary per class.",
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
	case OPT_RAW_SIZES:
		a->raw_sizes = 1;
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

/* through the driver: detected, read, DevTools' sizes unless --raw-sizes */
static int load(const char *path, const struct heap_args *a, struct pt_heapgraph *g)
{
	return pt_run_heap(path, a->max_size, a->raw_sizes, g);
}

struct emit_ctx {
	const struct heap_args *a;
	const struct pt_report_args *ra;
	const char *path;
	struct pt_heapgraph *g, *g2;
	struct pt_heap_dom *dom;
	struct pt_heap_summary *s;
	regex_t *re;
	int grew;
};

static int emit_summary(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	(void)d;
	return pt_report_heap(c->s, c->path,
			      pt_report_limit(c->ra, c->ra->format == PT_FMT_TEXT ? 30 : -1),
			      c->ra->format, out);
}

static int emit_retainers(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	return pt_report_heap_retainers(c->g, c->dom, c->s, c->re, pt_report_limit(c->ra, 5),
					c->ra->format, out, d);
}

static int emit_diff(void *ctx, FILE *out, struct pt_diag *d)
{
	struct emit_ctx *c = ctx;
	(void)d;
	return pt_report_heap_diff(c->g, c->g2,
				   pt_report_limit(c->ra, c->ra->format == PT_FMT_TEXT ? 30 : -1),
				   c->ra->format, c->a->fail_bytes, c->a->fail_pct, &c->grew, out);
}

int cmd_heap(int argc, char **argv)
{
	struct heap_args a;
	struct pt_report_args ra;
	struct pt_heapgraph g, g2;
	struct pt_heap_dom dom;
	struct pt_heap_summary s;
	struct emit_ctx c;
	regex_t re;
	int ret, nfiles;

	memset(&a, 0, sizeof(a));
	a.fail_bytes = -1;
	a.fail_pct = -1;
	pt_report_args_init(&ra, 1, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, NULL, &ra, &a)) >= 0)
		return ret;
	nfiles = argc - optind;
	if (nfiles != (a.diff ? 2 : 1))
		return pt_usage_error(&spec, a.diff ? "--diff takes two snapshots, BASE and NEW"
						    : "one snapshot FILE expected");
	if (!a.diff && (a.fail_bytes >= 0 || a.fail_pct >= 0))
		return pt_usage_error(&spec, "--fail-on-growth needs --diff");
	if (a.diff && a.retainers)
		return pt_usage_error(&spec, "--retainers and --diff do not go together");
	if (a.retainers && ra.format == PT_FMT_CSV)
		return pt_usage_error(&spec, "--retainers prints text or json");
	memset(&c, 0, sizeof(c));
	c.a = &a;
	c.ra = &ra;
	c.path = argv[optind];
	if (a.diff) {
		if ((ret = load(argv[optind], &a, &g))) {
			pt_heapgraph_release(&g);
			return ret;
		}
		if ((ret = load(argv[optind + 1], &a, &g2))) {
			pt_heapgraph_release(&g);
			pt_heapgraph_release(&g2);
			return ret;
		}
		c.g = &g;
		c.g2 = &g2;
		ret = pt_cli_emit(ra.outpath, argv[optind + 1], emit_diff, &c);
		if (!ret && c.grew)
			ret = PT_EXIT_REGRESSION;
		pt_heapgraph_release(&g);
		pt_heapgraph_release(&g2);
		return ret;
	}
	if (a.retainers && regcomp(&re, a.retainers, REG_EXTENDED | REG_NOSUB))
		return pt_usage_error(&spec, "bad regular expression '%s' for --retainers",
				      a.retainers);
	if ((ret = load(argv[optind], &a, &g))) {
		pt_heapgraph_release(&g);
		if (a.retainers)
			regfree(&re);
		return ret;
	}
	pt_heap_dominators(&g, &dom);
	pt_heap_summarize(&g, &dom, &s);
	c.g = &g;
	c.dom = &dom;
	c.s = &s;
	if (a.retainers) {
		c.re = &re;
		ret = pt_cli_emit(ra.outpath, argv[optind], emit_retainers, &c);
		regfree(&re);
	} else {
		ret = pt_cli_emit(ra.outpath, argv[optind], emit_summary, &c);
	}
	pt_heap_summary_release(&s);
	pt_heap_dom_release(&dom);
	pt_heapgraph_release(&g);
	return ret;
}
