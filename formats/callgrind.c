/* callgrind.c: the callgrind profile format (kcachegrind, callgrind_annotate), write only.
 * One event per sample type; a function is fl=/fn= (name-compressed), its self cost is
 * given per source line, and its calls as cfl=/cfn=/calls= followed by the inclusive
 * cost of the call. See formats/callgrind.md for the mapping. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "buf.h"
#include "format.h"
#include "map.h"
#include "text.h"
#include "xalloc.h"

/* A cost row: (function, line) for self costs, or (caller function, call line, callee
 * function) for calls. The synthetic caller of root frames is function id 0. */
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
	struct pt_buf b;
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

/* the row for (func, line, callee) at position pos, created empty if new */
static size_t cg_row_at(struct cg *c, uint32_t pos, uint32_t func, int64_t line, uint32_t callee)
{
	uint32_t *rs = pt_map_put(&c->row_index, (uint64_t)pos << 32 | callee);
	size_t id;

	if (*rs != PT_MAP_NEW)
		return *rs;
	id = c->nrows;
	if (id + 1 > c->rows_alloc) {
		size_t old = c->rows_alloc;
		PT_ALLOC_GROW(c->rows, id + 1, c->rows_alloc);
		c->vals = pt_xreallocarray(c->vals, c->rows_alloc, c->nt * sizeof(int64_t));
		memset(c->vals + old * c->nt, 0, (c->rows_alloc - old) * c->nt * sizeof(int64_t));
	}
	c->rows[id].func = func;
	c->rows[id].callee = callee;
	c->rows[id].line = line;
	c->rows[id].calls = 0;
	c->nrows++;
	*rs = (uint32_t)id;
	return id;
}

static size_t cg_row(struct cg *c, uint32_t func, int64_t line, uint32_t callee)
{
	return cg_row_at(c, cg_pos(c, func, line), func, line, callee);
}

/* a frame's position, looked up once per frame */
static uint32_t cg_frame_pos(struct cg *c, uint32_t *pos_of_frame, uint32_t frame)
{
	const struct pt_frame *f = &c->p->frames[frame];
	if (!pos_of_frame[frame])
		pos_of_frame[frame] = cg_pos(c, frame ? f->func : 0, frame ? f->line : 0) + 1;
	return pos_of_frame[frame] - 1;
}

static int cg_add(struct cg *c, size_t row, const int64_t *v)
{
	uint32_t t;
	int any = 0;
	for (t = 0; t < c->nt; t++) {
		c->vals[row * c->nt + t] = pt_add(c->vals[row * c->nt + t], v[c->t0 + t]);
		any |= v[c->t0 + t] != 0;
	}
	return any;
}

/* Self costs from every node; call costs from each node that is the rootmost occurrence
 * of its function on its path, charged to (parent's function, parent's line). So the
 * calls into a function add up to its cumulative value counted once per stack, which is
 * what callgrind_annotate --inclusive and kcachegrind show as its inclusive cost.
 * Root frames get the synthetic caller (function 0, written as "(root)"). */
#define CACHE_N 4096

struct row_cache {
	uint32_t frame, func, row;
};

static void cg_from_tree(struct cg *c)
{
	const struct pt_profile *p = c->p;
	uint32_t w = p->ntypes, n, *active, *pos_of_frame;
	int64_t *ncum;
	struct row_cache *cache = pt_xmalloc(CACHE_N * sizeof(*cache));

	ncum = pt_xmalloc((size_t)(p->nnodes ? p->nnodes : 1) * (w ? w : 1) * sizeof(int64_t));
	memcpy(ncum, p->node_self, (size_t)p->nnodes * w * sizeof(int64_t));
	for (n = p->nnodes; n-- > 1;) {
		int64_t *dst = ncum + (size_t)p->nodes[n].parent * w, *src = ncum + (size_t)n * w;
		uint32_t t;
		for (t = 0; t < w; t++)
			dst[t] = pt_add(dst[t], src[t]);
	}
	pos_of_frame = pt_xcalloc((size_t)p->nframes + 1, sizeof(uint32_t));
	for (n = 1; n < p->nnodes; n++) {
		uint32_t fr = p->nodes[n].frame;
		const struct pt_frame *f = &p->frames[fr];
		const int64_t *v = p->node_self + (size_t)n * w;
		uint32_t t;
		for (t = 0; t < c->nt; t++)
			if (v[c->t0 + t])
				break;
		if (t < c->nt)
			cg_add(c,
			       cg_row_at(c, cg_frame_pos(c, pos_of_frame, fr), f->func, f->line,
					 UINT32_MAX),
			       v);
	}

	active = pt_xcalloc(p->nfuncs + 1, sizeof(uint32_t));
	memset(cache, 0xff, CACHE_N * sizeof(*cache));
	n = p->nodes[0].first_child;
	while (n) {
		uint32_t func = pt_frame_of(p, n)->func;
		if (!active[func]++) {
			uint32_t par = p->nodes[n].parent;
			/* the row is a function of (caller's frame, callee): a small
			 * direct-mapped cache spares most of cg_row's two hash lookups */
			uint32_t pfr = par ? p->nodes[par].frame : 0;
			struct row_cache *rc = &cache[(pfr * 0x9e3779b1u ^ func) & (CACHE_N - 1)];
			size_t row;
			if (rc->frame == pfr && rc->func == func) {
				row = rc->row;
			} else {
				uint32_t pf = par ? pt_frame_of(p, par)->func : 0;
				int64_t pl = par ? pt_frame_of(p, par)->line : 0;
				row = cg_row_at(c, cg_frame_pos(c, pos_of_frame, pfr), pf, pl,
						func);
				*rc = (struct row_cache){pfr, func, (uint32_t)row};
			}
			cg_add(c, row, ncum + (size_t)n * w);
			c->rows[row].calls++;
		}
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		while (n) {
			active[pt_frame_of(p, n)->func]--;
			if (p->nodes[n].next_sibling) {
				n = p->nodes[n].next_sibling;
				break;
			}
			n = p->nodes[n].parent;
		}
	}
	free(active);
	free(pos_of_frame);
	free(ncum);
	free(cache);
}

/* An aggregate-only profile (no stacks): self per line and the reader's edges, which
 * count every occurrence; the entries are functions. */
static void cg_from_agg(struct cg *c, const struct pt_agg *a)
{
	uint32_t i, w = a->ntypes;
	int64_t *rest = pt_xmalloc((size_t)(a->nentries ? a->nentries : 1) * w * sizeof(int64_t));

	memcpy(rest, a->flat, (size_t)a->nentries * w * sizeof(int64_t));
	for (i = 0; i < a->nlines; i++) {
		uint32_t e = a->lines[i].entry, t;
		cg_add(c, cg_row(c, a->entries[e].func, a->lines[i].line, UINT32_MAX),
		       a->line_self + (size_t)i * w);
		for (t = 0; t < w; t++)
			rest[(size_t)e * w + t] -= a->line_self[(size_t)i * w + t];
	}
	for (i = 0; i < a->nentries; i++) {
		uint32_t t;
		for (t = 0; t < c->nt; t++)
			if (rest[(size_t)i * w + c->t0 + t])
				break;
		if (t < c->nt)
			cg_add(c, cg_row(c, a->entries[i].func, a->entries[i].line, UINT32_MAX),
			       rest + (size_t)i * w);
	}
	for (i = 0; i < a->nedges; i++) {
		const struct pt_agg_entry *from = &a->entries[a->edges[i].caller];
		const struct pt_agg_entry *to = &a->entries[a->edges[i].callee];
		size_t row = cg_row(c, from->func, from->line, to->func);
		cg_add(c, row, a->edge_value + (size_t)i * w);
		c->rows[row].calls = 1;
	}
	free(rest);
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

static int callgrind_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
			   struct pt_diag *d)
{
	struct cg c;
	struct pt_agg a;
	struct crow *sorted;
	int64_t *svals, *sum;
	size_t i, k, n, *start;
	uint32_t t, f, cur = UINT32_MAX;

	memset(&c, 0, sizeof(c));
	pt_buf_init(&c.b);
	c.p = p;
	c.t0 = o->type == PT_TYPE_ALL ? 0 : (uint32_t)o->type;
	c.nt = o->type == PT_TYPE_ALL ? p->ntypes : 1;
	pt_map_init(&c.pos_index);
	pt_map_init(&c.row_index);
	if (pt_profile_has_stacks(p)) {
		cg_from_tree(&c);
	} else {
		if (pt_aggregate(p, PT_GRAN_FUNCTIONS, &a, d) < 0) {
			pt_map_release(&c.pos_index);
			pt_map_release(&c.row_index);
			return -1;
		}
		cg_from_agg(&c, &a);
		pt_agg_release(&a);
	}
	pt_map_release(&c.pos_index);
	pt_map_release(&c.row_index);

	/* Sort the rows, and their values with them, into writing order: bucketed by
	 * function first (a counting sort), so that qsort only orders each function's few
	 * rows. */
	n = c.nrows ? c.nrows : 1;
	sorted = pt_xmalloc(n * sizeof(*sorted));
	svals = pt_xreallocarray(NULL, n, (c.nt ? c.nt : 1) * sizeof(int64_t));
	start = pt_xcalloc((size_t)p->nfuncs + 2, sizeof(size_t));
	for (i = 0; i < c.nrows; i++)
		start[c.rows[i].func + 1]++;
	for (f = 0; f <= p->nfuncs; f++)
		start[f + 1] += start[f];
	for (i = 0; i < c.nrows; i++) {
		size_t at = start[c.rows[i].func]++;
		sorted[at] = c.rows[i];
		sorted[at].calls = i; /* the original index while sorting */
	}
	for (i = 0; i < c.nrows; i = k) {
		for (k = i + 1; k < c.nrows && sorted[k].func == sorted[i].func; k++)
			;
		if (k - i > 1)
			qsort(sorted + i, k - i, sizeof(*sorted), row_cmp);
	}
	free(start);
	for (i = 0; i < c.nrows; i++) {
		size_t orig = (size_t)sorted[i].calls;
		sorted[i].calls = c.rows[orig].calls;
		memcpy(svals + i * c.nt, c.vals + orig * c.nt, c.nt * sizeof(int64_t));
	}

	sum = pt_xcalloc(c.nt ? c.nt : 1, sizeof(int64_t));
	for (i = 0; i < c.nrows; i++)
		if (sorted[i].callee == UINT32_MAX)
			for (t = 0; t < c.nt; t++)
				if (svals[i * c.nt + t] > 0)
					sum[t] = pt_add(sum[t], svals[i * c.nt + t]);
	cg_header(&c, out, sum);

	c.fl_id = pt_xcalloc((size_t)p->strings.n + 1, sizeof(uint32_t));
	c.fn_id = pt_xcalloc((size_t)p->nfuncs + 1, sizeof(uint32_t));
	/* the rows go out through one buffer, in blocks, with numbers written by hand:
	 * a call costs several lines, and printf per line cost more than the rest */
	pt_buf_reset(&c.b);
	for (i = 0; i < c.nrows; i++) {
		const struct crow *r = &sorted[i];
		if (r->func != cur) {
			cur = r->func;
			pt_buf_addch(&c.b, '\n');
			cg_file(&c, &c.b, "fl", cur);
			cg_func(&c, &c.b, "fn", cur);
		}
		if (r->callee != UINT32_MAX) {
			int64_t target = p->funcs[r->callee].start_line;
			cg_file(&c, &c.b, "cfi", r->callee);
			cg_func(&c, &c.b, "cfn", r->callee);
			/* N >= 1: callgrind_annotate adds a calls=0 cost to the caller's self */
			char *q;
			pt_buf_grow(&c.b, 6 + 2 * PT_U64_DIGITS + 2);
			q = c.b.buf + c.b.len;
			memcpy(q, "calls=", 6);
			q += 6;
			q += pt_fmt_u64(q, r->calls ? r->calls : 1);
			*q++ = ' ';
			q += pt_fmt_u64(q, (uint64_t)(target > 0 ? target : 0));
			*q++ = '\n';
			pt_buf_setlen(&c.b, (size_t)(q - c.b.buf));
		}
		cg_costs(&c, &c.b, r->line, svals + i * c.nt);
		pt_buf_write_out(&c.b, out, PT_BUF_BLOCK);
	}
	pt_buf_write_out(&c.b, out, 0);

	free(c.fl_id);
	free(c.fn_id);
	free(c.rows);
	free(c.vals);
	pt_buf_release(&c.b);
	free(sum);
	free(sorted);
	free(svals);
	return 0;
}

static const char *const callgrind_suffixes[] = {".callgrind", "callgrind.out.*", NULL};

const struct pt_format pt_format_callgrind = {
	.name = "callgrind",
	.description = "callgrind profile for kcachegrind and callgrind_annotate (write only)",
	.suffixes = callgrind_suffixes,
	.write = callgrind_write,
};
