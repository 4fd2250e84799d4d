/* test-xalloc.c: the huge-page advice costs one system call per block growth, never
 * one per call, and none while the heap is small. madvise is counted by defining it
 * here: the test program's own definition is the one xalloc.c's calls reach, and it
 * forwards to the kernel. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "util/xalloc.h"

static long advised; /* madvise calls so far */

int madvise(void *addr, size_t len, int advice)
{
	advised++;
	return (int)syscall(SYS_madvise, addr, len, advice);
}

static void test_growth_advises_once_per_growth(void)
{
	uint32_t *a = NULL;
	size_t alloc = 0, n, growths = 0;
	long before = advised;

	/* a trie's array, one node at a time, up to 64 MiB */
	for (n = 0; n < ((size_t)16 << 20); n++) {
		size_t had = alloc;
		PT_ALLOC_GROW(a, n + 1, alloc);
		if (alloc != had)
			growths++;
		a[n] = (uint32_t)n;
	}
	ok(advised - before <= (long)growths + 8, "16M appends: %ld madvise calls for %zu growths",
	   advised - before, growths);
	ok(a[12345] == 12345, "the values are kept");
	free(a);
}

/* a perf script of a few hundred stacks: a megabyte of heap in small blocks, each
 * touched, stays on 4 KiB pages; a heap that outgrows its first stretch is advised */
static void test_small_heap_is_not_advised(void)
{
	enum { SMALL = 256, BIG = 1024 }; /* blocks of 4 KiB, then of 64 KiB */
	char *small[SMALL], *big[BIG];
	long before = advised;
	uintptr_t brk0 = (uintptr_t)sbrk(0);
	int i;

	for (i = 0; i < SMALL; i++) {
		small[i] = pt_xmalloc(4096);
		memset(small[i], 1, 4096);
	}
	is_int(advised - before, 0, "1 MiB of small blocks: no madvise");
	for (i = 0; i < BIG; i++) {
		big[i] = pt_xmalloc(65536);
		big[i][0] = 1;
	}
	/* valgrind's and ASan's malloc keep no heap at the break: nothing to advise */
	if ((uintptr_t)sbrk(0) - brk0 < ((size_t)4 << 20))
		ok(1, "64 MiB of heap # SKIP this malloc keeps no heap at the break");
	else
		ok(advised - before >= 1, "64 MiB of heap: advised (%ld calls)", advised - before);
	for (i = 0; i < SMALL; i++)
		free(small[i]);
	for (i = 0; i < BIG; i++)
		free(big[i]);
}

static void test_same_size_realloc_advises_nothing(void)
{
	size_t n = (size_t)8 << 20;
	char *p = pt_xmalloc(n);
	long before;
	int i;

	memset(p, 1, n);
	before = advised;
	/* what stackprof's trie did per node: realloc to the size the block has (100 calls
	 * tell one advice per call from none; ASan and valgrind copy the block every time) */
	for (i = 0; i < 100; i++)
		p = pt_xrealloc(p, n);
	is_int(advised - before, 0, "100 reallocs to the same size: no madvise");
	p = pt_xrealloc(p, 2 * n);
	ok(advised - before >= 1 && advised - before <= 2, "a growth is advised (%ld calls)",
	   advised - before);
	ok(p[n - 1] == 1, "the contents moved with it");
	free(p);
}

/* run fn in a child; its stderr into buf, its exit status returned */
static int in_child(void (*fn)(void), char *buf, size_t size)
{
	int fds[2], status = -1;
	ssize_t n, got = 0;
	pid_t pid;

	fflush(stdout); /* the child's exit must not print the TAP lines again */
	if (pipe(fds) < 0 || (pid = fork()) < 0)
		abort();
	if (!pid) {
		dup2(fds[1], 2);
		fn();
		_exit(99);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + got, size - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void overflow(void)
{
	pt_xreallocarray(NULL, SIZE_MAX, 2);
}

static void internal(void)
{
	pt_die("too many %s", "strings");
}

static void test_one_fatal_path(void)
{
	char buf[256], want[128];

	snprintf(want, sizeof(want), "proftool: out of memory allocating %zu bytes\n", SIZE_MAX);
	is_int(in_child(overflow, buf, sizeof(buf)), 1, "out of memory: exit 1");
	ok(!strcmp(buf, want), "out of memory: the one line");
	is_int(in_child(internal, buf, sizeof(buf)), 1, "pt_die: exit 1");
	ok(!strcmp(buf, "proftool: too many strings\n"), "pt_die: the one line");
}

int main(void)
{
	test_one_fatal_path();
	pt_xalloc_init();
	test_small_heap_is_not_advised();
	test_same_size_realloc_advises_nothing();
	test_growth_advises_once_per_growth();
	return tap_done();
}
