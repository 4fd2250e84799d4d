/* ci.h: what CI systems read from a gate: a JUnit XML report (one test case per thing
 * checked, a failure per offender; GitLab's test reports) and OpenMetrics text lines
 * (GitLab's metrics reports). Writers only: the gates (diff, heap --diff) fill the
 * cases and samples. */
#ifndef PT_CI_H
#define PT_CI_H

#include <stddef.h>
#include <stdio.h>

struct pt_ci_case {
	const char *name;    /* the function or constructor, as printed; any bytes */
	const char *failure; /* NULL: passed; else the one-line reason it failed */
	const char *detail;  /* the numbers behind it (system-out), or NULL */
};

/* text as XML character data or an attribute value: the markup characters escaped,
 * newlines as &#10;, bytes XML cannot hold (controls, invalid UTF-8) as '?' */
void pt_xml_text(FILE *out, const char *text);

/* A <testsuites> with one <testsuite name=suite> of the n cases. Names and texts are
 * escaped for XML; bytes XML cannot hold (controls, invalid UTF-8) become '?'. */
void pt_ci_junit(FILE *out, const char *suite, const struct pt_ci_case *cases, size_t n);

/* OpenMetrics text: a family's header once, then its samples, then pt_ci_metrics_end. */
void pt_ci_metric_family(FILE *out, const char *name, const char *help);
/* name{label="value"} v (no braces when label is NULL); the value escaped as
 * OpenMetrics asks (backslash, double quote, newline) */
void pt_ci_metric(FILE *out, const char *name, const char *label, const char *value, double v);
void pt_ci_metrics_end(FILE *out);

#endif
