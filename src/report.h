/* report.h: reports read a profile and its aggregate and print tables; they never
 * parse. Text is for people; CSV (libcsv) and JSON (yajl) are stable interfaces. */
#ifndef PT_REPORT_H
#define PT_REPORT_H

#include <regex.h>
#include <stdio.h>
#include <yajl/yajl_gen.h>

#include "aggregate.h"
#include "buf.h"
#include "diag.h"
#include "profile.h"

enum pt_report_format { PT_FMT_TEXT, PT_FMT_CSV, PT_FMT_JSON };

/* top's text layouts (--style) */
enum pt_top_style {
	PT_STYLE_DEFAULT,
	PT_STYLE_PPROF,     /* go tool pprof -top */
	PT_STYLE_STACKPROF, /* stackprof --text */
};

struct pt_top_opts {
	uint32_t type;
	enum pt_top_style style;
	double node_fraction, edge_fraction; /* pprof style: pprof's -nodefraction, -edgefraction */
	int by_cum;
	long limit; /* rows; < 0 = all */
	enum pt_report_format format;
};

struct pt_method_opts {
	uint32_t type;
	const char *pattern;	      /* a literal substring of the function name ... */
	const regex_t *re;	      /* ... or, if not NULL, this compiled regex */
	const char *source_path;      /* ':'-separated directories to find sources in, or NULL */
	enum pt_report_format format; /* text or json */
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
/* `go tool pprof -traces`: every stack with its value of type t, leaf first */
int pt_report_traces(const struct pt_profile *p, uint32_t t, FILE *out, struct pt_diag *d);
/* pprof's inline mark of every function name (indexed by string id; the caller frees):
 * 1 if every caller -> it edge is an inlined call, 2 if some are, else 0 */
unsigned char *pt_report_inline_marks(const struct pt_profile *p, uint32_t t);
/* " (inline)", " (partial-inline)" or "" */
const char *pt_report_inline_text(unsigned char mark);
/* `top --style stackprof` (report-top-stackprof.c) */
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

/* "name (file:line)" as reports print an entry */
void pt_report_entry_label(struct pt_buf *b, const struct pt_profile *p,
			   const struct pt_agg_entry *e);

/* yajl generator writing to fp */
yajl_gen pt_json_gen(FILE *fp);
/* a profile string as a JSON string (made valid UTF-8) */
void pt_json_str(yajl_gen g, const struct pt_profile *p, uint32_t id);
void pt_json_cstr(yajl_gen g, const char *s);
void pt_json_int(yajl_gen g, int64_t v);

#endif
