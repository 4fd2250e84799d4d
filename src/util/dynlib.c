/* dynlib.c: libraries opened on first use (dlopen), each function looked up by name. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>

#include "util/dynlib.h"

void *pt_dynlib_open(const char *soname, const char *package, const char *const *names, void **fns,
		     size_t n, char *err, size_t errlen)
{
	/* RTLD_NODELETE: a library stays mapped once opened, so a merge of a thousand xz
	 * files maps and relocates it once, not once a file */
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	size_t i;

	if (!lib) {
		snprintf(err, errlen, "cannot load %s (install the Debian package %s)", soname,
			 package);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		fns[i] = dlsym(lib, names[i]);
		if (!fns[i]) {
			snprintf(err, errlen, "cannot load %s: no function %s", soname, names[i]);
			dlclose(lib);
			return NULL;
		}
	}
	return lib;
}

void pt_dynlib_close(void *lib)
{
	if (lib)
		dlclose(lib);
}
