/* text.c: string sanitizing for outputs. */
#include "config.h"

#include "util/text.h"

void pt_buf_add_printable(struct pt_buf *b, const char *s, size_t n)
{
	size_t i;
	pt_buf_grow(b, n);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		pt_buf_addch(b, c < 0x20 || c == 0x7f ? '?' : c);
	}
}

size_t pt_utf8_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len, i;
	unsigned cp;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and code points past U+10FFFF are not UTF-8 */
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

void pt_buf_add_utf8(struct pt_buf *b, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t k = pt_utf8_len(s + i, n - i);
		if (k) {
			pt_buf_add(b, s + i, k);
			i += k;
		} else {
			pt_buf_add(b, "\xef\xbf\xbd", 3);
			i++;
		}
	}
}
