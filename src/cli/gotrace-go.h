/* gotrace-go.h: Go execution traces read through the go command (go tool trace -pprof),
 * the adapter formats/gotrace.c hands the traces it does not read itself. */
#ifndef PT_GOTRACE_GO_H
#define PT_GOTRACE_GO_H

#include "formats/format.h"

/* struct pt_read_opts' via_go: runs `go tool trace -pprof=TYPE` on the trace (data,
 * len) for net, sync, syscall and sched and hands their stacks to o->sink, each delay
 * as its type's value; a warning in d says so. 0, -1 with d filled, or 1 when there is
 * no go on PATH. */
int pt_gotrace_via_go(const unsigned char *data, size_t len, int ver, struct pt_profile *p,
		      const struct pt_read_opts *o, struct pt_diag *d);

#endif
