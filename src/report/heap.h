/* heap.h: `proftool heap` reports on a heap snapshot graph: the per-constructor summary
 * (DevTools' Summary view), retaining paths and the comparison of two snapshots. */
#ifndef PT_REPORT_HEAP_H
#define PT_REPORT_HEAP_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/dominator.h"
#include "analysis/heappages.h"
#include "core/heapgraph.h"
#include "util/pattern.h"
#include "report/report.h"

struct pt_heap_row {
	const char *name; /* the class name: points into the graph, or into `names` */
	int64_t key;	  /* DevTools' classIndex */
	uint64_t count, shallow, retained;
	uint32_t first; /* a node of the class, for lookups */
	uint32_t pad;
};

struct pt_heap_summary {
	struct pt_heap_row *rows; /* sorted by retained size, then shallow size, then name */
	size_t n;
	char *names;	  /* "(type)" names, pt_heap_row.name points here */
	char *gen_names;  /* generation numbers, the same */
	const char *what; /* what a row is: "constructors", "classes", "allocation sites"... */
	int leaks;	  /* the objects of a leak verdict (pt_heap_summarize_by's keep) */
	uint64_t total_count, total_shallow, total_retained;
	uint32_t *node_row; /* per node: its row, or PT_HEAP_NONE (nodes DevTools skips) */
};

/* how the summary groups objects: by class (constructor), or, for a Ruby dump with
 * allocation tracing, by allocation site ("file:line") or GC generation (a graph
 * without them is grouped by class) */
enum pt_heap_by { PT_HEAP_BY_CLASS, PT_HEAP_BY_SITE, PT_HEAP_BY_GENERATION };

/* Group g's nodes as DevTools' Summary: nodes of size 0 left out unless native; class
 * retained size = the sum over the class's objects not dominated by another object of
 * the class. */
void pt_heap_summarize(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
		       struct pt_heap_summary *s);
/* The same grouped by `by`, over the nodes keep (NULL: all) holds; total_retained is
 * then what the kept nodes retain together. */
void pt_heap_summarize_by(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			  enum pt_heap_by by, const uint8_t *keep, struct pt_heap_summary *s);
void pt_heap_summary_release(struct pt_heap_summary *s);

/* print the first `limit` rows (limit < 0: all) with totals; text gives sizes scaled
 * as pprof scales bytes (1024-based kB, MB: core/units.h) unless raw_bytes, CSV and
 * JSON always bytes (the same for the retainers and the diff below) */
int pt_report_heap(const struct pt_heap_summary *s, const char *path, long limit,
		   enum pt_report_format format, int raw_bytes, FILE *out);

/* For the `limit` largest objects (by retained size) of classes whose name matches
 * re (util/pattern.h; a match too costly is an error in d): the shortest path from the root, over edges DevTools shows in its retainers
 * view, as "edge name -> node" steps. -1 with d set when no class matches. */
int pt_report_heap_retainers(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			     const struct pt_heap_summary *s, struct pt_pattern *re, long limit,
			     enum pt_report_format format, int raw_bytes, FILE *out,
			     struct pt_diag *d);

/* Per class, BASE against NEW by object id: new objects (ids not in BASE), deleted
 * ones, the count and size change, as DevTools' Comparison view. *grew_over is set to
 * 1 when a class's size grew by more than fail_bytes (>= 0) or fail_pct (>= 0) percent. */
int pt_report_heap_diff(const struct pt_heapgraph *base, const struct pt_heapgraph *cur, long limit,
			enum pt_report_format format, int64_t fail_bytes, double fail_pct,
			int *grew_over, FILE *out);
/* The comparison's rows, objects grouped by `by` (a Ruby dump's objects are known by
 * address), most growth first; a row's `over` (and grew_over) set when its size grew by
 * more than fail_bytes (>= 0) or fail_pct (>= 0) percent of its size in BASE. */
struct pt_heap_diff_row {
	const char *name; /* points into base_s or cur_s */
	uint64_t added, deleted, added_size, deleted_size, base_size;
	int64_t size_delta;
	int over;
};
struct pt_heap_diff {
	struct pt_heap_diff_row *rows;
	size_t n;
	int64_t total_delta;
	int grew_over;
	const char *what; /* what a row is, as the summary says */
	struct pt_heap_summary base_s, cur_s;
};
void pt_heap_diff_by(const struct pt_heapgraph *base, const struct pt_heapgraph *cur,
		     enum pt_heap_by by, int64_t fail_bytes, double fail_pct,
		     struct pt_heap_diff *df);
void pt_heap_diff_release(struct pt_heap_diff *df);
/* the gate's line for a row: "NAME: +DELTA bytes (BASE -> NEW bytes)", printable */
void pt_heap_diff_offender(struct pt_buf *b, const struct pt_heap_diff_row *r);
/* the first `limit` rows (limit < 0: all) in text, CSV or JSON */
int pt_report_heap_diff_rows(const struct pt_heap_diff *df, long limit,
			     enum pt_report_format format, int raw_bytes, FILE *out);

/* -o FILE.html: one self-contained page (no script, no request) of the summary's
 * first 2000 rows, and, when g and dom are given, the retaining paths of the largest
 * objects of the 10 largest classes (pt_report_heap_retainers' text) */
int pt_report_heap_html(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			const struct pt_heap_summary *s, const char *path, FILE *out);

/* --pages: the page count, live slots, pinned objects and pages under 25% full, then
 * the first `limit` pages (limit < 0: all) by address */
int pt_report_heap_pages(const struct pt_heap_pages *p, const char *path, long limit,
			 enum pt_report_format format, FILE *out);
/* --pages -o FILE.svg: each page a row of its slots, live ones coloured by Ruby type,
 * free ones grey, pinned ones outlined */
int pt_report_heap_pages_svg(const struct pt_heap_pages *p, const struct pt_heapgraph *g,
			     const char *path, FILE *out);

#endif
