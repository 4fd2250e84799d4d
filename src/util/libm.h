/* libm.h: the libm calls that are not exact to write ourselves (erfc, exp, pow, sqrt),
 * from libm opened with dlopen where a run first needs one (util/dynlib.h). Linked,
 * glibc's libm costs every run about 0.4 MiB of resident memory at load (its IFUNC
 * resolvers and relocations) though few runs call it; floor, ceil and llround are
 * ours (util/round.h). */
#ifndef PT_LIBM_H
#define PT_LIBM_H

#include <math.h>

#include "util/diag.h"
#include "util/dynlib.h"

/* the calls, as X(member, function): a member has its function's name and type */
#define PT_LIBM_CALLS(X)                                                                           \
	X(erfc, erfc)                                                                              \
	X(exp, exp)                                                                                \
	X(pow, pow)                                                                                \
	X(sqrt, sqrt)

/* Zeroed, or filled by pt_libm_open; its functions valid until pt_libm_close. */
struct pt_libm {
	void *lib;
	PT_LIBM_CALLS(PT_DYNLIB_MEMBER)
};

/* Open libm (the soname configure reads; a library already open stays mapped, so a
 * second open is a lookup, a few microseconds) and fill m with its calls. Returns 0,
 * or -1 with d filled, without position: "cannot load libm.so.6 (install the Debian
 * package libc6)". With d NULL, that line goes through pt_die instead (util/xalloc.h),
 * for a caller that has no diag to return: call it before any output is written. */
int pt_libm_open(struct pt_libm *m, struct pt_diag *d);
/* Close what pt_libm_open opened; m zeroed. Harmless on a zeroed m. */
void pt_libm_close(struct pt_libm *m);

#endif
