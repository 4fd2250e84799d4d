/* proftool.c: main(): global options, the command table, dispatch, and the final
 * check that everything written to stdout really got out. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "util/xalloc.h"

const struct pt_cmd pt_commands[] = {
	{"top", cmd_top, "heaviest functions, flat and cumulative"},
	{"method", cmd_method, "one function: callers, callees, annotated source lines"},
	{"info", cmd_info, "what a profile holds: format, sample types, totals, metadata"},
	{"convert", cmd_convert, "convert a profile to another format"},
	{"flamegraph", cmd_flamegraph, "draw an interactive flame graph SVG"},
	{"traces", cmd_traces, "every stack with its value, leaf first (pprof -traces)"},
	{"tags", cmd_tags, "every label key with its values and their shares (pprof -tags)"},
	{"tree", cmd_tree, "callers and callees of each function, as pprof -peek"},
	{"goroutines", cmd_goroutines, "a Go goroutine dump grouped by stack, as panicparse"},
	{"merge", cmd_merge, "merge profiles of the same sample types into one"},
	{"export", cmd_export, "write profiles as tables (TSV, CSV) for a column store"},
	{"diff", cmd_diff, "compare two profiles per function; a regression gate for CI"},
	{"heap", cmd_heap, "V8 heap snapshot per constructor: count, shallow, retained; leak diff"},
	{"record", cmd_record, "run a program under its profiler and report on it"},
	{"formats", cmd_formats, "list the formats proftool reads and writes"},
	{"completion", cmd_completion, "print a shell completion script (bash, zsh, fish)"},
};
const size_t pt_ncommands = sizeof(pt_commands) / sizeof(pt_commands[0]);
#define NCOMMANDS pt_ncommands
#define commands  pt_commands

static void usage(FILE *fp)
{
	size_t i;
	fprintf(fp, "usage: proftool [--help] [--version] COMMAND [OPTIONS] [FILE]\n\n"
		    "Read stackprof, perf script, pprof, Chrome .cpuprofile and collapsed "
		    "profiles into one\ncall tree; print reports and convert between formats.\n\n"
		    "Commands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n'proftool COMMAND --help' describes a command's options; 'proftool help "
		    "input' and\n'proftool help filters' the options every reading command "
		    "takes.\n"
		    "Exit status: 0 success, 1 bad input or I/O error, 2 usage error, "
		    "3 regression found (diff).\n");
	pt_manual_hint(fp);
}

static const struct pt_cmd *find_command(const char *name)
{
	size_t i;
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int finish(int ret)
{
	/* a failed write to stdout is an error too (git, perf); said once: a command that
	 * failed (PT_EXIT_INPUT) has printed its own line, perhaps about this very write */
	int said = ret == PT_EXIT_INPUT;

	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE && !said)
			fprintf(stderr, "proftool: write error on standard output: %s\n",
				strerror(errno ? errno : EIO));
		return ret == PT_EXIT_USAGE ? ret : PT_EXIT_INPUT;
	}
	if (fclose(stdout)) {
		if (!said)
			fprintf(stderr, "proftool: write error on standard output: %s\n",
				strerror(errno));
		return ret == PT_EXIT_USAGE ? ret : PT_EXIT_INPUT;
	}
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option global[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const struct pt_cmd *cmd;
	int c, at = 1;

	pt_xalloc_init();
	opterr = 0;
	/* at: the word getopt reads (a cluster such as -sample_index=x is read a letter at
	 * a time, and optind moves past it only at its end) */
	while ((at = optind), (c = getopt_long(argc, argv, "+hV", global, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return finish(PT_EXIT_OK);
		case 'V':
			printf("proftool %s\n", PACKAGE_VERSION);
			return finish(PT_EXIT_OK);
		default:
			fprintf(stderr, "proftool: unknown option '%s' (see 'proftool --help')\n",
				argv[at < argc ? at : argc - 1]);
			return PT_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return PT_EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help")) {
		if (optind + 1 < argc && !pt_help_topic(argv[optind + 1], stdout))
			return finish(PT_EXIT_OK);
		/* `proftool help CMD` is `proftool CMD --help` */
		if (optind + 1 < argc && (cmd = find_command(argv[optind + 1]))) {
			static char help_arg[] = "--help";
			char *args[] = {argv[optind + 1], help_arg, NULL};
			optind = 0;
			return finish(cmd->fn(2, args));
		}
		usage(stdout);
		return finish(PT_EXIT_OK);
	}
	cmd = find_command(argv[optind]);
	if (!cmd) {
		fprintf(stderr, "proftool: unknown command '%s' (see 'proftool --help')\n",
			argv[optind]);
		return PT_EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	optind = 0; /* reinitialize getopt for the command's own parse */
	return finish(cmd->fn(argc, argv));
}
