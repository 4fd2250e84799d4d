/* demangle.h: C++ (Itanium) and Rust (legacy and v0) symbol names demangled with
 * libiberty as binutils' c++filt prints them, and simplified as go tool pprof's default
 * demangling shows them (parameter and template lists dropped). */
#ifndef PT_DEMANGLE_H
#define PT_DEMANGLE_H

#include <stddef.h>

#include "util/buf.h"

/* Whether name[0, n) holds a word the demangler may take (one starting with _Z, _R or
 * _GLOBAL_, after a '.' or '$'): a cheap test, so that other names cost no call. */
int pt_demangle_candidate(const char *name, size_t n);

/* name[0, n) with each mangled word demangled, appended to out, as c++filt prints a
 * line (a word: letters, digits, '_', '$', '.'; a leading '.' or '$' skipped and the
 * '.' kept; libiberty's DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE, c++filt's flags). With
 * simple, each demangled word without parameters and templates (pprof's default).
 * Returns 1 if a word was demangled, else 0 (out untouched). Cost: linear in n, and the
 * demangler's own, per call. */
int pt_demangle(struct pt_buf *out, const char *name, size_t n, int simple);
/* the longest word demangled (libiberty parses on the stack, 64 bytes per input byte);
 * a demangled word may be at most 64 times its mangled length plus 1 KiB (a mangled
 * name's substitutions can double its output every few bytes): past either, the word
 * stays as it is */
#define PT_DEMANGLE_MAX ((size_t)16 << 10)

/* pprof's simplification of a name that already is demangled C++ (a "::" or one of
 * "<>[]" in it, and neither Java's ".<" nor Go's "]).": parenthesized then angle-bracketed
 * lists removed, unless unbalanced). Returns 1 and appends the result to out, or 0 when
 * the name does not look like C++ (out untouched). */
int pt_simplify_demangled(struct pt_buf *out, const char *name, size_t n);

#endif
