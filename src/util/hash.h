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

/* One multiply and one shift per 8 bytes, a full mix at the end: strings are hashed for
 * every frame of every input line, so this is on the readers' hot path. */
static inline uint64_t pt_hash_bytes(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
	uint64_t w;

	while (n >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x9fb21c651e98df25ULL;
		h ^= h >> 29;
		p += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ w ^ n) * 0x9fb21c651e98df25ULL;
	return pt_hash_mix(h);
}

#endif
