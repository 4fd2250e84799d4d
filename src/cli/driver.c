/* driver.c: load -> filters -> sample type -> table, for every report command. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/driver.h"
#include "cli/load.h"

void pt_run_init(struct pt_run *r, const struct pt_common *c, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->common = c;
	r->path = path;
	r->gran = PT_GRAN_FUNCTIONS;
	pt_profile_init(&r->p);
	pt_filter_log_init(&r->log);
}

void pt_run_release(struct pt_run *r)
{
	if (r->have_agg)
		pt_agg_release(&r->agg);
	if (r->have_fold)
		pt_fold_release(&r->folder);
	pt_filter_log_release(&r->log);
	pt_profile_release(&r->p);
}

/* read path into p through fold (NULL: the tree), then the filters */
static int load(const struct pt_common *c, const char *path, struct pt_profile *p,
		struct pt_fold *fold, int *folded, struct pt_filter_log *log)
{
	struct pt_load_opts lo = c->load;
	struct pt_diag d;

	if (fold)
		lo.read.sink = &fold->sink;
	pt_diag_init(&d, path);
	if (pt_filter_needs_timeline(&c->filter))
		lo.read.keep_timeline = 1;
	if (pt_load(path, &lo, p, &d) < 0)
		return pt_cli_fail(&d);
	if (fold)
		*folded = pt_fold_finish(fold, p);
	pt_diag_print_warnings(&d, stderr);
	pt_diag_init(&d, path);
	if (pt_filter_apply(p, &c->filter, log, &d) < 0)
		return pt_cli_fail(&d);
	return 0;
}

int pt_run_load(struct pt_run *r)
{
	const struct pt_common *c = r->common;

	/* The table needs no tree: the stacks fold into it as they are read, unless a
	 * filter must see them first. PROFTOOL_TEST_TREE (tests only) takes the tree's
	 * way, to compare the two. */
	if (r->fold && !pt_filter_active(&c->filter) && !getenv("PROFTOOL_TEST_TREE")) {
		pt_fold_init(&r->folder, &r->p, r->gran, r->fold_marks);
		r->have_fold = 1;
	}
	return load(c, r->path, &r->p, r->have_fold ? &r->folder : NULL, &r->folded, &r->log);
}

int pt_cli_load(const struct pt_common *c, const char *path, struct pt_profile *p)
{
	return load(c, path, p, NULL, NULL, NULL);
}

int pt_run_type(struct pt_run *r)
{
	struct pt_diag d;
	int t;

	pt_diag_init(&d, r->path);
	t = pt_select_type(&r->p, r->common->sample_index, 0, &d);
	if (t < 0)
		return pt_cli_fail(&d);
	r->type = (uint32_t)t;
	return 0;
}

int pt_run_table(struct pt_run *r)
{
	struct pt_diag d;

	pt_diag_init(&d, r->path);
	if (pt_aggregate_views(&r->p, r->gran, r->views, &r->agg, &d) < 0)
		return pt_cli_fail(&d);
	r->have_agg = 1;
	return 0;
}

int pt_run_prepare(struct pt_run *r)
{
	int ret;

	if ((ret = pt_run_load(r)) || (ret = pt_run_type(r)) || (ret = pt_run_table(r)))
		return ret;
	return 0;
}

const struct pt_fold *pt_run_fold(const struct pt_run *r)
{
	return r->folded ? &r->folder : NULL;
}
