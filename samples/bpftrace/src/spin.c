/* spin.c: the program the bpftrace and profile-bpfcc samples profile: a hot leaf under
 * two callers, and a write(2) loop so that kernel stacks show up too. */
#include <stdio.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void hot_leaf(void)
{
	for (int i = 0; i < 100000; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) static void work(void)
{
	hot_leaf();
}

__attribute__((noinline)) static void other(void)
{
	for (int i = 0; i < 3; i++)
		hot_leaf();
}

__attribute__((noinline)) static void syscalls(void)
{
	static char buf[4096];
	for (int i = 0; i < 64; i++)
		if (write(STDOUT_FILENO, buf, sizeof(buf)) < 0)
			return;
}

int main(void)
{
	for (long n = 0;; n++) {
		work();
		if (n % 4 == 0)
			other();
		if (n % 8 == 0)
			syscalls();
	}
	return 0;
}
