/* hash.c: the random key of each hash table (see hash.h for why tables are keyed). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_RANDOM_H
#include <sys/random.h>
#endif

#include "util/hash.h"

/* 1 if buf was filled from the kernel's random source */
static int kernel_random(void *buf, size_t n)
{
	unsigned char *p = buf;
	int fd;

#ifdef HAVE_GETRANDOM
	ssize_t r;
	do
		r = getrandom(p, n, 0);
	while (r < 0 && errno == EINTR);
	if (r == (ssize_t)n)
		return 1;
#endif
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (n) {
		ssize_t k = read(fd, p, n);
		if (k <= 0 && !(k < 0 && errno == EINTR))
			break;
		if (k > 0) {
			p += k;
			n -= (size_t)k;
		}
	}
	close(fd);
	return n == 0;
}

void pt_hash_key_init(struct pt_hash_key *key)
{
	struct timespec ts;
	uint64_t a, b;

	if (kernel_random(key, sizeof(*key)))
		return;
	/* No random source (a chroot without /dev, a kernel without getrandom): a key
	 * from what differs between runs (clock, process id, where the stack and the key
	 * live under ASLR). Weaker, but still unknown to whoever wrote the input. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	a = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 40;
	b = (uint64_t)(uintptr_t)key ^ (uint64_t)(uintptr_t)&ts << 17;
	key->k0 = 0x243f6a8885a308d3ULL;
	key->k1 = 0x13198a2e03707344ULL;
	key->k0 = pt_hash_u64(key, a);
	key->k1 = pt_hash_u64(key, b ^ key->k0);
}

/* ---- the universal block hash (hash.h) ---- */

#define P61 (((uint64_t)1 << 61) - 1)

static uint64_t mod61(uint64_t x)
{
	x = (x & P61) + (x >> 61);
	return x >= P61 ? x - P61 : x;
}

/* a * b mod 2^61 - 1, for a and b below 2^61 */
static uint64_t mulmod61(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 r = (unsigned __int128)a * b;
	return mod61(((uint64_t)r & P61) + (uint64_t)(r >> 61));
#else
	/* 2^64 = 8 and mid * 2^32 = (mid >> 29) + (mid mod 2^29) * 2^32 modulo 2^61 - 1 */
	uint64_t ah = a >> 32, al = a & 0xffffffffu, bh = b >> 32, bl = b & 0xffffffffu;
	uint64_t mid = ah * bl + al * bh;
	return mod61(ah * bh * 8 + (mid >> 29) + ((mid & 0x1fffffffu) << 32) + mod61(al * bl));
#endif
}

void pt_uhash_key_init(struct pt_uhash_key *key, const struct pt_hash_key *from)
{
	size_t i;

	/* the words from the one key, SipHash being a pseudo-random function */
	for (i = 0; i < sizeof(key->nh) / sizeof(key->nh[0]); i++)
		key->nh[i] = pt_hash_u64(from, i);
	for (i = 0; i < 2; i++)
		key->point[i] = mod61(pt_hash_u64(from, (uint64_t)1 << 40 | i)) % (P61 - 1) + 1;
}

/* 128-bit sums: a native type where there is one */
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 acc128;
#define ACC_ZERO	     0
#define ACC_ADD_MUL(s, a, b) ((s) += (acc128)(a) * (b))
#define ACC_LO(s)	     ((uint64_t)(s))
#define ACC_HI(s)	     ((uint64_t)((s) >> 64))
#else
/* a * b as a 128-bit value: lo and hi halves, for compilers without a 128-bit type */
static inline void mul128(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
	uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	*lo = (mid << 32) | (ll & 0xffffffffu);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

typedef struct {
	uint64_t lo, hi;
} acc128;
#define ACC_ZERO                                                                                   \
	{                                                                                          \
		0, 0                                                                               \
	}
#define ACC_ADD_MUL(s, a, b)                                                                       \
	do {                                                                                       \
		uint64_t l_, h_;                                                                   \
		mul128((a), (b), &l_, &h_);                                                        \
		(s).lo += l_;                                                                      \
		(s).hi += h_ + ((s).lo < l_);                                                      \
	} while (0)
#define ACC_LO(s) ((s).lo)
#define ACC_HI(s) ((s).hi)
#endif

/* NH over 64-bit words of p[0..n), n at most PT_UHASH_CHUNK: the sum of
 * (m[2i] + k[2i]) * (m[2i+1] + k[2i+1]) modulo 2^128, a last partial pair of words
 * padded with zeros */
static void nh(const uint64_t *k, const unsigned char *p, size_t n, uint64_t y[2])
{
	acc128 s0 = ACC_ZERO, s1 = ACC_ZERO;
	uint64_t a, b, c, d;
	unsigned char t[16];
	size_t i;

	for (i = 0; i + 32 <= n; i += 32, k += 4) { /* two sums: two products at a time */
		memcpy(&a, p + i, 8);
		memcpy(&b, p + i + 8, 8);
		memcpy(&c, p + i + 16, 8);
		memcpy(&d, p + i + 24, 8);
		ACC_ADD_MUL(s0, a + k[0], b + k[1]);
		ACC_ADD_MUL(s1, c + k[2], d + k[3]);
	}
	if (i + 16 <= n) {
		memcpy(&a, p + i, 8);
		memcpy(&b, p + i + 8, 8);
		ACC_ADD_MUL(s0, a + k[0], b + k[1]);
		i += 16;
		k += 2;
	}
	if (i < n) {
		memset(t, 0, sizeof(t));
		memcpy(t, p + i, n - i);
		memcpy(&a, t, 8);
		memcpy(&b, t + 8, 8);
		ACC_ADD_MUL(s1, a + k[0], b + k[1]);
	}
	y[0] = ACC_LO(s0) + ACC_LO(s1);
	y[1] = ACC_HI(s0) + ACC_HI(s1) + (y[0] < ACC_LO(s0));
}

/* a 32-bit coefficient into the polynomial at x */
static uint64_t poly_step(uint64_t acc, uint64_t x, uint64_t c)
{
	return mod61(mulmod61(acc, x) + c);
}

void pt_uhash(const struct pt_uhash_key *key, const void *data, size_t n, uint64_t out[2])
{
	const unsigned char *p = data;
	uint64_t a0 = 0, a1 = 0, y[2];
	size_t c, j;

	if (n <= PT_UHASH_CHUNK) { /* one chunk: its NH value is the hash */
		nh(key->nh, p, n, out);
		return;
	}
	do {
		c = n < PT_UHASH_CHUNK ? n : PT_UHASH_CHUNK;
		nh(key->nh, p, c, y);
		for (j = 0; j < 4; j++) {
			uint64_t coef = y[j / 2] >> (32 * (j % 2)) & 0xffffffffu;
			a0 = poly_step(a0, key->point[0], coef);
			a1 = poly_step(a1, key->point[1], coef);
		}
		p += c;
		n -= c;
	} while (n);
	out[0] = a0;
	out[1] = a1;
}
