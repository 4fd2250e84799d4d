/* xalloc.c: allocation wrappers that exit on out-of-memory. */
#include "config.h"

#include <stdarg.h>
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

#include "util/xalloc.h"

/* Transparent huge pages. Where the kernel gives them only on request
 * (/sys/kernel/mm/transparent_hugepage/enabled = madvise, as on our machines), every
 * fresh 4 KiB page costs a fault of about 2 us, far more than the zeroing it does: a
 * tree of millions of nodes spent a fifth of its time faulting, a 4 MB .cpuprofile a
 * sixth. A 2 MiB page is one fault. So a big heap and the big blocks ask for them. A
 * small one does not: a 2 MiB page is all resident once touched, and most runs (a
 * perf script of a few hundred stacks, a merge's small files) use a megabyte or two,
 * whose faults cost a millisecond at most. The heap is advised once a block handed
 * out from it ends SMALL_HEAP or more past its start: what it touches from there on
 * comes in 2 MiB pages. The heap's first SMALL_HEAP stays on 4 KiB pages, which a
 * big heap pays for (a 200,000-stack pprof file: 1,500 more faults than with advice
 * from the start, 1% of its CPU), so it sits little above what small runs take: 2 MiB
 * for the perf script mixes of bench/gen-perf-mix.sh (601 distinct stacks). */

/* malloc grows its heap TOP_PAD at a time and maps blocks of HUGE_MIN or more by
 * themselves; pt_xalloc_init sets both. The pad also lets realloc grow the block at
 * the heap's top in place: with malloc's own pad of 128 KiB, a 200,000-stack pprof
 * file's arrays were copied as they grew, 3% more CPU and 4 MiB more peak. A bigger
 * pad would keep more of the heap's first touches on advised memory, but malloc
 * serves blocks from the pad that it would otherwise map by themselves, and their
 * holes add to the peak: with 32 MiB, a 100 MB stackprof dump peaked at 164 MiB
 * instead of 149 (measured before the stackprof reader's table shrank: it now peaks
 * at 67). */
#define SMALL_HEAP ((size_t)3 << 20)
#define TOP_PAD	   ((size_t)8 << 20)
#define HUGE_MIN   ((size_t)4 << 20)

/* The heap's start, 0 when the heap is not watched (no sbrk, or pt_xalloc_init not
 * called); the break up to which it is advised, 0 while it is small. */
static uintptr_t heap_base, heap_seen;

static uintptr_t page_size(void)
{
	static uintptr_t page;
#ifdef HAVE_SYS_MMAN_H
	if (!page) {
		long ps = sysconf(_SC_PAGESIZE);
		page = ps > 0 ? (uintptr_t)ps : 4096;
	}
#endif
	return page ? page : 4096;
}

static void advise(uintptr_t from, uintptr_t to)
{
#if defined(HAVE_SYS_MMAN_H) && defined(MADV_HUGEPAGE)
	uintptr_t pg = page_size(), a = from & ~(pg - 1), e = (to + pg - 1) & ~(pg - 1);
	(void)madvise((void *)a, e - a, MADV_HUGEPAGE); /* advice: failure changes nothing */
#else
	(void)from;
	(void)to;
#endif
}

/* Called after every allocation here: once a block of the heap ends SMALL_HEAP past
 * its start, the heap is advised up to the break (sbrk(0) only reads malloc's record
 * of it), and each new stretch of it after that; so is a block with a mapping of its
 * own, over all its pages, since advice on part of a mapping splits it and mremap,
 * which realloc grows such blocks with, moves one mapping only. A block is advised
 * when it is new or has grown (`fresh`), never again for a realloc that changed
 * nothing: one system call per growth, not per call. */
static void *huge(void *p, size_t n, int fresh)
{
#ifdef HAVE_SBRK
	if (heap_base) {
		uintptr_t b = (uintptr_t)sbrk(0), end = (uintptr_t)p + n;
		if (heap_seen) {
			if (b > heap_seen) {
				advise(heap_seen, b);
				heap_seen = b;
			}
		} else if ((uintptr_t)p >= heap_base && end <= b && end - heap_base >= SMALL_HEAP) {
			advise(heap_base, b);
			heap_seen = b;
		}
	}
#endif
	if (n >= HUGE_MIN && fresh)
		advise((uintptr_t)p, (uintptr_t)p + n);
	return p;
}

void pt_xalloc_init(void)
{
#if defined(HAVE_SYS_MMAN_H) && defined(MADV_HUGEPAGE) && defined(HAVE_SBRK) &&                    \
	defined(HAVE_MALLOC_H) && defined(M_TOP_PAD)
	void *b = sbrk(0);
	if (b == (void *)-1)
		return;
	mallopt(M_MMAP_THRESHOLD, (int)HUGE_MIN);
	mallopt(M_TOP_PAD, (int)TOP_PAD);
	mallopt(M_TRIM_THRESHOLD, (int)(2 * TOP_PAD)); /* no giving back to grow again */
	heap_base = (uintptr_t)b;
#endif
}

void pt_die(const char *fmt, ...)
{
	va_list ap;

	fputs("proftool: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void die_oom(size_t n)
{
	pt_die("out of memory allocating %zu bytes", n);
}

void *pt_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return huge(p, n, 1);
}

void *pt_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return huge(p, nmemb * size, 1);
}

void *pt_xrealloc(void *p, size_t n)
{
	size_t had = 0;
	void *q;

#ifdef HAVE_MALLOC_H
	had = p ? malloc_usable_size(p) : 0;
#endif
	q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return huge(q, n, n > had);
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
