/* cmd-formats.c: `proftool formats`: the format table. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "formats/format.h"

static const struct pt_opt *const tables[] = {pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"formats", "formats", "List every profile format with whether it can be read and written.",
	tables, NULL};

int cmd_formats(int argc, char **argv)
{
	size_t i, j;
	int ret;

	if ((ret = pt_cli_parse(&spec, argc, argv, NULL, NULL, NULL)) >= 0)
		return ret;
	if (optind < argc)
		return pt_usage_error(&spec, "unexpected argument '%s'", argv[optind]);

	printf("%-15s %-4s %-5s %-28s %s\n", "FORMAT", "READ", "WRITE", "SUFFIXES", "DESCRIPTION");
	for (i = 0; pt_formats[i]; i++) {
		const struct pt_format *f = pt_formats[i];
		char suffixes[128] = "";
		size_t n = 0;
		for (j = 0; f->suffixes && f->suffixes[j] && n < sizeof(suffixes); j++)
			n += (size_t)snprintf(suffixes + n, sizeof(suffixes) - n, "%s%s",
					      j ? "," : "", f->suffixes[j]);
		printf("%-15s %-4s %-5s %-28s %s\n", f->name, f->read ? "yes" : "no",
		       f->write ? "yes" : "no", *suffixes ? suffixes : "-", f->description);
	}
	return PT_EXIT_OK;
}
