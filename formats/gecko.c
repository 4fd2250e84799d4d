/* gecko.c: Firefox/Gecko profiles, read only: the raw Gecko format Firefox writes
 * (meta.version, schema'd tables per thread, nested `processes`, also inside the old
 * DevTools panel's {"profile": ...} wrapper) and the Firefox Profiler's processed format
 * (meta.preprocessedProfileVersion, column tables) vernier and samply write. See
 * formats/gecko.md. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "formats/format.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/round.h"
#include "util/sort.h"
#include "util/xalloc.h"

#define CHUNK	  65536
#define MAX_DEPTH 10000
/* subprocess profiles written as JSON strings, inside each other */
#define MAX_NEST 8
#define MAXCOL	 6
#define NONE	 UINT32_MAX
/* a row's places whose column is looked up in a table (further ones by a search) */
#define MAXPOS 16

enum tkind { T_SAMPLES, T_STACK, T_FRAME, T_FUNC, T_RES, T_SOURCES, T_MARKERS, T_NKINDS };

/* the columns read of each table; a column's slot is its place in its list */
static const char *const columns[T_NKINDS][MAXCOL + 1] = {
	[T_SAMPLES] = {"stack", "time", "timeDeltas", "weight", NULL},
	[T_STACK] = {"frame", "prefix", "prefixOffset", NULL},
	[T_FRAME] = {"location", "func", "line", "column", NULL},
	[T_FUNC] = {"name", "fileName", "source", "lineNumber", "columnNumber", "resource", NULL},
	[T_RES] = {"name", NULL},
	[T_SOURCES] = {"filename", NULL},
	[T_MARKERS] = {"name", "startTime", "endTime", "phase", NULL},
};
static const char *const table_name[T_NKINDS] = {
	"samples", "stackTable", "frameTable", "funcTable", "resourceTable", "sources", "markers",
};
enum { S_STACK, S_TIME, S_DELTAS, S_WEIGHT };
enum { K_FRAME, K_PREFIX, K_PREFIXOFF };
enum { F_LOCATION, F_FUNC, F_LINE, F_COLUMN };
enum { U_NAME, U_FILE, U_SOURCE, U_LINE, U_COLUMN, U_RESOURCE };
enum { M_NAME, M_START, M_END, M_PHASE };

enum wtype { W_SAMPLES, W_TRACING_MS, W_BYTES, W_NTYPES };
static const char *const wtype_name[W_NTYPES] = {"samples", "tracing-ms", "bytes"};
static const char *const wtype_type[W_NTYPES][2] = {
	{"samples", "count"}, {"time", "nanoseconds"}, {"bytes", "bytes"}};

/* a column of numbers; null is NaN */
struct col {
	double *v;
	size_t n, alloc;
};

/* a table in either layout: columns {"frame": [...], ...} (processed) or
 * {"schema": {"frame": 0, ...}, "data": [[...], ...]} (raw Gecko) */
struct table {
	int present, has_schema;
	uint64_t off; /* its '{' */
	uint64_t end; /* past its '}' (in a profile given as a string: 0) */
	struct col c[MAXCOL];
	int64_t pos[MAXCOL];  /* place in a data row, -1 if not in the schema */
	size_t nrows;	      /* rows read from "data" */
	int8_t colat[MAXPOS]; /* the column at each of a row's first places, -1: none */
	unsigned seen;	      /* columns met (a deferred samples table stores none) */
	int wtype;	      /* samples: enum wtype */
};

struct strs {
	int present;
	uint32_t *id; /* profile string ids */
	size_t n, alloc;
};

struct gthread {
	uint64_t off;
	uint32_t name, process_name; /* string ids, 0 if none */
	int has_tid, has_pid;
	int64_t tid, pid;
	uint32_t doc; /* the (sub)profile it belongs to */
	struct table t[T_NKINDS];
	struct strs strings;
};

struct doc {
	int has_start;
	double start; /* meta.startTime, ms since the epoch */
};

enum ctx {
	C_DOC,
	C_META,
	C_THREADS,
	C_THREAD,
	C_SHARED,
	C_PROCS,
	C_TABLE,
	C_SCHEMA,
	C_ROWS,
	C_ROW,
	C_COLUMN,
	C_STRINGS,
};

enum key {
	K_NONE,
	K_OTHER,
	K_META,
	K_THREADS,
	K_PROCESSES,
	K_SHARED,
	K_PROFILE,
	K_VERSION,
	K_PPVERSION,
	K_START,
	K_PRODUCT,
	K_INTERVAL,
	K_NAME,
	K_PROCNAME,
	K_TID,
	K_PID,
	K_TABLE, /* r->key_kind says which */
	K_STRINGS,
	K_SCHEMA,
	K_DATA,
	K_WEIGHTTYPE,
	K_COL, /* r->key_col says which */
};

struct level {
	uint32_t ctx;
	uint32_t idx; /* C_DOC: doc; C_THREAD: thread; C_ROW: place in the row */
	int col;      /* C_COLUMN */
	struct table *t;
	struct strs *s;
};

struct reader;

/* one JSON text being parsed: the file, or a subprocess profile given as a string */
struct parse {
	struct reader *r;
	yajl_handle h;
	uint64_t chunk_off;
	uint64_t base; /* for a string: where it starts in the file */
	int nested;
	struct level *stack;
	size_t depth, stack_alloc;
	uint64_t skip;
	enum key key;
	int key_kind, key_col;
	int top_seen;
	/* the rows of a samples table without yajl (rows_resume) */
	int can_fast;	  /* the feed hands yajl's stops to rows_resume */
	int fast;	  /* yajl was stopped at the '[' of such rows */
	int mute;	  /* the callbacks ignore the prefix a new yajl handle is given */
	size_t synthetic; /* levels at the bottom of the stack that yajl did not see */
	uint64_t limit;	  /* the input offset the text ends at */
};

struct reader {
	struct pt_profile *p;
	struct pt_diag *d;
	const struct pt_read_opts *o;
	int failed;
	int has_version, processed;
	struct gthread **threads;
	size_t nthreads, threads_alloc;
	struct doc *docs;
	size_t ndocs, docs_alloc;
	struct table shared[T_NKINDS];
	struct strs shared_strings;
	uint32_t types[W_NTYPES]; /* sample type per weight type, NONE until used */
	/* Two passes (an input that can be read again, no timeline kept): the first
	 * (defer) reads all but the samples, the second (pass2) only the samples, each
	 * added as it is read (a row at a time; a thread's columns at its table's end),
	 * so memory follows the distinct stacks, not the samples. */
	int defer, pass2;
	int subs;		      /* a subprocess profile came as a JSON string */
	size_t doc_next, thread_next; /* pass2: the next doc and thread met again */
	struct table *run_table;      /* pass2: the samples table being read */
	size_t run_ti;		      /* its thread's index */
	int run_on;		      /* run has begun */
	struct run *run;
};

static uint64_t here(const struct parse *ps)
{
	if (ps->nested)
		return ps->base;
	return ps->chunk_off + pt_yajl()->get_bytes_consumed(ps->h);
}

static int fail_at(struct reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct reader *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return 0;
	va_start(ap, fmt);
	pt_diag_verror_at(r->d, off, fmt, ap);
	va_end(ap);
	r->failed = 1;
	return 0; /* stops yajl */
}

/* ---- tables ---- */

static void col_add(struct col *c, double v)
{
	PT_ALLOC_GROW(c->v, c->n + 1, c->alloc);
	c->v[c->n++] = v;
}

static double cell(const struct table *t, int k, size_t i)
{
	return i < t->c[k].n ? t->c[k].v[i] : NAN;
}

static size_t table_len(const struct table *t)
{
	size_t n = 0;
	int k;
	for (k = 0; k < MAXCOL; k++)
		if (t->c[k].n > n)
			n = t->c[k].n;
	return n;
}

static void table_free(struct table *t)
{
	int k;
	for (k = 0; k < MAXCOL; k++)
		free(t->c[k].v);
}

static int find_col(int kind, const char *s, size_t len)
{
	int k;
	for (k = 0; columns[kind][k]; k++)
		if (strlen(columns[kind][k]) == len && !memcmp(columns[kind][k], s, len))
			return k;
	return -1;
}

static void table_open(struct table *t, uint64_t off)
{
	int k;
	memset(t, 0, sizeof(*t));
	t->present = 1;
	t->off = off;
	for (k = 0; k < MAXCOL; k++)
		t->pos[k] = -1;
}

/* ---- parsing ---- */

static struct level *top(struct parse *ps)
{
	return ps->depth ? &ps->stack[ps->depth - 1] : NULL;
}

static int push(struct parse *ps, enum ctx c, uint32_t idx)
{
	struct level *l;
	if (ps->depth + ps->skip >= MAX_DEPTH)
		return fail_at(ps->r, here(ps), "JSON nested deeper than %d levels", MAX_DEPTH);
	PT_ALLOC_GROW(ps->stack, ps->depth + 1, ps->stack_alloc);
	l = &ps->stack[ps->depth++];
	memset(l, 0, sizeof(*l));
	l->ctx = c;
	l->idx = idx;
	return 1;
}

static int new_doc(struct parse *ps)
{
	struct reader *r = ps->r;
	if (r->pass2) /* the same docs again, in the same order */
		return r->doc_next < r->ndocs
			       ? push(ps, C_DOC, (uint32_t)r->doc_next++)
			       : fail_at(r, here(ps), "the input changed between reads");
	if (r->ndocs >= UINT32_MAX - 1)
		return fail_at(r, here(ps), "too many profiles");
	PT_ALLOC_GROW(r->docs, r->ndocs + 1, r->docs_alloc);
	memset(&r->docs[r->ndocs], 0, sizeof(r->docs[0]));
	return push(ps, C_DOC, (uint32_t)r->ndocs++);
}

static int new_thread(struct parse *ps, uint32_t doc)
{
	struct reader *r = ps->r;
	struct gthread *t;
	if (r->pass2)
		return r->thread_next < r->nthreads
			       ? push(ps, C_THREAD, (uint32_t)r->thread_next++)
			       : fail_at(r, here(ps), "the input changed between reads");
	if (r->nthreads >= UINT32_MAX - 1)
		return fail_at(r, here(ps), "too many threads");
	t = pt_xcalloc(1, sizeof(*t));
	t->off = here(ps) - 1;
	t->doc = doc;
	PT_ALLOC_GROW(r->threads, r->nthreads + 1, r->threads_alloc);
	r->threads[r->nthreads] = t;
	return push(ps, C_THREAD, (uint32_t)r->nthreads++);
}

/* a JSON number as a double (yajl checked its grammar) */
static int parse_num(const char *s, size_t len, double *v)
{
	if (len >= 64)
		return -1;
	return pt_json_double(s, len, v);
}

/* the number a table cell holds: numbers, null (NaN) and booleans (0, 1) */
static int cell_value(struct parse *ps, enum pt_json_kind vk, const char *s, size_t len, double *v,
		      const char *what)
{
	if (vk == PT_JSON_NULL) {
		*v = NAN;
		return 1;
	}
	if (vk == PT_JSON_BOOL) {
		*v = len;
		return 1;
	}
	if (vk != PT_JSON_NUMBER)
		return fail_at(ps->r, here(ps), "'%s' holds %s, not a number", what,
			       pt_json_kind_name(vk));
	if (parse_num(s, len, v) < 0)
		return fail_at(ps->r, here(ps) - len, "'%s' holds a number out of range", what);
	return 1;
}

static int read_sub(struct reader *r, const char *s, size_t len, uint64_t off, int nested);

static int on_doc_key(struct parse *ps, struct level *l, enum key k, enum pt_json_kind vk,
		      const char *s, size_t len)
{
	struct reader *r = ps->r;
	switch (k) {
	case K_META:
		if (r->pass2) /* read in the first pass */
			return (ps->skip = pt_json_opens(vk), 1);
		return vk == PT_JSON_MAP ? push(ps, C_META, l->idx)
					 : (ps->skip = vk == PT_JSON_ARRAY, 1);
	case K_THREADS:
		if (vk != PT_JSON_ARRAY)
			return fail_at(r, here(ps), "'threads' is %s, not an array",
				       pt_json_kind_name(vk));
		return push(ps, C_THREADS, l->idx);
	case K_PROCESSES:
		if (vk != PT_JSON_ARRAY)
			return fail_at(r, here(ps), "'processes' is %s, not an array",
				       pt_json_kind_name(vk));
		return push(ps, C_PROCS, l->idx);
	case K_SHARED:
		if (vk != PT_JSON_MAP)
			return fail_at(r, here(ps), "'shared' is %s, not an object",
				       pt_json_kind_name(vk));
		return push(ps, C_SHARED, l->idx);
	case K_PROFILE:
		if (vk == PT_JSON_MAP)
			return new_doc(ps);
		if (vk == PT_JSON_ARRAY)
			ps->skip = 1;
		return 1;
	default:
		(void)s;
		(void)len;
		if (pt_json_opens(vk))
			ps->skip = 1;
		return 1;
	}
}

static int on_meta_key(struct parse *ps, struct level *l, enum key k, enum pt_json_kind vk,
		       const char *s, size_t len)
{
	struct reader *r = ps->r;
	double v;

	if (pt_json_opens(vk)) {
		ps->skip = 1;
		return 1;
	}
	switch (k) {
	case K_VERSION:
	case K_PPVERSION:
	case K_START:
	case K_INTERVAL:
		if (vk == PT_JSON_NULL)
			return 1;
		if (!cell_value(ps, vk, s, len, &v, k == K_START ? "startTime" : "version"))
			return 0;
		if (k == K_START) {
			r->docs[l->idx].has_start = 1;
			r->docs[l->idx].start = v;
		} else if (l->idx == 0 && k == K_PPVERSION) {
			r->processed = 1;
			r->has_version = 1;
		} else if (l->idx == 0 && k == K_VERSION) {
			r->has_version = 1;
		}
		if (l->idx == 0 && (k == K_VERSION || k == K_PPVERSION || k == K_INTERVAL)) {
			char num[40];
			snprintf(num, sizeof(num), "%.15g", v);
			pt_profile_add_meta(r->p,
					    k == K_VERSION     ? "version"
					    : k == K_PPVERSION ? "preprocessedProfileVersion"
							       : "interval",
					    num);
		}
		return 1;
	case K_PRODUCT:
		if (vk == PT_JSON_STRING && l->idx == 0) {
			char *str = pt_xmalloc(len + 1);
			memcpy(str, s, len);
			str[len] = '\0';
			pt_profile_add_meta(r->p, "product", str);
			free(str);
		}
		return 1;
	default:
		return 1;
	}
}

static int open_table(struct parse *ps, struct table *t, int kind, enum pt_json_kind vk)
{
	if (vk == PT_JSON_NULL)
		return 1;
	if (vk != PT_JSON_MAP)
		return fail_at(ps->r, here(ps), "'%s' is %s, not an object", table_name[kind],
			       pt_json_kind_name(vk));
	if (t->present)
		return fail_at(ps->r, here(ps), "a second '%s'", table_name[kind]);
	table_open(t, here(ps) - 1);
	if (!push(ps, C_TABLE, (uint32_t)kind))
		return 0;
	top(ps)->t = t;
	return 1;
}

static int open_strings(struct parse *ps, struct strs *s, enum pt_json_kind vk)
{
	if (vk != PT_JSON_ARRAY)
		return fail_at(ps->r, here(ps), "the string table is %s, not an array",
			       pt_json_kind_name(vk));
	if (s->present)
		return fail_at(ps->r, here(ps), "a second string table");
	s->present = 1;
	if (!push(ps, C_STRINGS, 0))
		return 0;
	top(ps)->s = s;
	return 1;
}

static int on_thread_key(struct parse *ps, struct level *l, enum key k, enum pt_json_kind vk,
			 const char *s, size_t len)
{
	struct reader *r = ps->r;
	struct gthread *t = r->threads[l->idx];
	double v;

	if (r->pass2 && (k == K_TABLE || k == K_STRINGS)) {
		/* read again: the samples table only (it was checked in the first pass) */
		if (k == K_TABLE && ps->key_kind == T_SAMPLES && vk == PT_JSON_MAP) {
			struct table *smp = &t->t[T_SAMPLES];
			int w = smp->wtype;
			table_open(smp, here(ps) - 1);
			smp->wtype = w; /* the first pass saw all of the table */
			r->run_table = smp;
			r->run_ti = l->idx;
			if (!push(ps, C_TABLE, T_SAMPLES))
				return 0;
			top(ps)->t = smp;
			return 1;
		}
		ps->skip = pt_json_opens(vk);
		return 1;
	}
	switch (k) {
	case K_TABLE:
		return open_table(ps, &t->t[ps->key_kind], ps->key_kind, vk);
	case K_STRINGS:
		return open_strings(ps, &t->strings, vk);
	case K_NAME:
	case K_PROCNAME:
		if (vk == PT_JSON_STRING) {
			uint32_t id = pt_strn(r->p, s, len);
			if (k == K_NAME)
				t->name = id;
			else
				t->process_name = id;
		} else if (pt_json_opens(vk)) {
			ps->skip = 1;
		}
		return 1;
	case K_TID:
	case K_PID:
		/* numbers, or (processed, version 47 on) numbers written as strings */
		if (vk == PT_JSON_STRING) {
			char *end;
			char buf[32];
			if (!len || len >= sizeof(buf))
				return 1;
			memcpy(buf, s, len);
			buf[len] = '\0';
			v = strtod(buf, &end);
			if (*end || !isfinite(v))
				return 1;
		} else if (vk == PT_JSON_NUMBER) {
			if (!cell_value(ps, vk, s, len, &v, k == K_TID ? "tid" : "pid"))
				return 0;
		} else {
			if (pt_json_opens(vk))
				ps->skip = 1;
			return 1;
		}
		if (v != pt_floor(v) || fabs(v) > 9e15)
			return 1;
		if (k == K_TID) {
			t->has_tid = 1;
			t->tid = (int64_t)v;
		} else {
			t->has_pid = 1;
			t->pid = (int64_t)v;
		}
		return 1;
	default:
		if (pt_json_opens(vk))
			ps->skip = 1;
		return 1;
	}
}

/* the column each of a row's first places holds, as the search in on_value finds it */
static void row_places(struct table *t, int kind)
{
	int at, c;

	for (at = 0; at < MAXPOS; at++) {
		t->colat[at] = -1;
		for (c = 0; c < MAXCOL && columns[kind][c]; c++)
			if (t->pos[c] == at) {
				t->colat[at] = (int8_t)c;
				break;
			}
	}
}

static int on_table_key(struct parse *ps, struct level *l, enum key k, enum pt_json_kind vk,
			const char *s, size_t len)
{
	struct reader *r = ps->r;
	struct table *t = l->t;
	int kind = (int)l->idx;

	switch (k) {
	case K_SCHEMA:
		if (vk != PT_JSON_MAP)
			return fail_at(r, here(ps), "'%s' schema is %s, not an object",
				       table_name[kind], pt_json_kind_name(vk));
		if (t->has_schema)
			return fail_at(r, here(ps), "a second '%s' schema", table_name[kind]);
		t->has_schema = 1;
		if (!push(ps, C_SCHEMA, (uint32_t)kind))
			return 0;
		top(ps)->t = t;
		return 1;
	case K_DATA:
		if (!t->has_schema) {
			/* the processed marker table's payload column */
			if (kind == T_MARKERS || vk != PT_JSON_ARRAY) {
				ps->skip = pt_json_opens(vk);
				return 1;
			}
			return fail_at(r, here(ps), "'%s' has its 'data' before its 'schema'",
				       table_name[kind]);
		}
		if (vk != PT_JSON_ARRAY)
			return fail_at(r, here(ps), "'%s' data is %s, not an array",
				       table_name[kind], pt_json_kind_name(vk));
		if (!push(ps, C_ROWS, (uint32_t)kind))
			return 0;
		top(ps)->t = t;
		row_places(t, kind);
		/* a samples table's rows: stop yajl, rows_resume reads on */
		ps->fast = kind == T_SAMPLES && ps->can_fast && !ps->nested &&
			   ps->depth + ps->skip + 1 < MAX_DEPTH;
		return !ps->fast;
	case K_WEIGHTTYPE: {
		int w;
		if (vk == PT_JSON_NULL)
			return 1;
		if (vk != PT_JSON_STRING)
			return fail_at(r, here(ps), "'weightType' is %s, not a string",
				       pt_json_kind_name(vk));
		for (w = 0; w < W_NTYPES; w++)
			if (strlen(wtype_name[w]) == len && !memcmp(wtype_name[w], s, len))
				break;
		if (w == W_NTYPES)
			return fail_at(r, here(ps) - len - 1, "unknown weightType '%.*s'",
				       (int)(len > 60 ? 60 : len), s);
		t->wtype = w;
		return 1;
	}
	case K_COL:
		if (vk == PT_JSON_NULL) /* "weight": null */
			return 1;
		if (vk != PT_JSON_ARRAY)
			return fail_at(r, here(ps), "'%s' column '%s' is %s, not an array",
				       table_name[kind], columns[kind][ps->key_col],
				       pt_json_kind_name(vk));
		if (t->c[ps->key_col].n || (t->seen & 1u << ps->key_col))
			return fail_at(r, here(ps), "a second '%s' column '%s'", table_name[kind],
				       columns[kind][ps->key_col]);
		t->seen |= 1u << ps->key_col;
		if (!push(ps, C_COLUMN, (uint32_t)kind))
			return 0;
		top(ps)->t = t;
		top(ps)->col = ps->key_col;
		return 1;
	default:
		if (pt_json_opens(vk))
			ps->skip = 1;
		return 1;
	}
}

/* the first of two passes keeps no cell of a samples table (l: a level in one) */
static int deferred(const struct reader *r, const struct level *l)
{
	return r->defer && !r->pass2 && l->t &&
	       (l->ctx == C_ROW ? l->col : (int)l->idx) == T_SAMPLES;
}

static int on_value(struct parse *ps, enum pt_json_kind vk, const char *s, size_t len)
{
	struct reader *r = ps->r;
	struct level *l = top(ps);
	enum key k = ps->key;
	double v;

	if (ps->mute)
		return 1;
	ps->key = K_NONE;
	if (ps->skip) {
		if (pt_json_opens(vk))
			ps->skip++;
		if (ps->depth + ps->skip >= MAX_DEPTH)
			return fail_at(r, here(ps), "JSON nested deeper than %d levels", MAX_DEPTH);
		return 1;
	}
	if (!l) {
		ps->top_seen = 1;
		if (vk != PT_JSON_MAP)
			return fail_at(r, here(ps),
				       "not a Gecko profile: the JSON is not an object");
		return new_doc(ps);
	}
	switch (l->ctx) {
	case C_DOC:
		return on_doc_key(ps, l, k, vk, s, len);
	case C_META:
		return on_meta_key(ps, l, k, vk, s, len);
	case C_THREADS:
		if (vk != PT_JSON_MAP)
			return fail_at(r, here(ps), "an element of 'threads' is %s, not an object",
				       pt_json_kind_name(vk));
		return new_thread(ps, l->idx);
	case C_PROCS:
		if (vk == PT_JSON_MAP)
			return new_doc(ps);
		if (vk == PT_JSON_STRING) /* older Firefox: each subprocess profile as JSON text */
			return read_sub(r, s, len, here(ps) - len - 1, ps->nested + 1);
		return fail_at(r, here(ps), "an element of 'processes' is %s",
			       pt_json_kind_name(vk));
	case C_THREAD:
		return on_thread_key(ps, l, k, vk, s, len);
	case C_SHARED:
		if (r->pass2) {
			ps->skip = pt_json_opens(vk);
			return 1;
		}
		if (k == K_TABLE)
			return open_table(ps, &r->shared[ps->key_kind], ps->key_kind, vk);
		if (k == K_STRINGS)
			return open_strings(ps, &r->shared_strings, vk);
		if (pt_json_opens(vk))
			ps->skip = 1;
		return 1;
	case C_TABLE:
		return on_table_key(ps, l, k, vk, s, len);
	case C_SCHEMA:
		if (k == K_COL) {
			if (!cell_value(ps, vk, s, len, &v, "schema"))
				return 0;
			if (v != pt_floor(v) || v < 0 || v > 1000)
				return fail_at(r, here(ps),
					       "'%s' schema: '%s' is not a small index",
					       table_name[l->idx], columns[l->idx][ps->key_col]);
			l->t->pos[ps->key_col] = (int64_t)v;
		} else if (pt_json_opens(vk)) {
			ps->skip = 1;
		}
		return 1;
	case C_ROWS: {
		struct table *t = l->t;
		int c;
		if (vk != PT_JSON_ARRAY)
			return fail_at(r, here(ps), "a row of '%s' is %s, not an array",
				       table_name[l->idx], pt_json_kind_name(vk));
		for (c = 0; c < MAXCOL && columns[l->idx][c] && !deferred(r, l); c++)
			if (t->pos[c] >= 0)
				col_add(&t->c[c], NAN);
		t->nrows++;
		if (!push(ps, C_ROW, 0))
			return 0;
		top(ps)->t = t;
		top(ps)->col = (int)l->idx;
		return 1;
	}
	case C_ROW: {
		struct table *t = l->t;
		int kind = l->col, c;
		uint32_t at = l->idx++;
		if (at < MAXPOS)
			c = t->colat[at] < 0 ? MAXCOL : t->colat[at];
		else
			for (c = 0; c < MAXCOL && columns[kind][c]; c++)
				if (t->pos[c] == (int64_t)at)
					break;
		if (c == MAXCOL || !columns[kind][c]) {
			if (pt_json_opens(vk))
				ps->skip = 1;
			return 1;
		}
		if (!cell_value(ps, vk, s, len, &v, columns[kind][c]))
			return 0;
		if (!deferred(r, l))
			t->c[c].v[t->c[c].n - 1] = v;
		return 1;
	}
	case C_COLUMN:
		if (!cell_value(ps, vk, s, len, &v, columns[l->idx][l->col]))
			return 0;
		if (!deferred(r, l))
			col_add(&l->t->c[l->col], v);
		return 1;
	case C_STRINGS:
		if (vk != PT_JSON_STRING)
			return fail_at(r, here(ps), "the string table holds %s, not a string",
				       pt_json_kind_name(vk));
		PT_ALLOC_GROW(l->s->id, l->s->n + 1, l->s->alloc);
		l->s->id[l->s->n++] = pt_strn(r->p, s, len);
		return 1;
	}
	return 1;
}

static const struct pt_json_key keys[] = {
	{C_DOC, "meta", K_META},
	{C_DOC, "threads", K_THREADS},
	{C_DOC, "processes", K_PROCESSES},
	{C_DOC, "shared", K_SHARED},
	{C_DOC, "profile", K_PROFILE},
	{C_META, "version", K_VERSION},
	{C_META, "preprocessedProfileVersion", K_PPVERSION},
	{C_META, "startTime", K_START},
	{C_META, "product", K_PRODUCT},
	{C_META, "interval", K_INTERVAL},
	{C_THREAD, "name", K_NAME},
	{C_THREAD, "processName", K_PROCNAME},
	{C_THREAD, "tid", K_TID},
	{C_THREAD, "pid", K_PID},
	{C_THREAD, "stringArray", K_STRINGS},
	{C_THREAD, "stringTable", K_STRINGS},
	{C_SHARED, "stringArray", K_STRINGS},
	{C_TABLE, "schema", K_SCHEMA},
	{C_TABLE, "data", K_DATA},
	{C_TABLE, "weightType", K_WEIGHTTYPE},
};

static int cb_map_key(void *ctx, const unsigned char *key, size_t len)
{
	struct parse *ps = ctx;
	struct level *l = top(ps);
	const char *s = (const char *)key;

	if (ps->mute)
		return 1;
	ps->key = K_NONE;
	if (ps->skip || !l)
		return 1;
	ps->key = pt_json_key_find(keys, sizeof(keys) / sizeof(keys[0]), (int)l->ctx, key, len,
				   K_OTHER);
	if (ps->key != K_OTHER)
		return 1;
	if (l->ctx == C_THREAD || l->ctx == C_SHARED) {
		int kind;
		for (kind = 0; kind < T_NKINDS; kind++)
			if (strlen(table_name[kind]) == len && !memcmp(table_name[kind], s, len)) {
				/* samples and markers are a thread's own */
				if (l->ctx == C_SHARED && (kind == T_SAMPLES || kind == T_MARKERS))
					break;
				ps->key = K_TABLE;
				ps->key_kind = kind;
				break;
			}
	} else if (l->ctx == C_TABLE || l->ctx == C_SCHEMA) {
		int c = find_col((int)l->idx, s, len);
		if (c >= 0 && !(l->ctx == C_TABLE && l->t->has_schema)) {
			ps->key = K_COL;
			ps->key_col = c;
		} else if (c >= 0 && l->ctx == C_SCHEMA) {
			ps->key = K_COL;
			ps->key_col = c;
		}
	}
	return 1;
}

static int pass2_row(struct reader *r);
static int pass2_table_end(struct reader *r);

static int cb_end(void *ctx)
{
	struct parse *ps = ctx;
	const struct level *l;

	if (ps->mute)
		return 1;
	if (ps->skip) {
		ps->skip--;
		return 1;
	}
	if (!ps->depth)
		return 1;
	l = &ps->stack[--ps->depth];
	if (l->ctx == C_TABLE && !ps->nested)
		l->t->end = here(ps);
	if (ps->r->pass2 && l->t && l->t == ps->r->run_table) {
		if (l->ctx == C_ROW)
			return pass2_row(ps->r);
		if (l->ctx == C_TABLE)
			return pass2_table_end(ps->r);
	}
	return 1;
}

PT_JSON_CALLBACKS(callbacks, on_value, cb_map_key, cb_end);

static void parse_init(struct parse *ps, struct reader *r)
{
	memset(ps, 0, sizeof(*ps));
	ps->r = r;
	ps->h = pt_yajl()->alloc(&callbacks, NULL, ps);
	ps->limit = UINT64_MAX;
}

/* ---- the rows of a raw samples table, read without yajl ----
 * Most of a raw Gecko profile is its samples' rows ([stack, time, ...] of numbers),
 * lexed in both passes. At a samples table's "data" the callback stops yajl, and
 * rows_scan reads the rows that hold only numbers and nulls itself, each as the
 * callbacks would; at anything else (a string, a number strtod will not take, a row
 * cut by the input's end, an error to report) it stops at the start of that row, and
 * a new yajl handle, brought to the same state by a prefix that the muted callbacks
 * ignore, reads on from there: errors are yajl's and the callbacks' as before. */

/* a row is read once these many bytes from its start are at hand (or the input's end) */
#define ROW_WINDOW 4096

static int is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t digits(const unsigned char *s, size_t i, size_t n)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* the length of the JSON number at s[0..n), as JSON's grammar has it; 0 if none */
static size_t num_len(const unsigned char *s, size_t n)
{
	size_t i = 0, d;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && s[i] >= '1' && s[i] <= '9')
		i = digits(s, i, n);
	else
		return 0;
	if (i < n && s[i] == '.') {
		d = digits(s, i + 1, n);
		if (d == i + 1)
			return 0;
		i = d;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		d = digits(s, i, n);
		if (d == i)
			return 0;
		i = d;
	}
	return i;
}

/* The row at s[0..n) (s[0] is its '['): its cells in v (null: NaN), their count in
 * *nv, and its length through its ']'; 0 if it is not a whole row of at most MAXPOS
 * numbers and nulls within n bytes. */
static size_t row_at(const unsigned char *s, size_t n, double *v, int *nv)
{
	size_t i = 1, k;
	int c = 0;

	for (;;) {
		while (i < n && is_ws(s[i]))
			i++;
		if (i == n || c == MAXPOS)
			return 0;
		if (s[i] == 'n') {
			if (n - i < 4 || memcmp(s + i, "null", 4))
				return 0;
			v[c++] = NAN;
			i += 4;
		} else {
			k = num_len(s + i, n - i);
			if (!k || k >= 64 || i + k == n ||
			    pt_json_double((const char *)s + i, k, &v[c]) < 0)
				return 0;
			c++;
			i += k;
		}
		while (i < n && is_ws(s[i]))
			i++;
		if (i < n && s[i] == ']') {
			*nv = c;
			return i + 1;
		}
		if (i == n || s[i] != ',')
			return 0;
		i++;
	}
}

/* a row read by rows_scan, as the callbacks take it (C_ROWS, C_ROW and its end) */
static int fast_row(struct parse *ps, const struct level *rows, const double *v, int nv)
{
	struct reader *r = ps->r;
	struct table *t = rows->t;
	int defer = deferred(r, rows), c, at;

	for (c = 0; c < MAXCOL && columns[T_SAMPLES][c] && !defer; c++)
		if (t->pos[c] >= 0)
			col_add(&t->c[c], NAN);
	t->nrows++;
	for (at = 0; at < nv && !defer; at++)
		if (t->colat[at] >= 0)
			t->c[t->colat[at]].v[t->c[t->colat[at]].n - 1] = v[at];
	if (r->pass2 && t == r->run_table && !pass2_row(r))
		return -1;
	return 0;
}

/* where rows_scan leaves the rows: nothing read, a row and its ',' read, a row read
 * and the ']' next */
enum { AT_OPEN, AT_COMMA, AT_VALUE };

/* the rows from the input's position on, while they are fast rows: 0 and *state, or -1
 * with the error in the diag */
static int rows_scan(struct parse *ps, struct pt_input *in, int *state)
{
	const struct level *rows = top(ps);

	*state = AT_OPEN;
	for (;;) {
		const unsigned char *p;
		double v[MAXPOS];
		size_t n, i = 0, j, len;
		int nv = 0;
		if (pt_input_need(in, ROW_WINDOW, &p) < 0)
			return -1;
		n = in->end - in->pos;
		if (pt_input_tell(in) >= ps->limit)
			return 0;
		if (n > ps->limit - pt_input_tell(in))
			n = (size_t)(ps->limit - pt_input_tell(in));
		while (i < n && is_ws(p[i]))
			i++;
		if (i == n || p[i] != '[' || !(len = row_at(p + i, n - i, v, &nv)))
			return 0;
		for (j = i + len; j < n && is_ws(p[j]);)
			j++;
		if (j == n || (p[j] != ',' && p[j] != ']'))
			return 0;
		if (fast_row(ps, rows, v, nv) < 0)
			return -1;
		pt_input_consume(in, p[j] == ',' ? j + 1 : j);
		*state = p[j] == ',' ? AT_COMMA : AT_VALUE;
		if (*state == AT_VALUE)
			return 0;
	}
}

/* a new yajl handle in the state the rows left: the containers open, as the stack has
 * them, and where in the rows yajl goes on */
static int reprime(struct parse *ps, int state, uint64_t off)
{
	struct pt_buf b = PT_BUF_INIT;
	size_t i;
	int ok;

	for (i = ps->synthetic; i < ps->depth; i++) {
		uint32_t c = ps->stack[i].ctx;
		int array = c == C_THREADS || c == C_PROCS || c == C_ROWS || c == C_ROW ||
			    c == C_COLUMN || c == C_STRINGS;
		pt_buf_addstr(&b, array ? "[" : "{\"\":");
	}
	pt_buf_addstr(&b, state == AT_COMMA ? "[]," : state == AT_VALUE ? "[]" : "");
	pt_yajl()->free(ps->h);
	ps->h = pt_yajl()->alloc(&callbacks, NULL, ps);
	ps->mute = 1;
	ok = pt_yajl()->parse(ps->h, (const unsigned char *)b.buf, b.len) == yajl_status_ok;
	ps->mute = 0;
	pt_buf_release(&b);
	return ok ? 0 : pt_diag_error_at(ps->r->d, off, "internal: cannot resume the JSON parser");
}

/* pt_json_feed_upto's hook: yajl stopped, at the '[' of a samples table's rows or for
 * a real stop (an error: 0) */
static int rows_resume(void *ctx, struct pt_input *in)
{
	struct parse *ps = ctx;
	int state;

	if (!ps->fast)
		return 0;
	ps->fast = 0;
	pt_input_consume(in, pt_yajl()->get_bytes_consumed(ps->h));
	if (rows_scan(ps, in, &state) < 0)
		return -1;
	return reprime(ps, state, pt_input_tell(in)) < 0 ? -1 : 1;
}

static void parse_release(struct parse *ps)
{
	pt_yajl()->free(ps->h);
	free(ps->stack);
}

/* a subprocess profile given as a JSON string: parsed on its own, errors placed at the
 * string (offsets inside the decoded text do not map to the file's) */
static int read_sub(struct reader *r, const char *s, size_t len, uint64_t off, int nested)
{
	struct parse ps;
	yajl_status st;
	int cut;

	if (nested > MAX_NEST)
		return fail_at(r, off, "subprocess profiles nested deeper than %d", MAX_NEST);
	r->subs = 1;
	parse_init(&ps, r);
	ps.base = off;
	ps.nested = nested;
	st = pt_yajl()->parse(ps.h, (const unsigned char *)s, len);
	cut = st == yajl_status_ok;
	if (st == yajl_status_ok)
		st = pt_yajl()->complete_parse(ps.h);
	if (st != yajl_status_ok && !r->failed) {
		if (!cut) {
			unsigned char *msg = pt_yajl()->get_error(ps.h, 0, NULL, 0);
			char *m = (char *)msg, *e = m + strlen(m);
			while (e > m && (e[-1] == '\n' || e[-1] == '.' || e[-1] == ' '))
				*--e = '\0';
			fail_at(r, off, "subprocess profile (a JSON string): invalid JSON: %s", m);
			pt_yajl()->free_error(ps.h, msg);
		} else {
			fail_at(r, off,
				"subprocess profile (a JSON string): truncated JSON: unexpected "
				"end of input");
		}
	}
	parse_release(&ps);
	return !r->failed;
}

/* ---- building ---- */

/* the index a cell holds, checked against n: 0 ok, -1 null, -2 not an index below n */
static int as_index(double v, size_t n, uint32_t *out)
{
	if (isnan(v))
		return -1;
	if (v != pt_floor(v) || v < 0 || v >= (double)n)
		return -2;
	*out = (uint32_t)v;
	return 0;
}

static void fmt_cell(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "null");
	else
		snprintf(buf, n, "%.17g", v);
}

/* a raw location string, parsed */
struct loc {
	uint32_t name, file, flags, done;
	int64_t line, column;
};

struct tb {
	struct reader *r;
	struct gthread *t;
	const struct table *stack, *frame, *func, *res, *sources;
	const struct strs *str;
	int processed;
	size_t nstacks, nframes, nfuncs;
	uint32_t *sprefix, *sframe; /* per stack, validated */
	uint32_t *snode;	    /* per stack: call-tree node, NONE until needed */
	uint32_t *fid;		    /* per frame: profile frame, 0 until needed */
	uint32_t *scratch;
	struct loc *locs; /* per string index, raw profiles */
	const char *tname;
};

static int tb_error(struct tb *b, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int tb_error(struct tb *b, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pt_diag_verror_at(b->r->d, off, fmt, ap);
	va_end(ap);
	return pt_diag_prefix(b->r->d, "thread '%.80s': ", b->tname);
}

/* string id of string-table index cell v; 0 for null; -1 if out of range */
static int tb_string(struct tb *b, double v, uint32_t *id)
{
	uint32_t i;
	int rc = as_index(v, b->str ? b->str->n : 0, &i);
	if (rc == -1) {
		*id = 0;
		return 0;
	}
	if (rc < 0)
		return -1;
	*id = b->str->id[i];
	return 0;
}

static int64_t whole(double v)
{
	return isnan(v) || v < 0 || v > 1e12 ? 0 : (int64_t)v;
}

/* a raw location: "name (url:line:col)" or "url:line:col" (JS, the Firefox Profiler's
 * reading, with an optional "[sourceIndex]"), else a label or address kept whole */
static void parse_location(struct tb *b, uint32_t loc, struct loc *out)
{
	struct pt_profile *p = b->r->p;
	const char *s = pt_s(p, loc);
	size_t n = pt_intern_len(&p->strings, loc), e = n, i, name_end = 0, url = 0;
	int64_t ln = 0, cl = 0;
	uint32_t name = loc, file = 0, flags = 0;

	/* strip "[digits]" */
	if (e && s[e - 1] == ']') {
		i = e - 1;
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i > 0 && i < e - 1 && s[i - 1] == '[')
			e = i - 1;
	}
	{
		size_t end = e, p1, p2, q;
		int paren = end && s[end - 1] == ')';
		if (paren)
			end--;
		/* digits after the last ':' and maybe after the one before */
		p2 = end;
		while (p2 > 0 && s[p2 - 1] >= '0' && s[p2 - 1] <= '9')
			p2--;
		if (p2 < end && p2 > 0 && s[p2 - 1] == ':') {
			int64_t a = 0, c = 0;
			int two = 0;
			q = p2 - 1;
			p1 = q;
			while (p1 > 0 && s[p1 - 1] >= '0' && s[p1 - 1] <= '9')
				p1--;
			if (p1 < q && p1 > 0 && s[p1 - 1] == ':')
				two = 1;
			/* the url and where it starts */
			{
				size_t uend = two ? p1 - 1 : q, k;
				size_t ustart = 0;
				int ok = 1;
				if (paren) {
					/* "name (url" : the first " (" that leaves a url */
					for (k = 0; k + 1 < uend; k++)
						if (s[k] == ' ' && s[k + 1] == '(')
							break;
					if (k + 1 >= uend)
						ok = 0;
					else {
						name_end = k;
						ustart = k + 2;
					}
				}
				if (ok && ustart < uend) {
					for (k = two ? p1 : p2; k < (two ? q : end); k++)
						a = a * 10 + (s[k] - '0');
					if (two)
						for (k = p2; k < end; k++)
							c = c * 10 + (s[k] - '0');
					if ((two ? q - p1 : end - p2) <= 9 &&
					    (!two || end - p2 <= 9)) {
						url = ustart;
						file = pt_strn(p, s + ustart, uend - ustart);
						ln = a;
						cl = two ? c : 0;
					}
				}
			}
		}
	}
	if (file) {
		if (name_end)
			name = pt_strn(p, s, name_end);
		else {
			char *buf = pt_xmalloc(n + 16);
			size_t len =
				(size_t)snprintf(buf, n + 16, "(root scope) %s", pt_s(p, file));
			name = pt_strn(p, buf, len);
			free(buf);
		}
		(void)url;
	} else if (n > 2 && s[0] == '0' && s[1] == 'x') {
		flags = PT_FRAME_NO_SYMBOL;
	}
	out->done = 1;
	out->name = name;
	out->file = file;
	out->flags = flags;
	out->line = ln;
	out->column = cl;
}

/* a raw frame: its location string index si (parsed once per string, however many
 * frames share it), the frame's own line and column where the location has none */
static uint32_t raw_frame(struct tb *b, uint32_t si, double line, double column)
{
	struct loc *l;
	struct pt_frame f;

	if (!b->locs)
		b->locs = pt_xcalloc(b->str->n + 1, sizeof(*b->locs));
	l = &b->locs[si];
	if (!l->done)
		parse_location(b, b->str->id[si], l);
	memset(&f, 0, sizeof(f));
	f.flags = l->flags;
	f.line = l->file ? l->line : whole(line);
	f.column = l->file ? l->column : whole(column);
	f.func = pt_profile_func_ident(b->r->p, l->name, 0, l->file, l->file ? l->line : 0,
				       l->file ? (uint64_t)l->column : 0);
	return pt_profile_frame(b->r->p, &f);
}

static int tb_frame(struct tb *b, uint32_t fi, uint32_t *out)
{
	struct pt_profile *p = b->r->p;
	struct pt_frame f;
	uint32_t name, file = 0, fn;
	double line, col;

	if (b->fid[fi]) {
		*out = b->fid[fi];
		return 0;
	}
	line = cell(b->frame, F_LINE, fi);
	col = cell(b->frame, F_COLUMN, fi);
	if (!b->processed) {
		uint32_t si;
		if (as_index(cell(b->frame, F_LOCATION, fi), b->str ? b->str->n : 0, &si) < 0)
			return tb_error(b, b->frame->off,
					"frame %" PRIu32 ": location is not a string index", fi);
		*out = b->fid[fi] = raw_frame(b, si, line, col);
		return 0;
	}
	if (as_index(cell(b->frame, F_FUNC, fi), b->nfuncs, &fn) < 0) {
		char v[40];
		fmt_cell(v, sizeof(v), cell(b->frame, F_FUNC, fi));
		return tb_error(b, b->frame->off,
				"frame %" PRIu32 ": func %s out of range (funcTable has %zu)", fi,
				v, b->nfuncs);
	}
	if (tb_string(b, cell(b->func, U_NAME, fn), &name) < 0)
		return tb_error(b, b->func->off, "func %" PRIu32 ": name is not a string index",
				fn);
	if (!isnan(cell(b->func, U_FILE, fn))) {
		if (tb_string(b, cell(b->func, U_FILE, fn), &file) < 0)
			return tb_error(b, b->func->off,
					"func %" PRIu32 ": fileName is not a string index", fn);
	} else if (!isnan(cell(b->func, U_SOURCE, fn))) {
		uint32_t src;
		if (!b->sources ||
		    as_index(cell(b->func, U_SOURCE, fn), table_len(b->sources), &src) < 0 ||
		    tb_string(b, cell(b->sources, 0, src), &file) < 0)
			return tb_error(b, b->func->off, "func %" PRIu32 ": source out of range",
					fn);
	}
	memset(&f, 0, sizeof(f));
	if (!file && b->res) {
		uint32_t ri, rname = 0;
		if (as_index(cell(b->func, U_RESOURCE, fn), table_len(b->res), &ri) == 0 &&
		    tb_string(b, cell(b->res, 0, ri), &rname) == 0 && rname) {
			struct pt_mapping m;
			memset(&m, 0, sizeof(m));
			m.file = rname;
			f.mapping = pt_profile_mapping(p, &m);
		}
	}
	f.func = pt_profile_func_ident(p, name ? name : pt_str(p, "(unknown)"), 0, file,
				       whole(cell(b->func, U_LINE, fn)),
				       (uint64_t)whole(cell(b->func, U_COLUMN, fn)));
	f.line = whole(line);
	f.column = whole(col);
	*out = b->fid[fi] = pt_profile_frame(p, &f);
	return 0;
}

/* the stack table, checked whole: frames in range, each prefix before its stack */
static int tb_stacks(struct tb *b)
{
	size_t i;
	int has_off = b->stack->c[K_PREFIXOFF].n > 0;

	b->sprefix = pt_xmalloc((b->nstacks + 1) * sizeof(uint32_t));
	b->sframe = pt_xmalloc((b->nstacks + 1) * sizeof(uint32_t));
	b->snode = pt_xmalloc((b->nstacks + 1) * sizeof(uint32_t));
	b->scratch = pt_xmalloc((b->nstacks + 1) * sizeof(uint32_t));
	b->fid = pt_xcalloc(b->nframes + 1, sizeof(uint32_t));
	for (i = 0; i < b->nstacks; i++) {
		double fv = cell(b->stack, K_FRAME, i);
		char v[40];
		b->snode[i] = NONE;
		if (as_index(fv, b->nframes, &b->sframe[i]) < 0) {
			fmt_cell(v, sizeof(v), fv);
			return tb_error(b, b->stack->off,
					"stack %zu: frame %s out of range (frameTable has %zu)", i,
					v, b->nframes);
		}
		if (has_off) {
			double ov = cell(b->stack, K_PREFIXOFF, i);
			uint32_t o;
			if (as_index(ov, i + 1, &o) < 0) {
				fmt_cell(v, sizeof(v), ov);
				return tb_error(b, b->stack->off,
						"stack %zu: prefixOffset %s does not lead to an "
						"earlier stack",
						i, v);
			}
			b->sprefix[i] = o ? (uint32_t)(i - o) : NONE;
		} else {
			double pv = cell(b->stack, K_PREFIX, i);
			int rc = as_index(pv, i, &b->sprefix[i]);
			if (rc == -1)
				b->sprefix[i] = NONE;
			else if (rc < 0) {
				fmt_cell(v, sizeof(v), pv);
				return tb_error(b, b->stack->off,
						"stack %zu: prefix %s does not come before it", i,
						v);
			}
		}
	}
	return 0;
}

/* the call-tree node of stack s: its unresolved prefixes walked up, then down */
static int tb_node(struct tb *b, uint32_t s, uint32_t *out)
{
	size_t n = 0;
	uint32_t x = s, node;

	while (x != NONE && b->snode[x] == NONE) {
		b->scratch[n++] = x;
		x = b->sprefix[x];
	}
	node = x == NONE ? 0 : b->snode[x];
	while (n) {
		uint32_t f = 0;
		x = b->scratch[--n];
		if (tb_frame(b, b->sframe[x], &f) < 0)
			return -1;
		node = b->snode[x] = pt_profile_child(b->r->p, node, f);
	}
	*out = node;
	return 0;
}

struct interval {
	double start, end;
	uint32_t label; /* index into the state labels */
	uint32_t pad;
};

/* markers that carry a thread state (vernier's GVL and GC markers) */
static const struct {
	const char *marker, *key, *value;
} states[] = {
	{"THREAD_RUNNING", "state", "running"},
	{"THREAD_STALLED", "state", "stalled"},
	{"THREAD_SUSPENDED", "state", "suspended"},
	{"GC_PAUSE", "gc", "pause"},
};
#define NSTATES (sizeof(states) / sizeof(states[0]))

static int cmp_interval(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* per key ("state", "gc"): its intervals, sorted by start */
struct track {
	struct interval *v;
	size_t n, alloc;
};

static void tb_markers(struct tb *b, struct track *tr)
{
	const struct table *m = &b->t->t[T_MARKERS];
	uint32_t ids[NSTATES];
	size_t i, k, n = table_len(m);
	const struct strs *str = b->str;

	for (k = 0; k < NSTATES; k++)
		ids[k] = pt_intern_find(&b->r->p->strings, states[k].marker,
					strlen(states[k].marker));
	for (i = 0; i < n && str; i++) {
		uint32_t nm, si;
		double st = cell(m, M_START, i), en = cell(m, M_END, i);
		if (as_index(cell(m, M_NAME, i), str->n, &si) < 0)
			continue;
		nm = str->id[si];
		/* interval markers with both ends (phase 1) */
		if (isnan(st) || isnan(en) || en < st)
			continue;
		for (k = 0; k < NSTATES; k++)
			if (ids[k] && nm == ids[k]) {
				struct track *t = &tr[!strcmp(states[k].key, "gc")];
				PT_ALLOC_GROW(t->v, t->n + 1, t->alloc);
				t->v[t->n].start = st;
				t->v[t->n].end = en;
				t->v[t->n].label = (uint32_t)k;
				t->v[t->n].pad = 0;
				t->n++;
			}
	}
	for (k = 0; k < 2; k++)
		pt_qsort(tr[k].v, tr[k].n, sizeof(struct interval), cmp_interval);
}

/* the state whose interval holds time t: the last to start at or before t */
static int find_state(const struct track *t, double time)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].start <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && time <= t->v[lo - 1].end)
		return (int)t->v[lo - 1].label;
	return -1;
}

/* one thread's samples being added to the profile, in order, one at a time: from its
 * stored columns (build_thread) or, in the second pass, as the rows are read */
struct run {
	struct tb b;
	struct track tr[2];
	struct pt_label base[6];
	uint32_t nbase, type;
	uint32_t lcache[NSTATES + 1][NSTATES + 1];
	const struct table *smp;
	size_t i; /* the next sample's index */
	double time, origin;
	int has_weight, has_time, has_deltas;
	int64_t *vals;
	char tname[40];
};

static void run_end(struct run *u)
{
	free(u->vals);
	free(u->tr[0].v);
	free(u->tr[1].v);
	free(u->b.sprefix);
	free(u->b.sframe);
	free(u->b.snode);
	free(u->b.scratch);
	free(u->b.fid);
	free(u->b.locs);
	memset(u, 0, sizeof(*u));
}

/* the labels every sample of thread t carries */
static void run_base(struct run *u, struct pt_profile *p, const struct gthread *t)
{
	memset(u->base, 0, sizeof(u->base));
	if (t->has_pid) {
		u->base[u->nbase].key = pt_str(p, PT_LABEL_PID);
		u->base[u->nbase++].num = t->pid;
	}
	if (t->has_tid) {
		u->base[u->nbase].key = pt_str(p, PT_LABEL_TID);
		u->base[u->nbase++].num = t->tid;
	}
	if (t->name) {
		u->base[u->nbase].key = pt_str(p, PT_LABEL_THREAD);
		u->base[u->nbase++].str = t->name;
	}
	if (t->process_name) {
		u->base[u->nbase].key = pt_str(p, "process");
		u->base[u->nbase++].str = t->process_name;
	}
}

/* Start thread t's samples (table smp, whose layout says which columns it has):
 * 0, or -1 with the error in r->d (u is then ended). */
static int run_begin(struct reader *r, struct gthread *t, size_t ti, const struct table *smp,
		     struct run *u)
{
	struct pt_profile *p = r->p;
	struct tb *b = &u->b;

	memset(u, 0, sizeof(*u));
	b->r = r;
	b->t = t;
	u->smp = smp;
	if (t->name)
		b->tname = pt_s(p, t->name);
	else {
		snprintf(u->tname, sizeof(u->tname), "#%zu", ti);
		b->tname = u->tname;
	}
#define PICK(k) (t->t[k].present ? &t->t[k] : r->shared[k].present ? &r->shared[k] : NULL)
	b->stack = PICK(T_STACK);
	b->frame = PICK(T_FRAME);
	b->func = PICK(T_FUNC);
	b->res = PICK(T_RES);
	b->sources = PICK(T_SOURCES);
#undef PICK
	b->str = t->strings.present	     ? &t->strings
		 : r->shared_strings.present ? &r->shared_strings
					     : NULL;
	if (!b->stack || !b->frame)
		return tb_error(b, t->off, "samples but no %s",
				b->stack ? "frameTable" : "stackTable");
	b->processed = b->frame->c[F_FUNC].n > 0 || (b->frame->pos[F_FUNC] >= 0);
	if (b->processed && !b->func)
		return tb_error(b, t->off, "frames name functions but there is no funcTable");
	b->nstacks = table_len(b->stack);
	b->nframes = table_len(b->frame);
	b->nfuncs = b->func ? table_len(b->func) : 0;
	if (tb_stacks(b) < 0) {
		run_end(u);
		return -1;
	}
	tb_markers(b, u->tr);
	memset(u->lcache, 0xff, sizeof(u->lcache));

	u->type = r->types[smp->wtype];
	if (u->type == NONE) {
		u->type = pt_profile_add_type(p, wtype_type[smp->wtype][0],
					      wtype_type[smp->wtype][1]);
		if (u->type == UINT32_MAX) {
			pt_diag_error_at(r->d, smp->off, "too many sample types");
			run_end(u);
			return -1;
		}
		r->types[smp->wtype] = u->type;
	}
	u->vals = pt_xcalloc(PT_MAX_TYPES, sizeof(int64_t));
	run_base(u, p, t);
	{
		const struct doc *d0 = NULL, *dt = &r->docs[t->doc];
		size_t k;
		for (k = 0; k < r->ndocs && !d0; k++)
			if (r->docs[k].has_start)
				d0 = &r->docs[k];
		if (d0 && dt->has_start)
			u->origin = dt->start - d0->start;
	}
	/* the columns the samples have (a stored column, or one the rows' schema names) */
	u->has_weight = smp->c[S_WEIGHT].n > 0 || (smp->has_schema && smp->pos[S_WEIGHT] >= 0);
	u->has_time = smp->c[S_TIME].n > 0 || (smp->has_schema && smp->pos[S_TIME] >= 0);
	u->has_deltas = !u->has_time &&
			(smp->c[S_DELTAS].n > 0 || (smp->has_schema && smp->pos[S_DELTAS] >= 0));
	return 0;
}

/* the labels of a sample at time `time` */
static uint32_t run_labels(struct run *u, double time)
{
	struct pt_profile *p = u->b.r->p;
	int st[2];
	uint32_t *labels;

	st[0] = isnan(time) ? -1 : find_state(&u->tr[0], time);
	st[1] = isnan(time) ? -1 : find_state(&u->tr[1], time);
	labels = &u->lcache[st[0] + 1][st[1] + 1];
	if (*labels == NONE) {
		struct pt_label lab[8];
		uint32_t nl = u->nbase, k;
		memcpy(lab, u->base, sizeof(u->base));
		for (k = 0; k < 2; k++)
			if (st[k] >= 0) {
				memset(&lab[nl], 0, sizeof(lab[nl]));
				lab[nl].key = pt_str(p, states[st[k]].key);
				lab[nl++].str = pt_str(p, states[st[k]].value);
			}
		*labels = pt_profile_labelset(p, lab, nl);
	}
	return *labels;
}

/* the next sample: its stack, time, time delta and weight cells (NaN: none): 0 or -1
 * with the error in r->d */
static int run_sample(struct run *u, double sv, double tm, double dt, double wt)
{
	struct tb *b = &u->b;
	const struct table *smp = u->smp;
	size_t i = u->i++;
	uint32_t s, node, labels;
	double w = 1;
	int64_t ns = 0;
	int rc;

	if (u->has_time)
		u->time = tm;
	else if (u->has_deltas && !isnan(dt))
		u->time += dt;
	rc = as_index(sv, b->nstacks, &s);
	if (rc == -1) /* a sample without a stack: the Firefox Profiler leaves it out */
		return 0;
	if (rc < 0) {
		char v[40];
		fmt_cell(v, sizeof(v), sv);
		return tb_error(b, smp->off,
				"sample %zu: stack %s out of range (stackTable has %zu)", i, v,
				b->nstacks);
	}
	if (u->has_weight && !isnan(wt))
		w = wt;
	if (smp->wtype == W_TRACING_MS)
		w *= 1e6;
	if (w != pt_floor(w) || fabs(w) > 9e18)
		return tb_error(b, smp->off, "sample %zu: weight %.17g is not a whole number%s", i,
				wt, smp->wtype == W_TRACING_MS ? " of nanoseconds" : "");
	if (tb_node(b, s, &node) < 0)
		return -1;
	labels = run_labels(u, u->time);
	if (!isnan(u->time)) {
		double x = (u->time + u->origin) * 1e6;
		ns = fabs(x) < 9e18 ? pt_llround(x) : 0;
	}
	memset(u->vals, 0, PT_MAX_TYPES * sizeof(int64_t));
	u->vals[u->type] = (int64_t)w;
	pt_profile_add_sample(b->r->p, node, labels, u->vals, ns);
	return 0;
}

/* the samples of a table's stored columns, from row `from` on */
static int run_columns(struct run *u, size_t from)
{
	const struct table *smp = u->smp;
	size_t i, n = table_len(smp);

	for (i = from; i < n; i++)
		if (run_sample(u, cell(smp, S_STACK, i), cell(smp, S_TIME, i),
			       cell(smp, S_DELTAS, i), cell(smp, S_WEIGHT, i)) < 0)
			return -1;
	return 0;
}

static int build_thread(struct reader *r, struct gthread *t, size_t ti)
{
	const struct table *smp = &t->t[T_SAMPLES];
	struct run u;
	int ret;

	if (!smp->present || !table_len(smp))
		return 0;
	if (run_begin(r, t, ti, smp, &u) < 0)
		return -1;
	ret = run_columns(&u, 0);
	run_end(&u);
	return ret;
}

/* ---- the second pass: samples added as they are read ---- */

/* the run of the samples table being read, begun at its first sample */
static int pass2_begin(struct reader *r)
{
	if (r->run_on)
		return 0;
	if (run_begin(r, r->threads[r->run_ti], r->run_ti, r->run_table, r->run) < 0)
		return -1;
	r->run_on = 1;
	return 0;
}

/* a row of a raw samples table has ended: its sample goes in, its cells go */
static int pass2_row(struct reader *r)
{
	struct table *t = r->run_table;
	int c;

	if (!table_len(t))
		return 1;
	if (pass2_begin(r) < 0 || run_columns(r->run, table_len(t) - 1) < 0) {
		r->failed = 1;
		return 0;
	}
	for (c = 0; c < MAXCOL; c++)
		t->c[c].n = 0;
	return 1;
}

/* the samples table has ended: a processed one's columns go in now */
static int pass2_table_end(struct reader *r)
{
	struct table *t = r->run_table;
	int ret = 1;
	size_t k;

	if (table_len(t) && (pass2_begin(r) < 0 || run_columns(r->run, 0) < 0)) {
		r->failed = 1;
		ret = 0;
	}
	if (r->run_on)
		run_end(r->run);
	r->run_on = 0;
	r->run_table = NULL;
	for (k = 0; k < MAXCOL; k++) {
		free(t->c[k].v);
		memset(&t->c[k], 0, sizeof(t->c[k]));
	}
	return ret;
}

/* The second pass over the samples tables only: each thread's, from its '{' to past its
 * '}' as the first pass found them, parsed as a JSON text of its own, what lies between
 * read past unparsed. 0, or -1 with the error in r->d. */
static int pass2_tables(struct reader *r, struct pt_input *in)
{
	size_t i;

	for (i = 0; i < r->nthreads; i++) {
		struct table *t = &r->threads[i]->t[T_SAMPLES];
		struct parse ps;
		int st, cut, rc;
		if (!t->present)
			continue;
		rc = pt_input_skip_to(in, t->off);
		if (rc < 0)
			return -1;
		if (rc == 0 || t->end <= t->off)
			return pt_diag_error_at(r->d, pt_input_tell(in),
						"the input changed between reads");
		parse_init(&ps, r);
		rc = push(&ps, C_THREAD, (uint32_t)i) ? 0 : -1;
		ps.key = K_TABLE;
		ps.key_kind = T_SAMPLES;
		ps.synthetic = 1;
		ps.limit = t->end;
		ps.can_fast = 1;
		if (!rc) {
			st = pt_json_feed_upto(&ps.h, in, CHUNK, &ps.chunk_off, t->end, &cut,
					       rows_resume, &ps);
			rc = st < 0 ? -1
				    : pt_json_result(ps.h, r->d, st, cut, r->failed, t->end,
						     here(&ps));
		}
		if (!rc && r->run_table) /* the table did not end where it did */
			rc = pt_diag_error_at(r->d, t->end, "the input changed between reads");
		parse_release(&ps);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int gecko_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
		      struct pt_diag *d)
{
	struct reader r;
	struct parse ps;
	struct run run;
	int st, cut, ret = -1;
	uint64_t end_off;
	size_t i, k;

	if (pt_json_load(d) < 0)
		return -1;
	memset(&r, 0, sizeof(r));
	memset(&run, 0, sizeof(run));
	r.p = p;
	r.d = d;
	r.o = o;
	r.run = &run;
	/* a timeline grows with the samples anyway: one pass then */
	r.defer = !o->keep_timeline && pt_input_can_rewind(in);
	for (k = 0; k < W_NTYPES; k++)
		r.types[k] = NONE;
	p->format = "gecko";
	p->keep_timeline = o->keep_timeline;
	parse_init(&ps, &r);
	ps.can_fast = 1;
	st = pt_json_feed_upto(&ps.h, in, CHUNK, &ps.chunk_off, UINT64_MAX, &cut, rows_resume, &ps);
	if (st < 0)
		goto out;
	end_off = pt_input_tell(in);
	if (pt_json_result(ps.h, d, st, cut, r.failed, end_off, here(&ps)) < 0)
		goto out;
	if (!ps.top_seen) {
		pt_diag_error_at(d, 0, "empty input");
		goto out;
	}
	if (!r.nthreads) {
		pt_diag_error_at(d, end_off, "not a Gecko profile: no 'threads'");
		goto out;
	}
	for (i = 0; i < r.ndocs; i++)
		if (r.docs[i].has_start) {
			double ns = r.docs[i].start * 1e6;
			if (ns > 0 && ns < 9e18)
				p->time_nanos = pt_llround(ns);
			break;
		}
	if (r.defer) {
		if (pt_input_rewind(in) < 0)
			goto out;
		parse_release(&ps);
		parse_init(&ps, &r);
		r.pass2 = 1;
		if (!r.subs) {
			if (pass2_tables(&r, in) < 0)
				goto out;
			goto built;
		}
		ps.can_fast = 1;
		st = pt_json_feed_upto(&ps.h, in, CHUNK, &ps.chunk_off, UINT64_MAX, &cut,
				       rows_resume, &ps);
		if (st < 0)
			goto out;
		if (pt_json_result(ps.h, d, st, cut, r.failed, pt_input_tell(in), here(&ps)) < 0)
			goto out;
	}
	for (i = 0; i < r.nthreads && !r.defer; i++)
		if (build_thread(&r, r.threads[i], i) < 0)
			goto out;
built:
	if (!p->ntypes)
		pt_profile_add_type(p, "samples", "count");
	ret = 0;
out:
	if (r.run_on)
		run_end(&run);
	parse_release(&ps);
	for (i = 0; i < r.nthreads; i++) {
		for (k = 0; k < T_NKINDS; k++)
			table_free(&r.threads[i]->t[k]);
		free(r.threads[i]->strings.id);
		free(r.threads[i]);
	}
	for (k = 0; k < T_NKINDS; k++)
		table_free(&r.shared[k]);
	free(r.shared_strings.id);
	free(r.threads);
	free(r.docs);
	return ret;
}

/* from the first bytes: an object whose "meta" names the Gecko profiler's fields, or
 * the DevTools panel's wrapper around one */
static int gecko_detect(const unsigned char *head, size_t len)
{
	if (pt_json_first(head, len) != '{')
		return 0;
	/* Firefox writes its shared libraries first, each with the symbol server's ids */
	if (PT_JSON_HAS_KEY(head, len, "libs") && PT_JSON_HAS_KEY(head, len, "breakpadId") &&
	    PT_JSON_HAS_KEY(head, len, "debugName"))
		return 85;
	if (!PT_JSON_HAS_KEY(head, len, "meta")) {
		/* {"label":..,"duration":..,"markers":[..],..,"profile":{"libs":..,"meta":..}} */
		if (PT_JSON_HAS_KEY(head, len, "duration") && PT_JSON_HAS_KEY(head, len, "label") &&
		    (PT_JSON_HAS_KEY(head, len, "isOffMainThread") ||
		     memmem(head, len, "\"profile\":{", 11)))
			return 70;
		return 0;
	}
	if (PT_JSON_HAS_KEY(head, len, "preprocessedProfileVersion"))
		return 95;
	if (PT_JSON_HAS_KEY(head, len, "version") &&
	    (PT_JSON_HAS_KEY(head, len, "stackwalk") || PT_JSON_HAS_KEY(head, len, "processType")))
		return 90;
	return 0;
}

static const char *const gecko_suffixes[] = {".json.gz", ".vernier.json", ".json", NULL};

const struct pt_format pt_format_gecko = {
	.name = "gecko",
	.description = "Firefox Profiler / Gecko profile: Firefox, vernier, samply "
		       "(raw Gecko and processed format)",
	.suffixes = gecko_suffixes,
	.detect = gecko_detect,
	.read = gecko_read,
	.write = NULL,
};
