/* load.c: the load front: input -> detection -> format reader -> model check. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "core/check.h"
#include "formats/load.h"
#include "util/buf.h"
#include "util/fetch.h"
#include "util/json.h"

/* The bytes detection sees: PT_DETECT_BYTES, or more when they are text (not JSON) that
 * holds less than its first two whole lines, so that a long first record (a comm of
 * 8 KB, a collapsed line of one long frame) and the line after it are seen whole. The
 * window doubles up to the longest line a reader takes; the input's --max-input-size
 * bounds it too. NULL on a read error. */
static const unsigned char *detect_head(struct pt_input *in, size_t *len)
{
	size_t want = PT_DETECT_BYTES, i;
	const unsigned char *head;

	for (;;) {
		int lines = 0;

		head = pt_input_peek(in, want, len);
		if (!head || *len < want || want >= PT_INPUT_MAX_LINE)
			return head;
		for (i = 0; i < *len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' ||
					 head[i] == '\n');
		     i++)
			;
		if (i < *len && (head[i] == '{' || head[i] == '['))
			return head;
		if (memchr(head, '\0', *len))
			return head;
		for (; i < *len && lines < 2; i++)
			lines += head[i] == '\n';
		if (lines >= 2)
			return head;
		want *= 2;
	}
}

/* What unrecognized input looked like, said in its one error line: the shape of JSON
 * (an object's first keys, an array's first element), a file that is no profile by its
 * magic, else the first line of text or the first bytes of binary data; and the reader
 * its name suggests. Only the first bytes are looked at. */
#define SHOW_KEYS  6
#define SHOW_CHARS 40

struct shape {
	int depth, is_array, first; /* first: type of an array's first element, or 0 */
	int nkeys, closed;	    /* keys seen of the object (the array's first one) */
	struct pt_buf keys;
};

/* s[0..n) in double quotes, its own as single ones, cut after SHOW_CHARS bytes (at a
 * UTF-8 character's start) with "..." */
static void add_quoted(struct pt_buf *b, const unsigned char *s, size_t n)
{
	size_t i, m = n;

	if (m > SHOW_CHARS)
		for (m = SHOW_CHARS; m && (s[m] & 0xc0) == 0x80; m--)
			;
	pt_buf_addch(b, '"');
	for (i = 0; i < m; i++)
		pt_buf_addch(b, s[i] == '"' ? '\'' : s[i]);
	pt_buf_addstr(b, m < n ? "...\"" : "\"");
}

static void shape_key(struct shape *s, const unsigned char *k, size_t n)
{
	if (++s->nkeys > SHOW_KEYS) {
		if (s->nkeys == SHOW_KEYS + 1)
			pt_buf_addstr(&s->keys, ", ...");
		return;
	}
	if (s->nkeys > 1)
		pt_buf_addstr(&s->keys, ", ");
	add_quoted(&s->keys, k, n);
}

/* a value at depth 1 of an array: its first element's kind */
static int shape_value(void *ctx, int kind)
{
	struct shape *s = ctx;

	if (s->is_array && s->depth == 1 && !s->first)
		s->first = kind;
	return 1;
}

static int sh_null(void *ctx)
{
	return shape_value(ctx, 'n');
}

static int sh_bool(void *ctx, int b)
{
	(void)b;
	return shape_value(ctx, 'b');
}

static int sh_number(void *ctx, const char *v, size_t n)
{
	(void)v, (void)n;
	return shape_value(ctx, '0');
}

static int sh_string(void *ctx, const unsigned char *v, size_t n)
{
	(void)v, (void)n;
	return shape_value(ctx, '"');
}

static int sh_open(void *ctx, int kind)
{
	struct shape *s = ctx;

	if (!s->depth)
		s->is_array = kind == '[';
	else
		shape_value(ctx, kind);
	s->depth++;
	return 1;
}

static int sh_start_map(void *ctx)
{
	return sh_open(ctx, '{');
}

static int sh_start_array(void *ctx)
{
	return sh_open(ctx, '[');
}

static int sh_key(void *ctx, const unsigned char *k, size_t n)
{
	struct shape *s = ctx;

	if (s->depth == 1 + s->is_array && (!s->is_array || s->first == '{'))
		shape_key(s, k, n);
	return 1;
}

/* the object described closes: the rest is not needed */
static int sh_end(void *ctx)
{
	struct shape *s = ctx;

	s->depth--;
	if (s->depth == s->is_array && (!s->is_array || s->first == '{')) {
		s->closed = 1;
		return 0;
	}
	return s->depth > 0;
}

static const yajl_callbacks shape_callbacks = {
	sh_null,      sh_bool, NULL,   NULL,	       sh_number, sh_string,
	sh_start_map, sh_key,  sh_end, sh_start_array, sh_end,
};

/* JSON's shape into b; 0 if the bytes are no JSON that far */
static int describe_json(const unsigned char *head, size_t len, struct pt_buf *b)
{
	static const char *const kinds[][2] = {
		{"n", "nulls"},	   {"b", "booleans"}, {"0", "numbers"},
		{"\"", "strings"}, {"[", "arrays"},
	};
	struct shape s = {0};
	yajl_handle h;
	size_t i;
	int ok;

	pt_buf_init(&s.keys);
	h = pt_yajl()->alloc(&shape_callbacks, NULL, &s);
	ok = pt_yajl()->parse(h, head, len) != yajl_status_error || s.closed;
	pt_yajl()->free(h);
	if (ok && s.is_array && s.first != '{') {
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (s.first == kinds[i][0][0])
				pt_buf_addf(b, "a JSON array of %s", kinds[i][1]);
		if (!s.first)
			pt_buf_addstr(b, s.depth ? "a JSON array" : "an empty JSON array");
	} else if (ok) {
		pt_buf_addf(b, "a JSON %s", s.is_array ? "array of objects" : "object");
		if (s.nkeys)
			pt_buf_addf(b, " with keys %s%s", s.keys.buf,
				    s.closed || s.nkeys > SHOW_KEYS ? "" : ", ...");
		else if (s.closed)
			pt_buf_addstr(b, " with no keys");
	}
	pt_buf_release(&s.keys);
	return ok;
}

/* files that are no profile, by their first bytes, and what to do instead */
static const struct {
	const char *magic;
	size_t len;
	const char *what;
} magics[] = {
	{"PERFILE2", 8, "a perf.data file ('perf script' turns it into text that proftool reads)"},
	{"\177ELF", 4, "an ELF file (a program, not a profile)"},
	{"BZh", 3, "bzip2-compressed data (proftool undoes gzip, xz and zstd)"},
	{"PK\003\004", 4, "a zip archive"},
};

static void describe_bytes(const unsigned char *head, size_t len, struct pt_buf *b)
{
	size_t i, odd = 0, n;

	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (len >= magics[i].len && !memcmp(head, magics[i].magic, magics[i].len)) {
			pt_buf_addstr(b, magics[i].what);
			return;
		}
	for (i = 0; i < len && i < 512; i++)
		odd += head[i] == 0 || head[i] == 0x7f ||
		       (head[i] < 0x20 && head[i] != '\t' && head[i] != '\n' && head[i] != '\r');
	if (odd * 20 > (i ? i : 1)) {
		pt_buf_addstr(b, "binary data starting");
		for (i = 0; i < len && i < 8; i++)
			pt_buf_addf(b, " %02x", head[i]);
		return;
	}
	for (n = 0; n < len && head[n] != '\n' && head[n] != '\r'; n++)
		;
	pt_buf_addstr(b, "text starting ");
	add_quoted(b, head, n);
}

/* the heap-graph reader whose detector claims head (not the registry's fallback), or
 * NULL */
static const struct pt_format *heap_claim(const unsigned char *head, size_t len)
{
	const struct pt_format *f = pt_format_detect_yield(head, len, PT_YIELD_HEAP_GRAPH);

	return f && f->detect && f->detect(head, len) > 0 ? f : NULL;
}

static int unrecognized(const struct pt_input *in, const unsigned char *head, size_t len,
			struct pt_diag *d)
{
	struct pt_buf b = PT_BUF_INIT;
	const struct pt_format *f = pt_format_reader_for_path(in->name);
	size_t i = pt_json_skip_ws(head, 0, len);

	if (i == len || (head[i] != '{' && head[i] != '[') || !describe_json(head + i, len - i, &b))
		describe_bytes(head, len, &b);
	if (f)
		pt_buf_addf(&b, "; named like %s input ('--from %s' reads it as one)", f->name,
			    f->name);
	else
		pt_buf_addstr(&b, " (see 'proftool formats'; --from FORMAT forces one)");
	pt_diag_error_at(d, 0, "unrecognized profile format: %s", b.buf);
	pt_buf_release(&b);
	return -1;
}

int pt_load_input(struct pt_input *in, const struct pt_load_opts *o, struct pt_profile *p,
		  struct pt_diag *d)
{
	const struct pt_format *f;
	const unsigned char *head;
	size_t len;
	int ret;

	head = detect_head(in, &len);
	if (!head)
		return -1;
	if (!len && !o->from) /* --from: the reader says what empty is (perf: no samples) */
		return pt_diag_error_at(d, 0, "empty input");
	if (o->from) {
		f = pt_format_find(o->from);
		if (!f || !f->read)
			return pt_diag_error(d, "cannot read format '%s' (see 'proftool formats')",
					     o->from);
	} else {
		f = pt_format_detect(head, len);
		if (!f && (f = heap_claim(head, len)))
			return pt_diag_error_at(d, 0,
						"a %s heap dump, not a profile: 'proftool heap' "
						"reads it",
						f->name);
		if (!f)
			return unrecognized(in, head, len, d);
	}
	p->keep_timeline = o->read.keep_timeline;
	/* names demangled (or simplified) once each, as the reader makes functions */
	p->name_mode = PT_NAMES_MARK;
	if (!(o->read.flags & PT_READ_NO_DEMANGLE))
		p->name_mode |= PT_NAMES_DEMANGLE;
	if (o->read.flags & PT_READ_SIMPLIFY)
		p->name_mode |= PT_NAMES_SIMPLIFY;
	p->src = in; /* where a record whose values overflow is */
	if (f->addresses == PT_ADDRESSES_ALL && o->read.addr_sink) {
		struct pt_read_opts ro = o->read;
		ro.sink = ro.addr_sink;
		ret = f->read(in, p, &ro, d);
	} else {
		ret = f->read(in, p, &o->read, d);
	}
	p->src = NULL;
	if (ret == PT_READ_HEAP) /* a heap graph, into o->read.heap_out */
		return ret;
	if (!ret)
		ret = pt_profile_check_sums(p, o->read.lenient, d);
	pt_profile_pack(p);
	if (!ret && !p->format)
		p->format = f->name;
	if (!ret)
		ret = pt_profile_check(p, d);
	return ret;
}

/* what to read an open input as: a profile or a heap graph */
struct target {
	struct pt_profile *p;
	struct pt_heapgraph *g;
};

static int read_input(struct pt_input *in, const struct pt_load_opts *o, struct target *t,
		      struct pt_diag *d)
{
	int ret;

	/* either (info): a heap graph when only a heap reader claims the input */
	if (t->p && t->g) {
		size_t len;
		const unsigned char *head = detect_head(in, &len);
		if (!head)
			return -1;
		if (!o->from && len && !pt_format_detect(head, len) && heap_claim(head, len))
			t->p = NULL;
		else
			t->g = NULL;
	}
	if (!t->p)
		return pt_load_heap_input(in, t->g, d);
	ret = pt_load_input(in, o, t->p, d);
	if (ret == PT_READ_HEAP) { /* the reader filled o->read.heap_out, the caller's g */
		t->p = NULL;
		ret = 0;
	}
	return ret;
}

/* what the fetch's wait is told to the hooks with */
struct fetch_watch {
	const struct pt_fetch_hooks *hooks;
	const char *url;
	long seconds;
};

static void fetch_waiting(void *ctx, uint64_t received)
{
	const struct fetch_watch *w = ctx;
	w->hooks->waiting(w->hooks->ctx, w->url, w->seconds, received);
}

/* a URL: fetched whole (bounded like a file), then read from memory */
static int load_url(const char *path, const struct pt_load_opts *o, struct target *t,
		    struct pt_diag *d)
{
	uint64_t max = o->max_size ? o->max_size : PT_INPUT_DEFAULT_MAX;
	char *url = o->seconds ? pt_url_with_seconds(path, o->seconds) : NULL;
	long seconds = o->seconds ? o->seconds : pt_url_seconds(path), timeout = o->timeout;
	unsigned char *data;
	size_t len;
	struct pt_input in;
	struct fetch_watch w;
	int ret = -1;

	/* go tool pprof's wait: the seconds profiled and half again (here at least 5 more,
	 * for the transfer), else a minute */
	if (!timeout)
		timeout = seconds ? seconds + (seconds / 2 > 5 ? seconds / 2 : 5) : 60;
	if (o->hooks && o->hooks->start)
		o->hooks->start(o->hooks->ctx, url ? url : path, seconds);
	w.hooks = o->hooks;
	w.url = url ? url : path;
	w.seconds = seconds;
	if (pt_fetch_watched(w.url, max, timeout, &data, &len,
			     o->hooks && o->hooks->waiting ? fetch_waiting : NULL, &w, d) == 0) {
		if (pt_input_open_mem(&in, path, data, len, o->max_size, d) == 0)
			ret = read_input(&in, o, t, d);
		pt_input_close(&in);
		d->path = path;
		/* the hook's own errors name what it failed on */
		if (!ret && o->hooks && o->hooks->done)
			ret = o->hooks->done(o->hooks->ctx, url ? url : path, data, len,
					     t->p ? t->p->format : NULL, t->p, d);
		free(data);
	} else {
		d->path = path;
	}
	free(url);
	return ret;
}

static int load(const char *path, const struct pt_load_opts *o, struct target *t, struct pt_diag *d)
{
	struct pt_input in;
	int ret = -1;

	if (pt_is_url(path))
		return load_url(path, o, t, d);
	if (pt_input_open(&in, path, o->max_size, d) == 0) {
		if (o->progress)
			pt_input_watch(&in, o->progress, o->progress_ctx);
		ret = read_input(&in, o, t, d);
	}
	pt_input_close(&in);
	return ret;
}

int pt_load(const char *path, const struct pt_load_opts *o, struct pt_profile *p, struct pt_diag *d)
{
	struct target t = {p, NULL};
	return load(path, o, &t, d);
}

int pt_load_heap_input(struct pt_input *in, struct pt_heapgraph *g, struct pt_diag *d)
{
	const struct pt_format *f;
	const unsigned char *head;
	size_t len;

	head = pt_input_peek(in, PT_DETECT_BYTES, &len);
	if (!head)
		return -1;
	/* another model's input is named, with the command that reads it */
	f = pt_format_detect(head, len);
	if (f && !(pt_format_yields(f) & PT_YIELD_HEAP_GRAPH))
		return pt_diag_error(d,
				     "a %s profile, not a heap snapshot: 'proftool top' and the "
				     "other profile commands read it",
				     f->name);
	f = pt_format_detect_yield(head, len, PT_YIELD_HEAP_GRAPH);
	if (!f)
		return pt_diag_error(d, "this build reads no heap snapshots");
	return f->read_heap(in, g, d);
}

int pt_load_heap(const char *path, const struct pt_load_opts *o, struct pt_heapgraph *g,
		 struct pt_diag *d)
{
	struct target t = {NULL, g};
	return load(path, o, &t, d);
}

int pt_load_either(const char *path, const struct pt_load_opts *o, struct pt_profile *p,
		   struct pt_heapgraph *g, int *is_heap, struct pt_diag *d)
{
	struct target t = {p, g};
	int ret = load(path, o, &t, d);

	*is_heap = !t.p;
	return ret;
}

int pt_select_type(const struct pt_profile *p, const char *spec, int allow_all, struct pt_diag *d)
{
	struct pt_buf names = PT_BUF_INIT;
	uint32_t t;
	int i;

	if (!spec)
		return p->default_type < p->ntypes ? (int)p->default_type : 0;
	if (allow_all && !strcmp(spec, "all"))
		return PT_TYPE_ALL;
	i = pt_profile_find_type(p, spec);
	if (i >= 0)
		return i;
	for (t = 0; t < p->ntypes; t++)
		pt_buf_addf(&names, "%s%s", t ? ", " : "", pt_s(p, p->types[t].name));
	pt_diag_error(d, "no sample type '%s' (the profile has: %s)", spec, names.buf);
	pt_buf_release(&names);
	return -1;
}
