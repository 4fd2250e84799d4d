/* write-opts.c: option tables and parsing for the writers' own options, one table per
 * group a format's row names (PT_WOPTS_*). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/write-opts.h"

const struct pt_opt pt_dot_options[] = {
	{"nodecount", 0, required_argument, PT_OPT_NODECOUNT, "N",
	 "dot: show at most N nodes, 0 for all (default 80)"},
	{"edge-fraction", 0, required_argument, PT_OPT_EDGE_FRACTION, "F",
	 "dot: drop edges below F of the total (default 0.001)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_svg_options[] = {
	{"title", 0, required_argument, PT_OPT_TITLE, "TEXT",
	 "svg: the title (default \"Flame Graph\")"},
	{"width", 0, required_argument, PT_OPT_WIDTH, "PIXELS", "svg: image width (default 1200)"},
	{"minwidth", 0, required_argument, PT_OPT_MINWIDTH, "PIXELS",
	 "svg: leave out frames narrower than this (default 0.1)"},
	{"max-frames", 0, required_argument, PT_OPT_MAX_FRAMES, "N",
	 "svg, html: draw at most N frames, the widest; 0 for all (default 50000)"},
	{"colors", 0, required_argument, PT_OPT_COLORS, "PALETTE",
	 "svg: hot (default), mem, io, java, js, perl, red, green, blue, ... (man page)"},
	{"inverted", 0, no_argument, PT_OPT_INVERTED, NULL, "svg: icicle graph, roots at the top"},
	{"flamechart", 0, no_argument, PT_OPT_FLAMECHART, NULL,
	 "svg: stacks in time order where the input has a timeline (flame chart)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_html_options[] = {
	{"min-fraction", 0, required_argument, PT_OPT_MIN_FRACTION, "F",
	 "html: draw frames below F of the total as part of their parent (default 0.0001)"},
	{"source-path", 0, required_argument, PT_OPT_SOURCE_PATH, "DIR[:DIR...]",
	 "html: embed the source lines of functions whose file is found under DIR"},
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_gzip_options[] = {
	{"no-gzip", 0, no_argument, PT_OPT_NO_GZIP, NULL,
	 "pprof: write the raw protobuf instead of gzipping it"},
	{NULL, 0, 0, 0, NULL, NULL},
};

/* each group's table, in the order --help lists them */
static const struct {
	unsigned group;
	const struct pt_opt *table;
} groups[] = {
	{PT_WOPTS_GZIP, pt_gzip_options}, {PT_WOPTS_DOT, pt_dot_options},
	{PT_WOPTS_SVG, pt_svg_options},	  {PT_WOPTS_HTML, pt_html_options},
	{PT_WOPTS_TAGS, pt_tag_options},
};

static const char *const palettes[] = {"hot",	"mem",	"io",	"wakeup", "chain",  "red",
				       "green", "blue", "aqua", "yellow", "purple", "orange",
				       "java",	"js",	"perl", NULL};

static int parse_double(const char *s, double *out)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

int pt_write_option(struct pt_write_opts *o, const struct pt_cmd_spec *spec, int id,
		    const char *arg)
{
	double v;
	long n;
	size_t i, k;

	switch (id) {
	case PT_OPT_NODECOUNT:
		if (pt_parse_count(arg, &o->nodecount) < 0)
			goto bad;
		return 1;
	case PT_OPT_EDGE_FRACTION:
		if (parse_double(arg, &v) < 0 || v > 1)
			goto bad;
		o->edge_fraction = v;
		return 1;
	case PT_OPT_TITLE:
		o->title = arg;
		return 1;
	case PT_OPT_WIDTH:
		if (pt_parse_count(arg, &n) < 0 || n < 10 || n > 1000000)
			goto bad;
		o->width = n;
		return 1;
	case PT_OPT_MINWIDTH:
		if (parse_double(arg, &v) < 0)
			goto bad;
		o->minwidth = v;
		return 1;
	case PT_OPT_MAX_FRAMES:
		if (pt_parse_count(arg, &o->max_frames) < 0)
			goto bad;
		return 1;
	case PT_OPT_COLORS:
		for (i = 0; palettes[i]; i++)
			if (!strcmp(palettes[i], arg))
				break;
		if (!palettes[i]) {
			pt_usage_error(spec, "unknown palette '%s' for --colors", arg);
			return -1;
		}
		o->colors = palettes[i];
		return 1;
	case PT_OPT_INVERTED:
		o->flags |= PT_WRITE_INVERTED;
		return 1;
	case PT_OPT_FLAMECHART:
		o->flags |= PT_WRITE_FLAMECHART;
		return 1;
	case PT_OPT_MIN_FRACTION:
		if (parse_double(arg, &v) < 0 || v > 1)
			goto bad;
		o->min_fraction = v;
		return 1;
	case PT_OPT_SOURCE_PATH:
		o->source_path = arg;
		return 1;
	case PT_OPT_NO_GZIP:
		o->flags |= PT_WRITE_NO_GZIP;
		return 1;
	}
	return pt_tag_option(&o->flags, id);
bad:
	for (k = 0; k < sizeof(groups) / sizeof(groups[0]); k++)
		for (i = 0; groups[k].table[i].name; i++)
			if (groups[k].table[i].id == id)
				pt_usage_error(spec, "bad value '%s' for --%s", arg,
					       groups[k].table[i].name);
	return -1;
}

size_t pt_write_tables(unsigned want, const struct pt_opt **tables)
{
	size_t k, n = 0;

	for (k = 0; k < sizeof(groups) / sizeof(groups[0]); k++)
		if (want & groups[k].group)
			tables[n++] = groups[k].table;
	return n;
}

unsigned pt_write_groups(void)
{
	unsigned g = 0;
	size_t i;

	for (i = 0; pt_formats[i]; i++)
		if (pt_formats[i]->write)
			g |= pt_formats[i]->write_opts;
	return g;
}
