/* json.c: yajl generators and JSON strings, and the readers' chunked parse (json.h);
 * yajl itself, opened on first use. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/text.h"
#include "util/xalloc.h"

static const char *const yajl_names[] = {PT_YAJL_CALLS(PT_DYNLIB_NAME)};
/* the run's one table of yajl's calls, filled once: written by load_yajl only */
static struct pt_yajl yajl_table;
static int yajl_loaded;

static int load_yajl(char *err, size_t errlen)
{
	void *fns[sizeof(yajl_names) / sizeof(yajl_names[0])];
	struct pt_yajl *api = &yajl_table;
	size_t i = 0;

	if (yajl_loaded)
		return 0;
	if (!pt_dynlib_open(PT_YAJL_SONAME, "libyajl2", yajl_names, fns,
			    sizeof(yajl_names) / sizeof(yajl_names[0]), err, errlen))
		return -1;
	PT_YAJL_CALLS(PT_DYNLIB_SET)
	yajl_loaded = 1;
	return 0;
}

const struct pt_yajl *pt_yajl(void)
{
	char err[256];

	if (!yajl_loaded && load_yajl(err, sizeof(err)) < 0)
		pt_die("%s", err);
	return &yajl_table;
}

int pt_json_load(struct pt_diag *d)
{
	char err[256];

	if (load_yajl(err, sizeof(err)) < 0)
		return pt_diag_error(d, "%s", err);
	return 0;
}

static void to_file(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
}

static void to_buf(void *ctx, const char *s, size_t n)
{
	pt_buf_add(ctx, s, n);
}

static yajl_gen gen(void (*print)(void *, const char *, size_t), void *ctx)
{
	yajl_gen g = pt_yajl()->gen_alloc(NULL);

	if (!g) /* yajl's allocation failed */
		pt_die("out of memory");
	pt_yajl()->gen_config(g, yajl_gen_print_callback, print, ctx);
	return g;
}

yajl_gen pt_json_gen(FILE *fp)
{
	return gen(to_file, fp);
}

yajl_gen pt_json_gen_buf(struct pt_buf *b)
{
	return gen(to_buf, b);
}

void pt_json_strn(yajl_gen g, const char *s, size_t n)
{
	struct pt_buf b = PT_BUF_INIT;

	pt_buf_add_utf8(&b, s, n);
	pt_yajl()->gen_string(g, (const unsigned char *)b.buf, b.len);
	pt_buf_release(&b);
}

void pt_json_done(yajl_gen g, FILE *fp)
{
	pt_yajl()->gen_free(g);
	fputc('\n', fp);
}

void pt_json_cstr(yajl_gen g, const char *s)
{
	pt_json_strn(g, s, strlen(s));
}

void pt_json_int(yajl_gen g, int64_t v)
{
	pt_yajl()->gen_integer(g, (long long)v);
}

void pt_json_key_int(yajl_gen g, const char *key, int64_t v)
{
	pt_json_cstr(g, key);
	pt_yajl()->gen_integer(g, (long long)v);
}

void pt_json_key_str(yajl_gen g, const char *key, const char *s)
{
	pt_json_cstr(g, key);
	pt_json_cstr(g, s);
}

void pt_json_key_bool(yajl_gen g, const char *key, int b)
{
	pt_json_cstr(g, key);
	pt_yajl()->gen_bool(g, b);
}

const char *pt_json_kind_name(enum pt_json_kind kind)
{
	static const char *const n[] = {"an object", "an array",  "a number",
					"a string",  "a boolean", "null"};
	return n[kind];
}

int pt_json_key_find(const struct pt_json_key *t, size_t n, int ctx, const unsigned char *s,
		     size_t len, int other)
{
	size_t i;

	/* the first byte before the length: most rows differ there */
	for (i = 0; i < n; i++)
		if (t[i].ctx == ctx && (!len || t[i].name[0] == (char)s[0]) &&
		    strlen(t[i].name) == len && !memcmp(t[i].name, s, len))
			return t[i].key;
	return other;
}

const char *pt_json_key_name(const struct pt_json_key *t, size_t n, int key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].key == key)
			return t[i].name;
	return "value";
}

size_t pt_json_skip_ws(const unsigned char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

void pt_buf_add_json_str(struct pt_buf *b, const char *s, size_t n)
{
	size_t i = 0, len;

	pt_buf_addch(b, '"');
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80) {
			if (c == '"' || c == '\\') {
				pt_buf_addch(b, '\\');
				pt_buf_addch(b, c);
			} else if (c < 0x20 || c == 0x7f) {
				pt_buf_addf(b, "\\u%04x", c);
			} else {
				pt_buf_addch(b, c);
			}
			i++;
		} else if ((len = pt_utf8_len(s + i, n - i))) {
			pt_buf_add(b, s + i, len);
			i += len;
		} else {
			pt_buf_addstr(b, "\\ufffd");
			i++;
		}
	}
	pt_buf_addch(b, '"');
}

/* pt_json_feed_resume up to input offset `end` */
static int feed(yajl_handle *h, struct pt_input *in, size_t chunk, uint64_t *chunk_off, int *cut,
		int (*resume)(void *ctx, struct pt_input *in), void *ctx, uint64_t end);

int pt_json_feed(yajl_handle h, struct pt_input *in, size_t chunk, uint64_t *chunk_off, int *cut)
{
	return feed(&h, in, chunk, chunk_off, cut, NULL, NULL, UINT64_MAX);
}

int pt_json_feed_upto(yajl_handle *h, struct pt_input *in, size_t chunk, uint64_t *chunk_off,
		      uint64_t end, int *cut, int (*resume)(void *ctx, struct pt_input *in),
		      void *ctx)
{
	return feed(h, in, chunk, chunk_off, cut, resume, ctx, end);
}

int pt_json_feed_resume(yajl_handle *h, struct pt_input *in, size_t chunk, uint64_t *chunk_off,
			int *cut, int (*resume)(void *ctx, struct pt_input *in), void *ctx)
{
	return feed(h, in, chunk, chunk_off, cut, resume, ctx, UINT64_MAX);
}

static int feed(yajl_handle *h, struct pt_input *in, size_t chunk, uint64_t *chunk_off, int *cut,
		int (*resume)(void *ctx, struct pt_input *in), void *ctx, uint64_t end)
{
	yajl_status st = yajl_status_ok;
	const unsigned char *buf;

	*cut = 0;
	for (;;) {
		size_t len;
		int rc;
		if (pt_input_tell(in) >= end)
			break;
		rc = pt_input_need(in, chunk, &buf);
		if (rc < 0)
			return -1;
		len = in->end - in->pos;
		if (len > chunk)
			len = chunk;
		if (len > end - pt_input_tell(in))
			len = (size_t)(end - pt_input_tell(in));
		if (!len)
			break;
		*chunk_off = pt_input_tell(in);
		st = pt_yajl()->parse(*h, buf, len);
		if (st == yajl_status_client_canceled && resume) {
			int r = resume(ctx, in);
			if (r < 0)
				return -1;
			if (r > 0) {
				st = yajl_status_ok;
				continue;
			}
		}
		if (st != yajl_status_ok)
			return (int)st;
		pt_input_consume(in, len);
		if (rc == 0 && in->pos == in->end)
			break;
	}
	*chunk_off = pt_input_tell(in);
	st = pt_yajl()->complete_parse(*h);
	*cut = st != yajl_status_ok;
	return (int)st;
}

int pt_json_result(yajl_handle h, struct pt_diag *d, int st, int cut, int failed, uint64_t end_off,
		   uint64_t at)
{
	unsigned char *msg;
	char *m, *e;

	if (st == yajl_status_ok)
		return 0;
	if (failed)
		return -1;
	if (cut)
		return pt_diag_error_at(d, end_off, "truncated JSON: unexpected end of input");
	msg = pt_yajl()->get_error(h, 0, NULL, 0);
	m = (char *)msg;
	e = m + strlen(m);
	/* yajl: "lexical error: invalid char in json text.\n" */
	while (e > m && (e[-1] == '\n' || e[-1] == '.' || e[-1] == ' '))
		*--e = '\0';
	pt_diag_error_at(d, at, "invalid JSON: %s", m);
	pt_yajl()->free_error(h, msg);
	return -1;
}

/* Clinger's fast path: m and 10^e are exact doubles when m < 2^53 and |e| <= 22, so one
 * multiplication or division rounds once, correctly, as strtod does */
static const double pow10_exact[] = {1e0,  1e1,	 1e2,  1e3,  1e4,  1e5,	 1e6,  1e7,
				     1e8,  1e9,	 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int double_slow(const char *s, size_t n, double *v)
{
	char buf[64], *tmp = NULL;
	const char *z = buf;

	if (n < sizeof(buf)) {
		memcpy(buf, s, n);
		buf[n] = '\0';
	} else {
		tmp = pt_xmalloc(n + 1);
		memcpy(tmp, s, n);
		tmp[n] = '\0';
		z = tmp;
	}
	*v = strtod(z, NULL);
	free(tmp);
	return isfinite(*v) ? 0 : -1;
}

int pt_json_double(const char *s, size_t n, double *v)
{
	size_t i = 0;
	uint64_t m = 0;
	int digits = 0, e = 0, neg = 0;
	double x;

	if (i < n && s[i] == '-')
		neg = 1, i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits += m != 0)
		m = m * 10 + (uint64_t)(s[i] - '0');
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, e--, digits += m != 0)
			m = m * 10 + (uint64_t)(s[i] - '0');
	/* 15 digits keep m below 2^53 (and m*10 from wrapping); an exponent, slowly */
	if (i != n || digits > 15 || e < -22)
		return double_slow(s, n, v);
	x = e ? (double)m / pow10_exact[-e] : (double)m;
	*v = neg ? -x : x;
	return 0;
}

int pt_dec_parse(const char *s, size_t n, struct pt_dec *x)
{
	size_t i = 0;
	int64_t m = 0, e = 0;
	int neg = 0, digits = 0, any = 0;

	if (i < n && s[i] == '-') {
		neg = 1;
		i++;
	}
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = 1) {
		if (digits < 18) {
			m = m * 10 + (s[i] - '0');
			digits += m != 0;
		} else {
			e++;
		}
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = 1)
			if (digits < 18) {
				m = m * 10 + (s[i] - '0');
				digits += m != 0;
				e--;
			}
	}
	if (!any)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0;
		int64_t ex = 0;
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		if (i == n)
			return -1;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (ex < 100000)
				ex = ex * 10 + (s[i] - '0');
		e += eneg ? -ex : ex;
	}
	if (i != n)
		return -1;
	if (!m)
		e = 0;
	if (e > 400 || e < -400)
		return -1;
	x->m = neg ? -m : m;
	x->k = (int32_t)-e;
	x->pad = 0;
	return 0;
}

int pt_dec_scale(const struct pt_dec *x, int32_t s, int64_t *v)
{
	int32_t sh = s - x->k;
	int64_t m = x->m;

	if (sh >= 0) {
		for (; sh > 0; sh--)
			if (__builtin_mul_overflow(m, 10, &m))
				return -1;
		*v = m;
		return 0;
	}
	if (sh < -19) {
		*v = 0;
		return 0;
	}
	{
		int64_t p = 1, q, rem;
		for (; sh < 0; sh++)
			p *= 10; /* at most 10^19 does not fit: sh >= -18 here */
		q = m / p;
		rem = m % p;
		if (rem >= p - rem)
			q++;
		else if (-rem >= p + rem)
			q--;
		*v = q;
	}
	return 0;
}
