/* cmd-convert.c: `proftool convert`: any readable format to any writable one. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "formats/format.h"
#include "cli/write-opts.h"
#include "core/heapgraph.h"

enum { OPT_TO = PT_OPT_CMD_BASE };

/* convert's own options */
struct convert_args {
	struct pt_write_opts *wo;
	const char *to;
};

static int convert_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt convert_options[] = {
	{"to", 0, required_argument, OPT_TO, "FORMAT",
	 "output format (default: from the suffix of -o; see 'proftool formats')"},
	PT_OPT_OUTPUT_ROW("write to FILE (atomically: a temporary file renamed on success)"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt granularity_option[] = {
	PT_OPT_GRANULARITY_ROW(
		"merge frames of one function, file or line first (default: keep them as read)"),
	{NULL, 0, 0, 0, NULL, NULL},
};
/* the tables are convert_tables' */
static const struct pt_cmd_spec convert_spec = {
	"convert", "convert [--to FORMAT] [-o FILE] [OPTIONS] [FILE]",
	"Convert a profile to another format. Without --to the format follows the suffix of\n"
	"-o: .collapsed/.folded (collapsed), and the other writers' suffixes.",
	NULL, convert_option};

/* convert's options: its own, and every option group a writer in the registry reads
 * (the format is known only after the parse), in the order --help has always had */
static void convert_tables(const struct pt_opt **tables)
{
	unsigned g = pt_write_groups();
	size_t n = 0;

	tables[n++] = convert_options;
	n += pt_write_tables(g & PT_WOPTS_GZIP, tables + n);
	tables[n++] = granularity_option;
	n += pt_write_tables(g & (PT_WOPTS_DOT | PT_WOPTS_SVG | PT_WOPTS_HTML), tables + n);
	tables[n++] = pt_input_options;
	tables[n++] = pt_perf_options;
	n += pt_write_tables(g & PT_WOPTS_TAGS, tables + n);
	tables[n++] = pt_help_option;
	tables[n] = NULL;
}

static int convert_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	struct convert_args *ca = ctx;
	if (id == OPT_TO) {
		ca->to = arg;
		return 1;
	}
	return pt_write_option(ca->wo, sp, id, arg);
}

int cmd_convert(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_write_opts wo;
	struct convert_args ca = {&wo, NULL};
	struct pt_cmd_spec spec = convert_spec;
	const struct pt_opt *tables[16];
	struct pt_run r;
	const struct pt_format *f = NULL;
	const char *path = "-", *outpath, *to;
	int ret;

	convert_tables(tables);
	spec.tables = tables;
	pt_write_opts_init(&wo);
	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_ADDRESSES);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &ca)) >= 0)
		return ret;
	outpath = ra.outpath;
	to = ca.to;
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
	pt_run_init(&r, &common, path);
	r.gran = ra.gran;
	r.regroup = 1;
	r.all_types = 1;
	if (f->heap_page) {
		/* a heap graph becomes the heap report's page; a profile goes on as below */
		struct pt_heapgraph g;
		int is_heap;
		pt_heapgraph_init(&g);
		common.load.read.heap_out = &g; /* a V8 snapshot without stacks too */
		ret = pt_run_load_either(&r, &g, &is_heap);
		if (!ret && is_heap)
			ret = pt_heap_page(&g, path, outpath);
		pt_heapgraph_release(&g);
		if (ret || is_heap)
			goto out;
	} else if ((ret = pt_run_load(&r))) {
		goto out;
	}
	if (!(ret = pt_run_type(&r))) {
		wo.type = r.write_type;
		ret = pt_run_write(&r, outpath, NULL, f, &wo);
	}
out:
	pt_run_release(&r);
	return ret;
}
