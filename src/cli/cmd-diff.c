/* cmd-diff.c: `proftool diff BASE NEW`: what changed between two profiles, per function
 * or as a two-count stack file / differential flame graph; and the regression gate. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "analysis/diff.h"
#include "analysis/runs.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "core/units.h"
#include "formats/format.h"
#include "report/ci.h"
#include "report/report.h"
#include "util/buf.h"
#include "util/fetch.h"
#include "util/xalloc.h"

enum {
	OPT_NORMALIZE = PT_OPT_CMD_BASE,
	OPT_TO,
	OPT_FAIL,
	OPT_MIN_SHARE,
	OPT_VS,
	OPT_BASE_FROM,
	OPT_NEW_FROM,
	OPT_ALPHA,
	OPT_FAIL_TOTAL,
	OPT_PER_SECOND,
	OPT_JUNIT,
	OPT_METRICS,
};

/* diff's own options */
struct diff_args {
	int normalize;
	const char *to;
	double fail_pct; /* < 0: no gate */
	double min_share;
	/* repeated runs: the files of each side (argv's, or a list file's) */
	const char *base_from, *new_from;
	double alpha;
	double fail_total; /* < 0: no totals' gate */
	int per_second;
	const char *junit, *metrics; /* CI reports, or NULL */
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
	 "the gate looks only at functions with at least PCT% of NEW (default 0; repeated "
	 "runs: on average over all runs)"},
	PT_OPT_GRANULARITY_ROW("compare per function (default), source file, line or address"),
	{"vs", 0, required_argument, OPT_VS, "NEW...",
	 "repeated runs: the operands before --vs are BASE's runs, the files after it (up to "
	 "the next option) NEW's; each function's median share a side is compared by a rank "
	 "test"},
	{"base-from", 0, required_argument, OPT_BASE_FROM, "LIST",
	 "BASE's runs are the files LIST names, one a line"},
	{"new-from", 0, required_argument, OPT_NEW_FROM, "LIST",
	 "NEW's runs are the files LIST names, one a line"},
	{"alpha", 0, required_argument, OPT_ALPHA, "A",
	 "repeated runs: the gates fail only on changes significant at A (default 0.05)"},
	{"fail-on-total-growth", 0, required_argument, OPT_FAIL_TOTAL, "PCT",
	 "exit 3 when NEW's total grew by more than PCT percent of BASE's (with repeated "
	 "runs: significantly)"},
	{"per-second", 0, no_argument, OPT_PER_SECOND, NULL,
	 "the totals' gate compares each profile's total per second of its duration (per sample when a profile says none)"},
	{"junit", 0, required_argument, OPT_JUNIT, "FILE",
	 "also write a JUnit XML report: a test case per function the gate looked at"},
	{"metrics", 0, required_argument, OPT_METRICS, "FILE",
	 "also write OpenMetrics lines: each function's shares and change"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {diff_options, pt_input_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"diff", "diff [OPTIONS] BASE NEW\n       diff [OPTIONS] BASE... --vs NEW...",
	"Compare two profiles function by function: flat and cum in both and the change,\n"
	"sorted by the size of the change. --fail-on-regression makes it a CI gate (exit 3).\n"
	"With several runs a side, each function's share is tested for a significant change.",
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
	case OPT_VS: /* taken out of argv before the parse (split_vs) */
		pt_usage_error(sp, "--vs comes after BASE's files, before NEW's");
		return -1;
	case OPT_BASE_FROM:
		da->base_from = arg;
		return 1;
	case OPT_NEW_FROM:
		da->new_from = arg;
		return 1;
	case OPT_ALPHA: {
		char *end;
		da->alpha = strtod(arg, &end);
		if (!*arg || *end || !(da->alpha > 0) || !(da->alpha < 1)) {
			pt_usage_error(sp, "bad --alpha '%s' (between 0 and 1)", arg);
			return -1;
		}
		return 1;
	}
	case OPT_FAIL_TOTAL: {
		char *end;
		da->fail_total = strtod(arg, &end);
		if (*end == '%')
			end++;
		if (!*arg || *end || !(da->fail_total >= 0) || da->fail_total > 1e9) {
			pt_usage_error(sp, "bad percentage '%s' for --fail-on-total-growth", arg);
			return -1;
		}
		return 1;
	}
	case OPT_PER_SECOND:
		da->per_second = 1;
		return 1;
	case OPT_JUNIT:
		da->junit = arg;
		return 1;
	case OPT_METRICS:
		da->metrics = arg;
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
	/* the writers' defaults (svg's width, the bounds of svg and html) */
	pt_write_opts_init(&wo);
	wo.type = 1;
	wo.flags = c->f->diff_flags;
	wo.input = c->new->path; /* the profile drawn */
	ret = c->f->write(&both, &wo, out, d);
	pt_profile_release(&both);
	return ret;
}

/* --to needs the stacks of both: name the one that has none */
static int need_stacks(const struct pt_run *b, const struct pt_run *n, const char *to)
{
	const struct pt_run *run[2] = {b, n};
	struct pt_diag d;
	int i;

	for (i = 0; i < 2; i++) {
		pt_diag_init(&d, run[i]->path);
		if (pt_profile_need_stacks_say(&run[i]->p, &d, "",
					       "--to %s needs stacks, and the profile has none",
					       to) < 0)
			return pt_cli_fail(&d);
	}
	return 0;
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

/* "--vs NEW...": the files after --vs up to the next option are NEW's runs; argv keeps
 * the rest (in order) for the option parse, which leaves BASE's as the operands */
static int split_vs(int argc, char **argv, const char ***news, size_t *nnew)
{
	int i, j, k = 0, found = 0;

	*news = pt_xreallocarray(NULL, (size_t)argc + 1, sizeof(**news));
	*nnew = 0;
	for (i = 0, j = 0; i < argc; i++) {
		if (!found && !strcmp(argv[i], "--vs")) {
			found = 1;
			for (k = i + 1; k < argc && (argv[k][0] != '-' || !strcmp(argv[k], "-"));
			     k++)
				(*news)[(*nnew)++] = argv[k];
			i = k - 1;
			continue;
		}
		if (!strcmp(argv[i], "--"))
			found = 1; /* operands from here on: a later --vs is a file */
		argv[j++] = argv[i];
	}
	argv[j] = NULL;
	return j;
}

/* the paths LIST names, one a line (blank lines skipped); "-" reads stdin */
static int read_list(const char *list, const char ***paths, size_t *n)
{
	FILE *fp = strcmp(list, "-") ? fopen(list, "r") : stdin;
	struct pt_buf line = PT_BUF_INIT;
	size_t alloc = 0;
	int c;

	*paths = NULL;
	*n = 0;
	if (!fp) {
		fprintf(stderr, "proftool: diff: %s: cannot read the list: %s\n", list,
			strerror(errno));
		return PT_EXIT_INPUT;
	}
	do {
		c = getc(fp);
		if (c != EOF && c != '\n') {
			pt_buf_addch(&line, (char)c);
			continue;
		}
		if (line.len) {
			PT_ALLOC_GROW(*paths, *n + 1, alloc);
			(*paths)[(*n)++] = pt_xstrdup(line.buf);
		}
		pt_buf_reset(&line);
	} while (c != EOF);
	pt_buf_release(&line);
	if (fp != stdin)
		fclose(fp);
	if (!*n) {
		fprintf(stderr, "proftool: diff: %s: the list names no file\n", list);
		return PT_EXIT_INPUT;
	}
	return 0;
}

static void free_list(const char **paths, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free((char *)paths[i]);
	free(paths);
}

/* A side's runs from its --base-from/--new-from LIST (NULL: keep *side, the operands):
 * both is a usage error (clash), else the list read into *paths, which *side becomes.
 * Returns 0 or the exit status printed. */
static int side_from(const char *list, const char *clash, const char ***paths, size_t *n,
		     const char *const **side, size_t *nside)
{
	int ret;

	if (!list)
		return 0;
	if (*nside)
		return pt_usage_error(&spec, "%s", clash);
	if ((ret = read_list(list, paths, n)))
		return ret;
	*side = *paths;
	*nside = *n;
	return 0;
}

/* one file named twice (or stdin twice) would test a run against itself */
static int check_distinct(const char *const *paths, size_t n)
{
	struct stat *st = pt_xreallocarray(NULL, n ? n : 1, sizeof(*st));
	int *have = pt_xcalloc(n ? n : 1, sizeof(*have));
	size_t i, j;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		have[i] = strcmp(paths[i], "-") && !pt_is_url(paths[i]) && !stat(paths[i], &st[i]);
		for (j = 0; j < i && !ret; j++) {
			int same = !strcmp(paths[i], paths[j]) ||
				   (have[i] && have[j] && st[i].st_dev == st[j].st_dev &&
				    st[i].st_ino == st[j].st_ino);
			if (same) {
				fprintf(stderr,
					"proftool: diff: '%s' is given twice (as '%s'): a run "
					"cannot be compared with itself\n",
					paths[i], paths[j]);
				ret = PT_EXIT_USAGE;
			}
		}
	}
	free(st);
	free(have);
	return ret;
}

/* What the totals' gate compares for one run. measure: its total in the type's unit;
 * seconds: the profile's duration (0: it says none); samples: how many samples it holds,
 * the total of its first type counted in samples (unit "count"), else the records its
 * reader read. */
struct run_measure {
	double total, seconds, samples;
};

static void run_measure(const struct pt_run *run, struct run_measure *m)
{
	const struct pt_sample_type *t = &run->p.types[run->type];
	uint32_t k;

	m->total = (double)run->agg.total[run->type];
	for (k = 0; k < t->decimals; k++)
		m->total /= 10;
	m->seconds = run->p.duration_nanos > 0 ? (double)run->p.duration_nanos / 1e9 : 0;
	m->samples = (double)run->p.nrecords;
	for (k = 0; k < run->p.ntypes; k++)
		if (!strcmp(pt_s(&run->p, run->p.types[k].unit), "count") &&
		    run->agg.total[k] > 0) {
			m->samples = (double)run->agg.total[k];
			break;
		}
}

/* --per-second: per second of each profile's duration when every run carries one, else
 * per sample for every run (the sides stay comparable), said once on stderr. Returns the
 * unit's suffix. */
static const char *normalise(struct run_measure *m, size_t n, const char *const *paths,
			     int per_second)
{
	size_t i, none = n;

	if (!per_second)
		return "";
	for (i = 0; i < n && none == n; i++)
		if (m[i].seconds <= 0)
			none = i;
	if (none < n)
		fprintf(stderr,
			"proftool: diff: --per-second: %s says not how long it took; every "
			"total is per sample instead\n",
			paths[none]);
	for (i = 0; i < n; i++) {
		double by = none < n ? m[i].samples : m[i].seconds;
		m[i].total = by > 0 ? m[i].total / by : 0;
	}
	return none < n ? "/sample" : "/s";
}

struct runs_ctx {
	const struct pt_runs *r;
	const struct pt_runs_opts *o;
};

static int emit_runs(void *ctx, FILE *out, struct pt_diag *d)
{
	struct runs_ctx *c = ctx;
	(void)d;
	return pt_report_runs(c->r, c->o, out);
}

/* the CI reports: a case per function the gate looked at; offenders fail */
struct ci_ctx {
	const struct pt_diff *names; /* the rows' names */
	size_t n;
	const uint32_t *rows;	 /* row indices of the cases */
	const char *const *fail; /* per case: the failure, or NULL */
	const char *const *detail;
	const double *base, *now, *change; /* per case, for the metrics */
	const char *suite;
};

static char *row_name(const struct pt_diff *df, uint32_t row)
{
	struct pt_buf b = PT_BUF_INIT;
	pt_diff_row_label(&b, df, &df->rows[row]);
	return pt_buf_detach(&b, NULL);
}

static int emit_junit(void *ctx, FILE *out, struct pt_diag *d)
{
	struct ci_ctx *c = ctx;
	struct pt_ci_case *cases = pt_xcalloc(c->n ? c->n : 1, sizeof(*cases));
	size_t i;

	(void)d;
	for (i = 0; i < c->n; i++) {
		cases[i].name = row_name(c->names, c->rows[i]);
		cases[i].failure = c->fail[i];
		cases[i].detail = c->detail[i];
	}
	pt_ci_junit(out, c->suite, cases, c->n);
	for (i = 0; i < c->n; i++)
		free((char *)cases[i].name);
	free(cases);
	return 0;
}

static int emit_metrics(void *ctx, FILE *out, struct pt_diag *d)
{
	struct ci_ctx *c = ctx;
	static const char *const names[3] = {"proftool_base_cum_share", "proftool_new_cum_share",
					     "proftool_cum_share_change"};
	static const char *const help[3] = {
		"the function's cum share of BASE, percent (the median over runs)",
		"the function's cum share of NEW, percent (the median over runs)",
		"NEW's cum share less BASE's, percentage points"};
	int m;
	size_t i;

	(void)d;
	for (m = 0; m < 3; m++) {
		const double *v = m == 0 ? c->base : m == 1 ? c->now : c->change;
		pt_ci_metric_family(out, names[m], help[m]);
		for (i = 0; i < c->n; i++) {
			char *name = row_name(c->names, c->rows[i]);
			pt_ci_metric(out, names[m], "function", name, v[i]);
			free(name);
		}
	}
	pt_ci_metrics_end(out);
	return 0;
}

/* --junit and --metrics, each into its file */
static int write_ci(const struct diff_args *da, struct ci_ctx *c)
{
	int ret = 0;
	if (da->junit)
		ret = pt_cli_emit(da->junit, da->junit, emit_junit, c);
	if (!ret && da->metrics)
		ret = pt_cli_emit(da->metrics, da->metrics, emit_metrics, c);
	return ret;
}

/* the cases of the two-profile gate: the functions with at least min_share of NEW */
static int ci_pair(const struct pt_diff *df, const struct diff_args *da)
{
	uint32_t n, k = 0, i, nreg, j, *idx = pt_diff_sorted(df, 1, &n);
	uint32_t *reg = da->fail_pct >= 0
				? pt_diff_regressions(df, da->fail_pct, da->min_share, &nreg)
				: NULL;
	const char **fail = pt_xcalloc(n ? n : 1, sizeof(*fail));
	const char **detail = pt_xcalloc(n ? n : 1, sizeof(*detail));
	double *v = pt_xcalloc(3 * (size_t)(n ? n : 1), sizeof(*v));
	struct pt_buf b = PT_BUF_INIT;
	int ret;

	if (!reg)
		nreg = 0;
	for (i = 0; i < n; i++) {
		const struct pt_diff_row *r = &df->rows[idx[i]];
		double bs = pt_pct(r->base_cum, df->base_total),
		       ns = pt_pct(r->new_cum, df->new_total);
		if (ns < da->min_share)
			continue;
		idx[k] = idx[i];
		v[k] = bs;
		v[n + k] = ns;
		v[2 * (size_t)n + k] = ns - bs;
		pt_buf_reset(&b);
		pt_buf_addf(&b, "cum %.2f%% -> %.2f%% (%+.2f points)", bs, ns, ns - bs);
		detail[k] = pt_xstrdup(b.buf);
		for (j = 0; j < nreg; j++)
			if (reg[j] == idx[i])
				fail[k] = pt_xstrdup(b.buf);
		k++;
	}
	{
		struct ci_ctx c = {
			df, k, idx, fail, detail, v, v + n, v + 2 * (size_t)n, "proftool diff"};
		ret = write_ci(da, &c);
	}
	for (i = 0; i < k; i++) {
		free((char *)fail[i]);
		free((char *)detail[i]);
	}
	pt_buf_release(&b);
	free(fail);
	free(detail);
	free(v);
	free(reg);
	free(idx);
	return ret;
}

/* the totals' gate of two profiles: no test is possible, the growth alone decides */
static int total_gate_pair(struct pt_run *base, struct pt_run *new, const struct diff_args *da)
{
	struct run_measure m[2];
	const char *paths[2] = {base->path, new->path};
	double b, n, growth;

	run_measure(base, &m[0]);
	run_measure(new, &m[1]);
	normalise(m, 2, paths, da->per_second);
	b = m[0].total;
	n = m[1].total;
	growth = b ? (n - b) * 100 / (b < 0 ? -b : b) : (n ? 1e300 : 0);
	fprintf(stderr,
		"proftool: diff: one run a side: no test was possible; the total grew by %+.2f%%\n",
		growth);
	if (growth > da->fail_total) {
		fprintf(stderr,
			"proftool: diff: regression: the total grew by %+.2f%% (over %g%%)\n",
			growth, da->fail_total);
		return PT_EXIT_REGRESSION;
	}
	return 0;
}

/* diff over repeated runs: each run loaded, its shares kept, released */
static int diff_runs(const struct diff_args *da, const struct pt_common *common,
		     const struct pt_report_args *ra, const char *const *bases, size_t nb,
		     const char *const *news, size_t nn)
{
	size_t w = nb + nn, i;
	const char **all = pt_xreallocarray(NULL, w, sizeof(*all));
	char *type_name = NULL, *unit = NULL;
	struct pt_runs r;
	struct pt_runs_opts o;
	struct pt_buf b = PT_BUF_INIT;
	uint32_t nreg = 0, *reg = NULL;
	struct run_measure *m = pt_xcalloc(w, sizeof(*m));
	const char *per = "";
	int ret = 0;

	for (i = 0; i < w; i++)
		all[i] = i < nb ? bases[i] : news[i - nb];
	pt_runs_init(&r, nb, nn);
	if ((ret = check_distinct(all, w)))
		goto out;
	for (i = 0; i < w && !ret; i++) {
		struct pt_run run;
		pt_run_init(&run, common, all[i]);
		run.gran = ra->gran;
		if (!(ret = pt_run_load(&run)) && !(ret = pt_run_type(&run)) &&
		    !(ret = pt_run_table(&run))) {
			const struct pt_sample_type *t = &run.p.types[run.type];
			if (!type_name) {
				type_name = pt_xstrdup(pt_s(&run.p, t->name));
				unit = pt_xstrdup(pt_s(&run.p, t->unit));
			} else if (strcmp(type_name, pt_s(&run.p, t->name)) ||
				   strcmp(unit, pt_s(&run.p, t->unit))) {
				fprintf(stderr,
					"proftool: diff: %s: sample type %s [%s] differs from "
					"%s [%s] of '%s' (--sample-index picks one)\n",
					all[i], pt_s(&run.p, t->name), pt_s(&run.p, t->unit),
					type_name, unit, all[0]);
				ret = PT_EXIT_INPUT;
			}
			if (!ret && !run.agg.total[run.type]) {
				fprintf(stderr,
					"proftool: diff: %s: the profile is empty (no %s)\n",
					all[i], type_name);
				ret = PT_EXIT_INPUT;
			}
			if (!ret) {
				run_measure(&run, &m[i]);
				pt_runs_add(&r, i, &run.p, &run.agg, run.type, m[i].total);
			}
		}
		pt_run_release(&run);
	}
	if (ret)
		goto out;
	per = normalise(m, w, all, da->per_second);
	for (i = 0; i < w; i++)
		r.total[i] = m[i].total;
	pt_runs_test(&r, da->min_share, da->fail_pct > 0 ? da->fail_pct : 0, da->alpha);

	memset(&o, 0, sizeof(o));
	o.limit = pt_report_limit(ra, ra->format == PT_FMT_TEXT ? 30 : -1);
	o.format = ra->format;
	o.gran = ra->gran;
	o.type_name = type_name;
	pt_buf_addf(&b, "%s%s", unit, per);
	o.total_unit = b.buf;
	o.min_share = da->min_share;
	o.spread = da->fail_pct > 0 ? da->fail_pct : 0;
	o.alpha = da->alpha;
	if ((ret = pt_cli_emit(ra->outpath, ra->outpath ? ra->outpath : "<stdout>", emit_runs,
			       &(struct runs_ctx){&r, &o})))
		goto out;

	if (da->fail_pct >= 0)
		reg = pt_runs_regressions(&r, da->fail_pct, da->alpha, &nreg);
	if (da->junit || da->metrics) {
		size_t n = r.ntested, k = 0;
		uint32_t *rows = pt_xcalloc(n ? n : 1, sizeof(*rows));
		const char **fail = pt_xcalloc(n ? n : 1, sizeof(*fail));
		const char **detail = pt_xcalloc(n ? n : 1, sizeof(*detail));
		double *v = pt_xcalloc(3 * (n ? n : 1), sizeof(*v));
		uint32_t j, nsorted, *sorted = pt_runs_sorted(&r, &nsorted);
		for (j = 0; j < nsorted; j++) {
			const struct pt_runs_stat *s = &r.stats[sorted[j]];
			uint32_t q;
			if (!s->tested)
				continue;
			rows[k] = sorted[j];
			v[k] = s->base_cum;
			v[n + k] = s->new_cum;
			v[2 * n + k] = s->change;
			pt_buf_reset(&b);
			pt_buf_addf(&b, "median cum %.2f%% -> %.2f%% (%+.2f points), p=%.4g q=%.4g",
				    s->base_cum, s->new_cum, s->change, s->p, s->q);
			detail[k] = pt_xstrdup(b.buf);
			for (q = 0; q < nreg; q++)
				if (reg[q] == sorted[j])
					fail[k] = pt_xstrdup(b.buf);
			k++;
		}
		{
			struct ci_ctx c = {&r.table, k,	    rows,      fail,	       detail,
					   v,	     v + n, v + 2 * n, "proftool diff"};
			ret = write_ci(da, &c);
		}
		for (j = 0; j < k; j++) {
			free((char *)fail[j]);
			free((char *)detail[j]);
		}
		free(rows);
		free(fail);
		free(detail);
		free(v);
		free(sorted);
		if (ret)
			goto out;
	}
	for (i = 0; i < nreg; i++) {
		const struct pt_runs_stat *s = &r.stats[reg[i]];
		pt_buf_reset(&b);
		pt_diff_row_label(&b, &r.table, &r.table.rows[reg[i]]);
		fprintf(stderr,
			"proftool: diff: regression: %s: median cum %.2f%% -> %.2f%% (%+.2f "
			"points, q=%.4g)\n",
			b.buf, s->base_cum, s->new_cum, s->change, s->q);
	}
	if (nreg) {
		fprintf(stderr,
			"proftool: diff: %u function%s grew by more than %g points of cum share, "
			"significant at %g\n",
			nreg, nreg == 1 ? "" : "s", da->fail_pct, da->alpha);
		ret = PT_EXIT_REGRESSION;
	}
	if (da->fail_total >= 0 && r.total_growth > da->fail_total && r.total_p < da->alpha) {
		fprintf(stderr,
			"proftool: diff: regression: the total grew by %+.2f%% (over %g%%, "
			"p=%.4g)\n",
			r.total_growth, da->fail_total, r.total_p);
		ret = PT_EXIT_REGRESSION;
	}
out:
	pt_buf_release(&b);
	pt_runs_release(&r);
	free(reg);
	free(m);
	free(all);
	free(type_name);
	free(unit);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct diff_args da = {0, NULL, -1, 0, NULL, NULL, 0.05, -1, 0, NULL, NULL};
	struct pt_diff_opts o;
	struct pt_run base, new;
	struct pt_diff df;
	const struct pt_format *to_fmt = NULL;
	const char *outname;
	const char **vs = NULL, **base_list = NULL, **new_list = NULL;
	size_t nvs = 0, nbase_list = 0, nnew_list = 0, i;
	int ret = PT_EXIT_OK, have = 0, runs = 0;

	memset(&o, 0, sizeof(o));
	pt_common_init(&common);
	pt_report_args_init(&ra, 1, PT_GRAN_FUNCTIONS);
	for (i = 1; i < (size_t)argc; i++)
		runs |= !strcmp(argv[i], "--vs");
	if (runs)
		argc = split_vs(argc, argv, &vs, &nvs);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &da)) >= 0)
		goto out_lists;
	ret = PT_EXIT_OK;
	if (runs || da.base_from || da.new_from) {
		const char *const *bases = (const char *const *)(argv + optind);
		size_t nb = (size_t)(argc - optind);
		const char *const *news = vs;
		size_t nn = nvs;
		if (da.to) {
			ret = pt_usage_error(&spec,
					     "--to writes the stacks of two profiles, not of "
					     "repeated runs");
			goto out_lists;
		}
		if ((ret = side_from(da.base_from,
				     "BASE's runs come from --base-from or the "
				     "operands, not both",
				     &base_list, &nbase_list, &bases, &nb)) ||
		    (ret = side_from(da.new_from,
				     "NEW's runs come from --new-from or --vs, not both", &new_list,
				     &nnew_list, &news, &nn)))
			goto out_lists;
		if (!nb || !nn) {
			ret = pt_usage_error(&spec,
					     "repeated runs need BASE's runs and NEW's (BASE... "
					     "--vs NEW...)");
			goto out_lists;
		}
		if (nb >= 2 && nn >= 2) {
			ret = diff_runs(&da, &common, &ra, bases, nb, news, nn);
			goto out_lists;
		}
		if (nb > 1 || nn > 1) {
			ret = pt_usage_error(&spec,
					     "a rank test needs two runs a side or more (%zu "
					     "and %zu given)",
					     nb, nn);
			goto out_lists;
		}
		fprintf(stderr, "proftool: diff: one run a side: no test was possible, the two "
				"profiles are compared as before\n");
		o.base_path = bases[0];
		o.new_path = news[0];
	} else {
		if (argc - optind != 2) {
			ret = pt_usage_error(&spec, "two profiles needed: BASE and NEW");
			goto out_lists;
		}
		o.base_path = argv[optind];
		o.new_path = argv[optind + 1];
	}
	o.by_cum = ra.by_cum;
	o.format = ra.format;
	o.gran = ra.gran;
	if (!strcmp(o.base_path, "-") && !strcmp(o.new_path, "-")) {
		ret = pt_usage_error(&spec, "only one of BASE and NEW can be stdin");
		goto out_lists;
	}
	if (da.to) {
		to_fmt = pt_format_find(da.to);
		if (!to_fmt || !to_fmt->write) {
			fprintf(stderr,
				"proftool: diff: cannot write format '%s' in this build (see "
				"'proftool formats')\n",
				da.to);
			ret = PT_EXIT_INPUT;
			goto out_lists;
		}
	}
	o.limit = pt_report_limit(&ra, o.format == PT_FMT_TEXT ? 30 : -1);

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
		if ((ret = need_stacks(&base, &new, da.to)) ||
		    (ret = pt_cli_binary_terminal(ra.outpath, to_fmt)))
			goto out;
		ret = pt_cli_emit(ra.outpath, outname, emit_stacks,
				  &(struct stacks_ctx){to_fmt, &base, &new, &df});
	} else {
		ret = pt_cli_emit(ra.outpath, outname, emit_table,
				  &(struct table_ctx){&df, &new, &o});
	}
	if (!ret && (da.junit || da.metrics))
		ret = ci_pair(&df, &da);
	if (!ret && da.fail_pct >= 0)
		ret = gate(&df, &da);
	if (da.fail_total >= 0 && (!ret || ret == PT_EXIT_REGRESSION)) {
		int t = total_gate_pair(&base, &new, &da);
		if (t)
			ret = t;
	}
out:
	if (have)
		pt_diff_release(&df);
	pt_run_release(&base);
	pt_run_release(&new);
out_lists:
	free_list(base_list, nbase_list);
	free_list(new_list, nnew_list);
	free(vs);
	return ret;
}
