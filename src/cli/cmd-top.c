/* cmd-top.c: `proftool top`: heaviest functions, flat and cumulative. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "analysis/filter.h"
#include "cli/driver.h"
#include "report/report.h"

enum { OPT_STYLE = PT_OPT_CMD_BASE, OPT_EDGE_FRACTION };

/* --style values: text layouts of other tools */
static const struct {
	const char *name;
	enum pt_top_style style;
} styles[] = {
	{"default", PT_STYLE_DEFAULT},
	{"pprof", PT_STYLE_PPROF},
	{"stackprof", PT_STYLE_STACKPROF},
};

static int top_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt top_options[] = {
	PT_OPT_NODES_ROW(
		"show the N heaviest rows; 0 shows all (default 30 for text, all for csv/json)"),
	PT_OPT_CUM_ROW("sort by cumulative value instead of flat"),
	PT_OPT_FORMAT_ROW("text|csv|json",
			  "output format; csv and json give raw values in the base unit"),
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	{"style", 0, required_argument, OPT_STYLE, "default|pprof|stackprof",
	 "text layout: ours, go tool pprof -top's (its header, units, trimming; all rows) "
	 "or stackprof --text's (Mode/Samples/GC header, ties in input order)"},
	{"edge-fraction", 0, required_argument, OPT_EDGE_FRACTION, "F",
	 "pprof style: ignore calls under F of the total for the inline marks (default 0.001)"},
	PT_OPT_GRANULARITY_ROW("one row per function (default), source file, line or address"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {top_options, pt_input_options, pt_perf_options,
					      pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"top", "top [OPTIONS] [FILE...]",
	"Print the heaviest functions: flat (self) and cumulative values, where a function\n"
	"is counted once per stack however deep it recurses. FILE '-' or none reads stdin;\n"
	"several FILEs are merged into one profile first.",
	tables, top_option};

static int top_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	struct pt_top_opts *o = ctx;
	size_t i;
	char *end;
	double f;

	switch (id) {
	case OPT_EDGE_FRACTION:
		f = strtod(arg, &end);
		if (end == arg || *end || !(f >= 0 && f <= 1)) {
			pt_usage_error(sp, "bad fraction '%s' (a number from 0 to 1)", arg);
			return -1;
		}
		o->edge_fraction = f;
		return 1;
	case OPT_STYLE:
		for (i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
			if (!strcmp(styles[i].name, arg)) {
				o->style = styles[i].style;
				return 1;
			}
		pt_usage_error(sp, "unknown style '%s' (default, pprof or stackprof)", arg);
		return -1;
	}
	return 0;
}

static int emit_top(const struct pt_run *r, const void *o, FILE *out, struct pt_diag *d)
{
	return pt_report_top(&r->p, &r->agg, o, out, d);
}

/* top; may_fold 0 takes the call tree's way even where the stacks could fold as read */
static int top(int argc, char **argv, int may_fold)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_top_opts o;
	struct pt_run r;
	int ret = PT_EXIT_OK;

	memset(&o, 0, sizeof(o));
	o.edge_fraction = 0.001;
	pt_common_init(&common);
	/* Go's "created by F" is no function row (pprof's debug=0 profile has none) */
	common.load.read.flags |= PT_READ_NO_CREATOR;
	pt_report_args_init(&ra, 1, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &o)) >= 0)
		return ret;
	o.by_cum = ra.by_cum;
	o.format = ra.format;
	o.limit = pt_report_limit(&ra,
				  o.format == PT_FMT_TEXT && o.style != PT_STYLE_PPROF ? 30 : -1);
	/* pprof's layout keeps pprof's default node fraction; ours shows every row */
	o.node_fraction = common.node_fraction_set    ? common.node_fraction
			  : o.style == PT_STYLE_PPROF ? 0.005
						      : 0;

	pt_run_init(&r, &common, "-");
	r.say_empty = 1;
	pt_run_files(&r, argc, argv);
	r.gran = ra.gran;
	/* pprof's layout rebuilds its graph from the stacks; the other tables fold them */
	r.fold = !(o.style == PT_STYLE_PPROF && o.format == PT_FMT_TEXT);
	/* ... from the distinct stacks, kept as read, unless -files re-keys the tree */
	r.keep_stacks = !r.fold && r.gran != PT_GRAN_FILES;
	r.tree_only = !may_fold;
	r.fold_marks = o.format == PT_FMT_TEXT && o.style == PT_STYLE_DEFAULT;
	o.gran = r.gran;
	if (!(ret = pt_run_prepare(&r)) && !r.fold && r.gran == PT_GRAN_FILES) {
		/* pprof's graph is of the tree's frames: re-key it at the granularity, as
		 * pprof -files does (lines and addresses name the tree's own frames) */
		struct pt_diag d;
		pt_diag_init(&d, r.path);
		if (pt_filter_granularity(&r.p, r.gran, &d) < 0)
			ret = pt_cli_fail(&d);
	}
	if (!ret) {
		o.type = r.type;
		o.filters = &r.log;
		o.filter = &common.filter;
		o.fold = pt_run_fold(&r);
		o.stacks = pt_run_stacks(&r);
		ret = pt_run_emit(&r, ra.outpath, emit_top, &o);
	}
	pt_run_release(&r);
	return ret;
}

int cmd_top(int argc, char **argv)
{
	return top(argc, argv, 1);
}

int cmd_top_tree(int argc, char **argv)
{
	return top(argc, argv, 0);
}
