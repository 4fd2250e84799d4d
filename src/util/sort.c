/* sort.c: least-significant-digit radix sort of keyed records. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/xalloc.h"

/* Digits of at most 11 bits: a pass's counts (16 KiB) stay in the L1 cache, and its 2048
 * write positions are few enough for the caches to follow. */
#define DIGIT_MAX 11

unsigned pt_bits(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

struct pt_keyed *pt_sort_keyed(struct pt_keyed *v, struct pt_keyed *tmp, size_t n, unsigned bits)
{
	unsigned passes, width, pass;
	size_t i, *count, nbuckets;

	if (n < 2 || !bits)
		return v;
	if (bits > 64)
		bits = 64;
	passes = (bits + DIGIT_MAX - 1) / DIGIT_MAX;
	width = (bits + passes - 1) / passes;
	nbuckets = (size_t)1 << width;
	/* every pass's counts from one read of the keys */
	count = pt_xcalloc((size_t)passes * nbuckets, sizeof(*count));
	for (i = 0; i < n; i++) {
		uint64_t k = v[i].key;
		for (pass = 0; pass < passes; pass++)
			count[pass * nbuckets + ((k >> (pass * width)) & (nbuckets - 1))]++;
	}
	for (pass = 0; pass < passes; pass++) {
		size_t *c = count + pass * nbuckets, sum = 0, d;
		unsigned shift = pass * width;
		struct pt_keyed *t;

		/* a digit all keys share orders nothing */
		if (c[(v[0].key >> shift) & (nbuckets - 1)] == n)
			continue;
		for (d = 0; d < nbuckets; d++) {
			size_t k = c[d];
			c[d] = sum;
			sum += k;
		}
		for (i = 0; i < n; i++)
			tmp[c[(v[i].key >> shift) & (nbuckets - 1)]++] = v[i];
		t = v;
		v = tmp;
		tmp = t;
	}
	free(count);
	return v;
}
