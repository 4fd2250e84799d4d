/* cmd-diff.c: `proftool diff BASE NEW`: what changed between two profiles, per function
 * or as a two-count stack file / differential flame graph; and the regression gate. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "core/units.h"
#include "formats/format.h"
#include "report/report.h"
#include "util/buf.h"

enum {
	OPT_NORMALIZE = PT_OPT_CMD_BASE,
	OPT_TO,
	OPT_FAIL,
	OPT_MIN_SHARE,
};

/* diff's own options */
struct diff_args {
	int normalize;
	const char *to;
	double fail_pct; /* < 0: no gate */
	double min_share;
};

static int diff_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt diff_options[] = {
	PT_OPT_NODES_ROW(
		"show the N largest changes; 0 shows all (default 30 for text, all for csv/json)"),
	PT_OPT_CUM_ROW("sort by the change of cum instead of flat"),
	PT_OPT_FORMAT_ROW("text|csv|json",
			  "table format; csv and json give raw values in the base unit"),
	{"normalize", 0, no_argument, OPT_NORMALIZE, NULL, "scale BASE to NEW's total first"},
	{"to", 0, required_argument, OPT_TO, "FORMAT",
	 "write the stacks of both instead: collapsed gives difffolded.pl's two counts, svg a "
	 "differential flame graph, html a report with one and the diff table"},
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	{"fail-on-regression", 0, required_argument, OPT_FAIL, "PCT",
	 "exit 3 when a function's cum share grew by more than PCT points"},
	{"min-share", 0, required_argument, OPT_MIN_SHARE, "PCT",
	 "the gate looks only at functions with at least PCT% of NEW (default 0)"},
	PT_OPT_GRANULARITY_ROW("compare per function (default), source file, line or address"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {diff_options, pt_input_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"diff", "diff [OPTIONS] BASE NEW",
	"Compare two profiles function by function: flat and cum in both and the change,\n"
	"sorted by the size of the change. --fail-on-regression makes it a CI gate (exit 3).",
	tables, diff_option};

static int parse_pct(const char *s, double *out)
{
	char *end;
	double v;
	if (!*s)
		return -1;
	v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (*end || !(v >= 0) || v > 100)
		return -1;
	*out = v;
	return 0;
}

static int diff_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	struct diff_args *da = ctx;

	switch (id) {
	case OPT_NORMALIZE:
		da->normalize = 1;
		return 1;
	case OPT_TO:
		da->to = arg;
		return 1;
	case OPT_FAIL:
		if (parse_pct(arg, &da->fail_pct) < 0) {
			pt_usage_error(
				sp, "bad percentage '%s' for --fail-on-regression (0 to 100)", arg);
			return -1;
		}
		return 1;
	case OPT_MIN_SHARE:
		if (parse_pct(arg, &da->min_share) < 0) {
			pt_usage_error(sp, "bad percentage '%s' for --min-share (0 to 100)", arg);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* the unit check: comparing values needs one unit, comparing shares does not */
static int check_units(const struct pt_run *b, const struct pt_run *n, int normalize)
{
	const struct pt_profile *bp = &b->p, *np = &n->p;
	const struct pt_sample_type *bt = &bp->types[b->type], *nt = &np->types[n->type];

	if (!strcmp(pt_s(bp, bt->unit), pt_s(np, nt->unit)) || normalize)
		return 0;
	fprintf(stderr,
		"proftool: diff: the sample types differ in unit: %s [%s] in '%s', %s "
		"[%s] in '%s' (--normalize compares shares)\n",
		pt_s(bp, bt->name), pt_s(bp, bt->unit), b->path, pt_s(np, nt->name),
		pt_s(np, nt->unit), n->path);
	return PT_EXIT_INPUT;
}

/* the stack outputs (--to): both profiles in one, as two sample types */
struct stacks_ctx {
	const struct pt_format *f;
	struct pt_run *base, *new;
	const struct pt_diff *df;
};

static int emit_stacks(void *ctx, FILE *out, struct pt_diag *d)
{
	struct stacks_ctx *c = ctx;
	struct pt_profile both;
	struct pt_write_opts wo;
	int ret;

	pt_diff_stacks(&both, &c->base->p, c->base->type, &c->new->p, c->new->type, c->df);
	memset(&wo, 0, sizeof(wo));
	wo.type = 1;
	wo.flags = c->f->diff_flags;
	/* html: the differential flame graph and diff table, big trees drawn coarser */
	wo.min_fraction = PT_HTML_MIN_FRACTION;
	ret = c->f->write(&both, &wo, out, d);
	pt_profile_release(&both);
	return ret;
}

/* --to needs the stacks of both: name the one that has none */
static int need_stacks(const struct pt_run *b, const struct pt_run *n, const char *to)
{
	const struct pt_run *none = !pt_profile_has_stacks(&b->p)   ? b
				    : !pt_profile_has_stacks(&n->p) ? n
								    : NULL;
	struct pt_diag d;

	if (!none)
		return 0;
	pt_diag_init(&d, none->path);
	pt_diag_error(&d, "--to %s needs stacks, and the profile has none (%s)", to,
		      none->p.no_stacks_reason ? none->p.no_stacks_reason : "aggregates only");
	return pt_cli_fail(&d);
}

struct table_ctx {
	const struct pt_diff *df;
	const struct pt_run *new;
	const struct pt_diff_opts *o;
};

static int emit_table(void *ctx, FILE *out, struct pt_diag *d)
{
	struct table_ctx *c = ctx;
	(void)d;
	pt_report_diff(c->df, &c->new->p, c->new->type, c->o, out);
	return 0;
}

/* --fail-on-regression: each function whose cum share grew too much, then the verdict */
static int gate(const struct pt_diff *df, const struct diff_args *da)
{
	uint32_t nreg, i, *reg = pt_diff_regressions(df, da->fail_pct, da->min_share, &nreg);
	struct pt_buf b = PT_BUF_INIT;
	int ret = PT_EXIT_OK;

	for (i = 0; i < nreg; i++) {
		const struct pt_diff_row *r = &df->rows[reg[i]];
		pt_buf_reset(&b);
		pt_diff_row_label(&b, df, r);
		fprintf(stderr,
			"proftool: diff: regression: %s: cum %.2f%% -> %.2f%% (%+.2f points)\n",
			b.buf, pt_pct(r->base_cum, df->base_total),
			pt_pct(r->new_cum, df->new_total), pt_diff_share_change(df, r));
	}
	if (nreg) {
		fprintf(stderr,
			"proftool: diff: %u function%s grew by more than %g points of cum share\n",
			nreg, nreg == 1 ? "" : "s", da->fail_pct);
		ret = PT_EXIT_REGRESSION;
	}
	pt_buf_release(&b);
	free(reg);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct diff_args da = {0, NULL, -1, 0};
	struct pt_diff_opts o;
	struct pt_run base, new;
	struct pt_diff df;
	const struct pt_format *to_fmt = NULL;
	const char *outname;
	int ret = PT_EXIT_OK, have = 0;

	memset(&o, 0, sizeof(o));
	pt_common_init(&common);
	pt_report_args_init(&ra, 1, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &da)) >= 0)
		return ret;
	o.by_cum = ra.by_cum;
	o.format = ra.format;
	o.gran = ra.gran;
	if (argc - optind != 2)
		return pt_usage_error(&spec, "two profiles needed: BASE and NEW");
	if (!strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-"))
		return pt_usage_error(&spec, "only one of BASE and NEW can be stdin");
	if (da.to) {
		to_fmt = pt_format_find(da.to);
		if (!to_fmt || !to_fmt->write) {
			fprintf(stderr,
				"proftool: diff: cannot write format '%s' in this build (see "
				"'proftool formats')\n",
				da.to);
			return PT_EXIT_INPUT;
		}
	}
	o.limit = pt_report_limit(&ra, o.format == PT_FMT_TEXT ? 30 : -1);
	o.base_path = argv[optind];
	o.new_path = argv[optind + 1];

	pt_run_init(&base, &common, o.base_path);
	pt_run_init(&new, &common, o.new_path);
	base.gran = new.gran = o.gran;
	/* both read before either is judged, so a bad NEW is reported before BASE's type */
	if ((ret = pt_run_load(&base)) || (ret = pt_run_load(&new)) || (ret = pt_run_type(&base)) ||
	    (ret = pt_run_type(&new)) || (ret = check_units(&base, &new, da.normalize)) ||
	    (ret = pt_run_table(&base)) || (ret = pt_run_table(&new)))
		goto out;
	pt_diff_build(&df, &base.p, &base.agg, base.type, &new.p, &new.agg, new.type, da.normalize);
	have = 1;
	o.base_log = &base.log;
	o.new_log = &new.log;
	o.base = &base.p;
	o.base_type = base.type;

	/* the output's errors name the output */
	outname = ra.outpath ? ra.outpath : "<stdout>";
	if (to_fmt) {
		if ((ret = need_stacks(&base, &new, da.to)))
			goto out;
		ret = pt_cli_emit(ra.outpath, outname, emit_stacks,
				  &(struct stacks_ctx){to_fmt, &base, &new, &df});
	} else {
		ret = pt_cli_emit(ra.outpath, outname, emit_table,
				  &(struct table_ctx){&df, &new, &o});
	}
	if (!ret && da.fail_pct >= 0)
		ret = gate(&df, &da);
out:
	if (have)
		pt_diff_release(&df);
	pt_run_release(&base);
	pt_run_release(&new);
	return ret;
}
