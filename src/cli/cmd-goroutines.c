/* cmd-goroutines.c: `proftool goroutines`: a Go goroutine dump with identical stacks
 * grouped, largest group (or the one waiting longest) first, as panicparse prints it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/driver.h"
#include "report/report.h"

enum { OPT_EXACT_ARGS = PT_OPT_CMD_BASE, OPT_SORT };

static const struct pt_opt goroutines_options[] = {
	PT_OPT_NODES_ROW("show the first N groups; 0 shows all (the default)"),
	PT_OPT_FORMAT_ROW("text|csv|json", "output format (csv: execution traces only)"),
	PT_OPT_OUTPUT_ROW("write to FILE instead of stdout"),
	{"exact-args", 0, no_argument, OPT_EXACT_ARGS, NULL,
	 "goroutines whose calls differ in their arguments go to different groups"},
	{"sort", 0, required_argument, OPT_SORT, "count|wait",
	 "largest group first (count, the default) or the one waiting longest (wait; in a\n"
	 "trace: network, sync, syscall and scheduler wait together)"},
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {goroutines_options, pt_input_options, pt_help_option,
					      NULL};

struct own {
	struct pt_common *common;
	int by_wait;
};

static int own_option(void *ctx, const struct pt_cmd_spec *spec, int id, const char *arg)
{
	struct own *o = ctx;
	switch (id) {
	case OPT_EXACT_ARGS:
		o->common->load.read.flags |= PT_READ_GO_ARGS;
		return 1;
	case OPT_SORT:
		if (!strcmp(arg, "count"))
			o->by_wait = 0;
		else if (!strcmp(arg, "wait"))
			o->by_wait = 1;
		else {
			pt_usage_error(spec, "--sort takes count or wait, not '%s'", arg);
			return -1;
		}
		return 1;
	}
	return 0;
}

static const struct pt_cmd_spec spec = {
	"goroutines", "goroutines [OPTIONS] [FILE...]",
	"Group the goroutines of a Go dump (goroutine?debug=2, panic or SIGQUIT output)\n"
	"by identical stack, arguments ignored unless --exact-args, and print each group\n"
	"with its count, states, wait-time range, first goroutine ids and stack, leaf\n"
	"first. The goroutines of a Go execution trace are grouped by start function,\n"
	"each group with its time split (execution, network, sync, syscall, scheduler\n"
	"wait, GC sweep, mark assist, time in a GC cycle) as go tool trace shows it, after\n"
	"the trace's GC summary. Other profiles are grouped by stack with their values.",
	tables, own_option};

static int emit_goroutines(const struct pt_run *r, const void *o, FILE *out, struct pt_diag *d)
{
	return pt_report_goroutines(&r->p, o, out, d);
}

int cmd_goroutines(int argc, char **argv)
{
	struct pt_common common;
	struct pt_report_args ra;
	struct pt_goroutines_opts o;
	struct own own;
	struct pt_run r;
	int ret;

	pt_common_init(&common);
	pt_report_args_init(&ra, 1, PT_GRAN_FUNCTIONS);
	memset(&own, 0, sizeof(own));
	own.common = &common;
	common.load.read.flags |= PT_READ_GOROUTINE_IDS;
	if ((ret = pt_cli_parse(&spec, argc, argv, &common, &ra, &own)) >= 0)
		return ret;
	memset(&o, 0, sizeof(o));
	o.by_wait = own.by_wait;
	o.format = ra.format;
	o.limit = pt_report_limit(&ra, -1);

	pt_run_init(&r, &common, "-");
	pt_run_files(&r, argc, argv);
	if (!(ret = pt_run_load(&r)) && !(ret = pt_run_type(&r))) {
		o.type = r.type;
		ret = pt_run_emit(&r, ra.outpath, emit_goroutines, &o);
	}
	pt_run_release(&r);
	return ret;
}
