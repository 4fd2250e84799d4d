/* driver.c: the steps every command runs: load -> filters -> sample type -> table or
 * writer; one input, several merged, a stream of them, or a heap graph. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/driver.h"
#include "analysis/heapowner.h"
#include "analysis/merge.h"
#include "formats/load.h"
#include "util/xalloc.h"

void pt_run_init(struct pt_run *r, const struct pt_common *c, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->common = c;
	r->path = path;
	r->paths = &r->path;
	r->npaths = 1;
	r->gran = PT_GRAN_FUNCTIONS;
	pt_profile_init(&r->p);
	pt_filter_log_init(&r->log);
}

void pt_run_release(struct pt_run *r)
{
	if (r->have_agg)
		pt_agg_release(&r->agg);
	if (r->have_graph)
		pt_graph_release(&r->graph);
	if (r->have_fold)
		pt_fold_release(&r->folder);
	pt_filter_log_release(&r->log);
	pt_profile_release(&r->p);
	free(r->first);
}

void pt_run_inputs(struct pt_run *r, const char *const *paths, size_t n)
{
	r->paths = paths;
	r->npaths = n;
	r->path = paths[0];
}

void pt_run_files(struct pt_run *r, int argc, char **argv)
{
	if (optind < argc)
		pt_run_inputs(r, (const char *const *)(argv + optind), (size_t)(argc - optind));
}

/* read path into p through fold (NULL: the tree) */
static int read_one(const struct pt_common *c, const char *path, struct pt_profile *p,
		    struct pt_fold *fold, int *folded)
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
	return 0;
}

/* read the other inputs one at a time and add each into p */
static int read_rest(const struct pt_common *c, const char *const *paths, size_t n,
		     struct pt_profile *p)
{
	struct pt_merge m;
	struct pt_profile src;
	struct pt_diag d;
	size_t i;
	int ret = 0;

	pt_merge_init(&m, p, paths[0]);
	for (i = 1; i < n && !ret; i++) {
		pt_profile_init(&src);
		if (!(ret = read_one(c, paths[i], &src, NULL, NULL)) &&
		    pt_merge_add(&m, &src, paths[i], &d) < 0)
			ret = pt_cli_fail(&d);
		pt_profile_release(&src);
	}
	pt_merge_finish(&m);
	pt_merge_release(&m);
	return ret;
}

/* frames merged to the granularity first (convert --granularity) */
static int regroup(const char *path, struct pt_profile *p, enum pt_granularity gran)
{
	struct pt_diag d;

	pt_diag_init(&d, path);
	if (pt_filter_granularity(p, gran, &d) < 0)
		return pt_cli_fail(&d);
	return 0;
}

static int filter(const struct pt_common *c, const char *path, struct pt_profile *p,
		  struct pt_filter_log *log)
{
	struct pt_diag d;

	pt_diag_init(&d, path);
	if (pt_filter_apply(p, &c->filter, log, &d) < 0)
		return pt_cli_fail(&d);
	return 0;
}

int pt_run_load(struct pt_run *r)
{
	const struct pt_common *c = r->common;
	int ret;

	/* The table needs no tree: the stacks of one input fold into it as they are read,
	 * unless a filter must see them first. */
	if (r->fold && !r->tree_only && r->npaths == 1 && !pt_filter_active(&c->filter)) {
		pt_fold_init(&r->folder, &r->p, r->gran, r->fold_marks);
		r->have_fold = 1;
	}
	if ((ret = read_one(c, r->path, &r->p, r->have_fold ? &r->folder : NULL, &r->folded)) ||
	    (r->npaths > 1 && (ret = read_rest(c, r->paths, r->npaths, &r->p))))
		return ret;
	if ((ret = filter(c, r->path, &r->p, &r->log)) || !r->regroup)
		return ret;
	return regroup(r->path, &r->p, r->gran);
}

/* one input alone, filtered: the streams' step */
static int load_filtered(const struct pt_common *c, const char *path, struct pt_profile *p)
{
	int ret = read_one(c, path, p, NULL, NULL);
	return ret ? ret : filter(c, path, p, NULL);
}

int pt_run_each(struct pt_run *r, pt_run_each_fn each, void *ctx)
{
	struct pt_diag d;
	size_t i;
	int ret = 0;

	for (i = 0; i < r->npaths && !ret; i++) {
		struct pt_profile p;
		pt_profile_init(&p);
		if (!(ret = load_filtered(r->common, r->paths[i], &p))) {
			pt_diag_init(&d, r->paths[i]);
			if (each(ctx, r->paths[i], &p, &d) < 0)
				ret = pt_cli_fail(&d);
		}
		pt_profile_release(&p);
	}
	return ret;
}

/* one input of a merge stream: read, filtered, labelled */
static int stream_one(const struct pt_common *c, const char *path, struct pt_profile *p,
		      pt_run_label_fn label, void *ctx)
{
	int ret = load_filtered(c, path, p);
	if (!ret && label) {
		struct pt_diag d;
		pt_diag_init(&d, NULL);
		if (label(ctx, path, p, &d) < 0)
			ret = pt_cli_fail(&d);
	}
	return ret;
}

int pt_run_merge(struct pt_run *r, pt_run_next_fn next, pt_run_label_fn label, void *ctx)
{
	const struct pt_common *c = r->common;
	struct pt_merge m;
	struct pt_profile src;
	struct pt_diag d;
	const char *path;
	int n, ret;

	if ((n = next(ctx, &path, &d)) <= 0)
		return n ? pt_cli_fail(&d) : PT_RUN_NO_INPUT;
	/* the stream may reuse its buffer: the first input's name is kept */
	r->first = pt_xstrdup(path);
	r->path = r->first;
	if ((ret = stream_one(c, r->path, &r->p, label, ctx)))
		return ret;
	/* a timeline nobody asked for (a reader keeps its own) only grows the merge */
	if (!c->load.read.keep_timeline)
		pt_profile_drop_timeline(&r->p);
	pt_merge_init(&m, &r->p, r->path);
	while (!ret && (n = next(ctx, &path, &d)) != 0) {
		if (n < 0) {
			ret = pt_cli_fail(&d);
			break;
		}
		pt_profile_init(&src);
		if (!(ret = stream_one(c, path, &src, label, ctx)) &&
		    pt_merge_add(&m, &src, path, &d) < 0)
			ret = pt_cli_fail(&d);
		pt_profile_release(&src);
	}
	pt_merge_finish(&m);
	pt_merge_release(&m);
	return ret;
}

int pt_run_heap(const char *path, uint64_t max_size, int raw_sizes, struct pt_heapgraph *g)
{
	struct pt_load_opts o;
	struct pt_diag d;

	memset(&o, 0, sizeof(o));
	o.max_size = max_size;
	pt_diag_init(&d, path);
	pt_heapgraph_init(g);
	if (pt_load_heap(path, &o, g, &d) < 0)
		return pt_cli_fail(&d);
	pt_diag_print_warnings(&d, stderr);
	if (!raw_sizes) /* DevTools' shallow sizes, before anything reads them */
		pt_heap_move_owned_sizes(g);
	return 0;
}

int pt_run_type(struct pt_run *r)
{
	struct pt_diag d;
	int t;

	pt_diag_init(&d, r->path);
	t = pt_select_type(&r->p, r->common->sample_index, r->all_types, &d);
	if (t == -1)
		return pt_cli_fail(&d);
	r->write_type = t;
	r->type = t >= 0 ? (uint32_t)t : 0;
	return 0;
}

int pt_run_table(struct pt_run *r)
{
	struct pt_diag d;

	pt_diag_init(&d, r->path);
	if (r->views & PT_AGG_GRAPH) {
		r->have_graph = 1;
		if (pt_aggregate_graph(&r->p, r->gran, r->views, r->type, &r->agg, &r->graph, &d) <
		    0)
			return pt_cli_fail(&d);
	} else if (pt_aggregate_views(&r->p, r->gran, r->views, &r->agg, &d) < 0) {
		return pt_cli_fail(&d);
	}
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

struct run_emit {
	const struct pt_run *r;
	pt_run_emit_fn emit;
	const void *opts;
};

static int run_emit(void *ctx, FILE *out, struct pt_diag *d)
{
	const struct run_emit *c = ctx;
	return c->emit(c->r, c->opts, out, d);
}

int pt_run_emit(const struct pt_run *r, const char *outpath, pt_run_emit_fn emit, const void *opts)
{
	struct run_emit c = {r, emit, opts};
	return pt_cli_emit(outpath, r->path, run_emit, &c);
}

int pt_run_write(const struct pt_run *r, const char *outpath, const char *name,
		 const struct pt_format *f, const struct pt_write_opts *o)
{
	return pt_cli_write(outpath, name ? name : r->path, f, &r->p, o);
}
