/* ci.c: JUnit XML and OpenMetrics text for the gates' CI reports (ci.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/ci.h"

/* length of the valid UTF-8 sequence at s (n bytes left), 0 if it is not one */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (!len || len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void pt_xml_text(FILE *out, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), i = 0;

	while (i < n) {
		size_t len = utf8_len(s + i, n - i);
		unsigned char c = s[i];
		if (!len || (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
			fputc('?', out);
			i += len ? len : 1;
			continue;
		}
		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\n')
			fputs("&#10;", out);
		else
			fwrite(s + i, 1, len, out);
		i += len;
	}
}

void pt_ci_junit(FILE *out, const char *suite, const struct pt_ci_case *cases, size_t n)
{
	size_t i, failures = 0;

	for (i = 0; i < n; i++)
		failures += cases[i].failure != NULL;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites tests=\"%zu\" failures=\"%zu\">\n", n, failures);
	fputs("  <testsuite name=\"", out);
	pt_xml_text(out, suite);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", n,
		failures);
	for (i = 0; i < n; i++) {
		const struct pt_ci_case *c = &cases[i];
		fputs("    <testcase classname=\"", out);
		pt_xml_text(out, suite);
		fputs("\" name=\"", out);
		pt_xml_text(out, c->name);
		fputs("\">", out);
		if (c->failure) {
			fputs("\n      <failure message=\"", out);
			pt_xml_text(out, c->failure);
			fputs("\" type=\"regression\"/>", out);
		}
		if (c->detail) {
			fputs("\n      <system-out>", out);
			pt_xml_text(out, c->detail);
			fputs("</system-out>", out);
		}
		fputs(c->failure || c->detail ? "\n    </testcase>\n" : "</testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
}

void pt_ci_metric_family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# TYPE %s gauge\n# HELP %s %s\n", name, name, help);
}

void pt_ci_metric(FILE *out, const char *name, const char *label, const char *value, double v)
{
	fputs(name, out);
	if (label) {
		const char *s;
		fprintf(out, "{%s=\"", label);
		for (s = value; *s; s++) {
			if (*s == '\\' || *s == '"')
				fputc('\\', out);
			if (*s == '\n')
				fputs("\\n", out);
			else
				fputc(*s, out);
		}
		fputs("\"}", out);
	}
	if (isnan(v))
		fputs(" NaN\n", out);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", out);
	else
		fprintf(out, " %.17g\n", v);
}

void pt_ci_metrics_end(FILE *out)
{
	fputs("# EOF\n", out);
}
