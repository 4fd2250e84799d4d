/* buf.h: growable byte buffer (git's strbuf).
 * Invariants: `buf` is never NULL and always NUL-terminated at buf[len]; while
 * alloc == 0 it points at a shared empty string that must not be written. */
#ifndef PT_BUF_H
#define PT_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct pt_buf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char pt_buf_slopbuf[];
#define PT_BUF_INIT                                                                                \
	{                                                                                          \
		0, 0, pt_buf_slopbuf                                                               \
	}

void pt_buf_init(struct pt_buf *b);
void pt_buf_release(struct pt_buf *b);
void pt_buf_grow_slow(struct pt_buf *b, size_t extra);
/* make room for `extra` more bytes (plus the NUL). This and the adds below are inline:
 * writers call them for every few bytes of their output. */
static inline void pt_buf_grow(struct pt_buf *b, size_t extra)
{
	/* alloc > len whenever alloc is not 0 (the NUL) */
	if (extra >= b->alloc - b->len)
		pt_buf_grow_slow(b, extra);
}

static inline void pt_buf_add(struct pt_buf *b, const void *data, size_t n)
{
	if (!n)
		return;
	pt_buf_grow(b, n);
	memcpy(b->buf + b->len, data, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

static inline void pt_buf_addstr(struct pt_buf *b, const char *s)
{
	pt_buf_add(b, s, strlen(s));
}

static inline void pt_buf_addch(struct pt_buf *b, int c)
{
	pt_buf_grow(b, 1);
	b->buf[b->len++] = (char)c;
	b->buf[b->len] = '\0';
}

void pt_buf_addf(struct pt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pt_buf_vaddf(struct pt_buf *b, const char *fmt, va_list ap);
/* decimal integers, byte for byte as printf's "%" PRIu64 / "%" PRId64 writes them, for
 * writers that print millions of numbers */
void pt_buf_add_u64(struct pt_buf *b, uint64_t v);
void pt_buf_add_i64(struct pt_buf *b, int64_t v);
/* the digits of v at dst, which has room for PT_U64_DIGITS bytes (no NUL); returns
 * how many were written */
#define PT_U64_DIGITS 20
size_t pt_fmt_u64(char *dst, uint64_t v);
void pt_buf_setlen(struct pt_buf *b, size_t len);
/* Writers fill one buffer and hand it to stdio in blocks: write b's bytes to fp and
 * empty b once it holds at least `min` bytes (0: whatever it holds). stdio keeps the
 * error, which the caller checks with ferror. A block of 30 KiB keeps the buffer at
 * 32 KiB, which memory the reader gave back can hold; a 60 KiB block's 64 KiB came
 * from fresh pages, 60 KiB more at the peak of a perf script -> collapsed run. */
#define PT_BUF_BLOCK 30720
void pt_buf_write_out(struct pt_buf *b, FILE *fp, size_t min);
static inline void pt_buf_reset(struct pt_buf *b)
{
	pt_buf_setlen(b, 0);
}
/* the caller owns the returned malloc'd string; b is left empty */
char *pt_buf_detach(struct pt_buf *b, size_t *len);

#endif
