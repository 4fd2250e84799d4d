/* heap.c: `proftool heap` reports on a V8 heap snapshot: the per-constructor summary,
 * the retaining paths of the largest objects, the comparison of two snapshots. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/heapdistance.h"
#include "core/units.h"
#include "report/heap.h"
#include "report/report.h"
#include "util/csv.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/text.h"
#include "util/map.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* ---- summary ---- */

/* a size in a text report: bytes scaled as pprof scales them ("1.86MB", "0") unless
 * raw; a '+' before a positive change when sign */
static const char *size_text(struct pt_buf *b, int64_t v, int raw, int sign)
{
	pt_buf_reset(b);
	if (sign && v > 0)
		pt_buf_addch(b, '+');
	if (raw)
		pt_buf_add_i64(b, v);
	else
		pt_buf_add_bytes(b, (double)v);
	return b->buf;
}

/* "N bytes" raw, or the scaled size */
static const char *size_words(struct pt_buf *b, int64_t v, int raw, int sign)
{
	size_text(b, v, raw, sign);
	if (raw)
		pt_buf_addstr(b, " bytes");
	return b->buf;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct pt_heap_row *x = a, *y = b;
	if (x->retained != y->retained)
		return x->retained > y->retained ? -1 : 1;
	if (x->shallow != y->shallow)
		return x->shallow > y->shallow ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* "(type)" names of g's node types into s->names; name_off[t] is each one's offset */
static void type_names(const struct pt_heapgraph *g, struct pt_heap_summary *s, size_t *name_off)
{
	size_t names_len = 0;
	uint32_t i;

	for (i = 0; i < g->nnode_types; i++)
		names_len += strlen(g->node_types[i]) + 3;
	s->names = pt_xmalloc(names_len + 32);
	names_len = 0;
	for (i = 0; i < g->nnode_types; i++) {
		const char *nm = i == g->t_hidden ? "(system)"
				 : i == g->t_code ? "(compiled code)"
						  : NULL;
		name_off[i] = names_len;
		if (nm)
			names_len += (size_t)sprintf(s->names + names_len, "%s", nm) + 1;
		else
			names_len +=
				(size_t)sprintf(s->names + names_len, "(%s)", g->node_types[i]) + 1;
	}
}

/* A node's group under `by`: its key in the groups' map (distinct per group) and its
 * name, or NULL for a generation, whose name is made once its row is. */
static uint64_t group_key(const struct pt_heapgraph *g, enum pt_heap_by by, uint32_t v,
			  const struct pt_heap_summary *s, const size_t *name_off,
			  const char **name)
{
	uint32_t t = pt_heap_type(g, v), x;

	if (by == PT_HEAP_BY_SITE && g->rb_site) {
		x = g->rb_site[v];
		*name = x ? pt_heap_str(g, x) : "(no site)";
		return x;
	}
	if (by == PT_HEAP_BY_GENERATION && g->rb_gen) {
		*name = g->rb_gen[v] ? NULL : "(no generation)";
		return g->rb_gen[v];
	}
	if (t == g->t_object || t == g->t_native) {
		x = g->nodes[(size_t)v * g->nfields + g->f_name];
		*name = pt_heap_name(g, v);
		return x;
	}
	*name = s->names + name_off[t];
	return ((uint64_t)1 << 32) + t;
}

/* the rows: one per group of the nodes DevTools' Summary counts (self size > 0) that
 * keep (NULL: every node) holds, with count and shallow size; generation names made in
 * gen_names, pointed at once it stops moving */
static void group_nodes(const struct pt_heapgraph *g, enum pt_heap_by by, const uint8_t *keep,
			struct pt_heap_summary *s)
{
	uint32_t n = (uint32_t)g->nnodes, i;
	size_t alloc = 0, *name_off = pt_xcalloc((size_t)g->nnode_types + 1, sizeof(size_t));
	struct pt_buf gen_names = PT_BUF_INIT;
	struct pt_map groups;
	const char *name;

	if ((by == PT_HEAP_BY_SITE && !g->rb_site) || (by == PT_HEAP_BY_GENERATION && !g->rb_gen))
		by = PT_HEAP_BY_CLASS;
	s->what = by == PT_HEAP_BY_SITE		? "allocation sites"
		  : by == PT_HEAP_BY_GENERATION ? "generations"
		  : g->rb_addr			? "classes"
						: "constructors";
	s->leaks = keep != NULL;
	pt_map_init(&groups);
	s->node_row = pt_xmalloc((size_t)n * sizeof(uint32_t));
	type_names(g, s, name_off);
	for (i = 0; i < n; i++) {
		uint32_t self = pt_heap_self(g, i), *slot;
		uint64_t key;
		struct pt_heap_row *r;
		s->node_row[i] = PT_HEAP_NONE;
		if (keep && !keep[i])
			continue;
		s->total_count++;
		s->total_shallow += self;
		if (!self)
			continue;
		key = group_key(g, by, i, s, name_off, &name);
		slot = pt_map_put(&groups, key);
		if (*slot == PT_MAP_NEW) {
			PT_ALLOC_GROW(s->rows, s->n + 1, alloc);
			r = &s->rows[s->n];
			memset(r, 0, sizeof(*r));
			r->name = name;
			r->key = (int64_t)key;
			if (!name) { /* a generation: its offset in gen_names for now */
				r->pad = (uint32_t)gen_names.len;
				pt_buf_addf(&gen_names, "%" PRIu64, key - 1);
				pt_buf_addch(&gen_names, '\0');
			}
			r->first = i;
			*slot = (uint32_t)s->n++;
		}
		r = &s->rows[*slot];
		r->count++;
		r->shallow += self;
		s->node_row[i] = *slot;
	}
	if (gen_names.len) {
		s->gen_names = pt_buf_detach(&gen_names, NULL);
		for (i = 0; i < s->n; i++)
			if (!s->rows[i].name)
				s->rows[i].name = s->gen_names + s->rows[i].pad;
	}
	pt_buf_release(&gen_names);
	pt_map_release(&groups);
	free(name_off);
}

/* Each row's retained size, by the dominator tree from the root: an object adds its
 * retained size unless an object of its row dominates it (node_row: a row per node,
 * or PT_HEAP_NONE). */
static void group_retained(const struct pt_heap_dom *dom, uint32_t n, const uint32_t *node_row,
			   size_t nrows, uint64_t *retained)
{
	uint32_t *list = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *sizes = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *classes = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint8_t *seen = pt_xcalloc(nrows + 1, 1);
	size_t nlist = 0, nsizes = 0;

	list[nlist++] = 0;
	while (nlist) {
		uint32_t row, d0, d1, d, v = list[--nlist];
		row = node_row[v];
		d0 = dom->first_dominated[v];
		d1 = dom->first_dominated[v + 1];
		if (row != PT_HEAP_NONE && !seen[row]) {
			retained[row] += dom->retained[v];
			if (d0 != d1) {
				seen[row] = 1;
				sizes[nsizes] = (uint32_t)nlist;
				classes[nsizes++] = row;
			}
		}
		for (d = d0; d < d1; d++)
			list[nlist++] = dom->dominated[d];
		while (nsizes && sizes[nsizes - 1] == nlist) {
			nsizes--;
			seen[classes[nsizes]] = 0;
		}
	}
	free(list);
	free(sizes);
	free(classes);
	free(seen);
}

void pt_heap_summarize_by(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			  enum pt_heap_by by, const uint8_t *keep, struct pt_heap_summary *s)
{
	uint32_t n = (uint32_t)g->nnodes, i, *order;
	uint64_t *retained;

	memset(s, 0, sizeof(*s));
	group_nodes(g, by, keep, s);
	retained = pt_xcalloc(s->n + 1, sizeof(uint64_t));
	group_retained(dom, n, s->node_row, s->n, retained);
	for (i = 0; i < s->n; i++)
		s->rows[i].retained = retained[i];
	if (!keep) {
		s->total_retained = dom->retained[0];
	} else { /* what the kept objects retain together: all of them one row */
		uint32_t *one = pt_xmalloc(((size_t)n + 1) * sizeof(uint32_t));
		uint64_t total = 0;
		for (i = 0; i < n; i++)
			one[i] = s->node_row[i] == PT_HEAP_NONE ? PT_HEAP_NONE : 0;
		group_retained(dom, n, one, 1, &total);
		s->total_retained = total;
		free(one);
	}
	free(retained);

	/* sort, then point node_row at the sorted rows */
	order = pt_xmalloc((s->n + 1) * sizeof(uint32_t));
	for (i = 0; i < s->n; i++)
		s->rows[i].pad = i;
	pt_qsort(s->rows, s->n, sizeof(*s->rows), cmp_rows);
	for (i = 0; i < s->n; i++)
		order[s->rows[i].pad] = i;
	for (i = 0; i < n; i++)
		if (s->node_row[i] != PT_HEAP_NONE)
			s->node_row[i] = order[s->node_row[i]];
	free(order);
}

void pt_heap_summarize(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
		       struct pt_heap_summary *s)
{
	pt_heap_summarize_by(g, dom, PT_HEAP_BY_CLASS, NULL, s);
}

void pt_heap_summary_release(struct pt_heap_summary *s)
{
	free(s->rows);
	free(s->names);
	free(s->gen_names);
	free(s->node_row);
	memset(s, 0, sizeof(*s));
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* the name as one printable line: control bytes as '?' (names are the program's
 * strings and may hold anything) */
static void add_name(struct pt_buf *b, const char *s, size_t max)
{
	size_t i;
	for (i = 0; s[i] && i < max; i++)
		pt_buf_addch(b, (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
	if (s[i])
		pt_buf_addstr(b, "...");
}

/* a table's last column: what a row is, in the singular */
static const char *row_name(const char *what)
{
	return !strcmp(what, "classes")		   ? "class"
	       : !strcmp(what, "allocation sites") ? "site"
	       : !strcmp(what, "generations")	   ? "generation"
						   : "constructor";
}

int pt_report_heap(const struct pt_heap_summary *s, const char *path, long limit,
		   enum pt_report_format format, int raw_bytes, FILE *out)
{
	size_t i, n = pt_report_shown(limit, s->n);

	if (format == PT_FMT_JSON) {
		yajl_gen g = pt_json_gen(out);
		pt_yajl()->gen_map_open(g);
		pt_json_key_str(g, "file", path);
		pt_json_key_str(g, "rows_are", s->what);
		if (s->leaks) {
			pt_json_key_bool(g, "leaks", 1);
		}
		pt_json_key_int(g, "total_count", (int64_t)s->total_count);
		pt_json_key_int(g, "total_shallow", (int64_t)s->total_shallow);
		pt_json_key_int(g, "total_retained", (int64_t)s->total_retained);
		pt_json_key_int(g, "classes", (int64_t)s->n);
		pt_json_cstr(g, "rows");
		pt_yajl()->gen_array_open(g);
		for (i = 0; i < n; i++) {
			const struct pt_heap_row *r = &s->rows[i];
			pt_yajl()->gen_map_open(g);
			pt_json_key_str(g, "name", r->name);
			pt_json_key_int(g, "count", (int64_t)r->count);
			pt_json_key_int(g, "shallow", (int64_t)r->shallow);
			pt_json_key_int(g, "retained", (int64_t)r->retained);
			pt_yajl()->gen_map_close(g);
		}
		pt_yajl()->gen_array_close(g);
		pt_yajl()->gen_map_close(g);
		pt_json_done(g, out);
		return 0;
	}
	if (format == PT_FMT_CSV) {
		const struct pt_csv *csv = pt_csv();

		fputs("name,count,shallow,retained\n", out);
		for (i = 0; i < n; i++) {
			const struct pt_heap_row *r = &s->rows[i];
			csv->fwrite_field(out, r->name, strlen(r->name));
			fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->count, r->shallow,
				r->retained);
		}
		return 0;
	}
	{
		struct pt_buf b = PT_BUF_INIT, z1 = PT_BUF_INIT, z2 = PT_BUF_INIT;
		fprintf(out, "File: %s\n", path);
		size_words(&z1, (int64_t)s->total_shallow, raw_bytes, 0);
		size_words(&z2, (int64_t)s->total_retained, raw_bytes, 0);
		if (s->leaks)
			fprintf(out,
				"Leaked: %" PRIu64 " objects (allocated after the first snapshot, "
				"alive in every one since), shallow size %s, retained %s\n",
				s->total_count, z1.buf, z2.buf);
		else
			fprintf(out, "Objects: %" PRIu64 ", shallow size %s, reachable %s\n",
				s->total_count, z1.buf, z2.buf);
		fprintf(out, "Showing %zu of %zu %s, sorted by retained size\n", n, s->n, s->what);
		fprintf(out, "%14s %7s %14s %7s %10s  %s\n", "retained", "ret%", "shallow", "shal%",
			"count", row_name(s->what));
		for (i = 0; i < n; i++) {
			const struct pt_heap_row *r = &s->rows[i];
			pt_buf_reset(&b);
			add_name(&b, r->name, 200);
			fprintf(out, "%14s %6.2f%% ",
				size_text(&z1, (int64_t)r->retained, raw_bytes, 0),
				pct(r->retained, s->total_retained));
			fprintf(out, "%14s %6.2f%% %10" PRIu64 "  %s\n",
				size_text(&z2, (int64_t)r->shallow, raw_bytes, 0),
				pct(r->shallow, s->total_retained), r->count, b.buf);
		}
		pt_buf_release(&b);
		pt_buf_release(&z1);
		pt_buf_release(&z2);
	}
	return 0;
}

/* ---- retainers ---- */

/* how an edge reads in a path: ".name", "[index]", "{context var}", ... */
static void add_edge(struct pt_buf *b, const struct pt_heapgraph *g, size_t e)
{
	uint32_t t = pt_heap_edge_type(g, e), nm = pt_heap_edge_name(g, e);
	char num[24];

	if (!pt_heap_edge_named(g, e)) {
		snprintf(num, sizeof(num), "%" PRIu32, nm);
		pt_buf_addstr(b, t == g->et_element ? "[" : "<hidden ");
		pt_buf_addstr(b, num);
		pt_buf_addstr(b, t == g->et_element ? "]" : ">");
		return;
	}
	if (t == g->et_context)
		pt_buf_addstr(b, "{context} ");
	else if (t == g->et_internal)
		pt_buf_addstr(b, "{internal} ");
	else if (t == g->et_shortcut)
		pt_buf_addstr(b, "{shortcut} ");
	else if (t == g->et_property)
		pt_buf_addch(b, '.');
	else {
		pt_buf_addch(b, '{');
		pt_buf_addstr(b, g->edge_types[t]);
		pt_buf_addstr(b, "} ");
	}
	add_name(b, pt_heap_str(g, nm), 80);
}

static void add_node(struct pt_buf *b, const struct pt_heapgraph *g,
		     const struct pt_heap_summary *s, uint32_t v)
{
	char tmp[64];
	int64_t key;
	const char *cls = s->node_row[v] != PT_HEAP_NONE
				  ? s->rows[s->node_row[v]].name
				  : pt_heap_class(g, v, tmp, sizeof(tmp), &key);
	char id[24];
	if (g->rb_addr) { /* Ruby: the class, the address, the allocation site */
		add_name(b, pt_heap_class(g, v, tmp, sizeof(tmp), &key), 80);
		snprintf(id, sizeof(id), " 0x%" PRIx64, g->rb_addr[v]);
		pt_buf_addstr(b, id);
		if (g->rb_site && g->rb_site[v]) {
			pt_buf_addstr(b, " (");
			add_name(b, pt_heap_str(g, g->rb_site[v]), 200);
			pt_buf_addch(b, ')');
		}
		return;
	}
	add_name(b, cls, 80);
	snprintf(id, sizeof(id), " @%" PRIu32, pt_heap_id(g, v));
	pt_buf_addstr(b, id);
}

struct cand {
	uint64_t retained;
	uint32_t node, pad;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->retained != y->retained)
		return x->retained > y->retained ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

int pt_report_heap_retainers(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			     const struct pt_heap_summary *s, struct pt_pattern *re, long limit,
			     enum pt_report_format format, int raw_bytes, FILE *out,
			     struct pt_diag *d)
{
	uint32_t n = (uint32_t)g->nnodes, v, *via, *from, *path;
	uint8_t *match = pt_xcalloc(s->n + 1, 1);
	struct cand *c = NULL;
	size_t nc = 0, calloc_n = 0, i;
	struct pt_buf b = PT_BUF_INIT;
	yajl_gen jg = NULL;
	int any = 0;

	for (i = 0; i < s->n; i++) {
		int m = pt_pattern_match(re, s->rows[i].name, strlen(s->rows[i].name), d);
		if (m < 0) {
			free(match);
			return -1;
		}
		if (m)
			match[i] = any = 1;
	}
	if (!any) {
		free(match);
		return pt_diag_error(d, "no constructor matches the --retainers pattern");
	}
	for (v = 0; v < n; v++)
		if (s->node_row[v] != PT_HEAP_NONE && match[s->node_row[v]]) {
			PT_ALLOC_GROW(c, nc + 1, calloc_n);
			c[nc].retained = dom->retained[v];
			c[nc].node = v;
			c[nc++].pad = 0;
		}
	pt_qsort(c, nc, sizeof(*c), cmp_cand);
	nc = pt_report_shown(limit, nc);

	/* DevTools' distances: via[v] = the edge v was first reached over, from[v] its
	 * source */
	via = pt_xmalloc((size_t)n * sizeof(uint32_t));
	from = pt_xmalloc((size_t)n * sizeof(uint32_t));
	path = pt_xmalloc((size_t)n * sizeof(uint32_t));
	pt_heap_reach(g, via, from);
	if (format == PT_FMT_JSON) {
		jg = pt_json_gen(out);
		pt_yajl()->gen_array_open(jg);
	}
	for (i = 0; i < nc; i++) {
		uint32_t npath = 0, w = c[i].node, k;
		/* walk back from the object to the root */
		while (w != 0 && via[w] != PT_HEAP_NONE) {
			path[npath++] = via[w];
			w = from[w];
		}
		pt_buf_reset(&b);
		add_node(&b, g, s, c[i].node);
		if (jg) {
			pt_yajl()->gen_map_open(jg);
			pt_json_cstr(jg, "object");
			pt_json_strn(jg, b.buf, b.len);
			pt_json_key_int(jg, "id", pt_heap_id(g, c[i].node));
			pt_json_key_int(jg, "retained", (int64_t)c[i].retained);
			pt_json_key_int(jg, "shallow", pt_heap_self(g, c[i].node));
			pt_json_key_bool(jg, "reachable", w == 0);
			pt_json_cstr(jg, "path");
			pt_yajl()->gen_array_open(jg);
		} else {
			struct pt_buf z1 = PT_BUF_INIT, z2 = PT_BUF_INIT;
			fprintf(out, "%s  retained %s, shallow %s\n", b.buf,
				size_words(&z1, (int64_t)c[i].retained, raw_bytes, 0),
				size_words(&z2, (int64_t)pt_heap_self(g, c[i].node), raw_bytes, 0));
			pt_buf_release(&z1);
			pt_buf_release(&z2);
			if (w != 0)
				fprintf(out,
					"  (not reachable from the root without weak edges)\n");
			else
				fprintf(out, "  (root)\n");
		}
		for (k = npath; k-- > 0;) {
			uint32_t e = path[k];
			pt_buf_reset(&b);
			add_edge(&b, g, e);
			pt_buf_addstr(&b, " -> ");
			add_node(&b, g, s, pt_heap_edge_to(g, e));
			if (jg)
				pt_json_strn(jg, b.buf, b.len);
			else
				fprintf(out, "  %s\n", b.buf);
		}
		if (jg) {
			pt_yajl()->gen_array_close(jg);
			pt_yajl()->gen_map_close(jg);
		} else if (i + 1 < nc) {
			fputc('\n', out);
		}
	}
	if (jg) {
		pt_yajl()->gen_array_close(jg);
		pt_json_done(jg, out);
	}
	pt_buf_release(&b);
	free(path);
	free(from);
	free(via);
	free(c);
	free(match);
	return 0;
}

/* ---- comparison ---- */

struct dobj {
	const char *cls;
	uint64_t id; /* V8: the node id; Ruby: the address */
	uint32_t self, pad;
};

static int cmp_dobj(const void *a, const void *b)
{
	const struct dobj *x = a, *y = b;
	int c = strcmp(x->cls, y->cls);
	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* the objects DevTools' Summary counts, with their group names (in s), sorted */
static struct dobj *diff_objects(const struct pt_heapgraph *g, enum pt_heap_by by,
				 struct pt_heap_summary *s, size_t *n)
{
	struct dobj *v = pt_xmalloc((g->nnodes + 1) * sizeof(*v));
	size_t k = 0;
	uint32_t i;

	memset(s, 0, sizeof(*s));
	group_nodes(g, by, NULL, s);
	for (i = 0; i < g->nnodes; i++) {
		if (s->node_row[i] == PT_HEAP_NONE)
			continue;
		v[k].cls = s->rows[s->node_row[i]].name;
		v[k].id = g->rb_addr ? g->rb_addr[i] : pt_heap_id(g, i);
		v[k].pad = 0;
		v[k++].self = pt_heap_self(g, i);
	}
	pt_qsort(v, k, sizeof(*v), cmp_dobj);
	*n = k;
	return v;
}

static int cmp_drow(const void *a, const void *b)
{
	const struct pt_heap_diff_row *x = a, *y = b;
	if (x->size_delta != y->size_delta)
		return x->size_delta > y->size_delta ? -1 : 1;
	return strcmp(x->name, y->name);
}

void pt_heap_diff_by(const struct pt_heapgraph *base, const struct pt_heapgraph *cur,
		     enum pt_heap_by by, int64_t fail_bytes, double fail_pct,
		     struct pt_heap_diff *df)
{
	size_t nb, ncur, i = 0, j = 0, alloc = 0;
	struct dobj *b, *c;

	memset(df, 0, sizeof(*df));
	b = diff_objects(base, by, &df->base_s, &nb);
	c = diff_objects(cur, by, &df->cur_s, &ncur);
	df->what = df->cur_s.what;
	while (i < nb || j < ncur) {
		const char *cls = i < nb && (j == ncur || strcmp(b[i].cls, c[j].cls) <= 0)
					  ? b[i].cls
					  : c[j].cls;
		struct pt_heap_diff_row r;
		memset(&r, 0, sizeof(r));
		r.name = cls;
		while (i < nb || j < ncur) {
			int in_b = i < nb && !strcmp(b[i].cls, cls);
			int in_c = j < ncur && !strcmp(c[j].cls, cls);
			if (!in_b && !in_c)
				break;
			if (in_b && (!in_c || b[i].id < c[j].id)) {
				r.deleted++;
				r.deleted_size += b[i].self;
				r.base_size += b[i++].self;
			} else if (in_c && (!in_b || c[j].id < b[i].id)) {
				r.added++;
				r.added_size += c[j++].self;
			} else {
				r.base_size += b[i].self;
				i++;
				j++;
			}
		}
		r.size_delta = (int64_t)r.added_size - (int64_t)r.deleted_size;
		if (!r.added && !r.deleted)
			continue;
		if ((fail_bytes >= 0 && r.size_delta > fail_bytes) ||
		    (fail_pct >= 0 && r.size_delta > 0 &&
		     (double)r.size_delta > fail_pct / 100.0 * (double)r.base_size))
			r.over = df->grew_over = 1;
		df->total_delta += r.size_delta;
		PT_ALLOC_GROW(df->rows, df->n + 1, alloc);
		df->rows[df->n++] = r;
	}
	pt_qsort(df->rows, df->n, sizeof(*df->rows), cmp_drow);
	free(b);
	free(c);
}

void pt_heap_diff_release(struct pt_heap_diff *df)
{
	free(df->rows);
	pt_heap_summary_release(&df->base_s);
	pt_heap_summary_release(&df->cur_s);
	memset(df, 0, sizeof(*df));
}

void pt_heap_diff_offender(struct pt_buf *b, const struct pt_heap_diff_row *r)
{
	pt_buf_add_printable(b, r->name, strlen(r->name));
	pt_buf_addf(b, ": %+" PRId64 " bytes (%" PRIu64 " -> %" PRId64 " bytes)", r->size_delta,
		    r->base_size, (int64_t)r->base_size + r->size_delta);
}

static void diff_json(const struct pt_heap_diff *df, size_t shown, FILE *out)
{
	yajl_gen g = pt_json_gen(out);
	size_t k;

	pt_yajl()->gen_map_open(g);
	pt_json_key_int(g, "size_delta", df->total_delta);
	pt_json_cstr(g, "rows");
	pt_yajl()->gen_array_open(g);
	for (k = 0; k < shown; k++) {
		const struct pt_heap_diff_row *r = &df->rows[k];
		pt_yajl()->gen_map_open(g);
		pt_json_key_str(g, "name", r->name);
		pt_json_key_int(g, "added", (int64_t)r->added);
		pt_json_key_int(g, "deleted", (int64_t)r->deleted);
		pt_json_key_int(g, "count_delta", (int64_t)r->added - (int64_t)r->deleted);
		pt_json_key_int(g, "added_size", (int64_t)r->added_size);
		pt_json_key_int(g, "deleted_size", (int64_t)r->deleted_size);
		pt_json_key_int(g, "size_delta", r->size_delta);
		pt_yajl()->gen_map_close(g);
	}
	pt_yajl()->gen_array_close(g);
	pt_yajl()->gen_map_close(g);
	pt_json_done(g, out);
}

int pt_report_heap_diff_rows(const struct pt_heap_diff *df, long limit,
			     enum pt_report_format format, int raw_bytes, FILE *out)
{
	size_t k, shown = pt_report_shown(limit, df->n);

	if (format == PT_FMT_JSON) {
		diff_json(df, shown, out);
	} else if (format == PT_FMT_CSV) {
		const struct pt_csv *csv = pt_csv();

		fputs("name,added,deleted,count_delta,added_size,deleted_size,size_delta\n", out);
		for (k = 0; k < shown; k++) {
			const struct pt_heap_diff_row *r = &df->rows[k];
			csv->fwrite_field(out, r->name, strlen(r->name));
			fprintf(out,
				",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64
				",%" PRId64 "\n",
				r->added, r->deleted, (int64_t)r->added - (int64_t)r->deleted,
				r->added_size, r->deleted_size, r->size_delta);
		}
	} else {
		struct pt_buf nb2 = PT_BUF_INIT, z1 = PT_BUF_INIT, z2 = PT_BUF_INIT;
		fprintf(out, "Size change: %s; showing %zu of %zu changed %s\n",
			size_words(&z1, df->total_delta, raw_bytes, 1), shown, df->n, df->what);
		fprintf(out, "%8s %8s %8s %12s %12s %12s  %s\n", "new", "deleted", "delta",
			"alloc size", "freed size", "size delta", row_name(df->what));
		for (k = 0; k < shown; k++) {
			const struct pt_heap_diff_row *r = &df->rows[k];
			pt_buf_reset(&nb2);
			add_name(&nb2, r->name, 200);
			fprintf(out, "%8" PRIu64 " %8" PRIu64 " %+8" PRId64 " %12s", r->added,
				r->deleted, (int64_t)r->added - (int64_t)r->deleted,
				size_text(&z1, (int64_t)r->added_size, raw_bytes, 0));
			fprintf(out, " %12s",
				size_text(&z1, (int64_t)r->deleted_size, raw_bytes, 0));
			fprintf(out, " %12s  %s\n", size_text(&z2, r->size_delta, raw_bytes, 1),
				nb2.buf);
		}
		pt_buf_release(&nb2);
		pt_buf_release(&z1);
		pt_buf_release(&z2);
	}
	return 0;
}

/* ---- one page: the summary and the retainers of the largest classes ---- */

#define HTML_ROWS      2000 /* table rows at most */
#define HTML_RETAINERS 10   /* classes whose largest object's path is shown */

/* text as HTML: valid UTF-8, markup characters as entities */
static void html_text(FILE *out, const char *s, size_t n)
{
	struct pt_buf u = PT_BUF_INIT;
	size_t i;

	pt_buf_add_utf8(&u, s, n);
	for (i = 0; i < u.len; i++) {
		char c = u.buf[i];
		if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '&')
			fputs("&amp;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else
			fputc(c, out);
	}
	pt_buf_release(&u);
}

static void html_pct(FILE *out, uint64_t v, uint64_t total)
{
	fprintf(out, "<td>%.2f%%</td>", total ? 100.0 * (double)v / (double)total : 0.0);
}

/* the retaining paths (pt_report_heap_retainers' text) of the largest object of each
 * of the HTML_RETAINERS first classes */
static void html_retainers(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			   const struct pt_heap_summary *s, FILE *out)
{
	struct pt_buf re = PT_BUF_INIT;
	struct pt_pattern *pat;
	struct pt_diag d;
	char err[256], *text = NULL;
	size_t i, len = 0;
	FILE *mem;

	pt_buf_addstr(&re, "^(");
	for (i = 0; i < s->n && i < HTML_RETAINERS; i++) {
		const char *c;
		if (i)
			pt_buf_addch(&re, '|');
		for (c = s->rows[i].name; *c; c++) {
			if (strchr("\\^$.*+?()[]{}|", *c))
				pt_buf_addch(&re, '\\');
			pt_buf_addch(&re, *c);
		}
	}
	pt_buf_addstr(&re, ")$");
	pat = s->n ? pt_pattern_compile(re.buf, err, sizeof(err)) : NULL;
	mem = pat ? open_memstream(&text, &len) : NULL;
	pt_diag_init(&d, "");
	if (mem &&
	    pt_report_heap_retainers(g, dom, s, pat, HTML_RETAINERS, PT_FMT_TEXT, 1, mem, &d) < 0)
		len = 0;
	if (mem)
		fclose(mem);
	fputs("<h2>Retainers</h2>\n<p>The shortest path from the roots to the largest "
	      "objects of the largest classes, as <code>proftool heap --retainers</code> "
	      "prints it.</p>\n<pre id=\"pt-retainers\">",
	      out);
	html_text(out, text ? text : "", text ? len : 0);
	fputs("</pre>\n", out);
	free(text);
	pt_pattern_free(pat);
	pt_buf_release(&re);
}

int pt_report_heap_html(const struct pt_heapgraph *g, const struct pt_heap_dom *dom,
			const struct pt_heap_summary *s, const char *path, FILE *out)
{
	const char *base = strrchr(path, '/');
	size_t i, n = s->n < HTML_ROWS ? s->n : HTML_ROWS;

	base = base && base[1] ? base + 1 : path;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n<title>",
	      out);
	html_text(out, base, strlen(base));
	fputs(" (heap)</title>\n<style>\n"
	      "body { font: 13px/1.4 system-ui, sans-serif; margin: 8px 12px; }\n"
	      "table { border-collapse: collapse; font-variant-numeric: tabular-nums; }\n"
	      "th { background: #eee; position: sticky; top: 0; }\n"
	      "td, th { padding: 1px 8px; text-align: right; white-space: nowrap; }\n"
	      "td:last-child, th:last-child { text-align: left; white-space: normal; }\n"
	      "tr:nth-child(even) { background: #f8f8f8; }\npre { font-size: 12px; }\n"
	      "</style>\n</head>\n<body>\n<h1>",
	      out);
	html_text(out, base, strlen(base));
	fprintf(out,
		"</h1>\n<p id=\"pt-heap-total\">Objects: %" PRIu64 ", shallow size %" PRIu64
		" bytes, reachable %" PRIu64 " bytes. Showing %zu of %zu %s, sorted by "
		"retained size.</p>\n<table id=\"pt-heap\">\n<thead><tr><th>retained</th>"
		"<th>ret%%</th><th>shallow</th><th>shal%%</th><th>count</th><th>",
		s->total_count, s->total_shallow, s->total_retained, n, s->n, s->what);
	html_text(out, s->what, strlen(s->what));
	fputs("</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < n; i++) {
		const struct pt_heap_row *r = &s->rows[i];
		fprintf(out, "<tr><td>%" PRIu64 "</td>", r->retained);
		html_pct(out, r->retained, s->total_retained);
		fprintf(out, "<td>%" PRIu64 "</td>", r->shallow);
		html_pct(out, r->shallow, s->total_shallow);
		fprintf(out, "<td>%" PRIu64 "</td><td>", r->count);
		html_text(out, r->name, strlen(r->name));
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	if (g && dom && !s->leaks)
		html_retainers(g, dom, s, out);
	fputs("</body>\n</html>\n", out);
	return 0;
}

int pt_report_heap_diff(const struct pt_heapgraph *base, const struct pt_heapgraph *cur, long limit,
			enum pt_report_format format, int64_t fail_bytes, double fail_pct,
			int *grew_over, FILE *out)
{
	struct pt_heap_diff df;
	int ret;

	pt_heap_diff_by(base, cur, PT_HEAP_BY_CLASS, fail_bytes, fail_pct, &df);
	*grew_over = df.grew_over;
	ret = pt_report_heap_diff_rows(&df, limit, format, 0, out);
	pt_heap_diff_release(&df);
	return ret;
}
