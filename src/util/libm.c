/* libm.c: erfc, exp, pow and sqrt from libm, opened on first use (libm.h). */
#include "config.h"

#include <string.h>

#include "util/libm.h"
#include "util/xalloc.h"

static const char *const libm_names[] = {PT_LIBM_CALLS(PT_DYNLIB_NAME)};

int pt_libm_open(struct pt_libm *m, struct pt_diag *d)
{
	void *fns[sizeof(libm_names) / sizeof(libm_names[0])];
	char err[256];
	struct pt_libm *api = m;
	size_t i = 0;

	memset(m, 0, sizeof(*m));
	m->lib = pt_dynlib_open(PT_LIBM_SONAME, "libc6", libm_names, fns,
				sizeof(fns) / sizeof(fns[0]), err, sizeof(err));
	if (!m->lib) {
		if (!d)
			pt_die("%s", err);
		return pt_diag_error(d, "%s", err);
	}
	PT_LIBM_CALLS(PT_DYNLIB_SET)
	return 0;
}

void pt_libm_close(struct pt_libm *m)
{
	pt_dynlib_close(m->lib);
	memset(m, 0, sizeof(*m));
}
