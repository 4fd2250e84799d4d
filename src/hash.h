/* hash.h: fast non-cryptographic hashing for the intern and map tables. */
#ifndef PT_HASH_H
#define PT_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t pt_hash_mix(uint64_t h)
{
	/* splitmix64 finalizer */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

static inline uint64_t pt_hash_bytes(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
	uint64_t w;

	while (n >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ pt_hash_mix(w)) * 0x9fb21c651e98df25ULL;
		p += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ pt_hash_mix(w ^ n)) * 0x9fb21c651e98df25ULL;
	return pt_hash_mix(h);
}

#endif
