/* perf.c: the text `perf script` prints: a header line per sample (comm pid/tid [cpu]
 * time: period event:), then its callchain, leaf first, one `\taddr sym+off (dso)` line
 * per frame, and a blank line; or, without -g, the one frame on the header line itself.
 * See formats/perf.md for the forms read and how they map into the model. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* block_scan's wider steps (AVX2, AVX-512BW), built for x86-64 by gcc or clang whatever
 * the build's own target, and taken where the processor has them */
#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SCAN_WIDE 1
#else
#define SCAN_WIDE 0
#endif

#include "util/buf.h"
#include "core/sink.h"
#include "formats/format.h"
#include "formats/perf.h"
#include "util/hash.h"
#include "util/index.h"
#include "util/intern.h"
#include "util/symfile.h"
#include "util/text.h"
#include "util/xalloc.h"

#define NONE	 UINT32_MAX
#define TOO_MANY (UINT32_MAX - 2) /* event_type: no room for another sample type */
#define RUN_SYM	 (1u << 31)	  /* a run's count: it has a frame for the symbolizer */

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int all_digits(const char *s, size_t n)
{
	size_t i;
	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return 0;
	return 1;
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);
	return n >= m && !memcmp(s + n - m, suffix, m);
}

static const char *find_bytes(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), i;
	if (m > n)
		return NULL;
	for (i = 0; i + m <= n; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, m))
			return s + i;
	return NULL;
}

/* ---- the header line ---- */

struct span {
	const char *s;
	size_t n;
};

struct header {
	struct span comm, pid, tid, cpu, event, frame;
	struct span ids; /* the text that gives comm, pid, tid and cpu: a cache key */
	int has_time, has_period, sideband;
	int64_t time, period; /* time in ns */
};

/* "123.456789:" -> ns */
static int parse_time(const char *s, size_t n, int64_t *ns)
{
	size_t i = 0, d;
	uint64_t sec = 0, frac = 0;
	if (n < 4 || s[n - 1] != ':')
		return 0;
	n--;
	while (i < n && is_digit(s[i])) {
		if (sec > UINT64_MAX / 10 / 1000000000)
			return 0;
		sec = sec * 10 + (uint64_t)(s[i++] - '0');
	}
	if (!i || i >= n || s[i] != '.')
		return 0;
	i++;
	if (i == n)
		return 0;
	for (d = 0; i < n; i++, d++) {
		if (!is_digit(s[i]))
			return 0;
		if (d < 9)
			frac = frac * 10 + (uint64_t)(s[i] - '0');
	}
	for (; d < 9; d++)
		frac *= 10;
	if (sec > (uint64_t)INT64_MAX / 1000000000 - 1)
		return 0;
	*ns = (int64_t)(sec * 1000000000 + frac);
	return 1;
}

static int is_cpu_token(const char *s, size_t n)
{
	return n >= 3 && s[0] == '[' && s[n - 1] == ']' && all_digits(s + 1, n - 2);
}

static int is_time_token(const char *s, size_t n)
{
	int64_t t;
	return parse_time(s, n, &t);
}

/* "N" or "N/N" (perf prints -1 for unknown ids) */
static int is_id_token(const char *s, size_t n, struct span *pid, struct span *tid)
{
	const char *slash = memchr(s, '/', n);
	size_t a = slash ? (size_t)(slash - s) : n;
	const char *x = s, *y = slash ? slash + 1 : NULL;
	size_t xn = a, yn = slash ? n - a - 1 : 0;

	if (xn && x[0] == '-') {
		x++;
		xn--;
	}
	if (!all_digits(x, xn))
		return 0;
	if (slash) {
		const char *z = y;
		size_t zn = yn;
		if (zn && z[0] == '-') {
			z++;
			zn--;
		}
		if (!all_digits(z, zn))
			return 0;
		pid->s = s;
		pid->n = a;
		tid->s = y;
		tid->n = yn;
	} else {
		pid->s = "";
		pid->n = 0;
		tid->s = s;
		tid->n = n;
	}
	return 1;
}

#define MAX_TOKENS 64

/* The header from its anchor on: s[a..n) starts with the anchor token, a cpu or time
 * token (else 0: the anchor is elsewhere), and holds at most `room` tokens that count
 * (perf's order: [cpu] time: period event:, the frame being the rest). h's comm, pid,
 * tid and ids are set, ids up to the anchor. */
static int parse_from_anchor(const char *s, size_t n, size_t a, size_t room, struct header *h)
{
	size_t ts[5], te[5], nt = 0, i = a, k = 0;

	while (i < n && nt < room && nt < 5) {
		ts[nt] = i;
		while (i < n && s[i] != ' ')
			i++;
		te[nt++] = i;
		while (i < n && s[i] == ' ')
			i++;
	}
	if (!nt)
		return 0;
	if (is_cpu_token(s + ts[0], te[0] - ts[0])) {
		h->cpu.s = s + ts[0] + 1;
		h->cpu.n = te[0] - ts[0] - 2;
		h->ids.n = (size_t)(s + te[0] - h->ids.s);
		k++;
	}
	if (k < nt && parse_time(s + ts[k], te[k] - ts[k], &h->time)) {
		h->has_time = 1;
		k++;
	}
	if (!k)
		return 0;
	if (k < nt && te[k] - ts[k] > 12 && !memcmp(s + ts[k], "PERF_RECORD_", 12)) {
		h->sideband = 1;
		return 1;
	}
	/* a period is a number followed by the event or by nothing */
	if (k < nt && all_digits(s + ts[k], te[k] - ts[k]) &&
	    (k + 1 == nt || s[te[k + 1] - 1] == ':')) {
		uint64_t v = 0;
		size_t j;
		for (j = ts[k]; j < te[k]; j++) {
			if (v > (uint64_t)INT64_MAX / 10)
				return 0;
			v = v * 10 + (uint64_t)(s[j] - '0');
		}
		if (v > (uint64_t)INT64_MAX)
			return 0;
		h->period = (int64_t)v;
		h->has_period = 1;
		k++;
	}
	if (k < nt && s[te[k] - 1] == ':') {
		h->event.s = s + ts[k];
		h->event.n = te[k] - ts[k] - 1;
		k++;
	}
	if (k < nt) {
		h->frame.s = s + ts[k];
		h->frame.n = n - ts[k];
	}
	return 1;
}

static void header_clear(struct header *h)
{
	/* field by field, and each span in scalars: gcc makes a memset of the whole (or
	 * a copy of a constant header) a rep stos, which was 9% of perf_read's own
	 * samples, and an empty span assigned whole two 8-byte stores read back by one
	 * 16-byte load, a store-forwarding stall that cost as much */
	h->comm.s = h->pid.s = h->tid.s = h->cpu.s = h->event.s = h->frame.s = "";
	h->comm.n = h->pid.n = h->tid.n = h->cpu.n = h->event.n = h->frame.n = 0;
	h->ids.s = NULL;
	h->ids.n = 0;
	h->has_time = h->has_period = h->sideband = 0;
	h->time = h->period = 0;
}

/* Parse a sample header line (not starting with a tab; trailing blanks removed).
 * Fields in perf's order, any of them absent: comm (may hold spaces and digits) pid/tid
 * [cpu] time: period event: and, without callchains, the frame. The anchor is the first
 * [cpu] or time: token; the token before it is the thread id, everything before that the
 * comm. Returns 0 if the line fits no header form; else 1, and with at, where the anchor
 * starts (0: none) and how many tokens may follow it (parse_from_anchor's room). */
static int parse_header_at(const char *s, size_t n, struct header *h, size_t *at, size_t *room)
{
	size_t ts[MAX_TOKENS], te[MAX_TOKENS], nt = 0, i = 0, k, anchor = NONE, cstart;

	header_clear(h);
	*at = *room = 0;
	while (i < n && s[i] == ' ')
		i++;
	cstart = i;
	/* tokens up to the anchor; from it on, parse_from_anchor's */
	while (i < n && nt < MAX_TOKENS) {
		ts[nt] = i;
		while (i < n && s[i] != ' ')
			i++;
		te[nt] = i;
		if (is_cpu_token(s + ts[nt], te[nt] - ts[nt]) ||
		    is_time_token(s + ts[nt], te[nt] - ts[nt])) {
			anchor = nt;
			break;
		}
		nt++;
		while (i < n && s[i] == ' ')
			i++;
	}
	if (anchor == NONE) {
		/* no cpu, no time: "comm [pid/]tid [event:]", or a side-band line printed
		 * without them (PERF_RECORD_FINISHED_ROUND) */
		if (!nt)
			return 0;
		for (k = 0; k < nt; k++)
			if (te[k] - ts[k] > 12 && !memcmp(s + ts[k], "PERF_RECORD_", 12)) {
				h->sideband = 1;
				return 1;
			}
		k = nt;
		if (s[te[k - 1] - 1] == ':' && i >= n) {
			h->event.s = s + ts[k - 1];
			h->event.n = te[k - 1] - ts[k - 1] - 1;
			k--;
		}
		if (!k || !is_id_token(s + ts[k - 1], te[k - 1] - ts[k - 1], &h->pid, &h->tid))
			return 0;
		if (i < n)
			return 0;
		h->comm.s = s + cstart;
		h->comm.n = ts[k - 1] > cstart ? ts[k - 1] - cstart : 0;
		while (h->comm.n && s[cstart + h->comm.n - 1] == ' ')
			h->comm.n--;
		h->ids.s = s + cstart;
		h->ids.n = te[k - 1] - cstart;
		return 1;
	}
	/* before the anchor: comm and ids */
	if (anchor > 0 &&
	    is_id_token(s + ts[anchor - 1], te[anchor - 1] - ts[anchor - 1], &h->pid, &h->tid)) {
		h->comm.s = s + cstart;
		h->comm.n = ts[anchor - 1] - cstart;
	} else {
		h->comm.s = s + cstart;
		h->comm.n = anchor > 0 ? te[anchor - 1] - cstart : 0;
	}
	while (h->comm.n && h->comm.s[h->comm.n - 1] == ' ')
		h->comm.n--;
	h->ids.s = s + cstart;
	h->ids.n = anchor > 0 ? te[anchor - 1] - cstart : 0;
	*at = ts[anchor];
	*room = MAX_TOKENS - anchor;
	return parse_from_anchor(s, n, ts[anchor], *room, h);
}

static int parse_header(const char *s, size_t n, struct header *h)
{
	size_t at, room;
	return parse_header_at(s, n, h, &at, &room);
}

/* ---- callchain lines ---- */

struct chainline {
	struct span addr, sym, dso;
	int has_dso;
};

/* "addr sym+0xoff (dso)", "addr sym" or "addr" (leading blanks already skipped) */
static int parse_frame(const char *s, size_t n, struct chainline *c)
{
	size_t i = 0, j, blanks;

	memset(c, 0, sizeof(*c));
	c->dso.s = "";
	while (i < n && is_hex(s[i]))
		i++;
	if (!i || (i < n && s[i] != ' '))
		return 0;
	c->addr.s = s;
	c->addr.n = i;
	j = i;
	while (i < n && s[i] == ' ')
		i++;
	blanks = i - j;
	s += i;
	n -= i;
	/* the dso is the " (...)" that ends the line, parentheses balanced (perf prints
	 * "(/path (deleted))" for deleted files) */
	if (n >= 4 && s[n - 1] == ')') {
		int depth = 0;
		for (j = n; j-- > 1;) {
			if (s[j] == ')')
				depth++;
			else if (s[j] == '(' && !--depth)
				break;
		}
		if (j == 0 && depth == 1 && s[0] == '(' && blanks >= 2) {
			/* "addr  (dso)": an empty symbol. stackcollapse-perf.pl's
			 * /(\w+)\s*(.+) \((.*)\)/ makes it the name " ", and inferno
			 * follows: so do we */
			c->has_dso = 1;
			c->dso.s = s + 1;
			c->dso.n = n - 2;
			c->sym.s = " ";
			c->sym.n = 1;
			return 1;
		}
		if (j >= 1 && !depth && s[j - 1] == ' ') {
			c->has_dso = 1;
			c->dso.s = s + j + 1;
			c->dso.n = n - j - 2;
			n = j - 1;
			while (n && s[n - 1] == ' ')
				n--;
		}
	}
	/* strip the offset: "+0x" hex digits at the end */
	j = n;
	while (j > 0 && is_hex(s[j - 1]))
		j--;
	if (j < n && j >= 3 && !memcmp(s + j - 3, "+0x", 3))
		n = j - 3;
	c->sym.s = n ? s : "[unknown]";
	c->sym.n = n ? n : 9;
	return 1;
}

/* ---- the reader ---- */

/* A frame line met before, by its key (the text after the address, the flag byte
 * first): the key's length and keyed hash (util/hash.h pt_uhash), which stand for its
 * text as a known block's do (struct chain); its id in fidx indexes fkey and fval. */
struct fkey {
	uint64_t h[2];
	uint32_t len;
};

/* A block of callchain lines met before, and what reading it gave: one allocation
 * from the reader's chain_arena, this header, then its nframes frame ids, leaf first
 * (chain_frames), if its records go to a sink; else the call-tree node its stack
 * reached holds them (chain_refill). The block's text is not kept: its length and its
 * keyed hash (util/hash.h pt_uhash) stand for it. */
struct chain {
	uint64_t hash[2];
	uint32_t len, nlines, nframes;
	uint32_t root, node; /* the call-tree node of the stack under root (NONE: none yet) */
	uint32_t row;	     /* the sample row its last record went to (NONE: none yet) */
	char is_java, last;  /* the header's java-ness (tidy); the last byte of its last line */
	char sym;	     /* it has a frame for the symbolizer (reader.sym_record) */
	char has_frames;     /* its frames follow it */
};

struct chain_slot {
	uint64_t mix;	 /* chain_mix of the block's hash */
	struct chain *c; /* NULL: empty */
};

static uint32_t *chain_frames(struct chain *c)
{
	return (uint32_t *)(c + 1);
}

struct head_info { /* what a (comm, pid, tid, cpu) header gives */
	uint32_t labels, root;
	int is_java;
};

struct reader {
	struct pt_profile *p;
	struct pt_sink *sink; /* where the stacks go (core/sink.h) */
	/* where the stacks with an unnamed frame of a binary go (the symbolizer; NULL:
	 * none), and the record being read has such a frame */
	struct pt_sink *addr_sink;
	int sym_record;
	int addr_key;		  /* [unknown] frames are cached by their address too */
	struct pt_buf kba;	  /* the text after the last such frame (keyed_by_address) */
	int kba_is;		  /* and whether it was keyed by its address */
	struct pt_perf_maps maps; /* --show-mmap-events' maps, for those frames */
	unsigned char *worth;	  /* per string id of a dso: 1 worth naming, 2 not */
	size_t worth_alloc;
	const struct pt_read_opts *o;
	struct pt_diag *d;
	struct pt_arena arena; /* for the caches' keys */

	/* the record being read */
	int in_record, skip_record;
	uint64_t record_line; /* where it starts */
	int kind;	      /* the line last read: 0 a header, 1 a callchain line */
	char end_of[2];	      /* the last byte of the last whole line of each kind */
	uint32_t root, labels, etype;
	int is_java, has_time;
	int64_t period, time;
	uint32_t *frames; /* leaf first */
	size_t nframes, frames_alloc;

	/* frame cache: key (flags, sym, dso[, addr]) -> run in `pool` (count, ids...) */
	struct pt_index fidx;
	struct fkey *fkey;
	size_t fkey_alloc;
	uint32_t *fval;
	size_t fval_alloc;
	uint32_t *pool;
	size_t npool, pool_alloc;

	/* header cache: (comm, pid, tid, cpu) -> head_info */
	struct pt_intern hkeys;
	struct head_info *hval;
	size_t hval_alloc;
	int hval0; /* hval[0] (the key "": no comm nor ids) is filled */

	/* events: name -> type index, NONE for a filtered-out event */
	struct pt_intern events;
	uint32_t *etype_of;
	size_t etype_alloc;
	int any_event_kept;

	int64_t *vals;
	size_t vals_alloc;
	int have_t0;
	int64_t t0, tmax;
	uint64_t nkept;
	uint32_t k_comm, k_pid, k_tid, k_cpu;
	struct pt_buf key, name;
	/* the last header (header_memo), its anchor and what the text before it gave:
	 * hm_off and hm_len [0..3] comm, pid, tid and ids; hm_ok 0 if there is none */
	struct pt_buf hm_line;
	size_t hm_off[6], hm_len[6], hm_room, hm_at;
	int hm_ok;
	/* and where its time token ends (0: no time), whether a cpu token is before it,
	 * and what the text after it gave: hm_off and hm_len [4] the event, [5] the frame
	 * (from hm_tend) */
	size_t hm_tend;
	int hm_cpu, hm_has_period, hm_sideband;
	int64_t hm_period;
	/* the last header's ids and event, and their ids in hkeys and events (NONE: none) */
	struct pt_buf last_ids, last_ev;
	uint32_t last_head, last_event;

	/* known callchain blocks, open addressing over CHAIN_PROBE slots a key at most
	 * (a full window evicts, so no input makes a lookup cost more), their bytes
	 * bounded by CHAIN_BUDGET */
	struct pt_input *in;
	struct chain_slot *chains;
	uint32_t chain_mask, evict;
	size_t nchains, chain_bytes;
	struct pt_arena chain_arena;   /* the blocks: dropped all at once (chain_clear) */
	struct pt_hash_key tables_key; /* the reader's tables' keys derive from it */
	struct pt_uhash_key *chain_key;
	uint64_t *seen; /* after the budget's first overflow, the blocks met once, by a bit
			 * of their hash (SEEN_BITS) */
	size_t nseen;
	/* the block after the current header, met before: kept (chain_commit) at its blank
	 * line if all its cand_lines lines were read as callchain lines */
	int bare; /* the record's header holds no frame: its callchain follows */
	int cand;
	uint64_t cand_hash[2], cand_mix, cand_end;
	uint32_t cand_len, cand_lines, chain_lines;
};

static uint32_t mapping_for(struct reader *r, const char *dso, size_t n)
{
	struct pt_mapping m;
	memset(&m, 0, sizeof(m));
	m.file = pt_strn(r->p, dso, n);
	return pt_profile_mapping(r->p, &m);
}

/* stackcollapse-perf.pl's tidy_generic and tidy_java, on r->name */
static void tidy(struct reader *r)
{
	struct pt_buf *b = &r->name;
	size_t i, j;
	const char *dp;

	for (i = 0; i < b->len; i++)
		if (b->buf[i] == ';')
			b->buf[i] = ':';
	/* Go's pkg.(*T).M keeps its parentheses */
	dp = find_bytes(b->buf, b->len, ".(");
	if (!(dp && find_bytes(dp + 2, b->len - (size_t)(dp + 2 - b->buf), ").")))
		for (i = 0; i < b->len; i++)
			if (b->buf[i] == '(' &&
			    !(b->len - i - 1 >= 20 &&
			      !memcmp(b->buf + i + 1, "anonymous namespace)", 20))) {
				pt_buf_setlen(b, i);
				break;
			}
	for (i = j = 0; i < b->len; i++)
		if (b->buf[i] != '"' && b->buf[i] != '\'')
			b->buf[j++] = b->buf[i];
	pt_buf_setlen(b, j);
	if (r->is_java && b->len && b->buf[0] == 'L' && memchr(b->buf, '/', b->len)) {
		memmove(b->buf, b->buf + 1, b->len - 1);
		pt_buf_setlen(b, b->len - 1);
	}
}

static int dso_is_jit(const char *dso, size_t n)
{
	const char *q = find_bytes(dso, n, "/tmp/perf-"), *base;
	size_t i;

	if (q) {
		i = (size_t)(q - dso) + 10;
		if (i < n && is_digit(dso[i])) {
			while (i < n && is_digit(dso[i]))
				i++;
			if (n - i >= 4 && !memcmp(dso + i, ".map", 4))
				return 1;
		}
	}
	base = dso + n;
	while (base > dso && base[-1] != '/')
		base--;
	return (size_t)(dso + n - base) > 10 && !memcmp(base, "jitted-", 7) &&
	       ends_with(base, (size_t)(dso + n - base), ".so");
}

/* the kernel image: ".../vmlinux", or a versioned one ("/boot/vmlinux-5.10.0-9-amd64") */
static int dso_is_vmlinux(const char *dso, size_t n)
{
	const char *base = dso + n;

	while (base > dso && base[-1] != '/')
		base--;
	n = (size_t)(dso + n - base);
	return (n == 7 && !memcmp(base, "vmlinux", 7)) || (n > 8 && !memcmp(base, "vmlinux-", 8));
}

/* A frame line whose "(dso)" was cut ("addr start_thread (/usr/lib/libc.so"): a " ("
 * with no ')' after it. stackcollapse-perf.pl warns and drops such a line; kept, it
 * would make the name "start_thread " beside "start_thread". */
static int dso_cut(const char *s, size_t n)
{
	size_t i;

	if (!n || s[n - 1] == ')')
		return 0;
	for (i = n; i-- > 1;) {
		if (s[i] == ')')
			return 0;
		if (s[i] == '(' && s[i - 1] == ' ')
			return 1;
	}
	return 0;
}

/* Whether the symbolizer may name a frame of the file dso[0..n) (a path): with a
 * --binary-path always, else when the file is here with symbols or a debug file
 * (util/symfile.h), looked at once a file */
static int dso_worth(struct reader *r, const char *dso, size_t n)
{
	uint32_t id;
	size_t old;

	if (r->o->flags & PT_READ_BINARY_PATH)
		return 1;
	id = pt_strn(r->p, dso, n);
	if (id >= r->worth_alloc) {
		old = r->worth_alloc;
		PT_ALLOC_GROW(r->worth, (size_t)id + 1, r->worth_alloc);
		memset(r->worth + old, 0, r->worth_alloc - old);
	}
	if (!r->worth[id])
		r->worth[id] = pt_symfile_worth_opening(pt_s(r->p, id)) ? 1 : 2;
	return r->worth[id] == 1;
}

/* an unnamed frame the symbolizer may name: in a binary's file (a path, not a
 * "[pseudo file]", the kernel, a JIT's map) */
static int symbolizable(struct reader *r, const struct chainline *c, uint32_t flags)
{
	return r->addr_sink && c->has_dso && c->dso.n && c->dso.s[0] == '/' && c->addr.n <= 16 &&
	       !(flags & (PT_FRAME_KERNEL | PT_FRAME_JIT | PT_FRAME_INLINED)) &&
	       dso_worth(r, c->dso.s, c->dso.n);
}

/* f, unnamed, gets its address and the mapping that places it in the binary
 * (perf.h); RUN_SYM, or 0 for address 0 */
static uint32_t bare_address(struct reader *r, const struct chainline *c, struct pt_frame *f)
{
	uint64_t a = 0;
	size_t i;

	for (i = 0; i < c->addr.n; i++)
		a = a << 4 | (uint64_t)pt_hex_digit(c->addr.s[i]);
	if (!a)
		return 0;
	f->addr = a;
	f->mapping = pt_perf_maps_mapping(&r->maps, r->p, c->dso.s, c->dso.n, a);
	return RUN_SYM;
}

/* The frames one callchain line stands for (several for an "a->b" inline chain, none
 * for a name starting with '('): a run in r->pool (count, then the ids outermost
 * first); returns where it starts. */
static uint32_t resolve(struct reader *r, const struct chainline *c)
{
	int addrs, inl;
	uint32_t flags = 0, mapping = 0, symrun = 0;
	size_t nparts = 0, start;

	addrs = (r->o->flags & PT_READ_ADDRS) != 0;
	inl = c->has_dso && c->dso.n == 7 && !memcmp(c->dso.s, "inlined", 7);
	{
		const char *sym = c->sym.s;
		size_t symn = c->sym.n;

		if (c->has_dso && !inl) {
			const char *dso = c->dso.s;
			size_t dn = c->dso.n;
			mapping = mapping_for(r, dso, dn);
			if ((dn && dso[0] == '[') || dso_is_vmlinux(dso, dn))
				if (!find_bytes(dso, dn, "unknown"))
					flags |= PT_FRAME_KERNEL;
			if (dso_is_jit(dso, dn))
				flags |= PT_FRAME_JIT;
		}
		if (inl)
			flags |= PT_FRAME_INLINED;
		start = r->npool;
		PT_ALLOC_GROW(r->pool, r->npool + 1, r->pool_alloc);
		r->pool[r->npool++] = 0;
		if (!(symn && sym[0] == '(' && !(r->o->flags & PT_READ_NO_TIDY))) {
			/* split "a->b->c": a is the real function, b and c inlined into it */
			size_t pstart = 0, i;
			for (i = 0; i <= symn; i++) {
				uint32_t fl = flags;
				struct pt_frame f;
				if (i < symn &&
				    !(sym[i] == '-' && i + 1 < symn && sym[i + 1] == '>'))
					continue;
				pt_buf_reset(&r->name);
				if (i - pstart == 9 && !memcmp(sym + pstart, "[unknown]", 9)) {
					fl |= PT_FRAME_NO_SYMBOL;
					pt_buf_addch(&r->name, '[');
					if (c->has_dso &&
					    !(c->dso.n == 9 && !memcmp(c->dso.s, "[unknown]", 9))) {
						const char *b = c->dso.s + c->dso.n;
						while (b > c->dso.s && b[-1] != '/')
							b--;
						pt_buf_add(&r->name, b,
							   (size_t)(c->dso.s + c->dso.n - b));
					} else {
						pt_buf_addstr(&r->name, "unknown");
					}
					if (addrs) {
						pt_buf_addstr(&r->name, " <");
						pt_buf_add(&r->name, c->addr.s, c->addr.n);
						pt_buf_addch(&r->name, '>');
					}
					pt_buf_addch(&r->name, ']');
				} else {
					pt_buf_add(&r->name, sym + pstart, i - pstart);
				}
				if (!(r->o->flags & PT_READ_NO_TIDY))
					tidy(r);
				if (nparts)
					fl |= PT_FRAME_INLINED;
				memset(&f, 0, sizeof(f));
				f.func = pt_profile_func(
					r->p, pt_strn(r->p, r->name.buf, r->name.len), 0, 0, 0);
				f.mapping = mapping;
				f.flags = fl;
				if ((fl & PT_FRAME_NO_SYMBOL) && symbolizable(r, c, flags))
					symrun = bare_address(r, c, &f);
				PT_ALLOC_GROW(r->pool, r->npool + 1, r->pool_alloc);
				r->pool[r->npool++] = pt_profile_frame(r->p, &f);
				nparts++;
				pstart = i + 2;
				i++;
			}
		}
		r->pool[start] = (uint32_t)nparts | symrun;
	}
	return (uint32_t)start;
}

/* first sight of an event name: its sample type, or NONE if filtered out */
static uint32_t event_type(struct reader *r, const struct span *ev, int has_period)
{
	uint32_t old = r->events.n, id;

	if (r->last_event != NONE && ev->n == r->last_ev.len &&
	    !memcmp(ev->s, r->last_ev.buf, ev->n))
		return r->etype_of[r->last_event];
	id = pt_intern(&r->events, ev->s, ev->n);
	pt_buf_reset(&r->last_ev);
	pt_buf_add(&r->last_ev, ev->s, ev->n);
	r->last_event = id;
	if (id >= old) {
		const char *unit = "count";
		size_t base = ev->n;
		const char *colon = memchr(ev->s, ':', ev->n);
		if (colon)
			base = (size_t)(colon - ev->s);
		if (has_period)
			unit = ((base == 9 && !memcmp(ev->s, "cpu-clock", 9)) ||
				(base == 10 && !memcmp(ev->s, "task-clock", 10)))
				       ? "nanoseconds"
				       : "events";
		PT_ALLOC_GROW(r->etype_of, (size_t)id + 1, r->etype_alloc);
		if (r->o->event &&
		    (strlen(r->o->event) != ev->n || memcmp(r->o->event, ev->s, ev->n))) {
			r->etype_of[id] = NONE;
		} else {
			char *name = pt_xmalloc(ev->n + 1);
			memcpy(name, ev->s, ev->n);
			name[ev->n] = '\0';
			r->etype_of[id] = pt_profile_add_type(r->p, name, unit);
			free(name);
			if (r->etype_of[id] == UINT32_MAX) /* PT_MAX_TYPES: header_line says so */
				return r->etype_of[id] = TOO_MANY;
			if (!r->any_event_kept) {
				r->any_event_kept = 1;
				r->p->default_type = r->etype_of[id];
				r->p->period_type = r->p->types[r->etype_of[id]];
				r->p->period = has_period ? r->period : 1;
			}
		}
	}
	return r->etype_of[id];
}

/* labels and root frame for a header */
static void head_info(struct reader *r, const struct header *h)
{
	uint32_t id, old;
	struct head_info *hi;

	/* the samples of a thread come in runs: its header's ids as the last one's */
	if (r->last_head != NONE && h->ids.n == r->last_ids.len &&
	    !memcmp(h->ids.s, r->last_ids.buf, h->ids.n)) {
		id = r->last_head;
		goto known;
	}
	old = r->hkeys.n;
	id = pt_intern(&r->hkeys, h->ids.s, h->ids.n);
	pt_buf_reset(&r->last_ids);
	pt_buf_add(&r->last_ids, h->ids.s, h->ids.n);
	r->last_head = id;
	if (id >= old || (id == 0 && !r->hval0)) {
		struct pt_label l[4];
		uint32_t nl = 0;
		size_t i;
		PT_ALLOC_GROW(r->hval, (size_t)id + 1, r->hval_alloc);
		if (!id)
			r->hval0 = 1;
		hi = &r->hval[id];
		memset(&l, 0, sizeof(l));
		if (h->comm.n) {
			l[nl].key = r->k_comm;
			l[nl++].str = pt_strn(r->p, h->comm.s, h->comm.n);
		}
		if (h->pid.n) {
			l[nl].key = r->k_pid;
			l[nl++].num = strtoll(h->pid.s, NULL, 10);
		}
		if (h->tid.n) {
			l[nl].key = r->k_tid;
			l[nl++].num = strtoll(h->tid.s, NULL, 10);
		}
		if (h->cpu.n) {
			l[nl].key = r->k_cpu;
			l[nl++].num = strtoll(h->cpu.s, NULL, 10);
		}
		hi->labels = pt_profile_labelset(r->p, l, nl);
		/* the process root: "comm", "comm-PID" or "comm-PID/TID", spaces made '_' */
		pt_buf_reset(&r->name);
		if (h->comm.n)
			pt_buf_add(&r->name, h->comm.s, h->comm.n);
		else
			pt_buf_addstr(&r->name, "[unknown]");
		if (r->o->flags & (PT_READ_PID | PT_READ_TID)) {
			pt_buf_addch(&r->name, '-');
			if (h->pid.n)
				pt_buf_add(&r->name, h->pid.s, h->pid.n);
			else
				pt_buf_addch(&r->name, '?');
			if (r->o->flags & PT_READ_TID) {
				pt_buf_addch(&r->name, '/');
				if (h->tid.n)
					pt_buf_add(&r->name, h->tid.s, h->tid.n);
				else
					pt_buf_addch(&r->name, '?');
			}
		}
		for (i = 0; i < r->name.len; i++)
			if (r->name.buf[i] == ' ')
				r->name.buf[i] = '_';
		hi->root = pt_profile_simple_frame(r->p, r->name.buf, r->name.len, 0, 0,
						   PT_FRAME_PROCESS);
		hi->is_java = r->name.len >= 4 && !memcmp(r->name.buf, "java", 4);
	}
known:
	hi = &r->hval[id];
	r->labels = hi->labels;
	r->root = hi->root;
	r->is_java = hi->is_java;
}

/* ---- known callchains ----
 *
 * A long profile holds few distinct stacks: the samples of a steady program repeat the
 * same block of callchain lines, byte for byte, thousands of times. A block is
 * recognised by its text (hashed, then compared whole) in the bytes the input has read
 * ahead, and its frames taken as they were the first time: none of its lines is read.
 * A block is kept once the line reader has read it whole, every line a callchain line
 * read without a fault (after the budget has once overflowed, only on its second
 * sight: the first sets a bit); so a block holding anything else (a comment, a damaged
 * line, an error) is always read line by line, and so is one the read-ahead does not
 * hold whole. */

#define CHAIN_PROBE	8		    /* slots a block may take: a lookup's bound */
#define CHAIN_SLOTS_MAX ((uint32_t)1 << 16) /* the table grows to this many slots */
#define CHAIN_MAX	((size_t)1 << 20)   /* a longer block is read line by line */
#define CHAIN_BUDGET	((size_t)2 << 20)   /* bytes of blocks kept at most */
#define SEEN_BITS	18		    /* the bits of blocks met once */

/* the slot hash of a block from its 128-bit keyed hash */
static uint64_t chain_mix(const uint64_t h[2])
{
	uint64_t x = (h[0] ^ h[1] >> 7) * 0x9e3779b97f4a7c15ULL;
	return x ^ x >> 31;
}

/* the known block of len bytes and keyed hash h (mix: chain_mix) under the current
 * header's java-ness, or NULL */
static struct chain *chain_find(struct reader *r, const uint64_t h[2], uint64_t mix, size_t len)
{
	uint32_t k;

	if (!r->chains)
		return NULL;
	for (k = 0; k < CHAIN_PROBE; k++) {
		const struct chain_slot *sl = &r->chains[(mix + k) & r->chain_mask];
		struct chain *c = sl->c;
		if (!c)
			return NULL; /* slots are only ever filled, so none is further on */
		if (sl->mix == mix && c->hash[0] == h[0] && c->hash[1] == h[1] && c->len == len &&
		    c->is_java == (char)r->is_java)
			return c;
	}
	return NULL;
}

/* the slot for a block of slot hash mix: an empty one in its window, else one of the
 * window in turn, whose block is forgotten (its bytes stay counted until chain_clear) */
static struct chain_slot *chain_slot(struct reader *r, uint64_t mix)
{
	struct chain_slot *sl;
	uint32_t k;

	for (k = 0; k < CHAIN_PROBE; k++) {
		sl = &r->chains[(mix + k) & r->chain_mask];
		if (!sl->c)
			return sl;
	}
	r->nchains--;
	return &r->chains[(mix + r->evict++ % CHAIN_PROBE) & r->chain_mask];
}

/* twice the slots (or the first ones); a block whose window is full is dropped */
static void chain_grow(struct reader *r)
{
	struct chain_slot *old = r->chains;
	size_t i, nold = old ? (size_t)r->chain_mask + 1 : 0, n = nold ? nold * 2 : 1024;

	r->chains = pt_xcalloc(n, sizeof(*r->chains));
	r->chain_mask = (uint32_t)(n - 1);
	for (i = 0; i < nold; i++)
		if (old[i].c)
			*chain_slot(r, old[i].mix) = old[i];
	free(old);
}

/* forget every block */
static void chain_clear(struct reader *r)
{
	if (r->chains)
		memset(r->chains, 0, ((size_t)r->chain_mask + 1) * sizeof(*r->chains));
	r->nchains = r->chain_bytes = 0;
	pt_arena_release(&r->chain_arena);
	pt_arena_init(&r->chain_arena);
}

/* The candidate block has been read whole, every line a callchain line: keep it with
 * the frames read (r->frames, before the root is added). Over the budget, the known
 * blocks are all dropped, to be learnt again. */
static struct chain *chain_commit(struct reader *r)
{
	int has_frames = (r->sym_record ? r->addr_sink : r->sink) != NULL;
	size_t need = sizeof(struct chain) + (has_frames ? r->nframes * sizeof(uint32_t) : 0);
	struct chain_slot *sl;
	struct chain *c;

	r->cand = 0;
	if (need > CHAIN_BUDGET / 4)
		return NULL;
	if (r->chain_bytes + need > CHAIN_BUDGET) {
		chain_clear(r);
		if (!r->seen) /* blocks met once are many: keep only those met twice */
			r->seen = pt_xcalloc((size_t)1 << SEEN_BITS >> 6, sizeof(*r->seen));
	}
	/* three quarters full at most: a window of CHAIN_PROBE slots is seldom full */
	if (!r->chains || ((r->nchains + 1) * 4 > ((size_t)r->chain_mask + 1) * 3 &&
			   r->chain_mask + 1 < CHAIN_SLOTS_MAX))
		chain_grow(r);
	c = pt_arena_alloc(&r->chain_arena, need);
	c->hash[0] = r->cand_hash[0];
	c->hash[1] = r->cand_hash[1];
	c->len = r->cand_len;
	c->nlines = r->cand_lines;
	c->nframes = (uint32_t)r->nframes;
	c->root = c->node = c->row = NONE;
	c->is_java = (char)r->is_java;
	c->sym = (char)r->sym_record;
	c->last = r->end_of[1];
	c->has_frames = (char)has_frames;
	if (has_frames && r->nframes)
		memcpy(chain_frames(c), r->frames, r->nframes * sizeof(uint32_t));
	sl = chain_slot(r, r->cand_mix);
	sl->mix = r->cand_mix;
	sl->c = c;
	r->nchains++;
	r->chain_bytes += need;
	return c;
}

/* A block kept without its frames (no sink takes its records): them again, leaf first,
 * from the call-tree node its stack reached under its last root */
static void chain_refill(struct reader *r, const struct chain *c)
{
	uint32_t x = c->node, i;

	for (i = 0; i < c->nframes; i++) {
		r->frames[i] = r->p->nodes[x].frame;
		x = r->p->nodes[x].parent;
	}
}

/* The record read ends: hand its stack to the sink, or add it to the call tree. With c,
 * the record's callchain is that known block, whose node under the record's root is
 * remembered: a tree walk only when the root changes. */
static void flush(struct reader *r, struct chain *c)
{
	struct pt_sink *sink = r->sym_record ? r->addr_sink : r->sink;
	size_t n;

	r->cand = 0;
	if (!r->in_record)
		return;
	r->in_record = 0;
	if (r->skip_record)
		return;
	/* the callchain, leaf first, then the process at the root */
	n = r->nframes + 1;
	PT_ALLOC_GROW(r->frames, n, r->frames_alloc);
	r->frames[r->nframes] = r->root;

	PT_ALLOC_GROW(r->vals, r->p->ntypes, r->vals_alloc);
	memset(r->vals, 0, r->p->ntypes * sizeof(*r->vals));
	r->vals[0] = 1;
	if (r->etype < TOO_MANY)
		r->vals[r->etype] = r->period;
	if (r->has_time) {
		if (!r->have_t0) {
			r->have_t0 = 1;
			r->t0 = r->tmax = r->time;
		}
		if (r->time > r->tmax)
			r->tmax = r->time;
	}
	if (c && !sink) {
		if (c->root != r->root) {
			if (!c->has_frames && c->node != NONE) /* NONE: its first record */
				chain_refill(r, c);
			c->root = r->root;
			c->node = pt_profile_stack(r->p, r->frames, n, 1);
		}
		if (c->row != NONE)
			pt_profile_hint_row(r->p, c->row);
		c->row = pt_profile_add_sample(r->p, c->node, r->labels, r->vals,
					       r->has_time && r->have_t0 ? r->time - r->t0 : 0);
	} else {
		pt_sink_sample(sink, r->p, r->frames, n, 1, r->labels, r->vals,
			       r->has_time && r->have_t0 ? r->time - r->t0 : 0);
	}
	r->nkept++;
}

/* An [unknown] frame whose text after the name is rest[0..n) is cached by its
 * address too: always under --addrs (the address is in its name), else when the
 * symbolizer may name it (" (/path)", not a JIT map: symbolizable) */
static int keyed_by_address(struct reader *r, const char *rest, size_t n)
{
	if (r->o->flags & PT_READ_ADDRS)
		return 1;
	if (!(n > 4 && !memcmp(rest, " (/", 3) && rest[n - 1] == ')'))
		return 0;
	/* a binary's unnamed frames come in runs: the answer for the last file again */
	if (n == r->kba.len && !memcmp(rest, r->kba.buf, n))
		return r->kba_is;
	pt_buf_reset(&r->kba);
	pt_buf_add(&r->kba, rest, n);
	return r->kba_is = !dso_is_jit(rest + 2, n - 3) && dso_worth(r, rest + 2, n - 3);
}

/* the key of the reader's text hashes (frame lines, callchain blocks), made when first
 * needed */
static const struct pt_uhash_key *uhash_key(struct reader *r)
{
	if (!r->chain_key) {
		struct pt_hash_key k;
		r->chain_key = pt_xmalloc(sizeof(*r->chain_key));
		pt_hash_key_derive(&r->tables_key, 0, &k);
		pt_uhash_key_init(r->chain_key, &k);
	}
	return r->chain_key;
}

static int fkey_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct fkey *a = &((const struct reader *)ctx)->fkey[id], *b = key;
	return a->len == b->len && a->h[0] == b->h[0] && a->h[1] == b->h[1];
}

static uint64_t fkey_hash(const void *ctx, uint32_t id)
{
	return ((const struct reader *)ctx)->fkey[id].h[0];
}

static const struct pt_index_ops fkey_ops = {fkey_eq, fkey_hash};

/* A callchain frame "addr rest" (leading blanks skipped; s is the input line, which we
 * may modify). The frames are cached by the text after the address, which decides
 * them (offsets included: there are few distinct ones) together with the process being
 * java (tidy) and, for unknown symbols under --addrs, the address; the flag byte is
 * written over the blank before the text, so the key is hashed where it lies. Only
 * the key's hash and length are kept (struct fkey): 24 bytes a distinct line, where
 * its text took 60 to 100. */
static int frame_line(struct reader *r, char *s, size_t n, uint64_t lineno)
{
	struct fkey fk;
	struct chainline c;
	size_t i = 0, j;
	uint32_t id, old, *run, k;
	const char *key;
	size_t keylen;

	while (i < n && is_hex(s[i]))
		i++;
	if (!i || (i < n && s[i] != ' '))
		return pt_diag_error_line(r->d, lineno,
					  "expected a callchain line ('address symbol (dso)')");
	for (j = i; j < n && s[j] == ' '; j++)
		;
	if (dso_cut(s + j, n - j))
		return 1; /* dropped: perf_read counts it, unless the input ends in it */
	/* "addr  (dso)" (an empty symbol) and "addr (dso)" (a process name) differ: the
	 * key of the first keeps one blank */
	if (j - i >= 2 && s[j] == '(')
		j--;
	if (j > i && !(r->addr_key && n - j >= 9 && !memcmp(s + j, "[unknown]", 9) &&
		       keyed_by_address(r, s + j + 9, n - j - 9))) {
		s[j - 1] = (char)('0' + r->is_java);
		key = s + j - 1;
		keylen = n - j + 1;
	} else {
		pt_buf_reset(&r->key);
		pt_buf_addch(&r->key, (char)('2' + r->is_java));
		pt_buf_add(&r->key, s + j, n - j);
		pt_buf_addch(&r->key, '\0');
		pt_buf_add(&r->key, s, i);
		key = r->key.buf;
		keylen = r->key.len;
	}
	pt_uhash(uhash_key(r), key, keylen, fk.h);
	fk.len = (uint32_t)keylen;
	old = r->fidx.n;
	id = pt_index_put(&r->fidx, fk.h[0], &fk, &fkey_ops, r);
	if (id == old) {
		PT_ALLOC_GROW(r->fkey, (size_t)id + 1, r->fkey_alloc);
		r->fkey[id] = fk;
	}
	if (j > i)
		s[j - 1] = ' ';
	if (id >= old) {
		PT_ALLOC_GROW(r->fval, (size_t)id + 1, r->fval_alloc);
		parse_frame(s, n, &c);
		r->fval[id] = resolve(r, &c);
	}
	run = r->pool + r->fval[id];
	if (run[0] & RUN_SYM)
		r->sym_record = 1;
	PT_ALLOC_GROW(r->frames, r->nframes + (run[0] & ~RUN_SYM), r->frames_alloc);
	/* the chain is outermost first; the stack here is leaf first */
	for (k = run[0] & ~RUN_SYM; k > 0; k--)
		r->frames[r->nframes++] = run[k];
	return 0;
}

static void span_at(struct span *x, const char *s, size_t off, size_t len)
{
	x->s = len ? s + off : "";
	x->n = len;
}

/* Remember the header s[0..n) whose anchor starts at `at`, parsed as h: the line, and
 * where its time token ends and what the text after it gave (0: it has no time). */
static void memo_tail(struct reader *r, const char *s, size_t n, size_t at, const struct header *h)
{
	size_t i = at, te;

	pt_buf_reset(&r->hm_line);
	pt_buf_add(&r->hm_line, s, n);
	r->hm_tend = 0;
	if (!h->has_time)
		return;
	r->hm_cpu = h->cpu.n != 0;
	if (r->hm_cpu) {
		i = (size_t)(h->cpu.s - s) + h->cpu.n + 1;
		while (i < n && s[i] == ' ')
			i++;
	}
	for (te = i; te < n && s[te] != ' '; te++)
		;
	r->hm_tend = te;
	r->hm_period = h->period;
	r->hm_has_period = h->has_period;
	r->hm_sideband = h->sideband;
	r->hm_off[4] = h->event.n ? (size_t)(h->event.s - s) - te : 0;
	r->hm_len[4] = h->event.n;
	r->hm_off[5] = h->frame.n ? (size_t)(h->frame.s - s) - te : 0;
	r->hm_len[5] = h->frame.n;
}

/* From the anchor a of a header whose text before it is the last header's: the same
 * cpu token or none, a time token, then the same text as the last header after its
 * time token, so the same period, event and frame. 1 if it is so (h filled), else 0. */
static int same_tail(struct reader *r, const char *s, size_t n, size_t a, struct header *h)
{
	size_t i = a, t, te, rest = r->hm_line.len - r->hm_tend;

	if (r->hm_cpu) {
		for (te = i; te < n && s[te] != ' '; te++)
			;
		if (!is_cpu_token(s + i, te - i))
			return 0;
		h->cpu.s = s + i + 1;
		h->cpu.n = te - i - 2;
		h->ids.n = (size_t)(s + te - h->ids.s);
		for (i = te; i < n && s[i] == ' '; i++)
			;
	}
	for (t = i, te = i; te < n && s[te] != ' '; te++)
		;
	if (n - te != rest || memcmp(s + te, r->hm_line.buf + r->hm_tend, rest) ||
	    !parse_time(s + t, te - t, &h->time))
		return 0;
	h->has_time = 1;
	h->period = r->hm_period;
	h->has_period = r->hm_has_period;
	h->sideband = r->hm_sideband;
	span_at(&h->event, s, te + r->hm_off[4], r->hm_len[4]);
	span_at(&h->frame, s, te + r->hm_off[5], r->hm_len[5]);
	return 1;
}

/* parse_header, faster for a header whose text up to its anchor is the last header's
 * (the samples of a thread come in runs): the same tokens come before the anchor, none
 * of them an anchor, so the anchor is the same token and only the rest is read; and
 * when the text after the time is the last header's too, only the time. */
static int header_memo(struct reader *r, const char *s, size_t n, struct header *h)
{
	size_t a = r->hm_at, at, room;
	struct span *x[4];
	int i;

	x[0] = &h->comm, x[1] = &h->pid, x[2] = &h->tid, x[3] = &h->ids;
	if (r->hm_ok && n > a && s[a] != ' ' && !memcmp(s, r->hm_line.buf, a)) {
		header_clear(h);
		for (i = 0; i < 4; i++)
			span_at(x[i], s, r->hm_off[i], r->hm_len[i]);
		h->ids.s = s + r->hm_off[3];
		if (r->hm_tend && same_tail(r, s, n, a, h))
			return 1;
		if (parse_from_anchor(s, n, a, r->hm_room, h)) {
			memo_tail(r, s, n, a, h);
			return 1;
		}
	}
	r->hm_ok = 0;
	if (!parse_header_at(s, n, h, &at, &room))
		return 0;
	if (room) {
		r->hm_ok = 1;
		r->hm_room = room;
		r->hm_at = at;
		for (i = 0; i < 4; i++) {
			r->hm_off[i] = x[i]->n ? (size_t)(x[i]->s - s) : 0;
			r->hm_len[i] = x[i]->n;
		}
		/* the ids before the anchor: to the blanks before it (parse_from_anchor adds
		 * the cpu) */
		r->hm_off[3] = (size_t)(h->ids.s - s);
		r->hm_len[3] = at;
		while (r->hm_len[3] > r->hm_off[3] && s[r->hm_len[3] - 1] == ' ')
			r->hm_len[3]--;
		r->hm_len[3] -= r->hm_off[3];
		memo_tail(r, s, n, at, h);
	}
	return 1;
}

static int header_line(struct reader *r, char *s, size_t n, uint64_t lineno)
{
	struct header h;

	flush(r, NULL);
	if (!header_memo(r, s, n, &h))
		return pt_diag_error_line(r->d, lineno,
					  "expected a sample header ('comm pid/tid time: period "
					  "event:') or a callchain line");
	if (h.sideband) {
		pt_perf_maps_line(&r->maps, s, n);
		return 0;
	}
	r->period = h.has_period ? h.period : 1;
	r->etype = event_type(r, &h.event, h.has_period);
	if (r->etype == TOO_MANY)
		return pt_diag_error_line(r->d, lineno,
					  "too many event names (a profile holds at most %d sample "
					  "types)",
					  PT_MAX_TYPES);
	r->in_record = 1;
	r->record_line = lineno;
	r->nframes = 0;
	r->sym_record = 0;
	r->chain_lines = 0;
	r->bare = !h.frame.n;
	r->skip_record = r->etype == NONE;
	if (r->skip_record)
		return 0;
	r->has_time = h.has_time;
	r->time = h.time;
	head_info(r, &h);
	if (h.frame.n) {
		/* no callchain: the frame is on the header line */
		int rc = frame_line(r, s + (h.frame.s - s), h.frame.n, lineno);
		if (rc < 0) {
			r->in_record = 0;
			return -1;
		}
		return rc;
	}
	return 0;
}

static int read_line(struct reader *r, char *s, size_t n, uint64_t lineno)
{
	size_t i;
	int rc;

	n = pt_trim_end(s, n);
	if (!n) {
		struct chain *c = NULL;
		/* the block read becomes a known one: its record reaches its tree node */
		if (r->cand && r->chain_lines == r->cand_lines &&
		    pt_input_tell(r->in) == r->cand_end)
			c = chain_commit(r);
		flush(r, c);
		return 0;
	}
	/* any other byte is data: symbols and paths are bytes from binaries, kept as they
	 * are (writers that need UTF-8 make them valid, util/text.h) */
	if (memchr(s, '\0', n))
		return pt_diag_error_line(r->d, lineno, "NUL byte in line");
	if (s[0] == '#')
		return 0;
	if (s[0] == '\t') {
		if (!r->in_record)
			return pt_diag_error_line(
				r->d, lineno, "callchain line without a sample header before it");
		if (r->skip_record)
			return 0;
		for (i = 1; i < n && s[i] == ' '; i++)
			;
		r->kind = 1;
		rc = frame_line(r, s + i, n - i, lineno);
		r->chain_lines += !rc;
		return rc;
	}
	if (r->in_record) {
		/* FlameGraph and inferno also take callchain lines indented with spaces, or
		 * not at all: inside a record, a line that is no sample header (perf pads
		 * the comm with spaces) but reads as a frame is one */
		struct header h;
		struct chainline c;
		for (i = 0; i < n && s[i] == ' '; i++)
			;
		if (!parse_header(s, n, &h) && parse_frame(s + i, n - i, &c)) {
			r->kind = 1;
			return r->skip_record ? 0 : frame_line(r, s + i, n - i, lineno);
		}
	}
	r->kind = 0;
	return header_line(r, s, n, lineno);
}

#ifdef __SSE2__
/* One 64-byte step of block_scan at s + i, given which of its bytes are '\n' (m) and
 * '\t' (t): the first '\n' not followed by a '\t' ends the run, the blank line if a '\n'
 * follows it. The step's last byte is looked at with the next step's first (carry).
 * Returns block_scan's answer, or -1 to go on. */
static inline int scan_step(uint64_t m, uint64_t t, uint64_t *carry, size_t i, size_t *len)
{
	uint64_t stop;

	if (*carry && (m & 1)) {
		*len = i;
		return 1;
	}
	if (*carry && !(t & 1))
		return 0;
	stop = m & ~(t >> 1) & ~((uint64_t)1 << 63);
	if (stop) {
		unsigned at = (unsigned)__builtin_ctzll(stop);
		if (!(m >> at & 2))
			return 0;
		*len = i + at + 1;
		return 1;
	}
	*carry = m >> 63;
	return -1;
}

/* which of the 64 bytes at s are '\n' (*m) and '\t' (*t), a bit each */
typedef void scan_masks(const unsigned char *s, uint64_t *m, uint64_t *t);

/* block_scan's steps while 64 bytes remain: its answer, or -1 and in *at where the
 * steps stopped. Inlined into each processor's version with its own masks. */
static inline __attribute__((always_inline)) int
scan_steps(const unsigned char *s, size_t n, size_t *at, size_t *len, scan_masks *masks)
{
	uint64_t carry = 0, m, t;
	size_t i;
	int v;

	for (i = 0; i + 64 <= n; i += 64) {
		masks(s + i, &m, &t);
		if ((v = scan_step(m, t, &carry, i, len)) >= 0)
			return v;
	}
	*at = i;
	return -1;
}

/* which of the 16 bytes d are c, a bit each */
static inline uint64_t bytes_are(__m128i d, __m128i c)
{
	return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(d, c));
}

static inline __attribute__((always_inline)) void masks_sse2(const unsigned char *s, uint64_t *m,
							     uint64_t *t)
{
	const __m128i nl = _mm_set1_epi8('\n'), tab = _mm_set1_epi8('\t');
	const __m128i *q = (const __m128i *)(const void *)s;
	__m128i d0 = _mm_loadu_si128(q), d1 = _mm_loadu_si128(q + 1), d2 = _mm_loadu_si128(q + 2),
		d3 = _mm_loadu_si128(q + 3);

	*m = bytes_are(d0, nl) | bytes_are(d1, nl) << 16 | bytes_are(d2, nl) << 32 |
	     bytes_are(d3, nl) << 48;
	*t = bytes_are(d0, tab) | bytes_are(d1, tab) << 16 | bytes_are(d2, tab) << 32 |
	     bytes_are(d3, tab) << 48;
}

static int scan_sse2(const unsigned char *s, size_t n, size_t *at, size_t *len)
{
	return scan_steps(s, n, at, len, masks_sse2);
}
#endif

#if SCAN_WIDE
/* The same steps on processors that have AVX2 or AVX-512BW, chosen at run time: 32 or
 * 64 bytes a compare. */
static inline __attribute__((always_inline, target("avx2"))) void
masks_avx2(const unsigned char *s, uint64_t *m, uint64_t *t)
{
	const __m256i nl = _mm256_set1_epi8('\n'), tab = _mm256_set1_epi8('\t');
	const __m256i *q = (const __m256i *)(const void *)s;
	__m256i d0 = _mm256_loadu_si256(q), d1 = _mm256_loadu_si256(q + 1);

	*m = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(d0, nl)) |
	     (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(d1, nl)) << 32;
	*t = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(d0, tab)) |
	     (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(d1, tab)) << 32;
}

__attribute__((target("avx2"))) static int scan_avx2(const unsigned char *s, size_t n, size_t *at,
						     size_t *len)
{
	return scan_steps(s, n, at, len, masks_avx2);
}

static inline __attribute__((always_inline, target("avx512bw"))) void
masks_avx512(const unsigned char *s, uint64_t *m, uint64_t *t)
{
	__m512i d = _mm512_loadu_si512((const void *)s);

	*m = _mm512_cmpeq_epi8_mask(d, _mm512_set1_epi8('\n'));
	*t = _mm512_cmpeq_epi8_mask(d, _mm512_set1_epi8('\t'));
}

__attribute__((target("avx512bw"))) static int scan_avx512(const unsigned char *s, size_t n,
							   size_t *at, size_t *len)
{
	return scan_steps(s, n, at, len, masks_avx512);
}
#endif

/* The callchain block at s (n bytes read ahead): 1 and its length (through the '\n' of
 * its last line: a blank line follows), if it is a run of lines each starting with a
 * tab, then a blank line, all within the n bytes and CHAIN_MAX; else 0. It stops at
 * the first line that starts with anything else, so a record without a blank line
 * after it costs a line, not the read-ahead. */
static int block_scan(const unsigned char *s, size_t n, size_t *len)
{
	size_t i = 0, j;

	if (n > CHAIN_MAX)
		n = CHAIN_MAX;
	if (!n || s[0] != '\t')
		return 0;
#ifdef __SSE2__
	{
		int v;
#if SCAN_WIDE
		if (__builtin_cpu_supports("avx512bw"))
			v = scan_avx512(s, n, &i, len);
		else if (__builtin_cpu_supports("avx2"))
			v = scan_avx2(s, n, &i, len);
		else
#endif
			v = scan_sse2(s, n, &i, len);
		if (v >= 0)
			return v;
		if (i) /* the scalar loop looks at the byte after a last '\n' again */
			i--;
	}
#endif
	for (j = i; j + 1 < n; j++) {
		if (s[j] != '\n')
			continue;
		if (s[j + 1] == '\n') {
			*len = j + 1;
			return 1;
		}
		if (s[j + 1] != '\t')
			return 0;
	}
	return 0;
}

/* Once the known blocks have filled their budget, a block is kept on its second sight:
 * whether h was met before (and it is from now on). */
static int seen_before(struct reader *r, uint64_t h)
{
	uint64_t bit = h >> (64 - SEEN_BITS);

	if (r->seen[bit / 64] >> (bit % 64) & 1)
		return 1;
	r->seen[bit / 64] |= (uint64_t)1 << (bit % 64);
	if (++r->nseen > ((size_t)1 << SEEN_BITS) / 2) { /* forget, before all bits are set */
		memset(r->seen, 0, ((size_t)1 << SEEN_BITS) / 8);
		r->nseen = 0;
	}
	return 0;
}

/* Right after a sample header whose frames are on the lines to come: a block met before
 * gives its frames and the record ends, its lines and the blank line after it taken
 * unread; a block met once before becomes the candidate read_line keeps. */
static void known_chain(struct reader *r, struct pt_input *in)
{
	size_t n, len, i;
	uint32_t nlines = 0;
	const unsigned char *s = pt_input_ahead(in, &n);
	struct chain *c;
	uint64_t h[2], mix;

	if (!block_scan(s, n, &len))
		return;
	pt_uhash(uhash_key(r), s, len, h);
	mix = chain_mix(h);
	c = chain_find(r, h, mix, len);
	if (c && !c->has_frames && c->node == NONE)
		c = NULL; /* cannot be: its first record made its node (read_line) */
	if (c) {
		PT_ALLOC_GROW(r->frames, (size_t)c->nframes + 1, r->frames_alloc);
		if (c->has_frames)
			memcpy(r->frames, chain_frames(c), c->nframes * sizeof(uint32_t));
		r->nframes = c->nframes;
		pt_input_skip_lines(in, len + 1, (uint64_t)c->nlines + 1);
		r->kind = 1; /* as if its lines had been read: the last was a callchain line */
		r->end_of[1] = c->last;
		r->sym_record = c->sym;
		flush(r, c);
		return;
	}
	if (r->seen && !seen_before(r, mix))
		return;
	for (i = 0; i < len; i++, nlines++)
		i = (size_t)((const unsigned char *)memchr(s + i, '\n', len - i) - s);
	r->cand = 1;
	r->cand_hash[0] = h[0];
	r->cand_hash[1] = h[1];
	r->cand_mix = mix;
	r->cand_len = (uint32_t)len;
	r->cand_lines = nlines;
	r->cand_end = pt_input_tell(in) + len + 1;
}

/* The line just read had no newline after it: the input may have been cut inside it
 * (a killed `perf script | tee`). It is whole if it reads and ends as the last whole
 * line of its kind did (a ')' closing the dso, a ':' after the event); else the record
 * it belongs to is incomplete: left out, with a warning saying where. */
static void last_line(struct reader *r, const char *s, size_t n, int failed, uint64_t lineno,
		      struct pt_diag *d)
{
	char end;

	n = pt_trim_end(s, n);
	if (!n || s[0] == '#')
		return;
	end = s[n - 1];
	if (!failed && (!r->end_of[r->kind] || r->end_of[r->kind] == end))
		return;
	pt_diag_cut(d, r->in_record && !(failed && r->kind == 0) ? r->record_line : lineno, lineno);
	r->in_record = 0;
}

/* the last byte of a whole line of the kind just read */
static void line_read(struct reader *r, const char *s, size_t n)
{
	n = pt_trim_end(s, n);
	if (n && s[0] != '#')
		r->end_of[r->kind] = s[n - 1];
}

static int perf_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
		     struct pt_diag *d)
{
	struct reader r;
	char *line;
	size_t n;
	int rc, ret = 0;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.sink = o->sink;
	r.addr_sink = o->addr_sink;
	r.addr_key = (o->flags & PT_READ_ADDRS) || o->addr_sink;
	pt_perf_maps_init(&r.maps);
	r.o = o;
	r.d = d;
	pt_arena_init(&r.arena);
	{ /* one system call for the keys of the four tables (hash.h pt_hash_key_derive) */
		struct pt_hash_key k;
		pt_hash_key_init(&r.tables_key);
		pt_hash_key_derive(&r.tables_key, 1, &k);
		pt_index_init_key(&r.fidx, &k, 0); /* hashed by uhash_key: k is not used */
		pt_hash_key_derive(&r.tables_key, 2, &k);
		pt_intern_init_key(&r.hkeys, &r.arena, &k);
		pt_hash_key_derive(&r.tables_key, 3, &k);
		pt_intern_init_key(&r.events, &r.arena, &k);
	}
	pt_buf_init(&r.key);
	pt_buf_init(&r.name);
	pt_buf_init(&r.last_ids);
	pt_buf_init(&r.hm_line);
	pt_buf_init(&r.last_ev);
	pt_buf_init(&r.kba);
	r.last_head = r.last_event = NONE;
	r.in = in;
	pt_arena_init(&r.chain_arena);
	/* event id 0 is "": no event field, the samples type only */
	PT_ALLOC_GROW(r.etype_of, 1, r.etype_alloc);
	r.etype_of[0] = NONE - 1;
	r.k_comm = pt_str(p, PT_LABEL_COMM);
	r.k_pid = pt_str(p, PT_LABEL_PID);
	r.k_tid = pt_str(p, PT_LABEL_TID);
	r.k_cpu = pt_str(p, "cpu");
	p->format = "perf";
	pt_profile_add_type(p, "samples", "count");

	while ((rc = pt_input_getline(in, &line, &n)) > 0) {
		int got = read_line(&r, line, n, in->lineno), failed = got < 0;
		if (pt_input_cut_short(in, line, n)) {
			last_line(&r, line, n, failed || got > 0, in->lineno, d);
			if (d->cut_line)
				break;
		}
		if (got > 0) /* a damaged frame line, dropped with a warning */
			pt_diag_skip(d, in->lineno);
		if (!failed) {
			line_read(&r, line, n);
			if (!got && !r.kind && r.in_record && !r.skip_record && r.bare &&
			    !r.nframes)
				known_chain(&r, in);
		} else if (pt_read_skip(o, d, in->lineno) < 0) {
			ret = -1;
			goto out;
		}
	}
	if (rc < 0) {
		ret = -1;
		goto out;
	}
	flush(&r, NULL); /* a last record without a blank line after it counts too */
	/* no record at all (an empty input, comments only, a record cut short): nothing,
	 * as stackcollapse-perf.pl and inferno print nothing */
	if (!r.nkept && !d->cut_line && (r.events.n > 1 || d->skipped)) {
		if (o->event && r.events.n > 1) {
			struct pt_buf names = PT_BUF_INIT;
			uint32_t i;
			for (i = 1; i < r.events.n; i++)
				pt_buf_addf(&names, "%s%s", i > 1 ? ", " : "",
					    pt_intern_str(&r.events, i));
			ret = pt_diag_error_line(d, in->lineno ? in->lineno : 1,
						 "no samples of event '%s' (the input has: %s)",
						 o->event, names.buf);
			pt_buf_release(&names);
		} else {
			ret = pt_diag_error_line(d, in->lineno ? in->lineno : 1,
						 d->skipped ? "no valid sample in the input"
							    : "no samples in the input");
		}
		goto out;
	}
	if (r.have_t0)
		p->duration_nanos = r.tmax - r.t0;
out:
	free(r.frames);
	free(r.fval);
	free(r.pool);
	free(r.hval);
	free(r.etype_of);
	free(r.vals);
	pt_index_release(&r.fidx);
	free(r.fkey);
	pt_intern_release(&r.hkeys);
	pt_intern_release(&r.events);
	pt_arena_release(&r.arena);
	pt_buf_release(&r.key);
	pt_buf_release(&r.name);
	pt_arena_release(&r.chain_arena);
	free(r.chains);
	free(r.seen);
	free(r.chain_key);
	pt_buf_release(&r.last_ids);
	pt_buf_release(&r.hm_line);
	pt_buf_release(&r.last_ev);
	pt_buf_release(&r.kba);
	pt_perf_maps_release(&r.maps);
	free(r.worth);
	return ret;
}

/* The first line that is not a '#' comment must be a sample header with a time (or a
 * side-band line), or a header followed by a callchain line. */
static int perf_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *nl;
	size_t i = 0, n;
	struct header h;

	for (;;) {
		if (i >= len)
			return 0;
		nl = memchr(s + i, '\n', len - i);
		n = nl ? (size_t)(nl - (s + i)) : len - i;
		if (n && s[i] != '#')
			break;
		if (!nl)
			return 0;
		i += n + 1;
	}
	if (s[i] == '\t' || memchr(s + i, '\0', n))
		return 0;
	n = pt_trim_end(s + i, n);
	if (!parse_header(s + i, n, &h))
		return 0;
	if (h.has_time)
		return 70;
	/* no time: the next line must be a callchain line, tab-indented, or indented with
	 * spaces or not at all (older perf, FlameGraph's test files) with its "(dso)" */
	if (nl && (size_t)(nl - s) + 2 < len) {
		struct chainline c;
		const char *t = nl + 1, *e = memchr(t, '\n', len - (size_t)(t - s));
		size_t m = e ? (size_t)(e - t) : len - (size_t)(t - s);
		int tab = *t == '\t';
		if (tab) {
			t++;
			m--;
		}
		while (m && *t == ' ') {
			t++;
			m--;
		}
		if (memchr(t, '\0', m))
			return 0;
		m = pt_trim_end(t, m);
		if (parse_frame(t, m, &c) && (tab || c.has_dso))
			return 50;
	}
	return 0;
}

static const char *const perf_suffixes[] = {NULL};

const struct pt_format pt_format_perf = {
	.name = "perf",
	.description = "perf script text (Linux perf), with or without callchains",
	.suffixes = perf_suffixes,
	.detect = perf_detect,
	.read = perf_read,
	.write = NULL,
	.addresses = PT_ADDRESSES_SOME,
};
