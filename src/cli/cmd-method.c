/* cmd-method.c: `proftool method`: callers, callees and annotated source of the
 * functions whose names match a pattern (stackprof --method, pprof -list/-peek). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/report.h"

enum { OPT_REGEX = PT_OPT_CMD_BASE, OPT_SOURCE_PATH, OPT_CONTEXT };

/* method's own options */
struct method_args {
	int use_regex;
	const char *source_path;
	long context;
};

static int method_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt method_options[] = {
	{"regex", 0, no_argument, OPT_REGEX, NULL,
	 "PATTERN is a regex, as the filters take (default: a literal substring)"},
	{"source-path", 0, required_argument, OPT_SOURCE_PATH, "DIR[:DIR...]",
	 "look for source files under DIR (the recorded path, then shorter tails of it)"},
	{"context", 0, required_argument, OPT_CONTEXT, "N",
	 "show N source lines past the last sampled one (default 5, as pprof -list; 1 is\n"
	 "stackprof --method's range)"},
	PT_OPT_FORMAT_ROW("text|json", "output format"),
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {method_options, pt_input_options, pt_help_option,
					      NULL};
static const struct pt_cmd_spec spec = {
	"method", "method [OPTIONS] PATTERN [FILE...]",
	"Show every function whose name matches PATTERN: self and total, callers and\n"
	"callees, and its source lines annotated with total/self per line. Counts are once\n"
	"per stack; a profile without stacks (stackprof without raw) has only per-occurrence\n"
	"edges and line totals, and says so. Several FILEs are merged.",
	tables, method_option};

static int method_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	struct method_args *ma = ctx;

	switch (id) {
	case OPT_REGEX:
		ma->use_regex = 1;
		return 1;
	case OPT_SOURCE_PATH:
		ma->source_path = arg;
		return 1;
	case OPT_CONTEXT:
		if (pt_parse_count(arg, &ma->context) < 0 || ma->context > 1000000) {
			pt_usage_error(sp, "--context takes a count of lines, not '%s'", arg);
			return -1;
		}
		return 1;
	}
	return 0;
}

static int emit_method(const struct pt_run *r, const void *o, FILE *out, struct pt_diag *d)
{
	return pt_report_method(&r->p, &r->agg, o, out, d);
}

int cmd_method(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct method_args ma = {0, NULL, 5};
	struct pt_method_opts o;
	struct pt_run r;
	int ret = PT_EXIT_OK;

	memset(&o, 0, sizeof(o));
	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &ma)) >= 0)
		return ret;
	o.format = ra.format;
	o.source_path = ma.source_path;
	o.context = ma.context;
	if (optind >= argc)
		return pt_usage_error(&spec, "a PATTERN is required");
	o.pattern = argv[optind++];
	if (ma.use_regex) {
		char msg[256];
		if (!(o.re = pt_pattern_compile(o.pattern, msg, sizeof(msg))))
			return pt_usage_error(&spec, "bad regex '%s': %s", o.pattern, msg);
	}

	pt_run_init(&r, &common, "-");
	r.say_empty = 1;
	pt_run_files(&r, argc, argv);
	r.views = PT_AGG_EDGES | PT_AGG_LINES;
	if (!(ret = pt_run_prepare(&r))) {
		o.type = r.type;
		ret = pt_run_emit(&r, ra.outpath, emit_method, &o);
	}
	pt_pattern_free(o.re);
	pt_run_release(&r);
	return ret;
}
