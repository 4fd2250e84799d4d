/* cli.h: option tables shared by the commands. Each command describes its options once
 * in a struct pt_opt table; the getopt_long arrays and the --help text are both made
 * from it, so help cannot drift from the parser (git's parse-options, in small). */
#ifndef PT_CLI_H
#define PT_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/filter.h"
#include "formats/load.h"
#include "report/report.h"

/* exit statuses (documented in the man page) */
enum {
	PT_EXIT_OK = 0,
	PT_EXIT_INPUT = 1, /* bad input, I/O error */
	PT_EXIT_USAGE = 2,
	PT_EXIT_REGRESSION = 3,
};

struct pt_opt {
	const char *name;    /* long name, NULL ends a table */
	int shortopt;	     /* 0 if none */
	int has_arg;	     /* no_argument or required_argument */
	int id;		     /* what the parse hands on, short or long: enum pt_opt_id */
	const char *argname; /* "N", "FILE", ... for the help text */
	const char *help;
};

/* Every option id, from one enum so no two tables can share one: the short options
 * are their letter, the long-only ones count up from 256, and each command numbers its
 * own from PT_OPT_CMD_BASE (ids repeat only across commands, which never share a
 * parse). */
enum pt_opt_id {
	PT_OPT_HELP = 'h',
	PT_OPT_NODES = 'n',
	PT_OPT_OUTPUT = 'o',
	/* every profile-reading command: the input and the filters (analysis/filter.h) */
	PT_OPT_FROM = 256,
	PT_OPT_SAMPLE_INDEX,
	PT_OPT_LENIENT,
	PT_OPT_MAX_INPUT_SIZE,
	PT_OPT_FOCUS,
	PT_OPT_IGNORE,
	PT_OPT_HIDE,
	PT_OPT_SHOW,
	PT_OPT_SHOW_FROM,
	PT_OPT_PRUNE_FROM,
	PT_OPT_MATCH_FILE,
	PT_OPT_TAG,
	PT_OPT_TAG_IGNORE,
	PT_OPT_TAG_ROOT,
	PT_OPT_TAG_LEAF,
	PT_OPT_THREAD,
	PT_OPT_PID,
	PT_OPT_TIME_FROM,
	PT_OPT_TIME_TO,
	PT_OPT_COLLAPSE_RECURSION,
	PT_OPT_NO_DEMANGLE, /* names */
	PT_OPT_SIMPLIFY,
	PT_OPT_SYMBOLIZE, /* addresses */
	PT_OPT_BINARY_PATH,
	PT_OPT_NODE_FRACTION,
	PT_OPT_SECONDS, /* URL inputs */
	PT_OPT_TIMEOUT,
	PT_OPT_SAVE,
	PT_OPT_VIA_GO, /* Go execution traces */
	PT_OPT_QUIET,  /* no progress */
	/* perf script reading */
	PT_OPT_PERF_PID,
	PT_OPT_PERF_TID,
	PT_OPT_PERF_ADDRS,
	PT_OPT_PERF_NO_TIDY,
	PT_OPT_PERF_EVENT,
	/* the reports' -n, --cum, --format, -o, --granularity */
	PT_OPT_CUM,
	PT_OPT_FORMAT,
	PT_OPT_GRANULARITY,
	/* the writers' options (cli/write-opts.c), by the table a format's row names */
	PT_OPT_TAG_KERNEL,
	PT_OPT_TAG_JIT,
	PT_OPT_TAG_INLINE,
	PT_OPT_TAG_ALL,
	PT_OPT_NODECOUNT,
	PT_OPT_EDGE_FRACTION,
	PT_OPT_TITLE,
	PT_OPT_WIDTH,
	PT_OPT_MINWIDTH,
	PT_OPT_MAX_FRAMES,
	PT_OPT_COLORS,
	PT_OPT_INVERTED,
	PT_OPT_FLAMECHART,
	PT_OPT_MIN_FRACTION,
	PT_OPT_SOURCE_PATH,
	PT_OPT_NO_GZIP,
	PT_OPT_CMD_BASE, /* commands number their own options from here */
};

extern const struct pt_opt pt_input_options[]; /* --from, --sample-index, filters, ... */

/* perf script reading options (--pid, --tid, --addrs, --no-tidy, --event) and the
 * collapsed/flame graph frame tags (--kernel, --jit, --inline, --all) */
extern const struct pt_opt pt_perf_options[];
extern const struct pt_opt pt_tag_options[];
extern const struct pt_opt pt_help_option[]; /* just --help */
/* just -o FILE, "write to FILE instead of stdout" (a report's only option) */
extern const struct pt_opt pt_output_option[];

/* What and where a command prints: -n, --cum, --format, -o, --granularity, handled by
 * pt_report_option. Each command words the help itself, so its table
 * lists the rows it takes with these macros (git's OPT_* in parse-options.h). */
#define PT_OPT_NODES_ROW(help)                                                                     \
	{                                                                                          \
		"nodes", 'n', required_argument, PT_OPT_NODES, "N", help                           \
	}
#define PT_OPT_CUM_ROW(help)                                                                       \
	{                                                                                          \
		"cum", 0, no_argument, PT_OPT_CUM, NULL, help                                      \
	}
#define PT_OPT_FORMAT_ROW(argname, help)                                                           \
	{                                                                                          \
		"format", 0, required_argument, PT_OPT_FORMAT, argname, help                       \
	}
#define PT_OPT_OUTPUT_ROW(help)                                                                    \
	{                                                                                          \
		"output", 'o', required_argument, PT_OPT_OUTPUT, "FILE", help                      \
	}
#define PT_OPT_GRANULARITY_ROW(help)                                                               \
	{                                                                                          \
		"granularity", 0, required_argument, PT_OPT_GRANULARITY,                           \
			"functions|files|lines|addresses", help                                    \
	}

struct pt_report_args {
	long nodes; /* -n N; -1 if not given (see pt_report_limit) */
	int by_cum;
	enum pt_report_format format;
	int csv_ok;	     /* --format csv is accepted (text and json always are) */
	const char *outpath; /* NULL = stdout */
	enum pt_granularity gran;
};
/* text and json, and csv if csv_ok; gran is the command's default granularity */
void pt_report_args_init(struct pt_report_args *r, int csv_ok, enum pt_granularity gran);
/* the row limit for a report: -n N, where 0 is all (-1); without -n, dflt */
long pt_report_limit(const struct pt_report_args *r, long dflt);

struct pt_cmd_spec;
/* 1 if id was the command's option (handled), 0 if not, -1 on a bad value (printed) */
typedef int (*pt_option_fn)(void *ctx, const struct pt_cmd_spec *spec, int id, const char *arg);

struct pt_cmd_spec {
	const char *name;
	const char *usage;		    /* "top [OPTIONS] [FILE]" */
	const char *summary;		    /* one line */
	const struct pt_opt *const *tables; /* NULL-terminated list of tables */
	pt_option_fn option;		    /* the command's own options; NULL if none */
};

void pt_usage(const struct pt_cmd_spec *spec, FILE *fp);
/* `proftool help input` and `proftool help filters`: the shared options that each
 * command's --help names in one line; -1 for another topic */
int pt_help_topic(const char *topic, FILE *fp);
/* the line of a command's --help that names them */
#define PT_HELP_SHARED_LINE                                                                        \
	"Also the input options and filters of every reading command: proftool help input, "     \
	"proftool help filters"
/* where the manual is: `man proftool`, or `man -l` on the tree's copy when the page is
 * not installed */
void pt_manual_hint(FILE *fp);
/* print "proftool: CMD: MSG (see 'proftool CMD --help')" and return PT_EXIT_USAGE */
int pt_usage_error(const struct pt_cmd_spec *spec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Options every profile-reading command shares, parsed into one struct. */
struct pt_common {
	const struct pt_cmd_spec *spec; /* the command parsing into it (pt_cli_parse) */
	const char *save;		/* URL inputs: --save FILE, or NULL */
	int quiet;			/* --quiet: no progress on a terminal */
	struct pt_load_opts load;
	const char *sample_index; /* NULL = the profile's default */
	struct pt_filter filter;  /* applied by pt_cli_load */
	double node_fraction;
	int node_fraction_set;
	int no_symbolize;	  /* --symbolize none */
	const char *binary_path; /* --binary-path, else $PROFTOOL_BINARY_PATH */
	/* given on the command line (reports have their own default) */ /* reports drop
									    entries with cum
									    below this share
									  */
};
void pt_common_init(struct pt_common *c);
/* 1 if id was a common option (handled), 0 if not, -1 on a bad value (printed) */
int pt_common_option(struct pt_common *c, const struct pt_cmd_spec *spec, int id, const char *arg);

/* 1 if id was a perf reading option (stored in c->load.read), 0 if not */
int pt_perf_option(struct pt_common *c, int id, const char *arg);
/* 1 if id was a tag option (PT_WRITE_TAG_* added to *flags), 0 if not */
int pt_tag_option(uint32_t *flags, int id);
/* 1 if id was a report option (stored in r), 0 if not, -1 on a bad value (printed) */
int pt_report_option(struct pt_report_args *r, const struct pt_cmd_spec *spec, int id,
		     const char *arg);

/* Parse a command's options up to its operands (optind is left at the first): --help,
 * the common and perf options into *common, the report options into *report (either
 * NULL if the command takes none) and the rest by spec->option(own, ...). Returns -1
 * when the command should run, else its exit status: PT_EXIT_OK after printing --help,
 * PT_EXIT_USAGE after an unknown option or a bad value (printed). */
int pt_cli_parse(const struct pt_cmd_spec *spec, int argc, char **argv, struct pt_common *common,
		 struct pt_report_args *report, void *own);
/* The same, stopping at the first operand: what follows is another program's command
 * line (record), whose options are its own. */
int pt_cli_parse_in_order(const struct pt_cmd_spec *spec, int argc, char **argv,
			  struct pt_common *common, struct pt_report_args *report, void *own);

/* one line per filter step: "Filter: WHAT removed V of TOTAL (P%)" in type t */
void pt_cli_print_filters(const struct pt_filter_log *log, const struct pt_profile *p, uint32_t t,
			  FILE *fp);
/* When inpath is "-" and standard input is a terminal: print the command's usage line
 * and that it reads no profile from a terminal, and return PT_EXIT_USAGE; else 0. */
int pt_cli_stdin_terminal(const struct pt_cmd_spec *spec, const char *name, const char *inpath);
/* When f's output is binary and outpath (NULL or "-": stdout) is a terminal: print one
 * line naming -o and return PT_EXIT_USAGE; else 0. pt_cli_write asks it itself. */
int pt_cli_binary_terminal(const char *outpath, const struct pt_format *f);
/* print a diag and return PT_EXIT_INPUT */
int pt_cli_fail(const struct pt_diag *d);
/* At most one FILE operand after the options: *path is set to it, or left as it was
 * (stdin) without one. Returns 0, or prints a usage error and returns PT_EXIT_USAGE. */
int pt_cli_one_file(const struct pt_cmd_spec *spec, int argc, char **argv, const char **path);

/* Write a command's output: emit(ctx, out, d) into outpath (NULL or "-" = stdout; a
 * file is replaced atomically, see output.h). d->path names inpath while emit runs, so
 * its errors speak of the input. Any failure is printed; returns the exit status. */
typedef int (*pt_emit_fn)(void *ctx, FILE *out, struct pt_diag *d);
int pt_cli_emit(const char *outpath, const char *inpath, pt_emit_fn emit, void *ctx);

/* pt_cli_emit of a writer: format f writes profile p with options o */
int pt_cli_write(const char *outpath, const char *inpath, const struct pt_format *f,
		 const struct pt_profile *p, const struct pt_write_opts *o);

/* parse "123", "64K", "8G" (powers of 1024) */
int pt_parse_size(const char *s, uint64_t *out);
/* parse a non-negative decimal integer that fits in long */
int pt_parse_count(const char *s, long *out);

#endif
