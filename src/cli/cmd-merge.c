/* cmd-merge.c: `proftool merge -o OUT IN...`: many profiles of the same sample types
 * into one, keeping stacks, labels and timelines (pt_profile_merge). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "analysis/merge.h"
#include "analysis/filter.h"
#include "formats/format.h"
#include "util/xalloc.h"

enum { OPT_TO = PT_OPT_CMD_BASE };

static int merge_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt merge_options[] = {
	PT_OPT_OUTPUT_ROW("write to FILE (atomically); without it, standard output"),
	{"to", 0, required_argument, OPT_TO, "FORMAT",
	 "output format (default: from the suffix of -o, else pprof)"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {merge_options, pt_input_options, pt_help_option,
					      NULL};
static const struct pt_cmd_spec spec = {
	"merge", "merge [-o OUT] [--to FORMAT] [OPTIONS] IN...",
	"Merge profiles with the same sample types (names and units) into one: values of\n"
	"equal stacks and labels add up; timelines are kept when every input has one. With\n"
	"an input without stacks the result holds per-function aggregates only.",
	tables, merge_option};

static int merge_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	const char **to = ctx;

	(void)sp;
	if (id != OPT_TO)
		return 0;
	*to = arg;
	return 1;
}

int cmd_merge(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_write_opts wo;
	struct pt_profile dst, src;
	struct pt_merge m;
	struct pt_diag d;
	const struct pt_format *f = NULL;
	const char *outpath, *to = NULL;
	int i, ret = PT_EXIT_OK;

	memset(&wo, 0, sizeof(wo));
	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &to)) >= 0)
		return ret;
	outpath = ra.outpath;
	if (optind >= argc)
		return pt_usage_error(&spec, "no input profiles");
	if (to) {
		f = pt_format_find(to);
		if (!f || !f->write)
			return pt_usage_error(&spec, "cannot write format '%s'", to);
	} else if (outpath && strcmp(outpath, "-") && (f = pt_format_for_path(outpath))) {
		/* the suffix says */
	} else {
		f = pt_format_find("pprof");
		if (!f || !f->write)
			return pt_usage_error(&spec, "this build has no pprof writer, the default "
						     "output: name a format with --to");
	}

	/* the timeline is kept when every input has one */
	common.load.read.keep_timeline = 1;
	pt_profile_init(&dst);
	if ((ret = pt_cli_load(&common, argv[optind], &dst)))
		goto out;
	/* one input at a time: memory is the merged profile and the one being added */
	pt_merge_init(&m, &dst, argv[optind]);
	for (i = optind + 1; i < argc && !ret; i++) {
		pt_profile_init(&src);
		if (!(ret = pt_cli_load(&common, argv[i], &src)) &&
		    pt_merge_add(&m, &src, argv[i], &d) < 0)
			ret = pt_cli_fail(&d);
		pt_profile_release(&src);
	}
	pt_merge_finish(&m);
	pt_merge_release(&m);
	if (ret)
		goto out;

	/* every type is merged; --sample-index picks what a one-type output holds */
	pt_diag_init(&d, argv[optind]);
	if (common.sample_index || dst.ntypes == 1) {
		int t = pt_select_type(&dst, common.sample_index, 1, &d);
		if (t == -1) {
			ret = pt_cli_fail(&d);
			goto out;
		}
		wo.type = t;
	} else {
		wo.type = PT_TYPE_ALL;
	}
	/* a writer's errors are about the merged profile: name the output */
	ret = pt_cli_write(outpath, outpath ? outpath : "<stdout>", f, &dst, &wo);
out:
	pt_profile_release(&dst);
	return ret;
}
