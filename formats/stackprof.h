/* stackprof.h: inside the stackprof readers (not for other files): the builder that both
 * the Marshal reader (stackprof-marshal.c) and the JSON one (stackprof-json.c) feed with
 * events, defined in stackprof.c, and its end in stackprof-model.c. */
#ifndef PT_STACKPROF_H
#define PT_STACKPROF_H

#include <stdint.h>
#include <yajl/yajl_parse.h>

#include "core/profile.h"
#include "core/sink.h"
#include "util/buf.h"
#include "util/diag.h"
#include "util/map.h"
#include "util/xalloc.h"

/* The events: a reader reports each scalar (a Hash key too) as a struct val, and each
 * container's start and end; b->off is the input offset of the event, for errors. */
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

static inline void rs_varint(struct builder *b, uint64_t x)
{
	PT_ALLOC_GROW(b->rs, b->nrs + 10, b->rs_alloc);
	while (x >= 0x80) {
		b->rs[b->nrs++] = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	b->rs[b->nrs++] = (uint8_t)x;
}

/* the next varint of rs at *pos (rs is ours: it is well formed) */
static inline uint64_t rs_next(const struct builder *b, size_t *pos)
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
static inline size_t rs_run(struct builder *b, size_t *pos, const uint32_t *map)
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

/* pt_stackprof_raw_int's common steps for a frame id x of a coded run (b->stream),
 * inline: x equal to the previous run's frame at its place, or a frame met lately (the
 * fcache). Returns 0 where pt_stackprof_raw_int must take x. */
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

/* The builder's life: init, then the events, then finish (0, or -1 with the error in d),
 * then release in every case. Every event returns 0 or -1 with the error in b->d. */
void pt_stackprof_init(struct builder *b, struct pt_profile *p, struct pt_diag *d);
void pt_stackprof_release(struct builder *b);
int pt_stackprof_scalar(struct builder *b, const struct val *v);
int pt_stackprof_begin(struct builder *b, int is_map);
int pt_stackprof_end(struct builder *b);
int pt_stackprof_finish(struct builder *b);

/* The Marshal reader's shortcuts for raw and the timestamps (millions of Integers): the
 * Integer Array being read, if scalars go to one now (else NULL); an Integer straight
 * to that context c, as pt_stackprof_scalar would hand it; a frame id of raw straight
 * to raw's runs. */
struct ctx *pt_stackprof_ints(struct builder *b);
int pt_stackprof_value(struct builder *b, struct ctx *c, const struct val *v);
int pt_stackprof_raw_int(struct builder *b, const struct val *v);

/* a local frame's dump id as text, for messages (printable, one line) */
void pt_stackprof_frame_label(struct builder *b, uint32_t i, struct pt_buf *out);

#endif
