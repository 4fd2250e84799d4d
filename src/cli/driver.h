/* driver.h: the one pipeline every command runs: load the input (through the command's
 * fold when it asked for one and no filter needs the stacks), apply the filters, pick
 * the sample type, compute the per-function table at the command's granularity; then
 * the command's own emit, or a writer, writes into -o or stdout (pt_cli_emit). Commands
 * that write whole profiles stop before the table; merge and export stream their
 * inputs one at a time; heap loads a heap graph. Every failure is printed here, once,
 * and turned into the exit status. */
#ifndef PT_DRIVER_H
#define PT_DRIVER_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/aggregate.h"
#include "analysis/filter.h"
#include "analysis/fold.h"
#include "analysis/graph.h"
#include "analysis/stacks.h"
#include "core/heapgraph.h"
#include "cli/cli.h"
#include "core/profile.h"

struct pt_run {
	/* what the command asks for; pt_run_init sets the defaults shown */
	const struct pt_common *common;
	const char *path;	  /* the (first) input, "-" for stdin */
	const char *const *paths; /* every input, merged into one profile; &path, 1 */
	size_t npaths;
	enum pt_granularity gran; /* of the table; PT_GRAN_FUNCTIONS */
	unsigned views;		  /* table views besides flat/cum (PT_AGG_*); 0 */
	int fold;		  /* fold the stacks while reading if nothing needs them; 0 */
	int fold_marks;		  /* the fold keeps pprof's inline marks; 0 */
	/* keep the distinct stacks while reading instead of the tree, where a fold could
	 * go (analysis/stacks.h); 0 */
	int keep_stacks;
	int tree_only; /* never fold: the table from the tree all the same (cmd_top_tree); 0 */
	int regroup;   /* merge frames to gran after the filters (convert); 0 */
	int all_types; /* --sample-index all is allowed (writers): write_type; 0 */
	int say_empty; /* an input without samples says so on stderr (the reports); 0 */

	/* what the steps fill */
	struct pt_profile p;
	struct pt_filter_log log; /* what the filters removed */
	uint32_t type;		  /* after pt_run_type */
	int write_type;		  /* the same, or PT_TYPE_ALL for "all" under all_types */
	char *first;		  /* pt_run_merge: the first input's name (r->path) */
	struct pt_agg agg;	  /* after pt_run_table */
	struct pt_fold folder;	  /* the fold, when one read the profile */
	int folded;		  /* the fold took the stacks: p is aggregate-only */
	int have_agg, have_fold;
	struct pt_stacks stacks;  /* the distinct stacks, when they read the profile */
	int stacked, have_stacks; /* they took the stacks: p is aggregate-only */
	/* after pt_run_table with PT_AGG_GRAPH in views: the table's call graph for the
	 * type, made in the walk that makes the table */
	struct pt_graph graph;
	int have_graph;
};

void pt_run_init(struct pt_run *r, const struct pt_common *c, const char *path);
/* several inputs instead (n >= 1; the array must outlive r) */
void pt_run_inputs(struct pt_run *r, const char *const *paths, size_t n);
/* After the option parse: the command's FILE operands (argv from optind on), any
 * number, merged; without any, r keeps the path pt_run_init gave it ("-": stdin). */
void pt_run_files(struct pt_run *r, int argc, char **argv);
void pt_run_release(struct pt_run *r);

/* The steps, each returning 0 or the exit status of the failure it printed:
 * read r->paths into r->p (merged, as `go tool pprof a b` does) and apply the filters; */
int pt_run_load(struct pt_run *r);
/* pt_run_load for one input that may be a heap graph instead (info; convert, whose
 * common.load.read.heap_out takes a V8 snapshot without stacks too): when only a heap
 * reader claims it, it is read into g (initialized and released by the caller) and
 * *is_heap set; no filter applies to it. */
int pt_run_load_either(struct pt_run *r, struct pt_heapgraph *g, int *is_heap);
/* pick the sample type the common options name (the profile's default without one); */
int pt_run_type(struct pt_run *r);
/* compute the table r->agg at r->gran with r->views. */
int pt_run_table(struct pt_run *r);
/* All three in order. */
int pt_run_prepare(struct pt_run *r);

/* Then the command's own emit: it reads the run (profile, type, table, filter log) and
 * its own options, and writes into out. pt_run_emit runs it into outpath (NULL or "-":
 * stdout) through pt_cli_emit, with the input's name for its errors. */
typedef int (*pt_run_emit_fn)(const struct pt_run *r, const void *opts, FILE *out,
			      struct pt_diag *d);
int pt_run_emit(const struct pt_run *r, const char *outpath, pt_run_emit_fn emit, const void *opts);

/* The whole of a command that prints one report of its FILEs and has no options but
 * the input ones and -o (tags, traces): parse with spec, load (say_empty: an input
 * without samples says so), take the sample type, let note (NULL: none) look at the
 * profile, then emit. Returns the exit status. */
int pt_run_report(const struct pt_cmd_spec *spec, int argc, char **argv, int say_empty,
		  void (*note)(const struct pt_run *r), pt_run_emit_fn emit);

/* the fold that read r->p, or NULL (for pt_top_opts.fold) */
const struct pt_fold *pt_run_fold(const struct pt_run *r);
/* the distinct stacks that read r->p, or NULL (for pt_top_opts.stacks) */
const struct pt_stacks *pt_run_stacks(const struct pt_run *r);

/* A writer instead of an emit: format f writes r->p with options o into outpath; its
 * errors name `name` (NULL: the input). */
int pt_run_write(const struct pt_run *r, const char *outpath, const char *name,
		 const struct pt_format *f, const struct pt_write_opts *o);

/* A stream of input paths: next() gives 1 and the next path (valid until its next
 * call), 0 at the end, -1 with d filled. */
typedef int (*pt_run_next_fn)(void *ctx, const char **path, struct pt_diag *d);

/* The inputs of a command that takes FILE operands and --files-from LIST (merge,
 * export): the operands in order, then each list's lines (blank lines name nothing).
 * A list is read a line at a time, so a list of any length costs one line of memory. */
struct pt_inputs {
	char **paths;
	int npaths, next;
	const char *const *lists;
	size_t nlists, li;
	FILE *fp;
	uint64_t lineno;
	char *line;
	size_t cap;
};
/* the operands argv[optind..argc-1] and the lists; 0, or a usage error printed (standard
 * input both a list and an input, or two lists) and its exit status */
int pt_inputs_init(struct pt_inputs *in, const struct pt_cmd_spec *spec, int argc, char **argv,
		   const char *const *lists, size_t nlists);
/* the pt_run_next_fn of a struct pt_inputs */
int pt_inputs_next(void *in, const char **path, struct pt_diag *d);
void pt_inputs_release(struct pt_inputs *in);

/* The inputs next() gives, one at a time (export): each read and filtered alone into a
 * profile of its own, handed to each() with a diag named for it (each returns 0, or
 * -1 with d filled, which is printed and ends the stream), and released. Memory is
 * one input and what each() keeps. Returns 0, PT_RUN_NO_INPUT (nothing printed) when
 * next() gave nothing, or the exit status. */
typedef int (*pt_run_each_fn)(void *ctx, const char *path, struct pt_profile *p, struct pt_diag *d);
int pt_run_each(struct pt_run *r, pt_run_next_fn next, void *next_ctx, pt_run_each_fn each,
		void *ctx);

/* A stream of inputs merged into r->p one at a time (merge): label(), if not NULL,
 * may change each input as read and filtered, before it is merged (0, or -1 with d
 * filled: printed, and the stream ends). Without label() and filters, a reader that
 * can reads each input straight into r->p (analysis/merge.h pt_merge_append). The
 * first input becomes r->p and r->path; a timeline the load options did not ask for
 * is dropped. Returns 0, PT_RUN_NO_INPUT (nothing printed) when next() gave nothing,
 * or the exit status of the failure printed. */
#define PT_RUN_NO_INPUT (-1)
typedef int (*pt_run_label_fn)(void *ctx, const char *path, struct pt_profile *p,
			       struct pt_diag *d);
int pt_run_merge(struct pt_run *r, pt_run_next_fn next, pt_run_label_fn label, void *ctx);

/* The heap graph of path (formats/load.h: pt_load_heap) into g, which is initialized
 * here and the caller's to release, failure or not; unless snapshot_sizes, with
 * DevTools' shallow sizes (analysis/heapowner.h); quiet: no progress. Returns 0 or the
 * exit status. */
int pt_run_heap(const char *path, uint64_t max_size, int snapshot_sizes, int quiet,
		struct pt_heapgraph *g);

#endif
