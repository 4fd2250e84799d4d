/* cli.c: option tables -> getopt_long, --help text, and the shared input options. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/pattern.h"
#include "cli/cli.h"
#include "cli/gotrace-go.h"
#include "util/output.h"
#include "util/xalloc.h"

const struct pt_opt pt_help_option[] = {
	{"help", 'h', no_argument, PT_OPT_HELP, NULL, "show this help and exit"},
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_output_option[] = {
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_input_options[] = {
	{"from", 0, required_argument, PT_OPT_FROM, "FORMAT",
	 "read the input as FORMAT instead of detecting it"},
	{"sample-index", 0, required_argument, PT_OPT_SAMPLE_INDEX, "NAME|N",
	 "the sample type to use (default: the profile's default type)"},
	{"lenient", 0, no_argument, PT_OPT_LENIENT, NULL,
	 "skip lines that fit no form (a trace: read past lost nodes); one warning"},
	{"max-input-size", 0, required_argument, PT_OPT_MAX_INPUT_SIZE, "SIZE",
	 "refuse inputs larger than SIZE after decompression (default 8G)"},
	{"seconds", 0, required_argument, PT_OPT_SECONDS, "N",
	 "URL inputs: ask a /debug/pprof/ endpoint for N seconds (adds seconds=N)"},
	{"timeout", 0, required_argument, PT_OPT_TIMEOUT, "SECONDS",
	 "URL inputs: give up after SECONDS (default: the seconds profiled, asked or in the "
	 "URL, and half again; else 60)"},
	{"save", 0, required_argument, PT_OPT_SAVE, "FILE",
	 "URL inputs: also keep the bytes fetched in FILE (default: in $PROFTOOL_SAVE_DIR "
	 "when set, named as pprof names them)"},
	{"quiet", 0, no_argument, PT_OPT_QUIET, NULL,
	 "no progress on a terminal's standard error (shown for reads and merges past 2 s)"},
	{"via-go", 0, no_argument, PT_OPT_VIA_GO, NULL,
	 "Go execution traces: read through go tool trace -pprof, not proftool's reader"},
	{"no-demangle", 0, no_argument, PT_OPT_NO_DEMANGLE, NULL,
	 "keep mangled C++ and Rust names as they are (default: demangled as c++filt)"},
	{"simplify", 0, no_argument, PT_OPT_SIMPLIFY, NULL,
	 "drop template and parameter lists from C++ and Rust names (text; csv/json keep them)"},
	{"symbolize", 0, required_argument, PT_OPT_SYMBOLIZE, "none|local",
	 "name addresses from their binaries' DWARF and symbols (default local; never the "
	 "network)"},
	{"binary-path", 0, required_argument, PT_OPT_BINARY_PATH, "DIR:DIR",
	 "where else to look for binaries, by name and build id (default "
	 "$PROFTOOL_BINARY_PATH)"},
	{"focus", 0, required_argument, PT_OPT_FOCUS, "RE",
	 "keep only stacks with a function matching RE (RE2/PCRE2 syntax: \\d, (?i); man "
	 "proftool, PATTERNS)"},
	{"ignore", 0, required_argument, PT_OPT_IGNORE, "RE",
	 "drop stacks with a function matching RE"},
	{"hide", 0, required_argument, PT_OPT_HIDE, "RE", "remove frames matching RE from stacks"},
	{"show", 0, required_argument, PT_OPT_SHOW, "RE", "keep only frames matching RE in stacks"},
	{"show-from", 0, required_argument, PT_OPT_SHOW_FROM, "RE",
	 "drop the callers of the rootmost frame matching RE (and stacks without one)"},
	{"prune-from", 0, required_argument, PT_OPT_PRUNE_FROM, "RE",
	 "drop the callees of the rootmost frame matching RE"},
	{"match-file", 0, no_argument, PT_OPT_MATCH_FILE, NULL,
	 "the regexes above match the file path too (all unanchored; cost bounded)"},
	{"tag", 0, required_argument, PT_OPT_TAG, "KEY=VALUE",
	 "keep samples whose label KEY is VALUE (repeat: same key ORs, keys AND); a numeric "
	 "label also takes pprof's ranges with units: 1kb:, :64kb, 1mb:2mb"},
	{"tag-ignore", 0, required_argument, PT_OPT_TAG_IGNORE, "KEY=VALUE",
	 "drop samples whose label KEY is VALUE (ranges as --tag; pprof -tagignore)"},
	{"tag-root", 0, required_argument, PT_OPT_TAG_ROOT, "KEY,...",
	 "add each sample's label KEY as a frame at the root of its stack, before the filters "
	 "(pprof -tagroot; the first KEY rootmost)"},
	{"tag-leaf", 0, required_argument, PT_OPT_TAG_LEAF, "KEY,...",
	 "the same at the leaf of each stack (pprof -tagleaf; the last KEY leafmost)"},
	{"thread", 0, required_argument, PT_OPT_THREAD, "TID|NAME",
	 "keep samples of one thread (tid, thread or comm label)"},
	{"process", 0, required_argument, PT_OPT_PID, "PID",
	 "keep samples of one process (a pid label)"},
	{"time-from", 0, required_argument, PT_OPT_TIME_FROM, "SECONDS",
	 "keep samples at or after SECONDS from the first (needs a timeline)"},
	{"time-to", 0, required_argument, PT_OPT_TIME_TO, "SECONDS",
	 "keep samples before SECONDS from the first (needs a timeline)"},
	{"collapse-recursion", 0, no_argument, PT_OPT_COLLAPSE_RECURSION, NULL,
	 "fold recursion: a function already on the stack returns to that frame"},
	{"node-fraction", 0, required_argument, PT_OPT_NODE_FRACTION, "F",
	 "reports leave out entries whose cum is below F of the total (0.005 = 0.5%)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_perf_options[] = {
	{"pid", 0, no_argument, PT_OPT_PERF_PID, NULL,
	 "perf: name the process root frame comm-PID"},
	{"tid", 0, no_argument, PT_OPT_PERF_TID, NULL,
	 "perf: name the process root frame comm-PID/TID"},
	{"addrs", 0, no_argument, PT_OPT_PERF_ADDRS, NULL,
	 "perf: keep the address in the names of unknown symbols"},
	{"no-tidy", 0, no_argument, PT_OPT_PERF_NO_TIDY, NULL,
	 "perf: keep function names exactly as perf printed them"},
	{"event", 0, required_argument, PT_OPT_PERF_EVENT, "EVENT",
	 "perf: keep only the samples of EVENT (as printed, e.g. cpu-clock:u)"},
	{"event-filter", 0, required_argument, PT_OPT_PERF_EVENT, "EVENT", "same as --event"},
	{NULL, 0, 0, 0, NULL, NULL},
};

const struct pt_opt pt_tag_options[] = {
	{"kernel", 0, no_argument, PT_OPT_TAG_KERNEL, NULL, "append _[k] to kernel frames"},
	{"jit", 0, no_argument, PT_OPT_TAG_JIT, NULL, "append _[j] to JIT frames"},
	{"inline", 0, no_argument, PT_OPT_TAG_INLINE, NULL, "append _[i] to inlined frames"},
	{"all", 0, no_argument, PT_OPT_TAG_ALL, NULL,
	 "--kernel and --jit (as stackcollapse-perf.pl's --all)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

int pt_perf_option(struct pt_common *c, int id, const char *arg)
{
	switch (id) {
	case PT_OPT_PERF_PID:
		c->load.read.flags |= PT_READ_PID;
		return 1;
	case PT_OPT_PERF_TID:
		c->load.read.flags |= PT_READ_TID;
		return 1;
	case PT_OPT_PERF_ADDRS:
		c->load.read.flags |= PT_READ_ADDRS;
		return 1;
	case PT_OPT_PERF_NO_TIDY:
		c->load.read.flags |= PT_READ_NO_TIDY;
		return 1;
	case PT_OPT_PERF_EVENT:
		c->load.read.event = arg;
		return 1;
	}
	return 0;
}

int pt_tag_option(uint32_t *flags, int id)
{
	switch (id) {
	case PT_OPT_TAG_KERNEL:
		*flags |= PT_WRITE_TAG_KERNEL;
		return 1;
	case PT_OPT_TAG_JIT:
		*flags |= PT_WRITE_TAG_JIT;
		return 1;
	case PT_OPT_TAG_INLINE:
		*flags |= PT_WRITE_TAG_INLINE;
		return 1;
	case PT_OPT_TAG_ALL:
		*flags |= PT_WRITE_TAG_KERNEL | PT_WRITE_TAG_JIT;
		return 1;
	}
	return 0;
}

void pt_report_args_init(struct pt_report_args *r, int csv_ok, enum pt_granularity gran)
{
	memset(r, 0, sizeof(*r));
	r->nodes = -1;
	r->format = PT_FMT_TEXT;
	r->csv_ok = csv_ok;
	r->gran = gran;
}

long pt_report_limit(const struct pt_report_args *r, long dflt)
{
	if (r->nodes < 0)
		return dflt;
	return r->nodes ? r->nodes : -1;
}

int pt_report_option(struct pt_report_args *r, const struct pt_cmd_spec *spec, int id,
		     const char *arg)
{
	switch (id) {
	case PT_OPT_NODES:
		if (pt_parse_count(arg, &r->nodes) < 0) {
			pt_usage_error(spec, "bad count '%s' for -n", arg);
			return -1;
		}
		return 1;
	case PT_OPT_CUM:
		r->by_cum = 1;
		return 1;
	case PT_OPT_FORMAT:
		if (pt_parse_report_format(arg, &r->format) < 0 ||
		    (r->format == PT_FMT_CSV && !r->csv_ok)) {
			pt_usage_error(spec, "unknown format '%s' (%s)", arg,
				       r->csv_ok ? "text, csv or json" : "text or json");
			return -1;
		}
		return 1;
	case PT_OPT_OUTPUT:
		r->outpath = arg;
		return 1;
	case PT_OPT_GRANULARITY:
		if (pt_parse_granularity(arg, &r->gran) < 0) {
			pt_usage_error(spec,
				       "unknown granularity '%s' (functions, files, lines or "
				       "addresses)",
				       arg);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* a command's tables as getopt_long wants them */
struct pt_getopt {
	struct option *longopts;
	char *shortopts;
	const struct pt_opt *const *tables;
};

static void pt_getopt_init(struct pt_getopt *g, const struct pt_opt *const *tables, int in_order)
{
	struct pt_buf shortopts = PT_BUF_INIT;
	size_t n = 0, i, j;

	for (i = 0; tables[i]; i++)
		for (j = 0; tables[i][j].name; j++)
			n++;
	g->tables = tables;
	g->longopts = pt_xcalloc(n + 1, sizeof(*g->longopts));
	if (in_order)
		pt_buf_addch(&shortopts, '+'); /* stop at the first operand */
	pt_buf_addch(&shortopts, ':');	       /* report missing arguments as ':' */
	n = 0;
	for (i = 0; tables[i]; i++)
		for (j = 0; tables[i][j].name; j++) {
			const struct pt_opt *o = &tables[i][j];
			g->longopts[n].name = o->name;
			g->longopts[n].has_arg = o->has_arg;
			g->longopts[n].flag = NULL;
			g->longopts[n].val = o->id;
			n++;
			if (o->shortopt) {
				pt_buf_addch(&shortopts, o->shortopt);
				if (o->has_arg == required_argument)
					pt_buf_addch(&shortopts, ':');
			}
		}
	g->shortopts = pt_buf_detach(&shortopts, NULL);
}

static void pt_getopt_release(struct pt_getopt *g)
{
	free(g->longopts);
	free(g->shortopts);
}

int pt_usage_error(const struct pt_cmd_spec *spec, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "proftool: %s: ", spec->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'proftool %s --help')\n", spec->name);
	return PT_EXIT_USAGE;
}

/* getopt gives a short option as its letter: the id of the row that has it (a row's
 * id need not be its letter: record's -p is --pid) */
static int short_id(const struct pt_getopt *g, int c)
{
	size_t i, j;

	if (c < 0 || c >= 256)
		return c;
	for (i = 0; g->tables[i]; i++)
		for (j = 0; g->tables[i][j].name; j++)
			if (g->tables[i][j].shortopt == c)
				return g->tables[i][j].id;
	return c;
}

/* go tool pprof's names for options proftool spells otherwise */
static const char *const pprof_names[][2] = {
	{"nodecount", "nodes"},
	{"nodefraction", "node-fraction"},
	{"edgefraction", "edge-fraction"},
	{"tagfocus", "tag"},
	{"tagignore", "tag-ignore"},
	{"output", "output"},
};

/* the long option named by s (up to '=' or its end, of n bytes), '_' read as '-' as
 * pprof's users write them, or by pprof's name for it: its row, or NULL */
static const struct option *long_named(const struct pt_getopt *g, const char *s, size_t n)
{
	const struct option *o;
	size_t i;

	for (i = 0; i < sizeof(pprof_names) / sizeof(pprof_names[0]); i++)
		if (strlen(pprof_names[i][0]) == n && !strncmp(s, pprof_names[i][0], n)) {
			s = pprof_names[i][1];
			n = strlen(s);
			break;
		}
	for (o = g->longopts; o->name; o++) {
		if (strlen(o->name) != n)
			continue;
		for (i = 0; i < n && (s[i] == o->name[i] || (s[i] == '_' && o->name[i] == '-'));
		     i++)
			;
		if (i == n)
			return o;
	}
	return NULL;
}

/* An option written pprof's way, with one dash (-sample_index=1, -focus=x, -nodecount),
 * that would otherwise be read as a cluster of short options or an operand: a usage
 * error naming the long option meant, before getopt reads anything. Stops at "--", and
 * skips the value of a long option given apart ("--focus -x"). */
static int pprof_style(const struct pt_getopt *g, const struct pt_cmd_spec *spec, int argc,
		       char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct option *o;
		size_t n;
		if (!strcmp(a, "--"))
			break;
		if (a[0] != '-' || !a[1])
			continue;
		n = strcspn(a + 1 + (a[1] == '-'), "=");
		o = long_named(g, a + 1 + (a[1] == '-'), n);
		if (a[1] == '-') {
			if (o && o->has_arg == required_argument && !strchr(a, '='))
				i++;
			continue;
		}
		if (n >= 2 && o)
			return pt_usage_error(spec, "unknown option '%s': did you mean '--%s%s'?",
					      a, o->name, a + 1 + n);
	}
	return 0;
}

/* An unknown long option s ("--name" or "--name=value"): the options it is a prefix
 * of when several are (getopt's "ambiguous"), else one spelled alike ('_' for '-'). */
static void unknown_long(const struct pt_getopt *g, const struct pt_cmd_spec *spec, const char *s)
{
	const char *name = s + 2;
	size_t n = strcspn(name, "="), k = 0;
	const struct option *o, *like = long_named(g, name, n);
	struct pt_buf b = PT_BUF_INIT;

	for (o = g->longopts; o->name; o++)
		if (n && !strncmp(o->name, name, n))
			pt_buf_addf(&b, "%s--%s", k++ ? ", " : "", o->name);
	if (k > 1)
		pt_usage_error(spec, "option '%.*s' is ambiguous: %s", (int)n + 2, s, b.buf);
	else if (like)
		pt_usage_error(spec, "unknown option '%s': did you mean '--%s%s'?", s, like->name,
			       name + n);
	else
		pt_usage_error(spec, "unknown option '%s'", s);
	pt_buf_release(&b);
}

/* Like getopt_long: the option's id, -1 at the end. On an unknown option or a missing
 * argument, prints one line naming the command and returns '?'. */
static int pt_getopt_next(struct pt_getopt *g, const struct pt_cmd_spec *spec, int argc,
			  char **argv)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
	if (c == '?') {
		if (optopt && optopt < 256)
			pt_usage_error(spec, "unknown option '-%c'", optopt);
		else
			unknown_long(g, spec, argv[optind - 1]);
		return '?';
	}
	if (c == ':') {
		if (optopt && optopt < 256)
			pt_usage_error(spec, "option '-%c' needs a value", optopt);
		else
			pt_usage_error(spec, "option '%s' needs a value", argv[optind - 1]);
		return '?';
	}
	return short_id(g, c);
}

static int parse(const struct pt_cmd_spec *spec, int argc, char **argv, struct pt_common *common,
		 struct pt_report_args *report, void *own, int in_order)
{
	struct pt_getopt g;
	int c, ret = -1;

	pt_getopt_init(&g, spec->tables, in_order);
	if (common)
		common->spec = spec;
	if (pprof_style(&g, spec, argc, argv))
		ret = PT_EXIT_USAGE;
	while (ret < 0 && (c = pt_getopt_next(&g, spec, argc, argv)) != -1) {
		int r = 0;
		if (c == PT_OPT_HELP) {
			pt_usage(spec, stdout);
			ret = PT_EXIT_OK;
			break;
		}
		/* '?' (already reported) is nobody's, so it ends as a usage error below */
		if (common)
			r = pt_common_option(common, spec, c, optarg);
		if (!r && common)
			r = pt_perf_option(common, c, optarg);
		if (!r && report)
			r = pt_report_option(report, spec, c, optarg);
		if (!r && spec->option)
			r = spec->option(own, spec, c, optarg);
		if (r <= 0)
			ret = PT_EXIT_USAGE;
	}
	pt_getopt_release(&g);
	/* csv and json rows keep the full names */
	if (common && report && report->format != PT_FMT_TEXT)
		common->load.read.flags &= ~(uint32_t)PT_READ_SIMPLIFY;
	return ret;
}

int pt_cli_parse(const struct pt_cmd_spec *spec, int argc, char **argv, struct pt_common *common,
		 struct pt_report_args *report, void *own)
{
	return parse(spec, argc, argv, common, report, own, 0);
}

int pt_cli_parse_in_order(const struct pt_cmd_spec *spec, int argc, char **argv,
			  struct pt_common *common, struct pt_report_args *report, void *own)
{
	return parse(spec, argc, argv, common, report, own, 1);
}

/* the filters among pt_input_options: `proftool help filters`; the rest is `help input` */
static int is_filter(int id)
{
	return (id >= PT_OPT_FOCUS && id <= PT_OPT_COLLAPSE_RECURSION) ||
	       id == PT_OPT_NODE_FRACTION;
}

static void usage_row(const struct pt_opt *o, FILE *fp)
{
	struct pt_buf left = PT_BUF_INIT;

	if (o->shortopt)
		pt_buf_addf(&left, "  -%c, --%s", o->shortopt, o->name);
	else
		pt_buf_addf(&left, "      --%s", o->name);
	if (o->argname)
		pt_buf_addf(&left, " %s", o->argname);
	if (left.len < 30)
		fprintf(fp, "%-30s %s\n", left.buf, o->help);
	else
		fprintf(fp, "%s\n%-30s %s\n", left.buf, "", o->help);
	pt_buf_release(&left);
}

void pt_manual_hint(FILE *fp)
{
	/* the tree's copy when the page is not where `make install` puts it */
	if (access(PT_MAN_INSTALLED, R_OK) != 0 && access(PT_MAN_TREE, R_OK) == 0)
		fprintf(fp, "The manual: man -l %s\n", PT_MAN_TREE);
	else
		fputs("The manual: man proftool\n", fp);
}

void pt_usage(const struct pt_cmd_spec *spec, FILE *fp)
{
	size_t i, j;

	fprintf(fp, "usage: proftool %s\n\n%s\n\n", spec->usage, spec->summary);
	for (i = 0; spec->tables[i]; i++) {
		if (spec->tables[i] == pt_input_options) {
			/* shared by every reading command: listed once, named here */
			fputs(PT_HELP_SHARED_LINE "\n", fp);
			continue;
		}
		for (j = 0; spec->tables[i][j].name; j++)
			usage_row(&spec->tables[i][j], fp);
	}
	pt_manual_hint(fp);
}

int pt_help_topic(const char *topic, FILE *fp)
{
	int filters = !strcmp(topic, "filters");
	size_t j;

	if (!filters && strcmp(topic, "input"))
		return -1;
	fputs(filters ? "Filters of every reading command (top, tree, traces, info, convert, "
			"flamegraph, diff, merge, method, export, tags, goroutines); see FILTERS "
			"and PATTERNS in the manual:\n"
		      : "Input options of every reading command (top, tree, traces, info, convert, "
			"flamegraph, diff, merge, method, export, tags, goroutines):\n",
	      fp);
	for (j = 0; pt_input_options[j].name; j++)
		if (is_filter(pt_input_options[j].id) == filters)
			usage_row(&pt_input_options[j], fp);
	pt_manual_hint(fp);
	return 0;
}

void pt_common_init(struct pt_common *c)
{
	memset(c, 0, sizeof(*c));
	c->load.read.via_go = pt_gotrace_via_go;
}

int pt_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		mul = 1ULL << 10;
		end++;
		break;
	case 'm':
	case 'M':
		mul = 1ULL << 20;
		end++;
		break;
	case 'g':
	case 'G':
		mul = 1ULL << 30;
		end++;
		break;
	case 't':
	case 'T':
		mul = 1ULL << 40;
		end++;
		break;
	}
	if (*end || (v && mul > UINT64_MAX / v))
		return -1;
	*out = v * mul;
	return 0;
}

int pt_parse_count(const char *s, long *out)
{
	char *end;
	long v;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;
	if (!*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v >= 0) || v > 1e12)
		return -1;
	*out = v;
	return 0;
}

static int check_regex(const struct pt_cmd_spec *spec, const char *opt, const char *re)
{
	char msg[256];
	struct pt_pattern *r = pt_pattern_compile(re, msg, sizeof(msg));
	if (!r) {
		pt_usage_error(spec, "bad regular expression '%s' for --%s: %s", re, opt, msg);
		return -1;
	}
	pt_pattern_free(r);
	return 0;
}

/* the regex filters: each option's name and its field of struct pt_filter */
static const struct {
	int id;
	const char *name;
	size_t field;
} regex_filters[] = {
	{PT_OPT_FOCUS, "focus", offsetof(struct pt_filter, focus)},
	{PT_OPT_IGNORE, "ignore", offsetof(struct pt_filter, ignore)},
	{PT_OPT_HIDE, "hide", offsetof(struct pt_filter, hide)},
	{PT_OPT_SHOW, "show", offsetof(struct pt_filter, show)},
	{PT_OPT_SHOW_FROM, "show-from", offsetof(struct pt_filter, show_from)},
	{PT_OPT_PRUNE_FROM, "prune-from", offsetof(struct pt_filter, prune_from)},
};

static int filter_option(struct pt_common *c, const struct pt_cmd_spec *spec, int id,
			 const char *arg)
{
	struct pt_filter *f = &c->filter;
	size_t i;

	for (i = 0; i < sizeof(regex_filters) / sizeof(regex_filters[0]); i++)
		if (regex_filters[i].id == id) {
			*(const char **)((char *)f + regex_filters[i].field) = arg;
			return check_regex(spec, regex_filters[i].name, arg) < 0 ? -1 : 1;
		}
	switch (id) {
	case PT_OPT_MATCH_FILE:
		f->match_file = 1;
		return 1;
	case PT_OPT_TAG:
		if (pt_filter_add_tag(f, arg) < 0) {
			pt_usage_error(spec, "bad label condition '%s' for --tag (KEY=VALUE)", arg);
			return -1;
		}
		return 1;
	case PT_OPT_TAG_IGNORE:
		if (pt_filter_add_tag_ignore(f, arg) < 0) {
			pt_usage_error(spec, "bad label condition '%s' for --tag-ignore (KEY=VALUE)",
				       arg);
			return -1;
		}
		return 1;
	case PT_OPT_TAG_ROOT:
		f->tag_root = arg;
		return 1;
	case PT_OPT_TAG_LEAF:
		f->tag_leaf = arg;
		return 1;
	case PT_OPT_THREAD:
	case PT_OPT_PID:
		if (!*arg || (id == PT_OPT_THREAD ? pt_filter_add_thread(f, arg)
						  : pt_filter_add_pid(f, arg)) < 0) {
			pt_usage_error(spec, "bad value '%s' for --%s", arg,
				       id == PT_OPT_THREAD ? "thread" : "process");
			return -1;
		}
		return 1;
	case PT_OPT_TIME_FROM:
	case PT_OPT_TIME_TO:
		if (parse_seconds(arg, id == PT_OPT_TIME_FROM ? &f->time_from : &f->time_to) < 0) {
			pt_usage_error(spec, "bad time '%s' for --%s (seconds, like 1.5)", arg,
				       id == PT_OPT_TIME_FROM ? "time-from" : "time-to");
			return -1;
		}
		if (id == PT_OPT_TIME_FROM)
			f->has_time_from = 1;
		else
			f->has_time_to = 1;
		return 1;
	case PT_OPT_COLLAPSE_RECURSION:
		f->collapse_recursion = 1;
		return 1;
	case PT_OPT_NODE_FRACTION:
		if (parse_seconds(arg, &c->node_fraction) < 0 || c->node_fraction > 1) {
			pt_usage_error(spec, "bad fraction '%s' for --node-fraction (0 to 1)", arg);
			return -1;
		}
		c->node_fraction_set = 1;
		return 1;
	}
	return 0;
}

int pt_common_option(struct pt_common *c, const struct pt_cmd_spec *spec, int id, const char *arg)
{
	switch (id) {
	case PT_OPT_FROM:
		c->load.from = arg;
		return 1;
	case PT_OPT_SAMPLE_INDEX:
		c->sample_index = arg;
		return 1;
	case PT_OPT_LENIENT:
		c->load.read.lenient = 1;
		return 1;
	case PT_OPT_QUIET:
		c->quiet = 1;
		return 1;
	case PT_OPT_VIA_GO:
		c->load.read.flags |= PT_READ_VIA_GO;
		return 1;
	case PT_OPT_NO_DEMANGLE:
		c->load.read.flags |= PT_READ_NO_DEMANGLE;
		return 1;
	case PT_OPT_SIMPLIFY:
		c->load.read.flags |= PT_READ_SIMPLIFY;
		return 1;
	case PT_OPT_SYMBOLIZE:
		if (strcmp(arg, "none") && strcmp(arg, "local")) {
			pt_usage_error(spec, "bad value '%s' for --symbolize (none or local)", arg);
			return -1;
		}
		c->no_symbolize = !strcmp(arg, "none");
		return 1;
	case PT_OPT_BINARY_PATH:
		c->binary_path = arg;
		return 1;
	case PT_OPT_MAX_INPUT_SIZE:
		if (pt_parse_size(arg, &c->load.max_size) < 0 || !c->load.max_size) {
			pt_usage_error(spec, "bad size '%s' for --max-input-size", arg);
			return -1;
		}
		return 1;
	case PT_OPT_SAVE:
		c->save = arg;
		return 1;
	case PT_OPT_SECONDS:
	case PT_OPT_TIMEOUT: {
		long v;
		if (pt_parse_count(arg, &v) < 0 || v < 1 || v > 86400 * 365) {
			pt_usage_error(spec, "bad number of seconds '%s' for --%s", arg,
				       id == PT_OPT_SECONDS ? "seconds" : "timeout");
			return -1;
		}
		if (id == PT_OPT_SECONDS)
			c->load.seconds = v;
		else
			c->load.timeout = v;
		return 1;
	}
	}
	return filter_option(c, spec, id, arg);
}

int pt_cli_fail(const struct pt_diag *d)
{
	pt_diag_print(d, stderr);
	return PT_EXIT_INPUT;
}

int pt_cli_one_file(const struct pt_cmd_spec *spec, int argc, char **argv, const char **path)
{
	if (argc - optind > 1)
		return pt_usage_error(spec, "one FILE at a time");
	if (optind < argc)
		*path = argv[optind];
	return 0;
}

struct write_ctx {
	const struct pt_format *f;
	const struct pt_profile *p;
	const struct pt_write_opts *o;
};

static int emit_write(void *ctx, FILE *out, struct pt_diag *d)
{
	struct write_ctx *c = ctx;
	return c->f->write(c->p, c->o, out, d);
}

int pt_cli_write(const char *outpath, const char *inpath, const struct pt_format *f,
		 const struct pt_profile *p, const struct pt_write_opts *o)
{
	struct pt_write_opts wo = *o;
	struct write_ctx c = {f, p, &wo};
	int ret = pt_cli_binary_terminal(outpath, f);

	if (ret)
		return ret;
	/* the input's name, for titles: not the stand-ins for standard input and output */
	if (!wo.input && inpath && strcmp(inpath, "-") && inpath[0] != '<')
		wo.input = inpath;
	return pt_cli_emit(outpath, inpath, emit_write, &c);
}

int pt_cli_stdin_terminal(const struct pt_cmd_spec *spec, const char *name, const char *inpath)
{
	if (strcmp(inpath, "-") || !isatty(STDIN_FILENO))
		return 0;
	if (spec)
		fprintf(stderr, "usage: proftool %s\n", spec->usage);
	fprintf(stderr,
		"proftool: %s: no profile is read from a terminal: give a FILE, or pipe one in "
		"(see 'proftool %s --help')\n",
		name, name);
	return PT_EXIT_USAGE;
}

int pt_cli_binary_terminal(const char *outpath, const struct pt_format *f)
{
	if (!f->binary || (outpath && strcmp(outpath, "-")) || !isatty(STDOUT_FILENO))
		return 0;
	fprintf(stderr,
		"proftool: %s output is binary: not written to a terminal (use -o FILE, or a "
		"pipe)\n",
		f->name);
	return PT_EXIT_USAGE;
}

int pt_cli_emit(const char *outpath, const char *inpath, pt_emit_fn emit, void *ctx)
{
	struct pt_output out;
	struct pt_diag d;

	pt_diag_init(&d, inpath);
	if (pt_output_open(&out, outpath, &d) < 0)
		return pt_cli_fail(&d);
	d.path = inpath;
	if (emit(ctx, out.fp, &d) < 0) {
		pt_output_abort(&out);
		return pt_cli_fail(&d);
	}
	if (pt_output_commit(&out, &d) < 0)
		return pt_cli_fail(&d);
	/* what a writer left out (svg and html past --max-frames), said once */
	pt_diag_print_warnings(&d, stderr);
	return PT_EXIT_OK;
}

void pt_cli_print_filters(const struct pt_filter_log *log, const struct pt_profile *p, uint32_t t,
			  FILE *fp)
{
	struct pt_buf b = PT_BUF_INIT;
	pt_filter_log_describe(log, p, t, &b);
	fwrite(b.buf, 1, b.len, fp);
	pt_buf_release(&b);
}
