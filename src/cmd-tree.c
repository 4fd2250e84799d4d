/* cmd-tree.c: `proftool tree`: callers and callees of each function (pprof -peek). */
#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "aggregate.h"
#include "cli.h"
#include "cmd.h"
#include "report.h"

enum { OPT_CUM = PT_OPT_CMD_BASE, OPT_FORMAT, OPT_GRANULARITY };

static const struct pt_opt tree_options[] = {
	{"nodes", 'n', required_argument, 'n', "N",
	 "show the N heaviest functions; 0 shows all (default 30 for text without PATTERN, "
	 "else all)"},
	{"cum", 0, no_argument, OPT_CUM, NULL, "sort by cumulative value instead of flat"},
	{"format", 0, required_argument, OPT_FORMAT, "text|json",
	 "output format; json gives raw values in the base unit"},
	{"output", 'o', required_argument, 'o', "FILE", "write to FILE instead of stdout"},
	{"granularity", 0, required_argument, OPT_GRANULARITY, "functions|files|lines|addresses",
	 "one row per function (default), source file, line or address"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {tree_options, pt_input_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"tree", "tree [OPTIONS] [PATTERN] [FILE]",
	"For each function (those whose name matches the extended regex PATTERN), its\n"
	"callers above and callees below with the value of each call and its share of the\n"
	"function's cum, as pprof -peek prints them. With one argument it is the FILE.",
	tables};

struct tree_ctx {
	const struct pt_profile *p;
	const struct pt_agg *a;
	const struct pt_tree_opts *o;
};

static int emit_tree(void *ctx, FILE *out, struct pt_diag *d)
{
	struct tree_ctx *c = ctx;
	return pt_report_tree(c->p, c->a, c->o, out, d);
}

int cmd_tree(int argc, char **argv)
{
	struct pt_common common;
	struct pt_tree_opts o;
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
	pt_common_init(&common);
	pt_getopt_init(&g, tables);
	while ((c = pt_getopt_next(&g, &spec, argc, argv)) != -1) {
		int r = pt_common_option(&common, &spec, c, optarg);
		if (r < 0)
			goto usage;
		if (r)
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
			if (pt_parse_report_format(optarg, &o.format) < 0 ||
			    o.format == PT_FMT_CSV) {
				pt_usage_error(&spec, "unknown format '%s' (text or json)", optarg);
				goto usage;
			}
			break;
		case 'o':
			outpath = optarg;
			break;
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
	if (argc - optind > 2)
		return pt_usage_error(&spec, "one PATTERN and one FILE at most");
	if (argc - optind == 2) {
		regex_t re;
		o.pattern = argv[optind++];
		if (regcomp(&re, o.pattern, REG_EXTENDED | REG_NOSUB))
			return pt_usage_error(&spec, "bad regular expression '%s'", o.pattern);
		regfree(&re);
	}
	if (optind < argc)
		path = argv[optind];
	o.limit = n < 0 ? (o.format == PT_FMT_TEXT && !o.pattern ? 30 : -1) : n == 0 ? -1 : n;

	pt_profile_init(&p);
	pt_filter_log_init(&log);
	o.filters = &log;
	o.node_fraction = common.node_fraction;
	if ((ret = pt_cli_load_log(&common, path, &p, &log)))
		goto out;
	pt_diag_init(&d, path);
	t = pt_select_type(&p, common.sample_index, 0, &d);
	if (t < 0 || pt_aggregate(&p, gran, &a, &d) < 0) {
		ret = pt_cli_fail(&d);
		goto out;
	}
	have_agg = 1;
	o.type = (uint32_t)t;
	ret = pt_cli_emit(outpath, path, emit_tree, &(struct tree_ctx){&p, &a, &o});
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
