/* collapsed.c: folded stacks as flamegraph.pl reads and stackcollapse-*.pl write:
 *     root;caller;leaf COUNT          (COUNT may be a decimal)
 *     root;caller;leaf BASE NEW       (difffolded.pl's two-count form)
 * See formats/collapsed.md for how lines map into the model. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "format.h"
#include "intern.h"
#include "map.h"
#include "units.h"
#include "xalloc.h"

#define MAX_DECIMALS 9

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The last whitespace-separated token of s[0..*n) if it is a count; on success *n is
 * cut back to the whitespace before it (trimmed) and 1 is returned. */
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
	if (i == end || i == 0 || !is_space(s[i - 1]) || !is_digit(s[i]))
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
	while (i > 0 && is_space(s[i - 1]))
		i--;
	*n = i;
	return 1;
}

/* Only the first line decides: a later bad line is an error worth reporting, which
 * "not mine" would hide. A first line longer than the head is taken on trust when it
 * looks like text with ';' separators. */
static int collapsed_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *nl = NULL;
	size_t i = 0, n = 0, k;
	int64_t v;
	uint32_t dec;
	int ovf = 0;

	for (;;) {
		nl = memchr(s + i, '\n', len - i);
		n = nl ? (size_t)(nl - (s + i)) : len - i;
		while (n && is_space(s[i + n - 1]))
			n--;
		if (n || !nl)
			break;
		i += (size_t)(nl - (s + i)) + 1;
	}
	if (!n || s[i] == '#' || is_space(s[i]) || memchr(s + i, '\0', n))
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
	struct pt_diag *d;
	int ncounts; /* 1 or 2, fixed by the first data line */
	uint32_t *frames;
	size_t frames_alloc;
	/* name -> frame id, so a repeated name costs one lookup */
	struct pt_arena arena;
	struct pt_intern names;
	uint32_t *frame_of_name;
	size_t fon_alloc;
};

static uint32_t frame_for(struct reader *r, const char *s, size_t n)
{
	uint32_t id = pt_intern(&r->names, s, n);
	if (id >= r->fon_alloc || !r->frame_of_name[id]) {
		size_t old = r->fon_alloc;
		PT_ALLOC_GROW(r->frame_of_name, (size_t)id + 1, r->fon_alloc);
		memset(r->frame_of_name + old, 0, (r->fon_alloc - old) * sizeof(uint32_t));
		r->frame_of_name[id] = pt_profile_simple_frame(r->p, s, n, 0, 0, frame_flags(s, n));
	}
	return r->frame_of_name[id];
}

/* store v (with `dec` decimals) into type t, rescaling the type if needed */
static int64_t fit_decimals(struct pt_profile *p, uint32_t t, int64_t v, uint32_t dec,
			    int *overflow)
{
	struct pt_sample_type *ty = &p->types[t];
	*overflow = 0;
	if (dec > ty->decimals) {
		int64_t f = 1;
		uint32_t i;
		for (i = ty->decimals; i < dec; i++)
			f *= 10;
		pt_profile_scale_type(p, t, f);
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
		uint32_t node = pt_profile_stack(r->p, r->frames, nframes, 0);
		int64_t vals[2];
		if (ncounts == 1) {
			vals[0] = fit_decimals(r->p, 0, v[1], dec[1], &ovf);
		} else {
			for (i = 0; i < 2 && !ovf; i++)
				vals[i] = fit_decimals(r->p, (uint32_t)i, v[i], dec[i], &ovf);
		}
		if (ovf)
			return pt_diag_error_line(r->d, lineno, "count is too large");
		pt_profile_add_sample(r->p, node, 0, vals, 0);
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
	r.d = d;
	pt_arena_init(&r.arena);
	pt_intern_init(&r.names, &r.arena);
	p->format = "collapsed";
	while ((rc = pt_input_getline(in, &line, &n)) > 0) {
		size_t m = n;
		while (m && is_space(line[m - 1]))
			m--;
		if (!m)
			continue;
		if (read_line(&r, line, m, in->lineno) < 0) {
			if (!o->lenient) {
				ret = -1;
				goto out;
			}
			pt_diag_skip(d, in->lineno);
		}
	}
	if (rc < 0) {
		ret = -1;
		goto out;
	}
	if (!r.ncounts) {
		ret = pt_diag_error(d, d->skipped ? "no valid stack line" : "empty input");
		goto out;
	}
out:
	free(r.frames);
	free(r.frame_of_name);
	pt_intern_release(&r.names);
	pt_arena_release(&r.arena);
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
	struct wnode *nodes;
	size_t n, alloc;
	struct pt_map index;
	struct pt_intern names;
	struct pt_arena arena;
};

static void sanitize(struct pt_buf *b, const char *s, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ';')
			c = ':';
		else if (c < 0x20 || c == 0x7f)
			c = '?';
		pt_buf_addch(b, c);
	}
	/* "name 12" would read back as a name and an extra count: join with '_' */
	j = b->len;
	while (j > 0 && is_digit(b->buf[j - 1]))
		j--;
	if (j < b->len && j > 0 && is_space(b->buf[j - 1]))
		b->buf[j - 1] = '_';
	/* trailing blanks would merge into the separator before the count */
	while (b->len && is_space(b->buf[b->len - 1]))
		b->buf[--b->len] = '_';
}

static const char *tag_for(uint32_t flags, uint32_t wflags)
{
	if ((flags & PT_FRAME_KERNEL) && (wflags & PT_WRITE_TAG_KERNEL))
		return "_[k]";
	if ((flags & PT_FRAME_JIT) && (wflags & PT_WRITE_TAG_JIT))
		return "_[j]";
	if ((flags & PT_FRAME_INLINED) && (wflags & PT_WRITE_TAG_INLINE))
		return "_[i]";
	return NULL;
}

static uint32_t wchild(struct writer *w, uint32_t parent, uint32_t name)
{
	uint32_t *slot = pt_map_put(&w->index, (uint64_t)parent << 32 | name);
	uint32_t id;
	if (*slot != PT_MAP_NEW)
		return *slot;
	id = (uint32_t)w->n;
	PT_ALLOC_GROW(w->nodes, w->n + 1, w->alloc);
	w->nodes[id].parent = parent;
	w->nodes[id].name = name;
	w->nodes[id].first_child = 0;
	w->nodes[id].next_sibling = w->nodes[parent].first_child;
	w->nodes[parent].first_child = id;
	w->nodes[id].value = 0;
	w->n++;
	*slot = id;
	return id;
}

/* a line of output from a node: its own count (' ') or its children's lines (';') */
struct pseudo {
	uint32_t node;
	char term;
};

static int pseudo_cmp(const void *a, const void *b, void *ctx)
{
	const struct pseudo *x = a, *y = b;
	const struct writer *w = ctx;
	const char *xs = pt_intern_str(&w->names, w->nodes[x->node].name);
	const char *ys = pt_intern_str(&w->names, w->nodes[y->node].name);
	size_t xl = pt_intern_len(&w->names, w->nodes[x->node].name);
	size_t yl = pt_intern_len(&w->names, w->nodes[y->node].name);
	size_t m = xl < yl ? xl : yl;
	int c = memcmp(xs, ys, m);
	unsigned char xc, yc;

	if (c)
		return c;
	/* compare what follows the common part: the terminator, or the longer name */
	xc = (unsigned char)(xl > m ? xs[m] : x->term);
	yc = (unsigned char)(yl > m ? ys[m] : y->term);
	if (xc != yc)
		return xc < yc ? -1 : 1;
	if (xl != yl)
		return xl < yl ? -1 : 1;
	return (unsigned char)x->term - (unsigned char)y->term;
}

struct level {
	size_t start, end, pos; /* pseudo entries of this level in the shared vector */
	size_t pathlen;		/* length of the path text before this level's names */
};

static size_t push_children(struct writer *w, struct pseudo **v, size_t *n, size_t *alloc,
			    uint32_t parent)
{
	size_t start = *n;
	uint32_t c;
	for (c = w->nodes[parent].first_child; c; c = w->nodes[c].next_sibling) {
		if (w->nodes[c].value) {
			PT_ALLOC_GROW(*v, *n + 1, *alloc);
			(*v)[(*n)++] = (struct pseudo){c, ' '};
		}
		if (w->nodes[c].first_child) {
			PT_ALLOC_GROW(*v, *n + 1, *alloc);
			(*v)[(*n)++] = (struct pseudo){c, ';'};
		}
	}
	if (*n > start) /* *v is NULL while nothing was pushed */
		qsort_r(*v + start, *n - start, sizeof(**v), pseudo_cmp, w);
	return start;
}

static int collapsed_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
			   struct pt_diag *d)
{
	struct writer w;
	struct pt_buf path = PT_BUF_INIT, name = PT_BUF_INIT;
	uint32_t *wnode_of, *name_of_frame, n, t;
	struct pseudo *v = NULL;
	size_t nv = 0, valloc = 0, depth = 0, lalloc = 0;
	struct level *levels = NULL;

	if (!pt_profile_has_stacks(p))
		return pt_diag_error(d, "%s",
				     p->no_stacks_reason ? p->no_stacks_reason
							 : "the profile has no stacks");
	if (o->type < 0 || (uint32_t)o->type >= p->ntypes)
		return pt_diag_error(d, "collapsed output holds one sample type: "
					"choose one with --sample-index");
	t = (uint32_t)o->type;

	memset(&w, 0, sizeof(w));
	pt_arena_init(&w.arena);
	pt_intern_init(&w.names, &w.arena);
	pt_map_init(&w.index);
	PT_ALLOC_GROW(w.nodes, 1, w.alloc);
	memset(&w.nodes[0], 0, sizeof(w.nodes[0]));
	w.n = 1;

	name_of_frame = pt_xmalloc((size_t)p->nframes * sizeof(uint32_t));
	for (n = 0; n < p->nframes; n++)
		name_of_frame[n] = UINT32_MAX;
	wnode_of = pt_xmalloc((size_t)p->nnodes * sizeof(uint32_t));
	wnode_of[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t fid = p->nodes[n].frame;
		if (name_of_frame[fid] == UINT32_MAX) {
			const struct pt_frame *f = &p->frames[fid];
			uint32_t sid = p->funcs[f->func].name;
			const char *tag = tag_for(f->flags, o->flags);
			size_t len = pt_intern_len(&p->strings, sid);
			const char *s = pt_s(p, sid);
			pt_buf_reset(&name);
			sanitize(&name, s, len);
			if (tag && !(name.len >= 4 && !memcmp(name.buf + name.len - 4, tag, 4)))
				pt_buf_addstr(&name, tag);
			name_of_frame[fid] = pt_intern(&w.names, name.buf, name.len);
		}
		wnode_of[n] = wchild(&w, wnode_of[p->nodes[n].parent], name_of_frame[fid]);
		w.nodes[wnode_of[n]].value =
			pt_add(w.nodes[wnode_of[n]].value, p->node_self[(size_t)n * p->ntypes + t]);
	}
	free(wnode_of);
	free(name_of_frame);

	/* depth-first in exactly the order `LC_ALL=C sort` puts the lines */
	PT_ALLOC_GROW(levels, 1, lalloc);
	levels[0].start = push_children(&w, &v, &nv, &valloc, 0);
	levels[0].end = nv;
	levels[0].pos = levels[0].start;
	levels[0].pathlen = 0;
	depth = 1;
	while (depth) {
		struct level *l = &levels[depth - 1];
		struct pseudo e;
		const char *s;
		size_t len;

		if (l->pos == l->end) {
			nv = l->start;
			depth--;
			continue;
		}
		e = v[l->pos++];
		pt_buf_setlen(&path, l->pathlen);
		if (path.len)
			pt_buf_addch(&path, ';');
		s = pt_intern_str(&w.names, w.nodes[e.node].name);
		len = pt_intern_len(&w.names, w.nodes[e.node].name);
		pt_buf_add(&path, s, len);
		if (e.term == ' ') {
			pt_buf_addch(&path, ' ');
			pt_buf_add_raw(&path, w.nodes[e.node].value, p->types[t].decimals);
			pt_buf_addch(&path, '\n');
			fwrite(path.buf, 1, path.len, out);
		} else {
			size_t pathlen = path.len, start;
			start = push_children(&w, &v, &nv, &valloc, e.node);
			PT_ALLOC_GROW(levels, depth + 1, lalloc);
			levels[depth].start = start;
			levels[depth].end = nv;
			levels[depth].pos = start;
			levels[depth].pathlen = pathlen;
			depth++;
		}
	}

	free(levels);
	free(v);
	free(w.nodes);
	pt_map_release(&w.index);
	pt_intern_release(&w.names);
	pt_arena_release(&w.arena);
	pt_buf_release(&path);
	pt_buf_release(&name);
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
};
