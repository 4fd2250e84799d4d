/* json.h: the one way proftool writes JSON. Reports and writers that build a document
 * with yajl get their generator here, to a FILE or into a pt_buf; writers that print
 * large documents by hand (numbers by the million) write their strings with
 * pt_buf_add_json_str. Strings may hold any bytes: every invalid UTF-8 sequence comes
 * out as U+FFFD, so the document is always valid JSON. */
#ifndef PT_JSON_H
#define PT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>

#include "util/buf.h"
#include "util/diag.h"
#include "util/dynlib.h"
#include "util/input.h"

/* yajl is opened on first use (util/dynlib.h): a run that reads and writes no JSON
 * does not map it. Every call goes through the table pt_yajl() returns, which opens the
 * library the first time and ends the run with "cannot load SONAME (install the Debian
 * package libyajl2)" when it cannot (pt_die); readers call pt_json_load first, which
 * puts the same line in their diag instead, with their input's name before it. The
 * calls, as X(member, function): each member has yajl's own type. */
#define PT_YAJL_CALLS(X)                                                                           \
	X(alloc, yajl_alloc)                                                                       \
	X(config, yajl_config)                                                                     \
	X(free, yajl_free)                                                                         \
	X(parse, yajl_parse)                                                                       \
	X(complete_parse, yajl_complete_parse)                                                     \
	X(get_error, yajl_get_error)                                                               \
	X(free_error, yajl_free_error)                                                             \
	X(get_bytes_consumed, yajl_get_bytes_consumed)                                             \
	X(gen_alloc, yajl_gen_alloc)                                                               \
	X(gen_config, yajl_gen_config)                                                             \
	X(gen_free, yajl_gen_free)                                                                 \
	X(gen_reset, yajl_gen_reset)                                                               \
	X(gen_integer, yajl_gen_integer)                                                           \
	X(gen_double, yajl_gen_double)                                                             \
	X(gen_number, yajl_gen_number)                                                             \
	X(gen_string, yajl_gen_string)                                                             \
	X(gen_null, yajl_gen_null)                                                                 \
	X(gen_bool, yajl_gen_bool)                                                                 \
	X(gen_map_open, yajl_gen_map_open)                                                         \
	X(gen_map_close, yajl_gen_map_close)                                                       \
	X(gen_array_open, yajl_gen_array_open)                                                     \
	X(gen_array_close, yajl_gen_array_close)
struct pt_yajl {
	PT_YAJL_CALLS(PT_DYNLIB_MEMBER)
};
const struct pt_yajl *pt_yajl(void);
/* 0 once yajl is open, else -1 with "cannot load ..." in d */
int pt_json_load(struct pt_diag *d);

/* a yajl generator that writes to fp, or appends to b; free with pt_yajl()->gen_free */
yajl_gen pt_json_gen(FILE *fp);
yajl_gen pt_json_gen_buf(struct pt_buf *b);
/* the end of a document pt_json_gen wrote to fp: g freed, and a newline */
void pt_json_done(yajl_gen g, FILE *fp);

/* a string of n bytes (invalid UTF-8 as U+FFFD, then yajl's escapes) */
void pt_json_strn(yajl_gen g, const char *s, size_t n);
void pt_json_cstr(yajl_gen g, const char *s);
void pt_json_int(yajl_gen g, int64_t v);
/* an object's member: the key, then its value */
void pt_json_key_int(yajl_gen g, const char *key, int64_t v);
void pt_json_key_str(yajl_gen g, const char *key, const char *s);
void pt_json_key_bool(yajl_gen g, const char *key, int b);

/* The same string by hand: '"' and '\' escaped, other bytes below 0x20 and 0x7f as
 * \u00XX, valid UTF-8 kept as it is, each invalid byte as the escape \ufffd. */
void pt_buf_add_json_str(struct pt_buf *b, const char *s, size_t n);

/* The index of the first byte of s[i..len) that is not JSON whitespace (space, '\t',
 * '\n', '\r'), len if there is none: where a detect() finds a document's first token. */
size_t pt_json_skip_ws(const unsigned char *s, size_t i, size_t len);
/* what a detect() tests of a document's first bytes: its first token's first byte
 * ('{' an object, '[' an array; 0 when there is none), and whether the bytes hold the
 * quoted key (a literal: PT_JSON_HAS_KEY(head, len, "nodes")) */
static inline int pt_json_first(const unsigned char *head, size_t len)
{
	size_t i = pt_json_skip_ws(head, 0, len);
	return i < len ? head[i] : 0;
}
#define PT_JSON_HAS_KEY(head, len, key)                                                            \
	(memmem((head), (len), "\"" key "\"", sizeof(key) + 1) != NULL)

/* The readers' tokens. A reader that takes every value through one handler,
 *     int value(void *ctx, enum pt_json_kind kind, const char *s, size_t len)
 * (s, len: a number's text, a string's bytes; a boolean's value in len; nothing for null
 * and for the start of an object or an array), each key through
 *     int key(void *ctx, const unsigned char *s, size_t len)
 * and the end of each object and array through int end(void *ctx), each returning 1 to
 * go on and 0 to stop yajl, gets yajl's callbacks from PT_JSON_CALLBACKS. */
enum pt_json_kind {
	PT_JSON_MAP, /* the start of an object */
	PT_JSON_ARRAY,
	PT_JSON_NUMBER,
	PT_JSON_STRING,
	PT_JSON_BOOL,
	PT_JSON_NULL,
};
/* a kind that opens a container, which a reader skipping a value enters */
static inline int pt_json_opens(enum pt_json_kind kind)
{
	return kind == PT_JSON_MAP || kind == PT_JSON_ARRAY;
}
/* "an object", "an array", "a number", "a string", "a boolean", "null" */
const char *pt_json_kind_name(enum pt_json_kind kind);
/* PT_JSON_CALLBACKS(name, value, key, end) defines `static const yajl_callbacks name`
 * over the reader's three handlers. A macro, so that each forwarder calls the handler
 * directly, as the hand-written ones it replaced did (instruction counts unchanged):
 * one through a pointer would add to every token of readers tuned per token. */
#define PT_JSON_CALLBACKS(name, value, key, end)                                                   \
	static int name##_null(void *ctx)                                                          \
	{                                                                                          \
		return value(ctx, PT_JSON_NULL, NULL, 0);                                          \
	}                                                                                          \
	static int name##_bool(void *ctx, int b)                                                   \
	{                                                                                          \
		return value(ctx, PT_JSON_BOOL, NULL, b != 0);                                     \
	}                                                                                          \
	static int name##_number(void *ctx, const char *s, size_t len)                             \
	{                                                                                          \
		return value(ctx, PT_JSON_NUMBER, s, len);                                         \
	}                                                                                          \
	static int name##_string(void *ctx, const unsigned char *s, size_t len)                    \
	{                                                                                          \
		return value(ctx, PT_JSON_STRING, (const char *)s, len);                           \
	}                                                                                          \
	static int name##_map(void *ctx)                                                           \
	{                                                                                          \
		return value(ctx, PT_JSON_MAP, NULL, 0);                                           \
	}                                                                                          \
	static int name##_array(void *ctx)                                                         \
	{                                                                                          \
		return value(ctx, PT_JSON_ARRAY, NULL, 0);                                         \
	}                                                                                          \
	static const yajl_callbacks name = {                                                       \
		name##_null, name##_bool, NULL, NULL,	      name##_number, name##_string,        \
		name##_map,  key,	  end,	name##_array, end,                                 \
	}

/* A reader's keys as a table: in its context ctx (the reader's own numbering), the key
 * named `name` is its `key` (the reader's own numbering too). */
struct pt_json_key {
	int ctx;
	const char *name;
	int key;
};
/* the key of t[0..n) named s[0..len) in context ctx; `other` when there is none */
int pt_json_key_find(const struct pt_json_key *t, size_t n, int ctx, const unsigned char *s,
		     size_t len, int other);
/* the name of key in t[0..n) (its first row), "value" when it has none */
const char *pt_json_key_name(const struct pt_json_key *t, size_t n, int key);

/* The readers' side: feed all of `in` to the parser h in chunks of at most `chunk`
 * bytes, then complete the parse. Before each chunk *chunk_off is set to its input
 * offset (a callback's position is *chunk_off + yajl_get_bytes_consumed), and to the
 * end offset before the completion. Returns yajl_status_ok for a whole document, -1
 * when reading the input failed (the error is in in's diag), else the failing status,
 * with *cut set when the input ended inside the document. */
int pt_json_feed(yajl_handle h, struct pt_input *in, size_t chunk, uint64_t *chunk_off, int *cut);
/* pt_json_feed_resume of the input's bytes up to offset `end` only (a stretch of a
 * document that is a JSON text itself; UINT64_MAX: all), then the completion */
int pt_json_feed_upto(yajl_handle *h, struct pt_input *in, size_t chunk, uint64_t *chunk_off,
		      uint64_t end, int *cut, int (*resume)(void *ctx, struct pt_input *in),
		      void *ctx);
/* pt_json_feed for a reader whose callback may stop yajl to read a stretch of the input
 * itself: when a chunk's parse is canceled, resume(ctx, in) says what happened: 0 a real
 * stop (the canceled status is returned), 1 it read on from where yajl stopped and left
 * in *h a handle ready for the rest (the loop goes on from the input's position), -1
 * it failed (its error is in its diag; -1 is returned). */
int pt_json_feed_resume(yajl_handle *h, struct pt_input *in, size_t chunk, uint64_t *chunk_off,
			int *cut, int (*resume)(void *ctx, struct pt_input *in), void *ctx);
/* What pt_json_feed's status st (and cut) means: 0 for a whole document; else -1,
 * with the error in d unless a callback has put its own there (failed): the input
 * ends inside the document (at end_off), or yajl's syntax error (at `at`). */
int pt_json_result(yajl_handle h, struct pt_diag *d, int st, int cut, int failed, uint64_t end_off,
		   uint64_t at);

/* JSON number text (s, n; the grammar already checked, as yajl hands it over) -> *v,
 * the double strtod gives, bit for bit: the common short numbers (at most 15
 * significant digits, a power of ten at most 22) by one exact multiplication or
 * division, the rest by strtod. 0, or -1 when the value is not finite. */
int pt_json_double(const char *s, size_t n, double *v);

/* A JSON number as an exact decimal, m / 10^k (k < 0: trailing zeros), for readers
 * whose values are decimal fractions of a unit (weights, microsecond timestamps):
 * parsed without a double, so 0.1 + 0.2 is 0.3. */
struct pt_dec {
	int64_t m;
	int32_t k;
	int32_t pad;
};
/* JSON number text -> *x; -1 if it is not one, or its exponent passes a few hundred.
 * Digits past the 18th significant one are dropped (not rounded). */
int pt_dec_parse(const char *s, size_t n, struct pt_dec *x);
/* x * 10^s as an integer, rounded half away from zero; -1 if out of int64's range */
int pt_dec_scale(const struct pt_dec *x, int32_t s, int64_t *v);

#endif
