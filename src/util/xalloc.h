/* xalloc.h: allocation that never returns NULL (tmux's xmalloc), and the one fatal
 * path (pt_die) it ends in on out-of-memory; callers never check. */
#ifndef PT_XALLOC_H
#define PT_XALLOC_H

#include <stddef.h>

/* The one fatal path (tmux's fatalx): print "proftool: MESSAGE" and exit 1. Only for
 * out-of-memory, internal limits and a library that cannot be loaded (util/dynlib.h):
 * what no input can be blamed for; bad input is a struct pt_diag returned up to the
 * command. */
void pt_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Once, first thing in main: sets up malloc for transparent huge pages (xalloc.c). */
void pt_xalloc_init(void);
void *pt_xmalloc(size_t n);
void *pt_xcalloc(size_t nmemb, size_t size);
void *pt_xrealloc(void *p, size_t n);
/* realloc for nmemb * size, failing cleanly on multiplication overflow */
void *pt_xreallocarray(void *p, size_t nmemb, size_t size);
char *pt_xstrdup(const char *s);
char *pt_xmemdup(const void *p, size_t n); /* adds a NUL */

/* Grow an array so that it holds at least `need` elements; doubles. */
#define PT_ALLOC_GROW(arr, need, alloc)                                                            \
	do {                                                                                       \
		if ((size_t)(need) > (size_t)(alloc)) {                                            \
			size_t pt_n_ = (size_t)(alloc) < 16 ? 16 : (size_t)(alloc)*2;              \
			if (pt_n_ < (size_t)(need))                                                \
				pt_n_ = (size_t)(need);                                            \
			(arr) = pt_xreallocarray((arr), pt_n_, sizeof(*(arr)));                    \
			(alloc) = pt_n_;                                                           \
		}                                                                                  \
	} while (0)

#endif
