/* cmd-export.c: `proftool export --to tsv|csv -o DIR FILE...`: profiles as the stacks,
 * samples and profiles tables of a column store (report/export.h), one input at a time. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/export.h"
#include "util/buf.h"
#include "util/output.h"
#include "util/xalloc.h"

enum { OPT_TO = PT_OPT_CMD_BASE, OPT_TIMELINE, OPT_FILES_FROM };

struct export_args {
	const char *to;
	int timeline;
	const char **lists; /* --files-from, as often as given */
	size_t nlists;
};

static int export_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt export_options[] = {
	PT_OPT_OUTPUT_ROW("the directory to write stacks, samples and profiles tables into "
			  "(made if missing)"),
	{"to", 0, required_argument, OPT_TO, "tsv|csv",
	 "table format: tsv (ClickHouse TabSeparated, the default) or csv"},
	{"timeline", 0, no_argument, OPT_TIMELINE, NULL,
	 "one samples row per timeline event, with its time, where the input has a timeline"},
	{"files-from", 0, required_argument, OPT_FILES_FROM, "LIST",
	 "also export the files LIST names, one path a line ('-': standard input)"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {export_options, pt_input_options, pt_help_option,
					      NULL};
static const struct pt_cmd_spec spec = {
	"export", "export [--to tsv|csv] -o DIR [--timeline] [--files-from LIST] [OPTIONS] FILE...",
	"Write profiles as tables for a column store: DIR/stacks.EXT (stack_id, depth,\n"
	"function, file, start_line, line), DIR/samples.EXT (profile_id, stack_id,\n"
	"sample_type, unit, value, time, label_keys, label_values) and DIR/profiles.EXT\n"
	"(profile_id, source, start, duration, sample_types, default_type), without\n"
	"header lines. Stack ids are a fixed hash of the frames' text, so exports of\n"
	"different files and machines share them; 'man proftool' has the ClickHouse tables.",
	tables, export_option};

static int export_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	struct export_args *a = ctx;

	switch (id) {
	case OPT_TO:
		if (strcmp(arg, "tsv") && strcmp(arg, "csv")) {
			pt_usage_error(sp, "cannot export to '%s' (tsv or csv)", arg);
			return -1;
		}
		a->to = arg;
		return 1;
	case OPT_TIMELINE:
		a->timeline = 1;
		return 1;
	case OPT_FILES_FROM:
		a->lists[a->nlists++] = arg;
		return 1;
	}
	return 0;
}

/* one input's rows */
static int export_one(void *ctx, const char *path, struct pt_profile *p, struct pt_diag *d)
{
	return pt_export_profile(ctx, p, path, d);
}

static const char *const table_names[3] = {"stacks", "samples", "profiles"};

int cmd_export(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct export_args a = {"tsv", 0, NULL, 0};
	struct pt_inputs in;
	struct pt_output out[3];
	char *paths[3] = {NULL, NULL, NULL};
	struct pt_export x;
	struct pt_diag d;
	struct pt_run r;
	int k, opened = 0, done = 0, ret;

	memset(&in, 0, sizeof(in));
	/* --files-from may repeat: argc bounds how often */
	a.lists = pt_xreallocarray(NULL, (size_t)argc, sizeof(*a.lists));
	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &a)) >= 0)
		goto out_args;
	ret = PT_EXIT_OK;
	if (!ra.outpath || !strcmp(ra.outpath, "-")) {
		ret = pt_usage_error(&spec, "-o DIR is needed: the tables are three files");
		goto out_args;
	}
	if (optind >= argc && !a.nlists) {
		ret = pt_usage_error(&spec, "no input profiles");
		goto out_args;
	}
	if ((ret = pt_inputs_init(&in, &spec, argc, argv, a.lists, a.nlists)))
		goto out_args;
	pt_diag_init(&d, ra.outpath);
	if (mkdir(ra.outpath, 0777) < 0 && errno != EEXIST) {
		pt_diag_error(&d, "cannot make the directory: %s", strerror(errno));
		ret = pt_cli_fail(&d);
		goto out_args;
	}
	for (k = 0; k < 3; k++) {
		struct pt_buf b = PT_BUF_INIT;
		pt_buf_addf(&b, "%s/%s.%s", ra.outpath, table_names[k], a.to);
		paths[k] = pt_buf_detach(&b, NULL);
		pt_diag_init(&d, paths[k]);
		if (pt_output_open(&out[k], paths[k], &d) < 0) {
			ret = pt_cli_fail(&d);
			goto out;
		}
		opened++;
	}
	common.load.read.keep_timeline = a.timeline;
	pt_export_init(&x, strcmp(a.to, "csv") ? PT_EXPORT_TSV : PT_EXPORT_CSV, out[0].fp,
		       out[1].fp, out[2].fp);
	x.timeline = a.timeline;
	/* one input at a time: memory is one profile and the set of stack ids written */
	pt_run_init(&r, &common, "-");
	ret = pt_run_each(&r, pt_inputs_next, &in, export_one, &x);
	if (ret == PT_RUN_NO_INPUT)
		ret = pt_usage_error(&spec, "no input profiles");
	pt_run_release(&r);
	pt_export_release(&x);
	/* a commit that fails removes its own temporary file */
	for (k = 0; k < 3 && !ret; k++, done++) {
		pt_diag_init(&d, paths[k]);
		if (pt_output_commit(&out[k], &d) < 0)
			ret = pt_cli_fail(&d);
	}
out:
	/* a failed run leaves no half-written table behind */
	for (k = done; k < opened; k++)
		pt_output_abort(&out[k]);
	for (k = 0; k < 3; k++)
		free(paths[k]);
out_args:
	pt_inputs_release(&in);
	free(a.lists);
	return ret;
}
