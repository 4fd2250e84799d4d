/* report.h: reports read a profile and its aggregate and print tables; they never
 * parse. Text is for people; CSV (libcsv) and JSON (yajl) are stable interfaces. */
#ifndef PT_REPORT_H
#define PT_REPORT_H

#include <stdio.h>
#include <yajl/yajl_gen.h>

#include "aggregate.h"
#include "buf.h"
#include "diag.h"
#include "filter.h"
#include "profile.h"

enum pt_report_format { PT_FMT_TEXT, PT_FMT_CSV, PT_FMT_JSON };

struct pt_top_opts {
	uint32_t type;
	int by_cum;
	long limit; /* rows; < 0 = all */
	enum pt_report_format format;
	const struct pt_filter_log *filters; /* listed in the text header; may be NULL */
	double node_fraction;		     /* leave out entries with cum below this share */
};

/* "text", "csv", "json"; -1 if none */
int pt_parse_report_format(const char *s, enum pt_report_format *f);

int pt_report_top(const struct pt_profile *p, const struct pt_agg *a, const struct pt_top_opts *o,
		  FILE *out, struct pt_diag *d);

/* Entry indices of a sorted by flat (or cum) descending, then name, file, line; entries
 * with neither flat nor cum are left out. *n is set; the caller frees the array. */
uint32_t *pt_report_sorted(const struct pt_profile *p, const struct pt_agg *a, uint32_t type,
			   int by_cum, uint32_t *n);

/* Drop from idx[0..*n) the entries whose cum is below fraction of the total of type t;
 * returns how many were dropped. */
uint32_t pt_report_node_fraction(const struct pt_agg *a, uint32_t t, double fraction, uint32_t *idx,
				 uint32_t *n);

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
