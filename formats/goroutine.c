/* goroutine.c: Go's text dumps. "goroutine": goroutine?debug=2, panic and SIGQUIT output
 * (one sample per goroutine); "gotext": the debug=1 text of net/http/pprof's goroutine,
 * threadcreate, block, mutex and heap profiles. See formats/goroutine.md. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "core/sink.h"
#include "formats/format.h"
#include "util/intern.h"
#include "util/libm.h"
#include "util/xalloc.h"

#define CREATED_BY "created by "
#define ELIDED	   "...additional frames elided..."
#define FCACHE_N   4096 /* frame cache slots, a power of two */

static inline int starts_n(const char *s, size_t n, const char *prefix, size_t k)
{
	return n >= k && !memcmp(s, prefix, k);
}
/* s[0..n) starts with the string literal prefix */
#define starts(s, n, prefix) starts_n((s), (n), (prefix), sizeof(prefix) - 1)

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* decimal digits at s[*i..n) into *v (saturating at INT64_MAX); 0 if there are none */
static int take_int(const char *s, size_t n, size_t *i, int64_t *v)
{
	size_t k = *i;
	int64_t acc = 0;

	while (k < n && is_digit(s[k])) {
		int d = s[k] - '0';
		acc = acc > (INT64_MAX - d) / 10 ? INT64_MAX : acc * 10 + d;
		k++;
	}
	if (k == *i)
		return 0;
	*i = k;
	*v = acc;
	return 1;
}

/* "goroutine N [state...]:" (Go 1.23 puts "gp=... m=..." between N and '['): sets the
 * id and the bracket's span; 0 if the line is no header */
static int parse_header(const char *s, size_t n, int64_t *id, size_t *st, size_t *en)
{
	size_t i = 10, k;

	if (!starts(s, n, "goroutine ") || !take_int(s, n, &i, id))
		return 0;
	if (n < 2 || s[n - 1] != ':' || s[n - 2] != ']' || i == n || s[i] != ' ')
		return 0;
	for (k = i; k < n && s[k] != '['; k++)
		;
	if (k >= n - 2)
		return 0;
	*st = k + 1;
	*en = n - 2;
	return 1;
}

/* detect: a goroutine header at the start of a line in the head */
static int goroutine_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head;
	size_t i = 0;
	int lines = 0;

	while (i < len && lines < 64) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
		int64_t id;
		size_t a, b;
		if (n && s[i + n - 1] == '\r')
			n--;
		if (parse_header(s + i, n, &id, &a, &b))
			return lines == 0 || starts(s, len, "panic: ") ||
					       starts(s, len, "fatal error: ") ||
					       starts(s, len, "SIG")
				       ? 90
				       : 60;
		if (!nl)
			break;
		i += n + 1 + (s[i + n] == '\r');
		lines++;
	}
	return 0;
}

struct reader {
	struct pt_profile *p;
	struct pt_sink *sink;
	struct pt_diag *d;
	uint32_t flags;
	/* the goroutine being read: frames leaf first */
	int in_g;
	uint64_t g_line; /* its header's line */
	int64_t gid, wait;
	uint32_t state; /* string id */
	int locked, has_wait;
	uint32_t *frames;
	size_t nframes, frames_alloc;
	int have_creator, elided;
	uint32_t creator; /* frame id */
	/* a function line waiting for its "\tfile:line" line */
	struct pt_buf fn;
	int pending; /* 1 = function, 2 = creator */
	uint64_t pending_line;
	/* function lines that had no "\tfile:line" line after them (a warning) */
	uint64_t no_file, first_no_file;
	/* "name\nfile\nline" -> frame id: one hash per frame line */
	struct pt_arena arena;
	struct pt_intern keys;
	uint32_t *frame_of_key;
	size_t fok_alloc;
	uint32_t fcache[FCACHE_N]; /* frame id + 1, 0 empty: see frame_for */
	struct pt_buf key;
	/* (state, wait, locked) -> label set id + 1, in a table of its own */
	struct pt_intern lkeys;
	uint32_t *labels_of_key;
	size_t lok_alloc;
	uint32_t k_state, k_wait, k_minutes, k_locked, k_thread, k_goroutine; /* label keys */
	int panicked; /* the first "panic:" line is kept as metadata */
	int fatal;    /* a "fatal error:" line was met */
	/* the line being read; the first with a NUL kept */
	uint64_t cur_line, nul_line;
	uint64_t ngoroutines;
	int64_t one;
};

/* up to 8 bytes ending at s + n, as one number: the cheap probe of the frame cache */
static inline uint64_t tail8(const char *s, size_t n)
{
	uint64_t v = 0;
	if (n >= 8)
		memcpy(&v, s + n - 8, 8);
	else if (n)
		memcpy(&v, s, n);
	return v;
}

static int same_str(const struct pt_profile *p, uint32_t id, const char *s, size_t n)
{
	return pt_intern_len(&p->strings, id) == n &&
	       (!n || !memcmp(pt_intern_str(&p->strings, id), s, n));
}

/* Is frame id what frame_for makes of these fields? (A cache slot's frame is only
 * taken when it is, so a probe collision, crafted or not, costs one miss.) */
static int frame_is(const struct pt_profile *p, uint32_t id, const char *name, size_t nn,
		    const char *file, size_t fl, int64_t line, uint32_t flags)
{
	const struct pt_frame *f = &p->frames[id];
	const struct pt_func *fn = &p->funcs[f->func];

	return f->line == line && f->flags == flags && !f->mapping && !f->column && !f->addr &&
	       !fn->system_name && !fn->start_line && !fn->ident &&
	       same_str(p, fn->name, name, nn) && same_str(p, fn->file, file, fl);
}

static uint32_t frame_for(struct reader *r, const char *name, size_t nn, const char *file,
			  size_t fl, int64_t line, uint32_t flags)
{
	uint32_t id, *slot;
	uint64_t h;

	/* a dump repeats the same few hundred frames: most are found in a direct-mapped
	 * cache probed by the names' last bytes, without hashing all of the text */
	h = tail8(name, nn) * 0x9e3779b97f4a7c15ULL ^ tail8(file, fl) * 0xc2b2ae3d27d4eb4fULL ^
	    (uint64_t)line * 0x165667b19e3779f9ULL ^ nn ^ (uint64_t)fl << 32 ^ flags;
	slot = &r->fcache[(h ^ h >> 31) & (FCACHE_N - 1)];
	if (*slot && frame_is(r->p, *slot - 1, name, nn, file, fl, line, flags))
		return *slot - 1;

	pt_buf_reset(&r->key);
	pt_buf_add(&r->key, name, nn);
	pt_buf_addch(&r->key, '\n');
	pt_buf_add(&r->key, file, fl);
	/* the numbers as raw bytes: no formatting on the per-frame path */
	pt_buf_add(&r->key, &line, sizeof(line));
	pt_buf_add(&r->key, &flags, sizeof(flags));
	id = pt_intern(&r->keys, r->key.buf, r->key.len);
	if (id >= r->fok_alloc || !r->frame_of_key[id]) {
		size_t old = r->fok_alloc;
		struct pt_frame f;
		PT_ALLOC_GROW(r->frame_of_key, (size_t)id + 1, r->fok_alloc);
		memset(r->frame_of_key + old, 0, (r->fok_alloc - old) * sizeof(uint32_t));
		/* a NUL is looked for only in what becomes a string, once per distinct frame
		 * (the line would otherwise be scanned once more); the caller reports it */
		if (!r->nul_line && memchr(name, '\0', nn))
			r->nul_line = r->pending ? r->pending_line : r->cur_line;
		if (!r->nul_line && fl && memchr(file, '\0', fl))
			r->nul_line = r->cur_line;
		memset(&f, 0, sizeof(f));
		f.func = pt_profile_func_text(r->p, pt_strref_of(name, nn), pt_strref_of(NULL, 0),
					      pt_strref_of(file, fl), 0, 0);
		f.line = line;
		f.flags = flags;
		r->frame_of_key[id] = pt_profile_frame(r->p, &f);
	}
	*slot = r->frame_of_key[id] + 1;
	return r->frame_of_key[id];
}

static void push(struct reader *r, uint32_t frame)
{
	PT_ALLOC_GROW(r->frames, r->nframes + 1, r->frames_alloc);
	r->frames[r->nframes++] = frame;
}

/* the pending function line becomes a frame, with file and line if known */
static void flush_pending(struct reader *r, const char *file, size_t fl, int64_t line)
{
	if (r->pending && !line && !fl && !r->no_file++)
		r->first_no_file = r->pending_line;
	if (r->pending == 2) {
		/* left out, no frame is made for it: one no sample uses */
		if (!(r->flags & PT_READ_NO_CREATOR))
			r->creator = frame_for(r, r->fn.buf, r->fn.len, file, fl, line,
					       PT_FRAME_CREATOR | PT_FRAME_SYNTHETIC);
		r->have_creator = 1;
	} else if (r->pending == 1) {
		push(r, frame_for(r, r->fn.buf, r->fn.len, file, fl, line, 0));
	}
	r->pending = 0;
}

/* the goroutine read so far becomes one sample */
/* the label set of the goroutine read: state, wait, locked (and its id if asked for) */
static uint32_t labels_of(struct reader *r)
{
	struct pt_label l[4];
	uint32_t nl = 0, id, *slot;
	struct {
		int64_t wait;
		uint32_t state, bits;
	} key;

	/* without ids, few distinct sets: one hash of a 16-byte key finds a known one */
	memset(&key, 0, sizeof(key));
	key.wait = r->wait;
	key.state = r->state;
	key.bits = (uint32_t)r->has_wait | (uint32_t)r->locked << 1;
	slot = NULL;
	if (!(r->flags & PT_READ_GOROUTINE_IDS)) {
		id = pt_intern(&r->lkeys, &key, sizeof(key));
		if (id >= r->lok_alloc) {
			size_t old = r->lok_alloc;
			PT_ALLOC_GROW(r->labels_of_key, (size_t)id + 1, r->lok_alloc);
			memset(r->labels_of_key + old, 0, (r->lok_alloc - old) * sizeof(uint32_t));
		}
		slot = &r->labels_of_key[id];
		if (*slot)
			return *slot - 1;
	}
	if (!r->k_state) {
		r->k_state = pt_str(r->p, "state");
		r->k_wait = pt_str(r->p, "wait");
		r->k_minutes = pt_str(r->p, "minutes");
		r->k_locked = pt_str(r->p, "locked");
		r->k_thread = pt_str(r->p, "thread");
		r->k_goroutine = pt_str(r->p, "goroutine");
	}
	memset(l, 0, sizeof(l));
	l[nl].key = r->k_state;
	l[nl++].str = r->state;
	if (r->has_wait) {
		l[nl].key = r->k_wait;
		l[nl].num = r->wait;
		l[nl++].num_unit = r->k_minutes;
	}
	if (r->locked) {
		l[nl].key = r->k_locked;
		l[nl++].str = r->k_thread;
	}
	if (r->flags & PT_READ_GOROUTINE_IDS) {
		l[nl].key = r->k_goroutine;
		l[nl++].num = r->gid;
	}
	id = pt_profile_labelset(r->p, l, nl);
	if (slot)
		*slot = id + 1;
	return id;
}

/* the goroutine read so far becomes one sample */
static void emit(struct reader *r)
{
	if (!r->in_g)
		return;
	flush_pending(r, "", 0, 0);
	if (r->elided)
		push(r, frame_for(r, ELIDED, strlen(ELIDED), "", 0, 0, PT_FRAME_SYNTHETIC));
	if (r->have_creator && !(r->flags & PT_READ_NO_CREATOR))
		push(r, r->creator);
	pt_sink_sample(r->sink, r->p, r->frames, r->nframes, 1, labels_of(r), &r->one, 0);
	r->ngoroutines++;
	r->in_g = 0;
}

/* the bracket of a header: "state[, N minutes][, locked to thread][, ...]" */
static void start_goroutine(struct reader *r, const char *s, size_t a, size_t b, int64_t id,
			    uint64_t lineno)
{
	size_t i = a, k;
	int first = 1;

	emit(r);
	r->in_g = 1;
	r->g_line = lineno;
	r->gid = id;
	if (!r->ngoroutines && (r->panicked || r->fatal)) {
		/* a crash prints the goroutine that crashed first (panicparse's "first") */
		char v[24];
		snprintf(v, sizeof(v), "%lld", (long long)id);
		pt_profile_add_meta(r->p, PT_GO_META_CRASHED, v);
	}
	r->nframes = 0;
	r->have_creator = r->elided = r->has_wait = r->locked = 0;
	r->pending = 0;
	r->state = 0;
	while (i <= b) {
		for (k = i; k < b && !(s[k] == ',' && k + 1 < b && s[k + 1] == ' '); k++)
			;
		if (first) {
			r->state = pt_strn(r->p, s + i, k - i);
			first = 0;
		} else if (k - i == 16 && !memcmp(s + i, "locked to thread", 16)) {
			r->locked = 1;
		} else {
			size_t j = i;
			int64_t v;
			if (take_int(s, k, &j, &v) && (k - j == 8 || k - j == 7) &&
			    (!memcmp(s + j, " minutes", 8) || !memcmp(s + j, " minute", 7))) {
				r->wait = v;
				r->has_wait = 1;
			}
		}
		i = k + 2;
	}
}

/* "\tfile:line +0xoff fp=... sp=... pc=...": the file and line */
static void file_line(const char *s, size_t n, size_t *fl, int64_t *line)
{
	size_t end = n, k;
	const char *sp = s;

	/* the path ends at the first " +0x" or " fp=" (paths may hold spaces) */
	while ((sp = memchr(sp, ' ', n - (size_t)(sp - s))) != NULL) {
		size_t rest = n - (size_t)(sp - s) - 1;
		if (rest && (sp[1] == '+' || starts(sp + 1, rest, "fp="))) {
			end = (size_t)(sp - s);
			break;
		}
		sp++;
	}
	*fl = end;
	*line = 0;
	for (k = end; k > 0 && is_digit(s[k - 1]); k--)
		;
	if (k > 0 && k < end && s[k - 1] == ':') {
		size_t j = k;
		take_int(s, end, &j, line);
		*fl = k - 1;
	}
}

/* "name(args)": the length of the name, or 0 if the line is no call */
static size_t call_name(const char *s, size_t n)
{
	size_t k;
	int depth = 0;

	if (!n || s[n - 1] != ')')
		return 0;
	for (k = n; k > 0; k--) {
		if (s[k - 1] == ')')
			depth++;
		else if (s[k - 1] == '(' && --depth == 0)
			return k - 1;
	}
	return 0;
}

static int goroutine_line(struct reader *r, char *s, size_t n, uint64_t lineno)
{
	int64_t id;
	size_t a, b, k;

	r->cur_line = lineno;
	if (parse_header(s, n, &id, &a, &b)) {
		if (memchr(s + a, '\0', b - a))
			return pt_diag_error_line(r->d, lineno, "NUL byte in line");
		start_goroutine(r, s, a, b, id, lineno);
		return 0;
	}
	if (!r->in_g) {
		/* the preamble and what follows the goroutines: the message, the signal,
		 * registers, the crashing thread's own stack */
		if (starts(s, n, "panic: ") && !r->ngoroutines && !r->panicked) {
			r->panicked = 1;
			pt_profile_add_meta(r->p, PT_GO_META_PANIC, s + 7);
		} else if (starts(s, n, "fatal error: ")) {
			r->fatal = 1;
			pt_profile_add_meta(r->p, PT_GO_META_FATAL, s + 13);
		} else if (starts(s, n, "SIG") && memchr(s, ':', n)) {
			pt_profile_add_meta(r->p, "signal", s);
		}
		return 0;
	}
	if (!n || (r->have_creator && !r->pending && s[0] != '\t')) {
		/* a blank line ends a goroutine; so does anything after its "created by"
		 * (the shell's "Aborted" when the dump ends without one) */
		emit(r);
		return n ? goroutine_line(r, s, n, lineno) : 0;
	}
	if (s[0] == '\t') {
		size_t fl;
		int64_t line;
		if (!r->pending) {
			if (starts(s, n, "\tgoroutine running on other thread"))
				return 0;
			return pt_diag_error_line(r->d, lineno,
						  "file line without a function line");
		}
		file_line(s + 1, n - 1, &fl, &line);
		flush_pending(r, s + 1, fl, line);
		return 0;
	}
	flush_pending(r, "", 0, 0);
	if (starts(s, n, CREATED_BY)) {
		/* "created by F" or (Go 1.21) "created by F in goroutine K" */
		const char *in = NULL;
		for (k = n; k > sizeof(CREATED_BY) - 1; k--)
			if (starts(s + k - 1, n - k + 1, " in goroutine ")) {
				in = s + k - 1;
				break;
			}
		pt_buf_reset(&r->fn);
		pt_buf_add(&r->fn, s, in ? (size_t)(in - s) : n);
		r->pending = 2;
		r->pending_line = lineno;
		return 0;
	}
	if (n == strlen(ELIDED) && !memcmp(s, ELIDED, n)) {
		r->elided = 1;
		return 0;
	}
	k = call_name(s, n);
	if (!k)
		return pt_diag_error_line(
			r->d, lineno, "expected 'function(args)', 'created by' or a blank line");
	pt_buf_reset(&r->fn);
	pt_buf_add(&r->fn, s, (r->flags & PT_READ_GO_ARGS) ? n : k);
	r->pending = 1;
	r->pending_line = lineno;
	return 0;
}

/* a NUL byte met in a name or file (frame_for): an error on its line */
static int nul_error(struct reader *r)
{
	uint64_t line = r->nul_line;
	r->nul_line = 0;
	return pt_diag_error_line(r->d, line, "NUL byte in line");
}

/* a dump's line cut before the spaces and '\r's that end it (NUL-terminated there, the
 * parsers take it as a C string); its new length */
static size_t end_line(char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	s[n] = '\0';
	return n;
}

static void reader_init(struct reader *r, struct pt_profile *p, const struct pt_read_opts *o,
			struct pt_diag *d)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->sink = o->sink;
	r->d = d;
	r->flags = o->flags;
	r->one = 1;
	pt_buf_init(&r->fn);
	pt_buf_init(&r->key);
	pt_arena_init(&r->arena);
	pt_intern_init(&r->keys, &r->arena);
	pt_intern_init(&r->lkeys, &r->arena);
}

static void reader_release(struct reader *r)
{
	free(r->frames);
	free(r->frame_of_key);
	pt_buf_release(&r->fn);
	pt_buf_release(&r->key);
	pt_intern_release(&r->keys);
	pt_intern_release(&r->lkeys);
	free(r->labels_of_key);
	pt_arena_release(&r->arena);
}

static int dump_line(void *ctx, char *line, size_t n, uint64_t lineno)
{
	struct reader *r = ctx;

	if (goroutine_line(r, line, end_line(line, n), lineno) < 0 ||
	    (r->nul_line && nul_error(r) < 0))
		return -1;
	return 0;
}

static int goroutine_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			  struct pt_diag *d)
{
	struct reader r;
	int ret = 0;

	reader_init(&r, p, o, d);
	p->format = "goroutine";
	pt_profile_add_type(p, "goroutines", "count");
	if (pt_read_lines(in, o, d, dump_line, &r) < 0) {
		ret = -1;
		goto out;
	}
	/* a truncated dump keeps its last goroutine with the frames read so far */
	emit(&r);
	if (r.nul_line && nul_error(&r) < 0 && !o->lenient) {
		ret = -1;
		goto out;
	}
	if (!r.ngoroutines)
		ret = pt_diag_error_line(d, in->lineno ? in->lineno : 1,
					 "no goroutine header ('goroutine N [state]:')");
	else if (r.no_file)
		pt_diag_warn(d, PT_DIAG_LINE, r.first_no_file,
			     "%llu function line%s without the 'file:line' line after %s (the "
			     "first here): kept without a file",
			     (unsigned long long)r.no_file, r.no_file == 1 ? "" : "s",
			     r.no_file == 1 ? "it" : "them");
out:
	reader_release(&r);
	return ret;
}

/* ---- debug=1: the legacy text profiles ---- */

enum legacy_kind { L_COUNT, L_CONTENTION, L_HEAP };

struct legacy {
	struct reader r;
	enum legacy_kind kind;
	int64_t period, cpuhz, rate;
	int heap_v2, has_alloc;
	int64_t vals[4];
	int in_sample;
	uint64_t sample_line;
	uint32_t labels;
	struct pt_label lab[16];
	uint32_t nlab;
	int done;	   /* past the samples: the MemStats comments */
	struct pt_libm lm; /* exp, opened when values are unsampled (util/libm.h) */
};

static int legacy_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head;
	size_t i = 0;

	if (starts(s, len, "--- contention:") || starts(s, len, "--- mutex:") ||
	    starts(s, len, "heap profile: "))
		return 95;
	while (i < len && s[i] != ' ' && s[i] != '\n')
		i++;
	if (i && i < len && starts(s + i, len - i, " profile: total "))
		return 95;
	return 0;
}

static void legacy_emit(struct legacy *l)
{
	struct reader *r = &l->r;
	if (!l->in_sample)
		return;
	pt_sink_sample(r->sink, r->p, r->frames, r->nframes, 1, l->labels, l->vals, 0);
	l->in_sample = 0;
	r->nframes = 0;
	l->labels = 0;
}

/* x * f truncated toward zero as Go's int64() does, saturating */
static int64_t mul_trunc(int64_t x, double f)
{
	double v = (double)x * f;
	return v >= 9.2e18 ? INT64_MAX : (int64_t)v;
}

/* pprof's unsampling of a heap sample: count and size / (1 - e^(-avg/rate)) */
static void heap_scale(const struct pt_libm *lm, int64_t *count, int64_t *size, int64_t rate)
{
	double avg, scale;

	if (*count == 0 || *size == 0) {
		*count = *size = 0;
		return;
	}
	if (rate <= 1)
		return;
	avg = (double)*size / (double)*count;
	scale = 1 / (1 - lm->exp(-avg / (double)rate));
	*count = mul_trunc(*count, scale);
	*size = mul_trunc(*size, scale);
}

/* "# labels: {"k":"v", ...}" (goroutine profiles of labelled goroutines) */
static void legacy_labels(struct legacy *l, const char *s, size_t n)
{
	struct reader *r = &l->r;
	size_t i = 0;

	l->nlab = 0;
	while (i < n && l->nlab < 16) {
		size_t ks, ke, vs, ve;
		while (i < n && s[i] != '"')
			i++;
		ks = ++i;
		while (i < n && s[i] != '"')
			i++;
		ke = i++;
		while (i < n && s[i] != '"')
			i++;
		vs = ++i;
		while (i < n && s[i] != '"')
			i++;
		ve = i++;
		if (ve > n || ke > n)
			break;
		memset(&l->lab[l->nlab], 0, sizeof(l->lab[0]));
		l->lab[l->nlab].key = pt_strn(r->p, s + ks, ke - ks);
		l->lab[l->nlab++].str = pt_strn(r->p, s + vs, ve - vs);
	}
	l->labels = pt_profile_labelset(r->p, l->lab, l->nlab);
}

/* "#\t0xADDR\tfunc+0xoff\tfile:line" */
static int legacy_frame(struct legacy *l, const char *s, size_t n, uint64_t lineno)
{
	struct reader *r = &l->r;
	const char *fn, *plus, *file;
	size_t i = 2, fl;
	int64_t line;

	while (i < n && s[i] != '\t')
		i++;
	if (i == n) {
		/* an address without a symbol */
		if (n - 2 == 3 && !memcmp(s + 2, "0x0", 3))
			return 0;
		push(r, frame_for(r, s + 2, n - 2, "", 0, 0, PT_FRAME_NO_SYMBOL));
		return 0;
	}
	fn = s + i + 1;
	file = memchr(fn, '\t', n - (size_t)(fn - s));
	if (!file)
		return pt_diag_error_line(r->d, lineno,
					  "expected '#\\tADDR\\tFUNC+OFF\\tFILE:LINE'");
	plus = fn;
	for (i = (size_t)(file - fn); i > 0; i--)
		if (fn[i - 1] == '+') {
			plus = fn + i - 1;
			break;
		}
	if (plus == fn)
		plus = file;
	file++;
	while (file < s + n && *file == '\t')
		file++;
	file_line(file, n - (size_t)(file - s), &fl, &line);
	push(r, frame_for(r, fn, (size_t)(plus - fn), file, fl, line, 0));
	return 0;
}

/* "N @ 0x.. 0x.." (count), "CYCLES COUNT @ ..." (contention), "A: B [C: D] @ ..." (heap) */
static int legacy_sample(struct legacy *l, const char *s, size_t n, uint64_t lineno)
{
	struct reader *r = &l->r;
	int64_t v[4] = {0, 0, 0, 0};
	size_t i = 0;
	int k, need = l->kind == L_COUNT ? 1 : l->kind == L_CONTENTION ? 2 : 4;
	const char *bad = l->kind == L_COUNT	    ? "expected 'COUNT @ ADDR...'"
			  : l->kind == L_CONTENTION ? "expected 'CYCLES COUNT @ ADDR...'"
						    : "expected 'N: BYTES [N: BYTES] @ ADDR...'";

	for (k = 0; k < need; k++) {
		while (i < n && (s[i] == ' ' || s[i] == ':' || s[i] == '['))
			i++;
		if (!take_int(s, n, &i, &v[k]))
			return pt_diag_error_line(r->d, lineno, "%s", bad);
	}
	while (i < n && (s[i] == ' ' || s[i] == ']'))
		i++;
	if (i == n || s[i] != '@')
		return pt_diag_error_line(r->d, lineno, "%s", bad);
	legacy_emit(l);
	switch (l->kind) {
	case L_COUNT:
		l->vals[0] = v[0];
		break;
	case L_CONTENTION: {
		int64_t cycles = v[0], count = v[1];
		if (l->period > 0) {
			if (l->cpuhz > 0) {
				/* in pprof's order of operations, so it rounds alike */
				double d = (double)cycles * (double)l->period /
					   ((double)l->cpuhz / 1e9);
				cycles = d >= 9.2e18 ? INT64_MAX : (int64_t)d;
			}
			count = count > INT64_MAX / l->period ? INT64_MAX : count * l->period;
		}
		l->vals[0] = count;
		l->vals[1] = cycles;
		break;
	}
	case L_HEAP:
		if (l->heap_v2) {
			heap_scale(&l->lm, &v[0], &v[1], l->rate);
			heap_scale(&l->lm, &v[2], &v[3], l->rate);
		}
		if (l->has_alloc) {
			l->vals[0] = v[2];
			l->vals[1] = v[3];
			l->vals[2] = v[0];
			l->vals[3] = v[1];
		} else {
			l->vals[0] = v[0];
			l->vals[1] = v[1];
		}
		break;
	}
	l->in_sample = 1;
	l->sample_line = lineno;
	r->nframes = 0;
	return 0;
}

/* "heap profile: A: B [C: D] @ heap/RATE" */
static int legacy_heap_header(struct legacy *l, const char *s, size_t n, uint64_t lineno)
{
	struct pt_profile *p = l->r.p;
	int64_t v[4];
	size_t i = 14;
	int k;
	const char *at = NULL;

	for (k = 0; k < 4; k++) {
		while (i < n && (s[i] == ' ' || s[i] == ':' || s[i] == '['))
			i++;
		if (!take_int(s, n, &i, &v[k]))
			return pt_diag_error_line(l->r.d, lineno,
						  "expected 'heap profile: N: BYTES [N: BYTES] @ "
						  "heap/RATE'");
	}
	for (; i < n; i++)
		if (s[i] == '@') {
			at = s + i + 1;
			while (at < s + n && *at == ' ')
				at++;
			break;
		}
	l->heap_v2 = 1;
	if (at && starts(at, (size_t)(s + n - at), "heap_v2/")) {
		size_t j = (size_t)(at - s) + 8;
		take_int(s, n, &j, &l->rate);
	} else if (at && starts(at, (size_t)(s + n - at), "heap/")) {
		size_t j = (size_t)(at - s) + 5;
		if (take_int(s, n, &j, &l->rate))
			l->rate /= 2;
	} else {
		l->heap_v2 = 0;
		l->rate = 1;
	}
	l->has_alloc = (v[2] != v[0] && v[2] != 0) || (v[3] != v[1] && v[3] != 0);
	if (l->has_alloc) {
		pt_profile_add_type(p, "alloc_objects", "count");
		pt_profile_add_type(p, "alloc_space", "bytes");
	}
	pt_profile_add_type(p, "inuse_objects", "count");
	pt_profile_add_type(p, "inuse_space", "bytes");
	p->default_type = p->ntypes - 1;
	p->period_type.name = pt_str(p, "space");
	p->period_type.unit = pt_str(p, "bytes");
	p->period = l->rate > 0 ? l->rate : 1;
	if (l->heap_v2 && l->rate > 1 && pt_libm_open(&l->lm, l->r.d) < 0)
		return -1;
	return 0;
}

static int legacy_header(struct legacy *l, const char *s, size_t n, uint64_t lineno)
{
	struct pt_profile *p = l->r.p;
	size_t i = 0;

	if (starts(s, n, "heap profile: ")) {
		l->kind = L_HEAP;
		return legacy_heap_header(l, s, n, lineno);
	}
	if (starts(s, n, "--- contention:") || starts(s, n, "--- mutex:")) {
		l->kind = L_CONTENTION;
		l->period = 1;
		pt_profile_add_type(p, "contentions", "count");
		pt_profile_add_type(p, "delay", "nanoseconds");
		p->period_type.name = pt_str(p, "contentions");
		p->period_type.unit = pt_str(p, "count");
		p->period = 1;
		p->default_type = 1;
		return 0;
	}
	while (i < n && s[i] != ' ')
		i++;
	if (!i || !starts(s + i, n - i, " profile: total "))
		return pt_diag_error_line(l->r.d, lineno,
					  "expected 'NAME profile: total N', 'heap profile:' or "
					  "'--- contention:'");
	l->kind = L_COUNT;
	p->period_type.name = pt_strn(p, s, i);
	p->period_type.unit = pt_str(p, "count");
	p->period = 1;
	pt_profile_add_type(p, pt_s(p, p->period_type.name), "count");
	return 0;
}

static int legacy_line(struct legacy *l, char *s, size_t n, uint64_t lineno)
{
	struct reader *r = &l->r;
	size_t i;

	if (memchr(s, '\0', n))
		return pt_diag_error_line(r->d, lineno, "NUL byte in line");
	if (!n) {
		legacy_emit(l);
		return 0;
	}
	if (l->done)
		return 0;
	if (starts(s, n, "#\t0x") || starts(s, n, "# \t0x")) {
		if (!l->in_sample)
			return pt_diag_error_line(r->d, lineno, "frame line outside a sample");
		return legacy_frame(l, s + (s[1] == ' '), n - (s[1] == ' '), lineno);
	}
	if (starts(s, n, "# labels: ")) {
		if (l->in_sample)
			legacy_labels(l, s + 10, n - 10);
		return 0;
	}
	if (s[0] == '#') {
		/* heap: "# runtime.MemStats" and its lines end the samples */
		legacy_emit(l);
		if (starts(s, n, "# runtime.MemStats"))
			l->done = 1;
		return 0;
	}
	if (l->kind == L_CONTENTION) {
		if (starts(s, n, "cycles/second=")) {
			i = 14;
			take_int(s, n, &i, &l->cpuhz);
			return 0;
		}
		if (starts(s, n, "sampling period=")) {
			i = 16;
			take_int(s, n, &i, &l->period);
			r->p->period = l->period;
			return 0;
		}
		if (starts(s, n, "---"))
			return 0; /* "--- contention:" again, or pprof's trailing sections */
		if (strchr(s, '=') && !strchr(s, '@'))
			return 0; /* other "key=value" header lines */
	}
	return legacy_sample(l, s, n, lineno);
}

static int legacy_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
		       struct pt_diag *d)
{
	struct legacy l;
	char *line;
	size_t n;
	int rc, ret = 0, header = 0;

	memset(&l, 0, sizeof(l));
	reader_init(&l.r, p, o, d);
	p->format = "gotext";
	while ((rc = pt_input_getline(in, &line, &n)) > 0) {
		size_t m = end_line(line, n);
		if (!header) {
			if (!m)
				continue;
			if (legacy_header(&l, line, m, in->lineno) < 0) {
				ret = -1;
				goto out;
			}
			header = 1;
			continue;
		}
		if (legacy_line(&l, line, m, in->lineno) < 0 &&
		    pt_read_skip(o, d, in->lineno) < 0) {
			ret = -1;
			goto out;
		}
	}
	if (rc < 0) {
		ret = -1;
		goto out;
	}
	if (!header) {
		ret = pt_diag_error_line(d, 1, "empty input");
		goto out;
	}
	legacy_emit(&l);
out:
	reader_release(&l.r);
	pt_libm_close(&l.lm);
	return ret;
}

const struct pt_format pt_format_goroutine = {
	.name = "goroutine",
	.description = "Go goroutine dumps: goroutine?debug=2, panic and SIGQUIT output",
	.detect = goroutine_detect,
	.read = goroutine_read,
};

const struct pt_format pt_format_gotext = {
	.name = "gotext",
	.description = "Go debug=1 text profiles: goroutine, threadcreate, block, mutex, heap",
	.detect = legacy_detect,
	.read = legacy_read,
};
