/* units.c: value rendering. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"

void pt_buf_add_raw(struct pt_buf *b, int64_t v, uint32_t decimals)
{
	uint64_t mag, div = 1;
	uint32_t i;

	if (!decimals) {
		pt_buf_add_i64(b, v);
		return;
	}
	for (i = 0; i < decimals; i++)
		div *= 10;
	mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	pt_buf_addf(b, "%s%" PRIu64 ".%0*" PRIu64, v < 0 ? "-" : "", mag / div, (int)decimals,
		    mag % div);
}

int pt_unit_is_time(const char *unit, double *ns)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = {
		{"nanoseconds", 1},    {"nanosecond", 1},    {"ns", 1},
		{"microseconds", 1e3}, {"microsecond", 1e3}, {"us", 1e3},
		{"milliseconds", 1e6}, {"millisecond", 1e6}, {"ms", 1e6},
		{"seconds", 1e9},      {"second", 1e9},	     {"s", 1e9},
	};
	size_t i;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name)) {
			*ns = units[i].ns;
			return 1;
		}
	return 0;
}

static int unit_is_bytes(const char *unit)
{
	return !strcmp(unit, "bytes") || !strcmp(unit, "byte") || !strcmp(unit, "B");
}

void pt_buf_add_fixed(struct pt_buf *b, double x, int decimals)
{
	uint64_t scale = decimals == 1 ? 10 : 100, r;
	double y, fl, f;

	/* Below 1e7, x * scale is within 2^-53 * 1e9 < 1e-6 of the exact product, so
	 * its fraction says which way printf rounds unless it is within 1e-6 of a tie.
	 * Near ties, negative numbers (and -0), large ones and NaN go to printf. */
	if ((decimals != 1 && decimals != 2) || !(x >= 0 && x < 1e7) || signbit(x)) {
		pt_buf_addf(b, "%.*f", decimals, x);
		return;
	}
	y = x * (double)scale;
	fl = floor(y);
	f = y - fl;
	if (fabs(f - 0.5) < 1e-6) {
		pt_buf_addf(b, "%.*f", decimals, x);
		return;
	}
	r = (uint64_t)fl + (f > 0.5);
	pt_buf_add_u64(b, r / scale);
	pt_buf_addch(b, '.');
	if (scale == 100)
		pt_buf_addch(b, (int)('0' + r / 10 % 10));
	pt_buf_addch(b, (int)('0' + r % 10));
}

/* pprof's rule: two decimals, with ".00" dropped */
static void add_2f(struct pt_buf *b, double x, const char *suffix)
{
	size_t start = b->len;
	pt_buf_add_fixed(b, x, 2);
	if (b->len - start > 3 && !memcmp(b->buf + b->len - 3, ".00", 3))
		pt_buf_setlen(b, b->len - 3);
	pt_buf_addstr(b, suffix);
}

void pt_buf_add_scaled(struct pt_buf *b, const struct pt_profile *p, uint32_t t, int64_t v)
{
	const struct pt_sample_type *ty = &p->types[t];
	const char *unit = pt_s(p, ty->unit);
	double x = (double)v, ns;
	uint32_t i;

	for (i = 0; i < ty->decimals; i++)
		x /= 10;
	if (pt_unit_is_time(unit, &ns)) {
		double a;
		x *= ns;
		a = fabs(x);
		if (a == 0)
			add_2f(b, 0, "");
		else if (a < 1e3)
			add_2f(b, x, "ns");
		else if (a < 1e6)
			add_2f(b, x / 1e3, "us");
		else if (a < 1e9)
			add_2f(b, x / 1e6, "ms");
		else if (a < 3600e9)
			add_2f(b, x / 1e9, "s");
		else
			add_2f(b, x / 3600e9, "hrs");
		return;
	}
	if (unit_is_bytes(unit)) {
		static const char *const suf[] = {"B", "kB", "MB", "GB", "TB", "PB"};
		double a = fabs(x);
		int k = 0;
		while (a >= 1024 && k < 5) {
			a /= 1024;
			x /= 1024;
			k++;
		}
		add_2f(b, x, suf[k]);
		return;
	}
	if (ty->decimals)
		pt_buf_add_raw(b, v, ty->decimals);
	else
		pt_buf_add_i64(b, v);
}

double pt_pct(int64_t v, int64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

void pt_buf_add_pct(struct pt_buf *b, int64_t v, int64_t total)
{
	pt_buf_add_fixed(b, pt_pct(v, total), 2);
	pt_buf_addch(b, '%');
}

void pt_buf_add_pprof_pct(struct pt_buf *b, int64_t v, int64_t total)
{
	double r = total ? fabs((double)v / (double)total) * 100 : 0;
	if (r >= 99.95 && r <= 100.05)
		pt_buf_addstr(b, "  100%");
	else if (r >= 1.0)
		pt_buf_addf(b, "%5.2f%%", r);
	else
		pt_buf_addf(b, "%5.2g%%", r);
}
