/* cmd.h: one function per subcommand, each in src/cli/cmd-<name>.c. They parse their
 * options, run the pipeline and print; they return the exit status. */
#ifndef PT_CMD_H
#define PT_CMD_H

#include <stddef.h>

int cmd_formats(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_top(int argc, char **argv);
/* top with its table always from the call tree, never folded while reading: the same
 * output by the other way, which tests/top-tree.c runs to compare the two */
int cmd_top_tree(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_traces(int argc, char **argv);
int cmd_tags(int argc, char **argv);
int cmd_method(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_goroutines(int argc, char **argv);
int cmd_heap(int argc, char **argv);
struct pt_heapgraph;
/* convert's page of a heap graph g read from path (heap -o FILE.html's: the summary by
 * class and the retainers, DevTools' sizes) into outpath (NULL or "-": stdout); g is
 * the caller's. Returns 0 or the exit status. */
int pt_heap_page(struct pt_heapgraph *g, const char *path, const char *outpath);
int cmd_completion(int argc, char **argv);

/* the command table (proftool.c), in `proftool --help` order */
struct pt_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};
extern const struct pt_cmd pt_commands[];
extern const size_t pt_ncommands;

#endif
