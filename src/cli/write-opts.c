/* write-opts.c: option tables and parsing for the writers' own options. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/write-opts.h"

/* between the shared input options (256...) and the commands' own (512...) */
enum {
	OPT_NODECOUNT = 400,
	OPT_EDGE_FRACTION,
	OPT_TITLE,
	OPT_WIDTH,
	OPT_MINWIDTH,
	OPT_COLORS,
	OPT_INVERTED,
	OPT_FLAMECHART,
	OPT_MIN_FRACTION,
	OPT_SOURCE_PATH,
};

const struct pt_opt pt_dot_options[] = {
	{"nodecount", 0, required_argument, OPT_NODECOUNT, "N",
	 "dot: show at most N nodes, 0 for all (default 80)"},
	{"edge-fraction", 0, required_argument, OPT_EDGE_FRACTION, "F",
	 "dot: drop edges below F of the total (default 0.001)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_svg_options[] = {
	{"title", 0, required_argument, OPT_TITLE, "TEXT",
	 "svg: the title (default \"Flame Graph\")"},
	{"width", 0, required_argument, OPT_WIDTH, "PIXELS", "svg: image width (default 1200)"},
	{"minwidth", 0, required_argument, OPT_MINWIDTH, "PIXELS",
	 "svg: leave out frames narrower than this (default 0.1)"},
	{"colors", 0, required_argument, OPT_COLORS, "PALETTE",
	 "svg: hot (default), mem, io, java, js, perl, red, green, blue, ... (man page)"},
	{"inverted", 0, no_argument, OPT_INVERTED, NULL, "svg: icicle graph, roots at the top"},
	{"flamechart", 0, no_argument, OPT_FLAMECHART, NULL,
	 "svg: stacks in time order where the input has a timeline (flame chart)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_html_options[] = {
	{"min-fraction", 0, required_argument, OPT_MIN_FRACTION, "F",
	 "html: draw frames below F of the total as part of their parent (default 0.0001)"},
	{"source-path", 0, required_argument, OPT_SOURCE_PATH, "DIR[:DIR...]",
	 "html: embed the source lines of functions whose file is found under DIR"},
	{NULL, 0, 0, 0, NULL, NULL},
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
	size_t i;

	switch (id) {
	case OPT_NODECOUNT:
		if (pt_parse_count(arg, &o->nodecount) < 0)
			goto bad;
		return 1;
	case OPT_EDGE_FRACTION:
		if (parse_double(arg, &v) < 0 || v > 1)
			goto bad;
		o->edge_fraction = v;
		return 1;
	case OPT_TITLE:
		o->title = arg;
		return 1;
	case OPT_WIDTH:
		if (pt_parse_count(arg, &n) < 0 || n < 10 || n > 1000000)
			goto bad;
		o->width = n;
		return 1;
	case OPT_MINWIDTH:
		if (parse_double(arg, &v) < 0)
			goto bad;
		o->minwidth = v;
		return 1;
	case OPT_COLORS:
		for (i = 0; palettes[i]; i++)
			if (!strcmp(palettes[i], arg))
				break;
		if (!palettes[i]) {
			pt_usage_error(spec, "unknown palette '%s' for --colors", arg);
			return -1;
		}
		o->colors = palettes[i];
		return 1;
	case OPT_INVERTED:
		o->flags |= PT_WRITE_INVERTED;
		return 1;
	case OPT_FLAMECHART:
		o->flags |= PT_WRITE_FLAMECHART;
		return 1;
	case OPT_MIN_FRACTION:
		if (parse_double(arg, &v) < 0 || v > 1)
			goto bad;
		o->min_fraction = v;
		return 1;
	case OPT_SOURCE_PATH:
		o->source_path = arg;
		return 1;
	}
	return 0;
bad:
	for (i = 0; pt_dot_options[i].name; i++)
		if (pt_dot_options[i].id == id)
			pt_usage_error(spec, "bad value '%s' for --%s", arg,
				       pt_dot_options[i].name);
	for (i = 0; pt_svg_options[i].name; i++)
		if (pt_svg_options[i].id == id)
			pt_usage_error(spec, "bad value '%s' for --%s", arg,
				       pt_svg_options[i].name);
	for (i = 0; pt_html_options[i].name; i++)
		if (pt_html_options[i].id == id)
			pt_usage_error(spec, "bad value '%s' for --%s", arg,
				       pt_html_options[i].name);
	return -1;
}
