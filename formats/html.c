/* html.c: one self-contained interactive HTML report (flame graph, time order, function
 * table with callers/callees/lines, sample type selector, differential mode), write
 * only. The page's script and style are formats/html/report.{js,css}, embedded at build
 * time; the data go in as one JSON document of a string table and integer arrays. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/graph.h"
#include "formats/format.h"
#include "util/buf.h"
#include "util/intern.h"
#include "util/json.h"
#include "util/map.h"
#include "util/xalloc.h"

/* formats/html-assets.c, generated from formats/html/ by formats/html/embed.sh */
extern const char pt_html_js[], pt_html_css[];

#define NO_ID UINT32_MAX

struct html {
	const struct pt_profile *p;
	const struct pt_write_opts *o;
	FILE *fp;
	struct pt_buf out, tmp;
	struct pt_arena arena;
	struct pt_intern strs; /* the page's string table (index = id - 1) */
	uint32_t *str_of;      /* profile string id -> page string index + 1, 0 = not yet */
	struct pt_agg agg;     /* per function, as top and method compute it */
	uint32_t *entry_of_frame;
	/* the merged tree: one node per (parent, function entry) */
	uint32_t *mparent, *mentry;
	int64_t *mself; /* nm * ntypes */
	uint32_t nm;
	size_t malloc_;
	uint32_t *of_node;  /* profile node -> merged node */
	uint32_t *out_of_m; /* merged node -> written node (nearest kept ancestor) */
	/* the written tree: parent and depth of each node; the merged nodes left out
	 * below a written one (each with what hangs below it) */
	uint32_t *out_parent, *out_depth;
	size_t cut_nodes;
};

static void flush(struct html *h)
{
	pt_buf_write_out(&h->out, h->fp, 1 << 16);
}

/* a JSON string safe inside <script>: invalid UTF-8 as U+FFFD (util/json), and '<'
 * escaped so that no "</script" can end the element */
static void add_str(struct html *h, const char *s, size_t n)
{
	size_t i;

	pt_buf_reset(&h->tmp);
	pt_buf_add_json_str(&h->tmp, s, n);
	for (i = 0; i < h->tmp.len; i++) {
		if (h->tmp.buf[i] == '<')
			pt_buf_addstr(&h->out, "\\u003c");
		else
			pt_buf_addch(&h->out, h->tmp.buf[i]);
	}
}

/* the page's index of profile string id */
static uint32_t sid(struct html *h, uint32_t id)
{
	if (!h->str_of[id])
		h->str_of[id] =
			pt_intern(&h->strs, pt_s(h->p, id), pt_intern_len(&h->p->strings, id)) + 1;
	return h->str_of[id] - 1;
}

static void key(struct html *h, const char *k)
{
	if (h->out.len && h->out.buf[h->out.len - 1] != '{')
		pt_buf_addch(&h->out, ',');
	pt_buf_addch(&h->out, '"');
	pt_buf_addstr(&h->out, k);
	pt_buf_addstr(&h->out, "\":");
}

static void u32_array(struct html *h, const uint32_t *v, size_t n)
{
	size_t i;
	pt_buf_addch(&h->out, '[');
	for (i = 0; i < n; i++) {
		if (i)
			pt_buf_addch(&h->out, ',');
		pt_buf_add_u64(&h->out, v[i]);
		flush(h);
	}
	pt_buf_addch(&h->out, ']');
}

static void i64_array(struct html *h, const int64_t *v, size_t n)
{
	size_t i;
	pt_buf_addch(&h->out, '[');
	for (i = 0; i < n; i++) {
		if (i)
			pt_buf_addch(&h->out, ',');
		pt_buf_add_i64(&h->out, v[i]);
		flush(h);
	}
	pt_buf_addch(&h->out, ']');
}

/* one array per sample type of n rows of v (stride ntypes) */
static void typed_arrays(struct html *h, const int64_t *v, size_t n)
{
	uint32_t t, w = h->p->ntypes;
	size_t i;

	pt_buf_addch(&h->out, '[');
	for (t = 0; t < w; t++) {
		pt_buf_addstr(&h->out, t ? ",[" : "[");
		for (i = 0; i < n; i++) {
			if (i)
				pt_buf_addch(&h->out, ',');
			pt_buf_add_i64(&h->out, v[i * w + t]);
			flush(h);
		}
		pt_buf_addch(&h->out, ']');
	}
	pt_buf_addch(&h->out, ']');
}

/* ---- what is kept: at least min_fraction of a total, and the widest max_frames ---- */

/* per type: |total| * min_fraction, the least value kept */
static int64_t *thresholds(const struct html *h, const int64_t *total)
{
	uint32_t t, w = h->p->ntypes;
	int64_t *thr = pt_xmalloc((w ? w : 1) * sizeof(int64_t));

	for (t = 0; t < w; t++) {
		double a = (double)total[t];
		thr[t] = (int64_t)((a < 0 ? -a : a) * h->o->min_fraction);
	}
	return thr;
}

/* a row of values reaches the threshold of some type */
static int reaches(const int64_t *v, const int64_t *thr, uint32_t w)
{
	uint32_t t;
	for (t = 0; t < w; t++)
		if (v[t] && (v[t] < 0 ? -v[t] : v[t]) >= thr[t])
			return 1;
	return 0;
}

/* a row's width: its largest share of a type's total */
static double share_of(const int64_t *v, const int64_t *total, uint32_t w)
{
	double best = 0;
	uint32_t t;
	for (t = 0; t < w; t++) {
		double a = (double)(v[t] < 0 ? -v[t] : v[t]), b = (double)total[t];
		b = b < 0 ? -b : b;
		if (b > 0 && a / b > best)
			best = a / b;
	}
	return best;
}

struct ranked {
	double share;
	uint32_t depth, id;
};

/* the widest first; of equal width the shallower (a node's parent before it), then
 * the first */
static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->share != y->share)
		return x->share > y->share ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* keep[] holds n marked rows of r; past max (when max is not 0), unmark all but the max
 * widest. Returns the rows left marked. */
static size_t keep_widest(struct ranked *r, size_t n, size_t max, uint8_t *keep)
{
	size_t i;

	if (!max || n <= max)
		return n;
	qsort(r, n, sizeof(*r), ranked_cmp);
	for (i = max; i < n; i++)
		keep[r[i].id] = 0;
	return max;
}

/* ---- the merged tree ---- */

static uint32_t mnew(struct html *h, uint32_t parent, uint32_t entry)
{
	uint32_t w = h->p->ntypes, id = h->nm;
	size_t old = h->malloc_;

	PT_ALLOC_GROW(h->mparent, (size_t)id + 1, h->malloc_);
	if (h->malloc_ != old) {
		h->mentry = pt_xreallocarray(h->mentry, h->malloc_, sizeof(uint32_t));
		h->mself = pt_xreallocarray(h->mself, h->malloc_ * w, sizeof(int64_t));
	}
	h->mparent[id] = parent;
	h->mentry[id] = entry;
	memset(&h->mself[(size_t)id * w], 0, w * sizeof(int64_t));
	h->nm++;
	return id;
}

/* Merge the call tree by (parent, function entry), as the flame graph draws it. */
static void merge_tree(struct html *h)
{
	const struct pt_profile *p = h->p;
	uint32_t w = p->ntypes, n, t;
	struct pt_map index;
	uint8_t *shared, *tainted;

	/* Only a node whose function several frames share, or one below such a node, can
	 * meet another node of the same path (svg.c's rule): the others skip the hash. */
	shared = pt_xcalloc((size_t)h->agg.nentries + 1, 1);
	for (n = 1; n < p->nframes; n++)
		if (shared[h->entry_of_frame[n]] < 2)
			shared[h->entry_of_frame[n]]++;
	tainted = pt_xmalloc((size_t)p->nnodes + 1);
	tainted[0] = 0;
	pt_map_init(&index);
	h->of_node = pt_xmalloc(((size_t)p->nnodes + 1) * sizeof(uint32_t));
	/* at most one merged node per node: sized once, never copied while growing */
	h->malloc_ = (size_t)p->nnodes + 1;
	h->mparent = pt_xreallocarray(NULL, h->malloc_, sizeof(uint32_t));
	h->mentry = pt_xreallocarray(NULL, h->malloc_, sizeof(uint32_t));
	h->mself = pt_xreallocarray(NULL, h->malloc_ * (w ? w : 1), sizeof(int64_t));
	mnew(h, 0, NO_ID);
	h->of_node[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t par = h->of_node[p->nodes[n].parent];
		uint32_t e = h->entry_of_frame[p->nodes[n].frame], m;
		tainted[n] = tainted[p->nodes[n].parent] || shared[e] > 1;
		if (tainted[n]) {
			uint32_t *slot = pt_map_put(&index, (uint64_t)par << 32 | e);
			if (*slot == PT_MAP_NEW)
				*slot = mnew(h, par, e);
			m = *slot;
		} else {
			m = mnew(h, par, e);
		}
		h->of_node[n] = m;
		for (t = 0; t < w; t++)
			h->mself[(size_t)m * w + t] = pt_add(h->mself[(size_t)m * w + t],
							     p->node_self[(size_t)n * w + t]);
	}
	free(shared);
	free(tainted);
	pt_map_release(&index);
}

/* The merged nodes drawn: at least min_fraction of the total in some type, below a
 * drawn parent (parents come before children: one pass from the root down), and of
 * those the max_frames widest. */
static uint8_t *choose_nodes(struct html *h, const int64_t *cum)
{
	uint32_t w = h->p->ntypes, n, *depth = pt_xmalloc((size_t)h->nm * sizeof(uint32_t));
	int64_t *thr = thresholds(h, cum);
	uint8_t *keep = pt_xcalloc((size_t)h->nm, 1);
	struct ranked *r = NULL;
	size_t nr = 0;

	keep[0] = 1;
	depth[0] = 0;
	for (n = 1; n < h->nm; n++) {
		depth[n] = depth[h->mparent[n]] + 1;
		keep[n] = keep[h->mparent[n]] && reaches(&cum[(size_t)n * w], thr, w);
		nr += keep[n];
	}
	if (h->o->max_frames > 0 && nr > (size_t)h->o->max_frames) {
		r = pt_xmalloc(nr * sizeof(*r));
		for (nr = 0, n = 1; n < h->nm; n++)
			if (keep[n])
				r[nr++] = (struct ranked){share_of(&cum[(size_t)n * w], cum, w),
							  depth[n], n};
		nr = keep_widest(r, nr, (size_t)h->o->max_frames, keep);
	}
	h->cut_nodes = 0;
	for (n = 1; n < h->nm; n++)
		h->cut_nodes += !keep[n] && keep[h->mparent[n]];
	free(r);
	free(thr);
	free(depth);
	return keep;
}

/* Write the merged tree's drawn nodes: parent, function entry, self values. A node
 * left out adds its whole value to its nearest drawn ancestor's self (the total stays
 * exact). */
static void write_tree(struct html *h)
{
	const struct pt_profile *p = h->p;
	uint32_t w = p->ntypes, n, t, kept = 0, *out_entry;
	int64_t *cum, *oself;
	uint8_t *keptm;

	merge_tree(h);
	cum = pt_xmalloc((size_t)h->nm * w * sizeof(int64_t));
	memcpy(cum, h->mself, (size_t)h->nm * w * sizeof(int64_t));
	for (n = h->nm; n-- > 1;)
		for (t = 0; t < w; t++)
			cum[(size_t)h->mparent[n] * w + t] =
				pt_add(cum[(size_t)h->mparent[n] * w + t], cum[(size_t)n * w + t]);
	keptm = choose_nodes(h, cum);

	h->out_of_m = pt_xmalloc((size_t)h->nm * sizeof(uint32_t));
	h->out_parent = pt_xmalloc((size_t)h->nm * sizeof(uint32_t));
	h->out_depth = pt_xmalloc((size_t)h->nm * sizeof(uint32_t));
	out_entry = pt_xmalloc((size_t)h->nm * sizeof(uint32_t));
	oself = pt_xmalloc((size_t)h->nm * w * sizeof(int64_t));
	for (n = 0; n < h->nm; n++) {
		if (keptm[n]) {
			h->out_of_m[n] = kept;
			h->out_parent[kept] = n ? h->out_of_m[h->mparent[n]] : 0;
			h->out_depth[kept] = n ? h->out_depth[h->out_parent[kept]] + 1 : 0;
			out_entry[kept] = n ? h->mentry[n] : 0; /* the root: no function */
			memcpy(&oself[(size_t)kept * w], &h->mself[(size_t)n * w],
			       w * sizeof(int64_t));
			kept++;
		} else {
			/* a node left out maps to its nearest drawn ancestor */
			uint32_t a = h->out_of_m[h->mparent[n]];
			h->out_of_m[n] = a;
			for (t = 0; t < w; t++)
				oself[(size_t)a * w + t] = pt_add(oself[(size_t)a * w + t],
								  h->mself[(size_t)n * w + t]);
		}
	}
	free(keptm);
	key(h, "tree");
	pt_buf_addch(&h->out, '{');
	key(h, "parent");
	u32_array(h, h->out_parent, kept);
	key(h, "fn");
	u32_array(h, out_entry, kept);
	key(h, "self");
	typed_arrays(h, oself, kept);
	key(h, "cut");
	pt_buf_add_u64(&h->out, h->cut_nodes);
	pt_buf_addch(&h->out, '}');
	free(cum);
	free(out_entry);
	free(oself);
}

/* ---- the source lines of the drawn tree, for a refine ---- */

#define LTREE_MAX 200000 /* line nodes written, at most */

/* The tree by (parent, line of the function's frame): each profile node under the
 * written node it is drawn in, with its line (an index of "lines" + 1, 0 for none), so
 * that the page counts the lines of a refined profile as method counts them (once per
 * stack). A node left out by --min-fraction adds its self to its parent's line node,
 * as the drawn tree does. Not written without lines, nor past LTREE_MAX nodes (the
 * page then keeps the whole profile's lines). */
static void write_line_tree(struct html *h)
{
	const struct pt_profile *p = h->p;
	uint32_t w = p->ntypes, n, nl = 1, *of, *lparent, *lnode, *lline;
	int64_t *lself;
	struct pt_map index;

	if (!h->agg.nlines || !p->nnodes)
		return;
	pt_map_init(&index);
	of = pt_xmalloc((size_t)p->nnodes * sizeof(uint32_t));
	lparent = pt_xmalloc((size_t)p->nnodes * sizeof(uint32_t));
	lnode = pt_xmalloc((size_t)p->nnodes * sizeof(uint32_t));
	lline = pt_xmalloc((size_t)p->nnodes * sizeof(uint32_t));
	lself = pt_xcalloc((size_t)p->nnodes * (w ? w : 1), sizeof(int64_t));
	of[0] = lparent[0] = lnode[0] = lline[0] = 0;
	memcpy(lself, p->node_self, w * sizeof(int64_t));
	for (n = 1; n < p->nnodes && nl <= LTREE_MAX; n++) {
		uint32_t m = h->of_node[n], par = of[p->nodes[n].parent], fid = p->nodes[n].frame;
		uint32_t o = h->out_of_m[m], line = 0, *slot;
		if (o == h->out_of_m[h->mparent[m]]) {
			of[n] = par; /* drawn in an ancestor */
		} else {
			if (p->frames[fid].line > 0)
				line = 1 + pt_agg_line(&h->agg, h->entry_of_frame[fid],
						       p->frames[fid].line);
			/* a line names its function: siblings of one line are one node */
			slot = pt_map_put(&index,
					  (uint64_t)par << 32 | (line ? line : o | 1u << 31));
			if (*slot == PT_MAP_NEW) {
				*slot = nl;
				lparent[nl] = par;
				lnode[nl] = o;
				lline[nl] = line;
				nl++;
			}
			of[n] = *slot;
		}
		pt_add_values(&lself[(size_t)of[n] * w], &p->node_self[(size_t)n * w], w);
	}
	if (nl <= LTREE_MAX) {
		key(h, "ltree");
		pt_buf_addch(&h->out, '{');
		key(h, "parent");
		u32_array(h, lparent, nl);
		key(h, "node");
		u32_array(h, lnode, nl);
		key(h, "line");
		u32_array(h, lline, nl);
		key(h, "self");
		typed_arrays(h, lself, nl);
		pt_buf_addch(&h->out, '}');
	}
	pt_map_release(&index);
	free(of);
	free(lparent);
	free(lnode);
	free(lline);
	free(lself);
}

/* ---- the function table, as top and method print it ---- */

/* pprof's "(inline)" and "(partial-inline)" marks top prints after a name, per sample
 * type (a mark counts only the samples with a value of that type): "mark", left out
 * when no frame is inlined. v has room for an entry each. */
static void write_marks(struct html *h, uint32_t *v)
{
	const struct pt_profile *p = h->p;
	const struct pt_agg *a = &h->agg;
	uint32_t t, i;

	if (!pt_graph_has_inline(p))
		return;
	key(h, "mark");
	pt_buf_addch(&h->out, '[');
	for (t = 0; t < p->ntypes; t++) {
		unsigned char *marks = pt_graph_name_marks(p, t);
		for (i = 0; i < a->nentries; i++)
			v[i] = marks[a->entries[i].name];
		free(marks);
		if (t)
			pt_buf_addch(&h->out, ',');
		u32_array(h, v, a->nentries);
	}
	pt_buf_addch(&h->out, ']');
}

/* the callers (side 0) or callees (side 1) of each function that were left out: one
 * "(other)" entry per function with their count and summed values */
static void write_other(struct html *h, const char *name, const uint32_t *n, const int64_t *v)
{
	const struct pt_agg *a = &h->agg;
	uint32_t w = a->ntypes, i, t, k = 0;
	uint32_t *fn = pt_xmalloc(((size_t)a->nentries + 1) * sizeof(uint32_t));
	uint32_t *cnt = pt_xmalloc(((size_t)a->nentries + 1) * sizeof(uint32_t));
	int64_t *val = pt_xmalloc(((size_t)a->nentries + 1) * (w ? w : 1) * sizeof(int64_t));

	for (i = 0; i < a->nentries; i++) {
		if (!n[i])
			continue;
		fn[k] = i;
		cnt[k] = n[i];
		for (t = 0; t < w; t++)
			val[(size_t)k * w + t] = v[(size_t)i * w + t];
		k++;
	}
	key(h, name);
	pt_buf_addch(&h->out, '{');
	key(h, "fn");
	u32_array(h, fn, k);
	key(h, "n");
	u32_array(h, cnt, k);
	key(h, "v");
	typed_arrays(h, val, k);
	pt_buf_addch(&h->out, '}');
	free(fn);
	free(cnt);
	free(val);
}

/* Caller -> callee pairs, bounded like the tree: a pair is written when its value is at
 * least min_fraction of the total in some type, and of those the max_frames widest; the
 * rest of each function's callers, and of its callees, are summed into one "(other)"
 * entry each (otherCallers, otherCallees). */
static void write_edges(struct html *h)
{
	const struct pt_agg *a = &h->agg;
	uint32_t w = a->ntypes, i, t, k;
	int64_t *thr = thresholds(h, a->total);
	uint8_t *keep = pt_xcalloc((size_t)a->nedges + 1, 1);
	uint32_t *v = pt_xmalloc(((size_t)a->nedges + 1) * sizeof(uint32_t));
	uint32_t *ncallers = pt_xcalloc((size_t)a->nentries + 1, sizeof(uint32_t));
	uint32_t *ncallees = pt_xcalloc((size_t)a->nentries + 1, sizeof(uint32_t));
	int64_t *vcallers = pt_xcalloc(((size_t)a->nentries + 1) * (w ? w : 1), sizeof(int64_t));
	int64_t *vcallees = pt_xcalloc(((size_t)a->nentries + 1) * (w ? w : 1), sizeof(int64_t));
	int64_t *vk;
	struct ranked *r = NULL;
	size_t nk = 0;

	for (i = 0; i < a->nedges; i++) {
		keep[i] = (uint8_t)reaches(&a->edge_value[(size_t)i * w], thr, w);
		nk += keep[i];
	}
	if (h->o->max_frames > 0 && nk > (size_t)h->o->max_frames) {
		r = pt_xmalloc(nk * sizeof(*r));
		for (nk = 0, i = 0; i < a->nedges; i++)
			if (keep[i])
				r[nk++] = (struct ranked){
					share_of(&a->edge_value[(size_t)i * w], a->total, w), 0, i};
		nk = keep_widest(r, nk, (size_t)h->o->max_frames, keep);
		free(r);
	}
	vk = pt_xmalloc((nk + 1) * (w ? w : 1) * sizeof(int64_t));
	key(h, "edges");
	pt_buf_addch(&h->out, '{');
	for (i = k = 0; i < a->nedges; i++) {
		const struct pt_agg_edge *e = &a->edges[i];
		const int64_t *ev = &a->edge_value[(size_t)i * w];
		if (keep[i]) {
			v[k] = e->caller;
			memcpy(&vk[(size_t)k++ * w], ev, w * sizeof(int64_t));
			continue;
		}
		for (t = 0; t < w && !ev[t]; t++)
			;
		if (t == w) /* nothing to count: no entry */
			continue;
		ncallers[e->callee]++;
		ncallees[e->caller]++;
		for (t = 0; t < w; t++) {
			vcallers[(size_t)e->callee * w + t] =
				pt_add(vcallers[(size_t)e->callee * w + t], ev[t]);
			vcallees[(size_t)e->caller * w + t] =
				pt_add(vcallees[(size_t)e->caller * w + t], ev[t]);
		}
	}
	key(h, "from");
	u32_array(h, v, nk);
	for (i = k = 0; i < a->nedges; i++)
		if (keep[i])
			v[k++] = a->edges[i].callee;
	key(h, "to");
	u32_array(h, v, nk);
	key(h, "v");
	typed_arrays(h, vk, nk);
	key(h, "perOccurrence");
	pt_buf_add_i64(&h->out, a->edges_per_occurrence);
	write_other(h, "otherCallers", ncallers, vcallers);
	write_other(h, "otherCallees", ncallees, vcallees);
	pt_buf_addch(&h->out, '}');
	free(thr);
	free(keep);
	free(v);
	free(vk);
	free(ncallers);
	free(ncallees);
	free(vcallers);
	free(vcallees);
}

static void write_functions(struct html *h)
{
	const struct pt_agg *a = &h->agg;
	uint32_t i, *v = pt_xmalloc(((size_t)a->nentries + 1) * sizeof(uint32_t));

	key(h, "fn");
	pt_buf_addch(&h->out, '{');
	key(h, "name");
	for (i = 0; i < a->nentries; i++)
		v[i] = sid(h, a->entries[i].name);
	u32_array(h, v, a->nentries);
	key(h, "file");
	for (i = 0; i < a->nentries; i++)
		v[i] = sid(h, a->entries[i].file);
	u32_array(h, v, a->nentries);
	key(h, "line");
	for (i = 0; i < a->nentries; i++)
		v[i] = a->entries[i].line > 0 && a->entries[i].line < UINT32_MAX
			       ? (uint32_t)a->entries[i].line
			       : 0;
	u32_array(h, v, a->nentries);
	key(h, "flags");
	for (i = 0; i < a->nentries; i++)
		v[i] = a->entries[i].flags;
	u32_array(h, v, a->nentries);
	key(h, "flat");
	typed_arrays(h, a->flat, a->nentries);
	key(h, "cum");
	typed_arrays(h, a->cum, a->nentries);
	write_marks(h, v);
	pt_buf_addch(&h->out, '}');

	write_edges(h);

	key(h, "lines");
	pt_buf_addch(&h->out, '{');
	key(h, "fn");
	v = pt_xreallocarray(v, (size_t)a->nlines + 1, sizeof(uint32_t));
	for (i = 0; i < a->nlines; i++)
		v[i] = a->lines[i].entry;
	u32_array(h, v, a->nlines);
	key(h, "line");
	for (i = 0; i < a->nlines; i++)
		v[i] = a->lines[i].line > 0 && a->lines[i].line < UINT32_MAX
			       ? (uint32_t)a->lines[i].line
			       : 0;
	u32_array(h, v, a->nlines);
	key(h, "self");
	typed_arrays(h, a->line_self, a->nlines);
	key(h, "cum");
	typed_arrays(h, a->line_cum, a->nlines);
	pt_buf_addch(&h->out, '}');
	free(v);
}

/* ---- time order: runs of events on one drawn node, per thread or process ---- */

/* the name of a label set's thread or process ("" when it has none of those labels) */
static void group_name(struct html *h, uint32_t ls, struct pt_buf *b)
{
	const struct pt_profile *p = h->p;
	const struct pt_labelset *l = &p->labelsets[ls];
	const char *comm = NULL, *thread = NULL;
	int64_t pid = -1, tid = -1;
	uint32_t i;

	pt_buf_reset(b);
	if (!ls)
		return;
	for (i = 0; i < l->n; i++) {
		const char *k = pt_s(p, l->v[i].key);
		if (!strcmp(k, PT_LABEL_PID) && !l->v[i].str)
			pid = l->v[i].num;
		else if (!strcmp(k, PT_LABEL_TID) && !l->v[i].str)
			tid = l->v[i].num;
		else if (!strcmp(k, PT_LABEL_COMM) && l->v[i].str)
			comm = pt_s(p, l->v[i].str);
		else if (!strcmp(k, PT_LABEL_THREAD) && l->v[i].str)
			thread = pt_s(p, l->v[i].str);
	}
	if (thread)
		pt_buf_addstr(b, thread);
	else if (comm)
		pt_buf_addstr(b, comm);
	if (pid >= 0)
		pt_buf_addf(b, "%spid %" PRId64, b->len ? " " : "", pid);
	if (tid >= 0 && tid != pid)
		pt_buf_addf(b, "%stid %" PRId64, b->len ? " " : "", tid);
}

/* the runs of the time order, as written: group, node, values, the times of the first
 * and the last event */
struct runs {
	uint32_t *g, *node;
	int64_t *v, *t0, *t1;
	size_t n, alloc;
	uint32_t w;
};

static void run_add(struct runs *r, uint32_t g, uint32_t node, const int64_t *v, int64_t t0,
		    int64_t t1)
{
	size_t old = r->alloc;

	PT_ALLOC_GROW(r->g, r->n + 1, r->alloc);
	if (r->alloc != old) {
		r->node = pt_xreallocarray(r->node, r->alloc, sizeof(uint32_t));
		r->t0 = pt_xreallocarray(r->t0, r->alloc, sizeof(int64_t));
		r->t1 = pt_xreallocarray(r->t1, r->alloc, sizeof(int64_t));
		r->v = pt_xreallocarray(r->v, r->alloc * (r->w ? r->w : 1), sizeof(int64_t));
	}
	r->g[r->n] = g;
	r->node[r->n] = node;
	r->t0[r->n] = t0;
	r->t1[r->n] = t1;
	memcpy(&r->v[r->n * r->w], v, r->w * sizeof(int64_t));
	r->n++;
}

#define LCA_STEPS 256 /* a common ancestor further than this is taken to be the root */

/* the deepest written node above both a and b (the root past LCA_STEPS steps) */
static uint32_t common_ancestor(const struct html *h, uint32_t a, uint32_t b)
{
	unsigned steps = 0;

	while (a != b) {
		if (++steps > LCA_STEPS)
			return 0;
		if (h->out_depth[a] >= h->out_depth[b])
			a = h->out_parent[a];
		else
			b = h->out_parent[b];
	}
	return a;
}

/* a run being built, per group */
struct pending {
	uint32_t node;
	int on;
	int64_t t0, t1;
};

/* Consecutive events of one group on one drawn node are one run. Bounded like the
 * tree: a run below min_fraction of the total in every type followed by another such
 * run becomes one run on their deepest common ancestor, with both values; so every run
 * written reaches the threshold or precedes one that does, at most two per threshold's
 * worth of each type's total (plus one per group). */
static void time_runs(struct html *h, const uint32_t *group_of_event, uint32_t ngroups,
		      struct runs *r)
{
	const struct pt_profile *p = h->p;
	uint32_t w = p->ntypes, t;
	int64_t *thr = thresholds(h, h->agg.total);
	struct pending *pd = pt_xcalloc((size_t)ngroups + 1, sizeof(*pd));
	int64_t *pv = pt_xcalloc(((size_t)ngroups + 1) * (w ? w : 1), sizeof(int64_t));
	size_t i;

	for (i = 0; i < p->nevents; i++) {
		const struct pt_sample *s = &p->samples[p->events[i].sample];
		const int64_t *v = &p->event_values[i * w];
		uint32_t g = group_of_event[i], node = h->out_of_m[h->of_node[s->node]];
		struct pending *q = &pd[g];
		int64_t *qv = &pv[(size_t)g * w];
		if (q->on && q->node != node) {
			if (reaches(qv, thr, w) || reaches(v, thr, w)) {
				run_add(r, g, q->node, qv, q->t0, q->t1);
				q->on = 0;
			} else {
				q->node = common_ancestor(h, q->node, node);
			}
		}
		if (!q->on) {
			q->on = 1;
			q->node = node;
			q->t0 = p->events[i].time;
			memset(qv, 0, w * sizeof(int64_t));
		}
		q->t1 = p->events[i].time;
		for (t = 0; t < w; t++)
			qv[t] = pt_add(qv[t], v[t]);
	}
	for (i = 0; i < ngroups; i++)
		if (pd[i].on)
			run_add(r, (uint32_t)i, pd[i].node, &pv[i * w], pd[i].t0, pd[i].t1);
	free(pd);
	free(pv);
	free(thr);
}

static void write_timeline(struct html *h)
{
	const struct pt_profile *p = h->p;
	struct pt_arena arena;
	struct pt_intern groups;
	struct pt_buf name = PT_BUF_INIT;
	uint32_t *group_of_ls = pt_xmalloc(((size_t)p->nlabelsets + 1) * sizeof(uint32_t));
	uint32_t *group_of_event = pt_xmalloc(((size_t)p->nevents + 1) * sizeof(uint32_t)), g;
	struct runs r;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.w = p->ntypes;
	pt_arena_init(&arena);
	pt_intern_init(&groups, &arena);
	for (i = 0; i < p->nlabelsets; i++)
		group_of_ls[i] = NO_ID;
	for (i = 0; i < p->nevents; i++) {
		const struct pt_sample *s = &p->samples[p->events[i].sample];
		if (group_of_ls[s->labels] == NO_ID) {
			group_name(h, s->labels, &name);
			group_of_ls[s->labels] =
				pt_intern(&groups, name.buf ? name.buf : "", name.len);
		}
		group_of_event[i] = group_of_ls[s->labels];
	}
	time_runs(h, group_of_event, groups.n, &r);
	key(h, "timeline");
	pt_buf_addch(&h->out, '{');
	key(h, "groups");
	pt_buf_addch(&h->out, '[');
	for (g = 0; g < groups.n; g++) { /* id 0: samples of no thread or process */
		if (g)
			pt_buf_addch(&h->out, ',');
		add_str(h, pt_intern_str(&groups, g), pt_intern_len(&groups, g));
	}
	pt_buf_addch(&h->out, ']');
	key(h, "g");
	u32_array(h, r.g, r.n);
	key(h, "node");
	u32_array(h, r.node, r.n);
	key(h, "v");
	typed_arrays(h, r.v, r.n);
	/* the times (ns from the profile's start) of each run's first and last event */
	key(h, "t0");
	i64_array(h, r.t0, r.n);
	key(h, "t1");
	i64_array(h, r.t1, r.n);
	pt_buf_addch(&h->out, '}');
	free(r.t0);
	free(r.t1);
	free(r.g);
	free(r.node);
	free(r.v);
	free(group_of_ls);
	free(group_of_event);
	pt_buf_release(&name);
	pt_intern_release(&groups);
	pt_arena_release(&arena);
}

/* ---- the call graph: pprof's graph view, as --to dot shows it ---- */

/* Per sample type, the graph --to dot draws with the same options (--nodecount,
 * --node-fraction, --edge-fraction; analysis/graph's rule): the kept entries
 * heaviest first (`n`), and the edges between them (`from`, `to`, `w`, `res` 1 for
 * an edge that skips dropped frames); the page lays it out. */
static void write_graph(struct html *h)
{
	const struct pt_profile *p = h->p;
	const struct pt_agg *a = &h->agg;
	uint32_t t, k, ne, *v = NULL, *res = NULL;
	int64_t *w = NULL;
	const char *names[] = {"from", "to", "w", "res"};
	struct pt_buf parts[4];
	int i;

	for (i = 0; i < 4; i++)
		pt_buf_init(&parts[i]);
	key(h, "graph");
	pt_buf_addch(&h->out, '{');
	/* the options, for the page's graph of a refined profile (report.js) */
	key(h, "opts");
	pt_buf_addf(&h->out, "[%ld,%.17g,%.17g]", h->o->nodecount, h->o->node_fraction,
		    h->o->edge_fraction);
	key(h, "n");
	pt_buf_addch(&h->out, '[');
	for (t = 0; t < p->ntypes; t++) {
		struct pt_graph_shown s;
		struct pt_graph g;
		int64_t cut = (int64_t)fabs((double)a->total[t] * h->o->edge_fraction);
		pt_graph_keep(p, a, t, h->o->nodecount, h->o->node_fraction, &s);
		pt_graph_of_table(&g, p, a, t, 1, s.kept, PT_GRAPH_SELF_EDGES);
		v = pt_xreallocarray(v, (size_t)g.nedges + 1, sizeof(uint32_t));
		res = pt_xreallocarray(res, (size_t)g.nedges + 1, sizeof(uint32_t));
		w = pt_xreallocarray(w, (size_t)g.nedges + 1, sizeof(int64_t));
		if (t)
			pt_buf_addch(&h->out, ',');
		u32_array(h, s.order, s.nkept);
		for (i = 0; i < 4; i++)
			pt_buf_addstr(&parts[i], t ? ",[" : "[");
		for (k = ne = 0; k < g.nedges; k++) {
			const struct pt_graph_edge *e = &g.edges[k];
			if (!e->weight || (e->weight < 0 ? -e->weight : e->weight) < cut)
				continue;
			pt_buf_addf(&parts[0], "%s%" PRIu32, ne ? "," : "", e->from);
			pt_buf_addf(&parts[1], "%s%" PRIu32, ne ? "," : "", e->to);
			pt_buf_addf(&parts[2], "%s%" PRId64, ne ? "," : "", e->weight);
			pt_buf_addf(&parts[3], "%s%u", ne ? "," : "", e->residual ? 1u : 0u);
			ne++;
		}
		for (i = 0; i < 4; i++)
			pt_buf_addch(&parts[i], ']');
		pt_graph_release(&g);
		free(s.order);
		free(s.kept);
	}
	pt_buf_addch(&h->out, ']');
	for (i = 0; i < 4; i++) {
		key(h, names[i]);
		pt_buf_addch(&h->out, '[');
		pt_buf_add(&h->out, parts[i].buf ? parts[i].buf : "", parts[i].len);
		pt_buf_addch(&h->out, ']');
		pt_buf_release(&parts[i]);
	}
	pt_buf_addch(&h->out, '}');
	flush(h);
	free(v);
	free(res);
	free(w);
}

/* ---- source lines, with --source-path ---- */

#define SRC_MAX_RANGE 2000	 /* lines embedded per function, at most */
#define SRC_MAX_BYTES (4 << 20)	 /* source text embedded in all, at most */
#define SRC_MAX_READ  (10 << 20) /* source lines read in all, at most */

/* the source file: under each directory of dirs, the recorded path and then ever
 * shorter tails of it (pprof's rule, as `method --source-path` looks) */
static FILE *find_source(const char *path, const char *dirs, struct pt_buf *b)
{
	FILE *fp = NULL;

	while (dirs && *dirs && !fp) {
		const char *end = strchr(dirs, ':'), *tail = path;
		size_t dlen = end ? (size_t)(end - dirs) : strlen(dirs);
		for (; tail && !fp; tail = strchr(tail, '/')) {
			while (*tail == '/')
				tail++;
			if (!*tail)
				break;
			pt_buf_reset(b);
			pt_buf_add(b, dirs, dlen);
			pt_buf_addch(b, '/');
			pt_buf_addstr(b, tail);
			fp = fopen(b->buf, "r");
		}
		dirs = end ? end + 1 : NULL;
	}
	return fp;
}

static void write_sources(struct html *h)
{
	const struct pt_profile *p = h->p;
	const struct pt_agg *a = &h->agg;
	int64_t *lo = pt_xmalloc(((size_t)a->nentries + 1) * sizeof(int64_t));
	int64_t *hi = pt_xcalloc((size_t)a->nentries + 1, sizeof(int64_t));
	uint32_t *fn = NULL, *first = NULL, *text = NULL, i, t, w = a->ntypes, n = 0;
	size_t alloc = 0, bytes = 0, read = 0, cap = 0;
	struct pt_buf path = PT_BUF_INIT, code = PT_BUF_INIT;
	char *line = NULL;

	for (i = 0; i < a->nentries; i++)
		lo[i] = INT64_MAX;
	for (i = 0; i < a->nlines; i++) {
		const struct pt_agg_line *l = &a->lines[i];
		int any = 0;
		for (t = 0; t < w; t++)
			any |= a->line_self[(size_t)i * w + t] || a->line_cum[(size_t)i * w + t];
		if (!any || l->line <= 0 || l->line >= UINT32_MAX)
			continue;
		if (l->line < lo[l->entry])
			lo[l->entry] = l->line;
		if (l->line > hi[l->entry])
			hi[l->entry] = l->line;
	}
	for (i = 0; i < a->nentries && bytes < SRC_MAX_BYTES && read < SRC_MAX_READ; i++) {
		const struct pt_agg_entry *e = &a->entries[i];
		int64_t from, to, ln = 0;
		ssize_t len;
		FILE *fp;
		if (!hi[i] || !e->file)
			continue;
		/* stackprof's range: the def line to one past the last line with samples */
		from = e->line > 0 && e->line < lo[i] ? e->line : lo[i];
		to = hi[i] + 1;
		if (to - from >= SRC_MAX_RANGE)
			from = to - SRC_MAX_RANGE + 1;
		fp = find_source(pt_s(p, e->file), h->o->source_path, &path);
		if (!fp)
			continue;
		pt_buf_reset(&code);
		while (ln < to && read < SRC_MAX_READ && (len = getline(&line, &cap, fp)) > 0) {
			read++;
			if (++ln < from)
				continue;
			pt_buf_add(&code, line, (size_t)len);
			if (!code.len || code.buf[code.len - 1] != '\n')
				pt_buf_addch(&code, '\n');
		}
		fclose(fp);
		if (ln < from)
			continue;
		{
			size_t old = alloc;
			PT_ALLOC_GROW(fn, (size_t)n + 1, alloc);
			if (alloc != old) {
				first = pt_xreallocarray(first, alloc, sizeof(uint32_t));
				text = pt_xreallocarray(text, alloc, sizeof(uint32_t));
			}
		}
		fn[n] = i;
		first[n] = (uint32_t)from;
		text[n] = pt_intern(&h->strs, code.buf, code.len);
		bytes += code.len;
		n++;
	}
	key(h, "src");
	pt_buf_addch(&h->out, '{');
	key(h, "fn");
	u32_array(h, fn, n);
	key(h, "first");
	u32_array(h, first, n);
	key(h, "text");
	u32_array(h, text, n);
	pt_buf_addch(&h->out, '}');
	free(line);
	free(fn);
	free(first);
	free(text);
	free(lo);
	free(hi);
	pt_buf_release(&path);
	pt_buf_release(&code);
}

/* a timeline: events with times (readers of formats without time stamps, such as
 * collapsed, keep their input order as events at time 0) */
static int has_times(const struct pt_profile *p)
{
	size_t e;
	for (e = 0; e < p->nevents; e++)
		if (p->events[e].time)
			return 1;
	return 0;
}

/* ---- the page ---- */

static void add_html_text(struct pt_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			pt_buf_addstr(b, "&lt;");
		else if (*s == '>')
			pt_buf_addstr(b, "&gt;");
		else if (*s == '&')
			pt_buf_addstr(b, "&amp;");
		else if (*s == '"')
			pt_buf_addstr(b, "&quot;");
		else
			pt_buf_addch(b, *s);
	}
}

/* the input's file name, without its folders */
static const char *input_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* the tab's title: --title, or the input's name and the sample type shown (the page's
 * script keeps it so as the type changes), or "proftool report" */
static void write_title(struct html *h, uint32_t type)
{
	const struct pt_profile *p = h->p;

	if (h->o->title) {
		add_html_text(&h->out, h->o->title);
	} else if (h->o->input && type < p->ntypes) {
		add_html_text(&h->out, input_name(h->o->input));
		pt_buf_addstr(&h->out, " (");
		add_html_text(&h->out, pt_s(p, p->types[type].name));
		pt_buf_addstr(&h->out, ")");
	} else {
		pt_buf_addstr(&h->out, "proftool report");
	}
}

static void write_data(struct html *h, uint32_t type)
{
	const struct pt_profile *p = h->p;
	const char *title = h->o->title ? h->o->title : "";
	int base = -1;
	uint32_t t, i;

	if (type < p->ntypes && !strcmp(pt_s(p, p->types[type].name), "new"))
		base = pt_profile_find_type(p, "base");
	pt_buf_addch(&h->out, '{');
	key(h, "v");
	pt_buf_addch(&h->out, '1');
	key(h, "title");
	add_str(h, title, strlen(title));
	if (h->o->input) {
		const char *in = input_name(h->o->input);
		key(h, "input");
		add_str(h, in, strlen(in));
	}
	key(h, "format");
	add_str(h, p->format ? p->format : "", p->format ? strlen(p->format) : 0);
	key(h, "types");
	pt_buf_addch(&h->out, '[');
	for (t = 0; t < p->ntypes; t++) {
		/* the page's string ids are given in one order, not in the compiler's order
		 * of arguments: unit, then name, as gcc's builds always gave them */
		uint32_t unit = sid(h, p->types[t].unit), name = sid(h, p->types[t].name);
		pt_buf_addf(&h->out, "%s[%u,%u,%u]", t ? "," : "", name, unit,
			    p->types[t].decimals);
	}
	pt_buf_addch(&h->out, ']');
	key(h, "type");
	pt_buf_add_u64(&h->out, type);
	key(h, "diff");
	if (base >= 0)
		pt_buf_addf(&h->out, "[%d,%u]", base, type);
	else
		pt_buf_addstr(&h->out, "null");
	key(h, "minFraction");
	pt_buf_addf(&h->out, "%g", h->o->min_fraction);
	key(h, "totals");
	pt_buf_addch(&h->out, '[');
	for (t = 0; t < p->ntypes; t++) {
		if (t)
			pt_buf_addch(&h->out, ',');
		pt_buf_add_i64(&h->out, h->agg.total[t]);
	}
	pt_buf_addch(&h->out, ']');
	write_functions(h);
	if (h->o->source_path)
		write_sources(h);
	write_graph(h);
	if (pt_profile_has_stacks(p)) {
		write_tree(h);
		write_line_tree(h);
		if (has_times(p))
			write_timeline(h);
	} else {
		const char *why = pt_profile_no_stacks_why(p);
		key(h, "noStacks");
		add_str(h, why, strlen(why));
	}
	key(h, "strings");
	pt_buf_addch(&h->out, '[');
	for (i = 0; i < h->strs.n; i++) {
		if (i)
			pt_buf_addch(&h->out, ',');
		add_str(h, pt_intern_str(&h->strs, i), pt_intern_len(&h->strs, i));
		flush(h);
	}
	pt_buf_addstr(&h->out, "]}");
}

static int html_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *fp,
		      struct pt_diag *d)
{
	struct html h;
	struct pt_agg *a = &h.agg;
	uint32_t f, type;
	int ret = 0;

	memset(&h, 0, sizeof(h));
	h.p = p;
	h.o = o;
	h.fp = fp;
	pt_buf_init(&h.out);
	pt_buf_init(&h.tmp);
	pt_arena_init(&h.arena);
	pt_intern_init(&h.strs, &h.arena);
	if (pt_aggregate(p, PT_GRAN_FUNCTIONS, a, d) < 0) {
		ret = -1;
		goto out;
	}
	h.str_of = pt_xcalloc((size_t)p->strings.n + 1, sizeof(uint32_t));
	h.entry_of_frame = pt_xcalloc((size_t)p->nframes + 1, sizeof(uint32_t));
	if (pt_profile_has_stacks(p))
		for (f = 1; f < p->nframes; f++)
			h.entry_of_frame[f] = pt_agg_entry_for_frame(p, a, f);
	type = o->type >= 0 && (uint32_t)o->type < p->ntypes ? (uint32_t)o->type : p->default_type;

	pt_buf_addstr(&h.out,
		      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
		      "'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
		      "img-src data:\">\n<meta name=\"viewport\" "
		      "content=\"width=device-width, initial-scale=1\">\n<title>");
	write_title(&h, type);
	pt_buf_addstr(&h.out,
		      "</title>\n<meta name=\"generator\" content=\"proftool " PACKAGE_VERSION
		      "\">\n<style>\n");
	pt_buf_addstr(&h.out, pt_html_css);
	pt_buf_addstr(&h.out, "</style>\n</head>\n<body>\n<script type=\"application/json\" "
			      "id=\"pt-data\">");
	write_data(&h, type);
	pt_buf_addstr(&h.out, "</script>\n<script>\n");
	pt_buf_addstr(&h.out, pt_html_js);
	pt_buf_addstr(&h.out, "</script>\n</body>\n</html>\n");
	pt_buf_write_out(&h.out, fp, 0);
	pt_agg_release(a);
out:
	free(h.str_of);
	free(h.entry_of_frame);
	free(h.mparent);
	free(h.mentry);
	free(h.mself);
	free(h.of_node);
	free(h.out_of_m);
	free(h.out_parent);
	free(h.out_depth);
	pt_buf_release(&h.out);
	pt_buf_release(&h.tmp);
	pt_intern_release(&h.strs);
	pt_arena_release(&h.arena);
	return ret;
}

static const char *const html_suffixes[] = {".html", ".htm", NULL};

const struct pt_format pt_format_html = {
	.name = "html",
	.description = "interactive report: flame graph, time order, function table",
	.suffixes = html_suffixes,
	.write = html_write,
	.wants_timeline = 1,
	/* --title is the svg table's, the graph's options dot's */
	.write_opts = PT_WOPTS_SVG | PT_WOPTS_HTML | PT_WOPTS_DOT,
	.heap_page = 1,
};
