/* cmd-top.c: `proftool top`: heaviest functions, flat and cumulative. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "cli.h"
#include "cmd.h"
#include "report.h"

enum { OPT_CUM = PT_OPT_CMD_BASE, OPT_FORMAT, OPT_STYLE, OPT_EDGE_FRACTION, OPT_GRANULARITY };

/* --style values: text layouts of other tools */
static const struct {
	const char *name;
	enum pt_top_style style;
} styles[] = {
	{"default", PT_STYLE_DEFAULT},
	{"pprof", PT_STYLE_PPROF},
	{"stackprof", PT_STYLE_STACKPROF},
};

static const struct pt_opt top_options[] = {
	{"nodes", 'n', required_argument, 'n', "N",
	 "show the N heaviest rows; 0 shows all (default 30 for text, all for csv/json)"},
	{"cum", 0, no_argument, OPT_CUM, NULL, "sort by cumulative value instead of flat"},
	{"format", 0, required_argument, OPT_FORMAT, "text|csv|json",
	 "output format; csv and json give raw values in the base unit"},
	{"output", 'o', required_argument, 'o', "FILE", "write to FILE instead of stdout"},
	{"style", 0, required_argument, OPT_STYLE, "default|pprof|stackprof",
	 "text layout: ours, go tool pprof -top's (its header, units, trimming; all rows) "
	 "or stackprof --text's (Mode/Samples/GC header, ties in input order)"},
	{"edge-fraction", 0, required_argument, OPT_EDGE_FRACTION, "F",
	 "pprof style: ignore calls under F of the total for the inline marks (default 0.001)"},
	{"granularity", 0, required_argument, OPT_GRANULARITY, "functions|files|lines|addresses",
	 "one row per function (default), source file, line or address"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {top_options, pt_input_options, pt_perf_options,
					      pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"top", "top [OPTIONS] [FILE]",
	"Print the heaviest functions: flat (self) and cumulative values, where a function\n"
	"is counted once per stack however deep it recurses. FILE '-' or none reads stdin.",
	tables};

struct top_ctx {
	const struct pt_profile *p;
	const struct pt_agg *a;
	const struct pt_top_opts *o;
};

static int emit_top(void *ctx, FILE *out, struct pt_diag *d)
{
	struct top_ctx *c = ctx;
	return pt_report_top(c->p, c->a, c->o, out, d);
}

int cmd_top(int argc, char **argv)
{
	struct pt_common common;
	struct pt_top_opts o;
	struct pt_getopt g;
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;
	struct pt_filter_log log;
	enum pt_granularity gran = PT_GRAN_FUNCTIONS;
	const char *path = "-", *outpath = NULL;
	long n = -1;
	int c, t, ret = PT_EXIT_OK, have_agg = 0;

	memset(&o, 0, sizeof(o));
	o.edge_fraction = 0.001;
	pt_common_init(&common);
	pt_getopt_init(&g, tables);
	while ((c = pt_getopt_next(&g, &spec, argc, argv)) != -1) {
		int r = pt_common_option(&common, &spec, c, optarg);
		if (r < 0)
			goto usage;
		if (r || pt_perf_option(&common, c, optarg))
			continue;
		switch (c) {
		case 'h':
			pt_usage(&spec, stdout);
			pt_getopt_release(&g);
			return PT_EXIT_OK;
		case 'n':
			if (pt_parse_count(optarg, &n) < 0) {
				pt_usage_error(&spec, "bad count '%s' for -n", optarg);
				goto usage;
			}
			break;
		case OPT_CUM:
			o.by_cum = 1;
			break;
		case OPT_FORMAT:
			if (pt_parse_report_format(optarg, &o.format) < 0) {
				pt_usage_error(&spec, "unknown format '%s' (text, csv or json)",
					       optarg);
				goto usage;
			}
			break;
		case 'o':
			outpath = optarg;
			break;
		case OPT_EDGE_FRACTION: {
			char *end;
			double f = strtod(optarg, &end);
			if (end == optarg || *end || !(f >= 0 && f <= 1)) {
				pt_usage_error(&spec, "bad fraction '%s' (a number from 0 to 1)",
					       optarg);
				goto usage;
			}
			o.edge_fraction = f;
			break;
		}
		case OPT_STYLE: {
			size_t i;
			for (i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
				if (!strcmp(styles[i].name, optarg))
					break;
			if (i == sizeof(styles) / sizeof(styles[0])) {
				pt_usage_error(&spec,
					       "unknown style '%s' (default, pprof or stackprof)",
					       optarg);
				goto usage;
			}
			o.style = styles[i].style;
			break;
		}
		case OPT_GRANULARITY:
			if (pt_parse_granularity(optarg, &gran) < 0) {
				pt_usage_error(&spec,
					       "unknown granularity '%s' (functions, files, lines "
					       "or addresses)",
					       optarg);
				goto usage;
			}
			break;
		default:
			goto usage;
		}
	}
	pt_getopt_release(&g);
	if ((ret = pt_cli_one_file(&spec, argc, argv, &path)))
		return ret;
	o.limit = n < 0	   ? (o.format == PT_FMT_TEXT && o.style != PT_STYLE_PPROF ? 30 : -1)
		  : n == 0 ? -1
			   : n;

	pt_profile_init(&p);
	pt_filter_log_init(&log);
	o.filters = &log;
	/* pprof's layout keeps pprof's default node fraction; ours shows every row */
	o.node_fraction = common.node_fraction_set    ? common.node_fraction
			  : o.style == PT_STYLE_PPROF ? 0.005
						      : 0;
	if ((ret = pt_cli_load_log(&common, path, &p, &log)))
		goto out;
	pt_diag_init(&d, path);
	t = pt_select_type(&p, common.sample_index, 0, &d);
	if (t < 0 || pt_aggregate_views(&p, gran, 0, &a, &d) < 0) {
		ret = pt_cli_fail(&d);
		goto out;
	}
	have_agg = 1;
	o.type = (uint32_t)t;
	ret = pt_cli_emit(outpath, path, emit_top, &(struct top_ctx){&p, &a, &o});
out:
	if (have_agg)
		pt_agg_release(&a);
	pt_filter_log_release(&log);
	pt_profile_release(&p);
	return ret;
usage:
	pt_getopt_release(&g);
	return PT_EXIT_USAGE;
}
