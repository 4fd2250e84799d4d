/* cmd-info.c: `proftool info`: what a profile holds. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/aggregate.h"
#include "util/buf.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/report.h"
#include "core/units.h"
#include "util/xalloc.h"

static const struct pt_opt info_options[] = {
	PT_OPT_FORMAT_ROW("text|json", "output format"),
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {info_options, pt_input_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"info", "info [OPTIONS] [FILE]",
	"Describe a profile: its format, sample types with unit and total, sample count,\n"
	"unique stacks and functions, duration and producer metadata.",
	tables, NULL};

struct facts {
	uint64_t stacks;    /* nodes with a nonzero self value: unique stacks */
	uint64_t functions; /* distinct functions that appear in a stack */
};

/* From the model alone, without the call-graph views, so that info costs no more than
 * reading (bench/run.sh takes it as the read cost of the writers). */
static void count_facts(const struct pt_profile *p, struct facts *f)
{
	pt_profile_count(p, &f->stacks, &f->functions);
}

/* the start as a local date and time (pprof's "Time:"), to the nanosecond, then the
 * raw count */
static void print_start(int64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000);
	long frac = (long)(ns % 1000000000);
	char when[64];
	struct tm tm;

	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	if (localtime_r(&sec, &tm) && strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm)) {
		char zone[16];
		if (!strftime(zone, sizeof(zone), "%Z", &tm))
			zone[0] = 0;
		printf("Start: %s.%09ld%s%s (%" PRId64 " ns since the epoch)\n", when, frac,
		       zone[0] ? " " : "", zone, ns);
	} else {
		printf("Start: %" PRId64 " ns since the epoch\n", ns);
	}
}

static int by_name(const void *a, const void *b, void *ctx)
{
	return strcmp(pt_s(ctx, *(const uint32_t *)a), pt_s(ctx, *(const uint32_t *)b));
}

/* the distinct label keys of p's rows, by name (string ids; the caller frees) */
static uint32_t *label_keys(const struct pt_profile *p, size_t *n)
{
	unsigned char *seen = pt_xcalloc((size_t)p->strings.n + 1, 1);
	uint32_t *keys = NULL, row, i;
	size_t alloc = 0;

	*n = 0;
	for (row = 0; row < p->nsamples; row++) {
		const struct pt_labelset *ls = &p->labelsets[p->samples[row].labels];
		for (i = 0; i < ls->n; i++)
			if (!seen[ls->v[i].key]) {
				seen[ls->v[i].key] = 1;
				PT_ALLOC_GROW(keys, *n + 1, alloc);
				keys[(*n)++] = ls->v[i].key;
			}
	}
	free(seen);
	if (*n > 1) /* never qsort NULL (UBSan) */
		qsort_r(keys, *n, sizeof(*keys), by_name, (void *)p);
	return keys;
}

static void info_text(const struct pt_profile *p, const char *path, const struct pt_filter_log *log)
{
	struct pt_buf b = PT_BUF_INIT;
	struct facts f;
	uint32_t t, *keys;
	size_t i, nkeys;

	count_facts(p, &f);
	printf("File: %s\n", path);
	printf("Format: %s\n", p->format);
	printf("Sample types:\n");
	for (t = 0; t < p->ntypes; t++) {
		int64_t total = pt_profile_total(p, t);
		pt_buf_reset(&b);
		pt_buf_add_raw(&b, total, p->types[t].decimals);
		pt_buf_addstr(&b, " (");
		pt_buf_add_scaled(&b, p, t, total);
		pt_buf_addch(&b, ')');
		printf("  %u: %s [%s] total %s%s\n", t, pt_s(p, p->types[t].name),
		       pt_s(p, p->types[t].unit), b.buf, t == p->default_type ? " (default)" : "");
	}
	if (p->period_type.name || p->period)
		printf("Period: %" PRId64 " %s [%s]\n", p->period, pt_s(p, p->period_type.name),
		       pt_s(p, p->period_type.unit));
	printf("Samples: %" PRIu64 "\n", p->nrecords);
	if (pt_profile_has_stacks(p))
		printf("Unique stacks: %" PRIu64 "\n", f.stacks);
	else
		printf("Unique stacks: none (%s)\n",
		       pt_profile_no_stacks_why(p));
	printf("Unique functions: %" PRIu64 "\n", f.functions);
	keys = label_keys(p, &nkeys);
	for (i = 0; i < nkeys; i++)
		printf("%s%s%s", i ? ", " : "Label keys: ", pt_s(p, keys[i]),
		       i + 1 == nkeys ? " (proftool tags lists their values)\n" : "");
	free(keys);
	if (p->keep_timeline || p->nevents)
		printf("Timeline events: %zu\n", p->nevents);
	if (p->duration_nanos) {
		pt_buf_reset(&b);
		printf("Duration: %.3fs\n", (double)p->duration_nanos / 1e9);
	}
	if (p->time_nanos)
		print_start(p->time_nanos);
	for (i = 0; i < p->nmeta; i++)
		printf("Meta %s: %s\n", pt_s(p, p->meta[i].key), pt_s(p, p->meta[i].value));
	for (i = 0; i < p->ncomments; i++)
		printf("Comment: %s\n", pt_s(p, p->comments[i]));
	pt_buf_reset(&b);
	pt_filter_log_describe(log, p, p->default_type, &b);
	fwrite(b.buf, 1, b.len, stdout);
	pt_buf_release(&b);
}

static void info_json(const struct pt_profile *p, const char *path, const struct pt_filter_log *log)
{
	yajl_gen g = pt_json_gen(stdout);
	struct facts f;
	uint32_t t, *keys;
	size_t i, nkeys;

	count_facts(p, &f);
	pt_yajl()->gen_map_open(g);
	pt_json_key_str(g, "file", path);
	pt_json_key_str(g, "format", p->format);
	pt_json_cstr(g, "sample_types");
	pt_yajl()->gen_array_open(g);
	for (t = 0; t < p->ntypes; t++) {
		pt_yajl()->gen_map_open(g);
		pt_json_cstr(g, "name");
		pt_json_str(g, p, p->types[t].name);
		pt_json_cstr(g, "unit");
		pt_json_str(g, p, p->types[t].unit);
		pt_json_key_int(g, "total", pt_profile_total(p, t));
		pt_json_key_int(g, "decimals", p->types[t].decimals);
		pt_json_key_bool(g, "default", t == p->default_type);
		pt_yajl()->gen_map_close(g);
	}
	pt_yajl()->gen_array_close(g);
	pt_json_key_int(g, "samples", (int64_t)p->nrecords);
	pt_json_key_bool(g, "has_stacks", pt_profile_has_stacks(p));
	pt_json_key_int(g, "unique_stacks", (int64_t)f.stacks);
	pt_json_key_int(g, "unique_functions", (int64_t)f.functions);
	pt_json_key_int(g, "duration_nanos", p->duration_nanos);
	pt_json_key_int(g, "time_nanos", p->time_nanos);
	pt_json_cstr(g, "metadata");
	pt_yajl()->gen_map_open(g);
	for (i = 0; i < p->nmeta; i++) {
		pt_json_str(g, p, p->meta[i].key);
		pt_json_str(g, p, p->meta[i].value);
	}
	pt_yajl()->gen_map_close(g);
	keys = label_keys(p, &nkeys);
	if (nkeys) {
		pt_json_cstr(g, "label_keys");
		pt_yajl()->gen_array_open(g);
		for (i = 0; i < nkeys; i++)
			pt_json_str(g, p, keys[i]);
		pt_yajl()->gen_array_close(g);
	}
	free(keys);
	if (log->n) {
		/* only when filters ran, so the unfiltered document stays as it was */
		pt_json_cstr(g, "filters");
		pt_yajl()->gen_array_open(g);
		for (i = 0; i < log->n; i++) {
			pt_yajl()->gen_map_open(g);
			pt_json_key_str(g, "filter", log->v[i].what);
			pt_json_cstr(g, "before");
			pt_yajl()->gen_array_open(g);
			for (t = 0; t < log->ntypes; t++)
				pt_json_int(g, log->v[i].before[t]);
			pt_yajl()->gen_array_close(g);
			pt_json_cstr(g, "removed");
			pt_yajl()->gen_array_open(g);
			for (t = 0; t < log->ntypes; t++)
				pt_json_int(g, log->v[i].removed[t]);
			pt_yajl()->gen_array_close(g);
			pt_yajl()->gen_map_close(g);
		}
		pt_yajl()->gen_array_close(g);
	}
	pt_yajl()->gen_map_close(g);
	pt_json_done(g, stdout);
}

/* what `info` says of a heap graph (a V8 snapshot or a Ruby dump) */
struct heap_facts {
	const char *format;
	uint64_t nodes, edges, shallow, traced, pinned;
	uint64_t gens;		 /* objects with a GC generation */
	uint32_t gen_lo, gen_hi; /* their lowest and highest */
};

static void count_heap(const struct pt_heapgraph *g, struct heap_facts *h)
{
	uint32_t v;

	memset(h, 0, sizeof(*h));
	h->format = g->rb_addr ? "rubyheap" : "heapsnapshot";
	h->nodes = g->nnodes;
	h->edges = g->nedges;
	for (v = 0; v < g->nnodes; v++) {
		h->shallow += pt_heap_self(g, v);
		if (g->rb_site && g->rb_site[v])
			h->traced++;
		if (g->rb_pinned && g->rb_pinned[v])
			h->pinned++;
		if (g->rb_gen && g->rb_gen[v]) {
			if (!h->gens++ || g->rb_gen[v] - 1 < h->gen_lo)
				h->gen_lo = g->rb_gen[v] - 1;
			if (g->rb_gen[v] - 1 > h->gen_hi)
				h->gen_hi = g->rb_gen[v] - 1;
		}
	}
	if (!g->rb_addr)
		h->traced = g->ntraces;
}

static void info_heap(const struct pt_heapgraph *g, const char *path, int json)
{
	struct heap_facts h;

	count_heap(g, &h);
	if (json) {
		yajl_gen jg = pt_json_gen(stdout);
		pt_yajl()->gen_map_open(jg);
		pt_json_key_str(jg, "file", path);
		pt_json_key_str(jg, "format", h.format);
		pt_json_key_bool(jg, "heap_graph", 1);
		pt_json_key_int(jg, "nodes", (int64_t)h.nodes);
		pt_json_key_int(jg, "edges", (int64_t)h.edges);
		pt_json_key_int(jg, "shallow_bytes", (int64_t)h.shallow);
		pt_json_cstr(jg, g->rb_addr ? "traced_objects" : "allocation_traces");
		pt_json_int(jg, (int64_t)h.traced);
		if (g->rb_addr) {
			pt_json_key_int(jg, "pinned_objects", (int64_t)h.pinned);
		}
		pt_yajl()->gen_map_close(jg);
		pt_json_done(jg, stdout);
		return;
	}
	printf("File: %s\n", path);
	printf("Format: %s (a heap graph: 'proftool heap' summarizes it)\n", h.format);
	printf("Nodes: %" PRIu64 "%s\n", h.nodes,
	       g->rb_addr ? " (the objects, and ROOT as node 0)" : "");
	printf("Edges: %" PRIu64 "%s\n", h.edges,
	       g->rb_addr ? " (the references, and from ROOT to each object no ROOT reaches)"
			  : "");
	printf("Shallow size: %" PRIu64 " bytes\n", h.shallow);
	if (g->rb_addr) {
		if (h.traced || h.gens)
			printf("Allocation tracing: %" PRIu64 " objects with a site, %" PRIu64
			       " with a GC generation (%" PRIu32 " to %" PRIu32 ")\n",
			       h.traced, h.gens, h.gen_lo, h.gen_hi);
		else
			printf("Allocation tracing: none (ObjectSpace.trace_object_allocations_start "
			       "records sites and generations)\n");
		printf("Pinned objects: %" PRIu64 "\n", h.pinned);
	} else {
		printf("Allocation stacks: %s\n", h.traced ? "yes (trace_tree)" : "none");
	}
}

int cmd_info(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_run r;
	struct pt_heapgraph g;
	const char *path = "-";
	int ret, is_heap = 0;

	pt_common_init(&common);
	pt_report_args_init(&ra, 0, PT_GRAN_FUNCTIONS);
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, NULL)) >= 0)
		return ret;
	if ((ret = pt_cli_one_file(&spec, argc, argv, &path)))
		return ret;

	pt_run_init(&r, &common, path);
	pt_heapgraph_init(&g);
	if (!(ret = pt_run_load_either(&r, &g, &is_heap)) && is_heap) {
		info_heap(&g, !strcmp(path, "-") ? "<stdin>" : path, ra.format == PT_FMT_JSON);
	} else if (!ret) {
		if (ra.format == PT_FMT_JSON)
			info_json(&r.p, !strcmp(path, "-") ? "<stdin>" : path, &r.log);
		else
			info_text(&r.p, !strcmp(path, "-") ? "<stdin>" : path, &r.log);
	}
	pt_heapgraph_release(&g);
	pt_run_release(&r);
	return ret;
}
