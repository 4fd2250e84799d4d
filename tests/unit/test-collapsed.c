/* test-collapsed.c: the collapsed tokenizer and writer through the format table. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/load.h"
#include "load.h"
#include "tap.h"

static int load_text(const char *text, struct pt_profile *p, struct pt_diag *d, int lenient)
{
	struct pt_read_opts ro = {.lenient = lenient};
	return unit_load_bytes(text, strlen(text), &ro, p, d);
}

static char *write_collapsed(const struct pt_profile *p, int type)
{
	struct pt_write_opts o;
	struct pt_diag d;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	memset(&o, 0, sizeof(o));
	o.type = type;
	pt_diag_init(&d, "out");
	if (pt_format_find("collapsed")->write(p, &o, fp, &d) < 0) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	return buf;
}

int main(void)
{
	struct pt_profile p;
	struct pt_diag d;
	char *out;

	ok(pt_format_find("collapsed")->detect((const unsigned char *)"a;b 1\na 2\n", 10) > 0,
	   "detects folded lines");
	ok(pt_format_find("collapsed")->detect((const unsigned char *)"\x01\x02\x00", 3) == 0,
	   "binary is not collapsed");

	ok(load_text("a;b 1\na;b 2\na 3   \n\nb;c 1.5\n", &p, &d, 0) == 0,
	   "reads counts, decimals and trailing blanks");
	is_int(p.types[0].decimals, 1, "a decimal count makes the type fixed-point");
	is_int(pt_profile_total(&p, 0), 75, "7.5 stored as 75 tenths");
	out = write_collapsed(&p, 0);
	ok(out && !strcmp(out, "a 3.0\na;b 3.0\nb;c 1.5\n"), "written back aggregated and sorted");
	free(out);
	pt_profile_release(&p);

	ok(load_text("a;b 1 2\na 3 4\n", &p, &d, 0) == 0, "two counts per line");
	is_int(p.ntypes, 2, "two counts are two sample types");
	is_int(pt_profile_total(&p, 1), 6, "the second count is the second type");
	is_int(p.default_type, 1, "the new count is the default");
	pt_profile_release(&p);

	ok(load_text("a;b 1\nnot a stack\n", &p, &d, 0) < 0, "a line without a count fails");
	is_int(d.pos, 2, "the error names line 2");
	ok(d.where == PT_DIAG_LINE, "the error is at a line");
	pt_profile_release(&p);

	ok(load_text("a;b 1\nnot a stack\nc 2\n", &p, &d, 1) == 0, "lenient skips bad lines");
	is_int(d.skipped, 1, "one line skipped");
	is_int(pt_profile_total(&p, 0), 3, "the good lines count");
	pt_profile_release(&p);

	ok(load_text("a;b 99999999999999999999\n", &p, &d, 0) < 0, "a count past int64 fails");
	pt_profile_release(&p);

	/* two trailing numbers read as two counts, as difffolded.pl's format says */
	ok(load_text("x;a b 12 5\n", &p, &d, 0) == 0, "a line ending in two numbers");
	is_int(p.ntypes, 2, "reads as the two-count form");
	pt_profile_release(&p);

	/* names that would break the format are made safe by the writer */
	{
		uint32_t fr[3];
		int64_t v = 5;
		pt_profile_init(&p);
		pt_profile_add_type(&p, "samples", "count");
		fr[0] = pt_profile_simple_frame(&p, "x;y", 3, 0, 0, 0);
		fr[1] = pt_profile_simple_frame(&p, "new\nline", 8, 0, 0, 0);
		fr[2] = pt_profile_simple_frame(&p, "a b 12", 6, 0, 0, 0);
		pt_profile_add_sample(&p, pt_profile_stack(&p, fr, 3, 0), 0, &v, 0);
		out = write_collapsed(&p, 0);
		ok(out && !strcmp(out, "x:y;new?line;a b_12 5\n"),
		   "';' -> ':', control -> '?', a trailing ' 12' joined with '_'");
		free(out);
		pt_profile_release(&p);
	}

	/* sort order is byte order of the whole line, as LC_ALL=C sort */
	ok(load_text("a;x;q 1\na;x!;q 2\na;x 3\n", &p, &d, 0) == 0, "prefix names");
	out = write_collapsed(&p, 0);
	ok(out && !strcmp(out, "a;x 3\na;x!;q 2\na;x;q 1\n"), "lines in C sort order");
	free(out);
	pt_profile_release(&p);
	return tap_done();
}
