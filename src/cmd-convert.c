/* cmd-convert.c: `proftool convert`: any readable format to any writable one. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "format.h"
#include "write-opts.h"

enum { OPT_TO = PT_OPT_CMD_BASE, OPT_NO_GZIP, OPT_GRANULARITY };

static const struct pt_opt convert_options[] = {
	{"to", 0, required_argument, OPT_TO, "FORMAT",
	 "output format (default: from the suffix of -o; see 'proftool formats')"},
	{"output", 'o', required_argument, 'o', "FILE",
	 "write to FILE (atomically: a temporary file renamed on success)"},
	{"no-gzip", 0, no_argument, OPT_NO_GZIP, NULL,
	 "pprof: write the raw protobuf instead of gzipping it"},
	{"granularity", 0, required_argument, OPT_GRANULARITY, "functions|files|lines|addresses",
	 "merge frames of one function, file or line first (default: keep them as read)"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {
	convert_options, pt_dot_options, pt_svg_options, pt_input_options,
	pt_perf_options, pt_tag_options, pt_help_option, NULL,
};
static const struct pt_cmd_spec spec = {
	"convert", "convert [--to FORMAT] [-o FILE] [OPTIONS] [FILE]",
	"Convert a profile to another format. Without --to the format follows the suffix of\n"
	"-o: .collapsed/.folded (collapsed), and the other writers' suffixes.",
	tables, NULL};

int cmd_convert(int argc, char **argv)
{
	struct pt_common common;
	struct pt_write_opts wo;
	struct pt_getopt g;
	struct pt_profile p;
	struct pt_diag d;
	const struct pt_format *f = NULL;
	const char *path = "-", *outpath = NULL, *to = NULL;
	enum pt_granularity gran = PT_GRAN_ADDRESSES;
	int c, t, ret;

	pt_write_opts_init(&wo);
	pt_common_init(&common);
	pt_getopt_init(&g, tables);
	while ((c = pt_getopt_next(&g, &spec, argc, argv)) != -1) {
		int r = pt_common_option(&common, &spec, c, optarg);
		if (!r)
			r = pt_write_option(&wo, &spec, c, optarg);
		if (r < 0)
			goto usage;
		if (r || pt_perf_option(&common, c, optarg) || pt_tag_option(&wo.flags, c))
			continue;
		switch (c) {
		case 'h':
			pt_usage(&spec, stdout);
			pt_getopt_release(&g);
			return PT_EXIT_OK;
		case OPT_TO:
			to = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case OPT_NO_GZIP:
			wo.flags |= PT_WRITE_NO_GZIP;
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
	if ((ret = pt_cli_one_file(&spec, argc, argv, &path)))
		return ret;
	if (to) {
		f = pt_format_find(to);
		if (!f || !f->write)
			return pt_usage_error(&spec, "cannot write format '%s'", to);
	} else if (outpath && strcmp(outpath, "-")) {
		f = pt_format_for_path(outpath);
		if (!f)
			return pt_usage_error(&spec, "no format for the suffix of '%s': use --to",
					      outpath);
	} else {
		return pt_usage_error(&spec, "no output format: use --to FORMAT");
	}

	common.load.read.keep_timeline = f->wants_timeline || (wo.flags & PT_WRITE_FLAMECHART);
	/* the common --node-fraction also sets dot's, which keeps pprof's default otherwise */
	if (common.node_fraction_set)
		wo.node_fraction = common.node_fraction;
	pt_profile_init(&p);
	if ((ret = pt_cli_load(&common, path, &p)))
		goto out;
	pt_diag_init(&d, path);
	if (pt_filter_granularity(&p, gran, &d) < 0) {
		ret = pt_cli_fail(&d);
		goto out;
	}
	t = pt_select_type(&p, common.sample_index, 1, &d);
	if (t == -1) {
		ret = pt_cli_fail(&d);
		goto out;
	}
	wo.type = t;
	ret = pt_cli_write(outpath, path, f, &p, &wo);
out:
	pt_profile_release(&p);
	return ret;
usage:
	pt_getopt_release(&g);
	return PT_EXIT_USAGE;
}
