/* cmd-traces.c: `proftool traces`: every unique stack with its value and labels, leaf
 * first, in go tool pprof -traces' layout. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/report.h"

static const struct pt_opt traces_options[] = {
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {traces_options, pt_input_options, pt_help_option,
					      NULL};
static const struct pt_cmd_spec spec = {
	"traces", "traces [OPTIONS] [FILE...]",
	"Print every unique stack (with its labels) and its value, leaf first, as\n"
	"go tool pprof -traces does. FILE '-' or none reads stdin; several FILEs are merged.",
	tables, NULL};

static int emit_traces(const struct pt_run *r, const void *o, FILE *out, struct pt_diag *d)
{
	(void)o;
	return pt_report_traces(&r->p, r->type, out, d);
}

int cmd_traces(int argc, char **argv)
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
	r.say_empty = 1;
	pt_run_files(&r, argc, argv);
	if (!(ret = pt_run_load(&r)) && !(ret = pt_run_type(&r)))
		ret = pt_run_emit(&r, ra.outpath, emit_traces, NULL);
	pt_run_release(&r);
	return ret;
}
