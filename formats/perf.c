/* perf.c: the text `perf script` prints: a header line per sample (comm pid/tid [cpu]
 * time: period event:), then its callchain, leaf first, one `\taddr sym+off (dso)` line
 * per frame, and a blank line; or, without -g, the one frame on the header line itself.
 * See formats/perf.md for the forms read and how they map into the model. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "core/sink.h"
#include "formats/format.h"
#include "util/hash.h"
#include "util/intern.h"
#include "util/text.h"
#include "util/xalloc.h"

#define NONE	 UINT32_MAX
#define TOO_MANY (UINT32_MAX - 2) /* event_type: no room for another sample type */

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

/* 1 if s[0..n) has no NUL and no byte >= 0x80, eight bytes at a time (then no NUL
 * needs looking for) */
static int plain_ascii(const char *s, size_t n)
{
	const uint64_t lo = 0x0101010101010101ULL, hi = 0x8080808080808080ULL;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		if ((w | ((w - lo) & ~w)) & hi)
			return 0;
	}
	for (; i < n; i++)
		if (!s[i] || (unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
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

/* Parse a sample header line (not starting with a tab; trailing blanks removed).
 * Fields in perf's order, any of them absent: comm (may hold spaces and digits) pid/tid
 * [cpu] time: period event: and, without callchains, the frame. The anchor is the first
 * [cpu] or time: token; the token before it is the thread id, everything before that the
 * comm. Returns 0 if the line fits no header form. */
static int parse_header(const char *s, size_t n, struct header *h)
{
	size_t ts[MAX_TOKENS], te[MAX_TOKENS], nt = 0, i = 0, k, anchor = NONE, cstart;

	memset(h, 0, sizeof(*h));
	h->comm.s = h->pid.s = h->tid.s = h->cpu.s = h->event.s = h->frame.s = "";
	while (i < n && s[i] == ' ')
		i++;
	cstart = i;
	/* tokens up to the anchor and a few after it; the rest is the frame */
	while (i < n && nt < MAX_TOKENS) {
		ts[nt] = i;
		while (i < n && s[i] != ' ')
			i++;
		te[nt] = i;
		if (anchor == NONE && (is_cpu_token(s + ts[nt], te[nt] - ts[nt]) ||
				       is_time_token(s + ts[nt], te[nt] - ts[nt])))
			anchor = nt;
		nt++;
		while (i < n && s[i] == ' ')
			i++;
		if (anchor != NONE && nt >= anchor + 5)
			break;
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
	k = anchor;
	h->ids.s = s + cstart;
	h->ids.n = anchor > 0 ? te[anchor - 1] - cstart : 0;
	if (is_cpu_token(s + ts[k], te[k] - ts[k])) {
		h->cpu.s = s + ts[k] + 1;
		h->cpu.n = te[k] - ts[k] - 2;
		h->ids.n = te[k] - cstart;
		k++;
	}
	if (k < nt && parse_time(s + ts[k], te[k] - ts[k], &h->time)) {
		h->has_time = 1;
		k++;
	}
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

#define FLINE_N 4096 /* slots of the frame lines' cache, a power of 2 */

/* The cache slot of a frame line from its first (address) bytes and its key's length.
 * No key is needed: a slot's entry is taken only when its whole text is equal, so a
 * probe collision, crafted or not, costs one miss and a lookup in the keyed table. */
static inline uint32_t fline_slot(const char *s, size_t n, size_t keylen)
{
	uint64_t a = 0, b = 0, h;

	memcpy(&a, s, n < 8 ? n : 8);
	if (n > 8)
		memcpy(&b, s + 8, n < 16 ? n - 8 : 8);
	h = (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL) ^ keylen;
	return (uint32_t)(h ^ h >> 29) & (FLINE_N - 1);
}

struct head_info { /* what a (comm, pid, tid, cpu) header gives */
	uint32_t labels, root;
	int is_java;
};

struct reader {
	struct pt_profile *p;
	struct pt_sink *sink; /* where the stacks go (core/sink.h) */
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
	struct pt_intern fkeys;
	/* in front of it, by a hash of the line's address only: the key met last at that
	 * slot (id + 1), taken when its text is the line's (a miss costs one compare) */
	uint32_t fline[FLINE_N];
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

/* The frames one callchain line stands for (several for an "a->b" inline chain, none
 * for a name starting with '('): a run in r->pool (count, then the ids outermost
 * first); returns where it starts. */
static uint32_t resolve(struct reader *r, const struct chainline *c)
{
	int addrs, inl;
	uint32_t flags = 0, mapping = 0;
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
				PT_ALLOC_GROW(r->pool, r->npool + 1, r->pool_alloc);
				r->pool[r->npool++] = pt_profile_frame(r->p, &f);
				nparts++;
				pstart = i + 2;
				i++;
			}
		}
		r->pool[start] = (uint32_t)nparts;
	}
	return (uint32_t)start;
}

/* first sight of an event name: its sample type, or NONE if filtered out */
static uint32_t event_type(struct reader *r, const struct span *ev, int has_period)
{
	uint32_t old = r->events.n, id = pt_intern(&r->events, ev->s, ev->n);

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

	old = r->hkeys.n;
	id = pt_intern(&r->hkeys, h->ids.s, h->ids.n);
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
	hi = &r->hval[id];
	r->labels = hi->labels;
	r->root = hi->root;
	r->is_java = hi->is_java;
}

static void flush(struct reader *r)
{
	size_t n;

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
	pt_sink_sample(r->sink, r->p, r->frames, n, 1, r->labels, r->vals,
		       r->has_time && r->have_t0 ? r->time - r->t0 : 0);
	r->nkept++;
}

/* A callchain frame "addr rest" (leading blanks skipped; s is the input line, which we
 * may modify). The frames are cached by the text after the address, which decides
 * them (offsets included: there are few distinct ones) together with the process being
 * java (tidy) and, for unknown symbols under --addrs, the address; the flag byte is
 * written over the blank before the text, so a cache hit copies nothing. */
static int frame_line(struct reader *r, char *s, size_t n, uint64_t lineno)
{
	uint32_t *fl = NULL;
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
	if (j > i &&
	    !((r->o->flags & PT_READ_ADDRS) && n - j >= 9 && !memcmp(s + j, "[unknown]", 9))) {
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
	old = r->fkeys.n;
	if (key == s + j - 1) {
		/* a run of a program's samples meets the same few addresses over and over */
		fl = &r->fline[fline_slot(s, i, keylen)];
		id = *fl - 1;
		if (*fl && pt_intern_len(&r->fkeys, id) == keylen &&
		    !memcmp(pt_intern_str(&r->fkeys, id), key, keylen))
			goto known;
	}
	id = pt_intern(&r->fkeys, key, keylen);
	if (fl)
		*fl = id + 1;
known:
	if (j > i)
		s[j - 1] = ' ';
	if (id >= old) {
		PT_ALLOC_GROW(r->fval, (size_t)id + 1, r->fval_alloc);
		parse_frame(s, n, &c);
		r->fval[id] = resolve(r, &c);
	}
	run = r->pool + r->fval[id];
	PT_ALLOC_GROW(r->frames, r->nframes + run[0], r->frames_alloc);
	/* the chain is outermost first; the stack here is leaf first */
	for (k = run[0]; k > 0; k--)
		r->frames[r->nframes++] = run[k];
	return 0;
}

static int header_line(struct reader *r, char *s, size_t n, uint64_t lineno)
{
	struct header h;

	flush(r);
	if (!parse_header(s, n, &h))
		return pt_diag_error_line(r->d, lineno,
					  "expected a sample header ('comm pid/tid time: period "
					  "event:') or a callchain line");
	if (h.sideband)
		return 0;
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

	n = pt_trim_end(s, n);
	if (!n) {
		flush(r);
		return 0;
	}
	/* any other byte is data: symbols and paths are bytes from binaries, kept as they
	 * are (writers that need UTF-8 make them valid, util/text.h) */
	if (!plain_ascii(s, n) && memchr(s, '\0', n))
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
		return frame_line(r, s + i, n - i, lineno);
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
	r.o = o;
	r.d = d;
	pt_arena_init(&r.arena);
	pt_intern_init(&r.fkeys, &r.arena);
	pt_intern_init(&r.hkeys, &r.arena);
	pt_intern_init(&r.events, &r.arena);
	pt_buf_init(&r.key);
	pt_buf_init(&r.name);
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
		} else if (pt_read_skip(o, d, in->lineno) < 0) {
			ret = -1;
			goto out;
		}
	}
	if (rc < 0) {
		ret = -1;
		goto out;
	}
	flush(&r); /* a last record without a blank line after it counts too */
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
	pt_intern_release(&r.fkeys);
	pt_intern_release(&r.hkeys);
	pt_intern_release(&r.events);
	pt_arena_release(&r.arena);
	pt_buf_release(&r.key);
	pt_buf_release(&r.name);
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
};
