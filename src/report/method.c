/* method.c: `proftool method`: one function in detail (stackprof --method,
 * pprof -list/-peek): self and total, callers and callees, annotated source lines.
 * Counts come from the aggregate, so they are once per stack, except for aggregate-only
 * profiles whose edges and line totals were counted per occurrence by their producer. */
#include "config.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "report/report.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

/* 1 or 0, or -1 when the regex is too costly to match (d filled) */
static int matches(const struct pt_profile *p, const struct pt_method_opts *o, uint32_t name,
		   struct pt_diag *d)
{
	const char *s = pt_s(p, name);
	size_t n = pt_intern_len(&p->strings, name);
	if (o->re)
		return pt_pattern_match(o->re, s, n, d);
	return memmem(s, n, o->pattern, strlen(o->pattern)) != NULL;
}

struct rel {
	uint32_t entry;
	int64_t value;
};

struct rel_sort {
	const struct pt_agg *a;
};

static int rel_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct rel *x = pa, *y = pb;
	const struct rel_sort *c = ctx;
	uint32_t fx = c->a->entries[x->entry].func, fy = c->a->entries[y->entry].func;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	if (fx != fy)
		return fx < fy ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* Where each entry's edges and lines are, made once per report in one pass over each
 * list (a counting sort), so that showing every function of a big profile (`method
 * --regex .`) costs the edges and lines once, not once per function. Within an entry
 * the indices keep the list's order, so the rows sort as a scan would find them. */
struct agg_index {
	uint32_t *start[3]; /* by callee, by caller, lines by entry: nentries + 1 offsets */
	uint32_t *item[3];
};

enum { BY_CALLEE, BY_CALLER, LINES };

static void index_list(uint32_t **startp, uint32_t **itemp, uint32_t nentries, uint32_t n,
		       const void *base, size_t size, size_t off)
{
	uint32_t *start = pt_xcalloc((size_t)nentries + 2, sizeof(uint32_t));
	uint32_t *item = pt_xmalloc((n ? n : 1) * sizeof(uint32_t)), i, e;

	for (i = 0; i < n; i++) {
		memcpy(&e, (const char *)base + (size_t)i * size + off, sizeof(e));
		if (e < nentries)
			start[e + 2]++;
	}
	for (e = 0; e < nentries; e++)
		start[e + 2] += start[e + 1];
	for (i = 0; i < n; i++) {
		memcpy(&e, (const char *)base + (size_t)i * size + off, sizeof(e));
		if (e < nentries)
			item[start[e + 1]++] = i;
	}
	/* start[e + 1] is now where e ends, start[e] where it begins */
	*startp = start;
	*itemp = item;
}

static void agg_index_init(struct agg_index *x, const struct pt_agg *a)
{
	index_list(&x->start[BY_CALLEE], &x->item[BY_CALLEE], a->nentries, a->nedges, a->edges,
		   sizeof(*a->edges), offsetof(struct pt_agg_edge, callee));
	index_list(&x->start[BY_CALLER], &x->item[BY_CALLER], a->nentries, a->nedges, a->edges,
		   sizeof(*a->edges), offsetof(struct pt_agg_edge, caller));
	index_list(&x->start[LINES], &x->item[LINES], a->nentries, a->nlines, a->lines,
		   sizeof(*a->lines), offsetof(struct pt_agg_line, entry));
}

static void agg_index_release(struct agg_index *x)
{
	int k;

	for (k = 0; k < 3; k++) {
		free(x->start[k]);
		free(x->item[k]);
	}
}

/* the indexes of a's items listed under entry e in index k */
static const uint32_t *indexed(const struct agg_index *x, int k, uint32_t e, uint32_t *n)
{
	*n = x->start[k][e + 1] - x->start[k][e];
	return x->item[k] + x->start[k][e];
}

/* the indexes of p->line_agg (made on first use) and of the report's aggregate */
struct method_ctx {
	struct agg_index a, line_agg;
	int line_agg_made;
};

/* callers (callee == e) or callees (caller == e) of entry e with a value of type t */
static struct rel *relatives(const struct pt_agg *a, const struct agg_index *x, uint32_t e,
			     uint32_t t, int callers, size_t *n)
{
	struct rel *v = NULL;
	size_t alloc = 0, k = 0;
	uint32_t j, ne;
	const uint32_t *its = indexed(x, callers ? BY_CALLEE : BY_CALLER, e, &ne);
	struct rel_sort c = {a};

	for (j = 0; j < ne; j++) {
		uint32_t i = its[j];
		const struct pt_agg_edge *ed = &a->edges[i];
		int64_t val = a->edge_value[(size_t)i * a->ntypes + t];
		if (!val)
			continue;
		PT_ALLOC_GROW(v, k + 1, alloc);
		v[k].entry = callers ? ed->caller : ed->callee;
		v[k].value = val;
		k++;
	}
	if (k)
		qsort_r(v, k, sizeof(*v), rel_cmp, &c);
	*n = k;
	return v;
}

struct lrow {
	int64_t line, self, total;
};

static int lrow_cmp(const void *pa, const void *pb)
{
	const struct lrow *x = pa, *y = pb;
	return x->line < y->line ? -1 : x->line > y->line;
}

static struct lrow *line_rows(const struct pt_agg *a, const struct agg_index *x, uint32_t e,
			      uint32_t t, size_t *n)
{
	struct lrow *v = NULL;
	size_t alloc = 0, k = 0;
	uint32_t j, ne;
	const uint32_t *its = indexed(x, LINES, e, &ne);

	for (j = 0; j < ne; j++) {
		uint32_t i = its[j];
		if (a->lines[i].line <= 0)
			continue;
		PT_ALLOC_GROW(v, k + 1, alloc);
		v[k].line = a->lines[i].line;
		v[k].self = a->line_self[(size_t)i * a->ntypes + t];
		v[k].total = a->line_cum[(size_t)i * a->ntypes + t];
		k++;
	}
	if (k)
		qsort(v, k, sizeof(*v), lrow_cmp);
	*n = k;
	return v;
}

/* The function's line rows from the stacks; when the stacks carry no lines for it, the
 * producer's own per-line counts (p->line_agg, totals per occurrence: *per_occ set). */
static struct lrow *method_lines(const struct pt_profile *p, const struct pt_agg *a,
				 struct method_ctx *mc, uint32_t ei, uint32_t t, size_t *n,
				 int *per_occ)
{
	struct lrow *rows = line_rows(a, &mc->a, ei, t, n);
	uint32_t le;

	*per_occ = a->edges_per_occurrence && *n;
	if (*n || !p->line_agg || !a->entries[ei].func || t >= p->line_agg->ntypes)
		return rows;
	le = pt_agg_find_func(p->line_agg, a->entries[ei].func);
	if (le == UINT32_MAX)
		return rows;
	free(rows);
	if (!mc->line_agg_made) {
		agg_index_init(&mc->line_agg, p->line_agg);
		mc->line_agg_made = 1;
	}
	rows = line_rows(p->line_agg, &mc->line_agg, le, t, n);
	*per_occ = *n > 0;
	return rows;
}

/* Open the source file: under each --source-path directory, the recorded path and then
 * ever shorter tails of it (pprof's rule); then the recorded path itself. */
static FILE *open_source(const char *path, const char *source_path)
{
	struct pt_buf b = PT_BUF_INIT;
	FILE *fp = NULL;
	const char *dir = source_path;

	while (dir && *dir && !fp) {
		const char *end = strchr(dir, ':'), *tail = path;
		size_t dlen = end ? (size_t)(end - dir) : strlen(dir);
		while (tail && !fp) {
			while (*tail == '/')
				tail++;
			if (!*tail)
				break;
			pt_buf_reset(&b);
			pt_buf_add(&b, dir, dlen);
			pt_buf_addch(&b, '/');
			pt_buf_addstr(&b, tail);
			fp = fopen(b.buf, "r");
			tail = strchr(tail, '/');
		}
		dir = end ? end + 1 : NULL;
	}
	if (!fp && *path)
		fp = fopen(path, "r");
	pt_buf_release(&b);
	return fp;
}

static void pct_text(char *buf, size_t n, const char *fmt, int64_t v, int64_t total)
{
	snprintf(buf, n, fmt, pt_pct(v, total));
}

static void add_value(struct pt_buf *b, const struct pt_profile *p, uint32_t t, int64_t v,
		      int width)
{
	struct pt_buf s = PT_BUF_INIT;
	pt_buf_add_scaled(&s, p, t, v);
	pt_buf_addf(b, "%*s", width, s.buf);
	pt_buf_release(&s);
}

static void code_line(struct pt_buf *b, const struct pt_profile *p, uint32_t t, int64_t total,
		      const struct lrow *r, int64_t n, const char *code)
{
	char p1[32], p2[32];

	if (r && r->self) {
		pct_text(p1, sizeof(p1), "(%2.1f%%)", r->total, total);
		pct_text(p2, sizeof(p2), "(%2.1f%%)", r->self, total);
		add_value(b, p, t, r->total, 5);
		pt_buf_addf(b, "  %8s / ", p1);
		add_value(b, p, t, r->self, 5);
		pt_buf_addf(b, "  %7s  | %5" PRId64 "  | ", p2, n);
	} else if (r) {
		pct_text(p1, sizeof(p1), "(%3.1f%%)", r->total, total);
		add_value(b, p, t, r->total, 5);
		pt_buf_addf(b, "  %8s                   | %5" PRId64 "  | ", p1, n);
	} else {
		pt_buf_addf(b, "%34s| %5" PRId64 "  | ", "", n);
	}
	pt_buf_addstr(b, code);
	if (!b->len || b->buf[b->len - 1] != '\n')
		pt_buf_addch(b, '\n');
}

static void method_code(struct pt_buf *b, const struct pt_profile *p, const struct pt_agg *a,
			const struct pt_method_opts *o, const struct pt_agg_entry *e,
			const struct lrow *rows, size_t nrows)
{
	int64_t total = a->total[o->type], first, last, n = 0;
	FILE *fp = e->file ? open_source(pt_s(p, e->file), o->source_path) : NULL;
	char *line = NULL;
	size_t cap = 0, k = 0;

	/* pprof -list's range: the function's first line (or context lines before its first
	 * sampled line when the profile does not say where it starts) to context lines past
	 * its last; with a context of 1, stackprof's */
	first = e->line > 0 ? e->line : nrows ? rows[0].line - o->context : 1;
	if (nrows && rows[0].line < first)
		first = rows[0].line;
	last = nrows ? rows[nrows - 1].line + o->context : first + 5;
	if (!fp) {
		/* a file we could not open (not stackprof's "<cfunc>"): say where to look */
		const char *f = e->file ? pt_s(p, e->file) : "";
		pt_buf_addstr(b, *f && *f != '<'
					 ? "        SOURCE UNAVAILABLE (use --source-path DIR)\n"
					 : "        SOURCE UNAVAILABLE\n");
		for (k = 0; k < nrows; k++)
			code_line(b, p, o->type, total, &rows[k], rows[k].line, "");
		return;
	}
	while (getline(&line, &cap, fp) > 0 && ++n <= last) {
		if (n < first)
			continue;
		while (k < nrows && rows[k].line < n)
			k++;
		code_line(b, p, o->type, total, k < nrows && rows[k].line == n ? &rows[k] : NULL, n,
			  line);
	}
	free(line);
	fclose(fp);
}

static void method_text(const struct pt_profile *p, const struct pt_agg *a, struct method_ctx *mc,
			const struct pt_method_opts *o, uint32_t ei, FILE *out)
{
	const struct pt_agg_entry *e = &a->entries[ei];
	struct pt_buf b = PT_BUF_INIT;
	uint32_t w = a->ntypes, t = o->type;
	int64_t self = a->flat[(size_t)ei * w + t], cum = a->cum[(size_t)ei * w + t];
	int64_t total = a->total[t];
	const char *occ = a->edges_per_occurrence ? " (counted per occurrence: no stacks)" : "";
	struct rel *v;
	struct lrow *rows;
	size_t n, k, nrows;
	int pass, per_occ;
	char pc[32];

	pt_report_entry_label(&b, p, e);
	pt_buf_addf(&b, "\n  %s: ", pt_s(p, p->types[t].name));
	add_value(&b, p, t, self, 5);
	pct_text(pc, sizeof(pc), "%2.1f%%", self, total);
	pt_buf_addf(&b, " self (%s)  /  ", pc);
	add_value(&b, p, t, cum, 5);
	pct_text(pc, sizeof(pc), "%2.1f%%", cum, total);
	pt_buf_addf(&b, " total (%s)\n", pc);
	for (pass = 0; pass < 2; pass++) {
		v = relatives(a, &mc->a, ei, t, pass == 0, &n);
		if (n)
			pt_buf_addf(&b, "  %s%s:\n", pass == 0 ? "callers" : "callees", occ);
		for (k = 0; k < n; k++) {
			const struct pt_agg_entry *r = &a->entries[v[k].entry];
			pct_text(pc, sizeof(pc), "%3.1f%%", v[k].value, cum);
			pt_buf_addstr(&b, "   ");
			add_value(&b, p, t, v[k].value, 5);
			pt_buf_addf(&b, "  (%8s)  ", pc);
			pt_buf_add_printable(&b, pt_s(p, r->name),
					     pt_intern_len(&p->strings, r->name));
			pt_buf_addch(&b, '\n');
		}
		free(v);
	}
	rows = method_lines(p, a, mc, ei, t, &nrows, &per_occ);
	pt_buf_addf(&b, "  code%s:\n", per_occ ? " (line totals counted per occurrence)" : "");
	method_code(&b, p, a, o, e, rows, nrows);
	free(rows);
	fwrite(b.buf, 1, b.len, out);
	pt_buf_release(&b);
}

static void method_json(yajl_gen g, const struct pt_profile *p, const struct pt_agg *a,
			struct method_ctx *mc, const struct pt_method_opts *o, uint32_t ei)
{
	uint32_t w = a->ntypes, t = o->type, dec = p->types[t].decimals;
	struct rel *v;
	struct lrow *rows;
	size_t n, k, nlines;
	int pass, per_occ;

	pt_yajl()->gen_map_open(g);
	pt_json_entry(g, p, &a->entries[ei]);
	pt_json_cstr(g, "self");
	pt_json_raw(g, a->flat[(size_t)ei * w + t], dec);
	pt_json_cstr(g, "total");
	pt_json_raw(g, a->cum[(size_t)ei * w + t], dec);
	pt_json_key_bool(g, "per_occurrence", a->edges_per_occurrence);
	rows = method_lines(p, a, mc, ei, t, &nlines, &per_occ);
	pt_json_key_bool(g, "lines_per_occurrence", per_occ);
	for (pass = 0; pass < 2; pass++) {
		v = relatives(a, &mc->a, ei, t, pass == 0, &n);
		pt_json_cstr(g, pass == 0 ? "callers" : "callees");
		pt_yajl()->gen_array_open(g);
		for (k = 0; k < n; k++) {
			pt_yajl()->gen_map_open(g);
			pt_json_entry(g, p, &a->entries[v[k].entry]);
			pt_json_cstr(g, "value");
			pt_json_raw(g, v[k].value, dec);
			pt_yajl()->gen_map_close(g);
		}
		pt_yajl()->gen_array_close(g);
		free(v);
	}
	pt_json_cstr(g, "lines");
	pt_yajl()->gen_array_open(g);
	for (k = 0; k < nlines; k++) {
		pt_yajl()->gen_map_open(g);
		pt_json_key_int(g, "line", rows[k].line);
		pt_json_cstr(g, "self");
		pt_json_raw(g, rows[k].self, dec);
		pt_json_cstr(g, "total");
		pt_json_raw(g, rows[k].total, dec);
		pt_yajl()->gen_map_close(g);
	}
	pt_yajl()->gen_array_close(g);
	free(rows);
	pt_yajl()->gen_map_close(g);
}

int pt_report_method(const struct pt_profile *p, const struct pt_agg *a,
		     const struct pt_method_opts *o, FILE *out, struct pt_diag *d)
{
	uint32_t n, i, *idx, found = 0;
	yajl_gen g = NULL;
	struct method_ctx mc;
	uint8_t *hit;

	idx = pt_report_sorted_by_appearance(a, o->type, 0, &n);
	hit = pt_xmalloc(n ? n : 1);
	for (i = 0; i < n; i++) {
		int h = matches(p, o, a->entries[idx[i]].name, d);
		if (h < 0) {
			free(hit);
			free(idx);
			return -1;
		}
		hit[i] = (uint8_t)h;
		found += (uint32_t)h;
	}
	if (!found) {
		free(hit);
		free(idx);
		return pt_diag_error(d, "no function matches '%s'", o->pattern);
	}
	memset(&mc, 0, sizeof(mc));
	agg_index_init(&mc.a, a);
	if (o->format == PT_FMT_JSON) {
		g = pt_json_gen(out);
		pt_yajl()->gen_array_open(g);
	}
	for (i = 0; i < n; i++) {
		if (!hit[i])
			continue;
		if (g)
			method_json(g, p, a, &mc, o, idx[i]);
		else
			method_text(p, a, &mc, o, idx[i], out);
	}
	if (g) {
		pt_yajl()->gen_array_close(g);
		pt_json_done(g, out);
	}
	agg_index_release(&mc.a);
	if (mc.line_agg_made)
		agg_index_release(&mc.line_agg);
	free(hit);
	free(idx);
	return 0;
}
