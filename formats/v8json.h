/* v8json.h: what the readers of V8's JSON outputs (cpuprofile.c with its Chrome trace
 * events, heapprofile.c, heapsnapshot.c) share, and speedscope.c, whose reader parses
 * the same way: the yajl parse of a whole input with its offsets, the one error a
 * callback reports, the nesting limit and integers. */
#ifndef PT_V8JSON_H
#define PT_V8JSON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_parse.h>

#include "util/diag.h"
#include "util/input.h"
#include "util/json.h"

/* bytes handed to yajl at a time */
#define PT_V8JSON_CHUNK 65536
/* deeper JSON is refused: a V8 tree nests two levels per frame (a node's object and its
 * children's array), so this still allows stacks of ~25000 frames, more than V8's own
 * stack holds (~10000) */
#define PT_V8JSON_MAX_DEPTH 50000

/* The parse state a reader keeps (as a member); its callbacks get the reader as ctx. */
struct pt_v8json {
	yajl_handle h;
	struct pt_diag *d;
	uint64_t chunk_off; /* input offset of the chunk being parsed */
	uint64_t end_off;   /* input offset of the input's end, once read */
	int failed;	    /* a callback has put its error in d */
	int top_seen;	    /* the reader has met the document's first value */
	uint64_t skip;	    /* levels deep inside a value the reader does not use */
};

/* The input offset just past the token a callback is handed. */
static inline uint64_t pt_v8json_here(const struct pt_v8json *j)
{
	return j->chunk_off + pt_yajl()->get_bytes_consumed(j->h);
}

/* A callback's error, at the token (pt_v8json_here) or at offset off: fills d, marks
 * the parse failed and returns 0, which stops yajl (`return pt_v8json_fail(...)`). */
int pt_v8json_fail(struct pt_v8json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pt_v8json_fail_at(struct pt_v8json *j, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the same with a va_list, for a reader whose own error function decides first */
int pt_v8json_vfail_at(struct pt_v8json *j, uint64_t off, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* 1 while a reader nested `depth` levels deep (and j->skip more) stays under
 * PT_V8JSON_MAX_DEPTH, else the error and 0 (stop) */
int pt_v8json_depth_ok(struct pt_v8json *j, uint64_t depth);

/* Values a reader does not use are skipped whole, however deep, at no cost but a
 * count: pt_v8json_pass at the start of such a value (opens: a map or an array, which
 * skipping then enters); while j->skip, each token goes to pt_v8json_skip (1 to go on,
 * 0 past the nesting limit), and each end of a map or array to pt_v8json_end_skip
 * first, which says whether it was the skipped value's. */
static inline int pt_v8json_pass(struct pt_v8json *j, int opens)
{
	if (opens)
		j->skip = 1;
	return 1;
}
static inline int pt_v8json_skip(struct pt_v8json *j, uint64_t depth, int opens)
{
	if (opens)
		j->skip++;
	return pt_v8json_depth_ok(j, depth);
}
static inline int pt_v8json_end_skip(struct pt_v8json *j)
{
	if (!j->skip)
		return 0;
	j->skip--;
	return 1;
}

/* The number yajl hands over as text, as an int64_t: 0 and *v, or -1 when it is out of
 * range or has a fraction or an exponent (with allow_frac such a number is rounded,
 * if it is in range). */
int pt_v8json_num(const char *s, size_t n, int64_t *v, int allow_frac);

/* How pt_v8json_parse treats an input. */
struct pt_v8json_opts {
	int bytes; /* strings are bytes: yajl leaves invalid UTF-8 to the reader */
	/* a callback may stop yajl to read a stretch itself: pt_json_feed_resume's hook */
	int (*resume)(void *ctx, struct pt_input *in);
	/* 1 when the input, though it ends inside the document, is whole all the same */
	int (*cut_ok)(void *ctx);
};

/* Parse all of `in` with the callbacks cb (ctx: the reader, which holds j): 0 for a
 * whole document whose first value the reader met, else -1 with the error in j->d
 * (a callback's own, the input's, "truncated JSON", yajl's "invalid JSON", or "empty
 * input"). j->d must be set; j->h is made here and freed by pt_v8json_release, which
 * the reader calls in every case. */
int pt_v8json_parse(struct pt_v8json *j, const yajl_callbacks *cb, void *ctx, struct pt_input *in,
		    const struct pt_v8json_opts *o);
void pt_v8json_release(struct pt_v8json *j);

#endif
