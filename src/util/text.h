/* text.h: making arbitrary profile strings safe for an output: printable for terminals,
 * valid UTF-8 for JSON. */
#ifndef PT_TEXT_H
#define PT_TEXT_H

#include <stddef.h>

#include "util/buf.h"

/* s with control bytes (< 0x20, 0x7f) replaced by '?' */
void pt_buf_add_printable(struct pt_buf *b, const char *s, size_t n);
/* s with every invalid UTF-8 sequence replaced by U+FFFD */
void pt_buf_add_utf8(struct pt_buf *b, const char *s, size_t n);

#endif
