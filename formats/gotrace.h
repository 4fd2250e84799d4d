/* gotrace.h: what the Go execution trace reader (formats/gotrace.c) shares with the
 * commands: the version in a trace's header and the four blocking profiles it yields. */
#ifndef PT_GOTRACE_H
#define PT_GOTRACE_H

#include <stddef.h>

#include "util/diag.h"

/* the sample types of a trace read as a profile, in this order (go tool trace's
 * -pprof=net, sync, syscall and sched), each a delay in nanoseconds */
enum { PT_GOTRACE_NET, PT_GOTRACE_SYNC, PT_GOTRACE_SYSCALL, PT_GOTRACE_SCHED, PT_GOTRACE_NTYPES };

/* the version a trace header names, 1000 * major + minor ("go 1.19 trace" gives
 * 1019), or -1 if the 16 bytes at h are no trace header */
int pt_gotrace_version(const unsigned char *h, size_t len);
/* whether the reader knows the format of that version */
int pt_gotrace_native(int ver);
/* the error for a version the reader does not know: names it and the go command to run
 * (d->path is the file); returns -1 */
int pt_gotrace_unknown(struct pt_diag *d, int ver);

#endif
