/* report.h: reports read a profile and its aggregate and print tables; they never
 * parse. Text is for people; CSV (libcsv) and JSON (yajl) are stable interfaces. */
#ifndef PT_REPORT_H
#define PT_REPORT_H

#include <stdio.h>
#include <yajl/yajl_gen.h>

#include "analysis/aggregate.h"
#include "analysis/diff.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/pattern.h"
#include "util/diag.h"
#include "analysis/filter.h"
#include "analysis/fold.h"
#include "core/units.h"
#include "analysis/graph.h"
#include "analysis/runs.h"
#include "analysis/stacks.h"
#include "core/profile.h"

enum pt_report_format { PT_FMT_TEXT, PT_FMT_CSV, PT_FMT_JSON };

/* How many of n rows a report's limit shows: limit of them, or all n when limit < 0 (the
 * options' "all") or when there are fewer. */
static inline size_t pt_report_shown(long limit, size_t n)
{
	return limit < 0 || (unsigned long)limit > n ? n : (size_t)limit;
}

/* top's text layouts (--style) */
enum pt_top_style {
	PT_STYLE_DEFAULT,
	PT_STYLE_PPROF,	    /* go tool pprof -top */
	PT_STYLE_STACKPROF, /* stackprof --text */
};

struct pt_top_opts {
	uint32_t type;
	enum pt_top_style style;
	double node_fraction; /* leave out entries with cum below this share (pprof's -nodefraction)
			       */
	double edge_fraction; /* pprof style: calls below this share do not count for inline marks
			       */
	int by_cum;
	long limit; /* rows; < 0 = all */
	enum pt_report_format format;
	const struct pt_filter_log *filters; /* listed in the text header; may be NULL */
	/* pprof style: the filters, for pprof's "Active filters:" legend (NULL: none); its
	 * shares are of filters->whole, the whole profile's total, as pprof's are */
	const struct pt_filter *filter;
	const struct pt_fold *fold; /* the fold that read p, if it folded: its inline marks */
	/* pprof style: the distinct stacks that read p, if they were kept instead of a
	 * tree (analysis/stacks.h): its graph is made from them */
	const struct pt_stacks *stacks;
	/* pprof style: lines and addresses name each row as pprof -lines / -addresses do,
	 * from p's own frames (not re-keyed, so inline marks stay) */
	enum pt_granularity gran;
};

struct pt_method_opts {
	uint32_t type;
	const char *pattern;	      /* a literal substring of the function name ... */
	struct pt_pattern *re;	      /* ... or, if not NULL, this compiled regex */
	const char *source_path;      /* ':'-separated directories to find sources in, or NULL */
	enum pt_report_format format; /* text or json */
	long context;		      /* source lines past the last sampled one (pprof: 5) */
};

/* `proftool method`: every function whose name matches, in top's order. Error (d) if
 * none matches. */
int pt_report_method(const struct pt_profile *p, const struct pt_agg *a,
		     const struct pt_method_opts *o, FILE *out, struct pt_diag *d);

/* "text", "csv", "json"; -1 if none */
int pt_parse_report_format(const char *s, enum pt_report_format *f);

int pt_report_top(const struct pt_profile *p, const struct pt_agg *a, const struct pt_top_opts *o,
		  FILE *out, struct pt_diag *d);

/* `go tool pprof -top` exactly: its header, one unit, nodes under 0.5% of the total
 * dropped, one row per function name with pprof's (inline) marks; limit < 0 = all */
int pt_report_top_pprof(const struct pt_profile *p, const struct pt_top_opts *o, FILE *out,
			struct pt_diag *d);
/* go tool pprof's measurement.ScaledLabel ("%.2f" without a trailing ".00") of v in
 * unit `from` scaled to `to` (pt_pprof_scale, core/units.h) */
void pt_pprof_label(struct pt_buf *b, int64_t v, const char *from, const char *to);
/* `go tool pprof -tags`: per label key (by name), its values with their share of type t
 * (most first) and the key's total, in pprof's layout; numeric labels scaled as pprof
 * prints them */
int pt_report_tags(const struct pt_profile *p, uint32_t t, FILE *out, struct pt_diag *d);
/* `go tool pprof -traces`: every stack with its value of type t, leaf first */
int pt_report_traces(const struct pt_profile *p, uint32_t t, FILE *out, struct pt_diag *d);
/* pprof's inline mark of every function name (indexed by string id; the caller frees):
 * 1 if every caller -> it edge is an inlined call, 2 if some are, else 0. A profile
 * folded while reading (fold not NULL) has them from its fold. */
unsigned char *pt_report_inline_marks(const struct pt_profile *p, const struct pt_fold *fold,
				      uint32_t t);
/* " (inline)", " (partial-inline)" or "" */
const char *pt_report_inline_text(unsigned char mark);
/* how many goroutine ids a group of `proftool goroutines` lists */
#define PT_GOROUTINES_IDS 8

struct pt_goroutines_opts {
	uint32_t type;
	int by_wait;		      /* the group waiting longest first, else the largest */
	long limit;		      /* groups; < 0 = all */
	enum pt_report_format format; /* text or json */
};

/* `proftool goroutines`: the rows of p grouped by stack, with the labels the goroutine
 * reader sets (state, wait, locked, goroutine), as panicparse prints a dump */
int pt_report_goroutines(const struct pt_profile *p, const struct pt_goroutines_opts *o, FILE *out,
			 struct pt_diag *d);

/* `top --style stackprof` (report/top-stackprof.c) */
int pt_report_top_stackprof(const struct pt_profile *p, const struct pt_agg *a,
			    const struct pt_top_opts *o, FILE *out, struct pt_diag *d);

/* Entry indices of a sorted by flat (or cum) descending, ties in the order functions
 * first appeared in the input (stackprof's order); zero rows left out; caller frees. */
uint32_t *pt_report_sorted_by_appearance(const struct pt_agg *a, uint32_t type, int by_cum,
					 uint32_t *n);

/* Entry indices of a sorted by flat (or cum) descending, then name, file, line; entries
 * with neither flat nor cum are left out. *n is set; the caller frees the array. */
uint32_t *pt_report_sorted(const struct pt_profile *p, const struct pt_agg *a, uint32_t type,
			   int by_cum, uint32_t *n);
/* The same entries, unsorted. */
uint32_t *pt_report_nonzero(const struct pt_agg *a, uint32_t type, uint32_t *n);
/* Put the first k of idx[0..n) in pt_report_sorted's order at idx[0..k), sorted (the
 * rest in no order): what a report showing k rows needs, in n log k. */
void pt_report_sort_first(const struct pt_profile *p, const struct pt_agg *a, uint32_t type,
			  int by_cum, uint32_t *idx, uint32_t n, uint32_t k);

/* Drop from idx[0..*n) the entries whose cum is below fraction of the total of type t;
 * returns how many were dropped. */
uint32_t pt_report_node_fraction(const struct pt_agg *a, uint32_t t, double fraction, uint32_t *idx,
				 uint32_t *n);

/* "name (file:line)" as reports print an entry */
void pt_report_entry_label(struct pt_buf *b, const struct pt_profile *p,
			   const struct pt_agg_entry *e);

/* ---- tree (report/tree.c) ---- */

struct pt_tree_opts {
	uint32_t type;
	int by_cum;
	long limit;		      /* functions; < 0 = all */
	const char *pattern;	      /* regex: only functions whose name matches; NULL = all */
	enum pt_report_format format; /* text or json */
	const struct pt_filter_log *filters;
	double node_fraction;
	/* the call graph of a's entries for type (pt_aggregate_graph); NULL: made here from
	 * a's edges */
	const struct pt_graph *graph;
};

/* pprof's -peek layout; -1 with d filled for a bad pattern */
int pt_report_tree(const struct pt_profile *p, const struct pt_agg *a, const struct pt_tree_opts *o,
		   FILE *out, struct pt_diag *d);

/* ---- diff (report/diff.c) ---- */

void pt_diff_row_label(struct pt_buf *b, const struct pt_diff *df, const struct pt_diff_row *r);

struct pt_diff_opts {
	int by_cum;
	long limit; /* rows; < 0 = all */
	enum pt_report_format format;
	enum pt_granularity gran;
	const char *base_path, *new_path;
	const struct pt_filter_log *base_log, *new_log; /* may be NULL */
	const struct pt_profile *base; /* the base profile and its type, for base_log */
	uint32_t base_type;
};

/* the table; values are printed in the unit of type t of p (the new profile) */
int pt_report_diff(const struct pt_diff *df, const struct pt_profile *p, uint32_t t,
		   const struct pt_diff_opts *o, FILE *out);

/* ---- diff over repeated runs (report/runs.c) ---- */

struct pt_runs_opts {
	long limit; /* rows; < 0 = all */
	enum pt_report_format format;
	enum pt_granularity gran;
	const char *type_name;	/* the sample type compared */
	const char *total_unit; /* of the totals' medians: "ns", "ns/s", "bytes", ... */
	double min_share, spread, alpha; /* pt_runs_test's */
};

/* the table of every function tested or with a non-zero median share on either side, by
 * the change of its median cum share */
int pt_report_runs(const struct pt_runs *r, const struct pt_runs_opts *o, FILE *out);

/* a profile string as a JSON string (util/json.h has the rest) */
void pt_json_str(yajl_gen g, const struct pt_profile *p, uint32_t id);
/* a value with `decimals` decimal places, raw in the base unit, as a JSON number */
void pt_json_raw(yajl_gen g, int64_t v, uint32_t decimals);
/* the members "sample_type" and "unit" of type t, in the map g has open */
void pt_json_type(yajl_gen g, const struct pt_profile *p, uint32_t t);
/* the members "name", "file" and "line" (0 when not known) of a table entry, in the map
 * g has open */
void pt_json_entry(yajl_gen g, const struct pt_profile *p, const struct pt_agg_entry *e);

#endif
