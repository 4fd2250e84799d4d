/* text.h: text as bytes. The blanks of the text readers' lines; and making arbitrary
 * profile strings safe for an output: printable for terminals, valid UTF-8 for JSON,
 * SVG/XML and HTML. Names are bytes (perf symbols and paths come from binaries); where an
 * output needs UTF-8, the one rule is pt_utf8_len: each byte that does not start a valid
 * sequence stands for U+FFFD, valid sequences stay. */
#ifndef PT_TEXT_H
#define PT_TEXT_H

#include <stddef.h>

#include "util/buf.h"

/* a blank inside a line: ' ', '\t', '\v', '\f' or '\r', what isspace() takes in the C
 * locale but the '\n' that ends lines (no locale: the same bytes everywhere) */
static inline int pt_is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* the length of s[0..n) without the blanks (pt_is_blank) that end it */
static inline size_t pt_trim_end(const char *s, size_t n)
{
	while (n && pt_is_blank(s[n - 1]))
		n--;
	return n;
}

/* s with control bytes (< 0x20, 0x7f) replaced by '?' */
void pt_buf_add_printable(struct pt_buf *b, const char *s, size_t n);
/* the length (1 to 4) of the valid UTF-8 sequence at s[0..n), or 0 when s[0] starts
 * none (or n is 0): overlong forms, surrogates and code points past U+10FFFF are
 * invalid */
size_t pt_utf8_len(const char *s, size_t n);
/* s with each byte that starts no valid UTF-8 sequence replaced by U+FFFD */
void pt_buf_add_utf8(struct pt_buf *b, const char *s, size_t n);

/* the value of a hexadecimal digit, or -1 */
static inline int pt_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
