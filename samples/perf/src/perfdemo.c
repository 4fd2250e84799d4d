/*
 * perfdemo.c - a small program of ours profiled with `perf record` to make
 * the samples in samples/perf/.  Its shape is deterministic (the same
 * functions run every time; only how many samples land in each varies):
 *
 *   main thread "perfdemo":   main -> run_main -> ping <-> pong (mutual
 *                             recursion) -> shared_work -> hot_leaf
 *                             and run_main -> caller_a/caller_b/caller_c
 *                             -> shared_work -> hot_leaf (several callers)
 *   thread "my worker":       worker_main -> recurse (direct recursion)
 *                             -> shared_work -> hot_leaf
 *   thread "java pool 2":     pool_main -> caller_b -> shared_work,
 *                             pool_main -> jit_caller -> code generated
 *                             at run time into anonymous executable
 *                             memory, named in /tmp/perf-PID.map (as a
 *                             JIT does; one of the two pieces is left
 *                             unnamed), and pool_main -> sort_work ->
 *                             qsort -> cmp_u64 (a callback through libc,
 *                             which has no frame pointers).  The comm
 *                             has spaces, a digit field and starts with
 *                             "java" (stackcollapse-perf.pl's Java tidy).
 *   forked child "perfdemo-child": child_main -> syscall_work ->
 *                             read(/dev/zero) and getppid(), and
 *                             fault_work (page faults) for kernel
 *                             frames, and ping <-> pong as well.
 *
 * Built twice by make.sh: -O1 with frame pointers and no inlining of the
 * MAYBE_INLINE helpers (perfdemo), and -O2 with those helpers forced inline
 * (perfdemo-inl) so DWARF unwinding shows inlined frames.
 *
 * Usage: perfdemo [MILLISECONDS]   (default 300) - how long each thread and
 * the child process keep working.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#ifdef INLINE_BUILD
#define MAYBE_INLINE static inline __attribute__((always_inline))
#else
#define MAYBE_INLINE static NOINLINE
#endif

static volatile uint64_t sink;
static long run_ms = 300;

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The hot leaf: a pure CPU loop. */
NOINLINE uint64_t
hot_leaf(uint64_t x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

/* Inlined in the -O2 build: a loop of its own plus the hot leaf. */
MAYBE_INLINE uint64_t
mix_in(uint64_t x)
{
	for (int i = 0; i < 2000; i++)
		x ^= (x << 7) ^ (x >> 9) ^ (uint64_t)i;
	return hot_leaf(x, 4000);
}

/* The one function with several callers. */
NOINLINE uint64_t
shared_work(uint64_t x)
{
	return mix_in(x) + hot_leaf(x, 2000);
}

NOINLINE uint64_t caller_a(uint64_t x) { return shared_work(x + 1) + 1; }
NOINLINE uint64_t caller_b(uint64_t x) { return shared_work(x + 2) + 2; }
NOINLINE uint64_t caller_c(uint64_t x) { return caller_a(x + 3) + 3; }

/* Mutual recursion: ping -> pong -> ping -> pong ... */
NOINLINE uint64_t pong(uint64_t x, int depth);

NOINLINE uint64_t
ping(uint64_t x, int depth)
{
	if (depth <= 0)
		return shared_work(x);
	return pong(x + 1, depth - 1) + 1;
}

NOINLINE uint64_t
pong(uint64_t x, int depth)
{
	if (depth <= 0)
		return hot_leaf(x, 3000);
	return ping(x + 2, depth - 1) + 2;
}

/* Direct recursion. */
NOINLINE uint64_t
recurse(uint64_t x, int depth)
{
	if (depth <= 0)
		return shared_work(x);
	return recurse(x + depth, depth - 1) + 1;
}

static void *
worker_main(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "my worker", 0, 0, 0);
	double end = now_ms() + run_ms;
	uint64_t x = 1;
	while (now_ms() < end)
		x += recurse(x, 5);
	sink = x;
	return NULL;
}

/*
 * x86-64 machine code of
 *   uint64_t f(uint64_t x, int n) { while (n-- > 0) x = x * 29 + 7; return x; }
 * with a frame pointer (push rbp; mov rbp,rsp ... pop rbp; ret).
 */
static const unsigned char jit_code[] = {
	0x55,                   /* push %rbp */
	0x48, 0x89, 0xe5,       /* mov %rsp,%rbp */
	0x48, 0x89, 0xf8,       /* mov %rdi,%rax */
	0x85, 0xf6,             /* test %esi,%esi */
	0x7e, 0x0c,             /* jle end */
	0x48, 0x6b, 0xc0, 0x1d, /* loop: imul $29,%rax,%rax */
	0x48, 0x83, 0xc0, 0x07, /* add $7,%rax */
	0xff, 0xce,             /* dec %esi */
	0x75, 0xf4,             /* jne loop */
	0x5d,                   /* end: pop %rbp */
	0xc3,                   /* ret */
};

typedef uint64_t (*jit_fn)(uint64_t, int);
static jit_fn jit_named, jit_unnamed;

/*
 * Copy jit_code twice into executable anonymous memory and name the first
 * copy in /tmp/perf-PID.map, the perf map file a JIT writes.  The names
 * look like what a JVM agent writes (with ';', '(' and quotes) so that
 * name tidying has something to do.  x86-64 only; elsewhere no JIT.
 */
static void
jit_setup(void)
{
#if defined(__x86_64__)
	long pagesz = sysconf(_SC_PAGESIZE);
	unsigned char *mem = mmap(NULL, 2 * pagesz, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *f;

	if (mem == MAP_FAILED)
		return;
	memcpy(mem, jit_code, sizeof jit_code);
	memcpy(mem + pagesz, jit_code, sizeof jit_code);
	if (mprotect(mem, 2 * pagesz, PROT_READ | PROT_EXEC) != 0)
		return;
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	if ((f = fopen(path, "w")) != NULL) {
		fprintf(f, "%lx %zx LDemo/Jit;.spin(IJ)J\n",
		    (unsigned long)(uintptr_t)mem, sizeof jit_code);
		fclose(f);
	}
	jit_named = (jit_fn)(uintptr_t)mem;
	jit_unnamed = (jit_fn)(uintptr_t)(mem + pagesz);
#endif
}

NOINLINE uint64_t
jit_caller(uint64_t x)
{
	if (jit_named == NULL)
		return hot_leaf(x, 8000);
	return jit_named(x, 20000) + jit_unnamed(x, 20000);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* A hot callback called through libc (no frame pointers there). */
NOINLINE uint64_t
sort_work(uint64_t x)
{
	static uint64_t v[2048];

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		v[i] = x = x * 6364136223846793005ULL + 1;
	qsort(v, sizeof v / sizeof v[0], sizeof v[0], cmp_u64);
	return v[7];
}

static void *
pool_main(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "java pool 2", 0, 0, 0);
	double end = now_ms() + run_ms / 2;
	uint64_t x = 2;
	while (now_ms() < end) {
		x += caller_b(x);
		x += jit_caller(x);
		x += sort_work(x);
	}
	sink = x;
	return NULL;
}

/* System-call heavy work so samples land in the kernel. */
NOINLINE uint64_t
syscall_work(int fd, char *buf, size_t len)
{
	uint64_t x = 0;
	for (int i = 0; i < 16; i++) {
		if (read(fd, buf, len) > 0)
			x += (unsigned char)buf[0];
		x += (uint64_t)getppid();
	}
	return x;
}

/* Touch fresh pages: page faults in the kernel. */
NOINLINE uint64_t
fault_work(void)
{
	size_t len = 1 << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t x = 0;

	if (p == MAP_FAILED)
		return 0;
	for (size_t i = 0; i < len; i += 4096)
		p[i] = (char)i;
	for (size_t i = 0; i < len; i += 4096)
		x += (unsigned char)p[i];
	munmap(p, len);
	return x;
}

NOINLINE void
child_main(void)
{
	static char buf[1 << 16];
	int fd = open("/dev/zero", O_RDONLY);
	uint64_t x = 3;

	prctl(PR_SET_NAME, "perfdemo-child", 0, 0, 0);
	double end = now_ms() + run_ms;
	while (now_ms() < end) {
		if (fd >= 0)
			x += syscall_work(fd, buf, sizeof buf);
		x += fault_work();
		x += ping(x, 4);
	}
	sink = x;
}

NOINLINE void
run_main(void)
{
	double end = now_ms() + run_ms;
	uint64_t x = 4;
	while (now_ms() < end) {
		x += ping(x, 6);
		x += caller_a(x);
		x += caller_b(x);
		x += caller_c(x);
	}
	sink = x;
}

int
main(int argc, char **argv)
{
	pthread_t worker, pool;
	pid_t child;

	if (argc > 1)
		run_ms = atol(argv[1]);
	child = fork();
	if (child == 0) {
		child_main();
		_exit(0);
	}
	jit_setup();
	pthread_create(&worker, NULL, worker_main, NULL);
	pthread_create(&pool, NULL, pool_main, NULL);
	run_main();
	pthread_join(pool, NULL);
	pthread_join(worker, NULL);
	if (child > 0)
		waitpid(child, NULL, 0);
	/* The perf map stays for `perf script`; make.sh removes it. */
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
