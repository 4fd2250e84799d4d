/* export.c: a profile as rows of the stacks, samples and profiles tables (export.h). */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/export.h"
#include "util/csv.h"
#include "util/buf.h"
#include "util/sort.h"
#include "util/xalloc.h"

uint64_t pt_fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void pt_export_init(struct pt_export *x, enum pt_export_format fmt, FILE *stacks, FILE *samples,
		    FILE *profiles)
{
	memset(x, 0, sizeof(*x));
	x->fmt = fmt;
	x->stacks = stacks;
	x->samples = samples;
	x->profiles = profiles;
	pt_map_init(&x->seen);
}

void pt_export_release(struct pt_export *x)
{
	pt_map_release(&x->seen);
}

/* ---- fields ---- */

/* TabSeparated escaping: backslash, tab, newline (and quote inside arrays) */
static void tsv_escape(struct pt_buf *b, const char *s, size_t n, int quote)
{
	size_t i;
	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '\\':
			pt_buf_add(b, "\\\\", 2);
			break;
		case '\t':
			pt_buf_add(b, "\\t", 2);
			break;
		case '\n':
			pt_buf_add(b, "\\n", 2);
			break;
		case '\r':
			pt_buf_add(b, "\\r", 2);
			break;
		case '\0':
			pt_buf_add(b, "\\0", 2);
			break;
		case '\'':
			if (quote)
				pt_buf_add(b, "\\'", 2);
			else
				pt_buf_add(b, "'", 1);
			break;
		default:
			pt_buf_add(b, &s[i], 1);
		}
	}
}

/* a text field (with its separator before it unless first) onto line */
static void field(const struct pt_export *x, struct pt_buf *line, const char *s, size_t n)
{
	if (line->len)
		pt_buf_add(line, x->fmt == PT_EXPORT_CSV ? "," : "\t", 1);
	if (x->fmt == PT_EXPORT_TSV) {
		tsv_escape(line, s, n, 0);
	} else {
		/* libcsv's quoting: the field in double quotes, embedded ones doubled */
		char *q = pt_xmalloc(n * 2 + 3);
		size_t k = pt_csv()->write_field(q, n * 2 + 3, s, n);
		pt_buf_add(line, q, k);
		free(q);
	}
}

static void field_str(const struct pt_export *x, struct pt_buf *line, const struct pt_profile *p,
		      uint32_t id)
{
	field(x, line, pt_s(p, id), pt_intern_len(&p->strings, id));
}

static void field_num(const struct pt_export *x, struct pt_buf *line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void field_num(const struct pt_export *x, struct pt_buf *line, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (line->len)
		pt_buf_add(line, x->fmt == PT_EXPORT_CSV ? "," : "\t", 1);
	pt_buf_add(line, tmp, (size_t)n);
}

/* one array element, 'quoted' with backslash escapes, onto arr */
static void array_add(struct pt_buf *arr, const char *s, size_t n)
{
	pt_buf_add(arr, arr->len > 1 ? ",'" : "'", arr->len > 1 ? 2 : 1);
	tsv_escape(arr, s, n, 1);
	pt_buf_add(arr, "'", 1);
}

/* an array literal (already escaped) as a field */
static void field_array(const struct pt_export *x, struct pt_buf *line, struct pt_buf *arr)
{
	pt_buf_add(arr, "]", 1);
	if (x->fmt == PT_EXPORT_TSV) {
		if (line->len)
			pt_buf_add(line, "\t", 1);
		pt_buf_add(line, arr->buf, arr->len);
	} else {
		field(x, line, arr->buf, arr->len);
	}
}

static void end_line(struct pt_buf *line, FILE *out)
{
	pt_buf_add(line, "\n", 1);
	fwrite(line->buf, 1, line->len, out);
	pt_buf_reset(line);
}

/* ---- tables ---- */

/* the text a frame adds to its stack's hash */
static void frame_text(struct pt_buf *b, const struct pt_profile *p, uint32_t frame)
{
	const struct pt_frame *f = &p->frames[frame];
	const struct pt_func *fn = &p->funcs[f->func];

	pt_buf_reset(b);
	pt_buf_add(b, pt_s(p, fn->name), pt_intern_len(&p->strings, fn->name));
	pt_buf_add(b, "\t", 1);
	pt_buf_add(b, pt_s(p, fn->file), pt_intern_len(&p->strings, fn->file));
	pt_buf_addf(b, "\t%" PRId64 "\t%" PRId64 "\n", fn->start_line, f->line);
}

/* the rows of one new stack: node n's path, outermost first */
static void write_stack(struct pt_export *x, const struct pt_profile *p, uint32_t n, uint64_t id,
			struct pt_buf *line)
{
	uint32_t depth = p->nodes[n].depth, k,
		 *path = pt_xmalloc((depth ? depth : 1) * sizeof(*path));

	for (k = depth; n && k > 0; n = p->nodes[n].parent)
		path[--k] = n;
	for (k = 0; k < depth; k++) {
		const struct pt_frame *f = pt_frame_of(p, path[k]);
		const struct pt_func *fn = &p->funcs[f->func];
		field_num(x, line, "%" PRIu64, id);
		field_num(x, line, "%" PRIu32, k);
		field_str(x, line, p, fn->name);
		field_str(x, line, p, fn->file);
		field_num(x, line, "%" PRId64, fn->start_line);
		field_num(x, line, "%" PRId64, f->line);
		end_line(line, x->stacks);
	}
	free(path);
}

/* a label with its profile, for qsort */
struct lref {
	const struct pt_profile *p;
	const struct pt_label *l;
};

static int lref_cmp(const void *va, const void *vb)
{
	const struct lref *a = va, *b = vb;
	return strcmp(pt_s(a->p, a->l->key), pt_s(b->p, b->l->key));
}

/* every label set's labels by key text (a set is sorted by string id, which differs
 * between profiles): sorted[first[ls] .. first[ls] + n) */
static struct lref *sort_labels(const struct pt_profile *p, size_t **first)
{
	size_t total = 0, k;
	uint32_t ls, i;
	struct lref *v;

	*first = pt_xmalloc((p->nlabelsets ? p->nlabelsets : 1) * sizeof(**first));
	for (ls = 1; ls < p->nlabelsets; ls++)
		total += p->labelsets[ls].n;
	v = pt_xmalloc((total ? total : 1) * sizeof(*v));
	for (k = 0, ls = 1; ls < p->nlabelsets; ls++) {
		(*first)[ls] = k;
		for (i = 0; i < p->labelsets[ls].n; i++) {
			v[k + i].p = p;
			v[k + i].l = &p->labelsets[ls].v[i];
		}
		pt_qsort(v + k, p->labelsets[ls].n, sizeof(*v), lref_cmp);
		k += p->labelsets[ls].n;
	}
	return v;
}

/* the two label arrays of label set ls as fields */
static void label_fields(const struct pt_export *x, const struct pt_profile *p, uint32_t ls,
			 const struct lref *v, struct pt_buf *line, struct pt_buf *arr)
{
	uint32_t i, n = ls ? p->labelsets[ls].n : 0;
	char num[32];

	pt_buf_reset(arr);
	pt_buf_add(arr, "[", 1);
	for (i = 0; i < n; i++)
		array_add(arr, pt_s(p, v[i].l->key), pt_intern_len(&p->strings, v[i].l->key));
	field_array(x, line, arr);
	pt_buf_reset(arr);
	pt_buf_add(arr, "[", 1);
	for (i = 0; i < n; i++) {
		const struct pt_label *l = v[i].l;
		if (l->str || !l->key) {
			array_add(arr, pt_s(p, l->str), pt_intern_len(&p->strings, l->str));
		} else {
			int k = snprintf(num, sizeof(num), "%" PRId64, l->num);
			array_add(arr, num, (size_t)k);
		}
	}
	field_array(x, line, arr);
}

/* a samples row of node's stack; the stack's own rows first if this run has not
 * written them (only stacks that hold samples are written) */
static void sample_row(struct pt_export *x, const struct pt_profile *p, uint64_t pid,
		       const uint64_t *sid, uint32_t node, uint32_t t, int64_t v, int64_t time,
		       uint32_t ls, const struct lref *labels, struct pt_buf *line,
		       struct pt_buf *arr)
{
	uint32_t *slot = pt_map_put(&x->seen, sid[node]);

	if (*slot == PT_MAP_NEW) {
		*slot = 1;
		write_stack(x, p, node, sid[node], line);
	}
	field_num(x, line, "%" PRIu64, pid);
	field_num(x, line, "%" PRIu64, sid[node]);
	field_str(x, line, p, p->types[t].name);
	field_str(x, line, p, p->types[t].unit);
	field_num(x, line, "%" PRId64, v);
	field_num(x, line, "%" PRId64, time);
	label_fields(x, p, ls, labels, line, arr);
	end_line(line, x->samples);
}

int pt_export_profile(struct pt_export *x, const struct pt_profile *p, const char *source,
		      struct pt_diag *d)
{
	struct pt_buf line = PT_BUF_INIT, arr = PT_BUF_INIT, text = PT_BUF_INIT;
	uint64_t *sid, pid;
	size_t *lfirst;
	struct lref *lv;
	uint32_t n, r, t;
	size_t e;

	if (pt_profile_need_stacks(p, "export", d) < 0)
		return -1;
	/* stack ids: a node's continues its parent's hash (parents have smaller ids) */
	sid = pt_xmalloc((p->nnodes ? p->nnodes : 1) * sizeof(*sid));
	sid[0] = PT_FNV_OFFSET;
	for (n = 1; n < p->nnodes; n++) {
		frame_text(&text, p, p->nodes[n].frame);
		sid[n] = pt_fnv1a(sid[p->nodes[n].parent], text.buf, text.len);
	}
	pt_buf_reset(&text);
	pt_buf_add(&text, source, strlen(source));
	pt_buf_addf(&text, "\n%" PRId64, p->time_nanos);
	pid = pt_fnv1a(PT_FNV_OFFSET, text.buf, text.len);

	field_num(x, &line, "%" PRIu64, pid);
	field(x, &line, source, strlen(source));
	field_num(x, &line, "%" PRId64, p->time_nanos);
	field_num(x, &line, "%" PRId64, p->duration_nanos);
	pt_buf_reset(&arr);
	pt_buf_add(&arr, "[", 1);
	for (t = 0; t < p->ntypes; t++) {
		pt_buf_reset(&text);
		pt_buf_addf(&text, "%s/%s", pt_s(p, p->types[t].name), pt_s(p, p->types[t].unit));
		array_add(&arr, text.buf, text.len);
	}
	field_array(x, &line, &arr);
	field_str(x, &line, p,
		  p->ntypes ? p->types[p->default_type < p->ntypes ? p->default_type : 0].name : 0);
	end_line(&line, x->profiles);

	lv = sort_labels(p, &lfirst);
	if (x->timeline && p->nevents) {
		for (e = 0; e < p->nevents; e++) {
			const struct pt_sample *s = &p->samples[p->events[e].sample];
			for (t = 0; t < p->ntypes; t++) {
				int64_t v = p->event_values[e * p->ntypes + t];
				if (v)
					sample_row(x, p, pid, sid, s->node, t, v,
						   pt_add(p->time_nanos, p->events[e].time),
						   s->labels,
						   lv + (s->labels ? lfirst[s->labels] : 0), &line,
						   &arr);
			}
		}
	} else {
		for (r = 0; r < p->nsamples; r++)
			for (t = 0; t < p->ntypes; t++) {
				int64_t v = p->sample_values[(size_t)r * p->ntypes + t];
				if (v)
					sample_row(x, p, pid, sid, p->samples[r].node, t, v,
						   p->time_nanos, p->samples[r].labels,
						   lv + (p->samples[r].labels
								 ? lfirst[p->samples[r].labels]
								 : 0),
						   &line, &arr);
			}
	}
	free(lv);
	free(lfirst);
	free(sid);
	pt_buf_release(&line);
	pt_buf_release(&arr);
	pt_buf_release(&text);
	return 0;
}
