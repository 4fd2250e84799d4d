/* cmd-traces.c: `proftool traces`: every unique stack with its value and labels, leaf
 * first, in go tool pprof -traces' layout. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/report.h"

static const struct pt_opt *const tables[] = {pt_output_option, pt_input_options, pt_help_option,
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
	return pt_run_report(&spec, argc, argv, 1, NULL, emit_traces);
}
