/* cmd-tree.c: `proftool tree`: callers and callees of each function (pprof -peek). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/report.h"

static const struct pt_opt tree_options[] = {
	PT_OPT_NODES_ROW("show the N heaviest functions; 0 shows all (default 30 for text without "
			 "PATTERN, else all)"),
	PT_OPT_CUM_ROW("sort by cumulative value instead of flat"),
	PT_OPT_FORMAT_ROW("text|json", "output format; json gives raw values in the base unit"),
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	PT_OPT_GRANULARITY_ROW("one row per function (default), source file, line or address"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {tree_options, pt_input_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"tree", "tree [OPTIONS] [PATTERN] [FILE...]",
	"For each function (those whose name matches the regex PATTERN), its callers\n"
	"above and callees below with the value of each call and its share of the\n"
	"function's cum, as pprof -peek prints them. PATTERN is a regex as the filters\n"
	"take it (PCRE2, RE2's syntax). With one argument it is the FILE; several FILEs\n"
	"are merged.",
	tables, NULL};

static int emit_tree(const struct pt_run *r, const void *o, FILE *out, struct pt_diag *d)
{
	return pt_report_tree(&r->p, &r->agg, o, out, d);
}

int cmd_tree(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_tree_opts o;
	struct pt_run r;
	int ret = PT_EXIT_OK;

	memset(&o, 0, sizeof(o));
	pt_common_init(&common);
	/* Go's "created by F" is no function row (pprof's debug=0 profile has none) */
	common.load.read.flags |= PT_READ_NO_CREATOR;
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, NULL)) >= 0)
		return ret;
	if (argc - optind >= 2) {
		char msg[256];
		struct pt_pattern *re;
		o.pattern = argv[optind++];
		if (!(re = pt_pattern_compile(o.pattern, msg, sizeof(msg))))
			return pt_usage_error(&spec, "bad regular expression '%s': %s", o.pattern,
					      msg);
		pt_pattern_free(re);
	}
	o.by_cum = ra.by_cum;
	o.format = ra.format;
	o.limit = pt_report_limit(&ra, o.format == PT_FMT_TEXT && !o.pattern ? 30 : -1);

	o.node_fraction = common.node_fraction;
	pt_run_init(&r, &common, "-");
	r.say_empty = 1;
	pt_run_files(&r, argc, argv);
	r.gran = ra.gran;
	r.views = PT_AGG_EDGES | PT_AGG_GRAPH; /* the call graph (report/tree.c) */
	if (!(ret = pt_run_prepare(&r))) {
		o.type = r.type;
		o.graph = &r.graph;
		o.filters = &r.log;
		ret = pt_run_emit(&r, ra.outpath, emit_tree, &o);
	}
	pt_run_release(&r);
	return ret;
}
