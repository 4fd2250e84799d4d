/* stackprof.c: the builder both stackprof readers feed (formats/stackprof.h): it knows a
 * dump's layout (its keys, frames, edges, lines and the raw runs) and keeps what the end
 * (stackprof-model.c) makes the profile of. See formats/stackprof.md. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/stackprof.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/map.h"
#include "util/xalloc.h"

static const struct {
	const char *name;
	enum key k;
	int frame; /* a key of a frame's Hash (else of the top Hash) */
} keys[] = {
	{"version", K_VERSION, 0},
	{"mode", K_MODE, 0},
	{"interval", K_INTERVAL, 0},
	{"samples", K_SAMPLES, 0},
	{"gc_samples", K_GC, 0},
	{"missed_samples", K_MISSED, 0},
	{"metadata", K_METADATA, 0},
	{"frames", K_FRAMES, 0},
	{"raw", K_RAW, 0},
	{"raw_lines", K_RAW_LINES, 0},
	{"raw_sample_timestamps", K_TIMESTAMPS, 0},
	{"raw_timestamp_deltas", K_DELTAS, 0},
	{"name", K_NAME, 1},
	{"file", K_FILE, 1},
	{"line", K_LINE, 1},
	{"total_samples", K_TOTAL, 1},
	{"samples", K_SELF, 1},
	{"edges", K_EDGES, 1},
	{"lines", K_LINESKEY, 1},
};

static const char *vname(const struct val *v)
{
	switch (v->t) {
	case V_NIL:
		return "nil";
	case V_BOOL:
		return v->i ? "true" : "false";
	case V_INT:
	case V_BIG:
		return "an Integer";
	case V_FLOAT:
		return "a Float";
	case V_STR:
		return "a String";
	default:
		return "an object link";
	}
}

static int berr(struct builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int berr(struct builder *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pt_diag_verror_at(b->d, b->off, fmt, ap);
	va_end(ap);
	return -1;
}

static struct ctx *push(struct builder *b, enum ctx_kind k, int is_map, int in_key)
{
	struct ctx *c;
	PT_ALLOC_GROW(b->stack, b->depth + 1, b->stack_alloc);
	c = &b->stack[b->depth++];
	memset(c, 0, sizeof(*c));
	c->kind = k;
	c->is_map = is_map;
	c->expect_key = is_map;
	c->in_key = in_key;
	c->depth = 1;
	return c;
}

static const char *key_name(enum key k)
{
	size_t i;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (keys[i].k == k)
			return keys[i].name;
	return "?";
}

/* local frame for a dump id (Integer or String), created on first mention */
static int frame_for(struct builder *b, const struct val *v, uint32_t *out)
{
	uint32_t *slot;
	struct lframe *f;

	if (v->t == V_INT) {
		/* raw names the same few frames millions of times: a direct-mapped cache
		 * in front of the map (a miss only costs the map's lookup) */
		struct fcache *fc = &b->fcache[FCACHE_SLOT(v->i)];
		if (fc->f && fc->key == v->i) {
			*out = fc->f - 1;
			return 0;
		}
		slot = pt_map_put(&b->by_int, (uint64_t)v->i);
		if (*slot != PT_MAP_NEW) {
			fc->key = v->i;
			fc->f = *slot + 1;
		}
	} else if (v->t == V_STR)
		slot = pt_map_put(&b->by_str, v->s);
	else
		return berr(b, "frame id is %s, not an Integer or String", vname(v));
	if (*slot != PT_MAP_NEW) {
		*out = *slot;
		return 0;
	}
	if (b->nlf >= PT_MAP_NEW - 1)
		return berr(b, "too many frames");
	*slot = b->nlf;
	PT_ALLOC_GROW(b->lf, (size_t)b->nlf + 1, b->lf_alloc);
	f = &b->lf[b->nlf];
	memset(f, 0, sizeof(*f));
	f->has_key_str = v->t == V_STR;
	f->off = b->off;
	f->key_int = v->i;
	f->key_str = v->s;
	*out = b->nlf++;
	return 0;
}

void pt_stackprof_frame_label(struct builder *b, uint32_t i, struct pt_buf *out)
{
	/* input text in a message: one line, no control bytes */
	if (b->lf[i].has_key_str)
		pt_buf_add_printable(out, pt_s(b->p, b->lf[i].key_str),
				     pt_intern_len(&b->p->strings, b->lf[i].key_str));
	else
		pt_buf_addf(out, "%" PRId64, b->lf[i].key_int);
}

static int need_count(struct builder *b, const struct val *v, const char *what, int64_t *out)
{
	if (v->t != V_INT)
		return berr(b, "expected an Integer for '%s', found %s", what, vname(v));
	if (v->i < 0)
		return berr(b, "'%s' is negative", what);
	*out = v->i;
	return 0;
}

/* The raw trie and the line trie are prefix trees over 32-bit keys (frames, or
 * (frame, line) pairs), node 0 the root: per node its parent and key, and its first
 * child and next sibling. A parent is searched along its sibling list until it has
 * TRIE_SCAN children; from then on its children are in the hash `wide` too (bit
 * `indexed`). Deep, mostly unique stacks have parents of one or two children, which so
 * cost no hashing and 16 bytes a node. */
struct trie_ref {
	uint32_t **parent, **key, **first, **next;
	size_t *n, *alloc;
	struct pt_map *wide;
	uint8_t **indexed;
	size_t *indexed_alloc;
};

#define TRIE_SCAN 8

static uint32_t sib_child(const struct trie_ref *t, uint32_t parent, uint32_t key)
{
	uint32_t *slot = NULL, c, id, nsib = 0;
	int wide = (size_t)parent / 8 < *t->indexed_alloc &&
		   ((*t->indexed)[parent / 8] >> (parent % 8) & 1);

	if (wide) {
		slot = pt_map_put(t->wide, (uint64_t)parent << 32 | key);
		if (*slot != PT_MAP_NEW)
			return *slot;
	} else {
		for (c = (*t->first)[parent]; c; c = (*t->next)[c], nsib++)
			if ((*t->key)[c] == key)
				return c;
	}
	id = (uint32_t)*t->n;
	if (*t->n + 1 > *t->alloc) {
		/* the arrays grow together, and only when full */
		PT_ALLOC_GROW(*t->parent, *t->n + 1, *t->alloc);
		*t->key = pt_xreallocarray(*t->key, *t->alloc, sizeof(uint32_t));
		*t->first = pt_xreallocarray(*t->first, *t->alloc, sizeof(uint32_t));
		*t->next = pt_xreallocarray(*t->next, *t->alloc, sizeof(uint32_t));
	}
	if (slot) /* the map has not changed since pt_map_put */
		*slot = id;
	(*t->parent)[id] = parent;
	(*t->key)[id] = key;
	(*t->first)[id] = 0;
	(*t->next)[id] = (*t->first)[parent];
	(*t->first)[parent] = id;
	(*t->n)++;
	if (!wide && nsib + 1 >= TRIE_SCAN) {
		size_t byte = (size_t)parent / 8, old = *t->indexed_alloc;
		if (byte >= old) {
			PT_ALLOC_GROW(*t->indexed, byte + 1, *t->indexed_alloc);
			memset(*t->indexed + old, 0, *t->indexed_alloc - old);
		}
		(*t->indexed)[byte] |= (uint8_t)(1u << (parent % 8));
		for (c = (*t->first)[parent]; c; c = (*t->next)[c])
			*pt_map_put(t->wide, (uint64_t)parent << 32 | (*t->key)[c]) = c;
	}
	return id;
}

static uint32_t trie_child(struct builder *b, uint32_t parent, uint32_t frame)
{
	const struct trie_ref t = {&b->tparent, &b->tframe,   &b->tfirst,
				   &b->tnext,	&b->ntrie,    &b->trie_alloc,
				   &b->trie,	&b->tindexed, &b->tindexed_alloc};
	return sib_child(&t, parent, frame);
}

/* raw_lines refines the runs: they go into the trie after all */
static int stream_to_trie(struct builder *b)
{
	size_t pos = 0, k, i, n;

	b->stream = 0;
	for (k = 0; k < b->nruns; k++) {
		uint32_t node = 0;
		n = rs_run(b, &pos, NULL);
		for (i = 0; i < n; i++) {
			if (b->ntrie >= PT_MAP_NEW - 1)
				return berr(b, "too many stacks");
			node = trie_child(b, node, b->rstack[i]);
		}
		b->runs[k].node = node;
	}
	free(b->rs);
	b->rs = NULL;
	b->nrs = b->rs_alloc = 0;
	return 0;
}

int pt_stackprof_raw_int(struct builder *b, const struct val *v)
{
	uint32_t f;

	switch (b->rstate) {
	case 0:
		if (v->t != V_INT || v->i <= 0)
			return berr(b, "'raw': expected a stack length, found %s",
				    v->t == V_INT ? "a non-positive Integer" : vname(v));
		b->rleft = v->i;
		b->rnode = 0;
		b->rstate = 1;
		b->rpos = 0;
		b->rmatch = 1;
		b->rcoded = 0;
		return 0;
	case 1:
		if (v->t == V_INT && b->rmatch && b->rpos < b->rcache_n &&
		    b->rcache[b->rpos].is_int && b->rcache[b->rpos].key == v->i) {
			b->rnode = b->rcache[b->rpos].node;
		} else {
			struct fcache *fc = &b->fcache[FCACHE_SLOT(v->i)];
			b->rmatch = 0;
			if (v->t == V_INT && fc->f && fc->key == v->i)
				f = fc->f - 1; /* frame_for's first step, inline */
			else if (frame_for(b, v, &f) < 0)
				return -1;
			if (b->stream) {
				/* the rcache then holds local frames, not trie nodes */
				if (!b->rcoded) {
					rs_varint(b, b->rpos);
					rs_varint(b, (uint64_t)b->rleft);
					b->rcoded = 1;
				}
				rs_varint(b, f);
				b->lf[f].in_raw = 1;
				b->rnode = f;
			} else {
				if (b->ntrie >= PT_MAP_NEW - 1)
					return berr(b, "too many stacks");
				b->rnode = trie_child(b, b->rnode, f);
			}
			PT_ALLOC_GROW(b->rcache, b->rpos + 1, b->rcache_alloc);
			b->rcache[b->rpos].key = v->i;
			b->rcache[b->rpos].is_int = v->t == V_INT;
			b->rcache[b->rpos].node = b->rnode;
		}
		b->rpos++;
		if (!--b->rleft) {
			b->rstate = 2;
			b->rcache_n = b->rpos;
		}
		return 0;
	default:
		if (v->t != V_INT || v->i < 0)
			return berr(b, "'raw': expected a sample count, found %s",
				    v->t == V_INT ? "a negative Integer" : vname(v));
		if (b->stream && !b->rcoded) { /* the previous run's first rpos frames */
			rs_varint(b, b->rpos);
			rs_varint(b, 0);
		}
		PT_ALLOC_GROW(b->runs, b->nruns + 1, b->runs_alloc);
		b->runs[b->nruns].node = b->rnode;
		b->runs[b->nruns].count = v->i;
		b->nruns++;
		b->rstate = 0;
		return 0;
	}
}

static uint32_t ltrie_child(struct builder *b, uint32_t parent, uint32_t frame, int64_t line)
{
	uint32_t *slot = pt_map_put(&b->pairs, (uint64_t)frame << 32 | (uint64_t)line), pair;
	if (*slot == PT_MAP_NEW) {
		if (b->npairs + 1 > b->pairs_alloc) {
			PT_ALLOC_GROW(b->pair_frame, b->npairs + 1, b->pairs_alloc);
			b->pair_line =
				pt_xreallocarray(b->pair_line, b->pairs_alloc, sizeof(int64_t));
		}
		b->pair_frame[b->npairs] = frame;
		b->pair_line[b->npairs] = line;
		*slot = (uint32_t)b->npairs++;
	}
	pair = *slot;
	{
		const struct trie_ref t = {&b->lparent, &b->lpair,    &b->lfirst,
					   &b->lnext,	&b->nltrie,   &b->ltrie_alloc,
					   &b->ltrie,	&b->lindexed, &b->lindexed_alloc};
		return sib_child(&t, parent, pair);
	}
}

/* raw_lines: the same runs as raw, with a line number where raw has a frame id */
static int raw_line_int(struct builder *b, const struct val *v)
{
	uint32_t n;

	if (b->lrun >= b->nruns)
		return berr(b, "'raw_lines' holds more stacks than 'raw'");
	if (v->t != V_INT)
		return berr(b, "expected an Integer in 'raw_lines', found %s", vname(v));
	switch (b->lstate) {
	case 0:
		/* the run's frames, root first, from its raw trie node */
		b->npath = 0;
		for (n = b->runs[b->lrun].node; n; n = b->tparent[n]) {
			PT_ALLOC_GROW(b->path, b->npath + 1, b->path_alloc);
			b->path[b->npath++] = n;
		}
		if (v->i != (int64_t)b->npath)
			return berr(b,
				    "'raw_lines' has a stack of %" PRId64
				    " lines where 'raw' has %zu frames",
				    v->i, b->npath);
		b->lpos = b->npath;
		b->lnode = 0;
		b->lstate = 1;
		return 0;
	case 1:
		if (v->i < 0 || v->i > INT32_MAX)
			return berr(b, "bad line number %" PRId64 " in 'raw_lines'", v->i);
		if (b->nltrie >= PT_MAP_NEW - 1 || b->npairs >= PT_MAP_NEW - 1)
			return berr(b, "too many stacks");
		b->lnode = ltrie_child(b, b->lnode, b->tframe[b->path[--b->lpos]], v->i);
		if (!b->lpos)
			b->lstate = 2;
		return 0;
	default:
		if (v->i != b->runs[b->lrun].count)
			return berr(b,
				    "'raw_lines' counts %" PRId64
				    " samples where 'raw' has %" PRId64,
				    v->i, b->runs[b->lrun].count);
		b->runs[b->lrun++].lnode = b->lnode;
		b->lstate = 0;
		return 0;
	}
}

static void val_text(struct builder *b, const struct val *v, struct pt_buf *out)
{
	switch (v->t) {
	case V_NIL:
		pt_buf_addstr(out, "nil");
		break;
	case V_BOOL:
		pt_buf_addstr(out, v->i ? "true" : "false");
		break;
	case V_INT:
		pt_buf_addf(out, "%" PRId64, v->i);
		break;
	case V_BIG:
		pt_buf_addstr(out, v->i < 0 ? "(a negative Integer beyond 64 bits)"
					    : "(an Integer beyond 64 bits)");
		break;
	case V_FLOAT:
		pt_buf_addf(out, "%.17g", v->f);
		break;
	case V_STR:
		pt_buf_add(out, pt_s(b->p, v->s), pt_intern_len(&b->p->strings, v->s));
		break;
	default:
		pt_buf_addstr(out, "(link)");
	}
}

static void add_umeta(struct builder *b, uint32_t key, const char *value, size_t n)
{
	PT_ALLOC_GROW(b->umeta, b->numeta + 1, b->umeta_alloc);
	b->umeta[b->numeta].key = key;
	b->umeta[b->numeta].value = pt_strn(b->p, value, n);
	b->numeta++;
}

/* A key arrives in map context c. */
static int on_key(struct builder *b, struct ctx *c, const struct val *v)
{
	size_t i;
	const char *s;

	c->expect_key = 0;
	c->key = K_UNKNOWN;
	switch (c->kind) {
	case C_TOP:
	case C_FRAME:
		if (v->t != V_STR)
			return 0;
		s = pt_s(b->p, v->s);
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (keys[i].frame == (c->kind == C_FRAME) && !strcmp(keys[i].name, s))
				c->key = keys[i].k;
		return 0;
	case C_FRAMES:
		return frame_for(b, v, &c->frame);
	case C_EDGES:
		return frame_for(b, v, &c->other);
	case C_LINES:
		if (v->t != V_INT)
			return berr(b, "line number is %s, not an Integer", vname(v));
		c->line = v->i;
		return 0;
	case C_META: {
		struct pt_buf t = PT_BUF_INIT;
		pt_buf_addstr(&t, "metadata.");
		val_text(b, v, &t);
		c->other = pt_strn(b->p, t.buf, t.len);
		pt_buf_release(&t);
		return 0;
	}
	default:
		return 0;
	}
}

static int value_done(struct ctx *c)
{
	if (c->is_map)
		c->expect_key = 1;
	return 0;
}

/* a scalar under one of the dump's own keys (version, mode, interval, the counts) */
static int top_scalar(struct builder *b, struct ctx *c, const struct val *v)
{
	switch (c->key) {
	case K_VERSION:
		if (v->t == V_FLOAT || v->t == V_INT) {
			b->version = v->t == V_FLOAT ? v->f : (double)v->i;
			b->have_version = 1;
			break;
		}
		return berr(b, "expected a Float for 'version', found %s", vname(v));
	case K_MODE:
		if (v->t != V_STR)
			return berr(b, "expected a Symbol for 'mode', found %s", vname(v));
		b->mode = v->s;
		break;
	case K_INTERVAL:
		if (v->t == V_NIL)
			break;
		if (need_count(b, v, "interval", &b->interval) < 0)
			return -1;
		b->have_interval = 1;
		break;
	case K_SAMPLES:
		if (need_count(b, v, "samples", &b->samples) < 0)
			return -1;
		b->have_samples = 1;
		break;
	case K_GC:
		if (need_count(b, v, "gc_samples", &b->gc_samples) < 0)
			return -1;
		break;
	case K_MISSED:
		if (need_count(b, v, "missed_samples", &b->missed_samples) < 0)
			return -1;
		break;
	case K_METADATA:
		if (v->t != V_NIL)
			return berr(b, "expected a Hash for 'metadata', found %s", vname(v));
		break;
	case K_FRAMES:
	case K_RAW:
	case K_RAW_LINES:
	case K_TIMESTAMPS:
	case K_DELTAS:
		return berr(b, "expected %s for '%s', found %s",
			    c->key == K_FRAMES ? "a Hash" : "an Array", key_name(c->key), vname(v));
	default:
		break;
	}
	return value_done(c);
}

/* a scalar under one of a frame's keys: name, file, line and its counts */
static int frame_scalar(struct builder *b, struct ctx *c, const struct val *v)
{
	struct lframe *f = &b->lf[c->frame];

	switch (c->key) {
	case K_NAME:
	case K_FILE:
		if (v->t != V_STR)
			return berr(b, "expected a String for a frame's '%s', found %s",
				    key_name(c->key), vname(v));
		if (c->key == K_NAME)
			f->name = v->s;
		else
			f->file = v->s;
		break;
	case K_LINE:
		if (v->t == V_NIL)
			break;
		if (need_count(b, v, "line", &f->line) < 0)
			return -1;
		break;
	case K_TOTAL:
		if (need_count(b, v, "total_samples", &f->total) < 0)
			return -1;
		break;
	case K_SELF:
		if (need_count(b, v, "samples", &f->self) < 0)
			return -1;
		break;
	case K_EDGES:
	case K_LINESKEY:
		if (v->t == V_NIL)
			break;
		return berr(b, "expected a Hash for a frame's '%s', found %s", key_name(c->key),
			    vname(v));
	default:
		break;
	}
	return value_done(c);
}

/* one Integer of raw, raw_lines, raw_sample_timestamps or raw_timestamp_deltas */
static int array_int(struct builder *b, struct ctx *c, const struct val *v)
{
	if (c->key == K_RAW)
		return pt_stackprof_raw_int(b, v);
	if (c->key == K_RAW_LINES)
		return raw_line_int(b, v);
	if (v->t != V_INT)
		return berr(b, "expected an Integer in '%s', found %s", key_name(c->key), vname(v));
	if (c->key == K_TIMESTAMPS) {
		if (!b->nts_seen++) {
			b->ts_first = v->i;
			b->ts_off = b->off;
		}
		b->ts_last = v->i;
		if (b->p->keep_timeline) {
			PT_ALLOC_GROW(b->ts, b->nts + 1, b->ts_alloc);
			b->ts[b->nts++] = v->i;
		}
	} else if (c->key == K_DELTAS) {
		/* kept only where they weigh samples: wall mode, or the timeline */
		if (!b->ndeltas_seen++)
			b->deltas_off = b->off;
		if (b->p->keep_timeline || !b->mode || !strcmp(pt_s(b->p, b->mode), "wall")) {
			PT_ALLOC_GROW(b->deltas, b->ndeltas + 1, b->deltas_alloc);
			b->deltas[b->ndeltas++] = v->i;
		}
	}
	return 0;
}

/* A scalar value arrives in context c (not a key). */
int pt_stackprof_value(struct builder *b, struct ctx *c, const struct val *v)
{
	int64_t n;

	switch (c->kind) {
	case C_TOP:
		return top_scalar(b, c, v);
	case C_FRAMES:
		return berr(b, "expected a Hash for a frame, found %s", vname(v));
	case C_FRAME:
		return frame_scalar(b, c, v);
	case C_EDGES:
		if (need_count(b, v, "edges", &n) < 0)
			return -1;
		PT_ALLOC_GROW(b->edges, b->nedges + 1, b->edges_alloc);
		b->edges[b->nedges].caller = c->frame;
		b->edges[b->nedges].callee = c->other;
		b->edges[b->nedges].count = n;
		b->nedges++;
		return value_done(c);
	case C_LINES:
		/* version 1.0 dumps: a bare self count */
		if (need_count(b, v, "lines", &n) < 0)
			return -1;
		PT_ALLOC_GROW(b->lines, b->nlines + 1, b->lines_alloc);
		b->lines[b->nlines].frame = c->frame;
		b->lines[b->nlines].line = c->line;
		b->lines[b->nlines].total = 0;
		b->lines[b->nlines].self = n;
		b->nlines++;
		return value_done(c);
	case C_LINEPAIR:
		if (need_count(b, v, "lines", &n) < 0)
			return -1;
		if (c->npair < 2)
			c->pair[c->npair] = n;
		c->npair++;
		return 0;
	case C_INTS:
		return array_int(b, c, v);
	case C_META: {
		struct pt_buf t = PT_BUF_INIT;
		val_text(b, v, &t);
		add_umeta(b, c->other, t.buf, t.len);
		pt_buf_release(&t);
		return value_done(c);
	}
	default:
		return 0;
	}
}

static int on_begin(struct builder *b, struct ctx *c, int is_map)
{
	const char *want = NULL;
	enum ctx_kind k = C_SKIP;
	struct ctx *n;

	switch (c->kind) {
	case C_TOP:
		switch (c->key) {
		case K_METADATA:
			if (!is_map)
				want = "a Hash";
			k = C_META;
			break;
		case K_FRAMES:
			if (!is_map)
				want = "a Hash";
			k = C_FRAMES;
			b->have_frames = 1;
			break;
		case K_RAW:
		case K_TIMESTAMPS:
		case K_DELTAS:
			if (is_map)
				want = "an Array";
			k = C_INTS;
			if (c->key == K_RAW) {
				b->have_raw = 1;
				b->stream = 1;
			}
			break;
		case K_RAW_LINES:
			if (is_map)
				want = "an Array";
			/* only after raw, whose runs it refines (as stackprof writes them) */
			if (b->have_raw && !b->have_lines && !b->rstate) {
				k = C_INTS;
				b->have_lines = 1;
				if (b->stream && stream_to_trie(b) < 0)
					return -1;
			}
			break;
		case K_UNKNOWN:
			break;
		default:
			want = "a scalar";
		}
		if (want)
			return berr(b, "expected %s for '%s', found a container", want,
				    key_name(c->key));
		n = push(b, k, is_map, 0);
		n->key = b->stack[b->depth - 2].key;
		return 0;
	case C_FRAMES:
		if (!is_map)
			return berr(b, "expected a Hash for a frame, found an Array");
		n = push(b, C_FRAME, 1, 0);
		n->frame = c->frame;
		if (!b->lf[c->frame].defined) {
			b->lf[c->frame].defined = 1;
			PT_ALLOC_GROW(b->order, b->norder + 1, b->order_alloc);
			b->order[b->norder++] = c->frame;
		}
		return 0;
	case C_FRAME:
		if (c->key == K_EDGES || c->key == K_LINESKEY) {
			if (!is_map)
				return berr(b, "expected a Hash for a frame's '%s', found an Array",
					    key_name(c->key));
			n = push(b, c->key == K_EDGES ? C_EDGES : C_LINES, 1, 0);
			n->frame = c->frame;
			return 0;
		}
		if (c->key != K_UNKNOWN)
			return berr(b, "expected a scalar for a frame's '%s', found a container",
				    key_name(c->key));
		push(b, C_SKIP, is_map, 0);
		return 0;
	case C_LINES:
		if (is_map)
			return berr(b, "expected [total, self] for a line, found a Hash");
		n = push(b, C_LINEPAIR, 0, 0);
		n->frame = c->frame;
		n->line = c->line;
		return 0;
	case C_META: {
		static const char hash[] = "(Hash)", arr[] = "(Array)";
		add_umeta(b, c->other, is_map ? hash : arr, is_map ? sizeof(hash) - 1 : 6);
		push(b, C_SKIP, is_map, 0);
		return 0;
	}
	case C_EDGES:
		return berr(b, "expected an Integer for an edge, found a container");
	case C_INTS:
		return berr(b, "expected an Integer in '%s', found a container", key_name(c->key));
	case C_LINEPAIR:
		return berr(b, "expected an Integer in a line's [total, self], found a "
			       "container");
	default:
		push(b, C_SKIP, is_map, 0);
		return 0;
	}
}

int pt_stackprof_scalar(struct builder *b, const struct val *v)
{
	struct ctx *c;

	if (b->done)
		return berr(b, "data after the end of the dump");
	if (!b->depth)
		return berr(b, "a stackprof dump is a Hash, not %s", vname(v));
	c = &b->stack[b->depth - 1];
	if (c->kind == C_SKIP)
		return 0;
	if (c->is_map && c->expect_key)
		return on_key(b, c, v);
	if (v->t == V_LINK && c->kind != C_META)
		return berr(b, "object link where %s expected",
			    c->kind == C_TOP && c->key == K_UNKNOWN ? "a value is" : "data is");
	return pt_stackprof_value(b, c, v);
}

/* the Integer Array being read, if that is where scalars go now (raw, the timestamps):
 * the Marshal reader hands its Integers straight to pt_stackprof_value, as
 * pt_stackprof_scalar would */
struct ctx *pt_stackprof_ints(struct builder *b)
{
	struct ctx *c;

	if (b->done || !b->depth)
		return NULL;
	c = &b->stack[b->depth - 1];
	return c->kind == C_INTS ? c : NULL;
}

int pt_stackprof_begin(struct builder *b, int is_map)
{
	struct ctx *c;

	if (b->done)
		return berr(b, "data after the end of the dump");
	if (!b->depth) {
		if (!is_map)
			return berr(b, "a stackprof dump is a Hash, not an Array");
		push(b, C_TOP, 1, 0);
		return 0;
	}
	c = &b->stack[b->depth - 1];
	if (c->kind == C_SKIP) {
		c->depth++;
		return 0;
	}
	if (c->is_map && c->expect_key) {
		/* a container as a key: its value is skipped */
		if (c->kind == C_FRAMES || c->kind == C_EDGES || c->kind == C_LINES)
			return berr(b, "a %s key is a container",
				    c->kind == C_LINES ? "line" : "frame id");
		c->expect_key = 0;
		c->key = K_UNKNOWN;
		push(b, C_SKIP, is_map, 1);
		return 0;
	}
	return on_begin(b, c, is_map);
}

int pt_stackprof_end(struct builder *b)
{
	struct ctx *c = &b->stack[b->depth - 1], *parent;
	int in_key = c->in_key;

	if (c->kind == C_SKIP && --c->depth)
		return 0;
	if (c->kind == C_INTS && c->key == K_RAW && b->rstate)
		return berr(b, "'raw' ends inside a stack");
	if (c->kind == C_INTS && c->key == K_RAW_LINES && (b->lstate || b->lrun != b->nruns))
		return berr(b, "'raw_lines' ends before 'raw' does");
	if (c->kind == C_LINEPAIR) {
		if (c->npair != 2)
			return berr(b, "expected [total, self] for a line, found %s elements",
				    c->npair < 2 ? "fewer" : "more");
		PT_ALLOC_GROW(b->lines, b->nlines + 1, b->lines_alloc);
		b->lines[b->nlines].frame = c->frame;
		b->lines[b->nlines].line = c->line;
		b->lines[b->nlines].total = c->pair[0];
		b->lines[b->nlines].self = c->pair[1];
		b->nlines++;
	}
	b->depth--;
	if (!b->depth) {
		b->done = 1;
		return 0;
	}
	parent = &b->stack[b->depth - 1];
	if (parent->kind == C_SKIP)
		return 0;
	if (in_key)
		parent->expect_key = 0;
	else
		value_done(parent);
	return 0;
}

void pt_stackprof_init(struct builder *b, struct pt_profile *p, struct pt_diag *d)
{
	memset(b, 0, sizeof(*b));
	b->p = p;
	b->d = d;
	pt_map_init(&b->by_int);
	pt_map_init(&b->by_str);
	pt_map_init(&b->trie);
	pt_map_init(&b->pairs);
	pt_map_init(&b->ltrie);
	PT_ALLOC_GROW(b->lparent, 1, b->ltrie_alloc);
	b->lpair = pt_xreallocarray(NULL, b->ltrie_alloc, sizeof(uint32_t));
	b->lfirst = pt_xreallocarray(NULL, b->ltrie_alloc, sizeof(uint32_t));
	b->lnext = pt_xreallocarray(NULL, b->ltrie_alloc, sizeof(uint32_t));
	b->lparent[0] = b->lpair[0] = b->lfirst[0] = b->lnext[0] = 0;
	b->nltrie = 1;
	/* trie node 0 is the root */
	PT_ALLOC_GROW(b->tparent, 1, b->trie_alloc);
	b->tframe = pt_xreallocarray(NULL, b->trie_alloc, sizeof(uint32_t));
	b->tfirst = pt_xreallocarray(NULL, b->trie_alloc, sizeof(uint32_t));
	b->tnext = pt_xreallocarray(NULL, b->trie_alloc, sizeof(uint32_t));
	b->tparent[0] = b->tframe[0] = b->tfirst[0] = b->tnext[0] = 0;
	b->ntrie = 1;
}

void pt_stackprof_release(struct builder *b)
{
	free(b->stack);
	free(b->umeta);
	free(b->lf);
	free(b->order);
	free(b->edges);
	free(b->lines);
	free(b->sink_frames);
	free(b->tparent);
	free(b->tframe);
	free(b->tfirst);
	free(b->tnext);
	free(b->tindexed);
	free(b->runs);
	free(b->rcache);
	free(b->rs);
	free(b->rstack);
	free(b->lmap);
	free(b->rnodes);
	free(b->path);
	free(b->pair_frame);
	free(b->pair_line);
	free(b->lparent);
	free(b->lpair);
	free(b->lfirst);
	free(b->lnext);
	free(b->lindexed);
	pt_map_release(&b->pairs);
	pt_map_release(&b->ltrie);
	free(b->ts);
	free(b->deltas);
	pt_map_release(&b->by_int);
	pt_map_release(&b->by_str);
	pt_map_release(&b->trie);
}
