/* test-json.c: the JSON strings and numbers of util/json.h, by yajl and by hand. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/json.h"
#include "util/text.h"

/* the text yajl writes for one string (or number) */
static void gen_str(struct pt_buf *out, const char *s, size_t n)
{
	yajl_gen g = pt_json_gen_buf(out);
	pt_buf_reset(out);
	pt_json_strn(g, s, n);
	pt_yajl()->gen_free(g);
}

static int same(const struct pt_buf *b, const char *want)
{
	return b->len == strlen(want) && !memcmp(b->buf, want, b->len);
}

/* pt_json_double against strtod, bit for bit, over numbers of every shape its fast
 * path takes or leaves: digits, fractions, leading zeros, signs, exponents */
static int double_like_strtod(unsigned seed, int count, char *bad, size_t badlen)
{
	int i, wrong = 0;

	srand(seed);
	for (i = 0; i < count; i++) {
		char s[64];
		size_t n = 0;
		int k, ip = rand() % 19, fp = rand() % 24;
		double a, b;
		if (rand() % 4 == 0)
			s[n++] = '-';
		if (!ip || rand() % 5 == 0)
			s[n++] = '0';
		else
			for (k = 0; k < ip; k++)
				s[n++] = (char)('0' + (k ? rand() % 10 : 1 + rand() % 9));
		if (fp && rand() % 3) {
			s[n++] = '.';
			for (k = 0; k < fp; k++)
				s[n++] = (char)('0' + (rand() % 3 ? rand() % 10 : 0));
		}
		if (rand() % 10 == 0)
			n += (size_t)snprintf(s + n, sizeof(s) - n, "e%d", rand() % 40 - 20);
		s[n] = '\0';
		b = strtod(s, NULL);
		if (pt_json_double(s, n, &a) < 0 || memcmp(&a, &b, sizeof(a))) {
			if (!wrong++)
				snprintf(bad, badlen, "%s: %.17g, strtod %.17g", s, a, b);
		}
	}
	return wrong;
}

/* PT_JSON_CALLBACKS: each token as the reader's handlers get it, written into a
 * buffer (a kind's letter, then a number's or string's text or a boolean's value) */
struct tokens {
	struct pt_buf out;
	int stop_at; /* the handlers stop yajl at this token (1 the first), 0 never */
	int n;
};

static int tok_value(void *ctx, enum pt_json_kind kind, const char *s, size_t len)
{
	struct tokens *t = ctx;
	pt_buf_addf(&t->out, "%c", "oans?-"[kind]);
	if (kind == PT_JSON_NUMBER || kind == PT_JSON_STRING)
		pt_buf_add(&t->out, s, len);
	if (kind == PT_JSON_BOOL)
		pt_buf_addf(&t->out, "b%zu", len);
	pt_buf_addch(&t->out, ' ');
	return ++t->n != t->stop_at;
}

static int tok_key(void *ctx, const unsigned char *s, size_t len)
{
	struct tokens *t = ctx;
	pt_buf_addch(&t->out, 'k');
	pt_buf_add(&t->out, s, len);
	pt_buf_addch(&t->out, ' ');
	return ++t->n != t->stop_at;
}

static int tok_end(void *ctx)
{
	struct tokens *t = ctx;
	pt_buf_addstr(&t->out, "e ");
	return ++t->n != t->stop_at;
}

PT_JSON_CALLBACKS(tok_callbacks, tok_value, tok_key, tok_end);

/* the tokens of doc, with the handlers stopping at token stop_at; the status */
static int tokens_of(struct tokens *t, const char *doc, int stop_at)
{
	yajl_handle h = pt_yajl()->alloc(&tok_callbacks, NULL, t);
	int st;

	pt_buf_reset(&t->out);
	t->n = 0;
	t->stop_at = stop_at;
	st = pt_yajl()->parse(h, (const unsigned char *)doc, strlen(doc));
	if (st == yajl_status_ok)
		st = pt_yajl()->complete_parse(h);
	pt_yajl()->free(h);
	return st;
}

static void test_tokens(void)
{
	static const char doc[] = "{\"a\":[1,-2.5e3,\"x\",true,false,null],\"b\":{}}";
	struct tokens t = {PT_BUF_INIT, 0, 0};

	is_int(tokens_of(&t, doc, 0), yajl_status_ok, "tokens: a whole document");
	ok(same(&t.out, "o ka a n1 n-2.5e3 sx ?b1 ?b0 - e kb o e e "),
	   "tokens: each value, key and end in order: %s", t.out.buf);
	is_int(tokens_of(&t, doc, 4), yajl_status_client_canceled,
	       "tokens: a handler returning 0 stops yajl");
	ok(same(&t.out, "o ka a n1 "), "tokens: none after the stop: %s", t.out.buf);
	is_int(tokens_of(&t, doc, 10), yajl_status_client_canceled, "tokens: an end stops it too");
	ok(same(&t.out, "o ka a n1 n-2.5e3 sx ?b1 ?b0 - e "), "tokens: up to the end: %s",
	   t.out.buf);
	ok(!strcmp(pt_json_kind_name(PT_JSON_MAP), "an object") &&
		   !strcmp(pt_json_kind_name(PT_JSON_BOOL), "a boolean") &&
		   !strcmp(pt_json_kind_name(PT_JSON_NULL), "null"),
	   "tokens: the kinds by name");
	ok(pt_json_opens(PT_JSON_MAP) && pt_json_opens(PT_JSON_ARRAY) &&
		   !pt_json_opens(PT_JSON_STRING) && !pt_json_opens(PT_JSON_NULL),
	   "tokens: objects and arrays open");
	pt_buf_release(&t.out);
}

/* pt_json_key_find and pt_json_key_name over a table of two contexts */
static void test_keys(void)
{
	static const struct pt_json_key t[] = {
		{1, "name", 10}, {1, "names", 11}, {2, "name", 20}, {2, "id", 21}};
	const size_t n = sizeof(t) / sizeof(t[0]);
	const unsigned char *s = (const unsigned char *)"names";

	is_int(pt_json_key_find(t, n, 1, s, 4, -1), 10, "keys: a name in its context");
	is_int(pt_json_key_find(t, n, 2, s, 4, -1), 20, "keys: the same name in another");
	is_int(pt_json_key_find(t, n, 1, s, 5, -1), 11, "keys: a longer name is another key");
	is_int(pt_json_key_find(t, n, 2, s, 5, -1), -1, "keys: not in this context: other");
	is_int(pt_json_key_find(t, n, 1, s, 3, -1), -1, "keys: a prefix is no key");
	is_int(pt_json_key_find(t, n, 3, (const unsigned char *)"id", 2, 7), 7,
	       "keys: an unknown context: other");
	ok(!strcmp(pt_json_key_name(t, n, 21), "id") && !strcmp(pt_json_key_name(t, n, 5), "value"),
	   "keys: a key by its name, \"value\" for none");
}

int main(void)
{
	struct pt_buf b = PT_BUF_INIT;
	yajl_gen g;

	gen_str(&b, "a\"b\\c", 5);
	ok(same(&b, "\"a\\\"b\\\\c\""), "yajl: quote and backslash escaped: %s", b.buf);
	gen_str(&b, "x\ny\t\001", 5);
	ok(same(&b, "\"x\\ny\\t\\u0001\""), "yajl: controls escaped: %s", b.buf);
	gen_str(&b, "ok\xff!", 4);
	ok(same(&b, "\"ok\xef\xbf\xbd!\""), "yajl: an invalid byte is U+FFFD");
	gen_str(&b, "\xc3\xa9\xe2\x82\xac", 5);
	ok(same(&b, "\"\xc3\xa9\xe2\x82\xac\""), "yajl: valid UTF-8 is kept");
	gen_str(&b, "\xed\xa0\x80", 3);
	ok(same(&b, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""),
	   "yajl: a surrogate is three invalid bytes");

	pt_buf_reset(&b);
	pt_buf_add_json_str(&b, "a\"b\\c\n\x7f", 7);
	ok(same(&b, "\"a\\\"b\\\\c\\u000a\\u007f\""), "by hand: escapes: %s", b.buf);
	pt_buf_reset(&b);
	pt_buf_add_json_str(&b, "\xc0\xaf\xf4\x90\x80\x80\xe2\x82", 8);
	ok(same(&b, "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\""),
	   "by hand: overlong, past U+10FFFF and cut sequences are U+FFFD per byte: %s", b.buf);
	pt_buf_reset(&b);
	pt_buf_add_json_str(&b, "\xf0\x9f\x94\xa5", 4);
	ok(same(&b, "\"\xf0\x9f\x94\xa5\""), "by hand: a 4-byte sequence is kept");

	pt_buf_reset(&b);
	g = pt_json_gen_buf(&b);
	pt_yajl()->gen_array_open(g);
	pt_json_int(g, INT64_MAX);
	pt_json_int(g, INT64_MIN);
	pt_json_int(g, 0);
	pt_yajl()->gen_array_close(g);
	pt_yajl()->gen_free(g);
	ok(same(&b, "[9223372036854775807,-9223372036854775808,0]"),
	   "numbers at the int64 edges: %s", b.buf);
	pt_buf_release(&b);
	/* the one rule (util/text.h): each byte that starts no valid sequence is U+FFFD,
	 * the same in the hand-written JSON, yajl's and XML's (pt_buf_add_utf8) */
	is_int(pt_utf8_len("a", 1), 1, "utf8_len: ASCII");
	is_int(pt_utf8_len("\xc3\xa9", 2), 2, "utf8_len: two bytes");
	is_int(pt_utf8_len("\xf0\x9f\x98\x80", 4), 4, "utf8_len: four bytes");
	is_int(pt_utf8_len("\xc3\xa9", 1), 0, "utf8_len: cut short");
	is_int(pt_utf8_len("\xc0\x80", 2), 0, "utf8_len: overlong");
	is_int(pt_utf8_len("\xed\xa0\x80", 3), 0, "utf8_len: surrogate");
	is_int(pt_utf8_len("\xf4\x90\x80\x80", 4), 0, "utf8_len: past U+10FFFF");
	is_int(pt_utf8_len("\x80", 1), 0, "utf8_len: a stray continuation byte");
	is_int(pt_utf8_len("", 0), 0, "utf8_len: nothing");
	{
		const char *bad = "f\xff\xc3o\xc3\xa9";
		struct pt_buf u = PT_BUF_INIT;
		pt_buf_add_utf8(&u, bad, 6);
		ok(same(&u, "f\xef\xbf\xbd\xef\xbf\xbdo\xc3\xa9"), "text: one U+FFFD per bad byte");
		gen_str(&b, bad, 6);
		ok(b.len == u.len + 2 && !memcmp(b.buf + 1, u.buf, u.len), "yajl: the same text");
		pt_buf_reset(&b);
		pt_buf_add_json_str(&b, bad, 6);
		ok(same(&b, "\"f\\ufffd\\ufffdo\xc3\xa9\""), "by hand: the same, escaped");
		pt_buf_release(&u);
	}

	pt_buf_release(&b);
	{
		char bad[160] = "";
		double v = 0;
		is_int(double_like_strtod(1, 200000, bad, sizeof(bad)), 0,
		       "double: 200000 numbers as strtod reads them %s", bad);
		ok(pt_json_double("-0", 2, &v) == 0 && v == 0 && signbit(v),
		   "double: -0 keeps its sign");
		ok(pt_json_double("1e400", 5, &v) < 0, "double: out of range is refused");
		ok(pt_json_double("231.013", 7, &v) == 0 && v == 231.013, "double: 231.013");
		ok(pt_json_double("0.1", 3, &v) == 0 && v == 0.1, "double: 0.1");
	}
	test_tokens();
	test_keys();
	return tap_done();
}
