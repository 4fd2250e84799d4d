/* dynlib.h: a shared library opened with dlopen when first needed. A library linked
 * into the program costs every run its mapping, its relocations and the pages they
 * touch (xz, zstd and PCRE2 together: 0.4 MiB and 25 page faults a run; libcurl 4 MiB
 * with what it pulls in), though only some runs use it; opened here, only those pay.
 * Used for zlib (input.c, pprof.c), liblzma and libzstd (input.c), yajl (json.c),
 * libcsv (csv.c), PCRE2 (pattern.c), libcurl (fetch.c), libdw (symfile.c) and libm
 * (libm.c): the program links only libc, and a perf script conversion maps none of
 * them (zlib, yajl, libcsv and libm opened here: about half a MiB of its peak). */
#ifndef PT_DYNLIB_H
#define PT_DYNLIB_H

#include <stddef.h>

/* Open the library `soname` (configure reads it from the library it finds) and look up
 * the n functions names[0..n) in it, into fns[0..n): the library's handle, which
 * pt_dynlib_close gives back. NULL when the library cannot be opened or lacks one of
 * the functions, with err holding one line that names it: "cannot load SONAME
 * (install the Debian package PACKAGE)" or "cannot load SONAME: no function NAME".
 * A caller casts each fns[i] to the function's own type before calling it (POSIX lets
 * dlsym's object pointer stand for a function): PT_DYNLIB_SET below. */
void *pt_dynlib_open(const char *soname, const char *package, const char *const *names, void **fns,
		     size_t n, char *err, size_t errlen);
void pt_dynlib_close(void *lib);

/* A caller lists the calls it makes once, as X(member, function) in a macro of its own,
 * and makes from that list its table's members (PT_DYNLIB_MEMBER: each of the
 * function's own type, as its header declares it), the names pt_dynlib_open looks up
 * (PT_DYNLIB_NAME: the name after macro expansion, since PCRE2's names are macros for
 * the 8-bit library's) and, once it is open, each member from fns in the same order
 * (PT_DYNLIB_SET: the table at `api`, the functions in `fns`, counted by `i` from 0). */
#define PT_DYNLIB_MEMBER(m, fn) __typeof__(fn) *m;
#define PT_DYNLIB_NAME_(fn)	#fn
#define PT_DYNLIB_NAME(m, fn)	PT_DYNLIB_NAME_(fn),
#define PT_DYNLIB_SET(m, fn)	(api)->m = (__typeof__((api)->m))fns[i++];

#endif
