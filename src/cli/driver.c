/* driver.c: the steps every command runs: load -> filters -> sample type -> table or
 * writer; one input, several merged, a stream of them, or a heap graph. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/driver.h"
#include "analysis/emptied.h"
#include "analysis/heapowner.h"
#include "analysis/merge.h"
#include "analysis/symbolize.h"
#include "formats/format.h"
#include "formats/load.h"
#include "util/buf.h"
#include "util/output.h"
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
	if (r->have_stacks)
		pt_stacks_release(&r->stacks);
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
/* ---- URL inputs: what is said while fetching, and where the bytes are kept ---- */

static void fetch_start(void *ctx, const char *url, long seconds)
{
	(void)ctx;
	/* for a person waiting at a terminal; a pipe or a log gets only errors */
	if (!isatty(STDERR_FILENO))
		return;
	if (seconds)
		fprintf(stderr, "Fetching profile over HTTP from %s (%ld s)\n", url, seconds);
	else
		fprintf(stderr, "Fetching profile over HTTP from %s\n", url);
}

/* the name of a fetched profile, without its number: proftool.FORMAT., or where the
 * format's row asks for it (pprof's) FORMAT.[BINARY.]TYPE1.TYPE2., as pprof names it */
static void save_prefix(struct pt_buf *b, const char *format, const struct pt_format *f,
			const struct pt_profile *p)
{
	uint32_t t;

	if (!p || !f || !f->save_types) {
		pt_buf_addf(b, "proftool.%s.", format ? format : "heap");
		return;
	}
	pt_buf_addf(b, "%s.", f->name);
	if (p->nmappings > 1 && p->mappings[1].file) {
		const char *m = pt_s(p, p->mappings[1].file), *slash = strrchr(m, '/');
		if (*(slash ? slash + 1 : m))
			pt_buf_addf(b, "%s.", slash ? slash + 1 : m);
	}
	for (t = 0; t < p->ntypes; t++)
		pt_buf_addf(b, "%s.", pt_s(p, p->types[t].name));
}

/* DIR/PREFIX001SUFFIX, the first number free (claimed by creating it), into b */
static int save_name(struct pt_buf *b, const char *dir, const char *format,
		     const struct pt_profile *p, struct pt_diag *d)
{
	const struct pt_format *f = format ? pt_format_find(format) : NULL;
	const char *suffix = f && f->suffixes && f->suffixes[0] && !strchr(f->suffixes[0], '*')
				     ? f->suffixes[0]
				     : "";
	size_t base;
	int i, fd;

	pt_buf_addf(b, "%s/", dir);
	save_prefix(b, format, f, p);
	base = b->len;
	for (i = 1; i < 10000; i++) {
		pt_buf_setlen(b, base);
		pt_buf_addf(b, "%03d%s", i, suffix);
		fd = open(b->buf, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST) {
			pt_diag_init(d, dir);
			return pt_diag_error(d, "cannot save the fetched profile: %s",
					     strerror(errno));
		}
	}
	pt_diag_init(d, dir);
	return pt_diag_error(d, "cannot save the fetched profile: 9999 names taken");
}

/* the fetch hooks' context: the command's options and the read's progress */
struct fetch_ctx {
	const struct pt_common *c;
	struct progress *pr;
};

static int fetch_done(void *ctx, const char *url, const unsigned char *data, size_t len,
		      const char *format, const struct pt_profile *p, struct pt_diag *d)
{
	const struct pt_common *c = ((const struct fetch_ctx *)ctx)->c;
	const char *dir = getenv("PROFTOOL_SAVE_DIR");
	struct pt_buf name = PT_BUF_INIT;
	struct pt_output out;
	int claimed = 0, ret = -1;

	(void)url;
	if (c->save) {
		pt_buf_addstr(&name, c->save);
	} else if (dir && *dir) {
		if (save_name(&name, dir, format, p, d) < 0)
			goto out;
		claimed = 1;
	} else {
		return 0;
	}
	/* the diag outlives name: it names the option's file, or the folder */
	pt_diag_init(d, c->save ? c->save : dir);
	if (pt_output_open(&out, name.buf, d) < 0)
		goto out;
	if (fwrite(data, 1, len, out.fp) != len) {
		pt_output_abort(&out);
		pt_diag_error(d, "cannot write: %s", strerror(errno ? errno : EIO));
		goto out;
	}
	if (pt_output_commit(&out, d) < 0)
		goto out;
	fprintf(stderr, "Saved profile in %s\n", name.buf);
	ret = 0;
out:
	if (ret && claimed)
		unlink(name.buf);
	/* the output's errors name the file: name is freed here */
	d->path = c->save ? c->save : dir;
	pt_buf_release(&name);
	return ret;
}

/* Progress on a terminal's standard error for work that has taken longer than
 * PROFTOOL_PROGRESS_DELAY seconds (2; HACKING), redrawn at most 5 times a second; never
 * on a pipe or a file, nor with --quiet. Whether standard error is a terminal is asked
 * once the delay has passed (on < 0 until then): a merge reads a file in less, and
 * a system call per file is dear. */
struct progress {
	int on, shown;
	double start, delay, last;
};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_init(struct progress *pr, int quiet)
{
	const char *e = getenv("PROFTOOL_PROGRESS_DELAY");
	double delay = e && *e ? strtod(e, NULL) : 2.0;

	memset(pr, 0, sizeof(*pr));
	pr->on = quiet ? 0 : -1;
	pr->delay = delay >= 0 ? delay : 2.0;
	pr->start = now_seconds();
}

static int progress_due(struct progress *pr)
{
	double t;

	if (!pr->on)
		return 0;
	t = now_seconds();
	if (t - pr->start < pr->delay || (pr->shown && t - pr->last < 0.2))
		return 0;
	if (pr->on < 0)
		pr->on = isatty(STDERR_FILENO);
	if (!pr->on)
		return 0;
	pr->last = t;
	pr->shown = 1;
	return 1;
}

/* the line drawn last is cleared: what follows starts on a clean line */
static void progress_end(struct progress *pr)
{
	if (pr->shown)
		fputs("\r\033[K", stderr);
	pr->shown = 0;
}

static void read_progress(void *ctx, const char *name, uint64_t done, uint64_t size)
{
	struct progress *pr = ctx;

	if (!progress_due(pr))
		return;
	if (size)
		fprintf(stderr, "\r\033[Kproftool: reading %s: %.1f of %.1f MB (%d%%)", name,
			(double)done / 1e6, (double)size / 1e6,
			(int)(100.0 * (double)(done < size ? done : size) / (double)size));
	else
		fprintf(stderr, "\r\033[Kproftool: reading %s: %.1f MB", name, (double)done / 1e6);
}

/* a URL capture's wait: the seconds gone of those the endpoint profiles, and what came */
static void fetch_waiting(void *ctx, const char *url, long seconds, uint64_t received)
{
	struct progress *pr = ((struct fetch_ctx *)ctx)->pr;
	long gone;

	if (!progress_due(pr))
		return;
	gone = (long)(now_seconds() - pr->start);
	fprintf(stderr, "\r\033[Kproftool: fetching %s: %ld s", url, gone);
	if (seconds)
		fprintf(stderr, " of %ld s", seconds);
	if (received)
		fprintf(stderr, ", %.1f kB received", (double)received / 1e3);
}

/* heap (info): read a heap graph into heap->g instead when only a heap reader claims
 * the input (heap->is_heap set); NULL for the profile commands */
struct either {
	struct pt_heapgraph *g;
	int *is_heap;
};

/* the symbolizer's warnings (analysis/symbolize.h), one line each */
static void print_symbolize_warnings(const struct pt_symbolizer *sy, const char *path)
{
	const char *s = sy->warnings.buf, *nl;

	for (; s && (nl = strchr(s, '\n')); s = nl + 1)
		fprintf(stderr, "proftool: %s: warning: %.*s\n", path, (int)(nl - s), s);
}

/* read path into p, its stacks handed to sink (NULL: the tree), or straight into a
 * merge's result where append is not NULL and the reader can */
static int read_one_into(const struct pt_common *c, const char *path, struct pt_profile *p,
			 struct pt_sink *sink, const struct either *heap,
			 const struct pt_append *append)
{
	struct pt_load_opts lo = c->load;
	struct progress pr;
	struct fetch_ctx fc = {c, &pr};
	struct pt_fetch_hooks hooks = {fetch_start, fetch_waiting, fetch_done, &fc};
	struct pt_symbolizer sy;
	struct pt_diag d;
	const char *search = c->binary_path ? c->binary_path : getenv("PROFTOOL_BINARY_PATH");
	int ret;

	lo.hooks = &hooks;
	progress_init(&pr, c->quiet);
	lo.progress = read_progress;
	lo.progress_ctx = &pr;
	if ((ret = pt_cli_stdin_terminal(c->spec, c->spec ? c->spec->name : "proftool", path)))
		return ret;
	lo.read.sink = sink;
	lo.read.append = append;
	/* addresses named before the stacks reach the fold or the tree */
	pt_symbolizer_init(&sy, lo.read.sink, search);
	if (!c->no_symbolize)
		lo.read.addr_sink = &sy.sink;
	if (search && *search)
		lo.read.flags |= PT_READ_BINARY_PATH;
	pt_diag_init(&d, path);
	if (pt_filter_needs_timeline(&c->filter))
		lo.read.keep_timeline = 1;
	ret = heap ? pt_load_either(path, &lo, p, heap->g, heap->is_heap, &d)
		   : pt_load(path, &lo, p, &d);
	print_symbolize_warnings(&sy, path);
	pt_symbolizer_release(&sy);
	progress_end(&pr);
	if (ret < 0)
		return pt_cli_fail(&d);
	pt_diag_print_warnings(&d, stderr);
	return 0;
}

static int read_one_either(const struct pt_common *c, const char *path, struct pt_profile *p,
			   struct pt_sink *sink, const struct either *heap)
{
	return read_one_into(c, path, p, sink, heap, NULL);
}

static int read_one(const struct pt_common *c, const char *path, struct pt_profile *p,
		    struct pt_sink *sink)
{
	return read_one_either(c, path, p, sink, NULL);
}

/* read the other inputs one at a time and add each into p */
static int read_rest(const struct pt_common *c, const char *const *paths, size_t n,
		     struct pt_profile *p)
{
	struct pt_merge m;
	struct pt_profile src;
	struct pt_hash_key key, k;
	struct pt_diag d;
	struct progress pr;
	size_t i;
	int ret = 0;

	progress_init(&pr, c->quiet);
	pt_merge_init(&m, p, paths[0]);
	/* one system call for every input's tables' keys */
	pt_hash_key_init(&key);
	for (i = 1; i < n && !ret; i++) {
		if (progress_due(&pr))
			fprintf(stderr, "\r\033[Kproftool: merged %zu of %zu files", i, n);
		pt_hash_key_derive(&key, i, &k);
		pt_profile_init_key(&src, &k);
		if (!(ret = read_one(c, paths[i], &src, NULL)) &&
		    pt_merge_add(&m, &src, paths[i], &d) < 0)
			ret = pt_cli_fail(&d);
		pt_profile_release(&src);
	}
	progress_end(&pr);
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

/* the filters; when they keep nothing of a profile that had samples, one line says so
 * and names what there is (the exit status stays 0) */
static int filter(const struct pt_common *c, const char *path, struct pt_profile *p,
		  struct pt_filter_log *log)
{
	struct pt_filter_log own;
	struct pt_filter_scope scope;
	struct pt_buf note = PT_BUF_INIT;
	struct pt_diag d;
	int ret = 0;

	if (!pt_filter_active(&c->filter))
		return 0;
	pt_filter_log_init(&own);
	pt_filter_scope_init(&scope, p, &c->filter);
	pt_diag_init(&d, path);
	if (pt_filter_apply(p, &c->filter, log ? log : &own, &d) < 0)
		ret = pt_cli_fail(&d);
	else if (pt_filter_emptied(log ? log : &own, &scope, &note))
		fprintf(stderr, "proftool: %s: %s\n", path, note.buf);
	pt_buf_release(&note);
	pt_filter_scope_release(&scope);
	pt_filter_log_release(&own);
	return ret;
}

/* an input without samples says so, once (the exit status stays 0) */
static void note_empty(const struct pt_run *r)
{
	if (!r->say_empty || !pt_profile_empty(&r->p))
		return;
	if (r->npaths > 1)
		fprintf(stderr, "proftool: none of the %zu profiles has samples\n", r->npaths);
	else
		fprintf(stderr, "proftool: %s: the profile has no samples\n", r->path);
}

int pt_run_load(struct pt_run *r)
{
	const struct pt_common *c = r->common;
	struct pt_sink *sink = NULL;
	int ret;

	/* The table needs no tree: the stacks of one input fold into it as they are read,
	 * unless a filter must see them first. A report that needs the stacks but no tree
	 * keeps the distinct ones instead. */
	if ((r->fold || r->keep_stacks) && !r->tree_only && r->npaths == 1 &&
	    !pt_filter_active(&c->filter)) {
		if (r->keep_stacks) {
			pt_stacks_init(&r->stacks);
			r->have_stacks = 1;
			sink = &r->stacks.sink;
		} else {
			pt_fold_init(&r->folder, &r->p, r->gran, r->fold_marks);
			r->have_fold = 1;
			sink = &r->folder.sink;
		}
	}
	if ((ret = read_one(c, r->path, &r->p, sink)))
		return ret;
	if (r->have_fold)
		r->folded = pt_fold_finish(&r->folder, &r->p);
	if (r->have_stacks)
		r->stacked = pt_stacks_finish(&r->stacks, &r->p, r->gran);
	if (r->npaths > 1 && (ret = read_rest(c, r->paths, r->npaths, &r->p)))
		return ret;
	note_empty(r);
	if ((ret = filter(c, r->path, &r->p, &r->log)) || !r->regroup)
		return ret;
	return regroup(r->path, &r->p, r->gran);
}

int pt_run_load_either(struct pt_run *r, struct pt_heapgraph *g, int *is_heap)
{
	const struct pt_common *c = r->common;
	struct either heap = {g, is_heap};
	int ret;

	*is_heap = 0;
	if ((ret = read_one_either(c, r->path, &r->p, NULL, &heap)) || *is_heap)
		return ret;
	/* a profile: pt_run_load's steps after its read */
	note_empty(r);
	if ((ret = filter(c, r->path, &r->p, &r->log)) || !r->regroup)
		return ret;
	return regroup(r->path, &r->p, r->gran);
}

/* one input alone, filtered: the streams' step */
static int load_filtered(const struct pt_common *c, const char *path, struct pt_profile *p)
{
	int ret = read_one(c, path, p, NULL);
	return ret ? ret : filter(c, path, p, NULL);
}

int pt_inputs_init(struct pt_inputs *in, const struct pt_cmd_spec *spec, int argc, char **argv,
		   const char *const *lists, size_t nlists)
{
	size_t i;
	int k;

	memset(in, 0, sizeof(*in));
	for (i = 0; i < nlists; i++) {
		for (k = optind; k < argc && strcmp(argv[k], "-"); k++)
			;
		if (!strcmp(lists[i], "-") && (k < argc || i + 1 < nlists))
			return pt_usage_error(spec, "standard input cannot be both the list and "
						    "an input, or two lists");
	}
	in->paths = argv + optind;
	in->npaths = argc - optind;
	in->lists = lists;
	in->nlists = nlists;
	return 0;
}

/* the next line of the lists that names a path: 1, 0 at their end, -1 with d filled */
static int next_listed(struct pt_inputs *in, const char **path, struct pt_diag *d)
{
	ssize_t len;

	for (;;) {
		if (!in->fp) {
			const char *name;
			if (in->li == in->nlists)
				return 0;
			name = in->lists[in->li];
			in->lineno = 0;
			in->fp = strcmp(name, "-") ? fopen(name, "r") : stdin;
			if (!in->fp) {
				pt_diag_init(d, name);
				return pt_diag_error(d, "cannot open: %s", strerror(errno));
			}
		}
		errno = 0;
		len = getline(&in->line, &in->cap, in->fp);
		if (len < 0) {
			int bad = ferror(in->fp), e = errno;
			if (in->fp != stdin)
				fclose(in->fp);
			in->fp = NULL;
			if (bad) {
				pt_diag_init(d, in->lists[in->li]);
				return pt_diag_error(d, "cannot read: %s", strerror(e ? e : EIO));
			}
			in->li++;
			continue;
		}
		in->lineno++;
		if (len && in->line[len - 1] == '\n')
			in->line[--len] = 0;
		if (!len)
			continue; /* blank lines name nothing */
		if (strlen(in->line) != (size_t)len) {
			pt_diag_init(d, in->lists[in->li]);
			return pt_diag_error_line(d, in->lineno, "a path with a NUL byte");
		}
		*path = in->line;
		return 1;
	}
}

int pt_inputs_next(void *ctx, const char **path, struct pt_diag *d)
{
	struct pt_inputs *in = ctx;

	if (in->next < in->npaths) {
		*path = in->paths[in->next++];
		return 1;
	}
	return next_listed(in, path, d);
}

void pt_inputs_release(struct pt_inputs *in)
{
	if (in->fp && in->fp != stdin)
		fclose(in->fp);
	free(in->line);
}

int pt_run_each(struct pt_run *r, pt_run_next_fn next, void *next_ctx, pt_run_each_fn each,
		void *ctx)
{
	struct pt_diag d;
	struct pt_hash_key key, k;
	const char *path;
	uint64_t i = 0;
	int n, ret = 0, any = 0;

	/* one system call for every input's tables' keys */
	pt_hash_key_init(&key);
	while (!ret && (n = next(next_ctx, &path, &d)) != 0) {
		struct pt_profile p;
		if (n < 0)
			return pt_cli_fail(&d);
		any = 1;
		pt_hash_key_derive(&key, i++, &k);
		pt_profile_init_key(&p, &k);
		if (!(ret = load_filtered(r->common, path, &p))) {
			pt_diag_init(&d, path);
			if (each(ctx, path, &p, &d) < 0)
				ret = pt_cli_fail(&d);
		}
		pt_profile_release(&p);
	}
	return any || ret ? ret : PT_RUN_NO_INPUT;
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
	struct pt_hash_key key, k;
	struct pt_diag d;
	const char *path;
	const struct pt_append *append;
	struct progress pr;
	size_t done = 1;
	int n, ret;

	progress_init(&pr, c->quiet);
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
	/* one system call for every input's tables' keys */
	pt_hash_key_init(&key);
	while (!ret && (n = next(ctx, &path, &d)) != 0) {
		if (n < 0) {
			ret = pt_cli_fail(&d);
			break;
		}
		pt_hash_key_derive(&key, done, &k);
		pt_profile_init_key(&src, &k);
		/* an input neither filtered nor labelled may go straight into the result */
		if (!label && !pt_filter_active(&c->filter) && !c->load.read.keep_timeline &&
		    (append = pt_merge_append(&m)))
			ret = read_one_into(c, path, &src, NULL, NULL, append);
		else
			ret = stream_one(c, path, &src, label, ctx);
		if (!ret && pt_merge_add(&m, &src, path, &d) < 0)
			ret = pt_cli_fail(&d);
		pt_profile_release(&src);
		if (!ret && ++done && progress_due(&pr))
			fprintf(stderr, "\r\033[Kproftool: merged %zu files", done);
	}
	progress_end(&pr);
	pt_merge_finish(&m);
	pt_merge_release(&m);
	return ret;
}

int pt_run_heap(const char *path, uint64_t max_size, int snapshot_sizes, int quiet,
		struct pt_heapgraph *g)
{
	struct pt_load_opts o;
	struct pt_diag d;
	struct progress pr;
	int ret;

	pt_heapgraph_init(g); /* released by the caller whatever happens here */
	if ((ret = pt_cli_stdin_terminal(NULL, "heap", path)))
		return ret;
	memset(&o, 0, sizeof(o));
	o.max_size = max_size;
	progress_init(&pr, quiet);
	o.progress = read_progress;
	o.progress_ctx = &pr;
	pt_diag_init(&d, path);
	ret = pt_load_heap(path, &o, g, &d);
	progress_end(&pr);
	if (ret < 0)
		return pt_cli_fail(&d);
	pt_diag_print_warnings(&d, stderr);
	if (!snapshot_sizes) /* DevTools' shallow sizes, before anything reads them */
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

const struct pt_stacks *pt_run_stacks(const struct pt_run *r)
{
	return r->stacked ? &r->stacks : NULL;
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

int pt_run_report(const struct pt_cmd_spec *spec, int argc, char **argv, int say_empty,
		  void (*note)(const struct pt_run *r), pt_run_emit_fn emit)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_run r;
	int ret;

	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(spec, argc, argv, &common, &ra, NULL)) >= 0)
		return ret;
	pt_run_init(&r, &common, "-");
	r.say_empty = say_empty;
	pt_run_files(&r, argc, argv);
	if (!(ret = pt_run_load(&r)) && !(ret = pt_run_type(&r))) {
		if (note)
			note(&r);
		ret = pt_run_emit(&r, ra.outpath, emit, NULL);
	}
	pt_run_release(&r);
	return ret;
}

int pt_run_write(const struct pt_run *r, const char *outpath, const char *name,
		 const struct pt_format *f, const struct pt_write_opts *o)
{
	return pt_cli_write(outpath, name ? name : r->path, f, &r->p, o);
}
