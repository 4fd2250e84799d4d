/* collapsed.c: folded stacks as flamegraph.pl reads and stackcollapse-*.pl write:
 *     root;caller;leaf COUNT          (COUNT may be a decimal)
 *     root;caller;leaf BASE NEW       (difffolded.pl's two-count form)
 * See formats/collapsed.md for how lines map into the model. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "core/sink.h"
#include "formats/format.h"
#include "util/intern.h"
#include "util/map.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

#define MAX_DECIMALS 9

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The last whitespace-separated token of s[0..*n) if it is a count; on success *n is
 * cut back to before the one blank that separates it and 1 is returned. Only that one
 * blank goes, as flamegraph.pl's /^(.*)\s+?(\d+)$/ takes it: a name may end in a blank
 * (stackcollapse-perf.pl makes "f<double " of "f<double (double)>"), and the blanks
 * before the separator are that name's. */
static int take_count(const char *s, size_t *n, int64_t *v, uint32_t *decimals, int *overflow)
{
	size_t end = *n, i = end, dot = SIZE_MAX, k;
	uint64_t acc = 0;
	uint32_t dec = 0;

	while (i > 0 && (is_digit(s[i - 1]) || s[i - 1] == '.')) {
		if (s[i - 1] == '.') {
			if (dot != SIZE_MAX)
				return 0;
			dot = i - 1;
		}
		i--;
	}
	if (i == end || i == 0 || !pt_is_blank(s[i - 1]) || !is_digit(s[i]))
		return 0;
	*overflow = 0;
	for (k = i; k < end; k++) {
		if (s[k] == '.')
			continue;
		if (k > dot) {
			if (dec == MAX_DECIMALS)
				continue; /* further digits are below our precision */
			dec++;
		}
		if (acc > (uint64_t)INT64_MAX / 10 ||
		    acc * 10 + (uint64_t)(s[k] - '0') > (uint64_t)INT64_MAX) {
			*overflow = 1;
			return 0;
		}
		acc = acc * 10 + (uint64_t)(s[k] - '0');
	}
	*v = (int64_t)acc;
	*decimals = dec;
	*n = i - 1;
	return 1;
}

/* Only the first line decides: a later bad line is an error worth reporting, which
 * "not mine" would hide. A first line longer than the head is taken on trust when it
 * looks like text with ';' separators. */
/* A line opening with '#' or "//" is a comment (tools that write collapsed stacks put
 * their settings there; inferno skips them too) */
static int is_comment(const char *s, size_t n)
{
	return s[0] == '#' || (n >= 2 && s[0] == '/' && s[1] == '/');
}

static int collapsed_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *nl = NULL;
	size_t i = 0, n = 0, k;
	int64_t v;
	uint32_t dec;
	int ovf = 0;

	/* blank lines and comments before the first stack */
	for (;;) {
		nl = memchr(s + i, '\n', len - i);
		n = nl ? (size_t)(nl - (s + i)) : len - i;
		n = pt_trim_end(s + i, n);
		if ((n && !is_comment(s + i, n)) || !nl)
			break;
		i += (size_t)(nl - (s + i)) + 1;
	}
	if (!n || s[i] == '#' || pt_is_blank(s[i]) || memchr(s + i, '\0', n))
		return 0;
	if (!nl && len >= PT_DETECT_BYTES) {
		for (k = i; k < i + n; k++)
			if ((unsigned char)s[k] < 0x20 && s[k] != '\t')
				return 0;
		return memchr(s + i, ';', n) ? 10 : 0;
	}
	if (take_count(s + i, &n, &v, &dec, &ovf) || ovf)
		return 40;
	return 0;
}

static uint32_t frame_flags(const char *name, size_t n)
{
	if (n >= 4 && name[n - 4] == '_' && name[n - 3] == '[' && name[n - 1] == ']') {
		switch (name[n - 2]) {
		case 'k':
			return PT_FRAME_KERNEL;
		case 'j':
			return PT_FRAME_JIT;
		case 'i':
			return PT_FRAME_INLINED;
		}
	}
	return 0;
}

struct reader {
	struct pt_profile *p;
	struct pt_sink *sink; /* where the stacks go (core/sink.h) */
	struct pt_diag *d;
	int ncounts; /* 1 or 2, fixed by the first data line */
	uint32_t *frames;
	size_t frames_alloc;
	/* the profile's string id of a name -> its frame id, so a repeated name costs one
	 * lookup */
	uint32_t *frame_of_name;
	size_t fon_alloc;
	/* per type, the sum of the counts so far (saturating; counts are never negative):
	 * no value kept in the profile exceeds it, so a rescale that keeps it in range
	 * keeps every value in range */
	int64_t sum[2];
};

static uint32_t frame_for(struct reader *r, const char *s, size_t n)
{
	uint32_t id = pt_strn(r->p, s, n);
	if (id >= r->fon_alloc || !r->frame_of_name[id]) {
		size_t old = r->fon_alloc;
		if (id >= r->fon_alloc) {
			PT_ALLOC_GROW(r->frame_of_name, (size_t)id + 1, r->fon_alloc);
			memset(r->frame_of_name + old, 0, (r->fon_alloc - old) * sizeof(uint32_t));
		}
		r->frame_of_name[id] = pt_profile_name_frame(r->p, id, 0, 0, frame_flags(s, n));
	}
	return r->frame_of_name[id];
}

/* store v (with `dec` decimals) into type t, rescaling the type if needed; *overflow
 * is 1 when v would not fit, 2 when the counts before it would not once rescaled */
static int64_t fit_decimals(struct reader *r, uint32_t t, int64_t v, uint32_t dec, int *overflow)
{
	struct pt_sample_type *ty = &r->p->types[t];
	*overflow = 0;
	if (dec > ty->decimals) {
		int64_t f = 1;
		uint32_t i;
		for (i = ty->decimals; i < dec; i++)
			f *= 10;
		if (r->sum[t] > INT64_MAX / f) {
			*overflow = 2;
			return 0;
		}
		pt_sink_scale_type(r->sink, r->p, t, f);
		r->sum[t] *= f;
		ty->decimals = dec;
	}
	while (dec < ty->decimals) {
		if (v > INT64_MAX / 10) {
			*overflow = 1;
			return 0;
		}
		v *= 10;
		dec++;
	}
	return v;
}

static int read_line(struct reader *r, char *s, size_t n, uint64_t lineno)
{
	int64_t v[2];
	uint32_t dec[2];
	int ovf = 0, ncounts, i;
	size_t nframes = 0, start, k;

	if (memchr(s, '\0', n))
		return pt_diag_error_line(r->d, lineno, "NUL byte in line");
	if (is_comment(s, n))
		return 0;
	if (!take_count(s, &n, &v[1], &dec[1], &ovf))
		return pt_diag_error_line(r->d, lineno,
					  ovf ? "count is too large"
					      : "expected 'frame;frame;... COUNT'");
	ncounts = 1;
	if (r->ncounts != 1) {
		size_t m = n;
		if (take_count(s, &m, &v[0], &dec[0], &ovf)) {
			ncounts = 2;
			n = m;
		} else if (r->ncounts == 2) {
			return pt_diag_error_line(r->d, lineno,
						  "expected two counts, as on the first line");
		}
	}
	if (!n)
		return pt_diag_error_line(r->d, lineno, "empty stack");
	if (!r->ncounts) {
		r->ncounts = ncounts;
		if (ncounts == 2) {
			pt_profile_add_type(r->p, "base", "count");
			pt_profile_add_type(r->p, "new", "count");
			r->p->default_type = 1;
		} else {
			pt_profile_add_type(r->p, "samples", "count");
		}
	}

	/* frames, root first */
	start = 0;
	for (k = 0; k <= n; k++) {
		if (k == n || s[k] == ';') {
			PT_ALLOC_GROW(r->frames, nframes + 1, r->frames_alloc);
			r->frames[nframes++] = frame_for(r, s + start, k - start);
			start = k + 1;
		}
	}
	{
		int64_t vals[2];
		if (ncounts == 1) {
			vals[0] = fit_decimals(r, 0, v[1], dec[1], &ovf);
		} else {
			for (i = 0; i < 2 && !ovf; i++)
				vals[i] = fit_decimals(r, (uint32_t)i, v[i], dec[i], &ovf);
		}
		if (ovf)
			return pt_diag_error_line(r->d, lineno,
						  ovf == 2 ? "count has more decimals than the "
							     "counts before it leave room for"
							   : "count is too large");
		for (i = 0; i < ncounts; i++)
			r->sum[i] = pt_add(r->sum[i], vals[i]);
		pt_sink_sample(r->sink, r->p, r->frames, nframes, 0, 0, vals, 0);
	}
	return 0;
}

static int collapsed_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			  struct pt_diag *d)
{
	struct reader r;
	char *line;
	size_t n;
	int rc, ret = 0;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.sink = o->sink;
	r.d = d;
	p->format = "collapsed";
	while ((rc = pt_input_getline(in, &line, &n)) > 0) {
		size_t m = pt_trim_end(line, n);
		if (!m)
			continue;
		if (read_line(&r, line, m, in->lineno) < 0) {
			if (pt_input_cut_short(in, line, m)) {
				/* the input ends inside this line (cut short, no newline
				 * after it): a warning, the line is left out */
				pt_diag_cut(d, in->lineno, in->lineno);
				break;
			}
			if (pt_read_skip(o, d, in->lineno) < 0) {
				ret = -1;
				goto out;
			}
		}
	}
	if (rc < 0) {
		ret = -1;
		goto out;
	}
	if (!r.ncounts) {
		ret = pt_diag_error_line(d, in->lineno ? in->lineno : 1,
					 d->skipped || d->cut_line ? "no valid stack line"
								   : "empty input");
		goto out;
	}
out:
	free(r.frames);
	free(r.frame_of_name);
	return ret;
}

/* ---- writer ---- */

/* The writer re-keys the tree by printed name, since distinct frames (same function in
 * two files, say) print alike and must share a line. */
struct wnode {
	uint32_t parent, name, first_child, next_sibling;
	int64_t value;
};

struct writer {
	const struct pt_profile *p;
	struct wnode *nodes;
	size_t n, alloc;
	struct pt_intern names;
	struct pt_arena arena;
	uint32_t *name_of_frame; /* profile frame -> name id, UINT32_MAX until needed */
	uint32_t *rank;		 /* name id * 2 + (1 for ';') -> place in the line order */
	struct pt_buf out;
	/* PT_WRITE_ALL_TYPES: every type's value per wnode (wnode * ntypes); a wnode's
	 * value is then 1 when any of them is not 0 */
	int64_t *vals;
};

static void sanitize(struct pt_buf *b, const char *s, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ';')
			c = ':';
		else if ((c < 0x20 && c != '\t') || c == 0x7f)
			c = '?';
		pt_buf_addch(b, c);
	}
	/* "name 12" would read back as a name and an extra count: join with '_' */
	j = b->len;
	while (j > 0 && is_digit(b->buf[j - 1]))
		j--;
	if (j < b->len && j > 0 && pt_is_blank(b->buf[j - 1]))
		b->buf[j - 1] = '_';
	/* trailing blanks stay: the reader takes one blank only before the count */
}

static const char *tag_for(uint32_t flags, uint32_t wflags)
{
	/* stackcollapse-perf.pl's order: an inlined frame is _[i] even in the kernel or a
	 * JIT map */
	if ((flags & PT_FRAME_INLINED) && (wflags & PT_WRITE_TAG_INLINE))
		return "_[i]";
	if ((flags & PT_FRAME_KERNEL) && (wflags & PT_WRITE_TAG_KERNEL))
		return "_[k]";
	if ((flags & PT_FRAME_JIT) && (wflags & PT_WRITE_TAG_JIT))
		return "_[j]";
	return NULL;
}

static uint32_t frame_name(struct writer *w, uint32_t fid, uint32_t wflags, struct pt_buf *name)
{
	const struct pt_profile *p = w->p;
	if (w->name_of_frame[fid] == UINT32_MAX) {
		const struct pt_frame *f = &p->frames[fid];
		uint32_t sid = p->funcs[f->func].name;
		const char *tag = tag_for(f->flags, wflags);
		pt_buf_reset(name);
		sanitize(name, pt_s(p, sid), pt_intern_len(&p->strings, sid));
		if (tag && !(name->len >= 4 && !memcmp(name->buf + name->len - 4, tag, 4)))
			pt_buf_addstr(name, tag);
		w->name_of_frame[fid] = pt_intern(&w->names, name->buf, name->len);
	}
	return w->name_of_frame[fid];
}

static uint32_t wnode_new(struct writer *w, uint32_t parent, uint32_t name)
{
	uint32_t id = (uint32_t)w->n;
	PT_ALLOC_GROW(w->nodes, w->n + 1, w->alloc);
	w->nodes[id] = (struct wnode){parent, name, 0, w->nodes[parent].first_child, 0};
	w->nodes[parent].first_child = id;
	w->n++;
	return id;
}

/* Merge the profile's tree into w->nodes by printed name, in node order. Only a node
 * with a name that several frames print, or below such a node, can meet another node of
 * the same name path; the others get their wnode directly. So the (parent, name) hash,
 * whose cache misses made this writer slow on big trees, sees only those nodes. */
static void merge_tree(struct writer *w, uint32_t wflags, uint32_t t)
{
	const struct pt_profile *p = w->p;
	struct pt_buf name = PT_BUF_INIT;
	struct pt_map index;
	uint32_t *wnode_of, f, n, k;
	uint8_t *shared, *tainted;

	for (f = 1; f < p->nframes; f++)
		frame_name(w, f, wflags, &name);
	shared = pt_xcalloc((size_t)w->names.n + 1, 1);
	for (f = 1; f < p->nframes; f++)
		if (shared[w->name_of_frame[f]] < 2)
			shared[w->name_of_frame[f]]++;
	tainted = pt_xmalloc((size_t)p->nnodes);
	wnode_of = pt_xmalloc((size_t)p->nnodes * sizeof(uint32_t));
	pt_map_init(&index);
	/* at most one wnode per node: no regrowing (copies and page faults) on the way */
	PT_ALLOC_GROW(w->nodes, p->nnodes, w->alloc);
	memset(&w->nodes[0], 0, sizeof(w->nodes[0]));
	w->n = 1;
	wnode_of[0] = 0;
	tainted[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t par = p->nodes[n].parent, nm = w->name_of_frame[p->nodes[n].frame];
		struct wnode *x;
		tainted[n] = tainted[par] || shared[nm] > 1;
		if (tainted[n]) {
			uint32_t *slot = pt_map_put(&index, (uint64_t)wnode_of[par] << 32 | nm);
			if (*slot == PT_MAP_NEW)
				*slot = wnode_new(w, wnode_of[par], nm);
			wnode_of[n] = *slot;
		} else {
			wnode_of[n] = wnode_new(w, wnode_of[par], nm);
		}
		x = &w->nodes[wnode_of[n]];
		if (w->vals) {
			int64_t *dst = w->vals + (size_t)wnode_of[n] * p->ntypes;
			const int64_t *src = p->node_self + (size_t)n * p->ntypes;
			for (k = 0; k < p->ntypes; k++)
				dst[k] = pt_add(dst[k], src[k]);
		} else {
			x->value = pt_add(x->value, p->node_self[(size_t)n * p->ntypes + t]);
		}
	}
	for (n = 0; w->vals && n < w->n; n++)
		for (k = 0; k < p->ntypes; k++)
			if (w->vals[(size_t)n * p->ntypes + k])
				w->nodes[n].value = 1;
	pt_map_release(&index);
	free(wnode_of);
	free(tainted);
	free(shared);
	pt_buf_release(&name);
}

/* a line of output from a node: its own count (' ') or its children's lines (';') */
static int pair_cmp(const void *a, const void *b, void *ctx)
{
	const struct writer *w = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const char *xs = pt_intern_str(&w->names, x / 2);
	const char *ys = pt_intern_str(&w->names, y / 2);
	size_t xl = pt_intern_len(&w->names, x / 2);
	size_t yl = pt_intern_len(&w->names, y / 2);
	size_t m = xl < yl ? xl : yl;
	int c = memcmp(xs, ys, m);
	unsigned char xc, yc;

	if (c)
		return c;
	/* compare what follows the common part: the terminator, or the longer name */
	xc = (unsigned char)(xl > m ? xs[m] : x % 2 ? ';' : ' ');
	yc = (unsigned char)(yl > m ? ys[m] : y % 2 ? ';' : ' ');
	if (xc != yc)
		return xc < yc ? -1 : 1;
	if (xl != yl)
		return xl < yl ? -1 : 1;
	return (int)(x % 2) - (int)(y % 2);
}

/* The place of every (name, terminator) pair in `LC_ALL=C sort` order of the lines, so
 * that sorting siblings compares two integers. The pairs are distinct strings, so the
 * order is total and any sort gives the one result. */
static void rank_pairs(struct writer *w)
{
	size_t np = (size_t)w->names.n * 2, i;
	uint32_t *pairs = pt_xmalloc((np ? np : 1) * sizeof(uint32_t));
	for (i = 0; i < np; i++)
		pairs[i] = (uint32_t)i;
	qsort_r(pairs, np, sizeof(*pairs), pair_cmp, w);
	w->rank = pt_xmalloc((np ? np : 1) * sizeof(uint32_t));
	for (i = 0; i < np; i++)
		w->rank[pairs[i]] = (uint32_t)i;
	free(pairs);
}

/* entries are rank << 32 | wnode */
static int entry_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void sort_entries(uint64_t *v, size_t n)
{
	size_t i, j;
	if (n > 16) {
		qsort(v, n, sizeof(*v), entry_cmp);
		return;
	}
	for (i = 1; i < n; i++) {
		uint64_t x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static size_t push_children(struct writer *w, uint64_t **v, size_t *n, size_t *alloc,
			    uint32_t parent)
{
	size_t start = *n;
	uint32_t c;
	for (c = w->nodes[parent].first_child; c; c = w->nodes[c].next_sibling) {
		PT_ALLOC_GROW(*v, *n + 2, *alloc);
		if (w->nodes[c].value)
			(*v)[(*n)++] = (uint64_t)w->rank[w->nodes[c].name * 2] << 32 | c;
		if (w->nodes[c].first_child)
			(*v)[(*n)++] = (uint64_t)w->rank[w->nodes[c].name * 2 + 1] << 32 | c;
	}
	if (*n > start) /* *v is NULL while nothing was pushed */
		sort_entries(*v + start, *n - start);
	return start;
}

/* PT_WRITE_ALL_TYPES: " COUNT" per type, 0 for a type the stack has no value of */
static void add_counts(struct writer *w, uint32_t wn)
{
	const struct pt_profile *p = w->p;
	uint32_t t;

	for (t = 0; t < p->ntypes; t++) {
		int64_t v = w->vals[(size_t)wn * p->ntypes + t];
		pt_buf_addch(&w->out, ' ');
		if (v)
			pt_buf_add_raw(&w->out, v, p->types[t].decimals);
		else
			pt_buf_addch(&w->out, '0');
	}
}

struct level {
	size_t start, end, pos; /* entries of this level in the shared vector */
	size_t pathlen;		/* length of the path text before this level's names */
};

static int collapsed_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
			   struct pt_diag *d)
{
	struct writer w;
	struct pt_buf path = PT_BUF_INIT;
	uint32_t n, t, decimals;
	uint64_t *v = NULL;
	size_t nv = 0, valloc = 0, depth = 0, lalloc = 0;
	struct level *levels = NULL;

	if (pt_profile_need_stacks(p, NULL, d) < 0)
		return -1;
	memset(&w, 0, sizeof(w));
	if (o->flags & PT_WRITE_ALL_TYPES) {
		t = 0;
		w.vals = pt_xcalloc((size_t)p->nnodes, p->ntypes * sizeof(int64_t));
	} else if (o->type < 0 || (uint32_t)o->type >= p->ntypes) {
		return pt_diag_error(d, "collapsed output holds one sample type: "
					"choose one with --sample-index");
	} else {
		t = (uint32_t)o->type;
	}
	decimals = p->types[t].decimals;

	w.p = p;
	pt_buf_init(&w.out);
	pt_arena_init(&w.arena);
	pt_intern_init(&w.names, &w.arena);
	w.name_of_frame = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	for (n = 0; n <= p->nframes; n++)
		w.name_of_frame[n] = UINT32_MAX;
	merge_tree(&w, o->flags, t);
	free(w.name_of_frame);
	rank_pairs(&w);

	/* depth-first in exactly the order `LC_ALL=C sort` puts the lines */
	PT_ALLOC_GROW(levels, 1, lalloc);
	levels[0].start = push_children(&w, &v, &nv, &valloc, 0);
	levels[0].end = nv;
	levels[0].pos = levels[0].start;
	levels[0].pathlen = 0;
	depth = 1;
	while (depth) {
		struct level *l = &levels[depth - 1];
		const struct wnode *e;
		int term;

		if (l->pos == l->end) {
			nv = l->start;
			depth--;
			continue;
		}
		e = &w.nodes[(uint32_t)v[l->pos]];
		term = (v[l->pos] >> 32) == w.rank[e->name * 2] ? ' ' : ';';
		l->pos++;
		pt_buf_setlen(&path, l->pathlen);
		if (path.len)
			pt_buf_addch(&path, ';');
		pt_buf_add(&path, pt_intern_str(&w.names, e->name),
			   pt_intern_len(&w.names, e->name));
		if (term == ' ') {
			pt_buf_add(&w.out, path.buf, path.len);
			if (w.vals)
				add_counts(&w, (uint32_t)(e - w.nodes));
			else {
				pt_buf_addch(&w.out, ' ');
				pt_buf_add_raw(&w.out, e->value, decimals);
			}
			pt_buf_addch(&w.out, '\n');
			pt_buf_write_out(&w.out, out, PT_BUF_BLOCK);
		} else {
			size_t pathlen = path.len, start;
			start = push_children(&w, &v, &nv, &valloc, (uint32_t)(e - w.nodes));
			PT_ALLOC_GROW(levels, depth + 1, lalloc);
			levels[depth].start = start;
			levels[depth].end = nv;
			levels[depth].pos = start;
			levels[depth].pathlen = pathlen;
			depth++;
		}
	}
	pt_buf_write_out(&w.out, out, 0);

	free(levels);
	free(v);
	free(w.vals);
	free(w.nodes);
	free(w.rank);
	pt_intern_release(&w.names);
	pt_arena_release(&w.arena);
	pt_buf_release(&path);
	pt_buf_release(&w.out);
	return 0;
}

static const char *const collapsed_suffixes[] = {".collapsed", ".folded", NULL};

const struct pt_format pt_format_collapsed = {
	.name = "collapsed",
	.description = "folded stacks, one 'frame;frame COUNT' line per stack (FlameGraph)",
	.suffixes = collapsed_suffixes,
	.detect = collapsed_detect,
	.read = collapsed_read,
	.write = collapsed_write,
	.write_opts = PT_WOPTS_TAGS,
	/* difffolded.pl's "stack BASE NEW" lines */
	.diff_flags = PT_WRITE_ALL_TYPES,
};
