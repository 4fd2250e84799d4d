/* test-round.c: our floor, ceil and llround (util/round.h) give what libm's give, bit for
 * bit, on edge cases and on millions of doubles drawn from fixed-seed random bits. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "util/round.h"

/* libm's, called through pointers so that the compiler cannot fold or inline them */
static double (*volatile libm_floor)(double) = floor;
static double (*volatile libm_ceil)(double) = ceil;
static long long (*volatile libm_llround)(double) = llround;

#define RANDOM_DRAWS (1u << 19)

struct tally {
	uint64_t checked, wrong;
	uint64_t first; /* the bits of the first double that differed */
};

static uint64_t next_random(uint64_t *s)
{
	/* xorshift64*: enough spread over the 64 bits for this */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static double from_bits(uint64_t u)
{
	double x;
	memcpy(&x, &u, sizeof(x));
	return x;
}

static uint64_t to_bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof(u));
	return u;
}

/* llround's result is unspecified in C outside long long's range (and for NaN): ours
 * is INT64_MIN there, which is what glibc's gives on x86-64, so there the two are
 * compared too; elsewhere ours is held to its contract */
#if defined(__x86_64__)
#define LIBM_LLROUND_MIN 1
#else
#define LIBM_LLROUND_MIN 0
#endif

static int llround_in_range(double x)
{
	return x >= -0x1p63 && x < 0x1p63;
}

static void check_one(double x, struct tally t[3])
{
	int64_t want_ll;
	int bad[3];
	int k;

	bad[0] = to_bits(pt_floor(x)) != to_bits(libm_floor(x));
	bad[1] = to_bits(pt_ceil(x)) != to_bits(libm_ceil(x));
	want_ll = (int64_t)libm_llround(x);
	if (!llround_in_range(x) && !LIBM_LLROUND_MIN)
		want_ll = INT64_MIN;
	bad[2] = pt_llround(x) != want_ll;
	for (k = 0; k < 3; k++) {
		t[k].checked++;
		if (bad[k] && !t[k].wrong++)
			t[k].first = to_bits(x);
	}
}

/* x, its neighbours one unit in the last place either side, and their negations */
static void check_around(double x, struct tally t[3])
{
	uint64_t u = to_bits(x) & ~(UINT64_C(1) << 63);
	int s;

	for (s = 0; s < 2; s++) {
		uint64_t sign = s ? UINT64_C(1) << 63 : 0;
		check_one(from_bits(u | sign), t);
		if (u < UINT64_C(0x7ff0000000000000))
			check_one(from_bits((u + 1) | sign), t);
		if (u > 0)
			check_one(from_bits((u - 1) | sign), t);
	}
}

static void report(const char *what, struct tally t[3])
{
	static const char *const names[] = {"floor", "ceil", "llround"};
	int k;

	for (k = 0; k < 3; k++) {
		ok(t[k].checked > 0 && !t[k].wrong, "%s: %s as libm's over %" PRIu64 " doubles",
		   names[k], what, t[k].checked);
		if (t[k].wrong)
			printf("#   %" PRIu64 " differ, the first 0x%016" PRIx64 " (%.17g)\n",
			       t[k].wrong, t[k].first, from_bits(t[k].first));
	}
}

static void test_edges(void)
{
	/* zeros, quarters and halves; subnormals and the smallest normal; around 2^51,
	 * 2^52 and 2^53 (from where every double is whole), 2^62, 2^63 and 2^64; far out */
	static const double small[] = {0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5, 3.5, 123456.5};
	static const double tiny[] = {0.49999999999999994, 4.9e-324, 2.2250738585072014e-308};
	static const double mid[] = {0x1p51, 2251799813685248.5, 0x1p52, 4503599627370495.5};
	static const double big[] = {0x1p53, 9007199254740991.0, 0x1p62, 0x1p63, 0x1p64};
	static const double far[] = {9223372036854774784.0, 9.2e18, 9e15, 1e300, 0x1.fp1023};
	static const struct {
		const double *v;
		size_t n;
	} lists[] = {{small, sizeof(small) / sizeof(small[0])},
		     {tiny, sizeof(tiny) / sizeof(tiny[0])},
		     {mid, sizeof(mid) / sizeof(mid[0])},
		     {big, sizeof(big) / sizeof(big[0])},
		     {far, sizeof(far) / sizeof(far[0])}};
	struct tally t[3];
	size_t i, j;

	memset(t, 0, sizeof(t));
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (j = 0; j < lists[i].n; j++)
			check_around(lists[i].v[j], t);
	check_around(1.7976931348623157e308, t); /* the largest double */
	check_one(INFINITY, t);
	check_one(-INFINITY, t);
	check_one(NAN, t);
	check_one(-NAN, t);
	check_one(from_bits(UINT64_C(0x7ff0000000000001)), t); /* signalling NaN */
	check_one(from_bits(UINT64_C(0xfff4000000000000)), t);
	report("edge cases (zeros, halves, 2^52, 2^63, infinities, NaN)", t);

	/* the ones the callers and the C standard name, spelled out */
	ok(signbit(pt_floor(-0.0)) && pt_floor(-0.0) == 0, "floor(-0.0) is -0.0");
	ok(signbit(pt_ceil(-0.5)) && pt_ceil(-0.5) == 0, "ceil(-0.5) is -0.0");
	ok(!signbit(pt_floor(0.5)) && pt_floor(0.5) == 0, "floor(0.5) is +0.0");
	is_int(pt_llround(2.5), 3, "llround(2.5) is 3: halves away from zero");
	is_int(pt_llround(-2.5), -3, "llround(-2.5) is -3");
	is_int(pt_llround(-0x1p63), INT64_MIN, "llround(-2^63) is INT64_MIN, in range");
	is_int(pt_llround(0x1p63), INT64_MIN, "llround(2^63) is INT64_MIN: out of range");
	is_int(pt_llround(NAN), INT64_MIN, "llround(NaN) is INT64_MIN");
	ok(isnan(pt_floor(NAN)) && isnan(pt_ceil(NAN)), "floor and ceil of NaN are NaN");
}

static void test_random(void)
{
	uint64_t s = UINT64_C(0x9e3779b97f4a7c15);
	struct tally bits[3], near[3], halves[3];
	uint32_t i;

	memset(bits, 0, sizeof(bits));
	memset(near, 0, sizeof(near));
	memset(halves, 0, sizeof(halves));
	for (i = 0; i < RANDOM_DRAWS; i++) {
		uint64_t u = next_random(&s), r = next_random(&s);
		/* any bits: mostly huge or tiny magnitudes, and some NaNs */
		check_one(from_bits(u), bits);
		/* the exponent put where the fraction has a whole part and a fraction:
		 * 2^-3 to 2^65 */
		u = (u & ~(UINT64_C(0x7ff) << 52)) | ((uint64_t)(1020 + r % 69) << 52);
		check_one(from_bits(u), near);
		/* a whole number of up to 60 bits, a half, and either neighbour */
		check_around((double)(int64_t)(r >> (4 + u % 60)) + 0.5, halves);
	}
	report("random bits", bits);
	report("random exponents from 2^-3 to 2^65", near);
	report("random halves and their neighbours", halves);
}

int main(void)
{
	test_edges();
	test_random();
	return tap_done();
}
