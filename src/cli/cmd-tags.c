/* cmd-tags.c: `proftool tags`: every label key with its values, their values and
 * shares, as go tool pprof -tags prints them. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/report.h"

static const struct pt_opt tags_options[] = {
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {tags_options, pt_input_options, pt_help_option,
					      NULL};
static const struct pt_cmd_spec spec = {
	"tags", "tags [OPTIONS] [FILE...]",
	"Print every label key (pprof labels, threads, processes) with the value of each of\n"
	"its values in the sample type, their shares and the key's total, as\n"
	"go tool pprof -tags does. FILE '-' or none reads stdin; several FILEs are merged.",
	tables, NULL};

static int emit_tags(const struct pt_run *r, const void *o, FILE *out, struct pt_diag *d)
{
	(void)o;
	return pt_report_tags(&r->p, r->type, out, d);
}

/* 1 if any row of p carries a label */
static int has_labels(const struct pt_profile *p)
{
	uint32_t row;

	for (row = 0; row < p->nsamples; row++)
		if (p->labelsets[p->samples[row].labels].n)
			return 1;
	return 0;
}

int cmd_tags(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_run r;
	int ret;

	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, NULL)) >= 0)
		return ret;

	pt_run_init(&r, &common, "-");
	pt_run_files(&r, argc, argv);
	if (!(ret = pt_run_load(&r)) && !(ret = pt_run_type(&r))) {
		if (!has_labels(&r.p))
			fprintf(stderr, "proftool: tags: %s: no sample carries a label\n", r.path);
		ret = pt_run_emit(&r, ra.outpath, emit_tags, NULL);
	}
	pt_run_release(&r);
	return ret;
}
