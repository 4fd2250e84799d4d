/* cmd-diff.c: `proftool diff BASE NEW`: what changed between two profiles, per function
 * or as a two-count stack file / differential flame graph; and the regression gate. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "util/buf.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "analysis/filter.h"
#include "formats/format.h"
#include "util/intern.h"
#include "util/output.h"
#include "report/report.h"
#include "core/units.h"
#include "util/xalloc.h"

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
	 "differential flame graph"},
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

static int64_t round_scaled(int64_t v, double f)
{
	double x = (double)v * f;
	if (x >= 9.2e18)
		return INT64_MAX;
	return (int64_t)llround(x);
}

/* multiply every value of type t by f, rounding to the nearest */
static void scale_type(struct pt_profile *p, uint32_t t, double f)
{
	size_t i;
	for (i = 0; i < p->nnodes; i++)
		p->node_self[i * p->ntypes + t] = round_scaled(p->node_self[i * p->ntypes + t], f);
	for (i = 0; i < p->nsamples; i++)
		p->sample_values[i * p->ntypes + t] =
			round_scaled(p->sample_values[i * p->ntypes + t], f);
}

/* one profile with the types base and new, for the stack outputs */
static void build_both(struct pt_profile *both, struct pt_profile *bp, uint32_t bt,
		       struct pt_profile *np, uint32_t nt, const struct pt_diff *df)
{
	uint32_t *map;
	uint32_t t;

	pt_profile_init(both);
	both->format = np->format;
	pt_profile_add_type(both, "base", pt_s(np, np->types[nt].unit));
	pt_profile_add_type(both, "new", pt_s(np, np->types[nt].unit));
	both->types[0].decimals = both->types[1].decimals = df->decimals;
	both->default_type = 1;
	/* the same fixed point in both */
	while (bp->types[bt].decimals < df->decimals) {
		pt_profile_scale_type(bp, bt, 10);
		bp->types[bt].decimals++;
	}
	while (np->types[nt].decimals < df->decimals) {
		pt_profile_scale_type(np, nt, 10);
		np->types[nt].decimals++;
	}
	map = pt_xmalloc((bp->ntypes > np->ntypes ? bp->ntypes : np->ntypes) * sizeof(*map));
	for (t = 0; t < bp->ntypes; t++)
		map[t] = t == bt ? 0 : PT_TYPE_SKIP;
	pt_profile_merge(both, bp, map);
	if (df->factor != 1)
		scale_type(both, 0, df->factor);
	for (t = 0; t < np->ntypes; t++)
		map[t] = t == nt ? 1 : PT_TYPE_SKIP;
	pt_profile_merge(both, np, map);
	free(map);
}

/* write a stack output of one type into a string */
static int write_type(const struct pt_format *f, const struct pt_profile *p, int t, char **out,
		      size_t *len, struct pt_diag *d)
{
	struct pt_write_opts wo;
	FILE *fp = open_memstream(out, len);
	int ret;

	if (!fp) {
		*out = NULL;
		return pt_diag_error(d, "out of memory");
	}
	memset(&wo, 0, sizeof(wo));
	wo.type = t;
	ret = f->write(p, &wo, fp, d);
	if (fclose(fp) && !ret)
		ret = pt_diag_error(d, "out of memory");
	return ret;
}

struct two {
	uint32_t stack; /* id in the stack table */
	const char *count[2];
	size_t count_len[2];
};

static int line_cmp(const void *a, const void *b, void *ctx)
{
	const struct pt_buf *lines = ctx;
	return strcmp(lines[*(const uint32_t *)a].buf, lines[*(const uint32_t *)b].buf);
}

/* difffolded.pl's form: "stack BASE NEW" for every stack in either, from the collapsed
 * writer's output of each type (so names are made safe the same way), in the byte
 * order of LC_ALL=C sort */
static int write_two_counts(const struct pt_profile *both, FILE *out, struct pt_diag *d)
{
	const struct pt_format *f = pt_format_find("collapsed");
	char *text[2] = {NULL, NULL};
	size_t len[2], i;
	struct pt_arena arena;
	struct pt_intern stacks;
	struct two *rows = NULL;
	size_t nrows = 0, alloc = 0;
	struct pt_buf *lines = NULL;
	uint32_t *order = NULL;
	int t, ret = -1;

	pt_arena_init(&arena);
	pt_intern_init(&stacks, &arena);
	pt_intern(&stacks, "", 0);
	for (t = 0; t < 2; t++)
		if (write_type(f, both, t, &text[t], &len[t], d) < 0)
			goto out;
	for (t = 0; t < 2; t++) {
		char *s = text[t], *end = text[t] + len[t];
		while (s < end) {
			char *nl = memchr(s, '\n', (size_t)(end - s)), *sp;
			uint32_t id;
			if (!nl)
				nl = end;
			sp = s + (nl - s);
			while (sp > s && sp[-1] != ' ')
				sp--;
			if (sp > s) {
				id = pt_intern(&stacks, s, (size_t)(sp - 1 - s));
				if (id > nrows) {
					PT_ALLOC_GROW(rows, nrows + 1, alloc);
					memset(&rows[nrows], 0, sizeof(rows[nrows]));
					rows[nrows].stack = id;
					nrows++;
				}
				rows[id - 1].count[t] = sp;
				rows[id - 1].count_len[t] = (size_t)(nl - sp);
			}
			s = nl + 1;
		}
	}
	lines = pt_xcalloc(nrows ? nrows : 1, sizeof(*lines));
	order = pt_xmalloc((nrows ? nrows : 1) * sizeof(*order));
	for (i = 0; i < nrows; i++) {
		pt_buf_init(&lines[i]);
		pt_buf_add(&lines[i], pt_intern_str(&stacks, rows[i].stack),
			   pt_intern_len(&stacks, rows[i].stack));
		for (t = 0; t < 2; t++) {
			pt_buf_addch(&lines[i], ' ');
			if (rows[i].count[t])
				pt_buf_add(&lines[i], rows[i].count[t], rows[i].count_len[t]);
			else
				pt_buf_addch(&lines[i], '0');
		}
		order[i] = (uint32_t)i;
	}
	qsort_r(order, nrows, sizeof(*order), line_cmp, lines);
	for (i = 0; i < nrows; i++) {
		fwrite(lines[order[i]].buf, 1, lines[order[i]].len, out);
		fputc('\n', out);
	}
	ret = 0;
out:
	for (i = 0; lines && i < nrows; i++)
		pt_buf_release(&lines[i]);
	free(lines);
	free(order);
	free(rows);
	free(text[0]);
	free(text[1]);
	pt_intern_release(&stacks);
	pt_arena_release(&arena);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct diff_args da = {0, NULL, -1, 0};
	struct pt_diff_opts o;
	struct pt_profile bp, np, both;
	struct pt_agg ba, na;
	struct pt_diff df;
	struct pt_output out;
	struct pt_diag d;
	struct pt_filter_log blog, nlog;
	const struct pt_format *to_fmt = NULL;
	int bt, nt, ret = PT_EXIT_OK, have = 0;
	uint32_t i;

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
	o.base_log = &blog;
	o.new_log = &nlog;

	pt_profile_init(&bp);
	pt_profile_init(&np);
	pt_filter_log_init(&blog);
	pt_filter_log_init(&nlog);
	if ((ret = pt_cli_load_log(&common, o.base_path, &bp, &blog)) ||
	    (ret = pt_cli_load_log(&common, o.new_path, &np, &nlog)))
		goto out;
	pt_diag_init(&d, o.base_path);
	bt = pt_select_type(&bp, common.sample_index, 0, &d);
	if (bt < 0) {
		ret = pt_cli_fail(&d);
		goto out;
	}
	pt_diag_init(&d, o.new_path);
	nt = pt_select_type(&np, common.sample_index, 0, &d);
	if (nt < 0) {
		ret = pt_cli_fail(&d);
		goto out;
	}
	if (strcmp(pt_s(&bp, bp.types[bt].unit), pt_s(&np, np.types[nt].unit)) && !da.normalize) {
		fprintf(stderr,
			"proftool: diff: the sample types differ in unit: %s [%s] in '%s', %s "
			"[%s] in '%s' (--normalize compares shares)\n",
			pt_s(&bp, bp.types[bt].name), pt_s(&bp, bp.types[bt].unit), o.base_path,
			pt_s(&np, np.types[nt].name), pt_s(&np, np.types[nt].unit), o.new_path);
		ret = PT_EXIT_INPUT;
		goto out;
	}
	pt_diag_init(&d, o.base_path);
	if (pt_aggregate(&bp, o.gran, &ba, &d) < 0) {
		ret = pt_cli_fail(&d);
		goto out;
	}
	pt_diag_init(&d, o.new_path);
	if (pt_aggregate(&np, o.gran, &na, &d) < 0) {
		pt_agg_release(&ba);
		ret = pt_cli_fail(&d);
		goto out;
	}
	pt_diff_build(&df, &bp, &ba, (uint32_t)bt, &np, &na, (uint32_t)nt, da.normalize);
	o.base = &bp;
	o.base_type = (uint32_t)bt;
	have = 1;

	pt_diag_init(&d, ra.outpath ? ra.outpath : "<stdout>");
	if (to_fmt) {
		const struct pt_profile *none = !pt_profile_has_stacks(&bp)   ? &bp
						: !pt_profile_has_stacks(&np) ? &np
									      : NULL;
		if (none) {
			pt_diag_init(&d, none == &bp ? o.base_path : o.new_path);
			pt_diag_error(&d, "--to %s needs stacks, and the profile has none (%s)",
				      da.to,
				      none->no_stacks_reason ? none->no_stacks_reason
							     : "aggregates only");
			ret = pt_cli_fail(&d);
			goto out;
		}
		build_both(&both, &bp, (uint32_t)bt, &np, (uint32_t)nt, &df);
	}
	if (pt_output_open(&out, ra.outpath, &d) < 0) {
		if (to_fmt)
			pt_profile_release(&both);
		ret = pt_cli_fail(&d);
		goto out;
	}
	if (to_fmt) {
		struct pt_write_opts wo;
		int r;
		memset(&wo, 0, sizeof(wo));
		wo.type = 1;
		if (!strcmp(to_fmt->name, "collapsed"))
			r = write_two_counts(&both, out.fp, &d);
		else
			r = to_fmt->write(&both, &wo, out.fp, &d);
		pt_profile_release(&both);
		if (r < 0) {
			pt_output_abort(&out);
			ret = pt_cli_fail(&d);
			goto out;
		}
	} else {
		pt_report_diff(&df, &np, (uint32_t)nt, &o, out.fp);
	}
	if (pt_output_commit(&out, &d) < 0) {
		ret = pt_cli_fail(&d);
		goto out;
	}

	if (da.fail_pct >= 0) {
		uint32_t nreg, *reg = pt_diff_regressions(&df, da.fail_pct, da.min_share, &nreg);
		struct pt_buf b = PT_BUF_INIT;
		for (i = 0; i < nreg; i++) {
			const struct pt_diff_row *r = &df.rows[reg[i]];
			pt_buf_reset(&b);
			pt_diff_row_label(&b, &df, r);
			fprintf(stderr,
				"proftool: diff: regression: %s: cum %.2f%% -> %.2f%% (%+.2f "
				"points)\n",
				b.buf, pt_pct(r->base_cum, df.base_total),
				pt_pct(r->new_cum, df.new_total), pt_diff_share_change(&df, r));
		}
		if (nreg) {
			fprintf(stderr,
				"proftool: diff: %u function%s grew by more than %g points of cum "
				"share\n",
				nreg, nreg == 1 ? "" : "s", da.fail_pct);
			ret = PT_EXIT_REGRESSION;
		}
		pt_buf_release(&b);
		free(reg);
	}
out:
	if (have) {
		pt_diff_release(&df);
		pt_agg_release(&ba);
		pt_agg_release(&na);
	}
	pt_filter_log_release(&blog);
	pt_filter_log_release(&nlog);
	pt_profile_release(&bp);
	pt_profile_release(&np);
	return ret;
}
