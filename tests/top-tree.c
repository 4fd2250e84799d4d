/* top-tree.c: `top-tree top ARGS...` runs proftool's top through the library with its
 * table always from the call tree (cmd_top_tree), for t0025 to compare with the table
 * proftool folds while reading: both ways must print the same bytes. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "util/xalloc.h"

int main(int argc, char **argv)
{
	int ret;

	if (argc < 2 || strcmp(argv[1], "top")) {
		fprintf(stderr, "usage: top-tree top [OPTIONS] [FILE...]\n");
		return PT_EXIT_USAGE;
	}
	pt_xalloc_init();
	optind = 0;
	ret = cmd_top_tree(argc - 1, argv + 1);
	if (fflush(stdout) || ferror(stdout))
		return PT_EXIT_INPUT;
	return ret;
}
