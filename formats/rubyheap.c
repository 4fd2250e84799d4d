/* rubyheap.c: Ruby heap dumps (ObjectSpace.dump_all's JSON lines, Ruby 2.7 to 3.3) read
 * into the heap graph that `proftool heap` summarizes: one node per object, its
 * references as edges, and a synthetic root whose edges are the ROOT lines' references. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "formats/format.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/json.h"
#include "util/map.h"
#include "util/text.h"
#include "util/xalloc.h"

/* how deeply a line's values may nest (a "flags" object is one level) */
#define RB_MAX_DEPTH 64

/* Where the objects are kept: in the graph's own arrays, so that the graph is made in
 * place and not copied from the reader's. Object k (index k in the address map, in the
 * order the dump first names it) is node slot k + 1 (slot 0 is the root): its record in
 * g->nodes, g->rb_addr, g->rb_site, g->rb_gen and g->rb_pinned. Until the graph is
 * built, a record holds what the reader read, not the graph's fields:
 *   defined:   type intern id, "name" intern id (UINT32_MAX: none), 1 + the index of
 *              its class's object (0: none), memsize, its number of references;
 *   undefined: the line that first referenced it (0: none) in the first two words;
 *              nothing else of it is read.
 * Beside them, per object: its RB_* bits (st) and where its references start in refs
 * (first). build() turns the records into nodes where they stand and, when some
 * objects were only referenced, moves the defined ones down over them. */
enum { RB_TYPE, RB_NAME, RB_CLS, RB_SELF, RB_NREFS, RB_NF };

/* The address map: address -> object index, the reader's most frequent lookup (every
 * object's address and class and every reference). Ruby keeps objects in 64 KiB heap
 * pages, dumps a page's objects together and in address order, and an object's
 * references are mostly to objects allocated near it. So the map has two levels: a
 * table of pages (keyed SipHash, as every table fed ids from the input) behind a small
 * cache of the pages used last, and per page an open-addressing table of the offsets in
 * it, which stays in cache while its page is read. The in-page hash multiplies by a
 * random odd 64-bit number and keeps the top bits: offsets are 16 bits, so the product
 * spreads them over the slots whatever their spacing, and a writer who cannot see the
 * number cannot choose offsets that collide. The offsets of a page's objects are evenly
 * spaced (its slot size), which such a product spreads evenly: a table grows only past
 * 7/8 full, so a page of 40-byte slots (1,638 objects) fits 2,048 slots, not 4,096. */
#define RB_PAGE_SHIFT 16
#define RB_RECENT     64

struct rb_slot {
	uint32_t key; /* offset in the page + 1, 0: empty; RB_SETTLED may be added */
	uint32_t val;
};
/* set in a slot's key once its object is defined or has the line of a reference, so a
 * reference to it needs no look at the object */
#define RB_SETTLED 0x80000000u

#define RB_DEF	1 /* defined by its own line */
#define RB_REFD 2 /* referenced by another defined object */
#define RB_MARK 4 /* reached from the roots (add_unreached) */

struct rb_page {
	struct rb_slot *slot;
	uint32_t n, mask, shift; /* shift: 64 - log2(mask + 1) */
};

struct rb_addrmap {
	struct pt_map pages; /* address >> RB_PAGE_SHIFT -> index in page */
	struct rb_page *page;
	size_t npages, pages_alloc;
	uint64_t mult; /* random and odd: the in-page hash */
	struct {
		uint64_t key; /* (address >> RB_PAGE_SHIFT) + 1; 0: empty */
		uint32_t pg;
	} recent[RB_RECENT];
};

static void addrmap_init(struct rb_addrmap *m)
{
	struct pt_hash_key k, pk;

	memset(m, 0, sizeof(*m));
	pt_hash_key_init(&k);
	pt_hash_key_derive(&k, 1, &pk);
	pt_map_init_key(&m->pages, &pk);
	m->mult = pt_hash_u64(&k, 0) | 1;
}

static void addrmap_release(struct rb_addrmap *m)
{
	size_t i;

	for (i = 0; i < m->npages; i++)
		free(m->page[i].slot);
	free(m->page);
	pt_map_release(&m->pages);
	memset(m, 0, sizeof(*m));
}

static void page_alloc(struct rb_page *p, uint32_t bits)
{
	p->slot = pt_xcalloc((size_t)1 << bits, sizeof(*p->slot));
	p->mask = ((uint32_t)1 << bits) - 1;
	p->shift = 64 - bits;
}

static struct rb_page *addrmap_page(struct rb_addrmap *m, uint64_t a)
{
	uint64_t key = (a >> RB_PAGE_SHIFT) + 1;
	unsigned c = (unsigned)key & (RB_RECENT - 1);
	uint32_t *pg;

	if (m->recent[c].key == key)
		return &m->page[m->recent[c].pg];
	pg = pt_map_put(&m->pages, key);
	if (*pg == PT_MAP_NEW) {
		*pg = (uint32_t)m->npages;
		PT_ALLOC_GROW(m->page, m->npages + 1, m->pages_alloc);
		m->page[m->npages].n = 0;
		page_alloc(&m->page[m->npages++], 3);
	}
	m->recent[c].key = key;
	m->recent[c].pg = *pg;
	return &m->page[*pg];
}

static struct rb_slot *page_find(const struct rb_addrmap *m, const struct rb_page *p, uint32_t key)
{
	uint32_t i = (uint32_t)((key * m->mult) >> p->shift);

	while (p->slot[i].key && (p->slot[i].key & ~RB_SETTLED) != key)
		i = (i + 1) & p->mask;
	return &p->slot[i];
}

/* the slot of address a; a new one has the value PT_MAP_NEW, which the caller
 * overwrites (with a value below it). Valid until the next call. */
static struct rb_slot *addrmap_put(struct rb_addrmap *m, uint64_t a)
{
	struct rb_page *p = addrmap_page(m, a);
	uint32_t key = (uint32_t)(a & ((1u << RB_PAGE_SHIFT) - 1)) + 1;
	struct rb_slot *s = page_find(m, p, key);

	if (s->key)
		return s;
	if ((p->n + 1) * 8 > (p->mask + 1) * 7) {
		struct rb_page old = *p;
		uint32_t j;
		page_alloc(p, 64 - old.shift + 1);
		for (j = 0; j <= old.mask; j++)
			if (old.slot[j].key)
				*page_find(m, p, old.slot[j].key & ~RB_SETTLED) = old.slot[j];
		free(old.slot);
		s = page_find(m, p, key);
	}
	p->n++;
	s->key = key;
	s->val = PT_MAP_NEW;
	return s;
}

struct rb_reader {
	struct pt_diag *d;
	uint64_t line;
	struct pt_arena arena;
	struct pt_intern strings;
	struct rb_addrmap index; /* address -> object index */
	struct pt_heapgraph *g;	 /* the objects' records (see RB_NF) */
	size_t nobjs, cap;	 /* objects, and room for cap of them (cap + 1 slots) */
	/* per object too: RB_DEF, RB_REFD and RB_MARK bits, which the passes over every
	 * object after reading read, not the records; where its references start */
	uint8_t *st;
	uint32_t *first;
	uint32_t *refs; /* object indexes, each object's run together */
	size_t nrefs, refs_alloc;
	uint32_t *roots; /* the ROOT lines' references, object indexes */
	size_t nroots, roots_alloc;
	/* the line being read */
	const char *p, *end;
	/* its fields */
	uint64_t addr, cls;
	int has_addr, is_root;
	uint32_t type, name;
	uint64_t memsize;
	int has_file, has_line, has_gen, pinned;
	uint64_t src_line, gen;
	struct pt_buf file; /* its "file" */
	struct pt_buf sbuf; /* a decoded string */
	const char *str;    /* the string read last: in the line, or sbuf's if it had escapes */
	size_t slen;
	const char *site_file; /* the line's "file": in the line, or file's */
	size_t site_file_len;
	uint64_t *pend; /* the fast path's references, added once the line is read */
	size_t npend, pend_alloc;
	/* the last strings looked up: type strings by their bytes, sites by file and line */
	uint32_t type_cache[32]; /* 1 + intern id; 0: none */
	struct {
		uint32_t site; /* 1 + intern id; 0: none */
		uint32_t flen;
		uint64_t line; /* 1 + the line, 0: none */
	} site_cache[64];
};

static int fail(struct rb_reader *r, const char *what)
{
	return pt_diag_error_line(r->d, r->line, "%s", what);
}

static void skip_ws(struct rb_reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n'))
		r->p++;
}

static void put_utf8(struct pt_buf *b, uint32_t c)
{
	char u[4];
	size_t n;
	if (c < 0x80) {
		u[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12));
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (c >> 18));
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	pt_buf_add(b, u, n);
}

/* A JSON string at r->p (its opening quote), as r->str and r->slen when `keep`: where
 * it stands in the line, or decoded into r->sbuf when it has escapes. */
static int read_string(struct rb_reader *r, int keep)
{
	const char *q;

	if (r->p >= r->end || *r->p != '"')
		return fail(r, "expected a string");
	r->p++;
	for (q = r->p; q < r->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20; q++)
		;
	if (q < r->end && *q == '"') { /* no escapes: the bytes as they stand */
		r->str = r->p;
		r->slen = (size_t)(q - r->p);
		r->p = q + 1;
		return 0;
	}
	pt_buf_reset(&r->sbuf);
	while (r->p < r->end && *r->p != '"') {
		const char *s = r->p;
		uint32_t c = 0;
		int k;
		if ((unsigned char)*s < 0x20)
			return fail(r, "a control character inside a string");
		if (*s != '\\') {
			while (r->p < r->end && *r->p != '"' && *r->p != '\\' &&
			       (unsigned char)*r->p >= 0x20)
				r->p++;
			if (keep)
				pt_buf_add(&r->sbuf, s, (size_t)(r->p - s));
			continue;
		}
		if (r->end - s < 2)
			break;
		r->p += 2;
		switch (s[1]) {
		case '"':
		case '\\':
		case '/':
			c = (unsigned char)s[1];
			break;
		case 'b':
			c = '\b';
			break;
		case 'f':
			c = '\f';
			break;
		case 'n':
			c = '\n';
			break;
		case 'r':
			c = '\r';
			break;
		case 't':
			c = '\t';
			break;
		case 'u':
			if (r->end - r->p < 4)
				return fail(r, "a \\u escape cut short");
			for (k = 0; k < 4; k++) {
				int h = pt_hex_digit(r->p[k]);
				if (h < 0)
					return fail(r, "a bad \\u escape");
				c = c * 16 + (uint32_t)h;
			}
			r->p += 4;
			break;
		default:
			return fail(r, "a bad escape in a string");
		}
		if (keep)
			put_utf8(&r->sbuf, c);
	}
	if (r->p >= r->end)
		return fail(r, "the line ends inside a string");
	r->p++;
	r->str = r->sbuf.buf ? r->sbuf.buf : "";
	r->slen = r->sbuf.len;
	return 0;
}

static int skip_value(struct rb_reader *r, int depth);

/* the rest of an object or array after its opening bracket; each member through
 * member(r, depth) (keys read into r->str), or skipped when member is NULL */
static int read_container(struct rb_reader *r, int depth, char close,
			  int (*member)(struct rb_reader *r, int depth))
{
	int first = 1;

	if (depth > RB_MAX_DEPTH)
		return fail(r, "values nested too deeply");
	for (;;) {
		skip_ws(r);
		if (r->p < r->end && *r->p == close && first) {
			r->p++;
			return 0;
		}
		if (close == '}') {
			if (read_string(r, member != NULL) < 0)
				return -1;
			skip_ws(r);
			if (r->p >= r->end || *r->p != ':')
				return fail(r, r->p >= r->end ? "the line ends inside an object"
							      : "expected ':' after a key");
			r->p++;
			skip_ws(r);
		}
		if (member ? member(r, depth) < 0 : skip_value(r, depth) < 0)
			return -1;
		skip_ws(r);
		if (r->p >= r->end)
			return fail(r, close == '}' ? "the line ends inside an object"
						    : "the line ends inside an array");
		if (*r->p == close) {
			r->p++;
			return 0;
		}
		if (*r->p != ',')
			return fail(r, close == '}' ? "expected ',' or '}' in an object"
						    : "expected ',' or ']' in an array");
		r->p++;
		first = 0;
	}
}

static int skip_literal(struct rb_reader *r, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, lit, n))
		return fail(r, "not a JSON value");
	r->p += n;
	return 0;
}

/* a JSON number; its value in *v when it is a whole number that fits (*whole = 1) */
static int read_number(struct rb_reader *r, uint64_t *v, int *whole)
{
	const char *s = r->p;
	int digits = 0, over = 0;

	*v = 0;
	*whole = 1;
	if (r->p < r->end && *r->p == '-') {
		r->p++;
		*whole = 0;
	}
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
		unsigned dgt = (unsigned)(*r->p - '0');
		if (*v > (UINT64_MAX - dgt) / 10)
			over = 1;
		else
			*v = *v * 10 + dgt;
		r->p++;
		digits++;
	}
	if (!digits)
		return fail(r, "not a JSON value");
	if (r->p < r->end && *r->p == '.') {
		*whole = 0;
		r->p++;
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		*whole = 0;
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	if (over && *whole)
		*whole = -1; /* too large */
	(void)s;
	return 0;
}

static int skip_value(struct rb_reader *r, int depth)
{
	uint64_t v;
	int whole;

	skip_ws(r);
	if (r->p >= r->end)
		return fail(r, "the line ends where a value should be");
	switch (*r->p) {
	case '"':
		return read_string(r, 0);
	case '{':
		r->p++;
		return read_container(r, depth + 1, '}', NULL);
	case '[':
		r->p++;
		return read_container(r, depth + 1, ']', NULL);
	case 't':
		return skip_literal(r, "true");
	case 'f':
		return skip_literal(r, "false");
	case 'n':
		return skip_literal(r, "null");
	default:
		return read_number(r, &v, &whole);
	}
}

/* "0x7f3c..." into *a */
static int parse_address(struct rb_reader *r, uint64_t *a)
{
	const char *s = r->str;
	size_t n = r->slen, i;

	if (n < 3 || n > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return fail(r, "an address is not a hexadecimal number (0x...)");
	*a = 0;
	for (i = 2; i < n; i++) {
		int h = pt_hex_digit(s[i]);
		if (h < 0)
			return fail(r, "an address is not a hexadecimal number (0x...)");
		*a = *a * 16 + (uint64_t)h;
	}
	return 0;
}

/* room for more objects, at least `want`: every per-object array grows at once
 * (geometrically, by realloc: nothing is zeroed that is written anyway) */
static void grow_objects(struct rb_reader *r, size_t want)
{
	struct pt_heapgraph *g = r->g;
	size_t cap = r->cap < 1024 ? 1024 : r->cap * 2, slots;

	if (cap < want)
		cap = want;
	slots = cap + 1;
	g->nodes = pt_xreallocarray(g->nodes, slots, RB_NF * sizeof(uint32_t));
	g->nodes_alloc = slots * RB_NF;
	g->rb_addr = pt_xreallocarray(g->rb_addr, slots, sizeof(uint64_t));
	g->rb_site = pt_xreallocarray(g->rb_site, slots, sizeof(uint32_t));
	g->rb_gen = pt_xreallocarray(g->rb_gen, slots, sizeof(uint32_t));
	g->rb_pinned = pt_xrealloc(g->rb_pinned, slots);
	r->st = pt_xrealloc(r->st, cap);
	r->first = pt_xreallocarray(r->first, cap, sizeof(uint32_t));
	r->cap = cap;
}

/* object k's record (see RB_NF) */
static inline uint32_t *object_rec(const struct rb_reader *r, size_t k)
{
	return r->g->nodes + (k + 1) * RB_NF;
}

/* the line that first referenced undefined object k, 0 if none */
static uint64_t object_line(const struct rb_reader *r, size_t k)
{
	const uint32_t *rec = object_rec(r, k);
	return rec[0] | (uint64_t)rec[1] << 32;
}

/* the index of address a, a new undefined object if it is new (named at line, 0: not
 * by a reference) */
static uint32_t object_index(struct rb_reader *r, uint64_t a, uint64_t line, int define)
{
	struct rb_slot *s = addrmap_put(&r->index, a);
	uint32_t *rec;

	if (s->val != PT_MAP_NEW) {
		if (line && !(s->key & RB_SETTLED)) {
			/* not defined (a definition settles it) and named by no line yet */
			rec = object_rec(r, s->val);
			rec[0] = (uint32_t)line;
			rec[1] = (uint32_t)(line >> 32);
			s->key |= RB_SETTLED;
		}
		if (define)
			s->key |= RB_SETTLED;
		return s->val;
	}
	if (line || define)
		s->key |= RB_SETTLED;
	s->val = (uint32_t)r->nobjs;
	if (r->nobjs == r->cap)
		grow_objects(r, 0);
	r->st[r->nobjs] = 0;
	rec = object_rec(r, r->nobjs);
	rec[0] = (uint32_t)line;
	rec[1] = (uint32_t)(line >> 32);
	r->g->rb_addr[r->nobjs + 1] = a;
	return (uint32_t)r->nobjs++;
}

/* a reference of the line to address a, kept in refs */
static int add_ref(struct rb_reader *r, uint64_t a)
{
	if (r->nobjs >= PT_MAP_NEW - 1 || r->nrefs >= UINT32_MAX - 1)
		return fail(r, "more objects or references than proftool can index");
	PT_ALLOC_GROW(r->refs, r->nrefs + 1, r->refs_alloc);
	r->refs[r->nrefs++] = object_index(r, a, r->line, 0);
	return 0;
}

/* one element of "references": an address, kept in refs */
static int reference(struct rb_reader *r, int depth)
{
	uint64_t a;
	(void)depth;
	skip_ws(r);
	if (read_string(r, 1) < 0 || parse_address(r, &a) < 0)
		return -1;
	return add_ref(r, a);
}

/* the intern id of a "type" string (a few distinct ones, on every line) */
static uint32_t type_id(struct rb_reader *r, const char *s, size_t n)
{
	uint32_t *c, id;

	if (!n)
		return pt_intern(&r->strings, s, n);
	c = &r->type_cache[(n * 7 + (unsigned char)s[0] + (unsigned char)s[n - 1]) & 31];
	if (*c && pt_intern_len(&r->strings, *c - 1) == n &&
	    !memcmp(pt_intern_str(&r->strings, *c - 1), s, n))
		return *c - 1;
	id = pt_intern(&r->strings, s, n);
	*c = id + 1;
	return id;
}

/* the intern id of the site "file:line" ("file" without a line), as heapy keys one */
static uint32_t site_id(struct rb_reader *r, const char *f, size_t n, int has_line, uint64_t line)
{
	uint64_t key = has_line ? line + 1 : 0;
	size_t at = (size_t)(key * 31 + n * 7 + (n ? (unsigned char)f[n - 1] : 0)) & 63;
	char num[24];
	size_t k = sizeof(num);
	uint32_t id;

	if (r->site_cache[at].site && r->site_cache[at].flen == n &&
	    r->site_cache[at].line == key &&
	    !memcmp(pt_intern_str(&r->strings, r->site_cache[at].site - 1), f, n))
		return r->site_cache[at].site - 1;
	pt_buf_reset(&r->sbuf);
	pt_buf_add(&r->sbuf, f, n);
	if (has_line) {
		do
			num[--k] = (char)('0' + line % 10);
		while (line /= 10);
		num[--k] = ':';
		pt_buf_add(&r->sbuf, num + k, sizeof(num) - k);
	}
	id = pt_intern(&r->strings, r->sbuf.buf, r->sbuf.len);
	r->site_cache[at].site = id + 1;
	r->site_cache[at].flen = (uint32_t)n;
	r->site_cache[at].line = key;
	return id;
}

/* "line" or "generation" (allocation tracing): a whole number, or the object has none
 * (a null generation: allocated before tracing started) */
static int site_number(struct rb_reader *r, const char *key, int depth)
{
	uint64_t v;
	int whole;

	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return skip_value(r, depth);
	if (read_number(r, &v, &whole) < 0)
		return -1;
	if (whole != 1 || v >= UINT32_MAX - 1)
		return pt_diag_error_line(r->d, r->line,
					  "\"%s\" is not a whole number below 2^32 - 2", key);
	if (key[0] == 'l') {
		r->src_line = v;
		r->has_line = 1;
	} else {
		r->gen = v;
		r->has_gen = 1;
	}
	return 0;
}

/* one member of "flags": "pinned": true is kept, the rest read past */
static int flag(struct rb_reader *r, int depth)
{
	if (r->slen == 6 && !memcmp(r->str, "pinned", 6) && r->p + 4 <= r->end &&
	    !memcmp(r->p, "true", 4))
		r->pinned = 1;
	return skip_value(r, depth);
}

/* one member of a line's top-level object; its key is r->str */
static int member(struct rb_reader *r, int depth)
{
	char key[16];
	size_t n = r->slen;

	if (n >= sizeof(key))
		return skip_value(r, depth);
	memcpy(key, r->str, n);
	key[n] = '\0';
	skip_ws(r);
	if (!strcmp(key, "references")) {
		if (r->p >= r->end || *r->p != '[')
			return fail(r, "\"references\" is not an array");
		r->p++;
		return read_container(r, depth + 1, ']', reference);
	}
	if (!strcmp(key, "flags") && r->p < r->end && *r->p == '{') {
		r->p++;
		return read_container(r, depth + 1, '}', flag);
	}
	if (!strcmp(key, "line") || !strcmp(key, "generation"))
		return site_number(r, key, depth);
	if (!strcmp(key, "file")) {
		if (r->p >= r->end || *r->p != '"')
			return skip_value(r, depth); /* not a string: no site */
		if (read_string(r, 1) < 0)
			return -1;
		pt_buf_reset(&r->file);
		pt_buf_add(&r->file, r->str, r->slen);
		r->site_file = r->file.buf;
		r->site_file_len = r->file.len;
		r->has_file = 1;
		return 0;
	}
	if (!strcmp(key, "memsize")) {
		int whole;
		if (r->p >= r->end || !((*r->p >= '0' && *r->p <= '9') || *r->p == '-'))
			return fail(r, "\"memsize\" is not a number");
		if (read_number(r, &r->memsize, &whole) < 0)
			return -1;
		if (whole != 1)
			return fail(
				r, whole < 0 ? "\"memsize\" is too large (4 GiB at most per object)"
					     : "\"memsize\" is not a whole number of bytes");
		if (r->memsize > UINT32_MAX)
			return pt_diag_error_line(r->d, r->line,
						  "\"memsize\" %" PRIu64
						  " is too large (4 GiB at most per object)",
						  r->memsize);
		return 0;
	}
	if (!strcmp(key, "address") || !strcmp(key, "class") || !strcmp(key, "type") ||
	    !strcmp(key, "name")) {
		if (r->p >= r->end || *r->p != '"') {
			/* a non-string name (a module's nil name) is nothing we use */
			if (!strcmp(key, "name") || !strcmp(key, "class"))
				return skip_value(r, depth);
			return pt_diag_error_line(r->d, r->line, "\"%s\" is not a string", key);
		}
		if (read_string(r, 1) < 0)
			return -1;
		if (!strcmp(key, "address")) {
			r->has_addr = 1;
			return parse_address(r, &r->addr);
		}
		if (!strcmp(key, "class"))
			return parse_address(r, &r->cls);
		if (!strcmp(key, "type")) {
			r->type = type_id(r, r->str, r->slen);
			r->is_root = r->slen == 4 && !memcmp(r->str, "ROOT", 4);
			return 0;
		}
		r->name = pt_intern(&r->strings, r->str, r->slen);
		return 0;
	}
	return skip_value(r, depth); /* a field we do not use: kept out, not fatal */
}

/* The fast path. A line as Ruby writes it (`{"address":"0x...", "type":"STRING", ...}`)
 * is read by one pass that looks only at what it needs and never goes back: keys are
 * compared by length, values we use are read in place and values we do not use are
 * skipped by a loop over their bytes. It accepts a subset of what read_container does
 * and reads it to the same fields; anything else (escapes in a key, nesting other than
 * "flags", a value of an unusual kind, whitespace but where Ruby puts it (after a comma,
 * around the line), a NUL byte) makes it give up before it changes anything but r's
 * per-line fields and the intern table
 * (the type and name strings it met, which the full parser then interns again to the
 * same ids), and the line is read again by the full parser, which finds and locates
 * any error. It relies on the NUL that pt_input_getline puts after a line. */

/* 1 + the value of a hex digit, 0 for any other byte */
static const unsigned char hex1[256] = {
	['0'] = 1,  ['1'] = 2,	['2'] = 3,  ['3'] = 4,	['4'] = 5,  ['5'] = 6,
	['6'] = 7,  ['7'] = 8,	['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
	['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
	['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* the end of a string's bytes from p (after its opening quote): the first '"', '\\' or
 * control byte (the line's NUL among them) */
static const char *str_stop(const char *p, const char *e)
{
#ifdef __SSE2__
	/* 16 bytes at a time: a mask of the stops, the first one by its lowest bit */
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'),
		      ctl = _mm_set1_epi8(0x1f);
	while (e - p >= 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)p);
		int m = _mm_movemask_epi8(_mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(w, quote), _mm_cmpeq_epi8(w, bslash)),
			_mm_cmpeq_epi8(_mm_min_epu8(w, ctl), w)));
		if (m)
			return p + __builtin_ctz((unsigned)m);
		p += 16;
	}
#endif
	while (e - p >= 8) {
		uint64_t w, q, b, c;
		memcpy(&w, p, 8);
		q = w ^ 0x2222222222222222ull;	      /* '"' */
		b = w ^ 0x5c5c5c5c5c5c5c5cull;	      /* '\\' */
		c = (w - 0x2020202020202020ull) & ~w; /* bytes below 0x20 */
		q = (q - 0x0101010101010101ull) & ~q;
		b = (b - 0x0101010101010101ull) & ~b;
		if ((q | b | c) & 0x8080808080808080ull)
			break;
		p += 8;
	}
	while ((unsigned char)*p >= 0x20 && *p != '"' && *p != '\\')
		p++;
	return p;
}

/* a string without escapes at p (its opening quote): its bytes in *s, *n; NULL if it
 * is not one */
static const char *fast_plain(const char *p, const char *e, const char **s, size_t *n)
{
	const char *q;

	if (*p != '"')
		return NULL;
	q = str_stop(p + 1, e);
	if (*q != '"')
		return NULL;
	*s = p + 1;
	*n = (size_t)(q - p - 1);
	return q + 1;
}

/* any string at p, escapes checked as read_string does; the byte after it, or NULL */
static const char *fast_skip_string(const char *p, const char *e)
{
	int k;

	p++;
	for (;;) {
		p = str_stop(p, e);
		if (*p == '"')
			return p + 1;
		if (*p != '\\')
			return NULL;
		switch (p[1]) {
		case '"':
		case '\\':
		case '/':
		case 'b':
		case 'f':
		case 'n':
		case 'r':
		case 't':
			p += 2;
			break;
		case 'u':
			for (k = 2; k < 6; k++)
				if (!hex1[(unsigned char)p[k]])
					return NULL;
			p += 6;
			break;
		default:
			return NULL;
		}
	}
}

/* "0x" and 1 to 16 hex digits in quotes at p, as parse_address reads them */
static const char *fast_address(const char *p, uint64_t *a)
{
	const char *q;
	uint64_t v = 0;
	unsigned t;
	size_t k;

	if (p[0] != '"' || p[1] != '0' || (p[2] != 'x' && p[2] != 'X'))
		return NULL;
	p += 3;
	/* each digit added as its value + 1 (hex1's), the k ones so added taken off at the
	 * end: a longer run of digits wraps around, and is refused by its length */
	for (q = p; (t = hex1[(unsigned char)*q]); q++)
		v = (v << 4) + t;
	k = (size_t)(q - p);
	if (k < 1 || k > 16 || *q != '"')
		return NULL;
	*a = v - (0x1111111111111111ull >> (4 * (16 - k)));
	return q + 1;
}

/* digits with nothing after them that makes a fraction or exponent; NULL past 19 */
static const char *fast_whole(const char *p, uint64_t *v)
{
	uint64_t x = 0;
	int k;

	for (k = 0; *p >= '0' && *p <= '9'; k++, p++)
		x = x * 10 + (uint64_t)(*p - '0');
	if (k < 1 || k > 19 || *p == '.' || *p == 'e' || *p == 'E')
		return NULL;
	*v = x;
	return p;
}

/* the literal lit at p, or NULL */
static const char *fast_lit(const char *p, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(e - p) >= n && !memcmp(p, lit, n) ? p + n : NULL;
}

/* a value that is no container, as skip_value reads it */
static const char *fast_skip(const char *p, const char *e)
{
	switch (*p) {
	case '"':
		return fast_skip_string(p, e);
	case 't':
		return fast_lit(p, e, "true");
	case 'f':
		return fast_lit(p, e, "false");
	case 'n':
		return fast_lit(p, e, "null");
	case '-':
		p++;
		break;
	}
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		if (*++p < '0' || *p > '9')
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p;
}

static const char *fast_spaces(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* "references": an array of addresses, kept in r->pend */
static const char *fast_refs(struct rb_reader *r, const char *p)
{
	uint64_t a;

	if (*p != '[')
		return NULL;
	if (*++p == ']')
		return p + 1;
	for (;;) {
		if (!(p = fast_address(p, &a)))
			return NULL;
		PT_ALLOC_GROW(r->pend, r->npend + 1, r->pend_alloc);
		r->pend[r->npend++] = a;
		if (*p == ']')
			return p + 1;
		if (*p != ',')
			return NULL;
		p = fast_spaces(p + 1);
	}
}

/* "flags": an object of plain values; "pinned": true kept */
static const char *fast_flags(struct rb_reader *r, const char *p, const char *e)
{
	const char *k;
	size_t n;

	if (*p != '{')
		return fast_skip(p, e);
	if (*++p == '}')
		return p + 1;
	for (;;) {
		if (!(p = fast_plain(p, e, &k, &n)) || *p++ != ':')
			return NULL;
		if (n == 6 && !memcmp(k, "pinned", 6) && fast_lit(p, e, "true"))
			r->pinned = 1;
		if (!(p = fast_skip(p, e)))
			return NULL;
		if (*p == '}')
			return p + 1;
		if (*p != ',')
			return NULL;
		p = fast_spaces(p + 1);
	}
}

/* "line" or "generation": a whole number or null */
static const char *fast_site_number(struct rb_reader *r, const char *p, const char *e, int is_line)
{
	uint64_t v;

	if (*p == 'n')
		return fast_lit(p, e, "null");
	if (!(p = fast_whole(p, &v)) || v >= UINT32_MAX - 1)
		return NULL;
	if (is_line) {
		r->src_line = v;
		r->has_line = 1;
	} else {
		r->gen = v;
		r->has_gen = 1;
	}
	return p;
}

/* the value of one member whose key is k (n bytes); the byte after it, or NULL */
static const char *fast_member(struct rb_reader *r, const char *k, size_t n, const char *p,
			       const char *e)
{
	const char *s;
	size_t len;

#define KEY(lit) (n == sizeof(lit) - 1 && !memcmp(k, lit, sizeof(lit) - 1))
	if (KEY("address")) {
		r->has_addr = 1;
		return fast_address(p, &r->addr);
	}
	if (KEY("type")) {
		if (!(p = fast_plain(p, e, &s, &len)))
			return NULL;
		r->type = type_id(r, s, len);
		r->is_root = len == 4 && !memcmp(s, "ROOT", 4);
		return p;
	}
	if (KEY("class"))
		return fast_address(p, &r->cls);
	if (KEY("references"))
		return fast_refs(r, p);
	if (KEY("memsize")) {
		if (!(p = fast_whole(p, &r->memsize)) || r->memsize > UINT32_MAX)
			return NULL;
		return p;
	}
	if (KEY("flags"))
		return fast_flags(r, p, e);
	if (KEY("file")) {
		if (!(p = fast_plain(p, e, &r->site_file, &r->site_file_len)))
			return NULL;
		r->has_file = 1;
		return p;
	}
	if (KEY("line") || KEY("generation"))
		return fast_site_number(r, p, e, n == 4);
	if (KEY("name")) {
		if (!(p = fast_plain(p, e, &s, &len)))
			return NULL;
		r->name = pt_intern(&r->strings, s, len);
		return p;
	}
#undef KEY
	return fast_skip(p, e);
}

/* the line s (n bytes, NUL after them) read into r's fields and r->pend: 1, or 0 when
 * the full parser must read it */
static int fast_line(struct rb_reader *r, const char *s, size_t n)
{
	const char *p = s, *e = s + n, *k;
	size_t kn;

	if (*p != '{')
		return 0;
	p++;
	for (;;) {
		if (!(p = fast_plain(p, e, &k, &kn)) || *p++ != ':')
			return 0;
		if (!(p = fast_member(r, k, kn, p, e)))
			return 0;
		if (*p == '}')
			break;
		if (*p != ',')
			return 0;
		p = fast_spaces(p + 1);
	}
	return fast_spaces(p + 1) == e;
}

/* the line's fields made into its object, or its references into roots */
static int finish_line(struct rb_reader *r, size_t first_ref)
{
	struct pt_heapgraph *g = r->g;
	uint32_t i, cls = 0, *rec;
	size_t k;

	if (r->is_root) {
		if (r->nrefs == first_ref) /* a ROOT without references (refs may be NULL) */
			return 0;
		PT_ALLOC_GROW(r->roots, r->nroots + (r->nrefs - first_ref), r->roots_alloc);
		memcpy(r->roots + r->nroots, r->refs + first_ref,
		       (r->nrefs - first_ref) * sizeof(uint32_t));
		r->nroots += r->nrefs - first_ref;
		r->nrefs = first_ref;
		return 0;
	}
	if (r->type == UINT32_MAX)
		return fail(r, "an object without \"type\"");
	if (!r->has_addr)
		return fail(r, "an object without \"address\"");
	if (r->nobjs >= PT_MAP_NEW - 1)
		return fail(r, "more objects than proftool can index");
	if (r->cls) { /* first: it may move the records */
		if (r->nobjs >= PT_MAP_NEW - 2)
			return fail(r, "more objects than proftool can index");
		cls = object_index(r, r->cls, 0, 0) + 1;
	}
	i = object_index(r, r->addr, 0, 1);
	if (r->st[i] & RB_DEF)
		return pt_diag_error_line(r->d, r->line, "address 0x%" PRIx64 " is dumped twice",
					  r->addr);
	r->st[i] |= RB_DEF;
	for (k = first_ref; k < r->nrefs; k++) /* referenced by another defined object */
		if (r->refs[k] != i)
			r->st[r->refs[k]] |= RB_REFD;
	rec = object_rec(r, i);
	rec[RB_TYPE] = r->type;
	rec[RB_NAME] = r->name;
	rec[RB_CLS] = cls;
	rec[RB_SELF] = (uint32_t)r->memsize;
	rec[RB_NREFS] = (uint32_t)(r->nrefs - first_ref);
	r->first[i] = (uint32_t)first_ref;
	g->rb_gen[i + 1] = r->has_gen ? (uint32_t)r->gen + 1 : 0;
	g->rb_pinned[i + 1] = (uint8_t)r->pinned;
	g->rb_site[i + 1] =
		r->has_file ? site_id(r, r->site_file, r->site_file_len, r->has_line, r->src_line)
			    : 0;
	return 0;
}

static void reset_fields(struct rb_reader *r)
{
	r->addr = r->cls = r->memsize = 0;
	r->has_addr = r->is_root = 0;
	r->has_file = r->has_line = r->has_gen = r->pinned = 0;
	r->type = r->name = UINT32_MAX;
}

/* one line of the dump: by the fast path, else by the full parser */
static int read_line(struct rb_reader *r, const char *s, size_t n)
{
	size_t first_ref = r->nrefs, k;

	reset_fields(r);
	r->npend = 0;
	if (fast_line(r, s, n)) {
		for (k = 0; k < r->npend; k++)
			if (add_ref(r, r->pend[k]) < 0)
				return -1;
		return finish_line(r, first_ref);
	}
	reset_fields(r);
	r->p = s;
	r->end = s + n;
	skip_ws(r);
	if (r->p == r->end)
		return 0; /* an empty line */
	if (*r->p != '{')
		return fail(r, "not a JSON object (a heap dump has one object per line)");
	r->p++;
	if (read_container(r, 1, '}', member) < 0)
		return -1;
	skip_ws(r);
	if (r->p != r->end)
		return fail(r, "more after the line's object");
	return finish_line(r, first_ref);
}

static char *dup_str(const char *s)
{
	return pt_xstrdup(s);
}

static char **str_list(const char *const *v, uint32_t n)
{
	char **out = pt_xmalloc(n * sizeof(char *));
	uint32_t i;
	for (i = 0; i < n; i++)
		out[i] = dup_str(v[i]);
	return out;
}

/* the edges to the nodes of the n objects at idx, as records at out (see build) */
static uint32_t add_edges(uint32_t *out, const uint32_t *idx, size_t n, const uint32_t *ordinal)
{
	uint32_t k = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t to = ordinal ? ordinal[idx[i]] : idx[i] + 1;
		if (to == PT_HEAP_NONE)
			continue; /* dangling: counted by count_dangling */
		out[0] = 0;	  /* element */
		out[1] = k++;
		out[2] = to * RB_NF;
		out += 3;
	}
	return k;
}

/* every reference to an object the dump never defines, each at the line that first
 * named its target; all of them are in refs or roots */
static void count_dangling(struct rb_reader *r)
{
	size_t k;

	for (k = 0; k < r->nrefs; k++)
		if (!(r->st[r->refs[k]] & RB_DEF))
			pt_diag_dangling_line(r->d, object_line(r, r->refs[k]));
	for (k = 0; k < r->nroots; k++)
		if (!(r->st[r->roots[k]] & RB_DEF))
			pt_diag_dangling_line(r->d, object_line(r, r->roots[k]));
}

/* mark what the objects in list reach (over references to defined objects) */
static void reach(const struct rb_reader *r, uint32_t *stack, const uint32_t *list, size_t n)
{
	uint8_t *st = r->st;
	size_t top = 0, i;

	for (i = 0; i < n; i++)
		if ((st[list[i]] & (RB_DEF | RB_MARK)) == RB_DEF) {
			st[list[i]] |= RB_MARK;
			stack[top++] = list[i];
		}
	while (top) {
		uint32_t v = stack[--top], nr = object_rec(r, v)[RB_NREFS];
		for (i = 0; i < nr; i++) {
			uint32_t w = r->refs[r->first[v] + i];
			if ((st[w] & (RB_DEF | RB_MARK)) == RB_DEF) {
				st[w] |= RB_MARK;
				stack[top++] = w;
			}
		}
	}
}

/* Ruby leaves some of the VM's own roots out of the dump, so some objects no ROOT
 * reaches: they hang from the root too, the roots of their own part of the graph
 * (the ones nothing references) and then every one still unreached. Appended to
 * r->roots, in the order of their lines. */
static void add_unreached(struct rb_reader *r)
{
	uint32_t *stack = pt_xmalloc((r->nobjs + 1) * sizeof(uint32_t));
	size_t k;
	uint32_t one;

	reach(r, stack, r->roots, r->nroots);
	for (k = 0; k < r->nobjs; k++)
		if ((r->st[k] & (RB_DEF | RB_MARK | RB_REFD)) == RB_DEF) {
			one = (uint32_t)k;
			PT_ALLOC_GROW(r->roots, r->nroots + 1, r->roots_alloc);
			r->roots[r->nroots++] = one;
			reach(r, stack, &one, 1);
		}
	for (k = 0; k < r->nobjs; k++)
		if ((r->st[k] & (RB_DEF | RB_MARK)) == RB_DEF) {
			PT_ALLOC_GROW(r->roots, r->nroots + 1, r->roots_alloc);
			r->roots[r->nroots++] = (uint32_t)k;
		}
	free(stack);
}

/* The strings the nodes are named by: intern ids of a node's Ruby type, or of its class's
 * name */
struct rb_names {
	uint32_t s_root, s_object, s_struct, s_data;
	uint32_t *ntype; /* intern id of a type -> its index in node_types, UINT32_MAX: none */
};

/* The meta of the graph, and its types as they come */
static void build_meta(struct rb_reader *r, struct pt_heapgraph *g, struct rb_names *nm)
{
	static const char *const node_fields[] = {"type", "name", "id", "self_size", "edge_count"};
	static const char *const edge_fields[] = {"type", "name_or_index", "to_node"};
	static const char *const edge_types[] = {"element"};

	g->meta_node_fields = str_list(node_fields, RB_NF);
	g->nfields = RB_NF;
	g->meta_edge_fields = str_list(edge_fields, 3);
	g->efields = 3;
	g->edge_types = str_list(edge_types, 1);
	g->nedge_types = 1;
	g->node_types = pt_xmalloc(((size_t)r->strings.n + 2) * sizeof(char *));
	g->node_types[g->nnode_types++] = dup_str("synthetic");
	g->node_types[g->nnode_types++] = dup_str("object");
	nm->ntype = pt_xmalloc(((size_t)r->strings.n + 1) * sizeof(uint32_t));
	memset(nm->ntype, 0xff, ((size_t)r->strings.n + 1) * sizeof(uint32_t));
	nm->s_root = pt_intern(&r->strings, "(Ruby roots)", 12);
	nm->s_object = pt_intern_find(&r->strings, "OBJECT", 6);
	nm->s_struct = pt_intern_find(&r->strings, "STRUCT", 6);
	nm->s_data = pt_intern_find(&r->strings, "DATA", 4);
}

/* First pass over the records, where they stand: each defined object's node type in
 * RB_TYPE and rb_type, its node name in RB_CLS (OBJECT, STRUCT and DATA objects whose
 * class has a name are "object" nodes named by it, every other object a node of its
 * Ruby type named by that type), and its node number in ordinal (when some objects are
 * undefined). RB_NAME is left as read: the classes' names are read here. */
static void type_nodes(struct rb_reader *r, struct pt_heapgraph *g, struct rb_names *nm,
		       uint32_t *ordinal)
{
	uint32_t node = 1, t, c, *rec;
	size_t k;

	for (k = 0; k < r->nobjs; k++) {
		if (!(r->st[k] & RB_DEF)) {
			if (ordinal)
				ordinal[k] = PT_HEAP_NONE;
			continue;
		}
		if (ordinal)
			ordinal[k] = node;
		rec = object_rec(r, k);
		t = rec[RB_TYPE];
		if (nm->ntype[t] == UINT32_MAX) {
			nm->ntype[t] = g->nnode_types;
			g->node_types[g->nnode_types++] = dup_str(pt_intern_str(&r->strings, t));
		}
		g->rb_type[node++] = nm->ntype[t];
		c = rec[RB_CLS];
		if ((t == nm->s_object || t == nm->s_struct || t == nm->s_data) && c &&
		    (r->st[c - 1] & RB_DEF) && object_rec(r, c - 1)[RB_NAME] != UINT32_MAX) {
			rec[RB_TYPE] = 1; /* "object" */
			rec[RB_CLS] = object_rec(r, c - 1)[RB_NAME];
		} else {
			rec[RB_TYPE] = nm->ntype[t];
			rec[RB_CLS] = t;
		}
	}
}

/* Second pass: each defined object's edges written, in the order of the nodes, and its
 * record made a node at its number, moved down over the undefined objects' slots */
static void place_nodes(struct rb_reader *r, struct pt_heapgraph *g, const uint32_t *ordinal)
{
	uint32_t node = 1, *src, *dst;
	size_t k, e = g->edges_len;

	for (k = 0; k < r->nobjs; k++) {
		uint32_t n, kept;
		if (!(r->st[k] & RB_DEF))
			continue;
		src = object_rec(r, k);
		dst = g->nodes + (size_t)node * RB_NF;
		n = src[RB_NREFS];
		/* refs is NULL while no object has references: no offset from it */
		kept = add_edges(g->edges + e, n ? r->refs + r->first[k] : NULL, n, ordinal);
		e += (size_t)kept * 3;
		dst[RB_TYPE] = src[RB_TYPE];
		dst[RB_NAME] = src[RB_CLS];
		dst[2] = node; /* id */
		dst[RB_SELF] = src[RB_SELF];
		dst[4] = kept; /* edge_count */
		if (node != k + 1) {
			g->rb_addr[node] = g->rb_addr[k + 1];
			g->rb_site[node] = g->rb_site[k + 1];
			g->rb_gen[node] = g->rb_gen[k + 1];
			g->rb_pinned[node] = g->rb_pinned[k + 1];
		}
		node++;
	}
	g->edges_len = e;
	g->nodes_len = (size_t)node * RB_NF;
}

/* The graph from what was read, made in the arrays the objects were read into: node 0
 * the root, then the defined objects in the order the dump first names them. */
static int build(struct rb_reader *r, struct pt_heapgraph *g)
{
	struct rb_names nm;
	uint32_t *ordinal = NULL, i, nroot;
	size_t ndef = 0, k;

	if (!r->cap)
		grow_objects(r, 0); /* slot 0, the root's */
	build_meta(r, g, &nm);
	for (k = 0; k < r->nobjs; k++)
		ndef += r->st[k] & RB_DEF;
	if (ndef != r->nobjs) {
		ordinal = pt_xmalloc((r->nobjs + 1) * sizeof(uint32_t));
		count_dangling(r);
	}
	add_unreached(r);
	g->rb_type = pt_xmalloc((ndef + 1) * sizeof(uint32_t));
	g->rb_type[0] = 0;
	type_nodes(r, g, &nm, ordinal);
	g->edges_alloc = (r->nrefs + r->nroots) * 3 + 3;
	g->edges = pt_xmalloc(g->edges_alloc * sizeof(uint32_t));
	nroot = add_edges(g->edges, r->roots, r->nroots, ordinal);
	g->edges_len = (size_t)nroot * 3;
	place_nodes(r, g, ordinal);
	g->nodes[RB_TYPE] = 0; /* "synthetic" */
	g->nodes[RB_NAME] = nm.s_root;
	g->nodes[2] = g->nodes[RB_SELF] = 0;
	g->nodes[4] = nroot; /* edge_count: the root's edges come first */
	g->rb_addr[0] = 0;
	g->rb_site[0] = g->rb_gen[0] = 0;
	g->rb_pinned[0] = 0;
	for (i = 0; i < r->strings.n; i++)
		pt_heapgraph_add_string(g, pt_intern_str(&r->strings, i),
					pt_intern_len(&r->strings, i));
	free(ordinal);
	free(nm.ntype);
	return pt_heapgraph_finish(g, 0, NULL, r->d);
}

static int rubyheap_load(struct pt_input *in, struct pt_heapgraph *g, struct pt_diag *d)
{
	struct rb_reader r;
	char *line;
	size_t len;
	int ret, st = 0;

	memset(&r, 0, sizeof(r));
	r.d = d;
	r.g = g;
	pt_arena_init(&r.arena);
	pt_intern_init(&r.strings, &r.arena);
	addrmap_init(&r.index);
	pt_buf_init(&r.sbuf);
	pt_buf_init(&r.file);
	/* Room for the objects and references a file of its size may hold (a line is
	 * about 250 bytes, a reference 18), so that the arrays are not copied as they
	 * grow: memory not touched costs nothing. More is made if it runs out. */
	if (!in->dec && in->size) {
		grow_objects(&r, (size_t)(in->size / 128));
		PT_ALLOC_GROW(r.refs, (size_t)(in->size / 64), r.refs_alloc);
	}
	while ((ret = pt_input_getline(in, &line, &len)) > 0) {
		r.line = in->lineno;
		if (read_line(&r, line, len) < 0) {
			if (pt_input_cut_short(in, line, len))
				pt_diag_error_line(d, r.line,
						   "the dump ends inside this line (cut short)");
			st = -1;
			break;
		}
	}
	if (ret < 0)
		st = -1;
	if (!st && !r.nobjs && !r.nroots)
		st = pt_diag_error(d, "no objects: not a Ruby heap dump");
	/* the graph needs no address lookups: the map goes before it is made */
	addrmap_release(&r.index);
	pt_buf_release(&r.sbuf);
	pt_buf_release(&r.file);
	if (!st)
		st = build(&r, g);
	pt_intern_release(&r.strings);
	pt_arena_release(&r.arena);
	free(r.refs);
	free(r.roots);
	free(r.pend);
	free(r.st);
	free(r.first);
	if (st < 0)
		pt_heapgraph_release(g); /* the records read so far */
	return st < 0 ? -1 : 0;
}

/* the first line: a JSON object that is a ROOT or has an "address" and a "type" */
static int rubyheap_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *nl;
	size_t i, n;

	if (pt_json_first(head, len) != '{')
		return 0;
	i = pt_json_skip_ws(head, 0, len);
	nl = memchr(s + i, '\n', len - i);
	n = nl ? (size_t)(nl - (s + i)) : len - i;
	if (!memcmp(s + i, "{\"type\":\"ROOT\"", n < 14 ? n : 14) && n >= 14)
		return 90;
	if (memmem(s + i, n, "{\"address\":\"0x", 14) == s + i &&
	    memmem(s + i, n, "\"type\":\"", 8))
		return 90;
	return 0;
}

const struct pt_format pt_format_rubyheap = {
	.name = "rubyheap",
	.description = "Ruby heap dump (ObjectSpace.dump_all JSON lines); 'proftool heap' "
		       "summarizes it",
	.suffixes = NULL,
	.detect = rubyheap_detect,
	.read = NULL,
	.write = NULL,
	.read_heap = rubyheap_load,
};
