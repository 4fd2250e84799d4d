/* stackprof-marshal.c: Ruby stackprof dumps as Marshal 4.8 (StackProf.results, `stackprof
 * --dump`): a streaming Marshal reader that feeds the builder of formats/stackprof.h. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/stackprof.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/xalloc.h"

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
	return m->mute ? 0 : pt_stackprof_scalar(m->b, v);
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
		return pt_stackprof_begin(m->b, is_map);
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
 * raw_frame_fast, the rest to pt_stackprof_raw_int */
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
			if (pt_stackprof_raw_int(b, &v) < 0)
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
	struct ctx *c = pt_stackprof_ints(m->b);
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
		if ((c ? pt_stackprof_value(m->b, c, &v) : pt_stackprof_scalar(m->b, &v)) < 0)
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
			if (!m->mute && pt_stackprof_end(m->b) < 0)
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
	pt_stackprof_init(&b, p, d);
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
		ret = pt_stackprof_finish(&b);
	pt_stackprof_release(&b);
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
