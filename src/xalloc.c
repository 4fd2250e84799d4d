/* xalloc.c: allocation wrappers that exit on out-of-memory. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_SYS_MMAN_H
#include <sys/mman.h>
#include <unistd.h>
#endif
#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif

#include "xalloc.h"

/* Arrays this big ask for transparent huge pages where the kernel leaves them to
 * madvise (Debian's default is "always", others' "madvise"): a fault on a fresh page
 * costs far more than the zeroing it does, about 2 us per 4 KiB on our virtual
 * machines, so a tree of millions of nodes spent a fifth of its time faulting. A 2 MiB
 * page is one fault. The advice covers the block's whole pages: malloc maps a block
 * this big by itself, and advice on part of the mapping would split it, which keeps
 * realloc from growing it in place (mremap moves one mapping only). */
#define HUGE_MIN ((size_t)4 << 20)

static void heap_advise(void);

static void *huge(void *p, size_t n)
{
	heap_advise();
#if defined(HAVE_SYS_MMAN_H) && defined(MADV_HUGEPAGE)
	static uintptr_t page;
	if (n >= HUGE_MIN) {
		uintptr_t a, e;
		if (!page) {
			long ps = sysconf(_SC_PAGESIZE);
			page = ps > 0 ? (uintptr_t)ps : 4096;
		}
		a = (uintptr_t)p & ~(page - 1);
		e = ((uintptr_t)p + n + page - 1) & ~(page - 1);
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE); /* advice only */
	}
#else
	(void)n;
#endif
	return p;
}

/* The heap, too: malloc grows it by TOP_PAD at a time, and each new stretch is
 * advised when an allocation here first sees it (sbrk(0) only reads malloc's record of
 * the break). Blocks of HUGE_MIN or more get mappings of their own (huge() above). */
#define TOP_PAD ((size_t)32 << 20)
static uintptr_t heap_seen; /* the break up to which the heap is advised; 0: not at all */

static void heap_advise(void)
{
#if defined(HAVE_SYS_MMAN_H) && defined(MADV_HUGEPAGE) && defined(HAVE_SBRK)
	uintptr_t b = (uintptr_t)sbrk(0), page = 4096, a;
	if (!heap_seen || b <= heap_seen)
		return;
	a = heap_seen & ~(page - 1);
	(void)madvise((void *)a, ((b + page - 1) & ~(page - 1)) - a, MADV_HUGEPAGE);
	heap_seen = b;
#endif
}

void pt_xalloc_init(void)
{
#if defined(HAVE_SYS_MMAN_H) && defined(MADV_HUGEPAGE) && defined(HAVE_SBRK) &&                   \
	defined(HAVE_MALLOC_H) && defined(M_TOP_PAD)
	void *sb = sbrk(0);
	if (sb == (void *)-1)
		return;
	mallopt(M_MMAP_THRESHOLD, (int)HUGE_MIN);
	mallopt(M_TOP_PAD, (int)TOP_PAD);
	mallopt(M_TRIM_THRESHOLD, (int)(2 * TOP_PAD));
	heap_seen = (uintptr_t)sb;
#endif
}

static void die_oom(size_t n)
{
	fprintf(stderr, "proftool: out of memory allocating %zu bytes\n", n);
	exit(1);
}

void *pt_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return huge(p, n);
}

void *pt_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return huge(p, nmemb * size);
}

void *pt_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return huge(q, n);
}

void *pt_xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		die_oom(SIZE_MAX);
	return pt_xrealloc(p, nmemb * size);
}

char *pt_xstrdup(const char *s)
{
	return pt_xmemdup(s, strlen(s));
}

char *pt_xmemdup(const void *p, size_t n)
{
	char *s = pt_xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}
