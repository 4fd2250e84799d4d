/* units.c: value rendering. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "util/round.h"

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
	fl = pt_floor(y);
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

void pt_buf_add_bytes(struct pt_buf *b, double x)
{
	static const char *const suf[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	double a = fabs(x);
	int k = 0;

	if (a == 0) {
		add_2f(b, 0, "");
		return;
	}
	while (a >= 1024 && k < 5) {
		a /= 1024;
		x /= 1024;
		k++;
	}
	add_2f(b, x, suf[k]);
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
		pt_buf_add_bytes(b, x);
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

/* ---- pprof's units (internal/measurement) ---- */

struct pp_unit {
	const char *name;
	const char *aliases[4];
	double factor;
};

static const struct pp_unit mem_units[] = {
	{"B", {"b", "byte"}, 1},
	{"kB", {"kb", "kbyte", "kilobyte"}, 1024.0},
	{"MB", {"mb", "mbyte", "megabyte"}, 1048576.0},
	{"GB", {"gb", "gbyte", "gigabyte"}, 1073741824.0},
	{"TB", {"tb", "tbyte", "terabyte"}, 1099511627776.0},
	{"PB", {"pb", "pbyte", "petabyte"}, 1125899906842624.0},
	{NULL, {NULL}, 0},
};
static const struct pp_unit time_units[] = {
	{"ns", {"ns", "nanosecond"}, 1},    {"us", {"\xce\xbcs", "us", "microsecond"}, 1e3},
	{"ms", {"ms", "millisecond"}, 1e6}, {"s", {"s", "sec", "second"}, 1e9},
	{"hrs", {"hour", "hr"}, 3600e9},    {NULL, {NULL}, 0},
};
static const struct {
	const struct pp_unit *units;
	const struct pp_unit *dflt;
} unit_types[] = {{mem_units, &mem_units[0]}, {time_units, &time_units[3]}};

/* the unit of `ut` that `name` means: lower-cased, a trailing 's' cut when longer than 2 */
static const struct pp_unit *sniff(const struct pp_unit *ut, const char *name)
{
	char low[64];
	size_t n = strlen(name), i, j;

	if (n >= sizeof(low))
		return NULL;
	for (i = 0; i < n; i++)
		low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
	if (n > 2 && low[n - 1] == 's')
		n--;
	low[n] = '\0';
	for (i = 0; ut[i].name; i++)
		for (j = 0; j < 4 && ut[i].aliases[j]; j++)
			if (!strcmp(low, ut[i].aliases[j]))
				return &ut[i];
	return NULL;
}

static int is_auto(const char *to)
{
	return !strcmp(to, "minimum") || !strcmp(to, "auto");
}

/* measurement.Scale: v in `from` expressed in `to` ("minimum"/"auto" pick the largest
 * unit that keeps the value >= 1); *unit is the suffix to print */
double pt_pprof_scale(int64_t v, const char *from, const char *to, const char **unit)
{
	size_t k;

	if (v < 0 && v != INT64_MIN)
		return -pt_pprof_scale(-v, from, to, unit);
	for (k = 0; k < sizeof(unit_types) / sizeof(unit_types[0]); k++) {
		const struct pp_unit *ut = unit_types[k].units, *fu = sniff(ut, from), *tu;
		double x;
		if (!fu)
			continue;
		x = (double)v * fu->factor;
		if (is_auto(to)) {
			const struct pp_unit *best = NULL;
			size_t i;
			for (i = 0; ut[i].name; i++)
				if ((!best || ut[i].factor >= best->factor) &&
				    x / ut[i].factor >= 1.0)
					best = &ut[i];
			tu = best ? best : unit_types[k].dflt;
		} else {
			tu = sniff(ut, to);
			if (!tu)
				tu = unit_types[k].dflt;
		}
		*unit = tu->name;
		return x / tu->factor;
	}
	*unit = !strcmp(to, "count") || !strcmp(to, "sample") || !strcmp(to, "unit") || is_auto(to)
			? ""
			: to;
	return (double)v;
}

/* pprof's unit of a numeric label: its num_unit, else "bytes" for the keys pprof knows
 * as sizes, else the key itself */
const char *pt_pprof_num_label_unit(const struct pt_profile *p, const struct pt_label *l)
{
	const char *key = pt_s(p, l->key);
	if (l->num_unit)
		return pt_s(p, l->num_unit);
	if (!strcmp(key, "alignment") || !strcmp(key, "request"))
		return "bytes";
	return key;
}

void pt_buf_add_pprof_label(struct pt_buf *b, int64_t v, const char *from, const char *to)
{
	const char *unit;
	double x = pt_pprof_scale(v, from, to, &unit);
	size_t start = b->len;

	add_2f(b, x, "");
	if (!strcmp(b->buf + start, "0") || !strcmp(b->buf + start, "-0")) {
		pt_buf_setlen(b, start);
		pt_buf_addstr(b, "0");
		return;
	}
	pt_buf_addstr(b, unit);
}
