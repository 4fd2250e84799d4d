/* cmd-method.c: `proftool method`: callers, callees and annotated source of the
 * functions whose names match a pattern (stackprof --method, pprof -list/-peek). */
#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "aggregate.h"
#include "cli.h"
#include "cmd.h"
#include "report.h"

enum { OPT_REGEX = PT_OPT_CMD_BASE, OPT_SOURCE_PATH, OPT_FORMAT };

static const struct pt_opt method_options[] = {
	{"regex", 0, no_argument, OPT_REGEX, NULL,
	 "PATTERN is a POSIX extended regex (default: a literal substring)"},
	{"source-path", 0, required_argument, OPT_SOURCE_PATH, "DIR[:DIR...]",
	 "look for source files under DIR (the recorded path, then shorter tails of it)"},
	{"format", 0, required_argument, OPT_FORMAT, "text|json", "output format"},
	{"output", 'o', required_argument, 'o', "FILE", "write to FILE instead of stdout"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {method_options, pt_input_options, pt_help_option,
					      NULL};
static const struct pt_cmd_spec spec = {
	"method", "method [OPTIONS] PATTERN [FILE]",
	"Show every function whose name matches PATTERN: self and total, callers and\n"
	"callees, and its source lines annotated with total/self per line. Counts are once\n"
	"per stack; a profile without stacks (stackprof without raw) has only per-occurrence\n"
	"edges and line totals, and says so.",
	tables};

struct method_ctx {
	const struct pt_profile *p;
	const struct pt_agg *a;
	const struct pt_method_opts *o;
};

static int emit_method(void *ctx, FILE *out, struct pt_diag *d)
{
	struct method_ctx *c = ctx;
	return pt_report_method(c->p, c->a, c->o, out, d);
}

int cmd_method(int argc, char **argv)
{
	struct pt_common common;
	struct pt_method_opts o;
	struct pt_getopt g;
	struct pt_profile p;
	struct pt_agg a;
	struct pt_diag d;
	regex_t re;
	const char *path = "-", *outpath = NULL;
	int c, t, ret = PT_EXIT_OK, have_agg = 0, use_regex = 0, have_re = 0;

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
		case OPT_REGEX:
			use_regex = 1;
			break;
		case OPT_SOURCE_PATH:
			o.source_path = optarg;
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
		default:
			goto usage;
		}
	}
	pt_getopt_release(&g);
	if (optind >= argc)
		return pt_usage_error(&spec, "a PATTERN is required");
	if (argc - optind > 2)
		return pt_usage_error(&spec, "one PATTERN and one FILE at a time");
	o.pattern = argv[optind];
	if (optind + 1 < argc)
		path = argv[optind + 1];
	if (use_regex) {
		int rc = regcomp(&re, o.pattern, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[256];
			regerror(rc, &re, msg, sizeof(msg));
			return pt_usage_error(&spec, "bad regex '%s': %s", o.pattern, msg);
		}
		have_re = 1;
		o.re = &re;
	}

	pt_profile_init(&p);
	if ((ret = pt_cli_load(&common, path, &p)))
		goto out;
	pt_diag_init(&d, path);
	t = pt_select_type(&p, common.sample_index, 0, &d);
	if (t < 0 || pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d) < 0) {
		ret = pt_cli_fail(&d);
		goto out;
	}
	have_agg = 1;
	o.type = (uint32_t)t;
	ret = pt_cli_emit(outpath, path, emit_method, &(struct method_ctx){&p, &a, &o});
out:
	if (have_re)
		regfree(&re);
	if (have_agg)
		pt_agg_release(&a);
	pt_profile_release(&p);
	return ret;
usage:
	pt_getopt_release(&g);
	return PT_EXIT_USAGE;
}
