/* dynlib.h: a shared library opened with dlopen when first needed. A library linked
 * into the program costs every run its mapping, its relocations and the pages they
 * touch (xz, zstd and PCRE2 together: 0.4 MiB and 25 page faults a run), though only
 * some inputs use it; opened here, only those runs pay. */
#ifndef PT_DYNLIB_H
#define PT_DYNLIB_H

#include <stddef.h>

/* Open the library `soname` (configure reads it from the library it finds) and look up
 * the n functions names[0..n) in it, into fns[0..n): the library's handle, which
 * pt_dynlib_close gives back. NULL when the library cannot be opened or lacks one of
 * the functions, with err holding one line that names it: "cannot load SONAME
 * (install the Debian package PACKAGE)" or "cannot load SONAME: no function NAME".
 * A caller casts each fns[i] to the function's own type before calling it (POSIX lets
 * dlsym's object pointer stand for a function). */
void *pt_dynlib_open(const char *soname, const char *package, const char *const *names, void **fns,
		     size_t n, char *err, size_t errlen);
void pt_dynlib_close(void *lib);

#endif
