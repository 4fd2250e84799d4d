/* fuzz-read.c: libFuzzer harness for one reader (FUZZ_FORMAT) or for detection
 * (FUZZ_FORMAT ""): read the bytes, aggregate, and run every writer on the result, so
 * hostile names reach the writers too. A diagnostic must be one line. The same bytes
 * are read again the way `top` reads them, folded as they come (fold.h), and that
 * table must equal the tree walk's. Reading is linear in the input, so the CPU one input
 * may take is bounded by its size: more than FUZZ_CPU_BASE seconds plus FUZZ_CPU_PER_BYTE
 * a byte is a finding (a structured blow-up: colliding names, restrided rows, a quadratic
 * walk), caught even when it stays under libFuzzer's -timeout.
 * Built with FUZZ_REPLAY it is tests/fuzz/replay, a program that runs the same checks on
 * files: `replay FORMAT FILE...` (FORMAT "detect" detects), for t0085 in every build and
 * under valgrind, where one process reads a harness's whole corpus. There the CPU bound
 * is not checked (valgrind is 30 times slower); the fuzz smoke keeps it. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/aggregate.h"
#include "analysis/dominator.h"
#include "analysis/fold.h"
#include "analysis/heapleak.h"
#include "analysis/heapowner.h"
#include "formats/format.h"
#include "formats/load.h"
#include "report/heap.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef FUZZ_REPLAY
static const char *fuzz_format = "";
#else
static const char *const fuzz_format = FUZZ_FORMAT;
#endif

/* generous for an ASan+UBSan build running every writer on the result: an ordinary
 * input costs well under a microsecond a byte there, but one deep stack of distinct
 * frames is new work for each of the dozen writers at every byte: 9,000 frames in 53 kB
 * of collapsed text take about 1.0 s (19 us a byte) on a quiet core, and CI's fuzz
 * smoke runs two harnesses per two cores. 60 us a byte leaves three times that; a
 * quadratic walk over those frames costs minutes, not seconds. */
#ifndef FUZZ_CPU_BASE
#define FUZZ_CPU_BASE 0.25
#endif
#ifndef FUZZ_CPU_PER_BYTE
#define FUZZ_CPU_PER_BYTE 60e-6
#endif

static double cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int same_table(const struct pt_agg *x, const struct pt_agg *y)
{
	size_t w = x->ntypes;

	if (x->ntypes != y->ntypes || x->nentries != y->nentries ||
	    memcmp(x->total, y->total, w * sizeof(int64_t)))
		return 0;
	return !x->nentries ||
	       (!memcmp(x->entries, y->entries, x->nentries * sizeof(*x->entries)) &&
		(!w || (!memcmp(x->flat, y->flat, x->nentries * w * sizeof(int64_t)) &&
			!memcmp(x->cum, y->cum, x->nentries * w * sizeof(int64_t)))));
}

/* read the bytes again as top does, at a granularity the input picks */
static void check_fold(const uint8_t *data, size_t size, const struct pt_load_opts *o0,
		       const struct pt_profile *tree)
{
	enum pt_granularity g = (enum pt_granularity)(size ? data[size / 2] % 4 : 0);
	struct pt_load_opts o = *o0;
	struct pt_input in;
	struct pt_diag d;
	struct pt_profile p;
	struct pt_fold fold;
	struct pt_agg fa, ta;
	int fr, tr;

	o.read.keep_timeline = 0;
	pt_diag_init(&d, "fuzz");
	pt_profile_init(&p);
	pt_fold_init(&fold, &p, g, 1);
	o.read.sink = &fold.sink;
	if (pt_input_open_mem(&in, "fuzz", data, size, o.max_size, &d) < 0 ||
	    pt_load_input(&in, &o, &p, &d) < 0)
		abort(); /* the tree's read of the same bytes succeeded */
	pt_fold_finish(&fold, &p);
	fr = pt_aggregate_views(&p, g, 0, &fa, &d);
	tr = pt_aggregate_views(tree, g, 0, &ta, &d);
	if (fr != tr)
		abort();
	if (fr == 0) {
		if (!same_table(&fa, &ta))
			abort();
		pt_agg_release(&fa);
		pt_agg_release(&ta);
	}
	free(pt_report_inline_marks(&p, &fold, p.default_type));
	pt_input_close(&in);
	pt_fold_release(&fold);
	pt_profile_release(&p);
}

/* the heap command's path over the same bytes: the graph, DevTools' owner sizes (when
 * the input's first byte says so, else the raw ones, as --snapshot-sizes), the dominators,
 * the Summary, the retainers of every class and the diff of the snapshot with itself */
/* the Ruby paths of heap: by site and generation, the input's leak verdict against
 * itself (nothing leaks), its pages in a table and drawn */
static void check_heap_ruby(const struct pt_heapgraph *g, const struct pt_heap_dom *dom, FILE *out)
{
	struct pt_heap_summary s;
	struct pt_heap_series ser;
	struct pt_heap_pages pg;
	uint8_t *leaked = malloc(g->nnodes + 1);
	size_t i;
	int k;

	for (k = PT_HEAP_BY_SITE; k <= PT_HEAP_BY_GENERATION; k++) {
		pt_heap_summarize_by(g, dom, (enum pt_heap_by)k, NULL, &s);
		pt_report_heap(&s, "fuzz", -1, PT_FMT_CSV, 0, out);
		pt_heap_summary_release(&s);
	}
	pt_heap_series_init(&ser);
	for (k = 0; k < 3; k++)
		if (!leaked || pt_heap_series_add(&ser, g, k == 2 ? leaked : NULL) < 0)
			abort();
	for (i = 0; i < g->nnodes; i++)
		if (leaked[i])
			abort(); /* a snapshot never leaks against itself */
	pt_heap_series_release(&ser);
	free(leaked);
	if (g->rb_addr) {
		pt_heap_pages(g, 16384, 40, &pg);
		pt_report_heap_pages(&pg, "fuzz", 30, PT_FMT_TEXT, out);
		pt_report_heap_pages_svg(&pg, g, "fuzz", out);
		pt_heap_pages_release(&pg);
	}
}

static void check_heap(const uint8_t *data, size_t size, uint64_t max_size)
{
	struct pt_input in;
	struct pt_diag d;
	struct pt_heapgraph g;
	struct pt_heap_dom dom;
	struct pt_heap_summary s;
	struct pt_pattern *re;
	char err[128];
	FILE *out;
	int grew = 0;
	const struct pt_format *f = fuzz_format[0] ? pt_format_find(fuzz_format) : NULL;

	if (!f || !f->read_heap) /* the readers of a heap graph */
		return;
	pt_diag_init(&d, "fuzz");
	pt_heapgraph_init(&g);
	if (pt_input_open_mem(&in, "fuzz", data, size, max_size, &d) < 0)
		goto out;
	if (f->read_heap(&in, &g, &d) < 0) {
		if (strchr(d.msg, '\n'))
			abort();
		pt_input_close(&in);
		goto out;
	}
	pt_input_close(&in);
	if (size && data[0] % 2)
		pt_heap_move_owned_sizes(&g);
	pt_heap_dominators(&g, &dom);
	pt_heap_summarize(&g, &dom, &s);
	out = fopen("/dev/null", "w");
	if (!out || !(re = pt_pattern_compile(".", err, sizeof(err))))
		abort();
	pt_report_heap(&s, "fuzz", 30, PT_FMT_TEXT, 0, out);
	pt_report_heap(&s, "fuzz", -1, PT_FMT_JSON, 0, out);
	pt_report_heap_retainers(&g, &dom, &s, re, 5, PT_FMT_TEXT, 0, out, &d);
	pt_report_heap_diff(&g, &g, 30, PT_FMT_TEXT, 0, 0, &grew, out);
	if (grew)
		abort(); /* a snapshot never grew against itself */
	check_heap_ruby(&g, &dom, out);
	pt_pattern_free(re);
	fclose(out);
	pt_heap_summary_release(&s);
	pt_heap_dom_release(&dom);
out:
	pt_heapgraph_release(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_load_opts o;
	struct pt_input in;
	struct pt_diag d;
	struct pt_profile p;
	size_t i;
	double t0 = cpu_seconds(), spent;

	memset(&o, 0, sizeof(o));
	o.from = fuzz_format[0] ? fuzz_format : NULL;
	o.max_size = (uint64_t)64 << 20;
	o.read.keep_timeline = 1;
	/* an odd last byte reads as `goroutines` does (a trace's goroutine split) */
	if (size && (data[size - 1] & 1))
		o.read.flags |= PT_READ_GOROUTINE_IDS;
	pt_diag_init(&d, "fuzz");
	pt_profile_init(&p);
	if (pt_input_open_mem(&in, "fuzz", data, size, o.max_size, &d) == 0 &&
	    pt_load_input(&in, &o, &p, &d) == 0) {
		struct pt_agg a;
		struct pt_goroutines_opts go = {0, 0, -1, (enum pt_report_format)(size % 3)};
		FILE *gout = fopen("/dev/null", "w");
		if (!gout)
			abort();
		pt_report_goroutines(&p, &go, gout, &d);
		fclose(gout);
		if (pt_aggregate(&p, PT_GRAN_FUNCTIONS, &a, &d) == 0)
			pt_agg_release(&a);
		check_fold(data, size, &o, &p);
		for (i = 0; pt_formats[i]; i++) {
			struct pt_write_opts wo;
			FILE *out;
			if (!pt_formats[i]->write)
				continue;
			out = fopen("/dev/null", "w");
			if (!out)
				abort();
			pt_write_opts_init(&wo);
			wo.type = (int)p.default_type;
			pt_formats[i]->write(&p, &wo, out, &d);
			fclose(out);
		}
	}
	if (strchr(d.msg, '\n'))
		abort(); /* an error message must stay on one line */
	pt_input_close(&in);
	pt_profile_release(&p);
	check_heap(data, size, o.max_size);
#ifndef FUZZ_REPLAY
	spent = cpu_seconds() - t0;
	if (spent > FUZZ_CPU_BASE + FUZZ_CPU_PER_BYTE * (double)size) {
		fprintf(stderr, "fuzz: %.3f s of CPU for %zu bytes: not linear in the input\n",
			spent, size);
		abort();
	}
#else
	(void)t0;
	(void)spent;
#endif
	return 0;
}

#ifdef FUZZ_REPLAY
/* replay FORMAT FILE...: every file through the harness's checks, as libFuzzer would
 * run it; a failed check aborts, a file that cannot be read is exit 1 */
int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: replay FORMAT|detect FILE...\n");
		return 2;
	}
	fuzz_format = strcmp(argv[1], "detect") ? argv[1] : "";
	if (fuzz_format[0] && !pt_format_find(fuzz_format)) {
		fprintf(stderr, "replay: no format %s\n", fuzz_format);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *data = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		do {
			if (len == cap) {
				cap = cap ? cap * 2 : 65536;
				data = realloc(data, cap);
				if (!data)
					abort();
			}
			n = fread(data + len, 1, cap - len, f);
			len += n;
		} while (n);
		if (ferror(f)) {
			perror(argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(data, len);
		free(data);
	}
	return 0;
}
#endif
