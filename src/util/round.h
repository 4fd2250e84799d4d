/* round.h: floor, ceil and llround of a double, ours rather than libm's (util/libm.h
 * says why libm is not linked). Each returns what glibc's does for every double:
 * tests/unit/test-round.c compares them with libm over edge cases and random bits. */
#ifndef PT_ROUND_H
#define PT_ROUND_H

#include <stdint.h>
#include <string.h>

/* A double's fields: sign (bit 63), biased exponent (bits 52-62, 0x7ff for infinities
 * and NaN) and 52 bits of fraction. With e the unbiased exponent, a finite x with
 * e >= 52 is a whole number, and for 0 <= e < 52 the low 52 - e bits of the fraction
 * are its part after the point. */
#define PT_ROUND_FRAC ((uint64_t)0x000fffffffffffff)

static inline uint64_t pt_round_bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof(u));
	return u;
}

static inline double pt_round_double(uint64_t u)
{
	double x;
	memcpy(&x, &u, sizeof(x));
	return x;
}

static inline int pt_round_exp(uint64_t u)
{
	return (int)((u >> 52) & 0x7ff) - 1023;
}

/* x cut down to a whole number towards -inf (up == 0) or +inf (up == 1), keeping
 * the sign of a zero result when x is negative (ceil(-0.5) is -0.0) */
static inline double pt_round_whole(double x, int up)
{
	uint64_t u = pt_round_bits(x), frac;
	int e = pt_round_exp(u), neg = (int)(u >> 63);

	if (e == 1024)
		return x + x; /* infinity, or NaN made quiet, as glibc does */
	if (e >= 52)
		return x;
	if (e < 0) { /* |x| < 1 */
		if (!(u << 1))
			return x; /* +-0 */
		if (neg)
			return up ? pt_round_double((uint64_t)1 << 63) : -1.0;
		return up ? 1.0 : 0.0;
	}
	frac = PT_ROUND_FRAC >> e;
	if (!(u & frac))
		return x;
	/* away from zero: add one unit in the last whole place, a carry out of the
	 * fraction stepping the exponent, as the magnitude does */
	if (neg != up)
		u += frac + 1;
	return pt_round_double(u & ~frac);
}

static inline double pt_floor(double x)
{
	return pt_round_whole(x, 0);
}

static inline double pt_ceil(double x)
{
	return pt_round_whole(x, 1);
}

/* x rounded to the nearest whole number, halves away from zero, as llround. NaN, the
 * infinities and values outside int64_t's range give INT64_MIN, as glibc's llround
 * does on x86-64 (C leaves them unspecified); every caller keeps x within +-9.2e18
 * before it asks, except pt_mul_round's NaN, which gets INT64_MIN as before. */
static inline int64_t pt_llround(double x)
{
	uint64_t u = pt_round_bits(x), m;
	int e = pt_round_exp(u), neg = (int)(u >> 63);

	if (e < -1)
		return 0; /* |x| < 0.5 */
	if (e == -1)
		return neg ? -1 : 1; /* 0.5 <= |x| < 1 */
	/* -2^63 itself, or out of range */
	if (e >= 63)
		return INT64_MIN;
	m = (u & PT_ROUND_FRAC) | (PT_ROUND_FRAC + 1); /* the significand, 53 bits */
	if (e >= 52)
		m <<= e - 52;
	else
		m = (m + ((PT_ROUND_FRAC + 1) >> 1 >> e)) >> (52 - e);
	/* m < 2^63 here: negated within range */
	return neg ? -(int64_t)m : (int64_t)m;
}

#endif
