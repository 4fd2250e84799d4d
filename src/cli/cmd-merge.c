/* cmd-merge.c: `proftool merge -o OUT IN...`: any number of profiles of the same sample
 * types into one, read one at a time, labelled on the way (--label, --label-from-path),
 * written in a canonical order so merges of merges give the same bytes. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/pattern.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "analysis/merge.h"
#include "analysis/filter.h"
#include "formats/format.h"
#include "util/xalloc.h"

enum { OPT_TO = PT_OPT_CMD_BASE, OPT_FILES_FROM, OPT_LABEL, OPT_LABEL_FROM_PATH };

static int merge_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg);

static const struct pt_opt merge_options[] = {
	PT_OPT_OUTPUT_ROW("write to FILE (atomically); without it, standard output"),
	{"to", 0, required_argument, OPT_TO, "FORMAT",
	 "output format (default: from the suffix of -o, else pprof)"},
	{"files-from", 0, required_argument, OPT_FILES_FROM, "LIST",
	 "also merge the files LIST names, one path a line ('-': standard input)"},
	{"label", 0, required_argument, OPT_LABEL, "KEY=VALUE",
	 "put the label KEY=VALUE on every sample of every input"},
	{"label-from-path", 0, required_argument, OPT_LABEL_FROM_PATH, "KEY=RE",
	 "label each input's samples KEY=what RE's first group (else all of RE) matched in its "
	 "path (RE as the filters take it)"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {merge_options, pt_input_options, pt_help_option,
					      NULL};
static const struct pt_cmd_spec spec = {
	"merge",
	"merge [-o OUT] [--to FORMAT] [--files-from LIST] [--label KEY=VALUE]\n"
	"             [--label-from-path KEY=RE] [OPTIONS] [IN...]",
	"Merge profiles with the same sample types (names and units) into one: values of\n"
	"equal stacks and labels add up; timelines are kept when every input has one and\n"
	"the output format writes them. Inputs are read one at a time, so memory follows\n"
	"the merged profile, not the number of inputs. --label and --label-from-path apply\n"
	"to every input (an existing label of the same key is replaced). The output is\n"
	"in a canonical order: a merge of merges writes the same bytes as one flat merge.\n"
	"With an input without stacks the result holds per-function aggregates only.",
	tables, merge_option};

struct path_label {
	const char *key;
	struct pt_pattern *re;
};

struct merge_args {
	const char *to;
	const char **lists;
	size_t nlists;
	struct pt_merge_label *labels;
	size_t nlabels;
	struct path_label *from_path;
	size_t nfrom;
};

static char *xstrndup(const char *s, size_t n)
{
	char *c = pt_xmalloc(n + 1);
	memcpy(c, s, n);
	c[n] = 0;
	return c;
}

/* "KEY=REST": *key is a copy of KEY (owned by the caller), REST returned; NULL if no KEY */
static const char *split_key(const char *arg, char **key)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return NULL;
	*key = xstrndup(arg, (size_t)(eq - arg));
	return eq + 1;
}

static int merge_option(void *ctx, const struct pt_cmd_spec *sp, int id, const char *arg)
{
	struct merge_args *a = ctx;
	const char *rest;
	char *key;
	char msg[256];

	switch (id) {
	case OPT_TO:
		a->to = arg;
		return 1;
	case OPT_FILES_FROM:
		a->lists[a->nlists++] = arg;
		return 1;
	case OPT_LABEL:
		if (!(rest = split_key(arg, &key))) {
			pt_usage_error(sp, "--label needs KEY=VALUE, not '%s'", arg);
			return -1;
		}
		a->labels[a->nlabels].key = key;
		a->labels[a->nlabels++].value = rest;
		return 1;
	case OPT_LABEL_FROM_PATH:
		if (!(rest = split_key(arg, &key))) {
			pt_usage_error(sp, "--label-from-path needs KEY=RE, not '%s'", arg);
			return -1;
		}
		if (!(a->from_path[a->nfrom].re = pt_pattern_compile(rest, msg, sizeof(msg)))) {
			free(key);
			pt_usage_error(sp, "bad --label-from-path regex '%s': %s", rest, msg);
			return -1;
		}
		a->from_path[a->nfrom++].key = key;
		return 1;
	}
	return 0;
}

static void merge_args_release(struct merge_args *a)
{
	size_t i;
	for (i = 0; i < a->nlabels; i++)
		free((char *)a->labels[i].key);
	for (i = 0; i < a->nfrom; i++) {
		free((char *)a->from_path[i].key);
		pt_pattern_free(a->from_path[i].re);
	}
	free(a->labels);
	free(a->from_path);
	free(a->lists);
}

/* the driver's stream: the inputs, and the labels each gets */
struct stream {
	struct pt_inputs in; /* first: the stream is the inputs' pt_run_next_fn context */
	const struct merge_args *a;
};

/* label one input (read and filtered) as the options say; -1 with d filled when a
 * --label-from-path pattern is too costly to match on the path */
static int stream_label(void *ctx, const char *path, struct pt_profile *p, struct pt_diag *d)
{
	const struct merge_args *a = ((struct stream *)ctx)->a;
	struct pt_merge_label *v;
	size_t i, n = 0, so, eo;
	int ret = 0;

	if (!a->nlabels && !a->nfrom)
		return 0;
	v = pt_xreallocarray(NULL, a->nlabels + a->nfrom, sizeof(*v));
	for (i = 0; i < a->nlabels; i++)
		v[n++] = a->labels[i];
	/* the path's labels after the fixed ones: they win for the same key */
	for (i = 0; i < a->nfrom; i++) {
		struct pt_pattern *re = a->from_path[i].re;
		unsigned g = pt_pattern_groups(re) > 0;
		int hit = pt_pattern_match_group(re, path, strlen(path), g, &so, &eo, d);
		if (hit < 0) {
			ret = -1;
			break;
		}
		if (!hit || so == (size_t)-1 || eo == so)
			continue; /* no match: no label of this key */
		v[n].key = a->from_path[i].key;
		v[n++].value = xstrndup(path + so, eo - so);
	}
	if (!ret)
		pt_profile_set_labels(p, v, n);
	for (i = a->nlabels; i < n; i++)
		free((char *)v[i].value);
	free(v);
	return ret;
}

/* Producer metadata (stackprof's mode and interval, ...) is written by no writer but
 * pprof's doc_url; kept, its strings would still land in a pprof string table, so a
 * merge of merged pprof files (which lost them) would differ from the flat merge. */
static void keep_written_meta(struct pt_profile *p)
{
	size_t i, k = 0;
	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(pt_s(p, p->meta[i].key), "doc_url"))
			p->meta[k++] = p->meta[i];
	p->nmeta = k;
}

static const struct pt_format *output_format(const char *to, const char *outpath, int *usage)
{
	const struct pt_format *f;

	*usage = 0;
	if (to) {
		f = pt_format_find(to);
		if (!f || !f->write) {
			*usage = pt_usage_error(&spec, "cannot write format '%s'", to);
			return NULL;
		}
		return f;
	}
	if (outpath && strcmp(outpath, "-") && (f = pt_format_for_path(outpath)))
		return f;
	f = pt_format_find("pprof");
	if (!f || !f->write)
		*usage = pt_usage_error(&spec, "this build has no pprof writer, the default "
					       "output: name a format with --to");
	return f && f->write ? f : NULL;
}

int cmd_merge(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_write_opts wo;
	struct merge_args a;
	struct stream st;
	struct pt_run r;
	const struct pt_format *f;
	int ret = PT_EXIT_OK;

	memset(&wo, 0, sizeof(wo));
	memset(&a, 0, sizeof(a));
	memset(&st, 0, sizeof(st));
	/* every option may repeat: argc bounds how often */
	a.lists = pt_xreallocarray(NULL, (size_t)argc, sizeof(*a.lists));
	a.labels = pt_xreallocarray(NULL, (size_t)argc, sizeof(*a.labels));
	a.from_path = pt_xreallocarray(NULL, (size_t)argc, sizeof(*a.from_path));
	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &a)) >= 0)
		goto out_args;
	ret = PT_EXIT_OK;
	if (optind >= argc && !a.nlists) {
		ret = pt_usage_error(&spec, "no input profiles");
		goto out_args;
	}
	if ((ret = pt_inputs_init(&st.in, &spec, argc, argv, a.lists, a.nlists)))
		goto out_args;
	if (!(f = output_format(a.to, ra.outpath, &ret)))
		goto out_args;

	/* the timeline grows with the inputs: kept only for a writer that uses it */
	common.load.read.keep_timeline = f->wants_timeline;
	st.a = &a;
	pt_run_init(&r, &common, "-");
	/* one input at a time: memory is the merged profile and the one being added */
	ret = pt_run_merge(&r, pt_inputs_next, a.nlabels || a.nfrom ? stream_label : NULL, &st);
	if (ret == PT_RUN_NO_INPUT)
		ret = pt_usage_error(&spec, "no input profiles");
	if (ret)
		goto out;
	keep_written_meta(&r.p);
	pt_profile_canonical(&r.p);

	/* every type is merged; --sample-index picks what a one-type output holds */
	wo.type = PT_TYPE_ALL;
	r.all_types = 1;
	if ((common.sample_index || r.p.ntypes == 1) && (ret = pt_run_type(&r)))
		goto out;
	if (common.sample_index || r.p.ntypes == 1)
		wo.type = r.write_type;
	/* a writer's errors are about the merged profile: name the output */
	ret = pt_run_write(&r, ra.outpath, ra.outpath ? ra.outpath : "<stdout>", f, &wo);
out:
	pt_run_release(&r);
	pt_inputs_release(&st.in);
out_args:
	merge_args_release(&a);
	return ret;
}
