/* pprof.c: pprof's profile.proto (perftools.profiles), gzipped or raw, read and written.
 * The reader first walks the wire format itself as it arrives, so a malformed input is
 * reported at its byte offset (and garbage fails at once), noting where each top-level
 * field is; then decodes each table and sample by hand from there, with protobuf-c's
 * rules (its structs, a malloc per message, cost more than the reading on profiles of
 * many samples or many files), and checks every index.
 * See formats/pprof.md for how the message maps into the model. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/pattern.h"
#include "util/buf.h"
#include "util/dynlib.h"
#include "core/sink.h"
#include "formats/format.h"
#include "util/intern.h"
#include "util/map.h"
#include "util/xalloc.h"

/* ---- wire-format pre-scan ---- */

enum msg_kind { M_PROFILE, M_VALUETYPE, M_SAMPLE, M_LABEL, M_MAPPING, M_LOCATION, M_LINE, M_FUNC };
enum field_kind { F_UNKNOWN, F_VARINT, F_PACKABLE, F_BYTES, F_MSG };

static const char *const msg_names[] = {"Profile", "ValueType", "Sample", "Label",
					"Mapping", "Location",	"Line",	  "Function"};

/* what field `f` of message `m` is, and for F_MSG the kind of the submessage */
static inline enum field_kind field_kind(enum msg_kind m, uint64_t f, enum msg_kind *sub)
{
	static const enum msg_kind profile_msgs[] = {M_PROFILE, M_VALUETYPE, M_SAMPLE,
						     M_MAPPING, M_LOCATION,  M_FUNC};
	switch (m) {
	case M_PROFILE:
		if (f >= 1 && f <= 5) {
			*sub = profile_msgs[f];
			return F_MSG;
		}
		if (f == 11) {
			*sub = M_VALUETYPE;
			return F_MSG;
		}
		if (f == 6)
			return F_BYTES;
		if (f == 13)
			return F_PACKABLE;
		return f >= 7 && f <= 15 ? F_VARINT : F_UNKNOWN;
	case M_SAMPLE:
		if (f == 3) {
			*sub = M_LABEL;
			return F_MSG;
		}
		return f == 1 || f == 2 ? F_PACKABLE : F_UNKNOWN;
	case M_LOCATION:
		if (f == 4) {
			*sub = M_LINE;
			return F_MSG;
		}
		return f >= 1 && f <= 5 ? F_VARINT : F_UNKNOWN;
	case M_VALUETYPE:
		return f >= 1 && f <= 2 ? F_VARINT : F_UNKNOWN;
	case M_LABEL:
		return f >= 1 && f <= 4 ? F_VARINT : F_UNKNOWN;
	case M_MAPPING:
		return f >= 1 && f <= 10 ? F_VARINT : F_UNKNOWN;
	case M_LINE:
		return f >= 1 && f <= 3 ? F_VARINT : F_UNKNOWN;
	case M_FUNC:
		return f >= 1 && f <= 5 ? F_VARINT : F_UNKNOWN;
	}
	return F_UNKNOWN;
}

/* One top-level field of the Profile (numbers 1 to 15, all known): where its tag is,
 * and its value (wire type 0) or the place of its bytes, b[pos, pos + v) (wire type 2).
 * The reader decodes the tables from these, in the order they came. */
struct top_field {
	uint32_t f, wt;
	size_t at, pos;
	uint64_t v;
};

struct scan {
	const unsigned char *buf;
	uint64_t base; /* stream offset of buf[0] */
	struct pt_diag *d;
	/* stream offset of the last top-level field of each number below 16 (a scalar's
	 * last occurrence is its value): where default_sample_type and the frames
	 * regexps are, for their errors */
	uint64_t field_at[16];
	struct top_field *top;
	size_t ntop, top_alloc;
	size_t count[16]; /* top-level fields of each number */
};

/* get_varint past its common case */
static int get_varint_long(const unsigned char *b, size_t *pos, size_t end, uint64_t *v)
{
	uint64_t x = 0;
	size_t i = *pos, lim;
	unsigned shift = 0;

	if (end - i >= 2 && !(b[i + 1] & 0x80)) {
		*v = (uint64_t)(b[i] & 0x7f) | (uint64_t)b[i + 1] << 7;
		*pos = i + 2;
		return 1;
	}
	/* the first nine bytes, whose seven bits all fit */
	lim = end - i > 9 ? i + 9 : end;
	for (; i < lim; i++, shift += 7) {
		x |= (uint64_t)(b[i] & 0x7f) << shift;
		if (!(b[i] & 0x80)) {
			*pos = i + 1;
			*v = x;
			return 1;
		}
	}
	if (i == end)
		return 0;
	/* the tenth holds the last bit and ends it */
	if (b[i] > 1)
		return -1;
	*pos = i + 1;
	*v = x | (uint64_t)b[i] << 63;
	return 1;
}

/* 1 and the varint at *pos, 0 if the input ends inside it, -1 if it is too long. Most
 * varints here are tags, ids and counts of one byte: inline, that case costs no call. */
static inline int get_varint(const unsigned char *b, size_t *pos, size_t end, uint64_t *v)
{
	if (*pos < end && b[*pos] < 0x80) {
		*v = b[(*pos)++];
		return 1;
	}
	return get_varint_long(b, pos, end, v);
}

static int varint_error(struct scan *s, size_t at, int r)
{
	return pt_diag_error_at(s->d, s->base + at,
				r == 0 ? "truncated varint" : "malformed varint");
}

/* check that [start, end) is a sequence of varints (a packed repeated field) */
static int scan_packed(struct scan *s, size_t start, size_t end)
{
	const unsigned char *b = s->buf;
	size_t i = start;
	uint64_t v;
	while (i < end) {
		size_t at = i;
		int r;
		/* one- and two-byte varints are always whole and valid */
		if (b[i] < 0x80) {
			i++;
			continue;
		}
		if (i + 1 < end && b[i + 1] < 0x80) {
			i += 2;
			continue;
		}
		r = get_varint(b, &i, end, &v);
		if (r <= 0)
			return varint_error(s, at, r);
	}
	return 0;
}

static int scan_msg(struct scan *s, enum msg_kind m, size_t start, size_t end);

/* Walk one field of message m at *pos, before end. With `more` set, the input may
 * continue past end: a field cut off at end is then not an error but returns 0, with
 * nothing consumed. Returns 1 (and moves *pos past the field) or -1. */
static int scan_field(struct scan *s, enum msg_kind m, size_t *pos, size_t end, int more)
{
	size_t i = *pos, at = i;
	uint64_t tag, f, len = 0, v = 0;
	unsigned wt;
	enum msg_kind sub = M_PROFILE;
	enum field_kind k;
	int r = get_varint(s->buf, &i, end, &tag);

	if (r == 0 && more)
		return 0;
	if (r <= 0)
		return varint_error(s, at, r);
	f = tag >> 3;
	wt = (unsigned)(tag & 7);
	if (f == 0 || f > 536870911)
		return pt_diag_error_at(s->d, s->base + at, "bad field number %" PRIu64 " in '%s'",
					f, msg_names[m]);
	k = field_kind(m, f, &sub);
	switch (wt) {
	case 0:
		r = get_varint(s->buf, &i, end, &v);
		if (r == 0 && more)
			return 0;
		if (r <= 0)
			return varint_error(s, i, r);
		break;
	case 1:
	case 5:
		if (end - i < (wt == 1 ? 8u : 4u)) {
			if (more)
				return 0;
			return pt_diag_error_at(s->d, s->base + at,
						"truncated field %" PRIu64 " in '%s'", f,
						msg_names[m]);
		}
		i += wt == 1 ? 8 : 4;
		break;
	case 2: {
		size_t lat = i;
		r = get_varint(s->buf, &i, end, &len);
		if (r == 0 && more)
			return 0;
		if (r <= 0)
			return varint_error(s, lat, r);
		if (len > end - i) {
			if (more)
				return 0;
			return pt_diag_error_at(s->d, s->base + at,
						"field %" PRIu64 " of '%s' declares %" PRIu64
						" bytes but only %zu remain",
						f, msg_names[m], len, end - i);
		}
		break;
	}
	default:
		return pt_diag_error_at(s->d, s->base + at,
					"unsupported wire type %u (field %" PRIu64 " of '%s')", wt,
					f, msg_names[m]);
	}
	if (k != F_UNKNOWN) {
		unsigned want = k == F_VARINT ? 0 : 2;
		int ok = wt == want || (k == F_PACKABLE && wt == 0);
		if (!ok)
			return pt_diag_error_at(s->d, s->base + at,
						"field %" PRIu64 " of '%s' has wire type %u, "
						"expected %u",
						f, msg_names[m], wt, want);
	}
	if (m == M_PROFILE && f < 16) {
		struct top_field *t;
		s->field_at[f] = s->base + at;
		PT_ALLOC_GROW(s->top, s->ntop + 1, s->top_alloc);
		t = &s->top[s->ntop++];
		t->f = (uint32_t)f;
		t->wt = wt;
		t->at = at;
		t->pos = i;
		t->v = wt == 2 ? len : v;
		s->count[f]++;
	}
	if (wt == 2) {
		if (k == F_MSG) {
			if (scan_msg(s, sub, i, i + (size_t)len) < 0)
				return -1;
		} else if (k == F_PACKABLE) {
			if (scan_packed(s, i, i + (size_t)len) < 0)
				return -1;
		}
		i += (size_t)len;
	}
	*pos = i;
	return 1;
}

/* 1 if b[i, end) holds only fields of a one-byte tag of wire type 0 and a value of at
 * most nine bytes, always valid in a message of varints (a Label, a Line) whatever
 * their numbers; 0 if something else is there (scan_msg then says what) */
static inline int plain_varints(const unsigned char *b, size_t i, size_t end)
{
	while (i < end) {
		size_t lim;
		if (b[i] >= 0x80 || (b[i] & 7) || b[i] < 8)
			return 0;
		i++;
		lim = end - i > 9 ? i + 9 : end;
		while (i < lim && (b[i] & 0x80))
			i++;
		if (i == lim)
			return 0;
		i++;
	}
	return 1;
}

/* Walk message m in [start, end). The nesting is fixed by the schema (at most three
 * levels), never by the input. */
static int scan_msg(struct scan *s, enum msg_kind m, size_t start, size_t end)
{
	const unsigned char *b = s->buf;
	enum msg_kind sub;
	size_t i = start;

	while (i < end) {
		/* the common field, a one-byte tag (field number 1 to 15) of wire type 0
		 * with a one-byte value, where the schema allows a varint: always valid */
		if (b[i] < 0x80 && (b[i] & 7) == 0 && b[i] >= 8 && end - i >= 2 &&
		    b[i + 1] < 0x80) {
			enum field_kind k = field_kind(m, b[i] >> 3, &sub);
			if (k != F_MSG && k != F_BYTES) {
				i += 2;
				continue;
			}
		}
		/* the next most common, a packed run or a message (a sample's locations
		 * and values, its labels, a location's lines) of a one-byte length that
		 * fits: walked here, as scan_field would */
		if (b[i] < 0x80 && (b[i] & 7) == 2 && b[i] >= 8 && end - i >= 2 &&
		    b[i + 1] < 0x80 && b[i + 1] <= end - i - 2) {
			enum field_kind k = field_kind(m, b[i] >> 3, &sub);
			size_t from = i + 2, to = from + b[i + 1];
			if (k == F_MSG && (sub == M_LABEL || sub == M_LINE) &&
			    plain_varints(b, from, to)) {
				i = to;
				continue;
			}
			if (k == F_PACKABLE || k == F_MSG) {
				if ((k == F_PACKABLE ? scan_packed(s, from, to)
						     : scan_msg(s, sub, from, to)) < 0)
					return -1;
				i = to;
				continue;
			}
		}
		if (scan_field(s, m, &i, end, 0) < 0)
			return -1;
	}
	return 0;
}

/* Read the whole message while walking its top-level fields as they arrive, so that
 * garbage (a gzip bomb of zeros, say) fails at its first bytes, not after all of it is
 * read. The bytes stay in the input's buffer: *data is valid until the input is used
 * again. */
static int scan_input(struct scan *s, struct pt_input *in, const unsigned char **data, size_t *len)
{
	size_t pos = 0, avail = 0;

	for (;;) {
		const unsigned char *q;
		int more = pt_input_need(in, avail + ((size_t)1 << 20), &q), r;

		if (more < 0)
			return -1;
		avail = in->end - in->pos;
		s->buf = q;
		while (pos < avail && (r = scan_field(s, M_PROFILE, &pos, avail, more)) != 0)
			if (r < 0)
				return -1;
		if (!more)
			break;
	}
	*data = s->buf;
	*len = avail;
	return 0;
}

static void scan_release(struct scan *s)
{
	free(s->top);
}

/* ---- detection ---- */

/* Text (no byte below 0x20 but tab, CR and LF): never a protobuf, whose first field's
 * contents open with a tag byte below 0x20 (0x08, 0x10, ...) */
static int looks_like_text(const unsigned char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') || s[i] == 0x7f)
			return 0;
	return 1;
}

static int pprof_detect(const unsigned char *head, size_t len)
{
	size_t i = 0;
	int fields = 0, bad = 0;

	if (looks_like_text(head, len))
		return 0;

	/* Count whole top-level fields whose wire types fit the schema; the last one may
	 * run past the bytes we were shown. Two good fields then something broken is a
	 * damaged profile (reported by the reader), unless a text format claims it. */
	while (i < len && !bad) {
		uint64_t tag, f, v;
		enum msg_kind sub;
		enum field_kind k;
		unsigned wt;
		int r = get_varint(head, &i, len, &tag);

		if (r <= 0) {
			bad = r < 0;
			break;
		}
		f = tag >> 3;
		wt = (unsigned)(tag & 7);
		k = f >= 1 && f <= 15 ? field_kind(M_PROFILE, f, &sub) : F_UNKNOWN;
		if (k == F_UNKNOWN || (wt == 0) != (k == F_VARINT || k == F_PACKABLE) ||
		    (wt != 0 && wt != 2)) {
			bad = 1;
			break;
		}
		r = get_varint(head, &i, len, &v);
		if (r <= 0) {
			bad = r < 0;
			break;
		}
		if (wt == 2) {
			/* the first field must be whole: a profile's first one is short */
			if (v > len - i) {
				if (!fields)
					return 0;
				break;
			}
			i += (size_t)v;
		}
		fields++;
	}
	if (fields >= 2)
		return bad ? 30 : 70;
	if (bad)
		return 0;
	return fields == 1 ? 20 : i > 0 ? 10 : 0;
}

/* ---- reading ---- */

/* One Sample message as decoded by decode_sample: its repeated fields in the order they
 * came, the buffers reused from sample to sample. */
struct label_msg {
	int64_t key, str, num, num_unit;
};
struct sample_msg {
	uint64_t *loc;
	uint64_t *val; /* int64 values travel as their two's complement varint */
	struct label_msg *lab;
	size_t nloc, nval, nlab, loc_alloc, val_alloc, lab_alloc;
};

/* pprof ids to ours. They are normally 1 to n, so the ids below twice the count of
 * their messages and 2 index an array; the others (any an input chooses) a map. */
struct id_table {
	uint32_t *dense; /* UINT32_MAX: no such id */
	size_t ndense;
	struct pt_map map;
};

static void ids_init(struct id_table *t, const struct pt_hash_key *key)
{
	t->dense = NULL;
	t->ndense = 0;
	pt_map_init_key(&t->map, key);
}

/* the array for the ids of `count` messages, before the first id is put */
static void ids_dense(struct id_table *t, size_t count)
{
	t->ndense = 2 * count + 2;
	t->dense = pt_xreallocarray(t->dense, t->ndense, sizeof(uint32_t));
	memset(t->dense, 0xff, t->ndense * sizeof(uint32_t));
}

static void ids_release(struct id_table *t)
{
	free(t->dense);
	pt_map_release(&t->map);
}

/* our id for pprof id `id`, or UINT32_MAX */
static uint32_t ids_get(const struct id_table *t, uint64_t id)
{
	return id < t->ndense ? t->dense[id] : pt_map_get(&t->map, id);
}

/* A label set met lately, by its labels as decoded: the samples of a few goroutines or
 * requests interleave, so each set is made once (LABEL_MEMOS remembered, the oldest
 * replaced). */
#define LABEL_MEMOS 8
struct label_memo {
	struct label_msg *v;
	size_t n, alloc;
	uint32_t ls;
};

/* a Line of the Location being decoded (decode_location) */
struct line_msg {
	uint64_t function_id;
	int64_t line, column;
};

struct reader {
	/* where the tables (strings, functions, mappings, frames, label sets) go: the
	 * profile read into, or a merge's result (core/sink.h pt_append) */
	struct pt_profile *p;
	/* where the rest goes (sample types, period, times, comments, frame regexps, and
	 * the records' sums through the sink): the profile read into */
	struct pt_profile *hp;
	struct pt_sink *sink; /* where the stacks go (core/sink.h) */
	struct pt_diag *d;
	struct scan *s;
	const unsigned char *b;	     /* the message: the top fields' bytes are b[pos, pos + v) */
	uint32_t *strs;		     /* string table index -> profile string id */
	size_t nstrs, ntypes, nlocs; /* entries of the string table, sample types, locations */
	uint64_t *loc_ids;	     /* location i's id */
	uint32_t *loc_nline;	     /* location i's lines */
	struct line_msg *lines;	     /* decode_location's, reused */
	size_t lines_alloc;
	struct id_table funcs, mappings; /* pprof id -> our id */
	struct pt_map locs;		 /* pprof id -> location index */
	uint32_t *loc_frames;		 /* frames of every location, leaf first */
	size_t *loc_start;		 /* location i: loc_frames[start[i] .. start[i+1]) */
	uint32_t *loc_dense;		 /* location id -> index, when ids are dense */
	size_t nloc_dense;
	uint32_t *stack; /* the sample being read, leaf first */
	size_t stack_alloc;
	struct pt_label *labels;
	size_t labels_alloc;
	struct sample_msg sm; /* the sample being decoded (decode_sample) */
	struct label_memo memo[LABEL_MEMOS];
	unsigned nmemo, next_memo;
	/* drop_frames / keep_frames, applied as pprof applies them (prune_* below) */
	int pruning, has_keep;
	struct pt_pattern *drop, *keep;
	uint8_t *func_drops; /* per function: 0 not looked at, 1 kept, 2 dropped */
	uint8_t *loc_prune;  /* per location: PRUNE_* */
	uint32_t *loc_cut;   /* per location: inner frames cut off (PRUNE_BENEATH) */
	struct pt_buf name;
};

enum { PRUNE_NONE, PRUNE_BENEATH, PRUNE_WHOLE };

/* stream offset of a top-level field, for its errors */
static uint64_t where(const struct reader *r, const struct top_field *t)
{
	return r->s->base + t->at;
}

/* Field `f` of wire type `wt` at b[*i ..): its varint in *v (wire type 0) or its bytes
 * [*i, *i + *len) (wire type 2, *i left at their start); other wire types skipped.
 * 1, or 0 if the field does not fit before end (which the pre-scan rules out). */
static inline int next_field(const unsigned char *b, size_t *i, size_t end, uint64_t *f,
			     unsigned *wt, uint64_t *v)
{
	uint64_t tag;

	if (get_varint(b, i, end, &tag) <= 0)
		return 0;
	*f = tag >> 3;
	*wt = (unsigned)(tag & 7);
	switch (*wt) {
	case 0:
	case 2:
		if (get_varint(b, i, end, v) <= 0)
			return 0;
		return *wt == 0 || *v <= end - *i;
	case 1:
	case 5:
		if (end - *i < (*wt == 1 ? 8u : 4u))
			return 0;
		*i += *wt == 1 ? 8 : 4;
		return 1;
	}
	return 0;
}

/* The varint fields 1 to n of a message, b[i, end), into v[0 .. n), as protobuf-c
 * decodes a message of scalars: a field given twice keeps its last value, an absent one
 * is 0, others are skipped. The pre-scan has checked the wire format (every known field
 * of its wire type). 1 if decoded, 0 if not. */
static int decode_varints(const unsigned char *b, size_t i, size_t end, uint64_t *v, unsigned n)
{
	uint64_t f, x = 0;
	unsigned wt;

	memset(v, 0, n * sizeof(*v));
	while (i < end) {
		if (!next_field(b, &i, end, &f, &wt, &x))
			return 0;
		if (wt == 2)
			i += (size_t)x;
		else if (wt == 0 && f >= 1 && f <= n)
			v[f - 1] = x;
	}
	return 1;
}

/* the scalar fields of top-level field t, a message of n of them, into v; -1 with the
 * diag filled if it does not decode */
static int decode_top(struct reader *r, const struct top_field *t, uint64_t *v, unsigned n,
		      const char *what)
{
	if (!decode_varints(r->b, t->pos, t->pos + (size_t)t->v, v, n))
		return pt_diag_error_at(r->d, where(r, t), "could not decode this %s", what);
	return 0;
}

/* profile string id for string table index `idx`, or -1 with the diag filled */
static int str_at(struct reader *r, int64_t idx, uint64_t off, const char *what, uint32_t *out)
{
	if (idx < 0 || (uint64_t)idx >= r->nstrs)
		return pt_diag_error_at(r->d, off,
					"%s: string index %" PRId64 " is out of range (the string "
					"table has %zu entries)",
					what, idx, r->nstrs);
	*out = r->strs[idx];
	return 0;
}

/* string id of r->p as one of r->hp (the same id when they are one profile) */
static uint32_t hstr(struct reader *r, uint32_t id)
{
	if (r->hp == r->p || !id)
		return id;
	return pt_strn(r->hp, pt_s(r->p, id), pt_intern_len(&r->p->strings, id));
}

static int read_strings(struct reader *r)
{
	size_t i, n = 0;

	r->nstrs = r->s->count[6];
	if (!r->nstrs)
		return pt_diag_error_at(r->d, r->s->base, "the profile has no string table");
	r->strs = pt_xreallocarray(NULL, r->nstrs, sizeof(uint32_t));
	for (i = 0; i < r->s->ntop; i++) {
		const struct top_field *t = &r->s->top[i];
		if (t->f != 6)
			continue;
		if (!n && t->v)
			return pt_diag_error_at(
				r->d, r->s->base,
				"the string table must start with the empty string");
		r->strs[n++] = pt_strn(r->p, (const char *)r->b + t->pos, (size_t)t->v);
	}
	return 0;
}

/* id's value v in m (an id table when t is not NULL), or -1 with the diag filled */
static int put_id(struct reader *r, struct id_table *t, struct pt_map *m, uint64_t id, uint32_t v,
		  uint64_t off, const char *what)
{
	uint32_t *slot;
	if (id == 0)
		return pt_diag_error_at(r->d, off, "'%s' with the reserved id 0", what);
	if (t && id < t->ndense) {
		if (t->dense[id] != UINT32_MAX)
			return pt_diag_error_at(r->d, off, "duplicate '%s' id %" PRIu64, what, id);
		t->dense[id] = v;
		return 0;
	}
	slot = pt_map_put(t ? &t->map : m, id);
	if (*slot != PT_MAP_NEW)
		return pt_diag_error_at(r->d, off, "duplicate '%s' id %" PRIu64, what, id);
	*slot = v;
	return 0;
}

/* pprof's RemoveUninteresting: drop_frames (and keep_frames, when drop_frames is set)
 * match whole simplified function names, as "^(?:RE)$". pprof compiles them with Go's
 * RE2, we with util/pattern.h's PCRE2, which reads RE2's syntax. A string table entry
 * holding a NUL cannot be a pattern. */
static int prune_init(struct reader *r, uint64_t off)
{
	const struct pt_profile *p = r->hp;
	const char *what = "drop_frames";
	struct pt_buf re = PT_BUF_INIT;
	char msg[256];

	if (!p->drop_frames || !pt_intern_len(&p->strings, p->drop_frames))
		return 0;
	pt_buf_addf(&re, "^(?:%s)$", pt_s(p, p->drop_frames));
	r->drop = pt_intern_len(&p->strings, p->drop_frames) == strlen(pt_s(p, p->drop_frames))
			  ? pt_pattern_compile(re.buf, msg, sizeof(msg))
			  : NULL;
	if (r->drop && p->keep_frames && pt_intern_len(&p->strings, p->keep_frames)) {
		pt_buf_reset(&re);
		pt_buf_addf(&re, "^(?:%s)$", pt_s(p, p->keep_frames));
		what = "keep_frames";
		r->keep = pt_intern_len(&p->strings, p->keep_frames) ==
					  strlen(pt_s(p, p->keep_frames))
				  ? pt_pattern_compile(re.buf, msg, sizeof(msg))
				  : NULL;
		if (!r->keep) {
			pt_pattern_free(r->drop);
			r->drop = NULL;
		} else {
			r->has_keep = 1;
		}
	}
	pt_buf_release(&re);
	if (!r->drop)
		return pt_diag_error_at(r->d, off, "%s is not a regular expression we can read",
					what);
	r->pruning = 1;
	r->func_drops = pt_xcalloc(r->p->nfuncs + 1, 1);
	r->loc_prune = pt_xcalloc(r->nlocs + 1, 1);
	r->loc_cut = pt_xcalloc(r->nlocs + 1, sizeof(uint32_t));
	return 0;
}

/* pprof's simplifyFunc: a leading '.' (PPC ELF v1) goes, and so does the argument list
 * from the first '(' that does not belong to "(anonymous namespace)" or "operator()" */
static void simplify_func(struct pt_buf *b, const char *s, size_t n)
{
	size_t i;

	if (n && s[0] == '.')
		s++, n--;
	for (i = 0; i < n; i++) {
		if (n - i >= 21 && !memcmp(s + i, "(anonymous namespace)", 21)) {
			i += 20;
		} else if (n - i >= 10 && !memcmp(s + i, "operator()", 10)) {
			i += 9;
		} else if (s[i] == '(') {
			n = i;
			break;
		}
	}
	pt_buf_reset(b);
	pt_buf_add(b, s, n);
}

/* 1 if frames of function f are dropped: its simplified name (bytes, NULs too, as Go's
 * strings) matches drop_frames and not keep_frames; looked up once per function. -1
 * with the diag filled when a match is too costly. */
static int prune_func(struct reader *r, uint32_t f)
{
	uint32_t name = r->p->funcs[f].name;
	size_t n = pt_intern_len(&r->p->strings, name);

	if (!n)
		return 0;
	if (!r->func_drops[f]) {
		int drop, keep = 0;
		simplify_func(&r->name, pt_s(r->p, name), n);
		drop = pt_pattern_match(r->drop, r->name.buf, r->name.len, r->d);
		if (drop > 0 && r->has_keep)
			keep = pt_pattern_match(r->keep, r->name.buf, r->name.len, r->d);
		if (drop < 0 || keep < 0)
			return -1;
		r->func_drops[f] = drop && !keep ? 2 : 1;
	}
	return r->func_drops[f] == 2;
}

/* pprof's Prune, for location i: the outermost line whose function is dropped marks it;
 * the lines inside it (that line included) are cut, or the whole location is pruned
 * when that line is its outermost one */
static int prune_location(struct reader *r, size_t i)
{
	size_t start = r->loc_start[i], n = r->loc_start[i + 1] - start, j;
	int drop = 0;

	if (!r->loc_nline[i])
		return 0;
	for (j = n; j-- > 0;)
		if ((drop = prune_func(r, r->p->frames[r->loc_frames[start + j]].func)))
			break;
	if (drop < 0)
		return -1;
	if (j == SIZE_MAX)
		return 0;
	if (j == n - 1) {
		r->loc_prune[i] = PRUNE_WHOLE;
	} else {
		r->loc_prune[i] = PRUNE_BENEATH;
		r->loc_cut[i] = (uint32_t)(j + 1);
	}
	return 0;
}

/* the first of a sample's locations (leaf first) that stays: from the root, past the
 * first location no rule touches, the first marked one ends the stack (its own frames
 * stay when only the ones beneath it go) */
static size_t prune_sample(const struct reader *r, const uint32_t *locs, size_t n)
{
	size_t i;
	int found_user = 0;

	for (i = n; i-- > 0;) {
		uint8_t m = r->loc_prune[locs[i]];
		if (m == PRUNE_NONE) {
			found_user = 1;
			continue;
		}
		if (!found_user)
			continue;
		return m == PRUNE_WHOLE ? i + 1 : i;
	}
	return 0;
}

static int read_mappings(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->s->ntop; i++) {
		const struct top_field *t = &r->s->top[i];
		uint64_t off = where(r, t), v[10];
		struct pt_mapping m;

		if (t->f != 3)
			continue;
		if (decode_top(r, t, v, 10, "mapping") < 0)
			return -1;
		memset(&m, 0, sizeof(m));
		m.start = v[1];
		m.limit = v[2];
		m.offset = v[3];
		if (str_at(r, (int64_t)v[4], off, "mapping filename", &m.file) < 0 ||
		    str_at(r, (int64_t)v[5], off, "mapping build_id", &m.build_id) < 0)
			return -1;
		m.flags = (v[6] ? PT_MAPPING_HAS_FUNCTIONS : 0) |
			  (v[7] ? PT_MAPPING_HAS_FILENAMES : 0) |
			  (v[8] ? PT_MAPPING_HAS_LINE_NUMBERS : 0) |
			  (v[9] ? PT_MAPPING_HAS_INLINE_FRAMES : 0);
		if (put_id(r, &r->mappings, NULL, v[0], pt_profile_mapping(r->p, &m), off,
			   "mapping") < 0)
			return -1;
	}
	return 0;
}

static int read_functions(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->s->ntop; i++) {
		const struct top_field *t = &r->s->top[i];
		uint64_t off = where(r, t), v[5];
		uint32_t name = 0, sys = 0, file = 0;

		if (t->f != 5)
			continue;
		if (decode_top(r, t, v, 5, "function") < 0)
			return -1;
		if (str_at(r, (int64_t)v[1], off, "function name", &name) < 0 ||
		    str_at(r, (int64_t)v[2], off, "function system_name", &sys) < 0 ||
		    str_at(r, (int64_t)v[3], off, "function filename", &file) < 0)
			return -1;
		if (put_id(r, &r->funcs, NULL, v[0],
			   pt_profile_func(r->p, name, sys, file, (int64_t)v[4]), off,
			   "function") < 0)
			return -1;
	}
	return 0;
}

/* One Location message, b[i, end): its scalars into v (id, mapping_id, address, and
 * is_folded in v[4]) and its lines into r->lines (*nline of them). 1, or 0 if it does
 * not decode. */
static int decode_location(struct reader *r, size_t i, size_t end, uint64_t v[5], size_t *nline)
{
	uint64_t f, x = 0;
	unsigned wt;

	memset(v, 0, 5 * sizeof(*v));
	*nline = 0;
	while (i < end) {
		if (!next_field(r->b, &i, end, &f, &wt, &x))
			return 0;
		if (wt == 2 && f == 4) {
			uint64_t l[3];
			if (!decode_varints(r->b, i, i + (size_t)x, l, 3))
				return 0;
			PT_ALLOC_GROW(r->lines, *nline + 1, r->lines_alloc);
			r->lines[*nline].function_id = l[0];
			r->lines[*nline].line = (int64_t)l[1];
			r->lines[*nline].column = (int64_t)l[2];
			++*nline;
		}
		if (wt == 2)
			i += (size_t)x;
		else if (wt == 0 && f >= 1 && f <= 5 && f != 4)
			v[f - 1] = x;
	}
	return 1;
}

/* the frames of a location (v and r->lines as decode_location left them) appended at
 * r->loc_frames[*k] */
static int location_frames(struct reader *r, const uint64_t v[5], size_t nline, uint64_t off,
			   size_t *k, size_t *alloc)
{
	struct pt_frame f;
	size_t j;

	memset(&f, 0, sizeof(f));
	if (v[1]) {
		f.mapping = ids_get(&r->mappings, v[1]);
		if (f.mapping == UINT32_MAX)
			return pt_diag_error_at(r->d, off,
						"location %" PRIu64 " refers to mapping id "
						"%" PRIu64 ", which does not exist",
						v[0], v[1]);
	}
	f.addr = v[2];
	if (v[4])
		f.flags |= PT_FRAME_FOLDED;
	PT_ALLOC_GROW(r->loc_frames, *k + (nline ? nline : 1), *alloc);
	if (!nline) {
		char name[32];
		uint32_t file = f.mapping ? r->p->mappings[f.mapping].file : 0;
		snprintf(name, sizeof(name), "0x%" PRIx64, v[2]);
		f.func = pt_profile_func(r->p, pt_str(r->p, name), 0, file, 0);
		f.flags |= PT_FRAME_NO_SYMBOL;
		r->loc_frames[(*k)++] = pt_profile_frame(r->p, &f);
	}
	for (j = 0; j < nline; j++) {
		const struct line_msg *ln = &r->lines[j];
		struct pt_frame g = f;

		g.func = ids_get(&r->funcs, ln->function_id);
		if (g.func == UINT32_MAX)
			return pt_diag_error_at(r->d, off,
						"location %" PRIu64 " refers to function id "
						"%" PRIu64 ", which does not exist",
						v[0], ln->function_id);
		g.line = ln->line;
		g.column = ln->column;
		if (j + 1 < nline)
			g.flags |= PT_FRAME_INLINED;
		r->loc_frames[(*k)++] = pt_profile_frame(r->p, &g);
	}
	return 0;
}

/* every location becomes one frame per line (inlined ones flagged), or one frame named
 * by its address when it has no lines; 1 (an append that must read plain) or 0, -1 */
static int read_locations(struct reader *r)
{
	size_t i, n = 0, k = 0, alloc = 0;

	r->loc_start = pt_xreallocarray(NULL, r->nlocs + 1, sizeof(size_t));
	r->loc_ids = pt_xreallocarray(NULL, r->nlocs + 1, sizeof(uint64_t));
	r->loc_nline = pt_xreallocarray(NULL, r->nlocs + 1, sizeof(uint32_t));
	for (i = 0; i < r->s->ntop; i++) {
		const struct top_field *t = &r->s->top[i];
		uint64_t off = where(r, t), v[5];
		size_t nline;

		if (t->f != 4)
			continue;
		if (!decode_location(r, t->pos, t->pos + (size_t)t->v, v, &nline))
			return pt_diag_error_at(r->d, off, "could not decode this location");
		/* an address to name (the symbolizer's work, on the input's own frames):
		 * an append reads plain */
		if (!nline && r->hp != r->p)
			return 1;
		r->loc_start[n] = k;
		r->loc_ids[n] = v[0];
		r->loc_nline[n] = (uint32_t)nline;
		if (location_frames(r, v, nline, off, &k, &alloc) < 0 ||
		    put_id(r, NULL, &r->locs, v[0], (uint32_t)n, off, "location") < 0)
			return -1;
		n++;
	}
	r->loc_start[n] = k;
	for (i = 0; r->pruning && i < r->nlocs; i++)
		if (prune_location(r, i) < 0)
			return -1;
	return 0;
}

/* profile location index for pprof location id `id`, or UINT32_MAX */
static uint32_t loc_index(const struct reader *r, uint64_t id)
{
	if (r->loc_dense)
		return id < r->nloc_dense ? r->loc_dense[id] : UINT32_MAX;
	return pt_map_get(&r->locs, id);
}

/* location ids are normally 1..n: index them by an array then */
static void index_locations(struct reader *r)
{
	size_t i, n = r->nlocs;
	uint64_t max = 0;

	for (i = 0; i < n; i++)
		if (r->loc_ids[i] > max)
			max = r->loc_ids[i];
	if (max > 2 * (uint64_t)n + 1024)
		return;
	r->nloc_dense = (size_t)max + 1;
	r->loc_dense = pt_xreallocarray(NULL, r->nloc_dense, sizeof(uint32_t));
	for (i = 0; i < r->nloc_dense; i++)
		r->loc_dense[i] = UINT32_MAX;
	for (i = 0; i < n; i++)
		r->loc_dense[r->loc_ids[i]] = (uint32_t)i;
}

/* the varints of field value v (wire type 0) or of the packed run b[*i, *i + v) (wire
 * type 2) appended to *out, as protobuf-c appends a repeated number's elements */
static int add_numbers(const unsigned char *b, size_t *i, unsigned wt, uint64_t v, uint64_t **out,
		       size_t *n, size_t *alloc)
{
	size_t end;

	if (wt == 0) {
		PT_ALLOC_GROW(*out, *n + 1, *alloc);
		(*out)[(*n)++] = v;
		return 1;
	}
	if (wt != 2)
		return 1; /* a number of fixed width is not ours: skipped, as protobuf-c does */
	end = *i + (size_t)v;
	/* room for the most the run can hold, a varint a byte */
	PT_ALLOC_GROW(*out, *n + (size_t)v, *alloc);
	while (*i < end) {
		if (get_varint(b, i, end, &(*out)[*n]) <= 0)
			return 0;
		(*n)++;
	}
	return 1;
}

/* one Label message, b[i, end): a scalar given twice keeps its last value */
static int decode_label(const unsigned char *b, size_t i, size_t end, struct label_msg *l)
{
	uint64_t v[4];

	/* the common label, a key and a string of one-byte indexes, in field order */
	if (end - i == 4 && b[i] == 0x08 && b[i + 1] < 0x80 && b[i + 2] == 0x10 &&
	    b[i + 3] < 0x80) {
		l->key = b[i + 1];
		l->str = b[i + 3];
		l->num = l->num_unit = 0;
		return 1;
	}
	if (!decode_varints(b, i, end, v, 4))
		return 0;
	l->key = (int64_t)v[0];
	l->str = (int64_t)v[1];
	l->num = (int64_t)v[2];
	l->num_unit = (int64_t)v[3];
	return 1;
}

/* One Sample message, b[i, end), decoded into r->sm by hand, with protobuf-c's rules
 * (location_id and value packed or not, in any mix; unknown fields skipped). The
 * pre-scan has checked the wire format: every varint whole, every length within its
 * message, every known field of its wire type. 1 if decoded, 0 if not. */
static int decode_sample(struct reader *r, const unsigned char *b, size_t i, size_t end)
{
	struct sample_msg *sm = &r->sm;
	uint64_t f, v = 0;
	unsigned wt;
	int ok = 1;

	sm->nloc = sm->nval = sm->nlab = 0;
	while (ok && i < end) {
		if (!next_field(b, &i, end, &f, &wt, &v))
			return 0;
		if (f == 1) {
			ok = add_numbers(b, &i, wt, v, &sm->loc, &sm->nloc, &sm->loc_alloc);
		} else if (f == 2) {
			ok = add_numbers(b, &i, wt, v, &sm->val, &sm->nval, &sm->val_alloc);
		} else if (f == 3 && wt == 2) {
			PT_ALLOC_GROW(sm->lab, sm->nlab + 1, sm->lab_alloc);
			ok = decode_label(b, i, i + (size_t)v, &sm->lab[sm->nlab++]);
			i += (size_t)v;
		} else if (wt == 2) {
			i += (size_t)v;
		}
	}
	return ok;
}

/* the label set of the sample's labels (r->sm): a remembered one when they are the
 * same labels */
static int sample_labels(struct reader *r, uint64_t off, uint32_t *ls)
{
	const struct sample_msg *ps = &r->sm;
	struct label_memo *e;
	size_t j;

	for (j = 0; ps->nlab && j < r->nmemo; j++) {
		e = &r->memo[j];
		if (e->n == ps->nlab && !memcmp(e->v, ps->lab, ps->nlab * sizeof(*ps->lab))) {
			*ls = e->ls;
			return 0;
		}
	}
	PT_ALLOC_GROW(r->labels, ps->nlab + 1, r->labels_alloc);
	for (j = 0; j < ps->nlab; j++) {
		const struct label_msg *pl = &ps->lab[j];
		struct pt_label *l = &r->labels[j];
		memset(l, 0, sizeof(*l));
		if (str_at(r, pl->key, off, "label key", &l->key) < 0 ||
		    str_at(r, pl->str, off, "label str", &l->str) < 0 ||
		    str_at(r, pl->num_unit, off, "label num_unit", &l->num_unit) < 0)
			return -1;
		l->num = l->str ? 0 : pl->num;
	}
	*ls = pt_profile_labelset(r->p, r->labels, (uint32_t)ps->nlab);
	if (!ps->nlab) /* no labels: the set 0, and ps->lab may be NULL */
		return 0;
	e = &r->memo[r->next_memo];
	r->next_memo = (r->next_memo + 1) % LABEL_MEMOS;
	if (r->nmemo < LABEL_MEMOS)
		r->nmemo++;
	PT_ALLOC_GROW(e->v, ps->nlab, e->alloc);
	memcpy(e->v, ps->lab, ps->nlab * sizeof(*ps->lab));
	e->n = ps->nlab;
	e->ls = *ls;
	return 0;
}

static int read_sample(struct reader *r, uint64_t off)
{
	const struct sample_msg *ps = &r->sm;
	size_t n = 0, j, first = 0;
	uint32_t ls;

	if (ps->nval != r->ntypes)
		return pt_diag_error_at(r->d, off,
					"sample has %zu values, the profile has %zu sample types",
					ps->nval, r->ntypes);
	if (r->pruning) {
		uint32_t *locs = pt_xreallocarray(NULL, ps->nloc + 1, sizeof(uint32_t));
		for (j = 0; j < ps->nloc; j++) {
			locs[j] = loc_index(r, ps->loc[j]);
			if (locs[j] == UINT32_MAX)
				break;
		}
		if (j == ps->nloc)
			first = prune_sample(r, locs, j);
		free(locs);
	}
	for (j = first; j < ps->nloc; j++) {
		uint32_t loc = loc_index(r, ps->loc[j]);
		size_t len, start;
		if (loc == UINT32_MAX)
			return pt_diag_error_at(r->d, off,
						"sample refers to location id %" PRIu64
						", which does not exist",
						ps->loc[j]);
		start = r->loc_start[loc] + (r->pruning ? r->loc_cut[loc] : 0);
		len = r->loc_start[loc + 1] - start;
		PT_ALLOC_GROW(r->stack, n + len, r->stack_alloc);
		if (len == 1) /* the common case: no inlined frames, no call to memcpy */
			r->stack[n] = r->loc_frames[start];
		else
			memcpy(r->stack + n, r->loc_frames + start, len * sizeof(*r->stack));
		n += len;
	}
	if (sample_labels(r, off, &ls) < 0)
		return -1;
	/* read as int64_t, the signed type of the same width (C11 6.5p7) */
	pt_sink_sample(r->sink, r->hp, r->stack, n, 1, ls, (const int64_t *)ps->val, 0);
	return 0;
}

/* decode the samples one at a time from their places in the input */
static int read_samples(struct reader *r)
{
	size_t i;
	int ret = 0;

	index_locations(r);
	pt_sink_frames_complete(r->sink, r->hp);
	for (i = 0; i < r->s->ntop && ret == 0; i++) {
		const struct top_field *t = &r->s->top[i];
		if (t->f != 2)
			continue;
		if (!decode_sample(r, r->b, t->pos, t->pos + (size_t)t->v))
			ret = pt_diag_error_at(r->d, where(r, t), "could not decode this sample");
		else
			ret = read_sample(r, where(r, t));
	}
	return ret;
}

/* The Profile's scalar fields into v[f], its comments into *comments, and its
 * period_type into pt. A field given twice keeps its last value, period_type too (as
 * protobuf-c decodes it: the last message whole, not merged). */
static int read_scalars(struct reader *r, uint64_t v[16], uint64_t pt[2], uint64_t **comments,
			size_t *ncomments)
{
	size_t i, alloc = 0;

	memset(v, 0, 16 * sizeof(*v));
	pt[0] = pt[1] = 0;
	for (i = 0; i < r->s->ntop; i++) {
		const struct top_field *t = &r->s->top[i];
		size_t at = t->pos;
		uint64_t x[2];

		if (t->f == 13) {
			if (!add_numbers(r->b, &at, t->wt, t->v, comments, ncomments, &alloc))
				return pt_diag_error_at(r->d, where(r, t),
							"could not decode the comments");
		} else if (t->f == 11) {
			if (decode_top(r, t, x, 2, "period_type") < 0)
				return -1;
			pt[0] = x[0];
			pt[1] = x[1];
		} else if (t->wt == 0) {
			v[t->f] = t->v;
		}
	}
	return 0;
}

/* the sample types, each a ValueType */
static int read_types(struct reader *r)
{
	struct pt_profile *p = r->hp;
	uint64_t off = r->s->base;
	uint32_t name = 0, unit = 0;
	size_t i;

	r->ntypes = r->s->count[1];
	if (r->ntypes > PT_MAX_TYPES)
		return pt_diag_error_at(r->d, off, "%zu sample types (at most %d are read)",
					r->ntypes, PT_MAX_TYPES);
	for (i = 0; i < r->s->ntop; i++) {
		const struct top_field *t = &r->s->top[i];
		uint64_t v[2];

		if (t->f != 1)
			continue;
		if (decode_top(r, t, v, 2, "sample_type") < 0 ||
		    str_at(r, (int64_t)v[0], off, "sample_type type", &name) < 0 ||
		    str_at(r, (int64_t)v[1], off, "sample_type unit", &unit) < 0)
			return -1;
		pt_profile_add_type(p, pt_s(r->p, name), pt_s(r->p, unit));
	}
	return 0;
}

static int read_header(struct reader *r)
{
	struct pt_profile *p = r->hp;
	uint64_t off = r->s->base, v[16], pt[2], *comments = NULL;
	uint32_t s = 0;
	size_t i, ncomments = 0;
	int ret = -1;

	if (read_types(r) < 0 || read_scalars(r, v, pt, &comments, &ncomments) < 0)
		goto out;
	/* pprof's default: default_sample_type if it names a type, else the last type */
	p->default_type = p->ntypes ? p->ntypes - 1 : 0;
	if (str_at(r, (int64_t)v[14], r->s->field_at[14], "default_sample_type", &s) < 0)
		goto out;
	if ((s = hstr(r, s)))
		for (i = 0; i < p->ntypes; i++)
			if (p->types[i].name == s) {
				p->default_type = (uint32_t)i;
				break;
			}
	if (str_at(r, (int64_t)pt[0], off, "period_type type", &p->period_type.name) < 0 ||
	    str_at(r, (int64_t)pt[1], off, "period_type unit", &p->period_type.unit) < 0)
		goto out;
	p->period_type.name = hstr(r, p->period_type.name);
	p->period_type.unit = hstr(r, p->period_type.unit);
	p->period = (int64_t)v[12];
	p->time_nanos = (int64_t)v[9];
	/* a varint past int64 reads as negative: no duration, not a negative one */
	p->duration_nanos = (int64_t)v[10] > 0 ? (int64_t)v[10] : 0;
	if (str_at(r, (int64_t)v[7], r->s->field_at[7], "drop_frames", &p->drop_frames) < 0 ||
	    str_at(r, (int64_t)v[8], r->s->field_at[8], "keep_frames", &p->keep_frames) < 0 ||
	    str_at(r, (int64_t)v[15], off, "doc_url", &s) < 0)
		goto out;
	p->drop_frames = hstr(r, p->drop_frames);
	p->keep_frames = hstr(r, p->keep_frames);
	if (s)
		pt_profile_add_meta(p, "doc_url", pt_s(r->p, s));
	for (i = 0; i < ncomments; i++) {
		if (str_at(r, (int64_t)comments[i], off, "comment", &s) < 0)
			goto out;
		pt_profile_add_comment(p, pt_s(r->p, s));
	}
	ret = 0;
out:
	free(comments);
	return ret;
}

/* the id tables, empty, under keys from the profile's (no system call) */
static void ids_start(struct reader *r)
{
	struct pt_hash_key k;

	pt_hash_key_derive(&r->hp->key, 8, &k);
	ids_init(&r->funcs, &k);
	pt_hash_key_derive(&r->hp->key, 9, &k);
	ids_init(&r->mappings, &k);
	pt_hash_key_derive(&r->hp->key, 10, &k);
	pt_map_init_key(&r->locs, &k);
}

/* the tables after the header: 0, -1, or 1 when an append must read plain */
static int read_tables(struct reader *r)
{
	const struct pt_profile *hp = r->hp;

	/* pprof's pruning looks its functions up by the input's own ids */
	if (hp != r->p && hp->drop_frames && pt_intern_len(&hp->strings, hp->drop_frames))
		return 1;
	ids_dense(&r->funcs, r->s->count[5]);
	ids_dense(&r->mappings, r->s->count[3]);
	if (read_mappings(r) < 0 || read_functions(r) < 0 || prune_init(r, r->s->base) < 0)
		return -1;
	return read_locations(r);
}

/* An append that read_tables turned back reads plain from the strings on, into the
 * profile the header went to (its strings get the same ids again); what the append
 * made in the merge's result is never used. */
static int read_plain(struct reader *r, const struct pt_read_opts *o)
{
	ids_release(&r->funcs);
	ids_release(&r->mappings);
	pt_map_release(&r->locs);
	ids_start(r);
	free(r->strs);
	free(r->loc_start);
	free(r->loc_ids);
	free(r->loc_nline);
	r->strs = NULL;
	r->loc_start = NULL;
	r->loc_ids = NULL;
	r->loc_nline = NULL;
	r->p = r->hp;
	r->sink = o->sink;
	if (read_strings(r) < 0)
		return -1;
	return read_tables(r);
}

static int pprof_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
		      struct pt_diag *d)
{
	struct scan s;
	struct reader r;
	const unsigned char *data = NULL;
	size_t len = 0;
	int ret = -1, t = 0;

	memset(&s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	r.hp = p;
	ids_start(&r);
	s.base = pt_input_tell(in);
	s.d = d;
	if (scan_input(&s, in, &data, &len) < 0)
		goto out;
	r.p = o->append ? o->append->dst : p;
	r.sink = o->append ? o->append->sink : o->sink;
	r.d = d;
	r.s = &s;
	r.b = data;
	r.nlocs = s.count[4];
	if (read_strings(&r) < 0 || read_header(&r) < 0 || (t = read_tables(&r)) < 0 ||
	    (t > 0 && read_plain(&r, o) < 0) || read_samples(&r) < 0)
		goto out;
	ret = 0;
out:
	free(r.strs);
	free(r.loc_ids);
	free(r.loc_nline);
	free(r.lines);
	free(r.loc_frames);
	free(r.loc_start);
	free(r.loc_dense);
	free(r.stack);
	free(r.labels);
	for (t = 0; t < LABEL_MEMOS; t++)
		free(r.memo[t].v);
	free(r.sm.loc);
	free(r.sm.val);
	free(r.sm.lab);
	pt_pattern_free(r.drop);
	pt_pattern_free(r.keep);
	free(r.func_drops);
	free(r.loc_prune);
	free(r.loc_cut);
	pt_buf_release(&r.name);
	ids_release(&r.funcs);
	ids_release(&r.mappings);
	pt_map_release(&r.locs);
	scan_release(&s);
	return ret;
}

/* ---- writing ---- */

/* The writer encodes the Profile message itself, straight into one buffer that goes to
 * stdio (or through deflate) in blocks as it fills: protobuf-c's structs for every
 * sample, and the whole packed message before the first byte went out, cost more time
 * and memory than the encoding. The bytes are the ones protobuf-c packs: fields in
 * field-number order, proto3 zeros left out, repeated numbers packed, negative numbers
 * in ten bytes, strings up to their first NUL. */

#define WIRE_VARINT 0
#define WIRE_LEN    2
/* a field's key; every field number here is below 16, so a key is one byte */
#define KEY(field, wire) ((unsigned char)((field) << 3 | (wire)))
/* the longest varint, and a key plus a length before a message */
#define VARINT_MAX   10
#define VARINT32_MAX 5
#define HEAD_MAX     (1 + VARINT_MAX)

/* field numbers from formats/profile.proto */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_DROP_FRAMES = 7,
	PROFILE_KEEP_FRAMES = 8,
	PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	PROFILE_DOC_URL = 15,
	SAMPLE_LOCATION_ID = 1,
	SAMPLE_VALUE = 2,
	SAMPLE_LABEL = 3,
	LOCATION_LINE = 4,
	LOCATION_IS_FOLDED = 5,
};

/* 7 bits a byte: (bits * 9 + 64) / 64 bytes for bits = 1 + log2(v), without dividing */
static inline size_t varint_len(uint64_t v)
{
	return ((size_t)(63 - __builtin_clzll(v | 1)) * 9 + 73) / 64;
}

static inline unsigned char *put_varint(unsigned char *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (unsigned char)v;
	return o;
}

/* A message of varint fields numbered 1..n (ValueType, Label, Mapping, Line, Function):
 * its length, and its bytes at o. A zero is left out (proto3); an int64 is its two's
 * complement, a bool 0 or 1. */
static size_t fields_len(const uint64_t *v, unsigned n)
{
	size_t len = 0;
	unsigned i;
	for (i = 0; i < n; i++)
		if (v[i])
			len += 1 + varint_len(v[i]);
	return len;
}

static unsigned char *put_fields(unsigned char *o, const uint64_t *v, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		if (v[i]) {
			*o++ = KEY(i + 1, WIRE_VARINT);
			o = put_varint(o, v[i]);
		}
	return o;
}

/* zlib, opened when a profile is written gzipped (util/dynlib.h): its calls, as
 * X(member, function); deflateInit2 is a macro for deflateInit2_ */
#define DEFLATE_CALLS(X)                                                                           \
	X(init2, deflateInit2_)                                                                    \
	X(deflate, deflate)                                                                        \
	X(end, deflateEnd)
struct deflate_api {
	DEFLATE_CALLS(PT_DYNLIB_MEMBER)
};
static const char *const deflate_names[] = {DEFLATE_CALLS(PT_DYNLIB_NAME)};

/* Where the bytes go: b fills up and is handed on a block at a time, to stdio or
 * through deflate, whose output goes to stdio in its own blocks. stdio keeps a write
 * error for the caller; a deflate error is kept in zfailed. */
struct sink {
	struct pt_buf b;
	FILE *out;
	int gzip, zfailed;
	z_stream zs;
	void *zlib; /* once opened, for gzip */
	struct deflate_api zf;
};

/* open zlib into s's table; 0, or -1 with the error in d */
static int sink_load_zlib(struct sink *s, struct pt_diag *d)
{
	void *fns[sizeof(deflate_names) / sizeof(deflate_names[0])];
	struct deflate_api *api = &s->zf;
	char err[256];
	size_t i = 0;

	s->zlib =
		pt_dynlib_open(PT_ZLIB_SONAME, "zlib1g", deflate_names, fns,
			       sizeof(deflate_names) / sizeof(deflate_names[0]), err, sizeof(err));
	if (!s->zlib)
		return pt_diag_error(d, "%s", err);
	DEFLATE_CALLS(PT_DYNLIB_SET)
	return 0;
}

/* room for n more bytes at the end of the buffer; sink_done(s, end) then says where
 * the bytes written there end */
static inline unsigned char *sink_room(struct sink *s, size_t n)
{
	pt_buf_grow(&s->b, n);
	return (unsigned char *)s->b.buf + s->b.len;
}

static inline void sink_done(struct sink *s, const unsigned char *end)
{
	pt_buf_setlen(&s->b, (size_t)((const char *)end - s->b.buf));
}

/* hand on all the buffer holds; with finish, end the gzip stream too. The deflated
 * bytes do not depend on how the input is cut into calls (no flush but the last). */
static void sink_flush(struct sink *s, int finish)
{
	unsigned char chunk[65536];
	unsigned char *in = (unsigned char *)s->b.buf;
	size_t len = s->b.len;
	int zr;

	if (!s->gzip) {
		pt_buf_write_out(&s->b, s->out, 0);
		return;
	}
	do {
		size_t take = len > UINT32_MAX ? UINT32_MAX : len;
		s->zs.next_in = in;
		s->zs.avail_in = (uInt)take;
		in += take;
		len -= take;
		do {
			s->zs.next_out = chunk;
			s->zs.avail_out = sizeof(chunk);
			zr = s->zf.deflate(&s->zs, finish && !len ? Z_FINISH : Z_NO_FLUSH);
			if (zr == Z_STREAM_ERROR)
				s->zfailed = 1;
			fwrite(chunk, 1, sizeof(chunk) - s->zs.avail_out, s->out);
		} while (s->zs.avail_out == 0);
	} while (len);
	if (finish && zr != Z_STREAM_END)
		s->zfailed = 1;
	pt_buf_reset(&s->b);
}

/* after each message: hand on a full block */
static inline void sink_next(struct sink *s)
{
	if (s->b.len >= PT_BUF_BLOCK)
		sink_flush(s, 0);
}

/* a message of varint fields 1..n as field `field` */
static void put_msg(struct sink *s, unsigned field, const uint64_t *v, unsigned n)
{
	size_t len = fields_len(v, n);
	unsigned char *o = sink_room(s, HEAD_MAX + len);
	*o++ = KEY(field, WIRE_LEN);
	o = put_varint(o, len);
	sink_done(s, put_fields(o, v, n));
	sink_next(s);
}

/* a varint field of the Profile, left out when 0 */
static void put_varint_field(struct sink *s, unsigned field, uint64_t v)
{
	unsigned char *o;
	if (!v)
		return;
	o = sink_room(s, HEAD_MAX);
	*o++ = KEY(field, WIRE_VARINT);
	sink_done(s, put_varint(o, v));
}

struct writer {
	const struct pt_profile *p;
	struct pt_arena arena;
	/* frame-id sequences -> location id: location ids are the intern ids, from 1 */
	struct pt_intern loc_keys;
	uint32_t nlocs; /* ids below are made (and their mappings marked) */
	unsigned char *func_used, *mapping_used;
	/* per frame, the location of it alone, 0 until met: most locations are one frame,
	 * and a stack's frames are mostly met before */
	uint32_t *loc_of_frame;
	struct sink s;
};

/* A frame whose name only stands for its address (a pprof location without lines, as
 * our reader names it) is written back without lines; any other frame without a symbol
 * (perf's "[libc.so.6]") keeps its name as a function. */
static int name_is_address(const struct pt_profile *p, const struct pt_frame *fr)
{
	char name[32];
	if (!(fr->flags & PT_FRAME_NO_SYMBOL))
		return 0;
	snprintf(name, sizeof(name), "0x%" PRIx64, fr->addr);
	return !strcmp(pt_s(p, p->funcs[fr->func].name), name);
}

/* location id for frames f[0..n) (innermost first, all at one address); the location
 * itself is written after the samples (and marks the functions of its lines then) */
static uint32_t location_for(struct writer *w, const uint32_t *f, size_t n)
{
	const struct pt_profile *p = w->p;
	uint32_t id = pt_intern(&w->loc_keys, f, n * sizeof(*f));

	if (id < w->nlocs)
		return id;
	w->nlocs = id + 1;
	w->mapping_used[p->frames[f[n - 1]].mapping] = 1;
	return id;
}

/* the frame at index j of a location's key (unaligned bytes in the arena) */
static uint32_t key_frame(const char *key, size_t j)
{
	uint32_t f;
	memcpy(&f, key + j * sizeof(f), sizeof(f));
	return f;
}

static void line_fields(const struct pt_frame *g, uint64_t v[3])
{
	v[0] = g->func;
	v[1] = (uint64_t)g->line;
	v[2] = (uint64_t)g->column;
}

/* Location `id`: address and mapping from its frames, a Line per frame unless the
 * name only stands for the address */
static void put_location(struct writer *w, uint32_t id)
{
	const struct pt_profile *p = w->p;
	const char *key = pt_intern_str(&w->loc_keys, id);
	size_t n = pt_intern_len(&w->loc_keys, id) / sizeof(uint32_t), nlines, j, len;
	const struct pt_frame *fr = &p->frames[key_frame(key, 0)];
	uint64_t head[3], line[3];
	int folded = (fr->flags & PT_FRAME_FOLDED) != 0;
	unsigned char *o;

	head[0] = id;
	head[1] = p->frames[key_frame(key, n - 1)].mapping;
	head[2] = fr->addr;
	nlines = n == 1 && name_is_address(p, fr) ? 0 : n;
	len = fields_len(head, 3) + (folded ? 2 : 0);
	for (j = 0; j < nlines; j++) {
		size_t l;
		line_fields(&p->frames[key_frame(key, j)], line);
		l = fields_len(line, 3);
		len += 1 + varint_len(l) + l;
	}
	o = sink_room(&w->s, HEAD_MAX + len);
	*o++ = KEY(PROFILE_LOCATION, WIRE_LEN);
	o = put_varint(o, len);
	o = put_fields(o, head, 3);
	for (j = 0; j < nlines; j++) {
		line_fields(&p->frames[key_frame(key, j)], line);
		w->func_used[line[0]] = 1;
		*o++ = KEY(LOCATION_LINE, WIRE_LEN);
		o = put_varint(o, fields_len(line, 3));
		o = put_fields(o, line, 3);
	}
	if (folded) {
		*o++ = KEY(LOCATION_IS_FOLDED, WIRE_VARINT);
		*o++ = 1;
	}
	sink_done(&w->s, o);
	sink_next(&w->s);
}

/* an inlined frame shares its location with its caller when both sit at one address */
static int same_location(const struct pt_frame *inner, const struct pt_frame *outer)
{
	return (inner->flags & PT_FRAME_INLINED) && !(inner->flags & PT_FRAME_NO_SYMBOL) &&
	       !(outer->flags & PT_FRAME_NO_SYMBOL) && inner->addr == outer->addr &&
	       inner->mapping == outer->mapping;
}

/* the stack of the row last written, root first, as far as it is known; without
 * inlined frames also each frame's location and where its varint starts, counted back
 * from the end of the packed location ids (see pprof_write) */
struct path_entry {
	uint32_t node, frame, loc;
	size_t back;
};

/* how far ahead of the row written the memory of a row's nodes is fetched: one row
 * ahead came too late, four took a tenth off the writer's time */
#define PREFETCH_ROWS 4

/* the location of frame f alone */
static inline uint32_t frame_location(struct writer *w, uint32_t f)
{
	uint32_t *lf = &w->loc_of_frame[f];
	if (!*lf)
		*lf = location_for(w, &f, 1);
	return *lf;
}

static int row_is_zero(const struct pt_profile *p, uint32_t row)
{
	uint32_t t;
	for (t = 0; t < p->ntypes; t++)
		if (p->sample_values[(size_t)row * p->ntypes + t])
			return 0;
	return 1;
}

/* a Label's fields: a string label has no number (nor unit) */
static const uint64_t *label_fields(const struct pt_label *l, uint64_t v[4])
{
	v[0] = l->key;
	v[1] = l->str;
	v[2] = l->str ? 0 : (uint64_t)l->num;
	v[3] = l->str ? 0 : l->num_unit;
	return v;
}

/* One Sample: the location ids (innermost first) packed in locs[0..loclen), the row's
 * nv values and its labels. */
static void put_sample(struct sink *s, const unsigned char *locs, size_t loclen, const int64_t *v,
		       uint32_t nv, const struct pt_labelset *ls)
{
	size_t vlen = 0, len = 0, i;
	uint64_t lab[4];
	unsigned char *o;

	for (i = 0; i < nv; i++)
		vlen += varint_len((uint64_t)v[i]);
	if (loclen)
		len += 1 + varint_len(loclen) + loclen;
	if (nv)
		len += 1 + varint_len(vlen) + vlen;
	for (i = 0; i < ls->n; i++) {
		size_t l = fields_len(label_fields(&ls->v[i], lab), 4);
		len += 1 + varint_len(l) + l;
	}
	o = sink_room(s, HEAD_MAX + len);
	*o++ = KEY(PROFILE_SAMPLE, WIRE_LEN);
	o = put_varint(o, len);
	if (loclen) {
		*o++ = KEY(SAMPLE_LOCATION_ID, WIRE_LEN);
		o = put_varint(o, loclen);
		memcpy(o, locs, loclen);
		o += loclen;
	}
	if (nv) {
		*o++ = KEY(SAMPLE_VALUE, WIRE_LEN);
		o = put_varint(o, vlen);
		for (i = 0; i < nv; i++)
			o = put_varint(o, (uint64_t)v[i]);
	}
	for (i = 0; i < ls->n; i++) {
		label_fields(&ls->v[i], lab);
		*o++ = KEY(SAMPLE_LABEL, WIRE_LEN);
		o = put_varint(o, fields_len(lab, 4));
		o = put_fields(o, lab, 4);
	}
	sink_done(s, o);
	sink_next(s);
}

/* the Profile's fields after the samples and locations' own */
static void put_mappings_functions(struct writer *w)
{
	const struct pt_profile *p = w->p;
	uint64_t v[10];
	uint32_t i, k, main = pt_profile_main_mapping(p);

	/* the main binary first, as profile.proto asks (mapping[0]) and go tool pprof reads
	 * it (its "File:"), the others in id order */
	for (k = 0; k < p->nmappings; k++) {
		const struct pt_mapping *m;
		i = k ? k : main;
		if (!i || (k && k == main) || !w->mapping_used[i])
			continue;
		m = &p->mappings[i];
		v[0] = i;
		v[1] = m->start;
		v[2] = m->limit;
		v[3] = m->offset;
		v[4] = m->file;
		v[5] = m->build_id;
		v[6] = (m->flags & PT_MAPPING_HAS_FUNCTIONS) != 0;
		v[7] = (m->flags & PT_MAPPING_HAS_FILENAMES) != 0;
		v[8] = (m->flags & PT_MAPPING_HAS_LINE_NUMBERS) != 0;
		v[9] = (m->flags & PT_MAPPING_HAS_INLINE_FRAMES) != 0;
		put_msg(&w->s, PROFILE_MAPPING, v, 10);
	}
	for (i = 1; i < w->nlocs; i++)
		put_location(w, i);
	for (i = 1; i < p->nfuncs; i++) {
		const struct pt_func *f = &p->funcs[i];
		if (!w->func_used[i])
			continue;
		v[0] = i;
		v[1] = f->name;
		v[2] = f->system_name;
		v[3] = f->file;
		v[4] = (uint64_t)f->start_line;
		put_msg(&w->s, PROFILE_FUNCTION, v, 5);
	}
}

/* string_table and the single fields after it */
static void put_tail(struct sink *s, const struct pt_profile *p, const struct pt_write_opts *opts)
{
	uint64_t vt[2], doc_url = 0;
	unsigned char *o;
	size_t len;
	uint32_t i, dt;

	for (i = 0; i < p->strings.n; i++) {
		const char *str = pt_s(p, i);
		len = pt_intern_len(&p->strings, i);
		o = sink_room(s, HEAD_MAX + len);
		*o++ = KEY(PROFILE_STRING_TABLE, WIRE_LEN);
		o = put_varint(o, len);
		memcpy(o, str, len);
		sink_done(s, o + len);
		sink_next(s);
	}
	put_varint_field(s, PROFILE_DROP_FRAMES, p->drop_frames);
	put_varint_field(s, PROFILE_KEEP_FRAMES, p->keep_frames);
	put_varint_field(s, PROFILE_TIME_NANOS, (uint64_t)p->time_nanos);
	put_varint_field(s, PROFILE_DURATION_NANOS, (uint64_t)p->duration_nanos);
	if (p->period_type.name || p->period_type.unit) {
		vt[0] = p->period_type.name;
		vt[1] = p->period_type.unit;
		put_msg(s, PROFILE_PERIOD_TYPE, vt, 2);
	}
	put_varint_field(s, PROFILE_PERIOD, (uint64_t)p->period);
	if (p->ncomments) {
		for (len = 0, i = 0; i < p->ncomments; i++)
			len += varint_len(p->comments[i]);
		o = sink_room(s, HEAD_MAX + len);
		*o++ = KEY(PROFILE_COMMENT, WIRE_LEN);
		o = put_varint(o, len);
		for (i = 0; i < p->ncomments; i++)
			o = put_varint(o, p->comments[i]);
		sink_done(s, o);
	}
	/* pprof's default is the last type; say so only when it is another one */
	dt = opts->type >= 0 ? (uint32_t)opts->type : p->default_type;
	if (dt < p->ntypes && dt + 1 != p->ntypes)
		put_varint_field(s, PROFILE_DEFAULT_SAMPLE_TYPE, p->types[dt].name);
	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(pt_s(p, p->meta[i].key), "doc_url"))
			doc_url = p->meta[i].value;
	put_varint_field(s, PROFILE_DOC_URL, doc_url);
}

static int pprof_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *out,
		       struct pt_diag *d)
{
	struct writer w;
	struct sink *s = &w.s;
	uint32_t *frames = NULL, row, i;
	size_t frames_alloc = 0, enc_alloc = 0;
	unsigned char *enc = NULL; /* the packed location ids of a sample */
	struct path_entry *path = NULL;
	size_t path_alloc = 0;
	uint32_t pathlen = 0;
	uint64_t vt[2];
	int ret = 0, any_inline = 0;

	if (pt_profile_need_stacks(p, "write pprof", d) < 0)
		return -1;
	memset(&w, 0, sizeof(w));
	s->gzip = !(o->flags & PT_WRITE_NO_GZIP);
	if (s->gzip && sink_load_zlib(s, d) < 0)
		return -1;
	w.p = p;
	pt_arena_init(&w.arena);
	pt_intern_init(&w.loc_keys, &w.arena);
	w.nlocs = 1; /* intern id 0 is the empty key: location ids are the intern ids */
	w.func_used = pt_xcalloc(p->nfuncs, 1);
	w.mapping_used = pt_xcalloc(p->nmappings, 1);
	w.loc_of_frame = pt_xcalloc(p->nframes, sizeof(uint32_t));
	pt_buf_init(&s->b);
	s->out = out;
	/* level 1, as Go's runtime/pprof writes (gzip.BestSpeed): the default level took
	 * several times longer than building the profile, for about 10% smaller files */
	if (s->gzip && s->zf.init2(&s->zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
				   ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK) {
		s->gzip = 0;
		ret = pt_diag_error(d, "cannot start gzip compression");
		goto out;
	}
	/* without inlined frames every location is one frame */
	for (i = 1; i < p->nframes; i++)
		any_inline |= (p->frames[i].flags & PT_FRAME_INLINED) != 0;

	for (i = 0; i < p->ntypes; i++) {
		vt[0] = p->types[i].name;
		vt[1] = p->types[i].unit;
		put_msg(s, PROFILE_SAMPLE_TYPE, vt, 2);
	}

	/* samples: one per row (node, labels); all-zero rows say nothing */
	for (row = 0; row < p->nsamples; row++) {
		const struct pt_sample *r = &p->samples[row];
		size_t n = 0, loclen = 0, a, b;
		uint32_t node, depth, nd, meet = 0;
		unsigned char *locs;

		/* A row's nodes were mostly made together, its leaf last: fetch the memory
		 * below the leaf of a row a few ahead while this one is written (a guess,
		 * harmless when wrong; walking up the tree otherwise waits on each parent). */
		if (row + PREFETCH_ROWS < p->nsamples) {
			const char *nx =
				(const char *)&p->nodes[p->samples[row + PREFETCH_ROWS].node];
			int k;
			for (k = 0; k < 16; k++)
				__builtin_prefetch(nx - 64 * k);
		}
		if (row_is_zero(p, row))
			continue;
		/* the stack, root first, from the previous one's: walk up only to where the
		 * two meet (rows often follow one another in the tree). Location ids are
		 * given out innermost first. A parent is one level up, so the depth is
		 * counted, not loaded: the loads of a node wait on the one before. */
		depth = p->nodes[r->node].depth;
		PT_ALLOC_GROW(path, (size_t)depth + 1, path_alloc);
		path[0].back = 0;
		for (node = r->node, nd = depth; nd; node = p->nodes[node].parent, nd--) {
			if (nd <= pathlen && path[nd].node == node) {
				meet = nd;
				break;
			}
			path[nd].node = node;
			path[nd].frame = p->nodes[node].frame;
			if (!any_inline)
				path[nd].loc = frame_location(&w, path[nd].frame);
		}
		pathlen = depth;
		if (enc_alloc < VARINT32_MAX * ((size_t)depth + 1)) {
			/* keep the packed ids of the frames up to `meet` at the end */
			size_t keep = any_inline ? 0 : path[meet].back,
			       na = VARINT32_MAX * ((size_t)depth + 1);
			unsigned char *ne;
			na = na < 2 * enc_alloc ? 2 * enc_alloc : na;
			ne = pt_xmalloc(na);
			if (keep)
				memcpy(ne + na - keep, enc + enc_alloc - keep, keep);
			free(enc);
			enc = ne;
			enc_alloc = na;
		}
		if (!any_inline) {
			/* A location per frame. The packed ids, innermost first, end at the
			 * end of enc, so the rootmost ones, shared with the stack before, are
			 * still there: only the frames below `meet` are encoded. */
			unsigned char *end = enc + enc_alloc;
			loclen = path[meet].back;
			for (a = meet + 1; a <= depth; a++) {
				loclen += varint_len(path[a].loc);
				path[a].back = loclen;
				put_varint(end - loclen, path[a].loc);
			}
			locs = end - loclen;
		} else {
			unsigned char *q = enc;
			PT_ALLOC_GROW(frames, (size_t)depth + 1, frames_alloc);
			for (a = depth; a > 0; a--)
				frames[n++] = path[a].frame;
			for (a = 0; a < n; a = b) {
				for (b = a + 1; b < n && same_location(&p->frames[frames[b - 1]],
								       &p->frames[frames[b]]);
				     b++)
					;
				q = put_varint(q, location_for(&w, frames + a, b - a));
			}
			loclen = (size_t)(q - enc);
			locs = enc;
		}
		put_sample(s, locs, loclen, p->sample_values + (size_t)row * p->ntypes, p->ntypes,
			   &p->labelsets[r->labels]);
	}
	put_mappings_functions(&w);
	put_tail(s, p, o);
	sink_flush(s, 1);
	if (s->zfailed)
		ret = pt_diag_error(d, "gzip compression failed");

out:
	if (s->gzip)
		s->zf.end(&s->zs);
	pt_dynlib_close(s->zlib);
	pt_buf_release(&s->b);
	free(frames);
	free(enc);
	free(w.func_used);
	free(w.mapping_used);
	free(w.loc_of_frame);
	free(path);
	pt_intern_release(&w.loc_keys);
	pt_arena_release(&w.arena);
	return ret;
}

static const char *const pprof_suffixes[] = {".pb.gz", ".pprof", ".pb", NULL};

const struct pt_format pt_format_pprof = {
	.name = "pprof",
	.description = "pprof profile.proto, gzipped or raw (go tool pprof, runtime/pprof)",
	.suffixes = pprof_suffixes,
	.detect = pprof_detect,
	.read = pprof_read,
	.addresses = 1,
	.write = pprof_write,
	.write_opts = PT_WOPTS_GZIP,
	.binary = 1,
	.save_types = 1,
};
