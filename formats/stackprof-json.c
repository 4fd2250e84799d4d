/* stackprof-json.c: Ruby stackprof dumps as JSON (`stackprof --json`): yajl's streaming
 * callbacks into the builder of formats/stackprof.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "formats/format.h"
#include "formats/stackprof.h"
#include "util/json.h"

/* ---- JSON (stackprof --json): yajl's streaming callbacks into the same builder ---- */

/* the offset just past the token being reported, for errors and first mentions */
static struct builder *j_at(void *ctx)
{
	struct builder *b = ctx;
	if (b->jh)
		b->off = b->jbase + pt_yajl()->get_bytes_consumed(b->jh);
	return b;
}

static int j_null(void *ctx)
{
	struct val v;
	memset(&v, 0, sizeof(v));
	return pt_stackprof_scalar(j_at(ctx), &v) == 0;
}

static int j_bool(void *ctx, int x)
{
	struct val v;
	memset(&v, 0, sizeof(v));
	v.t = V_BOOL;
	v.i = x;
	return pt_stackprof_scalar(j_at(ctx), &v) == 0;
}

/* digits only (with an optional '-'): an Integer, else a Float */
static void j_numval(const char *s, size_t n, struct val *v)
{
	size_t i = s[0] == '-';
	uint64_t x = 0;
	char text[64];

	memset(v, 0, sizeof(*v));
	if (i < n && strspn(s + i, "0123456789") >= n - i) {
		v->t = V_INT;
		for (; i < n; i++) {
			if (x > ((uint64_t)INT64_MAX - (uint64_t)(s[i] - '0')) / 10) {
				v->t = V_BIG;
				v->i = s[0] == '-' ? -1 : 1;
				return;
			}
			x = x * 10 + (uint64_t)(s[i] - '0');
		}
		v->i = s[0] == '-' ? -(int64_t)x : (int64_t)x;
		return;
	}
	v->t = V_FLOAT;
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	memcpy(text, s, n);
	text[n] = 0;
	v->f = strtod(text, NULL);
}

static int j_number(void *ctx, const char *s, size_t n)
{
	struct val v;
	j_numval(s, n, &v);
	return pt_stackprof_scalar(j_at(ctx), &v) == 0;
}

static int j_string(void *ctx, const unsigned char *s, size_t n)
{
	struct builder *b = j_at(ctx);
	struct val v;
	memset(&v, 0, sizeof(v));
	v.t = V_STR;
	v.s = pt_strn(b->p, (const char *)s, n);
	return pt_stackprof_scalar(b, &v) == 0;
}

/* stackprof's own JSON loader turns digit-only keys into Integers */
static int j_key(void *ctx, const unsigned char *s, size_t n)
{
	struct val v;
	if (n && n < 19 && strspn((const char *)s, "0123456789") >= n) {
		j_numval((const char *)s, n, &v);
		return pt_stackprof_scalar(j_at(ctx), &v) == 0;
	}
	return j_string(ctx, s, n);
}

static int j_start_map(void *ctx)
{
	return pt_stackprof_begin(ctx, 1) == 0;
}

static int j_start_array(void *ctx)
{
	return pt_stackprof_begin(ctx, 0) == 0;
}

static int j_end(void *ctx)
{
	return pt_stackprof_end(ctx) == 0;
}

static const yajl_callbacks j_callbacks = {
	j_null,	     j_bool, NULL,  NULL,	   j_number, j_string,
	j_start_map, j_key,  j_end, j_start_array, j_end,
};

static int stackprof_json_detect(const unsigned char *head, size_t len)
{
	size_t i = pt_json_skip_ws(head, 0, len);
	if (i == len || head[i] != '{')
		return 0;
	/* stackprof's Report writes its data as it holds it: {"mode":"cpu"} alone */
	i = pt_json_skip_ws(head, i + 1, len);
	if (len - i >= 6 && !memcmp(head + i, "\"mode\"", 6))
		return 60;
	if (PT_JSON_HAS_KEY(head, len, "mode") &&
	    (PT_JSON_HAS_KEY(head, len, "frames") || PT_JSON_HAS_KEY(head, len, "interval")) &&
	    PT_JSON_HAS_KEY(head, len, "version"))
		return 70;
	return 0;
}

/* yajl's message, first line only, without its "parse error: " prefix */
static int json_error(struct pt_diag *d, yajl_handle h, uint64_t at)
{
	unsigned char *msg = pt_yajl()->get_error(h, 0, NULL, 0);
	const char *m = (const char *)msg;
	size_t n;

	if (!strncmp(m, "parse error: ", 13))
		m += 13;
	n = strcspn(m, "\n");
	while (n && (m[n - 1] == ' ' || m[n - 1] == '\t' || m[n - 1] == '\r'))
		n--;
	pt_diag_error_at(d, at, "invalid JSON: %.*s", (int)n, m);
	pt_yajl()->free_error(h, msg);
	return -1;
}

static int stackprof_json_read(struct pt_input *in, struct pt_profile *p,
			       const struct pt_read_opts *o, struct pt_diag *d)
{
	struct builder b;
	yajl_handle h;
	yajl_status st = yajl_status_ok;
	const unsigned char *q;
	int ret = -1, r;

	(void)o;
	if (pt_json_load(d) < 0)
		return -1;
	p->format = "stackprof-json";
	pt_stackprof_init(&b, p, d);
	b.sink = o->sink;
	h = pt_yajl()->alloc(&j_callbacks, NULL, &b);
	if (!h) {
		pt_stackprof_release(&b);
		return pt_diag_error(d, "out of memory");
	}
	pt_yajl()->config(h, yajl_dont_validate_strings, 1);
	for (;;) {
		uint64_t base = pt_input_tell(in);
		size_t avail;
		r = pt_input_need(in, 65536, &q);
		if (r < 0)
			goto out;
		avail = in->end - in->pos;
		if (!avail)
			break;
		b.off = b.jbase = base;
		b.jh = h;
		st = pt_yajl()->parse(h, q, avail);
		if (st != yajl_status_ok) {
			uint64_t at = base + pt_yajl()->get_bytes_consumed(h);
			if (st == yajl_status_client_canceled)
				b.d->pos = at;
			else
				json_error(d, h, at);
			goto out;
		}
		pt_input_consume(in, avail);
	}
	st = pt_yajl()->complete_parse(h);
	if (st != yajl_status_ok) {
		if (st != yajl_status_client_canceled)
			json_error(d, h, pt_input_tell(in));
		goto out;
	}
	ret = pt_stackprof_finish(&b);
out:
	pt_yajl()->free(h);
	pt_stackprof_release(&b);
	return ret;
}

static const char *const no_suffixes[] = {NULL};

const struct pt_format pt_format_stackprof_json = {
	.name = "stackprof-json",
	.description = "Ruby stackprof dump as JSON (stackprof --json)",
	.suffixes = no_suffixes,
	.detect = stackprof_json_detect,
	.read = stackprof_json_read,
};
