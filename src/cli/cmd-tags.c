/* cmd-tags.c: `proftool tags`: every label key with its values, their values and
 * shares, as go tool pprof -tags prints them. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/report.h"

static const struct pt_opt *const tables[] = {pt_output_option, pt_input_options, pt_help_option,
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

/* says so when no row of the profile carries a label */
static void note_no_labels(const struct pt_run *r)
{
	const struct pt_profile *p = &r->p;
	uint32_t row;

	for (row = 0; row < p->nsamples; row++)
		if (p->labelsets[p->samples[row].labels].n)
			return;
	fprintf(stderr, "proftool: tags: %s: no sample carries a label\n", r->path);
}

int cmd_tags(int argc, char **argv)
{
	return pt_run_report(&spec, argc, argv, 0, note_no_labels, emit_tags);
}
