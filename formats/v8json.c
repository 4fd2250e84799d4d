/* v8json.c: the parse that the readers of V8's JSON outputs share (formats/v8json.h):
 * yajl over a pt_input, errors located at byte offsets, the nesting limit, numbers. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/v8json.h"
#include "util/json.h"
#include "util/round.h"

int pt_v8json_vfail_at(struct pt_v8json *j, uint64_t off, const char *fmt, va_list ap)
{
	pt_diag_verror_at(j->d, off, fmt, ap);
	j->failed = 1;
	return 0;
}

int pt_v8json_fail(struct pt_v8json *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pt_v8json_vfail_at(j, pt_v8json_here(j), fmt, ap);
	va_end(ap);
	return 0;
}

int pt_v8json_fail_at(struct pt_v8json *j, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pt_v8json_vfail_at(j, off, fmt, ap);
	va_end(ap);
	return 0;
}

int pt_v8json_depth_ok(struct pt_v8json *j, uint64_t depth)
{
	if (depth + j->skip >= PT_V8JSON_MAX_DEPTH)
		return pt_v8json_fail(j, "JSON nested deeper than %d levels", PT_V8JSON_MAX_DEPTH);
	return 1;
}

int pt_v8json_num(const char *s, size_t n, int64_t *v, int allow_frac)
{
	size_t i = 0;
	uint64_t acc = 0;
	int neg = 0;
	char buf[64];
	double x;

	if (i < n && s[i] == '-') {
		neg = 1;
		i++;
	}
	if (i == n)
		return -1;
	if (n - i <= 18) {
		/* cannot overflow: no check per digit (most numbers take this path) */
		for (; i < n; i++) {
			unsigned dig = (unsigned)(unsigned char)s[i] - '0';
			if (dig > 9)
				break;
			acc = acc * 10 + dig;
		}
	} else {
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (acc > (UINT64_MAX - 9) / 10)
				return -1;
			acc = acc * 10 + (uint64_t)(s[i] - '0');
		}
	}
	if (i == n) {
		if (acc > (uint64_t)INT64_MAX)
			return -1;
		*v = neg ? -(int64_t)acc : (int64_t)acc;
		return 0;
	}
	/* a fraction or an exponent: go through strtod */
	if (!allow_frac || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	x = strtod(buf, NULL);
	if (!(x > -9.2e18 && x < 9.2e18))
		return -1;
	*v = pt_llround(x);
	return 0;
}

int pt_v8json_parse(struct pt_v8json *j, const yajl_callbacks *cb, void *ctx, struct pt_input *in,
		    const struct pt_v8json_opts *o)
{
	int st, cut;

	if (pt_json_load(j->d) < 0)
		return -1;
	j->h = pt_yajl()->alloc(cb, NULL, ctx);
	if (o->bytes)
		pt_yajl()->config(j->h, yajl_dont_validate_strings, 1);
	st = pt_json_feed_resume(&j->h, in, PT_V8JSON_CHUNK, &j->chunk_off, &cut, o->resume, ctx);
	if (st < 0)
		return -1;
	j->end_off = pt_input_tell(in);
	if (st != yajl_status_ok && cut && !j->failed && o->cut_ok && o->cut_ok(ctx))
		st = yajl_status_ok;
	if (pt_json_result(j->h, j->d, st, cut, j->failed, j->end_off, pt_v8json_here(j)) < 0)
		return -1;
	if (!j->top_seen)
		return pt_diag_error_at(j->d, 0, "empty input");
	return 0;
}

void pt_v8json_release(struct pt_v8json *j)
{
	if (j->h)
		pt_yajl()->free(j->h);
	j->h = NULL;
}
