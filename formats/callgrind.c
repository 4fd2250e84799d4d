/* callgrind.c: the callgrind profile format (kcachegrind, callgrind_annotate), write only.
 * One event per sample type; a function is fl=/fn= (name-compressed), its self cost is
 * given per source line, and its calls as cfl=/cfn=/calls= followed by the inclusive
 * cost of the call. See formats/callgrind.md for the mapping. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/graph.h"
#include "util/buf.h"
#include "formats/format.h"
#include "util/map.h"
#include "util/text.h"
#include "util/xalloc.h"

/* A cost row: (function, line) for self costs, or (caller function, call line, callee
 * function) for calls. The synthetic caller of root frames is function id 0. Rows are
 * kept in memory only for aggregate-only profiles and trees with odd lines (cg_tree):
 * other trees stream theirs straight out. */
struct crow {
	uint32_t func, callee; /* callee UINT32_MAX for a self-cost row */
	int64_t line;
	uint64_t calls;
};

struct cg {
	const struct pt_profile *p;
	uint32_t t0, nt; /* the types written: t0 .. t0 + nt - 1 */
	struct crow *rows;
	size_t nrows, rows_alloc;
	int64_t *vals; /* nt per row */
	struct pt_map pos_index, row_index;
	uint32_t npos;
	uint32_t *fl_id, *fn_id; /* name compression ids, 0 = not yet written */
	uint32_t nfl, nfn;
	uint32_t cur; /* the function of the row written last */
	struct pt_buf b;
	/* per callee, made once its names are out (cg_call): at call_at[callee] - 1 in
	 * call_text, the text's length, the length of its part up to "calls=", the text */
	uint32_t *call_at;
	struct pt_buf call_text;
};

/* the position (func, line): an id for the pair, new ones numbered as they come */
static uint32_t cg_pos(struct cg *c, uint32_t func, int64_t line)
{
	uint32_t *ps =
		pt_map_put(&c->pos_index, (uint64_t)func << 32 | ((uint64_t)line & 0xffffffffu));
	if (*ps == PT_MAP_NEW)
		*ps = c->npos++;
	return *ps;
}

/* the row for (func, line, callee), made with values 0 if new */
static size_t cg_row(struct cg *c, uint32_t func, int64_t line, uint32_t callee)
{
	uint32_t *rs = pt_map_put(&c->row_index, (uint64_t)cg_pos(c, func, line) << 32 | callee);
	size_t id = c->nrows;

	if (*rs != PT_MAP_NEW)
		return *rs;
	if (id + 1 > c->rows_alloc) {
		size_t old = c->rows_alloc;
		PT_ALLOC_GROW(c->rows, id + 1, c->rows_alloc);
		c->vals = pt_xreallocarray(c->vals, c->rows_alloc,
					   (c->nt ? c->nt : 1) * sizeof(int64_t));
		memset(c->vals + old * c->nt, 0, (c->rows_alloc - old) * c->nt * sizeof(int64_t));
	}
	c->rows[id] = (struct crow){func, callee, line, 0};
	c->nrows++;
	*rs = (uint32_t)id;
	return id;
}

static void cg_add(struct cg *c, size_t row, const int64_t *v)
{
	pt_add_values(c->vals + row * c->nt, v, c->nt);
}

/* An aggregate-only profile (no stacks): self per line, and the rest of each entry's
 * flat at its start line, from the table; the calls from its graph (the reader's edges,
 * which count every occurrence but no calls: each is written as one). The entries are
 * functions. */
static void cg_from_agg(struct cg *c, const struct pt_agg *a)
{
	struct pt_graph g;
	uint32_t i, k, nt = c->nt;

	pt_graph_init(&g, a->nentries);
	pt_graph_from_agg(&g, a, c->t0, nt, NULL);
	for (i = 0; i < a->nlines; i++) {
		uint32_t e = a->lines[i].entry;
		const int64_t *v = a->line_self + (size_t)i * a->ntypes + c->t0;
		cg_add(c, cg_row(c, a->entries[e].func, a->lines[i].line, UINT32_MAX), v);
		for (k = 0; k < nt; k++)
			g.flat[(size_t)e * nt + k] = pt_sub(g.flat[(size_t)e * nt + k], v[k]);
	}
	for (i = 0; i < a->nentries; i++) {
		const int64_t *rest = g.flat + (size_t)i * nt;
		for (k = 0; k < nt && !rest[k]; k++)
			;
		if (k < nt)
			cg_add(c, cg_row(c, a->entries[i].func, a->entries[i].line, UINT32_MAX),
			       rest);
	}
	for (i = 0; i < g.nedges; i++) {
		const struct pt_agg_entry *from = &a->entries[g.edges[i].from];
		cg_add(c, cg_row(c, from->func, from->line, a->entries[g.edges[i].to].func),
		       pt_graph_values(&g, i));
	}
	pt_graph_release(&g);
}

/* a name fit for one callgrind line: valid UTF-8, no control bytes, not empty */
static void cg_name(struct pt_buf *b, const char *s, size_t n, const char *fallback)
{
	size_t start = b->len, i;
	pt_buf_add_utf8(b, s, n);
	for (i = start; i < b->len; i++)
		if ((unsigned char)b->buf[i] < 0x20 || b->buf[i] == 0x7f)
			b->buf[i] = '?';
	if (b->len == start)
		pt_buf_addstr(b, fallback);
}

/* "key=(N)" at the end of b, which has room for it */
static void add_ref(struct pt_buf *b, const char *key, size_t klen, uint32_t id)
{
	char *d = b->buf + b->len;
	memcpy(d, key, klen);
	d += klen;
	*d++ = '=';
	*d++ = '(';
	d += pt_fmt_u64(d, id);
	*d++ = ')';
	pt_buf_setlen(b, (size_t)(d - b->buf));
}

/* "key=(N)", and the first time "key=(N) name": *id is given out from *count */
static void cg_ref(struct pt_buf *b, const char *key, uint32_t *id, uint32_t *count,
		   const char *name, size_t len, const char *fallback)
{
	size_t klen = strlen(key);
	int first = !*id;

	if (first)
		*id = ++*count;
	pt_buf_grow(b, klen + PT_U64_DIGITS + 4);
	add_ref(b, key, klen, *id);
	if (first) {
		pt_buf_addch(b, ' ');
		cg_name(b, name, len, fallback);
	}
	pt_buf_addch(b, '\n');
}

/* "fl=(3)" or, the first time, "fl=(3) name"; ids shared by fl/cfl and fn/cfn */
static void cg_file(struct cg *c, struct pt_buf *b, const char *key, uint32_t func)
{
	const struct pt_profile *p = c->p;
	uint32_t file = func ? p->funcs[func].file : 0;

	cg_ref(b, key, &c->fl_id[file], &c->nfl, pt_s(p, file), pt_intern_len(&p->strings, file),
	       "???");
}

static void cg_func(struct cg *c, struct pt_buf *b, const char *key, uint32_t func)
{
	const struct pt_profile *p = c->p;
	uint32_t name = func ? p->funcs[func].name : 0;

	cg_ref(b, key, &c->fn_id[func], &c->nfn, pt_s(p, name), pt_intern_len(&p->strings, name),
	       func ? "(unknown)" : "(root)");
}

/* "LINE V..." with negative values as 0 */
static void cg_costs(struct cg *c, struct pt_buf *b, int64_t line, const int64_t *v)
{
	uint32_t t;
	char *d;
	pt_buf_grow(b, ((size_t)c->nt + 1) * (PT_U64_DIGITS + 1));
	d = b->buf + b->len;
	d += pt_fmt_u64(d, (uint64_t)(line > 0 ? line : 0));
	for (t = 0; t < c->nt; t++) {
		*d++ = ' ';
		d += pt_fmt_u64(d, (uint64_t)(v[t] > 0 ? v[t] : 0));
	}
	*d++ = '\n';
	pt_buf_setlen(b, (size_t)(d - b->buf));
}

/* rows grouped by function (self rows first, by line), then calls by line and callee */
static int row_cmp(const void *a, const void *b)
{
	const struct crow *x = a, *y = b;
	int xc = x->callee != UINT32_MAX, yc = y->callee != UINT32_MAX;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (xc != yc)
		return xc - yc;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return 0;
}

/* event names are identifiers: the type's name with other bytes made '_' */
static void cg_event_name(struct pt_buf *b, const struct pt_profile *p, uint32_t t)
{
	size_t i;
	pt_buf_reset(b);
	cg_name(b, pt_s(p, p->types[t].name), pt_intern_len(&p->strings, p->types[t].name),
		"value");
	for (i = 0; i < b->len; i++) {
		char ch = b->buf[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_'))
			b->buf[i] = '_';
	}
}

static void cg_header(struct cg *c, FILE *out, const int64_t *sum)
{
	const struct pt_profile *p = c->p;
	uint32_t t;

	fprintf(out, "# callgrind format\nversion: 1\ncreator: %s %s\npositions: line\n",
		PACKAGE_NAME, PACKAGE_VERSION);
	for (t = 0; t < c->nt; t++) {
		const struct pt_sample_type *ty = &p->types[c->t0 + t];
		cg_event_name(&c->b, p, c->t0 + t);
		fprintf(out, "event: %s : %s (%s", c->b.buf, c->b.buf, pt_s(p, ty->unit));
		if (ty->decimals)
			fprintf(out, " / 1e%" PRIu32, ty->decimals);
		fprintf(out, ")\n");
	}
	fprintf(out, "events:");
	for (t = 0; t < c->nt; t++) {
		cg_event_name(&c->b, p, c->t0 + t);
		fprintf(out, " %s", c->b.buf);
	}
	fprintf(out, "\nsummary:");
	for (t = 0; t < c->nt; t++)
		fprintf(out, " %" PRId64, sum[t]);
	fprintf(out, "\n");
}

/* "calls=N TARGET\n": N >= 1, as callgrind_annotate adds a calls=0 cost to the
 * caller's self */
static void cg_calls(struct pt_buf *b, uint64_t calls, int64_t target)
{
	char *q;
	pt_buf_grow(b, 6 + 2 * PT_U64_DIGITS + 2);
	q = b->buf + b->len;
	memcpy(q, "calls=", 6);
	q += 6;
	q += pt_fmt_u64(q, calls ? calls : 1);
	*q++ = ' ';
	q += pt_fmt_u64(q, (uint64_t)(target > 0 ? target : 0));
	*q++ = '\n';
	pt_buf_setlen(b, (size_t)(q - b->buf));
}

/* A call's first lines, "cfi=(A)\ncfn=(B)\ncalls=N T\n". Once the callee's names have
 * been written they are the same text for all its calls but N, so the text is made
 * once (with N = 1, as most are) and copied: the millions of calls of a big profile
 * cost a copy each, not four numbers and two table lookups. */
static void cg_call(struct cg *c, struct pt_buf *b, uint32_t callee, uint64_t calls)
{
	const struct pt_profile *p = c->p;
	int64_t target = p->funcs[callee].start_line;
	uint32_t file = callee ? p->funcs[callee].file : 0;
	const unsigned char *t;

	if (!c->call_at[callee]) {
		struct pt_buf *ct = &c->call_text;
		size_t start = ct->len, prefix;
		if (!c->fl_id[file] || !c->fn_id[callee]) {
			/* a first use writes a name: this text is not the one to keep */
			cg_file(c, b, "cfi", callee);
			cg_func(c, b, "cfn", callee);
			cg_calls(b, calls, target);
			return;
		}
		pt_buf_add(ct, "\0\0", 2);
		cg_file(c, ct, "cfi", callee);
		cg_func(c, ct, "cfn", callee);
		prefix = ct->len - start - 2 + 6;
		cg_calls(ct, 1, target);
		ct->buf[start] = (char)(ct->len - start - 2);
		ct->buf[start + 1] = (char)prefix;
		c->call_at[callee] = (uint32_t)start + 1;
	}
	t = (const unsigned char *)c->call_text.buf + c->call_at[callee] - 1;
	if (calls <= 1) {
		pt_buf_add(b, t + 2, t[0]);
	} else {
		char *q;
		pt_buf_grow(b, t[0] + PT_U64_DIGITS);
		q = b->buf + b->len;
		memcpy(q, t + 2, t[1]);
		q += t[1];
		q += pt_fmt_u64(q, calls);
		memcpy(q, t + 2 + t[1] + 1, t[0] - t[1] - 1u);
		q += t[0] - t[1] - 1u;
		pt_buf_setlen(b, (size_t)(q - b->buf));
	}
}

/* One row out: fl= and fn= when the function changes, a call's lines, then the costs.
 * Rows go out through one buffer, in blocks, with numbers written by hand: a call costs
 * several lines, and printf per line cost more than the rest. */
static void cg_put(struct cg *c, FILE *out, uint32_t func, uint32_t callee, int64_t line,
		   uint64_t calls, const int64_t *v)
{
	struct pt_buf *b = &c->b;

	if (func != c->cur) {
		c->cur = func;
		pt_buf_addch(b, '\n');
		cg_file(c, b, "fl", func);
		cg_func(c, b, "fn", func);
	}
	if (callee != UINT32_MAX)
		cg_call(c, b, callee, calls);
	cg_costs(c, b, line, v);
	pt_buf_write_out(b, out, PT_BUF_BLOCK);
}

/* The rows in memory: sorted into writing order, then out after the header. Bucketed
 * by function first (a counting sort), so that qsort only orders each function's few
 * rows. */
static void cg_write_rows(struct cg *c, FILE *out)
{
	const struct pt_profile *p = c->p;
	struct crow *sorted;
	int64_t *svals, *sum;
	size_t i, k, n, *start;
	uint32_t t, f;

	n = c->nrows ? c->nrows : 1;
	sorted = pt_xmalloc(n * sizeof(*sorted));
	svals = pt_xreallocarray(NULL, n, (c->nt ? c->nt : 1) * sizeof(int64_t));
	start = pt_xcalloc((size_t)p->nfuncs + 2, sizeof(size_t));
	for (i = 0; i < c->nrows; i++)
		start[c->rows[i].func + 1]++;
	for (f = 0; f <= p->nfuncs; f++)
		start[f + 1] += start[f];
	for (i = 0; i < c->nrows; i++) {
		size_t at = start[c->rows[i].func]++;
		sorted[at] = c->rows[i];
		sorted[at].calls = i; /* the original index while sorting */
	}
	for (i = 0; i < c->nrows; i = k) {
		for (k = i + 1; k < c->nrows && sorted[k].func == sorted[i].func; k++)
			;
		if (k - i > 1)
			qsort(sorted + i, k - i, sizeof(*sorted), row_cmp);
	}
	free(start);
	for (i = 0; i < c->nrows; i++) {
		size_t orig = (size_t)sorted[i].calls;
		sorted[i].calls = c->rows[orig].calls;
		memcpy(svals + i * c->nt, c->vals + orig * c->nt, c->nt * sizeof(int64_t));
	}

	sum = pt_xcalloc(c->nt ? c->nt : 1, sizeof(int64_t));
	for (i = 0; i < c->nrows; i++)
		if (sorted[i].callee == UINT32_MAX)
			for (t = 0; t < c->nt; t++)
				if (svals[i * c->nt + t] > 0)
					sum[t] = pt_add(sum[t], svals[i * c->nt + t]);
	cg_header(c, out, sum);
	pt_buf_reset(&c->b);
	for (i = 0; i < c->nrows; i++)
		cg_put(c, out, sorted[i].func, sorted[i].callee, sorted[i].line, sorted[i].calls,
		       svals + i * c->nt);
	pt_buf_write_out(&c->b, out, 0);
	free(sum);
	free(sorted);
	free(svals);
}

/* ---- the call tree's rows ----
 *
 * Self costs per position, (function, line), and the calls as callgrind charges them:
 * the call graph (analysis/graph.h) of the functions, each call from the position of
 * the frame above, charged at each rootmost occurrence of its callee on a path
 * (PT_GRAPH_ROOTMOST); root frames get the synthetic caller (function 0, written as
 * "(root)"). */

struct cg_pos {
	uint32_t npos;
	uint32_t *fpos;	    /* per frame: its position */
	uint32_t *pos_func; /* per position */
	int64_t *pos_line;  /* per position: the line of its first frame */
	/* every line fits 32 bits, so no two lines share a position */
	int exact;
	/* per position: the frame of its first node with a nonzero self value (in node
	 * order), or UINT32_MAX; and nt values, its nodes' self values */
	uint32_t *self_frame;
	int64_t *self;
};

/* Positions: the frames sorted by function, then line as a signed 32-bit number (less
 * the least, for a short key), as callgrind keys a line by its low 32 bits; frame 0 is
 * the root's caller, (0, 0). */
static void cg_positions(const struct pt_profile *p, struct cg_pos *ps)
{
	uint32_t nf = p->nframes ? p->nframes : 1, fr, i;
	uint64_t lmin = UINT32_MAX, lmax = 0;
	struct pt_keyed *rec = pt_xmalloc((size_t)nf * sizeof(*rec));
	struct pt_keyed *tmp = pt_xmalloc((size_t)nf * sizeof(*tmp)), *s;
	unsigned lbits;

	memset(ps, 0, sizeof(*ps));
	ps->exact = 1;
	for (fr = 0; fr < nf; fr++) {
		int64_t l = fr ? p->frames[fr].line : 0;
		uint64_t u = (uint32_t)l ^ 0x80000000u;
		if (l < INT32_MIN || l > INT32_MAX)
			ps->exact = 0;
		if (u < lmin)
			lmin = u;
		if (u > lmax)
			lmax = u;
	}
	lbits = pt_bits(lmax - lmin);
	for (fr = 0; fr < nf; fr++) {
		uint64_t u = (uint32_t)(fr ? p->frames[fr].line : 0) ^ 0x80000000u;
		rec[fr].key = (uint64_t)(fr ? p->frames[fr].func : 0) << lbits | (u - lmin);
		rec[fr].a = fr;
	}
	s = pt_sort_keyed(rec, tmp, nf, pt_bits(p->nfuncs) + lbits);
	ps->fpos = pt_xmalloc((size_t)nf * sizeof(uint32_t));
	ps->pos_func = pt_xmalloc((size_t)nf * sizeof(uint32_t));
	ps->pos_line = pt_xmalloc((size_t)nf * sizeof(int64_t));
	for (i = 0; i < nf; i++) {
		fr = s[i].a;
		if (!i || s[i].key != s[i - 1].key) {
			ps->pos_func[ps->npos] = fr ? p->frames[fr].func : 0;
			ps->pos_line[ps->npos] = fr ? p->frames[fr].line : 0;
			ps->npos++;
		}
		ps->fpos[fr] = ps->npos - 1;
	}
	free(rec);
	free(tmp);
}

static void cg_pos_release(struct cg_pos *ps)
{
	free(ps->fpos);
	free(ps->pos_func);
	free(ps->pos_line);
	free(ps->self_frame);
	free(ps->self);
}

/* the self values per position, in node order */
static void cg_self(struct cg *c, struct cg_pos *ps)
{
	const struct pt_profile *p = c->p;
	uint32_t nt = c->nt, n, k;

	ps->self_frame = pt_xmalloc((size_t)ps->npos * sizeof(uint32_t));
	memset(ps->self_frame, 0xff, (size_t)ps->npos * sizeof(uint32_t));
	ps->self = pt_xcalloc((size_t)ps->npos * (nt ? nt : 1), sizeof(int64_t));
	for (n = 1; n < p->nnodes; n++) {
		const int64_t *v = p->node_self + (size_t)n * p->ntypes + c->t0;
		uint32_t fr = p->nodes[n].frame, pos = ps->fpos[fr];
		for (k = 0; k < nt && !v[k]; k++)
			;
		if (k == nt)
			continue;
		if (ps->self_frame[pos] == UINT32_MAX)
			ps->self_frame[pos] = fr;
		pt_add_values(ps->self + (size_t)pos * nt, v, nt);
	}
}

/* The calls: a graph whose vertices are the functions, each call from caller[frame] of
 * the frame above (ncallers of them; NULL: every frame its own). */
static void cg_graph(struct cg *c, const uint32_t *caller, uint32_t ncallers, unsigned flags,
		     struct pt_graph *g)
{
	const struct pt_profile *p = c->p;
	uint32_t nf = p->nframes ? p->nframes : 1, fr;
	uint32_t *func = pt_xmalloc((size_t)nf * sizeof(uint32_t));
	uint32_t *self = caller ? NULL : pt_xmalloc((size_t)nf * sizeof(uint32_t));
	struct pt_graph_opts o = {.vertex = func,
				  .caller = caller ? caller : self,
				  .ncallers = caller ? ncallers : nf,
				  .t = c->t0,
				  .nt = c->nt,
				  .flags = PT_GRAPH_ROOTMOST | flags};

	for (fr = 0; fr < nf; fr++) {
		func[fr] = fr ? p->frames[fr].func : 0;
		if (self)
			self[fr] = fr;
	}
	pt_graph_init(g, p->nfuncs);
	pt_graph_build(g, p, &o);
	free(func);
	free(self);
}

/* the rows of an exact tree, already in writing order: each function's self rows,
 * then its calls */
static void cg_tree_write(struct cg *c, const struct cg_pos *ps, const struct pt_graph *g,
			  FILE *out)
{
	uint32_t nt = c->nt, pos, k, i = 0;
	int64_t *sum = pt_xcalloc(nt ? nt : 1, sizeof(int64_t));

	for (pos = 0; pos < ps->npos; pos++)
		if (ps->self_frame[pos] != UINT32_MAX)
			for (k = 0; k < nt; k++)
				if (ps->self[(size_t)pos * nt + k] > 0)
					sum[k] = pt_add(sum[k], ps->self[(size_t)pos * nt + k]);
	cg_header(c, out, sum);
	pt_buf_reset(&c->b);
	pos = 0;
	for (;;) {
		uint32_t f;
		while (pos < ps->npos && ps->self_frame[pos] == UINT32_MAX)
			pos++;
		if (pos == ps->npos && i == g->nedges)
			break;
		f = pos < ps->npos ? ps->pos_func[pos] : UINT32_MAX;
		if (i < g->nedges && ps->pos_func[g->edges[i].from] < f)
			f = ps->pos_func[g->edges[i].from];
		for (; pos < ps->npos && ps->pos_func[pos] == f; pos++)
			if (ps->self_frame[pos] != UINT32_MAX)
				cg_put(c, out, f, UINT32_MAX, ps->pos_line[pos], 0,
				       ps->self + (size_t)pos * nt);
		for (; i < g->nedges && ps->pos_func[g->edges[i].from] == f; i++)
			cg_put(c, out, f, g->edges[i].to, ps->pos_line[g->edges[i].from],
			       g->edges[i].calls, pt_graph_values(g, i));
	}
	pt_buf_write_out(&c->b, out, 0);
	free(sum);
}

/* Where two lines may share a position, the rows into memory, each named by the line
 * it is first made with: a self row by the frame of its first node, a call by the frame
 * above its first call as the walk meets them (the edges of a graph of every frame its
 * own caller, in that order); then the calls' sums per position. */
static void cg_rows(struct cg *c, const struct cg_pos *ps, const struct pt_graph *g)
{
	const struct pt_profile *p = c->p;
	struct pt_graph first;
	uint32_t i, fr;

	for (i = 0; i < ps->npos; i++)
		if ((fr = ps->self_frame[i]) != UINT32_MAX)
			cg_add(c, cg_row(c, ps->pos_func[i], p->frames[fr].line, UINT32_MAX),
			       ps->self + (size_t)i * c->nt);
	cg_graph(c, NULL, 0, 0, &first);
	for (i = 0; i < first.nedges; i++) {
		fr = first.edges[i].from;
		cg_row(c, fr ? p->frames[fr].func : 0, fr ? p->frames[fr].line : 0,
		       first.edges[i].to);
	}
	pt_graph_release(&first);
	for (i = 0; i < g->nedges; i++) {
		const struct pt_graph_edge *e = &g->edges[i];
		size_t r = cg_row(c, ps->pos_func[e->from], ps->pos_line[e->from], e->to);
		cg_add(c, r, pt_graph_values(g, i));
		c->rows[r].calls += e->calls;
	}
}

/* The tree's rows: written out at once if its positions are exact (returns 1), else
 * into c's rows. */
static int cg_tree(struct cg *c, FILE *out)
{
	struct cg_pos ps;
	struct pt_graph g;
	int exact;

	cg_positions(c->p, &ps);
	cg_self(c, &ps);
	cg_graph(c, ps.fpos, ps.npos, PT_GRAPH_SORTED, &g);
	if (ps.exact)
		cg_tree_write(c, &ps, &g, out);
	else
		cg_rows(c, &ps, &g);
	exact = ps.exact;
	pt_graph_release(&g);
	cg_pos_release(&ps);
	return exact;
}

static int callgrind_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
			   struct pt_diag *d)
{
	struct cg c;
	struct pt_agg a;
	int streamed = 0, ret = 0;

	memset(&c, 0, sizeof(c));
	pt_buf_init(&c.b);
	c.p = p;
	c.t0 = o->type == PT_TYPE_ALL ? 0 : (uint32_t)o->type;
	c.nt = o->type == PT_TYPE_ALL ? p->ntypes : 1;
	c.cur = UINT32_MAX;
	c.fl_id = pt_xcalloc((size_t)p->strings.n + 1, sizeof(uint32_t));
	c.fn_id = pt_xcalloc((size_t)p->nfuncs + 1, sizeof(uint32_t));
	c.call_at = pt_xcalloc((size_t)p->nfuncs + 1, sizeof(uint32_t));
	pt_buf_init(&c.call_text);
	pt_map_init(&c.pos_index);
	pt_map_init(&c.row_index);
	if (pt_profile_has_stacks(p)) {
		streamed = cg_tree(&c, out);
	} else if (pt_aggregate(p, PT_GRAN_FUNCTIONS, &a, d) < 0) {
		ret = -1;
	} else {
		cg_from_agg(&c, &a);
		pt_agg_release(&a);
	}
	if (!streamed && !ret)
		cg_write_rows(&c, out);

	pt_map_release(&c.pos_index);
	pt_map_release(&c.row_index);
	free(c.fl_id);
	free(c.fn_id);
	free(c.call_at);
	pt_buf_release(&c.call_text);
	free(c.rows);
	free(c.vals);
	pt_buf_release(&c.b);
	return ret;
}

static const char *const callgrind_suffixes[] = {".callgrind", "callgrind.out.*", NULL};

const struct pt_format pt_format_callgrind = {
	.name = "callgrind",
	.description = "callgrind profile for kcachegrind and callgrind_annotate (write only)",
	.suffixes = callgrind_suffixes,
	.write = callgrind_write,
};
