/* test-core.c: arena, intern, index, buf, map, the block hash, sort, input (lines, gzip, limits),
 * units. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/arena.h"
#include "util/buf.h"
#include "util/fetch.h"
#include "util/hash.h"
#include "util/index.h"
#include "util/input.h"
#include "util/intern.h"
#include "util/map.h"
#include "core/profile.h"
#include "util/sort.h"
#include "util/xalloc.h"
#include "tap.h"
#include "core/units.h"

static void test_intern(void)
{
	struct pt_arena a = PT_ARENA_INIT;
	struct pt_intern t;
	uint32_t x, y, i;
	char name[32];

	pt_intern_init(&t, &a);
	is_int(pt_intern(&t, "", 0), 0, "id 0 is the empty string");
	x = pt_intern_cstr(&t, "main");
	y = pt_intern_cstr(&t, "main");
	ok(x == y && x != 0, "the same string gets the same id");
	ok(!strcmp(pt_intern_str(&t, x), "main"), "the string comes back");
	is_int(pt_intern(&t, "a\0b", 3), pt_intern(&t, "a\0b", 3), "embedded NUL is a key byte");
	ok(pt_intern(&t, "a\0b", 3) != pt_intern(&t, "a\0c", 3), "bytes after NUL count");
	for (i = 0; i < 100000; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		pt_intern_cstr(&t, name);
	}
	is_int(pt_intern_find(&t, "s99999", 6) != UINT32_MAX, 1, "found after many rehashes");
	is_int(pt_intern_find(&t, "nope", 4), UINT32_MAX, "absent string not found");
	pt_intern_release(&t);
	pt_arena_release(&a);
}

/* pt_index over an array the test keeps: records of 12 bytes, two of them fixed */
struct rec {
	uint32_t a, b, c;
};
struct recs {
	struct rec *v;
	size_t n, alloc;
	const struct pt_index *x;
	unsigned hashed; /* rehash calls */
};

static int rec_eq(const void *ctx, uint32_t id, const void *key)
{
	return !memcmp(&((const struct recs *)ctx)->v[id], key, sizeof(struct rec));
}

static uint64_t rec_hash(const void *ctx, uint32_t id)
{
	struct recs *r = (struct recs *)ctx;
	r->hashed++;
	return pt_index_hash(r->x, &r->v[id], sizeof(struct rec));
}

static const struct pt_index_ops rec_ops = {rec_eq, rec_hash};

static uint32_t rec_put(struct pt_index *x, struct recs *r, uint32_t a, uint32_t b)
{
	struct rec k = {a, b, a ^ b};
	uint32_t id = pt_index_put(x, pt_index_hash(x, &k, sizeof(k)), &k, &rec_ops, r);

	if (id == r->n) {
		PT_ALLOC_GROW(r->v, r->n + 1, r->alloc);
		r->v[r->n++] = k;
	}
	return id;
}

static void test_index(void)
{
	struct pt_hash_key key;
	struct pt_index x;
	struct recs r = {0};
	uint32_t i, first, wrong = 0;

	pt_hash_key_init(&key);
	pt_index_init_key(&x, &key, 2);
	r.x = &x;
	/* ids 0 and 1 are the caller's placeholders: all-zero records, never found */
	PT_ALLOC_GROW(r.v, 2, r.alloc);
	memset(r.v, 0, 2 * sizeof(*r.v));
	r.n = 2;
	first = rec_put(&x, &r, 0, 0);
	is_int(first, 2, "the first record takes the first id after the placeholders");
	is_int(rec_put(&x, &r, 0, 0), 2, "an equal record finds it");
	for (i = 0; i < 100000; i++)
		if (rec_put(&x, &r, i + 1, i * 7) != i + 3)
			wrong++;
	is_int(wrong, 0, "100,000 distinct records take dense ids in order");
	ok(r.hashed > 0, "the table grew and asked for the records' hashes (%u)", r.hashed);
	for (i = 0, wrong = 0; i < 100000; i++)
		if (rec_put(&x, &r, i + 1, i * 7) != i + 3)
			wrong++;
	is_int(wrong, 0, "each is found again after the table grew");
	is_int(x.n, 100003, "no id was given twice");
	is_int(rec_put(&x, &r, 1, 1), 100003, "a record differing in one field is new");
	pt_index_release(&x);
	free(r.v);
}

static void test_buf(void)
{
	struct pt_buf b = PT_BUF_INIT;
	is_int(b.len, 0, "empty buf");
	ok(b.buf[0] == '\0', "empty buf is a string");
	pt_buf_addf(&b, "%d-%s", 42, "x");
	pt_buf_addstr(&b, "yz");
	ok(!strcmp(b.buf, "42-xyz"), "addf and addstr");
	pt_buf_setlen(&b, 2);
	ok(!strcmp(b.buf, "42"), "setlen truncates");
	pt_buf_reset(&b);
	pt_buf_add_raw(&b, 1234, 2);
	ok(!strcmp(b.buf, "12.34"), "fixed-point value with 2 decimals");
	pt_buf_reset(&b);
	pt_buf_add_raw(&b, -5, 3);
	ok(!strcmp(b.buf, "-0.005"), "negative fixed-point value");
	pt_buf_release(&b);
}

/* the integer appenders write what printf writes, at every length and both ends */
static void test_buf_ints(void)
{
	struct pt_buf b = PT_BUF_INIT;
	char want[64];
	uint64_t u;
	int bad = 0, k;

	/* every power of ten and its neighbours, signed and unsigned */
	for (u = 1; u; u = u <= UINT64_MAX / 10 ? u * 10 : 0) {
		for (k = -1; k <= 1; k++) {
			uint64_t v = u + (uint64_t)(int64_t)k;
			int64_t s = (int64_t)(v & INT64_MAX);
			pt_buf_reset(&b);
			pt_buf_addch(&b, 'x');
			pt_buf_add_u64(&b, v);
			snprintf(want, sizeof(want), "x%" PRIu64, v);
			bad += strcmp(b.buf, want) != 0 || b.len != strlen(want);
			pt_buf_reset(&b);
			pt_buf_add_i64(&b, s);
			pt_buf_add_i64(&b, -s);
			snprintf(want, sizeof(want), "%" PRId64 "%" PRId64, s, -s);
			bad += strcmp(b.buf, want) != 0;
		}
	}
	pt_buf_reset(&b);
	pt_buf_add_i64(&b, INT64_MIN);
	pt_buf_add_u64(&b, UINT64_MAX);
	snprintf(want, sizeof(want), "%" PRId64 "%" PRIu64, INT64_MIN, UINT64_MAX);
	bad += strcmp(b.buf, want) != 0;
	is_int(bad, 0, "pt_buf_add_i64 and pt_buf_add_u64 write what printf writes");
	pt_buf_release(&b);
}

/* pt_buf_add_fixed rounds as printf does: on exact ties, just beside them, at every
 * magnitude it handles itself and beyond */
static void test_buf_fixed(void)
{
	struct pt_buf b = PT_BUF_INIT;
	char want[512];
	uint64_t seed = 42;
	int bad = 0, i, d;

	for (i = 0; i < 200000; i++) {
		double x;
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		switch (i % 4) {
		case 0: /* exact and near ties: k / 200, k / 20 */
			x = (double)(seed >> 40) / (i % 8 ? 200.0 : 20.0);
			break;
		case 1: /* any magnitude up to past the fast range */
			x = (double)(seed >> 11) / (double)(1ULL << (seed % 64));
			break;
		case 2:
			x = (double)(seed >> 34) / 100.0 + 0.005;
			break;
		default:
			x = -(double)(seed >> 44) / 1000.0;
		}
		for (d = 1; d <= 2; d++) {
			pt_buf_reset(&b);
			pt_buf_add_fixed(&b, x, d);
			snprintf(want, sizeof(want), "%.*f", d, x);
			bad += strcmp(b.buf, want) != 0;
		}
	}
	pt_buf_reset(&b);
	pt_buf_add_fixed(&b, -0.0, 2);
	bad += strcmp(b.buf, "-0.00") != 0;
	is_int(bad, 0, "pt_buf_add_fixed writes what printf's %%.1f and %%.2f write");
	pt_buf_release(&b);
}

/* pt_uhash: the same bytes give the same value wherever they are; a block changed in
 * any one byte, in any chunk, gives another; one chunk's value is NH as written in the
 * UMAC paper, computed here apart */
static void test_uhash(void)
{
	static const size_t sizes[] = {0, 1, 15, 16, 17, 31, 33, 600, 4096, 4097, 10000};
	struct pt_uhash_key key;
	struct pt_hash_key from;
	unsigned char *a = malloc(10001), *b = malloc(10001);
	uint64_t ha[2], hb[2];
	size_t i, k, pos, same = 0, differ = 0, tries = 0;

	pt_hash_key_init(&from);
	pt_uhash_key_init(&key, &from);
	for (i = 0; i < 10001; i++)
		a[i] = (unsigned char)("\t ffffffff8100 f+0x7 (x)\n"[i % 25] + i / 25 % 3);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		memcpy(b + 1, a, n); /* another alignment */
		pt_uhash(&key, a, n, ha);
		pt_uhash(&key, b + 1, n, hb);
		same += ha[0] == hb[0] && ha[1] == hb[1];
		for (pos = 0; pos < n; pos += n / 50 + 1) {
			memcpy(b, a, n);
			b[pos] ^= (unsigned char)(1u << (pos % 8));
			pt_uhash(&key, b, n, hb);
			differ += ha[0] != hb[0] || ha[1] != hb[1];
			tries++;
		}
		if (n) { /* the last byte, which a sampled hash would pass over */
			memcpy(b, a, n);
			b[n - 1] ^= 0x20;
			pt_uhash(&key, b, n, hb);
			differ += ha[0] != hb[0] || ha[1] != hb[1];
			tries++;
		}
	}
	is_int(same, sizeof(sizes) / sizeof(sizes[0]),
	       "the same bytes at another address: the same value");
	is_int(differ, tries, "%zu blocks changed in one byte: all %zu values differ", tries,
	       tries);
#ifdef __SIZEOF_INT128__
	{
		unsigned __int128 sum = 0;
		size_t n = 600, w;
		for (w = 0; w * 8 < n; w += 2) {
			uint64_t m0 = 0, m1 = 0;
			for (i = 0; i < 8; i++) {
				m0 |= (uint64_t)(w * 8 + i < n ? a[w * 8 + i] : 0) << (8 * i);
				m1 |= (uint64_t)(w * 8 + 8 + i < n ? a[w * 8 + 8 + i] : 0)
				      << (8 * i);
			}
			sum += (unsigned __int128)(m0 + key.nh[w]) * (m1 + key.nh[w + 1]);
		}
		pt_uhash(&key, a, n, ha);
		ok(ha[0] == (uint64_t)sum && ha[1] == (uint64_t)(sum >> 64),
		   "a 600-byte block: NH of its little-endian words");
	}
#endif
	free(a);
	free(b);
}

static void test_map(void)
{
	struct pt_map m;
	uint32_t i, *slot, bad = 0;

	pt_map_init(&m);
	for (i = 0; i < 50000; i++) {
		slot = pt_map_put(&m, (uint64_t)i * 0x100000001ULL);
		if (*slot != PT_MAP_NEW)
			bad++;
		*slot = i;
	}
	is_int(bad, 0, "every new key reports PT_MAP_NEW");
	for (i = 0; i < 50000; i++)
		if (pt_map_get(&m, (uint64_t)i * 0x100000001ULL) != i)
			bad++;
	is_int(bad, 0, "every key maps to its value");
	is_int(pt_map_get(&m, 7), UINT32_MAX, "absent key");
	pt_map_release(&m);
}

/* the seconds a URL asks a /debug/pprof/ endpoint for (go tool pprof's wait follows
 * them) */
static void test_url_seconds(void)
{
	char *u;

	is_int(pt_url_seconds("http://h/debug/pprof/profile?seconds=30"), 30, "?seconds=30");
	is_int(pt_url_seconds("http://h/debug/pprof/profile?debug=1&seconds=5&x=1"), 5,
	       "&seconds=5& among others");
	is_int(pt_url_seconds("http://h/debug/pprof/profile"), 0, "no query");
	is_int(pt_url_seconds("http://h/debug/pprof/profile?xseconds=5"), 0, "another key");
	is_int(pt_url_seconds("http://h/p?seconds=5s"), 0, "not a number");
	is_int(pt_url_seconds("http://h/p?seconds=100001"), 0, "past the bound");
	u = pt_url_with_seconds("http://h/debug/pprof/profile?debug=1", 7);
	ok(!strcmp(u, "http://h/debug/pprof/profile?debug=1&seconds=7"), "seconds added to a query");
	free(u);
	u = pt_url_with_seconds("http://h/debug/pprof/profile?seconds=3", 7);
	ok(!strcmp(u, "http://h/debug/pprof/profile?seconds=3"), "the URL's own seconds kept");
	free(u);
}

/* the radix sort orders by key and keeps equal keys in their order, whatever the width */
static void test_sort(void)
{
	static const unsigned widths[] = {1, 7, 11, 12, 23, 33, 64};
	struct pt_keyed *v = malloc(5000 * sizeof(*v)), *tmp = malloc(5000 * sizeof(*tmp)), *s;
	uint64_t x = 88172645463325252ULL;
	size_t i, w;

	for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		unsigned bits = widths[w];
		uint32_t bad = 0;
		for (i = 0; i < 5000; i++) {
			x ^= x << 13; /* xorshift64 */
			x ^= x >> 7;
			x ^= x << 17;
			/* few distinct keys, so that runs of equal ones are long */
			v[i].key = (bits < 64 ? x & (((uint64_t)1 << bits) - 1) : x) &
				   ~(uint64_t)0xff0;
			v[i].a = (uint32_t)i;
		}
		s = pt_sort_keyed(v, tmp, 5000, bits);
		for (i = 1; i < 5000; i++)
			if (s[i - 1].key > s[i].key ||
			    (s[i - 1].key == s[i].key && s[i - 1].a > s[i].a))
				bad++;
		is_int(bad, 0, "%u-bit keys sort in order, equal keys stable", bits);
	}
	is_int(pt_bits(0), 0, "pt_bits(0)");
	is_int(pt_bits(1), 1, "pt_bits(1)");
	is_int(pt_bits(20000), 15, "pt_bits(20000)");
	is_int(pt_bits(UINT64_MAX), 64, "pt_bits(UINT64_MAX)");
	free(v);
	free(tmp);
}

static void test_units(void)
{
	struct pt_profile p;
	struct pt_buf b = PT_BUF_INIT;

	pt_profile_init(&p);
	pt_profile_add_type(&p, "cpu", "nanoseconds");
	pt_profile_add_type(&p, "space", "bytes");
	pt_profile_add_type(&p, "samples", "count");
	pt_buf_add_scaled(&b, &p, 0, 1500000000);
	ok(!strcmp(b.buf, "1.50s"), "1.5e9 ns is 1.50s (got %s)", b.buf);
	pt_buf_reset(&b);
	pt_buf_add_scaled(&b, &p, 0, 20000000);
	ok(!strcmp(b.buf, "20ms"), "2e7 ns is 20ms (got %s)", b.buf);
	pt_buf_reset(&b);
	pt_buf_add_scaled(&b, &p, 1, 1536);
	ok(!strcmp(b.buf, "1.50kB"), "1536 bytes is 1.50kB (got %s)", b.buf);
	pt_buf_reset(&b);
	pt_buf_add_scaled(&b, &p, 2, 1234);
	ok(!strcmp(b.buf, "1234"), "counts are plain (got %s)", b.buf);
	pt_buf_release(&b);
	pt_profile_release(&p);
}

static char *write_tmp(const void *data, size_t n, int gz)
{
	char *path = strdup("/tmp/pt-unit-XXXXXX");
	int fd = mkstemp(path);
	if (gz) {
		gzFile g = gzdopen(fd, "wb");
		gzwrite(g, data, (unsigned)n);
		gzclose(g);
	} else {
		if (write(fd, data, n) != (ssize_t)n)
			abort();
		close(fd);
	}
	return path;
}

static int count_lines(const char *path, uint64_t max, char *last, size_t lastsz, int *err)
{
	struct pt_input in;
	struct pt_diag d;
	char *line;
	size_t n;
	int rc, count = 0;

	pt_diag_init(&d, path);
	*err = 0;
	if (pt_input_open(&in, path, max, &d) < 0) {
		*err = 1;
		return -1;
	}
	while ((rc = pt_input_getline(&in, &line, &n)) > 0) {
		count++;
		snprintf(last, lastsz, "%s", line);
	}
	if (rc < 0)
		*err = 1;
	pt_input_close(&in);
	return count;
}

static void test_input(void)
{
	const char text[] = "one\r\ntwo\nthree";
	char last[64] = "", *path, *big;
	int err, i;
	size_t n = 3 * 1024 * 1024;

	path = write_tmp(text, strlen(text), 0);
	is_int(count_lines(path, 0, last, sizeof(last), &err), 3,
	       "three lines, last without newline");
	ok(!strcmp(last, "three"), "the last line is kept");
	unlink(path);
	free(path);

	path = write_tmp(text, strlen(text), 1);
	is_int(count_lines(path, 0, last, sizeof(last), &err), 3, "the same through gzip");
	ok(!strcmp(last, "three") && !err, "gzip last line kept, no error");
	unlink(path);
	free(path);

	/* lines longer than the initial buffer */
	big = malloc(n + 2);
	for (i = 0; i < (int)n; i++)
		big[i] = 'x';
	big[n] = '\n';
	big[n + 1] = 'y';
	path = write_tmp(big, n + 2, 0);
	is_int(count_lines(path, 0, last, sizeof(last), &err), 2, "a 3 MB line and another");
	unlink(path);
	free(path);

	/* a line and what is read ahead after it hold PT_INPUT_AHEAD bytes, save at the end */
	{
		struct pt_input in;
		struct pt_diag d;
		char *line;
		size_t len, ahead, least = SIZE_MAX;
		int lines = 0, rc;

		for (i = 0; i < (int)n; i++)
			big[i] = i % 61 == 60 ? '\n' : 'a' + i % 26;
		path = write_tmp(big, n, 0);
		pt_diag_init(&d, path);
		pt_input_open(&in, path, 0, &d);
		while ((rc = pt_input_getline(&in, &line, &len)) > 0) {
			lines++;
			pt_input_ahead(&in, &ahead);
			ahead += len + 1; /* the line and what follows it */
			if (n - pt_input_tell(&in) + len + 1 >= PT_INPUT_AHEAD && ahead < least)
				least = ahead;
		}
		pt_input_close(&in);
		ok(rc == 0 && lines == (int)((n + 60) / 61), "%d lines of 61 bytes read", lines);
		ok(least >= PT_INPUT_AHEAD && least != SIZE_MAX,
		   "at least %zu bytes from each line on are read, before the last ones (least %zu)",
		   PT_INPUT_AHEAD, least);
		unlink(path);
		free(path);
		for (i = 0; i < (int)n; i++)
			big[i] = 'x';
	}

	/* decompressed size is bounded */
	path = write_tmp(big, n, 1);
	count_lines(path, 1024 * 1024, last, sizeof(last), &err);
	ok(err, "a gzip bigger than max_size stops with an error");
	unlink(path);
	free(path);
	free(big);

	/* truncated gzip */
	{
		char gzpath[] = "/tmp/pt-unit-gzXXXXXX";
		int fd = mkstemp(gzpath);
		static const unsigned char trunc[] = {0x1f, 0x8b, 0x08, 0x00, 0,   0,
						      0,    0,	  0,	3,    0x4b};
		if (write(fd, trunc, sizeof(trunc)) != (ssize_t)sizeof(trunc))
			abort();
		close(fd);
		count_lines(gzpath, 0, last, sizeof(last), &err);
		ok(err, "a truncated gzip is an error");
		unlink(gzpath);
	}
}

int main(void)
{
	test_intern();
	test_index();
	test_buf();
	test_buf_ints();
	test_buf_fixed();
	test_map();
	test_uhash();
	test_url_seconds();
	test_sort();
	test_units();
	test_input();
	return tap_done();
}
