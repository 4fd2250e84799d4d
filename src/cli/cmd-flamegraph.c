/* cmd-flamegraph.c: `proftool flamegraph`: an interactive flame graph SVG (the svg
 * writer, as `convert --to svg`), no Perl needed. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "formats/format.h"
#include "cli/write-opts.h"

static int flamegraph_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt flamegraph_options[] = {
	PT_OPT_OUTPUT_ROW("write to FILE (atomically) instead of standard output"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {flamegraph_options, pt_svg_options, pt_input_options,
					      pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"flamegraph", "flamegraph [OPTIONS] [FILE]",
	"Draw a flame graph as one interactive SVG (hover for details, click to zoom,\n"
	"Search or Ctrl-F to highlight). Kernel, JIT and inlined frames are coloured as\n"
	"flamegraph.pl colours _[k], _[j] and _[i]. A profile with the sample types 'base'\n"
	"and 'new' (two-count collapsed input) is drawn as a differential flame graph:\n"
	"widths from new, red where it grew, blue where it shrank.",
	tables, flamegraph_option};

/* the svg writer's options */
static int flamegraph_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	return pt_write_option(ctx, sp, id, arg);
}

int cmd_flamegraph(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_write_opts wo;
	struct pt_run r;
	const char *path = "-";
	int ret;

	pt_write_opts_init(&wo);
	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &wo)) >= 0)
		return ret;
	if ((ret = pt_cli_one_file(&spec, argc, argv, &path)))
		return ret;

	/* only a flame chart needs the timeline, which grows with the input */
	common.load.read.keep_timeline = !!(wo.flags & PT_WRITE_FLAMECHART);
	pt_run_init(&r, &common, path);
	if (!(ret = pt_run_load(&r)) && !(ret = pt_run_type(&r))) {
		wo.type = r.write_type;
		ret = pt_run_write(&r, ra.outpath, NULL, pt_format_find("svg"), &wo);
	}
	pt_run_release(&r);
	return ret;
}
