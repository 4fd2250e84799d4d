/* merge.c: adding one profile into another (merge.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/filter.h"
#include "analysis/merge.h"
#include "util/buf.h"
#include "util/sort.h"
#include "util/xalloc.h"

static void append_sample(struct pt_sink *s, struct pt_profile *src, const uint32_t *frames,
			  size_t n, int leaf_first, uint32_t labels, const int64_t *values,
			  int64_t time);

void pt_merge_init(struct pt_merge *m, struct pt_profile *dst, const char *first_path)
{
	memset(m, 0, sizeof(*m));
	m->dst = dst;
	m->first_path = first_path;
	m->timeline = dst->nevents > 0;
	m->sink.sample = append_sample;
	m->append.dst = dst;
	m->append.sink = &m->sink;
}

void pt_merge_release(struct pt_merge *m)
{
	free(m->map);
	free(m->touched);
	free(m->slot);
	free(m->added);
	memset(m, 0, sizeof(*m));
}

/* m->map[t]: dst's type of the same name and unit as src's type t; -1 if some has none */
static int map_types(struct pt_merge *m, const struct pt_profile *src)
{
	const struct pt_profile *dst = m->dst;
	uint32_t t, u;

	if (dst->ntypes != src->ntypes)
		return -1;
	PT_ALLOC_GROW(m->map, src->ntypes, m->map_alloc);
	for (t = 0; t < src->ntypes; t++) {
		for (u = 0; u < dst->ntypes; u++)
			if (!strcmp(pt_s(src, src->types[t].name), pt_s(dst, dst->types[u].name)) &&
			    !strcmp(pt_s(src, src->types[t].unit), pt_s(dst, dst->types[u].unit)))
				break;
		if (u == dst->ntypes)
			return -1;
		m->map[t] = u;
	}
	return 0;
}

/* bring both to the larger fixed point of each type */
static void align_decimals(struct pt_profile *dst, struct pt_profile *src, const uint32_t *map)
{
	uint32_t t;

	for (t = 0; t < src->ntypes; t++) {
		struct pt_sample_type *a = &dst->types[map[t]], *b = &src->types[t];
		while (a->decimals < b->decimals) {
			pt_profile_scale_type(dst, map[t], 10);
			a->decimals++;
		}
		while (b->decimals < a->decimals) {
			pt_profile_scale_type(src, t, 10);
			b->decimals++;
		}
	}
}

const struct pt_append *pt_merge_append(struct pt_merge *m)
{
	const struct pt_profile *dst = m->dst;
	uint32_t t;

	/* what pt_merge_add would change in dst before adding, or add apart */
	if (!pt_profile_has_stacks(dst) || dst->keep_timeline || dst->stride != dst->ntypes)
		return NULL;
	for (t = 0; t < dst->ntypes; t++)
		if (dst->types[t].decimals)
			return NULL;
	/* a simplified name keys its function without the system name in the input's
	 * profile, and with it in dst's: the two steps may keep apart what one joins */
	if (dst->name_mode & PT_NAMES_SIMPLIFY)
		return NULL;
	return &m->append;
}

/* One record of an input read straight into dst: its stack and label set already
 * dst's, its values in the input's types (src's, which hold the sums of what was read).
 * What it adds to each row is kept as the input's own row would have held it. */
static void append_sample(struct pt_sink *s, struct pt_profile *src, const uint32_t *frames,
			  size_t n, int leaf_first, uint32_t labels, const int64_t *values,
			  int64_t time)
{
	struct pt_merge *m = (struct pt_merge *)s;
	struct pt_profile *dst = m->dst;
	int64_t v[PT_MAX_TYPES], *a;
	uint32_t t, row, k, nt = src->ntypes;

	(void)time;
	if (!m->mapped)
		m->mapped = map_types(m, src) < 0 ? -1 : 1;
	if (m->mapped < 0)
		return; /* pt_merge_add says that the types differ */
	memset(v, 0, dst->ntypes * sizeof(*v));
	for (t = 0; t < nt; t++)
		v[m->map[t]] = pt_add(v[m->map[t]], values[t]);
	row = pt_profile_add_sample_counted(dst, pt_profile_stack(dst, frames, n, leaf_first),
					    labels, v, 0);
	if (row >= m->slot_alloc) {
		size_t old = m->slot_alloc;
		PT_ALLOC_GROW(m->slot, (size_t)row + 1, m->slot_alloc);
		memset(m->slot + old, 0, (m->slot_alloc - old) * sizeof(*m->slot));
	}
	k = m->slot[row];
	if (k >= m->ntouched || m->touched[k] != row) {
		k = (uint32_t)m->ntouched++;
		PT_ALLOC_GROW(m->touched, m->ntouched, m->touched_alloc);
		PT_ALLOC_GROW(m->added, m->ntouched * nt, m->added_alloc);
		m->touched[k] = row;
		m->slot[row] = k;
		memset(m->added + (size_t)k * nt, 0, nt * sizeof(*m->added));
	}
	a = m->added + (size_t)k * nt;
	for (t = 0; t < nt; t++)
		a[t] = pt_add(a[t], values[t]);
}

/* dst's sums after an appended input as pt_profile_merge makes them from the input's
 * own rows (each value bounded by pt_profile_add_value, in row then type order): the
 * same overflow, of the same type, where a merge would meet one */
static void append_sums(struct pt_merge *m, const struct pt_profile *src)
{
	struct pt_profile *dst = m->dst;
	size_t k;
	uint32_t t;

	for (k = 0; k < m->ntouched; k++)
		for (t = 0; t < src->ntypes; t++) {
			int64_t v = m->added[k * src->ntypes + t];
			uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			uint32_t u = m->map[t];
			if (a > (uint64_t)INT64_MAX - dst->sum_abs[u])
				pt_profile_overflow_at(dst, u, PT_DIAG_NOWHERE, 0);
			else
				dst->sum_abs[u] += a;
		}
}

/* "name [unit], name [unit]" */
static void type_list(struct pt_buf *b, const struct pt_profile *p)
{
	uint32_t t;

	for (t = 0; t < p->ntypes; t++)
		pt_buf_addf(b, "%s%s [%s]", t ? ", " : "", pt_s(p, p->types[t].name),
			    pt_s(p, p->types[t].unit));
}

int pt_merge_add(struct pt_merge *m, struct pt_profile *src, const char *path, struct pt_diag *d)
{
	int appended = m->mapped > 0;

	/* the next input starts afresh */
	m->mapped = 0;
	pt_diag_init(d, path);
	if (map_types(m, src) < 0) {
		m->ntouched = 0;
		struct pt_buf a = PT_BUF_INIT, b = PT_BUF_INIT;
		type_list(&a, m->dst);
		type_list(&b, src);
		pt_diag_error(
			d,
			"sample types differ: %s here, %s in '%s' (merge needs the same names "
			"and units)",
			b.buf, a.buf, m->first_path);
		pt_buf_release(&a);
		pt_buf_release(&b);
		return -1;
	}
	align_decimals(m->dst, src, m->map);
	m->timeline = m->timeline && src->nevents > 0;
	if (pt_profile_merge_any(m->dst, src, m->map, d) < 0)
		return -1;
	if (appended)
		append_sums(m, src);
	m->ntouched = 0;
	/* the sums so far and this input's: past int64, a value was left out */
	return pt_profile_check_sums(m->dst, 0, d);
}

void pt_merge_finish(struct pt_merge *m)
{
	if (!m->timeline)
		pt_profile_drop_timeline(m->dst);
}

/* ---- labels on every sample ---- */

/* label set ls of p with the labels of v[0..n) (ids in p) in place of those keys */
static uint32_t relabel_set(struct pt_profile *p, uint32_t ls, const struct pt_label *v, size_t n)
{
	const struct pt_label *old = ls ? p->labelsets[ls].v : NULL;
	uint32_t nold = ls ? p->labelsets[ls].n : 0, i, k = 0, id;
	struct pt_label *out = pt_xreallocarray(NULL, (size_t)nold + n, sizeof(*out));
	size_t j;

	for (i = 0; i < nold; i++) {
		for (j = 0; j < n && v[j].key != old[i].key; j++)
			;
		if (j == n)
			out[k++] = old[i];
	}
	for (j = 0; j < n; j++)
		out[k++] = v[j];
	id = pt_profile_labelset(p, out, k);
	free(out);
	return id;
}

void pt_profile_set_labels(struct pt_profile *p, const struct pt_merge_label *labels, size_t n)
{
	struct pt_sample *rows = p->samples;
	int64_t *vals = p->sample_values;
	uint32_t nrows = p->nsamples, nls = p->nlabelsets, r, t, *lsmap, *newrow;
	struct pt_label *v;
	size_t i, j, k = 0, e;

	if (!n || !pt_profile_has_stacks(p))
		return;
	/* the labels as p's ids, the last of a repeated key winning */
	v = pt_xreallocarray(NULL, n, sizeof(*v));
	for (i = 0; i < n; i++) {
		uint32_t key = pt_str(p, labels[i].key);
		for (j = 0; j < k && v[j].key != key; j++)
			;
		memset(&v[j], 0, sizeof(v[j]));
		v[j].key = key;
		v[j].str = pt_str(p, labels[i].value);
		if (j == k)
			k++;
	}
	lsmap = pt_xreallocarray(NULL, nls ? nls : 1, sizeof(*lsmap));
	for (r = 0; r < nls; r++)
		lsmap[r] = UINT32_MAX;

	/* rows that now share their labels become one: rebuild the rows and node totals */
	p->samples = NULL;
	p->sample_values = NULL;
	p->samples_alloc = 0;
	p->nsamples = 0;
	p->last_row = 0;
	pt_map_release(&p->sample_index);
	pt_map_init(&p->sample_index);
	memset(p->node_self, 0, (size_t)p->nnodes * p->ntypes * sizeof(int64_t));
	memset(p->sum_abs, 0, sizeof(p->sum_abs)); /* every value is added again */
	newrow = pt_xreallocarray(NULL, nrows ? nrows : 1, sizeof(*newrow));
	for (r = 0; r < nrows; r++) {
		uint32_t ls = rows[r].labels;
		if (lsmap[ls] == UINT32_MAX)
			lsmap[ls] = relabel_set(p, ls, v, k);
		for (t = 0; t < p->ntypes; t++)
			pt_profile_add_value(p, rows[r].node, lsmap[ls], t,
					     vals[(size_t)r * p->ntypes + t]);
		newrow[r] = pt_map_get(&p->sample_index, (uint64_t)rows[r].node << 32 | lsmap[ls]);
	}
	for (e = 0; e < p->nevents; e++)
		p->events[e].sample = newrow[p->events[e].sample];
	free(newrow);
	free(lsmap);
	free(v);
	free(rows);
	free(vals);
}

/* ---- one canonical order ---- */

/* an id of p, for qsort comparators that need the profile (a label set's labels in
 * text order too) */
struct lab;
struct ref {
	const struct pt_profile *p;
	uint32_t id;
	const struct lab *lab;
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_str(const struct pt_profile *p, uint32_t a, uint32_t b)
{
	size_t la = pt_intern_len(&p->strings, a), lb = pt_intern_len(&p->strings, b);
	int c = memcmp(pt_s(p, a), pt_s(p, b), la < lb ? la : lb);
	return c ? c : cmp_u64(la, lb);
}

/* frames by what they say: function, then place, then mapping */
static int frame_cmp(const void *va, const void *vb)
{
	const struct ref *ra = va, *rb = vb;
	const struct pt_profile *p = ra->p;
	const struct pt_frame *a = &p->frames[ra->id], *b = &p->frames[rb->id];
	const struct pt_func *fa = &p->funcs[a->func], *fb = &p->funcs[b->func];
	const struct pt_mapping *ma = &p->mappings[a->mapping], *mb = &p->mappings[b->mapping];
	int c;

	if ((c = cmp_str(p, fa->name, fb->name)) || (c = cmp_str(p, fa->file, fb->file)) ||
	    (c = cmp_str(p, fa->system_name, fb->system_name)) ||
	    (c = cmp_i64(fa->start_line, fb->start_line)) || (c = cmp_i64(a->line, b->line)) ||
	    (c = cmp_i64(a->column, b->column)) || (c = cmp_u64(a->addr, b->addr)) ||
	    (c = cmp_u64(a->flags, b->flags)) || (c = cmp_u64(!!a->mapping, !!b->mapping)))
		return c;
	if (!a->mapping || !b->mapping)
		return 0;
	if ((c = cmp_str(p, ma->file, mb->file)) || (c = cmp_str(p, ma->build_id, mb->build_id)) ||
	    (c = cmp_u64(ma->start, mb->start)) || (c = cmp_u64(ma->limit, mb->limit)) ||
	    (c = cmp_u64(ma->offset, mb->offset)))
		return c;
	return cmp_u64(ma->flags, mb->flags);
}

static int label_text_cmp(const struct pt_profile *p, const struct pt_label *a,
			  const struct pt_label *b)
{
	int c;
	if ((c = cmp_str(p, a->key, b->key)) || (c = cmp_str(p, a->str, b->str)) ||
	    (c = cmp_i64(a->num, b->num)))
		return c;
	return cmp_str(p, a->num_unit, b->num_unit);
}

/* a label with its profile, for qsort */
struct lab {
	const struct pt_profile *p;
	const struct pt_label *l;
};

static int lab_cmp(const void *va, const void *vb)
{
	const struct lab *a = va, *b = vb;
	return label_text_cmp(a->p, a->l, b->l);
}

/* every label set's labels in text order (sets are kept in string id order):
 * (*sorted)[first[ls] ..] for set ls */
static struct lab *sort_labelsets(const struct pt_profile *p, size_t **first)
{
	size_t total = 0, k = 0;
	uint32_t ls, i;
	struct lab *v;

	*first = pt_xcalloc(p->nlabelsets ? p->nlabelsets : 1, sizeof(**first));
	for (ls = 1; ls < p->nlabelsets; ls++)
		total += p->labelsets[ls].n;
	v = pt_xreallocarray(NULL, total ? total : 1, sizeof(*v));
	for (ls = 1; ls < p->nlabelsets; ls++) {
		(*first)[ls] = k;
		for (i = 0; i < p->labelsets[ls].n; i++) {
			v[k + i].p = p;
			v[k + i].l = &p->labelsets[ls].v[i];
		}
		pt_qsort(v + k, p->labelsets[ls].n, sizeof(*v), lab_cmp);
		k += p->labelsets[ls].n;
	}
	return v;
}

static int labelset_cmp(const void *va, const void *vb)
{
	const struct ref *ra = va, *rb = vb;
	const struct pt_profile *p = ra->p;
	uint32_t na = ra->id ? p->labelsets[ra->id].n : 0, nb = rb->id ? p->labelsets[rb->id].n : 0;
	uint32_t i;
	int c;

	for (i = 0; i < na && i < nb; i++)
		if ((c = label_text_cmp(p, ra->lab[i].l, rb->lab[i].l)))
			return c;
	return cmp_u64(na, nb);
}

/* rank[id] for ids 1..n-1 (0 keeps rank 0): equal content, equal rank (*ties set) */
static uint32_t *rank_ids(const struct pt_profile *p, uint32_t n,
			  int (*cmp)(const void *, const void *), const struct lab *labs,
			  const size_t *first, int *ties)
{
	struct ref *v = pt_xreallocarray(NULL, n ? n : 1, sizeof(*v));
	uint32_t *rank = pt_xcalloc(n ? n : 1, sizeof(*rank)), i, r = 0;

	for (i = 1; i < n; i++) {
		v[i - 1].p = p;
		v[i - 1].id = i;
		v[i - 1].lab = labs ? labs + first[i] : NULL;
	}
	if (n > 1)
		pt_qsort(v, n - 1, sizeof(*v), cmp);
	for (i = 0; i + 1 < n; i++) {
		if (!i || cmp(&v[i - 1], &v[i]))
			r++;
		else
			*ties = 1;
		rank[v[i].id] = r;
	}
	free(v);
	return rank;
}

/* (rank, id) pairs, ordered by rank then id */
static int pair_cmp(const void *va, const void *vb)
{
	const uint64_t *a = va, *b = vb;
	return cmp_u64(*a, *b);
}

/* nodes in depth-first preorder, siblings by their frames' content: order[i] is the
 * i-th node, pos[node] its place */
static void node_order(const struct pt_profile *p, const uint32_t *frank, uint32_t *order,
		       uint32_t *pos)
{
	uint32_t *stack = pt_xreallocarray(NULL, p->nnodes, sizeof(*stack)), sp = 0, k = 0;
	uint64_t *kids = NULL;
	size_t kids_alloc = 0;

	stack[sp++] = 0;
	while (sp) {
		uint32_t n = stack[--sp], c, nk = 0;
		pos[n] = k;
		order[k++] = n;
		for (c = p->nodes[n].first_child; c; c = p->nodes[c].next_sibling) {
			PT_ALLOC_GROW(kids, (size_t)nk + 1, kids_alloc);
			kids[nk++] = (uint64_t)frank[p->nodes[c].frame] << 32 | c;
		}
		pt_qsort(kids, nk, sizeof(*kids), pair_cmp);
		while (nk)
			stack[sp++] = (uint32_t)kids[--nk];
	}
	free(kids);
	free(stack);
}

void pt_profile_canonical(struct pt_profile *p)
{
	struct pt_profile np, view;
	uint32_t *frank, *lrank, *order, *pos, *rowpos, n, r, t;
	uint64_t *rows;
	size_t e, *first;
	struct lab *labs;
	int ties = 0;

	if (!pt_profile_has_stacks(p))
		return;
	frank = rank_ids(p, p->nframes, frame_cmp, NULL, NULL, &ties);
	labs = sort_labelsets(p, &first);
	lrank = rank_ids(p, p->nlabelsets, labelset_cmp, labs, first, &ties);
	free(labs);
	free(first);
	order = pt_xreallocarray(NULL, p->nnodes, sizeof(*order));
	pos = pt_xreallocarray(NULL, p->nnodes, sizeof(*pos));
	node_order(p, frank, order, pos);

	/* a view of p with nodes, rows and events renumbered in that order: merging it into
	 * an empty profile makes every id (strings, functions, frames, label sets) in the
	 * order of first use, so equal content gives equal profiles */
	view = *p;
	view.nodes = pt_xreallocarray(NULL, p->nnodes, sizeof(*view.nodes));
	for (n = 0; n < p->nnodes; n++) {
		view.nodes[n] = p->nodes[order[n]];
		view.nodes[n].parent = n ? pos[p->nodes[order[n]].parent] : 0;
	}
	/* rows by (node place, label set rank): both below 2^32 */
	rows = pt_xreallocarray(NULL, p->nsamples ? p->nsamples : 1, 2 * sizeof(*rows));
	for (r = 0; r < p->nsamples; r++) {
		rows[2 * r] = (uint64_t)pos[p->samples[r].node] << 32 | lrank[p->samples[r].labels];
		rows[2 * r + 1] = r;
	}
	pt_qsort(rows, p->nsamples, 2 * sizeof(*rows), pair_cmp);
	view.samples = pt_xreallocarray(NULL, p->nsamples ? p->nsamples : 1, sizeof(*view.samples));
	view.sample_values = pt_xreallocarray(
		NULL, (size_t)(p->nsamples ? p->nsamples : 1) * (p->ntypes ? p->ntypes : 1),
		sizeof(int64_t));
	rowpos = pt_xreallocarray(NULL, p->nsamples ? p->nsamples : 1, sizeof(*rowpos));
	for (r = 0; r < p->nsamples; r++) {
		uint32_t old = (uint32_t)rows[2 * r + 1];
		rowpos[old] = r;
		view.samples[r].node = pos[p->samples[old].node];
		view.samples[r].labels = p->samples[old].labels;
		memcpy(view.sample_values + (size_t)r * p->ntypes,
		       p->sample_values + (size_t)old * p->ntypes, p->ntypes * sizeof(int64_t));
	}
	view.events = pt_xreallocarray(NULL, p->nevents ? p->nevents : 1, sizeof(*view.events));
	for (e = 0; e < p->nevents; e++) {
		view.events[e] = p->events[e];
		view.events[e].sample = rowpos[p->events[e].sample];
	}

	pt_profile_init(&np);
	np.format = p->format;
	np.totals_in_meta = p->totals_in_meta;
	for (t = 0; t < p->ntypes; t++) {
		pt_profile_add_type(&np, pt_s(p, p->types[t].name), pt_s(p, p->types[t].unit));
		np.types[t].decimals = p->types[t].decimals;
	}
	np.default_type = p->default_type;
	np.period_type.decimals = p->period_type.decimals;
	np.drop_frames = p->drop_frames ? pt_str(&np, pt_s(p, p->drop_frames)) : 0;
	np.keep_frames = p->keep_frames ? pt_str(&np, pt_s(p, p->keep_frames)) : 0;
	np.keep_timeline = p->keep_timeline;
	pt_profile_reserve(&np, p->nnodes, p->nsamples);
	pt_profile_merge(&np, &view, NULL);
	np.nrecords = p->nrecords;

	free(view.nodes);
	free(view.samples);
	free(view.sample_values);
	free(view.events);
	free(rows);
	free(rowpos);
	free(pos);
	free(order);
	free(lrank);
	free(frank);
	pt_profile_release(p);
	*p = np;
	pt_profile_moved(p);
	/* frames equal in text but kept apart (stackprof's function identities) became one,
	 * their subtrees met in walk order: once more, now without ties, sorts them */
	if (ties)
		pt_profile_canonical(p);
}
