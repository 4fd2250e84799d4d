/* hash.h: keyed hashing (SipHash-1-3) for the intern and map tables, which are fed
 * names and ids chosen by whoever wrote the input file. */
#ifndef PT_HASH_H
#define PT_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Why a key. A table with linear probing costs O(n) per lookup once n keys share a
 * slot, so an unkeyed hash lets an input decide the cost of reading it: the hash this
 * replaced took one invertible step per 8-byte block, and 80,000 frame names made by
 * running it backwards all landed in one slot (a 1.8 MB collapsed file cost `top` 25 s
 * of CPU instead of 0.2 s). Every table now draws a 128-bit key from the kernel when it
 * is made (pt_hash_key_init) and hashes with SipHash-1-3 under it.
 *
 * Why crafting fails without the key. SipHash is a pseudo-random function of (key,
 * message): its add-rotate-xor rounds mix the key into all four state words before the
 * first message word and after the last, so which names share low bits depends on all
 * 128 key bits, and nothing the file can observe (proftool prints no hash values or
 * slot orders: every output is ordered by ids given in input order, or by value and
 * name) tells the writer anything about the key. To collide on purpose the writer must
 * guess the key (2^-128 a try) or send names at random, which is the average case. The
 * 1-3 variant (one round per word, three at the end) is the one hash tables fed
 * untrusted keys use where speed matters (Rust's HashMap, Python's str hash).
 */

struct pt_hash_key {
	uint64_t k0, k1;
};

/* a fresh random key (getrandom, else /dev/urandom, else the clock and addresses);
 * one system call, made when a table is made, never per key */
void pt_hash_key_init(struct pt_hash_key *key);

#define PT_SIP_ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define PT_SIP_ROUND(v0, v1, v2, v3)                                                               \
	do {                                                                                       \
		v0 += v1;                                                                          \
		v1 = PT_SIP_ROTL(v1, 13);                                                          \
		v1 ^= v0;                                                                          \
		v0 = PT_SIP_ROTL(v0, 32);                                                          \
		v2 += v3;                                                                          \
		v3 = PT_SIP_ROTL(v3, 16);                                                          \
		v3 ^= v2;                                                                          \
		v0 += v3;                                                                          \
		v3 = PT_SIP_ROTL(v3, 21);                                                          \
		v3 ^= v0;                                                                          \
		v2 += v1;                                                                          \
		v1 = PT_SIP_ROTL(v1, 17);                                                          \
		v1 ^= v2;                                                                          \
		v2 = PT_SIP_ROTL(v2, 32);                                                          \
	} while (0)

/* SipHash's four state words. pt_sip_init starts them from the key, pt_sip_word takes
 * one message word (one round: the 1 of 1-3), pt_sip_finish takes the last word (the
 * message length in its top byte) and makes the hash (the 3 rounds). The steps that
 * pt_hash_bytes and pt_hash_u64 share, not for callers of their own. */
struct pt_sip {
	uint64_t v0, v1, v2, v3;
};

static inline void pt_sip_init(struct pt_sip *s, const struct pt_hash_key *key)
{
	s->v0 = key->k0 ^ 0x736f6d6570736575ULL;
	s->v1 = key->k1 ^ 0x646f72616e646f6dULL;
	s->v2 = key->k0 ^ 0x6c7967656e657261ULL;
	s->v3 = key->k1 ^ 0x7465646279746573ULL;
}

static inline void pt_sip_word(struct pt_sip *s, uint64_t m)
{
	s->v3 ^= m;
	PT_SIP_ROUND(s->v0, s->v1, s->v2, s->v3);
	s->v0 ^= m;
}

static inline uint64_t pt_sip_finish(struct pt_sip *s, uint64_t last)
{
	pt_sip_word(s, last);
	s->v2 ^= 0xff;
	PT_SIP_ROUND(s->v0, s->v1, s->v2, s->v3);
	PT_SIP_ROUND(s->v0, s->v1, s->v2, s->v3);
	PT_SIP_ROUND(s->v0, s->v1, s->v2, s->v3);
	return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

/* SipHash-1-3 of n bytes under key (words read in host order: the value only has to
 * be the same within one process) */
static inline uint64_t pt_hash_bytes(const struct pt_hash_key *key, const void *data, size_t n)
{
	const unsigned char *p = data;
	struct pt_sip s;
	uint64_t m, last = (uint64_t)n << 56;
	size_t i;

	pt_sip_init(&s, key);
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&m, p, 8);
		pt_sip_word(&s, m);
	}
	for (i = 0; i < n; i++)
		last |= (uint64_t)p[i] << (8 * i);
	return pt_sip_finish(&s, last);
}

/* SipHash-1-3 of one 64-bit word under key (the same value as the 8 bytes of x in
 * host order through pt_hash_bytes) */
static inline uint64_t pt_hash_u64(const struct pt_hash_key *key, uint64_t x)
{
	struct pt_sip s;

	pt_sip_init(&s, key);
	pt_sip_word(&s, x);
	return pt_sip_finish(&s, (uint64_t)8 << 56);
}

/* key number n of a family drawn from one fresh key: SipHash is a pseudo-random
 * function, so each is as unknown as a key of its own, without a system call per table
 * (a profile makes eight tables, and merge reads a profile per file) */
static inline void pt_hash_key_derive(const struct pt_hash_key *from, uint64_t n,
				      struct pt_hash_key *out)
{
	struct pt_hash_key k;
	k.k0 = pt_hash_u64(from, 2 * n);
	k.k1 = pt_hash_u64(from, 2 * n + 1);
	*out = k;
}

/*
 * A keyed universal hash of a byte block, 128 bits, for a cache that keeps a block's
 * hash instead of its text (the perf reader's known callchains): two blocks of the
 * same length take the same value only by chance, about 2^-64 a pair whatever their
 * bytes, since the key is drawn per process and never shown. A block of up to
 * PT_UHASH_CHUNK bytes goes through NH (UMAC's hash) over 64-bit words: the sum of
 * (m[2i] + k[2i]) * (m[2i+1] + k[2i+1]) modulo 2^128, 2^-64-almost-universal on
 * equal-length strings (Black et al., "UMAC: fast and secure message authentication",
 * 1999). A longer block's chunks' NH values go through two polynomials modulo 2^61 - 1
 * at random points, whose halves are then the hash (2^-64 plus the polynomials' few
 * times 2^-61 each). Lengths are not mixed in: callers compare them apart.
 */
#define PT_UHASH_CHUNK 4096 /* bytes a chunk: the NH key's length */

struct pt_uhash_key {
	uint64_t nh[PT_UHASH_CHUNK / 8];
	uint64_t point[2]; /* in [1, 2^61 - 2] */
};

/* the key's words drawn from `from` (a fresh key: pt_hash_key_init, or one derived) */
void pt_uhash_key_init(struct pt_uhash_key *key, const struct pt_hash_key *from);
void pt_uhash(const struct pt_uhash_key *key, const void *data, size_t n, uint64_t out[2]);

#endif
