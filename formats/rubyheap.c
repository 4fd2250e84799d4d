/* rubyheap.c: Ruby heap dumps (ObjectSpace.dump_all's JSON lines, Ruby 2.7 to 3.3) read
 * into the heap graph that `proftool heap` summarizes: one node per object, its
 * references as edges, and a synthetic root whose edges are the ROOT lines' references. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/json.h"
#include "util/map.h"
#include "util/text.h"
#include "util/xalloc.h"

/* how deeply a line's values may nest (a "flags" object is one level) */
#define RB_MAX_DEPTH 64

/* one address seen, defined by its own line or only referenced so far: 48 bytes, the
 * most of the reader's memory */
struct rb_obj {
	uint64_t addr; /* its address */
	union {
		uint64_t line; /* undefined: the line that first referenced it, 0 if none */
		struct {
			uint32_t site; /* intern id of "file:line", 0 if the line has no "file" */
			uint32_t gen;  /* 1 + its "generation", 0 if none */
		} d;		       /* defined */
	} u;
	uint32_t cls;	  /* 1 + the index of its class's object, 0 if none */
	uint32_t type;	  /* intern id of its "type" */
	uint32_t name;	  /* intern id of a CLASS/MODULE's "name", UINT32_MAX if none */
	uint32_t memsize; /* its "memsize" */
	uint32_t first;	  /* its references: refs[first .. first + nrefs) */
	uint32_t nrefs;
	uint8_t defined; /* 0 until its line is read */
	uint8_t pinned;	 /* "flags" has "pinned": true */
	uint8_t pad[6];
};

struct rb_reader {
	struct pt_diag *d;
	uint64_t line;
	struct pt_arena arena;
	struct pt_intern strings;
	struct pt_map index; /* address -> index in objs */
	struct rb_obj *objs;
	size_t nobjs, objs_alloc;
	uint32_t *refs; /* indexes in objs, each object's run together */
	size_t nrefs, refs_alloc;
	uint32_t *roots; /* the ROOT lines' references, indexes in objs */
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

/* the index of address a, a new undefined object if it is new (named at line, 0: not
 * by a reference) */
static uint32_t object_index(struct rb_reader *r, uint64_t a, uint64_t line)
{
	uint32_t *slot = pt_map_put(&r->index, a);
	struct rb_obj *o;

	if (*slot != PT_MAP_NEW) {
		o = &r->objs[*slot];
		if (!o->defined && !o->u.line)
			o->u.line = line;
		return *slot;
	}
	*slot = (uint32_t)r->nobjs;
	PT_ALLOC_GROW(r->objs, r->nobjs + 1, r->objs_alloc);
	o = &r->objs[r->nobjs];
	memset(o, 0, sizeof(*o));
	o->name = UINT32_MAX;
	o->addr = a;
	o->u.line = line;
	return (uint32_t)r->nobjs++;
}

/* one element of "references": an address, kept in refs */
static int reference(struct rb_reader *r, int depth)
{
	uint64_t a;
	(void)depth;
	skip_ws(r);
	if (read_string(r, 1) < 0 || parse_address(r, &a) < 0)
		return -1;
	if (r->nobjs >= PT_MAP_NEW - 1 || r->nrefs >= UINT32_MAX - 1)
		return fail(r, "more objects or references than proftool can index");
	PT_ALLOC_GROW(r->refs, r->nrefs + 1, r->refs_alloc);
	r->refs[r->nrefs++] = object_index(r, a, r->line);
	return 0;
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
			r->type = pt_intern(&r->strings, r->str, r->slen);
			r->is_root = r->slen == 4 && !memcmp(r->str, "ROOT", 4);
			return 0;
		}
		r->name = pt_intern(&r->strings, r->str, r->slen);
		return 0;
	}
	return skip_value(r, depth); /* a field we do not use: kept out, not fatal */
}

/* one line of the dump */
static int read_line(struct rb_reader *r, const char *s, size_t n)
{
	size_t first_ref = r->nrefs;
	struct rb_obj *o;
	uint32_t i, cls = 0;

	r->p = s;
	r->end = s + n;
	skip_ws(r);
	if (r->p == r->end)
		return 0; /* an empty line */
	if (*r->p != '{')
		return fail(r, "not a JSON object (a heap dump has one object per line)");
	r->p++;
	r->addr = r->cls = r->memsize = 0;
	r->has_addr = r->is_root = 0;
	r->has_file = r->has_line = r->has_gen = r->pinned = 0;
	r->type = r->name = UINT32_MAX;
	if (read_container(r, 1, '}', member) < 0)
		return -1;
	skip_ws(r);
	if (r->p != r->end)
		return fail(r, "more after the line's object");
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
	if (r->cls) { /* first: it may move objs */
		if (r->nobjs >= PT_MAP_NEW - 2)
			return fail(r, "more objects than proftool can index");
		cls = object_index(r, r->cls, 0) + 1;
	}
	i = object_index(r, r->addr, 0);
	o = &r->objs[i];
	if (o->defined)
		return pt_diag_error_line(r->d, r->line, "address 0x%" PRIx64 " is dumped twice",
					  r->addr);
	o->defined = 1;
	o->type = r->type;
	o->name = r->name;
	o->cls = cls;
	o->memsize = (uint32_t)r->memsize;
	o->first = (uint32_t)first_ref;
	o->nrefs = (uint32_t)(r->nrefs - first_ref);
	o->u.d.gen = r->has_gen ? (uint32_t)r->gen + 1 : 0;
	o->u.d.site = 0;
	o->pinned = (uint8_t)r->pinned;
	if (r->has_file) { /* "file:line", as heapy keys a site */
		char num[24];
		if (r->has_line) {
			snprintf(num, sizeof(num), ":%" PRIu64, r->src_line);
			pt_buf_addstr(&r->file, num);
		}
		o->u.d.site = pt_intern(&r->strings, r->file.buf, r->file.len);
	}
	return 0;
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

/* append one node record */
static void add_node(struct pt_heapgraph *g, uint32_t type, uint32_t name, uint32_t id,
		     uint32_t self, uint32_t edges)
{
	uint32_t *rec;
	PT_ALLOC_GROW(g->nodes, g->nodes_len + 5, g->nodes_alloc);
	rec = g->nodes + g->nodes_len;
	rec[0] = type;
	rec[1] = name;
	rec[2] = id;
	rec[3] = self;
	rec[4] = edges;
	g->nodes_len += 5;
}

/* the edges to the defined ones of n objects at idx; dangling ones counted, left out */
static uint32_t add_edges(struct rb_reader *r, struct pt_heapgraph *g, const uint32_t *idx,
			  size_t n, const uint32_t *ordinal)
{
	uint32_t k = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t *rec, to = ordinal[idx[i]];
		if (to == PT_HEAP_NONE) {
			/* at the line that first named it */
			pt_diag_dangling_line(r->d, r->objs[idx[i]].u.line);
			continue;
		}
		PT_ALLOC_GROW(g->edges, g->edges_len + 3, g->edges_alloc);
		rec = g->edges + g->edges_len;
		rec[0] = 0; /* element */
		rec[1] = k++;
		rec[2] = to * 5;
		g->edges_len += 3;
	}
	return k;
}

/* mark what the objects in list reach (over references to defined objects) */
static void reach(const struct rb_reader *r, uint8_t *mark, uint32_t *stack, const uint32_t *list,
		  size_t n)
{
	size_t top = 0, i;

	for (i = 0; i < n; i++)
		if (r->objs[list[i]].defined && !mark[list[i]]) {
			mark[list[i]] = 1;
			stack[top++] = list[i];
		}
	while (top) {
		const struct rb_obj *o = &r->objs[stack[--top]];
		for (i = 0; i < o->nrefs; i++) {
			uint32_t w = r->refs[o->first + i];
			if (r->objs[w].defined && !mark[w]) {
				mark[w] = 1;
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
	uint8_t *mark = pt_xcalloc(r->nobjs + 1, 1);
	uint32_t *stack = pt_xmalloc((r->nobjs + 1) * sizeof(uint32_t));
	uint32_t *refd = pt_xcalloc(r->nobjs + 1, sizeof(uint32_t));
	size_t k, i;
	uint32_t one;

	for (k = 0; k < r->nobjs; k++)
		for (i = 0; r->objs[k].defined && i < r->objs[k].nrefs; i++)
			if (r->refs[r->objs[k].first + i] != k)
				refd[r->refs[r->objs[k].first + i]] = 1;
	reach(r, mark, stack, r->roots, r->nroots);
	for (k = 0; k < r->nobjs; k++)
		if (r->objs[k].defined && !mark[k] && !refd[k]) {
			one = (uint32_t)k;
			PT_ALLOC_GROW(r->roots, r->nroots + 1, r->roots_alloc);
			r->roots[r->nroots++] = one;
			reach(r, mark, stack, &one, 1);
		}
	for (k = 0; k < r->nobjs; k++)
		if (r->objs[k].defined && !mark[k]) {
			PT_ALLOC_GROW(r->roots, r->nroots + 1, r->roots_alloc);
			r->roots[r->nroots++] = (uint32_t)k;
		}
	free(mark);
	free(stack);
	free(refd);
}

/* The graph from what was read: node 0 the root, then the defined objects in the
 * order of their lines. OBJECT, STRUCT and DATA objects whose class has a name are
 * "object" nodes named by it; every other object is a node of its Ruby type. */
static int build(struct rb_reader *r, struct pt_heapgraph *g)
{
	static const char *const node_fields[] = {"type", "name", "id", "self_size", "edge_count"};
	static const char *const edge_fields[] = {"type", "name_or_index", "to_node"};
	static const char *const edge_types[] = {"element"};
	uint32_t *ordinal = pt_xmalloc((r->nobjs + 1) * sizeof(uint32_t));
	uint32_t *ntype = pt_xmalloc(((size_t)r->strings.n + 1) * sizeof(uint32_t));
	uint32_t nnodes = 1, i, t_object, t_synthetic, s_root, s_object, s_struct, s_data;
	size_t k;

	g->meta_node_fields = str_list(node_fields, 5);
	g->nfields = 5;
	g->meta_edge_fields = str_list(edge_fields, 3);
	g->efields = 3;
	g->edge_types = str_list(edge_types, 1);
	g->nedge_types = 1;
	g->node_types = pt_xmalloc(((size_t)r->strings.n + 2) * sizeof(char *));
	g->node_types[g->nnode_types++] = dup_str("synthetic");
	g->node_types[g->nnode_types++] = dup_str("object");
	t_synthetic = 0;
	t_object = 1;
	memset(ntype, 0xff, ((size_t)r->strings.n + 1) * sizeof(uint32_t));
	s_root = pt_intern(&r->strings, "(Ruby roots)", 12);
	s_object = pt_intern_find(&r->strings, "OBJECT", 6);
	s_struct = pt_intern_find(&r->strings, "STRUCT", 6);
	s_data = pt_intern_find(&r->strings, "DATA", 4);
	for (k = 0; k < r->nobjs; k++)
		ordinal[k] = r->objs[k].defined ? nnodes++ : PT_HEAP_NONE;

	add_unreached(r);
	g->rb_addr = pt_xcalloc((size_t)nnodes, sizeof(uint64_t));
	g->rb_type = pt_xcalloc((size_t)nnodes, sizeof(uint32_t));
	g->rb_site = pt_xcalloc((size_t)nnodes, sizeof(uint32_t));
	g->rb_gen = pt_xcalloc((size_t)nnodes, sizeof(uint32_t));
	g->rb_pinned = pt_xcalloc((size_t)nnodes, 1);
	/* every node and edge at once: the arrays are not moved as they fill */
	PT_ALLOC_GROW(g->nodes, (size_t)nnodes * 5, g->nodes_alloc);
	PT_ALLOC_GROW(g->edges, (r->nrefs + r->nroots) * 3 + 3, g->edges_alloc);
	add_node(g, t_synthetic, s_root, 0, 0, 0);
	g->nodes[4] = add_edges(r, g, r->roots, r->nroots, ordinal);
	for (k = 0; k < r->nobjs; k++) {
		const struct rb_obj *o = &r->objs[k];
		uint32_t type, name = o->type, c;
		if (!o->defined)
			continue;
		if (ntype[o->type] == UINT32_MAX) {
			ntype[o->type] = g->nnode_types;
			g->node_types[g->nnode_types++] =
				dup_str(pt_intern_str(&r->strings, o->type));
		}
		type = ntype[o->type];
		if ((o->type == s_object || o->type == s_struct || o->type == s_data) && o->cls &&
		    r->objs[c = o->cls - 1].defined && r->objs[c].name != UINT32_MAX) {
			type = t_object;
			name = r->objs[c].name;
		}
		g->rb_addr[ordinal[k]] = o->addr;
		g->rb_type[ordinal[k]] = ntype[o->type];
		g->rb_site[ordinal[k]] = o->u.d.site;
		g->rb_gen[ordinal[k]] = o->u.d.gen;
		g->rb_pinned[ordinal[k]] = (uint8_t)o->pinned;
		add_node(g, type, name, ordinal[k], o->memsize, 0);
		/* refs is NULL while no object has references: no offset from it */
		g->nodes[g->nodes_len - 1] =
			add_edges(r, g, o->nrefs ? r->refs + o->first : NULL, o->nrefs, ordinal);
	}
	for (i = 0; i < r->strings.n; i++)
		pt_heapgraph_add_string(g, pt_intern_str(&r->strings, i),
					pt_intern_len(&r->strings, i));
	free(ordinal);
	free(ntype);
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
	pt_arena_init(&r.arena);
	pt_intern_init(&r.strings, &r.arena);
	pt_map_init(&r.index);
	pt_buf_init(&r.sbuf);
	pt_buf_init(&r.file);
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
	pt_map_release(&r.index);
	pt_buf_release(&r.sbuf);
	pt_buf_release(&r.file);
	if (!st)
		st = build(&r, g);
	pt_intern_release(&r.strings);
	pt_arena_release(&r.arena);
	free(r.objs);
	free(r.refs);
	free(r.roots);
	return st < 0 ? -1 : 0;
}

/* the first line: a JSON object that is a ROOT or has an "address" and a "type" */
static int rubyheap_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *nl;
	size_t i = pt_json_skip_ws(head, 0, len), n;

	if (i == len || head[i] != '{')
		return 0;
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
