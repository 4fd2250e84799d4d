/* stackprof.c: Ruby stackprof dumps, as Marshal 4.8 (StackProf.results, `stackprof --dump`)
 * and as JSON (`stackprof --json`). Two streaming parsers feed one builder that knows the
 * dump's layout; see formats/stackprof.md for how a dump maps into the model. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "core/functable.h"
#include "core/sink.h"
#include "util/buf.h"
#include "util/json.h"
#include "formats/format.h"
#include "util/map.h"
#include "util/text.h"
#include "util/xalloc.h"

/* ---- the builder: events in, profile out ---- */

enum vtype { V_NIL, V_BOOL, V_INT, V_BIG, V_FLOAT, V_STR, V_LINK };

struct val {
	enum vtype t;
	int64_t i;  /* V_INT, V_BOOL */
	double f;   /* V_FLOAT */
	uint32_t s; /* V_STR: string id in the profile */
};

enum ctx_kind { C_TOP, C_FRAMES, C_FRAME, C_EDGES, C_LINES, C_LINEPAIR, C_INTS, C_META, C_SKIP };

enum key {
	K_UNKNOWN,
	K_VERSION,
	K_MODE,
	K_INTERVAL,
	K_SAMPLES,
	K_GC,
	K_MISSED,
	K_METADATA,
	K_FRAMES,
	K_RAW,
	K_RAW_LINES,
	K_TIMESTAMPS,
	K_DELTAS,
	K_NAME,
	K_FILE,
	K_LINE,
	K_TOTAL,
	K_SELF,
	K_EDGES,
	K_LINESKEY,
};

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

struct ctx {
	enum ctx_kind kind;
	int is_map, expect_key, in_key;
	enum key key;	/* C_TOP, C_FRAME: the key whose value comes next */
	uint32_t frame; /* C_FRAME, C_EDGES, C_LINES, C_LINEPAIR: local frame */
	uint32_t other; /* C_EDGES: callee; C_META: key string id */
	int64_t line;	/* C_LINES, C_LINEPAIR: the line */
	int64_t pair[2];
	int npair;
	uint64_t depth; /* C_SKIP: nesting left */
};

/* frame ids met lately, by a hash of the id (a miss costs a lookup in the keyed map):
 * 1,024 slots, so that a dump's few hundred hot frames rarely share one */
#define FCACHE_BITS    10
#define FCACHE_SIZE    (1 << FCACHE_BITS)
#define FCACHE_SLOT(x) (((uint64_t)(x)*0x9e3779b97f4a7c15u) >> (64 - FCACHE_BITS))

/* a frame as the dump names it (by id), before it becomes a model function */
struct lframe {
	int defined;
	int in_raw; /* named in 'raw' (a coded run's frame) */
	int has_key_str;
	int64_t key_int;
	uint32_t key_str;
	uint32_t name, file;
	int64_t line, total, self;
	uint32_t func, frame; /* model ids, set at the end */
	uint64_t off;	      /* input offset of its first mention, for errors */
};

struct ledge {
	uint32_t caller, callee;
	int64_t count;
};

struct lline {
	uint32_t frame;
	int64_t line, total, self;
};

struct run {
	uint32_t node;	/* in the raw trie */
	uint32_t lnode; /* in the line trie (raw_lines), 0 if none */
	int64_t count;
};

struct builder {
	struct pt_profile *p;
	struct pt_diag *d;
	uint64_t off; /* input offset of the event being handled, for errors */
	int done;
	yajl_handle jh; /* JSON: the parser, and the offset of its chunk, for b->off */
	uint64_t jbase;

	struct ctx *stack;
	size_t depth, stack_alloc;

	/* header */
	double version;
	int have_version, have_frames, have_interval;
	uint32_t mode; /* string id, 0 if absent */
	int64_t interval, samples, gc_samples, missed_samples;
	int have_samples;
	struct pt_kv *umeta; /* user metadata, flattened one level */
	size_t numeta, umeta_alloc;

	/* frames by dump id, and the ones met lately by Integer id (f: local frame + 1) */
	struct fcache {
		int64_t key;
		uint32_t f;
	} fcache[FCACHE_SIZE];
	struct lframe *lf; /* in order of first mention (edges may name later frames) */
	uint32_t nlf;
	size_t lf_alloc;
	uint32_t *order; /* local frames in the order 'frames' defines them */
	size_t norder, order_alloc;
	struct pt_map by_int, by_str;
	struct ledge *edges;
	size_t nedges, edges_alloc;
	struct lline *lines;
	size_t nlines, lines_alloc;

	/* where the stacks go: NULL builds the profile's tree (core/sink.h) */
	struct pt_sink *sink;
	uint32_t *sink_frames; /* one run's profile frames, leaf first */
	size_t sink_frames_alloc;

	/* raw: a trie over local frames (node 0 = root) and the runs in order */
	int have_raw;
	uint32_t *tparent, *tframe, *tfirst, *tnext; /* see struct trie_ref */
	size_t ntrie, trie_alloc;
	struct pt_map trie;
	uint8_t *tindexed;
	size_t tindexed_alloc;
	struct run *runs;
	size_t nruns, runs_alloc;
	int rstate; /* 0: expect a length, 1: ids, 2: expect the count */
	int64_t rleft;
	uint32_t rnode;
	/* the previous raw stack's frame ids and trie nodes: consecutive stacks share
	 * long prefixes, which then cost no lookups */
	struct rcache {
		int64_t key;
		uint32_t node;
		int is_int;
	} * rcache;
	size_t rcache_n, rcache_alloc, rpos;
	int rmatch; /* the current stack equals the previous one up to rpos */
	/* with a sink and no raw_lines (yet), runs are not put in the trie but coded in
	 * rs: per run, how many frames it shares with the previous run, how many follow,
	 * and those local frames, each a varint. Deep dumps' stacks are mostly unique, and
	 * a trie of them costs 16 bytes a frame where this costs one or two. */
	int stream;
	uint8_t *rs;
	size_t nrs, rs_alloc;
	int rcoded;	  /* the current run's shared part is coded */
	uint32_t *rstack; /* decoding: the run's frames, root first */
	uint32_t *lmap;	  /* decoding: local frame -> profile frame */
	uint32_t *rnodes; /* decoding into the tree: the run's nodes */
	size_t rnodes_alloc;
	size_t rstack_alloc;
	int64_t *ts, *deltas;
	size_t nts, ts_alloc, ndeltas, deltas_alloc;
	uint64_t ndeltas_seen;
	uint64_t nts_seen;
	uint64_t deltas_off, ts_off; /* input offsets of their first entries, for errors */
	int64_t ts_first, ts_last;

	/* raw_lines (stackprof >= 0.2.26): runs shaped like raw's, a line per frame; they
	 * refine the raw trie into one over (frame, line) pairs */
	int have_lines;
	size_t lrun;	/* the run raw_lines is at */
	int lstate;	/* as rstate */
	uint32_t *path; /* raw trie nodes of the current run, root first */
	size_t npath, path_alloc, lpos;
	uint32_t lnode;
	struct pt_map pairs; /* frame << 32 | line -> pair */
	uint32_t *pair_frame;
	int64_t *pair_line;
	size_t npairs, pairs_alloc;
	uint32_t *lparent, *lpair, *lfirst, *lnext; /* line trie, node 0 = root */
	size_t nltrie, ltrie_alloc;
	struct pt_map ltrie;
	uint8_t *lindexed;
	size_t lindexed_alloc;
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
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pt_diag_error_at(b->d, b->off, "%s", msg);
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

static void frame_label(struct builder *b, uint32_t i, struct pt_buf *out)
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

static void rs_varint(struct builder *b, uint64_t x)
{
	PT_ALLOC_GROW(b->rs, b->nrs + 10, b->rs_alloc);
	while (x >= 0x80) {
		b->rs[b->nrs++] = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	b->rs[b->nrs++] = (uint8_t)x;
}

/* the next varint of rs at *pos (rs is ours: it is well formed) */
static uint64_t rs_next(const struct builder *b, size_t *pos)
{
	uint64_t x = 0;
	unsigned sh = 0;
	uint8_t c;

	do {
		c = b->rs[(*pos)++];
		x |= (uint64_t)(c & 0x7f) << sh;
		sh += 7;
	} while (c & 0x80);
	return x;
}

/* the coded run at *pos into b->rstack (its first *keep frames are the previous run's);
 * returns its length */
static size_t rs_run(struct builder *b, size_t *pos, const uint32_t *map)
{
	size_t keep = (size_t)rs_next(b, pos), n = (size_t)rs_next(b, pos), i, p;
	uint32_t *out;

	PT_ALLOC_GROW(b->rstack, keep + n + 1, b->rstack_alloc);
	out = b->rstack + keep;
	p = *pos;
	for (i = 0; i < n; i++) {
		uint32_t f = b->rs[p];
		if (f < 0x80) /* one byte, the common case */
			p++;
		else
			f = (uint32_t)rs_next(b, &p);
		out[i] = map ? map[f] : f;
	}
	*pos = p;
	return keep + n;
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

static int raw_int(struct builder *b, const struct val *v)
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

/* raw_int's common steps for a frame id x of a coded run (b->stream), inline: x equal
 * to the previous run's frame at its place, or a frame met lately (the fcache). Returns
 * 0 where raw_int must take x. */
static inline int raw_frame_fast(struct builder *b, int64_t x)
{
	const struct fcache *fc;
	uint32_t f;

	if (b->rmatch && b->rpos < b->rcache_n && b->rcache[b->rpos].is_int &&
	    b->rcache[b->rpos].key == x) {
		b->rnode = b->rcache[b->rpos].node;
	} else {
		fc = &b->fcache[FCACHE_SLOT(x)];
		if (!fc->f || fc->key != x)
			return 0;
		f = fc->f - 1;
		b->rmatch = 0;
		if (!b->rcoded) {
			rs_varint(b, b->rpos);
			rs_varint(b, (uint64_t)b->rleft);
			b->rcoded = 1;
		}
		if (f < 0x80 && b->nrs < b->rs_alloc)
			b->rs[b->nrs++] = (uint8_t)f;
		else
			rs_varint(b, f);
		b->lf[f].in_raw = 1;
		b->rnode = f;
		PT_ALLOC_GROW(b->rcache, b->rpos + 1, b->rcache_alloc);
		b->rcache[b->rpos].key = x;
		b->rcache[b->rpos].is_int = 1;
		b->rcache[b->rpos].node = f;
	}
	b->rpos++;
	if (!--b->rleft) {
		b->rstate = 2;
		b->rcache_n = b->rpos;
	}
	return 1;
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
		return raw_int(b, v);
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
static int on_scalar(struct builder *b, struct ctx *c, const struct val *v)
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

static int b_scalar(struct builder *b, const struct val *v)
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
	return on_scalar(b, c, v);
}

/* the Integer Array being read, if that is where scalars go now (raw, the timestamps):
 * m_fast_ints hands its Integers straight to on_scalar, as b_scalar would */
static struct ctx *b_ints(struct builder *b)
{
	struct ctx *c;

	if (b->done || !b->depth)
		return NULL;
	c = &b->stack[b->depth - 1];
	return c->kind == C_INTS ? c : NULL;
}

static int b_begin(struct builder *b, int is_map)
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

static int b_end(struct builder *b)
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

/* ---- the end: frames become functions, raw becomes stacks or frames an aggregate ---- */

enum { T_SAMPLES, T_TIME, T_OBJECTS };

/* saturating arithmetic: a hostile dump must not make values overflow (UB) */
static int64_t smul(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

/* microseconds since t0 as nanoseconds */
static int64_t us_since(int64_t t, int64_t t0)
{
	int64_t r;
	if (__builtin_sub_overflow(t, t0, &r))
		r = t < t0 ? INT64_MIN : INT64_MAX;
	return smul(r, 1000);
}

/* The dump's own per-function view: an entry per frame (self and total) and its
 * per-line self and total, as stackprof counted them (totals per occurrence). */
static struct pt_agg *frames_agg(struct builder *b, uint32_t nt, const int64_t *mult)
{
	struct pt_profile *p = b->p;
	struct pt_agg *a = pt_xcalloc(1, sizeof(*a));
	size_t k;

	pt_agg_init(a, nt, PT_GRAN_FUNCTIONS);
	a->edges_per_occurrence = 1;
	for (k = 0; k < b->norder; k++) {
		struct lframe *f = &b->lf[b->order[k]];
		struct pt_agg_entry e;
		uint32_t id, j;
		memset(&e, 0, sizeof(e));
		e.name = p->funcs[f->func].name;
		e.file = p->funcs[f->func].file;
		e.line = f->line;
		e.func = f->func;
		e.flags = p->frames[f->frame].flags;
		id = pt_agg_entry(a, b->order[k], &e);
		for (j = 0; j < nt; j++) {
			a->flat[(size_t)id * nt + j] = smul(f->self, mult[j]);
			a->cum[(size_t)id * nt + j] = smul(f->total, mult[j]);
		}
	}
	for (k = 0; k < b->nlines; k++) {
		struct lline *l = &b->lines[k];
		uint32_t id = pt_agg_line(a, pt_agg_entry(a, l->frame, NULL), l->line), j;
		for (j = 0; j < nt; j++) {
			a->line_self[(size_t)id * nt + j] = smul(l->self, mult[j]);
			a->line_cum[(size_t)id * nt + j] = smul(l->total, mult[j]);
		}
	}
	return a;
}

/* a run's values for the sink: its count as samples, its time from its deltas (from
 * index s) in wall mode, else from the interval */
static void run_values(const struct builder *b, int64_t c, uint32_t nt, const int *kind,
		       const int64_t *mult, int wall, uint64_t s, int64_t *vals)
{
	uint32_t t;
	int64_t j;

	for (t = 0; t < nt; t++) {
		if (kind[t] == T_TIME && wall && b->ndeltas) {
			int64_t sum = 0;
			for (j = 0; j < c; j++)
				sum = pt_add(sum, b->deltas[s + (uint64_t)j]);
			vals[t] = sum;
		} else {
			vals[t] = kind[t] == T_SAMPLES ? c : smul(c, mult[t]);
		}
	}
}

/* With a sink, run k goes to it as its frames (node[] holds the trie nodes' frames):
 * the run's count as samples, its time from the deltas in wall mode, else from the
 * interval. A run of count 0 goes too, so that its frames make the same entries as
 * the tree's nodes would; it is not a record. */
static void sink_run(struct builder *b, const uint32_t *node, size_t k, int64_t c, uint32_t nt,
		     const int *kind, const int64_t *mult, int wall, uint64_t s)
{
	const uint32_t *parent = b->have_lines ? b->lparent : b->tparent;
	uint32_t n = b->have_lines ? b->runs[k].lnode : b->runs[k].node;
	int64_t vals[3];
	size_t depth = 0;

	for (; n; n = parent[n]) {
		PT_ALLOC_GROW(b->sink_frames, depth + 1, b->sink_frames_alloc);
		b->sink_frames[depth++] = node[n];
	}
	run_values(b, c, nt, kind, mult, wall, s, vals);
	pt_sink_sample(b->sink, b->p, b->sink_frames, depth, 1, 0, vals, 0);
	/* the sink counted one record: the run holds c */
	b->p->nrecords += (uint64_t)c - 1;
}

/* With coded runs: every frame they name must be defined; lmap then maps local frames
 * to the profile's */
static int stream_frames(struct builder *b)
{
	uint32_t f;

	for (f = 0; f < b->nlf; f++) {
		if (b->lf[f].in_raw && !b->lf[f].defined) {
			struct pt_buf t = PT_BUF_INIT;
			frame_label(b, f, &t);
			pt_diag_error_at(b->d, b->lf[f].off,
					 "'raw' names frame %s, which 'frames' lacks", t.buf);
			pt_buf_release(&t);
			return -1;
		}
	}
	b->lmap = pt_xmalloc((b->nlf ? b->nlf : 1) * sizeof(uint32_t));
	for (f = 0; f < b->nlf; f++)
		b->lmap[f] = b->lf[f].frame;
	return 0;
}

/* run k of count c, coded at *pos, to the sink: as sink_run */
static void stream_run(struct builder *b, size_t *pos, int64_t c, uint32_t nt, const int *kind,
		       const int64_t *mult, int wall, uint64_t s)
{
	size_t n = rs_run(b, pos, b->lmap);
	int64_t vals[3];

	run_values(b, c, nt, kind, mult, wall, s, vals);
	pt_sink_sample(b->sink, b->p, b->rstack, n, 0, 0, vals, 0);
	b->p->nrecords += (uint64_t)c - 1;
}

/* the tree node of the run coded at *pos: the previous run's nodes where it shares its
 * frames, children made in order for the rest (b->rnodes[i]: the node after i frames) */
static uint32_t stream_node(struct builder *b, size_t *pos)
{
	size_t before = *pos, keep, n, i;

	keep = (size_t)rs_next(b, &before);
	n = rs_run(b, pos, b->lmap);
	PT_ALLOC_GROW(b->rnodes, n + 1, b->rnodes_alloc);
	b->rnodes[0] = 0;
	for (i = keep; i < n; i++)
		b->rnodes[i + 1] = pt_profile_child(b->p, b->rnodes[i], b->rstack[i]);
	return b->rnodes[n];
}

/* The function of a dump frame. Frames are functions of their own, even two "<main>"
 * frames of one name, file and line: the second such frame gets identity 1, the third
 * 2, and so on (twins maps the first one's function id to the next identity). The
 * first is identity 0, so dumps merged later share their functions by name, file and
 * line, as `stackprof a.dump b.dump` adds them up. */
static uint32_t dump_func(struct pt_profile *p, struct pt_map *twins, uint32_t name, uint32_t file,
			  int64_t line)
{
	uint32_t before = p->nfuncs, first = pt_profile_func(p, name, 0, file, line), *slot;

	if (p->nfuncs > before)
		return first;
	slot = pt_map_put(twins, first);
	if (*slot == PT_MAP_NEW)
		*slot = 1;
	return pt_profile_func_ident(p, name, 0, file, line, (*slot)++);
}

/* the sample types: samples; time for cpu and wall mode; objects for object mode. kind
 * and mult say what each type's value is and its multiple of a sample; returns their
 * number */
static uint32_t sample_types(struct builder *b, const char *mode, int *kind, int64_t *mult)
{
	struct pt_profile *p = b->p;
	uint32_t nt = 0;

	pt_profile_add_type(p, "samples", "count");
	kind[nt] = T_SAMPLES;
	mult[nt++] = 1;
	if ((!strcmp(mode, "cpu") || !strcmp(mode, "wall")) &&
	    (b->interval > 0 || (!strcmp(mode, "wall") && b->ndeltas))) {
		pt_profile_add_type(p, mode, "microseconds");
		kind[nt] = T_TIME;
		mult[nt++] = b->interval;
	} else if (!strcmp(mode, "object") && b->interval > 0) {
		pt_profile_add_type(p, "objects", "count");
		kind[nt] = T_OBJECTS;
		mult[nt++] = b->interval;
	}
	if (nt > 1) {
		p->period_type = p->types[1];
		p->period = b->interval;
	}
	return nt;
}

/* metadata: the header, then the user's */
static void header_meta(struct builder *b, const char *mode)
{
	struct pt_profile *p = b->p;
	struct pt_buf t = PT_BUF_INIT;
	size_t k;

	if (b->have_version) {
		pt_buf_addf(&t, "%g", b->version);
		pt_profile_add_meta(p, "version", t.buf);
	}
	if (b->mode)
		pt_profile_add_meta(p, "mode", mode);
	pt_buf_reset(&t);
	if (b->have_interval)
		pt_buf_addf(&t, "%" PRId64, b->interval);
	pt_profile_add_meta(p, "interval", t.buf);
#define META_INT(name, v)                                                                          \
	do {                                                                                       \
		pt_buf_reset(&t);                                                                  \
		pt_buf_addf(&t, "%" PRId64, (v));                                                  \
		pt_profile_add_meta(p, name, t.buf);                                               \
	} while (0)
	META_INT("samples", b->samples);
	META_INT("gc_samples", b->gc_samples);
	META_INT("missed_samples", b->missed_samples);
#undef META_INT
	for (k = 0; k < b->numeta; k++) {
		PT_ALLOC_GROW(p->meta, p->nmeta + 1, p->meta_alloc);
		p->meta[p->nmeta++] = b->umeta[k];
	}
	pt_buf_release(&t);
}

/* one function per dump frame, in the dump's order (reports break ties by it) */
static void make_functions(struct builder *b)
{
	struct pt_profile *p = b->p;
	struct pt_map twins;
	size_t k;

	pt_map_init(&twins);
	for (k = 0; k < b->norder; k++) {
		struct lframe *f = &b->lf[b->order[k]];
		const char *file;
		uint32_t flags = 0, fileid;
		struct pt_frame fr;

		file = pt_s(p, f->file);
		fileid = f->file;
		if (!strcmp(file, "<cfunc>")) {
			flags |= PT_FRAME_NATIVE;
			fileid = 0;
		} else if (!*file && pt_s(p, f->name)[0] == '(') {
			flags |= PT_FRAME_SYNTHETIC; /* (garbage collection), (marking), ... */
		}
		f->func = dump_func(p, &twins, f->name, fileid, f->line);
		memset(&fr, 0, sizeof(fr));
		fr.func = f->func;
		fr.flags = flags;
		f->frame = pt_profile_frame(p, &fr);
	}
	pt_map_release(&twins);
}

/* What each trie node stands for: the profile's tree node, or with a sink the node's
 * frame. With raw_lines, stacks are over (frame, line) pairs: the line trie's nodes.
 * NULL with the error filled when 'raw' names a frame 'frames' lacks. */
static uint32_t *trie_nodes(struct builder *b)
{
	struct pt_profile *p = b->p;
	size_t nn = b->have_lines ? b->nltrie : b->ntrie, k;
	uint32_t *node = pt_xmalloc((nn ? nn : 1) * sizeof(uint32_t));

	node[0] = 0;
	for (k = 1; k < b->ntrie; k++) {
		struct lframe *f = &b->lf[b->tframe[k]];
		if (!f->defined) {
			struct pt_buf t = PT_BUF_INIT;
			frame_label(b, b->tframe[k], &t);
			pt_diag_error_at(b->d, f->off, "'raw' names frame %s, which 'frames' lacks",
					 t.buf);
			pt_buf_release(&t);
			free(node);
			return NULL;
		}
		/* a sink takes each run's frames: node[] is then the frame */
		if (b->sink)
			node[k] = f->frame;
		else if (!b->have_lines)
			node[k] = pt_profile_child(p, node[b->tparent[k]], f->frame);
	}
	for (k = 1; b->have_lines && k < b->nltrie; k++) {
		uint32_t pair = b->lpair[k];
		struct pt_frame fr = p->frames[b->lf[b->pair_frame[pair]].frame];
		fr.line = b->pair_line[pair];
		node[k] = b->sink ? pt_profile_frame(p, &fr)
				  : pt_profile_child(p, node[b->lparent[k]],
						     pt_profile_frame(p, &fr));
	}
	return node;
}

/* the per-sample timestamps or deltas, if any, must be one per sample */
static int check_timestamps(struct builder *b)
{
	uint64_t nsamples = 0;
	size_t k;
	int deltas;

	for (k = 0; k < b->nruns; k++)
		nsamples += (uint64_t)b->runs[k].count;
	deltas = b->ndeltas_seen && b->ndeltas_seen != nsamples;
	if (deltas || (b->nts_seen && b->nts_seen != nsamples))
		return pt_diag_error_at(
			b->d, deltas ? b->deltas_off : b->ts_off,
			"'raw' holds %" PRIu64 " samples but '%s' has %" PRIu64 " entries",
			nsamples, deltas ? "raw_timestamp_deltas" : "raw_sample_timestamps",
			deltas ? b->ndeltas_seen : b->nts_seen);
	if (b->ndeltas != nsamples)
		b->ndeltas = 0; /* not all kept (a second 'mode'): weigh by the interval */
	return 0;
}

/* run k of count c, sample s on, into the tree: one event per sample only where the
 * input has one entry per sample (timestamps or deltas); else a count could ask for
 * 2^62 events */
static void tree_run(struct builder *b, uint32_t n, int64_t c, uint32_t nt, const int *kind,
		     const int64_t *mult, int wall, uint64_t s, int64_t *clock)
{
	struct pt_profile *p = b->p;
	int64_t vals[3], t0 = b->nts ? b->ts[0] : 0, j;
	uint32_t i;

	if (p->keep_timeline && (b->nts || b->ndeltas)) {
		for (j = 0; j < c; j++, s++) {
			int64_t d = b->ndeltas ? b->deltas[s] : b->interval;
			for (i = 0; i < nt; i++)
				vals[i] = kind[i] == T_SAMPLES			    ? 1
					  : kind[i] == T_TIME && wall && b->ndeltas ? d
										    : mult[i];
			*clock = pt_add(*clock, d);
			pt_profile_add_sample(p, n, 0, vals,
					      b->nts ? us_since(b->ts[s], t0) : smul(*clock, 1000));
		}
		return;
	}
	for (i = 0; i < nt; i++) {
		if (kind[i] == T_TIME && wall && b->ndeltas) {
			int64_t sum = 0;
			for (j = 0; j < c; j++)
				sum = pt_add(sum, b->deltas[s + (uint64_t)j]);
			vals[i] = sum;
		} else {
			vals[i] = kind[i] == T_SAMPLES ? c : smul(c, mult[i]);
		}
	}
	pt_profile_add_sample(p, n, 0, vals, 0);
	p->nrecords += (uint64_t)c - 1;
}

/* a dump with raw stacks: the tree (or the sink) from the tries and the runs */
static int raw_stacks(struct builder *b, uint32_t nt, const int *kind, const int64_t *mult,
		      int wall)
{
	struct pt_profile *p = b->p;
	uint32_t *node = trie_nodes(b);
	size_t pos = 0;
	uint64_t s = 0;
	int64_t clock = 0;
	size_t k;

	if (!node)
		return -1;
	if (b->stream && stream_frames(b) < 0) {
		free(node);
		return -1;
	}
	if (check_timestamps(b) < 0) {
		free(node);
		return -1;
	}
	/* every frame is made: a sink need not watch for new ones */
	pt_sink_frames_complete(b->sink, p);
	if (b->nts_seen > 1 && b->ts_last > b->ts_first)
		p->duration_nanos = us_since(b->ts_last, b->ts_first);
	for (k = 0; k < b->nruns; k++) {
		int64_t c = b->runs[k].count;
		if (b->stream && b->sink) {
			stream_run(b, &pos, c, nt, kind, mult, wall, s);
		} else if (b->stream) {
			/* the run's tree node, made even for a count of 0 as the trie's are */
			uint32_t n = stream_node(b, &pos);
			if (c)
				tree_run(b, n, c, nt, kind, mult, wall, s, &clock);
		} else if (b->sink)
			sink_run(b, node, k, c, nt, kind, mult, wall, s);
		else if (c)
			tree_run(b, node[b->have_lines ? b->runs[k].lnode : b->runs[k].node], c, nt,
				 kind, mult, wall, s, &clock);
		s += (uint64_t)c;
	}
	free(node);
	/* before stackprof 0.2.26 raw stacks carry no lines: keep the dump's own per-line
	 * counts (self exact, totals per occurrence) for `method` */
	if (!b->have_lines && b->nlines)
		p->line_agg = frames_agg(b, nt, mult);
	return 0;
}

/* a dump without raw stacks: the per-function table from its frames and edges */
static int aggregate_only(struct builder *b, uint32_t nt, const int64_t *mult)
{
	struct pt_profile *p = b->p;
	struct pt_agg *a = frames_agg(b, nt, mult);
	uint32_t i;
	size_t k;

	p->agg = a;
	p->no_stacks_reason = "the stackprof dump was recorded without raw: true, so it holds no "
			      "stacks; record it with StackProf.run(raw: true, ...) or "
			      "StackProf.start(raw: true)";
	for (k = 0; k < b->nedges; k++) {
		struct ledge *e = &b->edges[k];
		uint32_t id, c, j;
		if (!b->lf[e->callee].defined) {
			struct pt_buf t = PT_BUF_INIT;
			frame_label(b, e->callee, &t);
			pt_diag_error_at(b->d, b->lf[e->callee].off,
					 "'edges' name frame %s, which 'frames' lacks", t.buf);
			pt_buf_release(&t);
			return -1;
		}
		c = pt_agg_entry(a, e->callee, NULL);
		id = pt_agg_edge(a, pt_agg_entry(a, e->caller, NULL), c);
		for (j = 0; j < nt; j++)
			a->edge_value[(size_t)id * nt + j] =
				pt_add(a->edge_value[(size_t)id * nt + j], smul(e->count, mult[j]));
	}
	for (k = 0; k < nt; k++) {
		int64_t sum = 0;
		if (b->have_samples) {
			sum = b->samples;
		} else {
			for (i = 0; i < a->nentries; i++)
				sum = pt_add(sum, a->flat[(size_t)i * nt]);
		}
		a->total[k] = smul(sum, mult[k]);
	}
	p->nrecords = (uint64_t)a->total[0];
	return 0;
}

static int finish(struct builder *b)
{
	const char *mode = b->mode ? pt_s(b->p, b->mode) : "";
	int64_t mult[3];
	int kind[3];
	uint32_t nt;

	if (!b->done)
		return pt_diag_error_at(b->d, b->off, "the dump ends early");
	/* a dump with a mode but no frames holds no samples ({mode: "cpu"}, as stackprof's
	 * Report writes one without data, and its CLI loads) */
	if (!b->have_frames && !b->mode)
		return pt_diag_error_at(b->d, b->off, "not a stackprof dump: no 'frames'");
	nt = sample_types(b, mode, kind, mult);
	header_meta(b, mode);
	make_functions(b);
	if (b->have_raw)
		return raw_stacks(b, nt, kind, mult, !strcmp(mode, "wall"));
	/* no frames: no samples, so no stacks were lost either (stackprof leaves raw out
	 * of a raw: true recording that took none) */
	if (!b->norder)
		return 0;
	return aggregate_only(b, nt, mult);
}

static void builder_init(struct builder *b, struct pt_profile *p, struct pt_diag *d)
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

static void builder_release(struct builder *b)
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

/* ---- Marshal 4.8: a streaming reader with an explicit stack (no recursion) ---- */

struct mframe {
	char kind;     /* 'a' Array, 'h' Hash, 'd' Hash with default, 'm' muted values */
	uint64_t left; /* values still to read */
};

/* The object table, for '@' links. A raw dump's objects are millions of Bignum frame ids
 * (Marshal writes an Integer beyond 31 bits as one), each entered as its local frame in
 * fobj, 1 byte an object while the dump has fewer than 256 frames (2 or 4 after: the
 * array is widened once each time). The other objects are 4 bytes in objs (the kind in
 * the top 3 bits, then a string id or an index into the numbers); a bit per object says
 * which array holds it and a count per 64 objects finds its index there. A number met a
 * moment ago (NUM_RECENT of them, by hash) shares its slot among the numbers. */
enum { O_STR, O_INT, O_BIG, O_FLOAT, O_CONTAINER, O_FRAME };
#define O_SHIFT	   29
#define O_MAX	   ((uint32_t)1 << O_SHIFT)
#define NUM_RECENT 256

struct marshal {
	struct pt_input *in;
	struct builder *b;
	struct pt_diag *d;
	struct mframe *stack;
	size_t depth, stack_alloc;
	int mute; /* muted frames on the stack: their values are read, not reported */
	uint32_t *syms;
	size_t nsyms, syms_alloc;
	size_t nobjs;	/* objects read */
	uint32_t *objs; /* the objects that are not raw's frames */
	size_t nother, objs_alloc;
	unsigned char *fobj; /* raw's frame objects: local frames, 1 << fshift bytes each */
	size_t nfobj, fobj_alloc;
	unsigned fshift;
	uint64_t *isframe; /* bit k of word k / 64: object k is in fobj */
	uint32_t *fbefore; /* frame objects before word w */
	size_t isframe_alloc, fbefore_alloc;
	int64_t *nums; /* Integer values (and Float bits) of objects */
	size_t nnums, nums_alloc;
	uint32_t recent[NUM_RECENT]; /* index + 1 of a number met lately; 0: none */
};

static int m_eof(struct marshal *m)
{
	return pt_diag_error_at(m->d, pt_input_tell(m->in), "unexpected end of the dump");
}

static int m_byte(struct marshal *m, int *c)
{
	const unsigned char *q;
	int r;

	if (m->in->pos < m->in->end) { /* the common case: the byte is buffered */
		*c = m->in->buf[m->in->pos++];
		return 0;
	}
	r = pt_input_need(m->in, 1, &q);
	if (r < 0)
		return -1;
	if (!r)
		return m_eof(m);
	*c = q[0];
	pt_input_consume(m->in, 1);
	return 0;
}

/* Marshal's w_long */
static int m_long(struct marshal *m, int64_t *v)
{
	const unsigned char *q;
	int c, n, i, r;
	uint64_t x = 0;

	if (m_byte(m, &c) < 0)
		return -1;
	if (c == 0) {
		*v = 0;
		return 0;
	}
	if (c >= 5 && c <= 127) { /* 5 is a (non-canonical) 0, as Ruby reads it */
		*v = c - 5;
		return 0;
	}
	if (c >= 128 && c <= 251) {
		*v = (int64_t)(c - 256) + 5;
		return 0;
	}
	n = c <= 4 ? c : 256 - c;
	r = pt_input_need(m->in, (size_t)n, &q);
	if (r < 0)
		return -1;
	if (!r)
		return m_eof(m);
	for (i = 0; i < n; i++)
		x |= (uint64_t)q[i] << (8 * i);
	pt_input_consume(m->in, (size_t)n);
	if (c <= 4)
		*v = (int64_t)x;
	else
		*v = (int64_t)(x | (~(uint64_t)0 << (8 * n))); /* missing high bytes are 0xff */
	return 0;
}

/* a length that must be >= 0 */
static int m_len(struct marshal *m, uint64_t at, const char *what, int64_t *v)
{
	if (m_long(m, v) < 0)
		return -1;
	if (*v < 0)
		return pt_diag_error_at(m->d, at, "negative %s length", what);
	return 0;
}

/* n bytes at *q (valid until the next read), or an error naming what ran out */
static int m_bytes(struct marshal *m, uint64_t at, const char *what, int64_t n,
		   const unsigned char **q)
{
	int r = pt_input_need(m->in, (size_t)n, q);
	if (r < 0)
		return -1;
	if (!r)
		return pt_diag_error_at(
			m->d, at, "%s of %" PRId64 " bytes runs past the end of the dump", what, n);
	return 0;
}

/* a new word of the object bits, with the count of frame objects before it */
static void obj_word(struct marshal *m)
{
	size_t w = m->nobjs >> 6;

	PT_ALLOC_GROW(m->isframe, w + 1, m->isframe_alloc);
	PT_ALLOC_GROW(m->fbefore, w + 1, m->fbefore_alloc);
	m->isframe[w] = 0;
	m->fbefore[w] = (uint32_t)m->nfobj;
}

/* fobj's entries become wide enough for frame (at most twice in a read) */
static void fobj_widen(struct marshal *m, uint32_t frame)
{
	unsigned shift = frame >> 16 ? 2 : 1;
	size_t alloc = (m->nfobj < 16 ? 16 : m->nfobj * 2) << shift, k;
	unsigned char *w = pt_xmalloc(alloc);

	for (k = 0; k < m->nfobj; k++) {
		uint32_t f = m->fshift == 0   ? m->fobj[k]
			     : m->fshift == 1 ? ((uint16_t *)(void *)m->fobj)[k]
					      : ((uint32_t *)(void *)m->fobj)[k];
		if (shift == 1)
			((uint16_t *)(void *)w)[k] = (uint16_t)f;
		else
			((uint32_t *)(void *)w)[k] = f;
	}
	free(m->fobj);
	m->fobj = w;
	m->fobj_alloc = alloc;
	m->fshift = shift;
}

static int m_obj(struct marshal *m, uint32_t kind, int64_t num, uint32_t str)
{
	uint32_t payload = str;

	if (kind == O_INT || kind == O_BIG || kind == O_FLOAT) {
		uint32_t *r = &m->recent[((uint64_t)num * 0x9e3779b97f4a7c15u) >> 56];
		if (*r && m->nums[*r - 1] == num) {
			payload = *r - 1;
		} else {
			PT_ALLOC_GROW(m->nums, m->nnums + 1, m->nums_alloc);
			m->nums[m->nnums] = num;
			payload = (uint32_t)m->nnums++;
			*r = payload + 1;
		}
	}
	if (payload >= O_MAX || m->nobjs >= O_MAX)
		return pt_diag_error_at(m->d, pt_input_tell(m->in), "too many objects");
	if (!(m->nobjs & 63))
		obj_word(m);
	PT_ALLOC_GROW(m->objs, m->nother + 1, m->objs_alloc);
	m->objs[m->nother++] = kind << O_SHIFT | payload;
	m->nobjs++;
	return 0;
}

/* a raw frame id's object: its local frame */
static int m_frame_obj(struct marshal *m, uint32_t frame)
{
	if (frame >= O_MAX || m->nobjs >= O_MAX)
		return pt_diag_error_at(m->d, pt_input_tell(m->in), "too many objects");
	if (!(m->nobjs & 63))
		obj_word(m);
	if (m->fshift < 2 && frame >> (8u << m->fshift))
		fobj_widen(m, frame);
	PT_ALLOC_GROW(m->fobj, (m->nfobj + 1) << m->fshift, m->fobj_alloc);
	if (m->fshift == 0)
		m->fobj[m->nfobj] = (unsigned char)frame;
	else if (m->fshift == 1)
		((uint16_t *)(void *)m->fobj)[m->nfobj] = (uint16_t)frame;
	else
		((uint32_t *)(void *)m->fobj)[m->nfobj] = frame;
	m->isframe[m->nobjs >> 6] |= (uint64_t)1 << (m->nobjs & 63);
	m->nfobj++;
	m->nobjs++;
	return 0;
}

/* object n's entry, as objs holds it (a frame object as O_FRAME and its frame) */
static uint32_t obj_at(const struct marshal *m, uint64_t n)
{
	uint64_t w = m->isframe[n >> 6], below = ((uint64_t)1 << (n & 63)) - 1;
	size_t k = m->fbefore[n >> 6] + (size_t)__builtin_popcountll(w & below);

	if (!(w >> (n & 63) & 1))
		return m->objs[n - k];
	if (m->fshift == 0)
		return (uint32_t)O_FRAME << O_SHIFT | m->fobj[k];
	if (m->fshift == 1)
		return (uint32_t)O_FRAME << O_SHIFT | ((const uint16_t *)(const void *)m->fobj)[k];
	return (uint32_t)O_FRAME << O_SHIFT | ((const uint32_t *)(const void *)m->fobj)[k];
}

static int m_emit(struct marshal *m, const struct val *v)
{
	return m->mute ? 0 : b_scalar(m->b, v);
}

static int m_push(struct marshal *m, char kind, uint64_t left, int is_map)
{
	PT_ALLOC_GROW(m->stack, m->depth + 1, m->stack_alloc);
	m->stack[m->depth].kind = kind;
	m->stack[m->depth].left = left;
	m->depth++;
	if (kind == 'm')
		m->mute++;
	else if (!m->mute)
		return b_begin(m->b, is_map);
	return 0;
}

static int m_string(struct marshal *m, uint64_t at, struct val *v)
{
	const unsigned char *q;
	int64_t n;

	if (m_len(m, at, "String", &n) < 0 || m_bytes(m, at, "a String", n, &q) < 0)
		return -1;
	v->t = V_STR;
	v->s = pt_strn(m->b->p, (const char *)q, (size_t)n);
	pt_input_consume(m->in, (size_t)n);
	if (m_obj(m, O_STR, 0, v->s) < 0)
		return -1;
	return 0;
}

static int m_bignum(struct marshal *m, uint64_t at, struct val *v)
{
	const unsigned char *q;
	int64_t words, i;
	uint64_t x = 0;
	int sign, big = 0;

	if (m_byte(m, &sign) < 0)
		return -1;
	if (sign != '+' && sign != '-')
		return pt_diag_error_at(m->d, at, "bad Bignum sign byte 0x%02x", sign);
	if (m_len(m, at, "Bignum", &words) < 0)
		return -1;
	if (words > INT64_MAX / 2)
		return pt_diag_error_at(m->d, at, "Bignum length is too large");
	if (m_bytes(m, at, "a Bignum", 2 * words, &q) < 0)
		return -1;
	for (i = 0; i < 2 * words; i++) {
		if (i < 8)
			x |= (uint64_t)q[i] << (8 * i);
		else if (q[i])
			big = 1;
	}
	pt_input_consume(m->in, (size_t)(2 * words));
	if (x > (uint64_t)INT64_MAX)
		big = 1;
	v->t = big ? V_BIG : V_INT;
	v->i = big ? (sign == '-' ? -1 : 1) : (sign == '-' ? -(int64_t)x : (int64_t)x);
	if (m_obj(m, big ? O_BIG : O_INT, v->i, 0) < 0)
		return -1;
	return 0;
}

static int m_float(struct marshal *m, uint64_t at, struct val *v)
{
	const unsigned char *q;
	char text[64];
	int64_t n;
	char *end;

	if (m_len(m, at, "Float", &n) < 0)
		return -1;
	if (n >= (int64_t)sizeof(text))
		return pt_diag_error_at(m->d, at, "Float text of %" PRId64 " bytes is too long", n);
	if (m_bytes(m, at, "a Float", n, &q) < 0)
		return -1;
	memcpy(text, q, (size_t)n);
	text[n] = 0;
	pt_input_consume(m->in, (size_t)n);
	v->t = V_FLOAT;
	v->f = strtod(text, &end);
	if (!n || *end) {
		struct pt_buf t = PT_BUF_INIT;
		pt_buf_add_printable(&t, text, (size_t)n);
		pt_diag_error_at(m->d, at, "bad Float '%s'", t.buf);
		pt_buf_release(&t);
		return -1;
	}
	{
		int64_t bits;
		memcpy(&bits, &v->f, sizeof(bits));
		if (m_obj(m, O_FLOAT, bits, 0) < 0)
			return -1;
	}
	return 0;
}

/* One value at the current position: a scalar is reported; a container is opened. */
static int m_value(struct marshal *m)
{
	uint64_t at = pt_input_tell(m->in);
	struct val v;
	int64_t n;
	int c;

	memset(&v, 0, sizeof(v));
	m->b->off = at;
	if (m_byte(m, &c) < 0)
		return -1;
	switch (c) {
	case '0':
		return m_emit(m, &v);
	case 'T':
	case 'F':
		v.t = V_BOOL;
		v.i = c == 'T';
		return m_emit(m, &v);
	case 'i':
		if (m_long(m, &v.i) < 0)
			return -1;
		v.t = V_INT;
		return m_emit(m, &v);
	case 'l':
		if (m_bignum(m, at, &v) < 0)
			return -1;
		return m_emit(m, &v);
	case 'f':
		if (m_float(m, at, &v) < 0)
			return -1;
		return m_emit(m, &v);
	case '"':
		if (m_string(m, at, &v) < 0)
			return -1;
		return m_emit(m, &v);
	case 'I':
		/* a String with instance variables (its encoding): the String, then
		 * n (Symbol, value) pairs, read but not reported */
		if (m_byte(m, &c) < 0)
			return -1;
		if (c != '"')
			return pt_diag_error_at(m->d, at + 1,
						"unsupported Marshal type 0x%02x with instance "
						"variables (only Strings are expected)",
						c);
		if (m_string(m, at + 1, &v) < 0 || m_emit(m, &v) < 0)
			return -1;
		if (m_long(m, &n) < 0)
			return -1;
		if (n < 0 || n > INT64_MAX / 2)
			return pt_diag_error_at(m->d, at, "bad instance variable count %" PRId64,
						n);
		return n ? m_push(m, 'm', (uint64_t)n * 2, 0) : 0;
	case ':': {
		const unsigned char *q;
		if (m_len(m, at, "Symbol", &n) < 0 || m_bytes(m, at, "a Symbol", n, &q) < 0)
			return -1;
		v.t = V_STR;
		v.s = pt_strn(m->b->p, (const char *)q, (size_t)n);
		pt_input_consume(m->in, (size_t)n);
		PT_ALLOC_GROW(m->syms, m->nsyms + 1, m->syms_alloc);
		m->syms[m->nsyms++] = v.s;
		return m_emit(m, &v);
	}
	case ';':
		if (m_long(m, &n) < 0)
			return -1;
		if (n < 0 || (uint64_t)n >= m->nsyms)
			return pt_diag_error_at(m->d, at, "Symbol link %" PRId64 " to no Symbol",
						n);
		v.t = V_STR;
		v.s = m->syms[n];
		return m_emit(m, &v);
	case '@': {
		uint32_t o, kind, payload;
		if (m_long(m, &n) < 0)
			return -1;
		if (n < 0 || (uint64_t)n >= m->nobjs)
			return pt_diag_error_at(m->d, at, "object link %" PRId64 " to no object",
						n);
		o = obj_at(m, (uint64_t)n);
		kind = o >> O_SHIFT;
		payload = o & (O_MAX - 1);
		v.t = kind == O_STR	? V_STR
		      : kind == O_INT	? V_INT
		      : kind == O_BIG	? V_BIG
		      : kind == O_FLOAT ? V_FLOAT
		      : kind == O_FRAME ? V_INT
					: V_LINK;
		if (kind == O_STR)
			v.s = payload;
		else if (kind == O_FRAME)
			v.i = m->b->lf[payload].key_int;
		else if (kind == O_FLOAT)
			memcpy(&v.f, &m->nums[payload], sizeof(v.f));
		else if (kind != O_CONTAINER && kind != O_FRAME)
			v.i = m->nums[payload];
		return m_emit(m, &v);
	}
	case '[':
		if (m_len(m, at, "Array", &n) < 0)
			return -1;
		if (m_obj(m, O_CONTAINER, 0, 0) < 0)
			return -1;
		return m_push(m, 'a', (uint64_t)n, 0);
	case '{':
	case '}':
		if (m_len(m, at, "Hash", &n) < 0)
			return -1;
		if (n > INT64_MAX / 2)
			return pt_diag_error_at(m->d, at, "Hash length is too large");
		if (m_obj(m, O_CONTAINER, 0, 0) < 0)
			return -1;
		return m_push(m, c == '{' ? 'h' : 'd', (uint64_t)n * 2, 1);
	default:
		if (c > 0x20 && c < 0x7f)
			return pt_diag_error_at(m->d, at, "unsupported Marshal type '%c' (0x%02x)",
						c, c);
		return pt_diag_error_at(m->d, at, "unsupported Marshal type 0x%02x", c);
	}
}

/* a frame id of raw at q (12 bytes buffered): a one-byte Fixnum or a positive Bignum of
 * up to 8 bytes. Returns its length in bytes (*big: a Bignum, an object), 0 for anything
 * else. */
static inline size_t raw_id(const unsigned char *q, int64_t *x, int *big)
{
	if (q[0] == 'i' && q[1] >= 5 && q[1] <= 127) {
		*x = q[1] - 5;
		*big = 0;
		return 2;
	}
	if (q[0] == 'l' && q[1] == '+' && q[2] >= 6 && q[2] <= 9) {
		size_t nb = 2 * (size_t)(q[2] - 5);
		uint64_t u = (uint64_t)q[3] | (uint64_t)q[4] << 8 | (uint64_t)q[5] << 16 |
			     (uint64_t)q[6] << 24 | (uint64_t)q[7] << 32 | (uint64_t)q[8] << 40 |
			     (uint64_t)q[9] << 48 | (uint64_t)q[10] << 56;
		if (nb < 8)
			u &= ((uint64_t)1 << (8 * nb)) - 1;
		if (u > (uint64_t)INT64_MAX)
			return 0;
		*x = (int64_t)u;
		*big = 1;
		return 3 + nb;
	}
	return 0;
}

/* The common frames of a coded run, with the counters in locals (a byte stored in rs or
 * fobj could otherwise alias every field, and each would be read again): a frame id
 * equal to the previous run's at its place, or a frame met lately, with room in every
 * array (made here for the next 4,096 objects) and a local frame that fits fobj's
 * width. It stops before the first frame that needs more, leaving it to m_raw_frames. */
static void raw_frames_common(struct marshal *m, struct mframe *fr)
{
	struct pt_input *in = m->in;
	struct builder *b = m->b;
	const unsigned char *buf = in->buf;
	size_t pos = in->pos, end = in->end, rpos = b->rpos, nrs = b->nrs;
	size_t nobjs = m->nobjs, nfobj = m->nfobj, nobjs_end, nfobj_end, words;
	uint64_t left = fr->left;
	int64_t rleft = b->rleft;
	uint32_t rnode = b->rnode;
	int rmatch = b->rmatch;
	const int coded = b->rcoded;
	const unsigned fshift = m->fshift;
	const uint32_t fmax = fshift == 2 ? UINT32_MAX : ((uint32_t)1 << (8u << fshift)) - 1;
	const size_t rs_alloc = b->rs_alloc, rc_alloc = b->rcache_alloc, rc_n = b->rcache_n;
	struct rcache *rc = b->rcache;
	uint8_t *rs = b->rs;
	unsigned char *fobj;
	uint64_t *isframe;
	uint32_t *fbefore;
	struct lframe *lf = b->lf;

	/* room for the next 4,096 objects: the words of their bits, and their frames */
	words = (nobjs + 4096 + 63) >> 6;
	PT_ALLOC_GROW(m->isframe, words, m->isframe_alloc);
	PT_ALLOC_GROW(m->fbefore, words, m->fbefore_alloc);
	PT_ALLOC_GROW(m->fobj, (nfobj + 4096) << fshift, m->fobj_alloc);
	isframe = m->isframe;
	fbefore = m->fbefore;
	fobj = m->fobj;
	nobjs_end = nobjs + 4096 < O_MAX ? nobjs + 4096 : O_MAX;
	nfobj_end = nfobj + 4096;

	while (left && end - pos >= 12) {
		const struct fcache *fc;
		int64_t x;
		int big;
		size_t used = raw_id(buf + pos, &x, &big);
		uint32_t f;

		if (!used || (big && (nobjs >= nobjs_end || nfobj >= nfobj_end)))
			break;
		if (rmatch && rpos < rc_n && rc[rpos].key == x && rc[rpos].is_int) {
			f = rc[rpos].node;
			if (big && f > fmax)
				break; /* wider than fobj: m_frame_obj widens it */
		} else {
			fc = &b->fcache[FCACHE_SLOT(x)];
			f = fc->f - 1;
			if (!fc->f || fc->key != x || !coded || nrs + 5 > rs_alloc ||
			    rpos >= rc_alloc || (big && f > fmax))
				break;
			rmatch = 0;
			while (f >= 0x80) { /* rs_varint */
				rs[nrs++] = (uint8_t)(f | 0x80);
				f >>= 7;
			}
			rs[nrs++] = (uint8_t)f;
			f = fc->f - 1;
			lf[f].in_raw = 1;
			rc[rpos].key = x;
			rc[rpos].is_int = 1;
			rc[rpos].node = f;
		}
		rnode = f;
		pos += used;
		left--;
		rpos++;
		if (big) {
			if (!(nobjs & 63)) { /* obj_word */
				isframe[nobjs >> 6] = 0;
				fbefore[nobjs >> 6] = (uint32_t)nfobj;
			}
			if (fshift == 0)
				fobj[nfobj++] = (unsigned char)f;
			else if (fshift == 1)
				((uint16_t *)(void *)fobj)[nfobj++] = (uint16_t)f;
			else
				((uint32_t *)(void *)fobj)[nfobj++] = f;
			isframe[nobjs >> 6] |= (uint64_t)1 << (nobjs & 63);
			nobjs++;
		}
		if (!--rleft) {
			b->rstate = 2;
			b->rcache_n = rpos;
			break;
		}
	}
	in->pos = pos;
	fr->left = left;
	b->rpos = rpos;
	b->nrs = nrs;
	b->rleft = rleft;
	b->rnode = rnode;
	b->rmatch = rmatch;
	m->nobjs = nobjs;
	m->nfobj = nfobj;
}

/* raw's frame ids while a run's frames are being read (coded runs only), straight from
 * the buffer: raw_frames_common takes the common ones, a frame met lately goes through
 * raw_frame_fast, the rest to raw_int */
static int m_raw_frames(struct marshal *m, struct mframe *fr)
{
	struct pt_input *in = m->in;
	struct builder *b = m->b;

	while (fr->left && b->rstate == 1 && in->end - in->pos >= 12) {
		int64_t x;
		int big;
		size_t used;

		raw_frames_common(m, fr);
		if (!fr->left || b->rstate != 1 || in->end - in->pos < 12)
			break;
		used = raw_id(in->buf + in->pos, &x, &big);
		if (!used)
			break;
		if (!raw_frame_fast(b, x)) {
			struct val v;
			memset(&v, 0, sizeof(v));
			v.t = V_INT;
			v.i = x;
			b->off = pt_input_tell(in);
			if (raw_int(b, &v) < 0)
				return -1;
		}
		in->pos += used;
		fr->left--;
		if (big && m_frame_obj(m, b->rnode) < 0)
			return -1;
	}
	return 0;
}

/* Integers in an Array (raw and the timestamps hold millions): the usual encodings,
 * a one-byte Fixnum or a positive Bignum of up to 8 bytes, read straight from the
 * buffer. Anything else is left to m_value. */
static int m_fast_ints(struct marshal *m, struct mframe *f)
{
	struct pt_input *in = m->in;
	struct ctx *c = b_ints(m->b);
	int raw = c && c->key == K_RAW && m->b->stream;

	while (f->left && in->end - in->pos >= 12) {
		const unsigned char *q;

		if (raw && m->b->rstate == 1) {
			if (m_raw_frames(m, f) < 0)
				return -1;
			if (!f->left || in->end - in->pos < 12)
				break;
			/* else a length or count comes, or a frame id m_raw_frames leaves */
		}
		q = in->buf + in->pos;
		struct val v;
		size_t used;
		int obj = 0, frame;

		memset(&v, 0, sizeof(v));
		v.t = V_INT;
		if (q[0] == 'i' && q[1] >= 5 && q[1] <= 127) {
			v.i = q[1] - 5;
			used = 2;
		} else if (q[0] == 'i' && q[1] >= 128 && q[1] <= 251) {
			v.i = (int64_t)q[1] - 256 + 5;
			used = 2;
		} else if (q[0] == 'l' && q[1] == '+' && q[2] >= 6 && q[2] <= 9) {
			uint64_t x = 0;
			size_t i, nb = 2 * (size_t)(q[2] - 5);
			for (i = 0; i < nb; i++)
				x |= (uint64_t)q[3 + i] << (8 * i);
			if (x > (uint64_t)INT64_MAX)
				break;
			v.i = (int64_t)x;
			used = 3 + nb;
			obj = 1;
		} else {
			break;
		}
		m->b->off = pt_input_tell(in);
		in->pos += used;
		/* a Bignum frame id of raw is entered as its local frame, after the
		 * builder has found it (no number of its own to keep) */
		frame = obj && c && c->key == K_RAW && m->b->stream && m->b->rstate == 1;
		if (obj && !frame && m_obj(m, O_INT, v.i, 0) < 0)
			return -1;
		f->left--;
		if ((c ? on_scalar(m->b, c, &v) : b_scalar(m->b, &v)) < 0)
			return -1;
		if (frame && m_frame_obj(m, m->b->rnode) < 0)
			return -1;
	}
	return 0;
}

static int marshal_parse(struct marshal *m)
{
	const unsigned char *q;
	int r;

	r = pt_input_need(m->in, 2, &q);
	if (r < 0)
		return -1;
	if (!r || q[0] != 4 || q[1] != 8)
		return pt_diag_error_at(m->d, 0, "not a Ruby Marshal 4.8 dump (bad magic)");
	pt_input_consume(m->in, 2);
	if (m_value(m) < 0)
		return -1;
	while (m->depth) {
		struct mframe *f = &m->stack[m->depth - 1];
		if (!f->left) {
			m->b->off = pt_input_tell(m->in);
			if (f->kind == 'm') {
				m->mute--;
				m->depth--;
				continue;
			}
			if (!m->mute && b_end(m->b) < 0)
				return -1;
			if (f->kind == 'd') {
				/* then the Hash's default value, which nobody asked for */
				f->kind = 'm';
				f->left = 1;
				m->mute++;
				continue;
			}
			m->depth--;
			continue;
		}
		if (f->kind == 'a' && !m->mute) {
			if (m_fast_ints(m, f) < 0)
				return -1;
			if (!f->left)
				continue;
		}
		f->left--;
		if (m_value(m) < 0)
			return -1;
	}
	/* `stackprof --dump` adds a newline (puts) */
	r = pt_input_need(m->in, 2, &q);
	if (r < 0)
		return -1;
	if (m->in->end - m->in->pos > 1 || (m->in->end > m->in->pos && q[0] != '\n'))
		return pt_diag_error_at(m->d, pt_input_tell(m->in),
					"data after the end of the dump");
	return 0;
}

static int stackprof_detect(const unsigned char *head, size_t len)
{
	if (len < 2 || head[0] != 4 || head[1] != 8)
		return 0;
	return len > 2 && (head[2] == '{' || head[2] == '}') ? 90 : 50;
}

static int stackprof_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			  struct pt_diag *d)
{
	struct builder b;
	struct marshal m;
	int ret;

	(void)o;
	p->format = "stackprof";
	builder_init(&b, p, d);
	b.sink = o->sink;
	memset(&m, 0, sizeof(m));
	m.in = in;
	m.b = &b;
	m.d = d;
	ret = marshal_parse(&m);
	/* the object table is done with: its pages can serve the runs' replay */
	free(m.stack);
	free(m.syms);
	free(m.objs);
	free(m.fobj);
	free(m.isframe);
	free(m.fbefore);
	free(m.nums);
	if (!ret)
		ret = finish(&b);
	builder_release(&b);
	return ret;
}

/* ---- JSON (stackprof --json): yajl's streaming callbacks into the same builder ---- */

/* the offset just past the token being reported, for errors and first mentions */
static struct builder *j_at(void *ctx)
{
	struct builder *b = ctx;
	if (b->jh)
		b->off = b->jbase + yajl_get_bytes_consumed(b->jh);
	return b;
}

static int j_null(void *ctx)
{
	struct val v;
	memset(&v, 0, sizeof(v));
	return b_scalar(j_at(ctx), &v) == 0;
}

static int j_bool(void *ctx, int x)
{
	struct val v;
	memset(&v, 0, sizeof(v));
	v.t = V_BOOL;
	v.i = x;
	return b_scalar(j_at(ctx), &v) == 0;
}

/* digits only (with an optional '-'): an Integer, else a Float */
static void j_numval(const char *s, size_t n, struct val *v)
{
	size_t i = s[0] == '-';
	uint64_t x = 0;
	char text[64];

	memset(v, 0, sizeof(*v));
	if (i < n && strspn(s + i, "0123456789") >= n - i) {
		v->t = V_INT;
		for (; i < n; i++) {
			if (x > ((uint64_t)INT64_MAX - (uint64_t)(s[i] - '0')) / 10) {
				v->t = V_BIG;
				v->i = s[0] == '-' ? -1 : 1;
				return;
			}
			x = x * 10 + (uint64_t)(s[i] - '0');
		}
		v->i = s[0] == '-' ? -(int64_t)x : (int64_t)x;
		return;
	}
	v->t = V_FLOAT;
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	memcpy(text, s, n);
	text[n] = 0;
	v->f = strtod(text, NULL);
}

static int j_number(void *ctx, const char *s, size_t n)
{
	struct val v;
	j_numval(s, n, &v);
	return b_scalar(j_at(ctx), &v) == 0;
}

static int j_string(void *ctx, const unsigned char *s, size_t n)
{
	struct builder *b = j_at(ctx);
	struct val v;
	memset(&v, 0, sizeof(v));
	v.t = V_STR;
	v.s = pt_strn(b->p, (const char *)s, n);
	return b_scalar(b, &v) == 0;
}

/* stackprof's own JSON loader turns digit-only keys into Integers */
static int j_key(void *ctx, const unsigned char *s, size_t n)
{
	struct val v;
	if (n && n < 19 && strspn((const char *)s, "0123456789") >= n) {
		j_numval((const char *)s, n, &v);
		return b_scalar(j_at(ctx), &v) == 0;
	}
	return j_string(ctx, s, n);
}

static int j_start_map(void *ctx)
{
	return b_begin(ctx, 1) == 0;
}

static int j_start_array(void *ctx)
{
	return b_begin(ctx, 0) == 0;
}

static int j_end(void *ctx)
{
	return b_end(ctx) == 0;
}

static const yajl_callbacks j_callbacks = {
	j_null,	     j_bool, NULL,  NULL,	   j_number, j_string,
	j_start_map, j_key,  j_end, j_start_array, j_end,
};

static int stackprof_json_detect(const unsigned char *head, size_t len)
{
	size_t i = pt_json_skip_ws(head, 0, len);
	if (i == len || head[i] != '{')
		return 0;
	/* stackprof's Report writes its data as it holds it: {"mode":"cpu"} alone */
	i = pt_json_skip_ws(head, i + 1, len);
	if (len - i >= 6 && !memcmp(head + i, "\"mode\"", 6))
		return 60;
	if (memmem(head, len, "\"mode\"", 6) &&
	    (memmem(head, len, "\"frames\"", 8) || memmem(head, len, "\"interval\"", 10)) &&
	    memmem(head, len, "\"version\"", 9))
		return 70;
	return 0;
}

/* yajl's message, first line only, without its "parse error: " prefix */
static int json_error(struct pt_diag *d, yajl_handle h, uint64_t at)
{
	unsigned char *msg = yajl_get_error(h, 0, NULL, 0);
	const char *m = (const char *)msg;
	size_t n;

	if (!strncmp(m, "parse error: ", 13))
		m += 13;
	n = strcspn(m, "\n");
	while (n && (m[n - 1] == ' ' || m[n - 1] == '\t' || m[n - 1] == '\r'))
		n--;
	pt_diag_error_at(d, at, "invalid JSON: %.*s", (int)n, m);
	yajl_free_error(h, msg);
	return -1;
}

static int stackprof_json_read(struct pt_input *in, struct pt_profile *p,
			       const struct pt_read_opts *o, struct pt_diag *d)
{
	struct builder b;
	yajl_handle h;
	yajl_status st = yajl_status_ok;
	const unsigned char *q;
	int ret = -1, r;

	(void)o;
	p->format = "stackprof-json";
	builder_init(&b, p, d);
	b.sink = o->sink;
	h = yajl_alloc(&j_callbacks, NULL, &b);
	if (!h) {
		builder_release(&b);
		return pt_diag_error(d, "out of memory");
	}
	yajl_config(h, yajl_dont_validate_strings, 1);
	for (;;) {
		uint64_t base = pt_input_tell(in);
		size_t avail;
		r = pt_input_need(in, 65536, &q);
		if (r < 0)
			goto out;
		avail = in->end - in->pos;
		if (!avail)
			break;
		b.off = b.jbase = base;
		b.jh = h;
		st = yajl_parse(h, q, avail);
		if (st != yajl_status_ok) {
			uint64_t at = base + yajl_get_bytes_consumed(h);
			if (st == yajl_status_client_canceled)
				b.d->pos = at;
			else
				json_error(d, h, at);
			goto out;
		}
		pt_input_consume(in, avail);
	}
	st = yajl_complete_parse(h);
	if (st != yajl_status_ok) {
		if (st != yajl_status_client_canceled)
			json_error(d, h, pt_input_tell(in));
		goto out;
	}
	ret = finish(&b);
out:
	yajl_free(h);
	builder_release(&b);
	return ret;
}

static const char *const no_suffixes[] = {NULL};

const struct pt_format pt_format_stackprof = {
	.name = "stackprof",
	.description = "Ruby stackprof dump (Marshal, as StackProf.results and stackprof --dump)",
	.suffixes = no_suffixes,
	.detect = stackprof_detect,
	.read = stackprof_read,
};

const struct pt_format pt_format_stackprof_json = {
	.name = "stackprof-json",
	.description = "Ruby stackprof dump as JSON (stackprof --json)",
	.suffixes = no_suffixes,
	.detect = stackprof_json_detect,
	.read = stackprof_json_read,
};
