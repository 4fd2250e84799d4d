/* tap.h: a tiny TAP producer for the C unit tests (one header, no library). */
#ifndef PT_TAP_H
#define PT_TAP_H

#include <stdio.h>

static int tap_n, tap_failed;

#define ok(cond, ...)                                                                              \
	do {                                                                                       \
		int tap_c_ = (cond);                                                               \
		tap_n++;                                                                           \
		if (!tap_c_)                                                                       \
			tap_failed++;                                                              \
		printf("%sok %d - ", tap_c_ ? "" : "not ", tap_n);                                 \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		if (!tap_c_)                                                                       \
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);            \
	} while (0)

#define is_int(got, want, ...)                                                                     \
	do {                                                                                       \
		long long tap_g_ = (long long)(got), tap_w_ = (long long)(want);                   \
		ok(tap_g_ == tap_w_, __VA_ARGS__);                                                 \
		if (tap_g_ != tap_w_)                                                              \
			printf("#   got %lld, want %lld\n", tap_g_, tap_w_);                       \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
