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
