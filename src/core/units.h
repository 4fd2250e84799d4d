/* units.h: rendering values: raw (base unit, fixed-point aware) and scaled for humans
 * the way pprof does (ns/us/ms/s for time, B/kB/MB/GB for bytes, plain for counts). */
#ifndef PT_UNITS_H
#define PT_UNITS_H

#include <stdint.h>

#include "util/buf.h"
#include "core/profile.h"

/* "1234" or, with decimals = 2, "12.34" (trailing zeros of the fraction kept) */
void pt_buf_add_raw(struct pt_buf *b, int64_t v, uint32_t decimals);
/* human form of v, a value of type t of p: "1.50s", "20ms", "512kB", "1234" */
void pt_buf_add_scaled(struct pt_buf *b, const struct pt_profile *p, uint32_t t, int64_t v);
/* x bytes as pprof scales them: 1024-based B, kB, MB..., two decimals, ".00" dropped,
 * no space ("512B", "1.86MB"); 0 gives "0" */
void pt_buf_add_bytes(struct pt_buf *b, double x);
/* percentage text "12.34%" of v in total (0 total gives "0%") */
void pt_buf_add_pct(struct pt_buf *b, int64_t v, int64_t total);
double pt_pct(int64_t v, int64_t total);
/* the same as pprof prints it, width 6: "  100%", "12.34%", "0.012%" */
void pt_buf_add_pprof_pct(struct pt_buf *b, int64_t v, int64_t total);
/* x with 1 or 2 decimals, byte for byte as printf's "%.1f" / "%.2f" (which it still
 * calls for the rare values it cannot round cheaply) */
void pt_buf_add_fixed(struct pt_buf *b, double x, int decimals);
/* 1 if the unit names a time, with *ns set to nanoseconds per unit */
int pt_unit_is_time(const char *unit, double *ns);

/* go tool pprof's measurement package: v in unit `from` scaled to `to` ("minimum" or
 * "auto": the largest unit keeping it >= 1); *unit is the suffix to print */
double pt_pprof_scale(int64_t v, const char *from, const char *to, const char **unit);
/* measurement.ScaledLabel: v scaled as pt_pprof_scale does, two decimals with ".00"
 * dropped, then the unit; a value that rounds to 0 is "0" */
void pt_buf_add_pprof_label(struct pt_buf *b, int64_t v, const char *from, const char *to);
/* the unit pprof gives a numeric label: its num_unit, "bytes" for the keys pprof knows
 * as sizes, else the key */
const char *pt_pprof_num_label_unit(const struct pt_profile *p, const struct pt_label *l);

#endif
