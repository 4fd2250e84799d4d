/* buf.c: growable byte buffer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xalloc.h"

char pt_buf_slopbuf[1];

void pt_buf_init(struct pt_buf *b)
{
	b->alloc = b->len = 0;
	b->buf = pt_buf_slopbuf;
}

void pt_buf_release(struct pt_buf *b)
{
	if (b->alloc)
		free(b->buf);
	pt_buf_init(b);
}

void pt_buf_grow_slow(struct pt_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need < b->len)
		pt_die("buffer size overflow");
	if (need <= b->alloc)
		return;
	if (!b->alloc)
		b->buf = NULL;
	{
		size_t n = b->alloc < 64 ? 64 : b->alloc;
		while (n < need)
			n = n * 2 > n ? n * 2 : need;
		b->buf = pt_xrealloc(b->buf, n);
		b->alloc = n;
	}
	b->buf[b->len] = '\0';
}

void pt_buf_vaddf(struct pt_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	/* a buffer that never grew has no storage (NULL + 0 is undefined): it is given none,
	 * and vsnprintf only counts */
	va_copy(cp, ap);
	if (b->alloc)
		n = vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, cp);
	else
		n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= (b->alloc ? b->alloc - b->len : 0)) {
		pt_buf_grow(b, (size_t)n);
		vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void pt_buf_addf(struct pt_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pt_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

size_t pt_fmt_u64(char *dst, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char tmp[PT_U64_DIGITS];
	size_t i = sizeof(tmp), n;

	/* two digits per division, from the right */
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		tmp[--i] = pairs[2 * r + 1];
		tmp[--i] = pairs[2 * r];
	}
	if (v >= 10) {
		tmp[--i] = pairs[2 * v + 1];
		tmp[--i] = pairs[2 * v];
	} else {
		tmp[--i] = (char)('0' + v);
	}
	n = sizeof(tmp) - i;
	memcpy(dst, tmp + i, n);
	return n;
}

void pt_buf_add_u64(struct pt_buf *b, uint64_t v)
{
	pt_buf_grow(b, PT_U64_DIGITS);
	b->len += pt_fmt_u64(b->buf + b->len, v);
	b->buf[b->len] = '\0';
}

void pt_buf_add_i64(struct pt_buf *b, int64_t v)
{
	pt_buf_grow(b, PT_U64_DIGITS + 1);
	if (v < 0) {
		b->buf[b->len++] = '-';
		/* negating in unsigned arithmetic: INT64_MIN has no positive int64_t */
		b->len += pt_fmt_u64(b->buf + b->len, (uint64_t)0 - (uint64_t)v);
	} else {
		b->len += pt_fmt_u64(b->buf + b->len, (uint64_t)v);
	}
	b->buf[b->len] = '\0';
}

void pt_buf_setlen(struct pt_buf *b, size_t len)
{
	if (!b->alloc)
		return; /* only 0 is valid here */
	b->len = len;
	b->buf[len] = '\0';
}

void pt_buf_write_out(struct pt_buf *b, FILE *fp, size_t min)
{
	if (b->len && b->len >= min) {
		fwrite(b->buf, 1, b->len, fp);
		pt_buf_reset(b);
	}
}

char *pt_buf_detach(struct pt_buf *b, size_t *len)
{
	char *s;
	if (!b->alloc)
		pt_buf_grow(b, 0);
	s = b->buf;
	if (len)
		*len = b->len;
	pt_buf_init(b);
	return s;
}
