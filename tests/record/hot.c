/* hot.c: a C program for `proftool record` tests: hot_loop takes nearly all the time.
 * The first argument is the number of rounds (40, about 0.15 s, by default). */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) static void hot_loop(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += i * 0.5;
	sink = x;
}

__attribute__((noinline)) static void cold(void)
{
	sink += 1;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	for (int k = 0; k < rounds; k++) {
		hot_loop(5000000);
		cold();
	}
	puts("done");
	return 3;
}
