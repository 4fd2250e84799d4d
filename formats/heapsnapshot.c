/* heapsnapshot.c: V8 heap snapshots (v8.writeHeapSnapshot, DevTools "Heap snapshot"):
 * streamed with yajl into the packed arrays of core/heapgraph.h. As a profile format it
 * reads the allocation stacks (trace tree) only; see formats/heapsnapshot.md. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yajl/yajl_parse.h>

#include "formats/format.h"
#include "formats/v8json.h"
#include "util/json.h"
#include "util/xalloc.h"

#define MAX_FIELDS 64	/* a meta field list longer than this is refused */
#define MAX_TYPES  4096 /* and a type list */

enum ctx {
	C_TOP,
	C_SNAPSHOT,
	C_META,
	C_LIST,	   /* a meta list of strings: target in `list` */
	C_TYPES,   /* node_types / edge_types: [[names...], "string", ...] */
	C_INTS,	   /* nodes, edges, trace_function_infos: target in `ints` */
	C_STRINGS, /* strings */
	C_TRACE,   /* a level of trace_tree */
};

enum target {
	T_NONE,
	T_NODE_FIELDS,
	T_EDGE_FIELDS,
	T_NODE_TYPES,
	T_EDGE_TYPES,
	T_TF_FIELDS,
	T_TN_FIELDS,
	T_NODES,
	T_EDGES,
	T_TFUNCS,
	T_SKIPPED /* scan_ints: a top-level array we do not read (samples, locations) */
};

struct level {
	uint8_t ctx, target;
	uint16_t pos;	 /* C_TYPES: element index; C_TRACE: field index in the record */
	uint32_t parent; /* C_TRACE: index of the parent trace node, PT_HEAP_NONE at top */
	uint32_t cur;	 /* C_TRACE: the record being read */
};

struct reader {
	struct pt_v8json j;
	struct pt_heapgraph *g;
	int seen_nodes, seen_edges, seen_strings;
	int mute;	 /* feeding yajl the state to resume in: callbacks do nothing */
	enum target raw; /* the array whose start stopped yajl for scan_ints */
	int raw_skips;	 /* top-level arrays skipped by scan_ints */
	struct level *stack;
	size_t depth, stack_alloc;
	const char *key; /* the key whose value comes next (static name), NULL = other */
	/* trace_node_fields positions, once the meta is read */
	uint32_t tn_id, tn_fi, tn_count, tn_size, tn_children;
	uint64_t trace_nums; /* numbers read in trace_tree so far */
};

static struct level *top(struct reader *r)
{
	return r->depth ? &r->stack[r->depth - 1] : NULL;
}

static int push(struct reader *r, enum ctx c, enum target t)
{
	struct level *l;
	if (!pt_v8json_depth_ok(&r->j, r->depth))
		return 0;
	PT_ALLOC_GROW(r->stack, r->depth + 1, r->stack_alloc);
	l = &r->stack[r->depth++];
	memset(l, 0, sizeof(*l));
	l->ctx = (uint8_t)c;
	l->target = (uint8_t)t;
	l->parent = l->cur = PT_HEAP_NONE;
	return 1;
}

/* the string list a target fills */
static char ***list_of(struct pt_heapgraph *g, enum target t, uint32_t **n)
{
	switch (t) {
	case T_NODE_FIELDS:
		*n = &g->nfields;
		return &g->meta_node_fields;
	case T_EDGE_FIELDS:
		*n = &g->efields;
		return &g->meta_edge_fields;
	case T_NODE_TYPES:
		*n = &g->nnode_types;
		return &g->node_types;
	case T_EDGE_TYPES:
		*n = &g->nedge_types;
		return &g->edge_types;
	case T_TF_FIELDS:
		*n = &g->ntf_fields;
		return &g->meta_tf_fields;
	default:
		*n = &g->ntn_fields;
		return &g->meta_tn_fields;
	}
}

static int list_add(struct reader *r, enum target t, const char *s, size_t len)
{
	uint32_t *n;
	char ***v = list_of(r->g, t, &n);
	char *c;

	if (*n >= (t == T_NODE_TYPES || t == T_EDGE_TYPES ? MAX_TYPES : MAX_FIELDS))
		return pt_v8json_fail(&r->j, "a snapshot.meta list longer than %d",
				      t == T_NODE_TYPES || t == T_EDGE_TYPES ? MAX_TYPES
									     : MAX_FIELDS);
	*v = pt_xrealloc(*v, (*n + 1) * sizeof(char *));
	c = pt_xmalloc(len + 1);
	memcpy(c, s, len);
	c[len] = '\0';
	(*v)[(*n)++] = c;
	return 1;
}

static int parse_u32(const char *s, size_t n, uint32_t *v)
{
	uint64_t acc = 0;
	size_t i;

	if (!n || n > 10)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		acc = acc * 10 + (uint64_t)(s[i] - '0');
	}
	if (acc > UINT32_MAX)
		return -1;
	*v = (uint32_t)acc;
	return 0;
}

static uint32_t field_pos(char **v, uint32_t n, const char *name)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return i;
	return PT_HEAP_NONE;
}

/* a number inside a trace_tree level */
static int trace_number(struct reader *r, struct level *l, uint32_t x)
{
	struct pt_heapgraph *g = r->g;
	struct pt_heap_trace *t;

	if (l->pos == 0) {
		if (g->ntraces >= UINT32_MAX - 2)
			return pt_v8json_fail(&r->j, "too many trace nodes");
		PT_ALLOC_GROW(g->traces, g->ntraces + 1, g->traces_alloc);
		t = &g->traces[g->ntraces];
		memset(t, 0, sizeof(*t));
		t->parent = l->parent;
		l->cur = (uint32_t)g->ntraces++;
	}
	if (l->pos == r->tn_children)
		return pt_v8json_fail(&r->j,
				      "trace_tree: a number where the children array belongs");
	t = &g->traces[l->cur];
	if (l->pos == r->tn_id)
		t->id = x;
	else if (l->pos == r->tn_fi) {
		t->func = x;
		t->func_at = r->trace_nums < UINT32_MAX ? (uint32_t)r->trace_nums : UINT32_MAX;
	} else if (l->pos == r->tn_count)
		t->count = x;
	else if (l->pos == r->tn_size)
		t->size = x;
	r->trace_nums++;
	if (++l->pos == r->g->ntn_fields)
		l->pos = 0;
	return 1;
}

static int begin_trace(struct reader *r)
{
	struct pt_heapgraph *g = r->g;
	if (!g->ntn_fields)
		return pt_v8json_fail(&r->j, "'trace_tree' before snapshot.meta.trace_node_fields");
	r->tn_id = field_pos(g->meta_tn_fields, g->ntn_fields, "id");
	r->tn_fi = field_pos(g->meta_tn_fields, g->ntn_fields, "function_info_index");
	r->tn_count = field_pos(g->meta_tn_fields, g->ntn_fields, "count");
	r->tn_size = field_pos(g->meta_tn_fields, g->ntn_fields, "size");
	r->tn_children = field_pos(g->meta_tn_fields, g->ntn_fields, "children");
	if (r->tn_fi == PT_HEAP_NONE || r->tn_children == PT_HEAP_NONE)
		return pt_v8json_fail(&r->j,
				      "trace_node_fields lacks function_info_index or children");
	return push(r, C_TRACE, T_NONE);
}

enum vkind { V_MAP, V_ARRAY, V_NUMBER, V_STRING, V_OTHER };

static int on_value(struct reader *r, enum vkind vk, const char *s, size_t len)
{
	struct level *l = top(r);
	const char *k = r->key;

	r->key = NULL;
	if (r->j.skip)
		return pt_v8json_skip(&r->j, r->depth, vk == V_MAP || vk == V_ARRAY);
	if (!l) {
		r->j.top_seen = 1;
		if (vk != V_MAP)
			return pt_v8json_fail(&r->j,
					      "not a V8 heap snapshot: the JSON is not an object");
		return push(r, C_TOP, T_NONE);
	}
	switch ((enum ctx)l->ctx) {
	case C_LIST:
		if (vk != V_STRING)
			return pt_v8json_fail(
				&r->j, "snapshot.meta: a field or type name is not a string");
		return list_add(r, (enum target)l->target, s, len);
	case C_TYPES:
		/* the first element lists the type names; the others say what the other
		 * fields hold ("string", "number", ...) and are not needed */
		if (l->pos++ == 0) {
			if (vk != V_ARRAY)
				return pt_v8json_fail(
					&r->j, "snapshot.meta: the first element of a type list "
					       "is not an array");
			return push(r, C_LIST, (enum target)l->target);
		}
		return pt_v8json_pass(&r->j, vk == V_MAP || vk == V_ARRAY);
	case C_INTS: {
		struct pt_heapgraph *g = r->g;
		uint32_t x;
		if (vk != V_NUMBER || parse_u32(s, len, &x) < 0)
			return pt_v8json_fail(
				&r->j, "an element of '%s' is not an integer from 0 to 4294967295",
				l->target == T_NODES   ? "nodes"
				: l->target == T_EDGES ? "edges"
						       : "trace_function_infos");
		if (l->target == T_NODES) {
			PT_ALLOC_GROW(g->nodes, g->nodes_len + 1, g->nodes_alloc);
			g->nodes[g->nodes_len++] = x;
		} else if (l->target == T_EDGES) {
			PT_ALLOC_GROW(g->edges, g->edges_len + 1, g->edges_alloc);
			g->edges[g->edges_len++] = x;
		} else {
			PT_ALLOC_GROW(g->tfuncs, g->tfuncs_len + 1, g->tfuncs_alloc);
			g->tfuncs[g->tfuncs_len++] = x;
		}
		return 1;
	}
	case C_STRINGS:
		if (vk != V_STRING)
			return pt_v8json_fail(&r->j, "an element of 'strings' is not a string");
		if (r->g->nstrings >= UINT32_MAX - 1)
			return pt_v8json_fail(&r->j, "too many strings");
		pt_heapgraph_add_string(r->g, s, len);
		return 1;
	case C_TRACE: {
		uint32_t x;
		if (vk == V_ARRAY) {
			uint32_t parent;
			if (l->pos != r->tn_children || l->cur == PT_HEAP_NONE)
				return pt_v8json_fail(
					&r->j, "trace_tree: an array where a number belongs");
			parent = l->cur;
			if (++l->pos == r->g->ntn_fields)
				l->pos = 0;
			if (!push(r, C_TRACE, T_NONE))
				return 0;
			top(r)->parent = parent;
			return 1;
		}
		if (vk != V_NUMBER || parse_u32(s, len, &x) < 0)
			return pt_v8json_fail(&r->j,
					      "trace_tree: an element is not an integer from 0 to "
					      "4294967295");
		return trace_number(r, l, x);
	}
	default:
		break;
	}
	/* object members */
	if (!k) {
		/* locations is as long as the edges; a new yajl parser costs more than a
		 * short array, so a crafted run of them goes through yajl */
		if (vk == V_ARRAY && l->ctx == C_TOP && r->raw_skips < 8) {
			r->raw_skips++;
			r->raw = T_SKIPPED;
			return 0;
		}
		return pt_v8json_pass(&r->j, vk == V_MAP || vk == V_ARRAY);
	}
	if (!strcmp(k, "snapshot") || !strcmp(k, "meta")) {
		if (vk != V_MAP)
			return pt_v8json_fail(&r->j, "'%s' is not an object", k);
		return push(r, k[0] == 's' ? C_SNAPSHOT : C_META, T_NONE);
	}
	if (vk != V_ARRAY)
		return pt_v8json_fail(&r->j, "'%s' is not an array", k);
	if (l->ctx == C_META) {
		if (!strcmp(k, "node_types") || !strcmp(k, "edge_types")) {
			uint32_t *n;
			enum target t = k[0] == 'n' ? T_NODE_TYPES : T_EDGE_TYPES;
			if (*list_of(r->g, t, &n))
				return pt_v8json_fail(&r->j, "a second '%s'", k);
			return push(r, C_TYPES, t);
		}
		{
			enum target t = !strcmp(k, "node_fields")		   ? T_NODE_FIELDS
					: !strcmp(k, "edge_fields")		   ? T_EDGE_FIELDS
					: !strcmp(k, "trace_function_info_fields") ? T_TF_FIELDS
										   : T_TN_FIELDS;
			uint32_t *n;
			if (*list_of(r->g, t, &n))
				return pt_v8json_fail(&r->j, "a second '%s'", k);
			return push(r, C_LIST, t);
		}
	}
	if (!strcmp(k, "strings")) {
		if (r->seen_strings++)
			return pt_v8json_fail(&r->j, "a second 'strings'");
		return push(r, C_STRINGS, T_NONE);
	}
	if (!strcmp(k, "trace_tree"))
		return begin_trace(r);
	if (!strcmp(k, "nodes") || !strcmp(k, "edges")) {
		enum target t = k[0] == 'n' ? T_NODES : T_EDGES;
		if ((*(t == T_NODES ? &r->seen_nodes : &r->seen_edges))++)
			return pt_v8json_fail(&r->j, "a second '%s'", k);
		if (!push(r, C_INTS, t))
			return 0;
		/* stop yajl: scan_ints reads the elements */
		r->raw = t;
		return 0;
	}
	return push(r, C_INTS, T_TFUNCS); /* trace_function_infos */
}

static int cb_null(void *ctx)
{
	if (((struct reader *)ctx)->mute)
		return 1;
	return on_value(ctx, V_OTHER, NULL, 0);
}
static int cb_boolean(void *ctx, int b)
{
	if (((struct reader *)ctx)->mute)
		return 1;
	(void)b;
	return on_value(ctx, V_OTHER, NULL, 0);
}
static int cb_number(void *ctx, const char *s, size_t len)
{
	struct reader *r = ctx;
	struct level *l = r->j.skip ? NULL : top(r);
	uint32_t x;

	if (r->mute)
		return 1;

	/* the bulk of a snapshot: elements of nodes and edges */
	if (l && l->ctx == C_INTS && l->target != T_TFUNCS && parse_u32(s, len, &x) == 0) {
		struct pt_heapgraph *g = r->g;
		if (l->target == T_NODES) {
			PT_ALLOC_GROW(g->nodes, g->nodes_len + 1, g->nodes_alloc);
			g->nodes[g->nodes_len++] = x;
		} else {
			PT_ALLOC_GROW(g->edges, g->edges_len + 1, g->edges_alloc);
			g->edges[g->edges_len++] = x;
		}
		return 1;
	}
	return on_value(ctx, V_NUMBER, s, len);
}
static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	if (((struct reader *)ctx)->mute)
		return 1;
	return on_value(ctx, V_STRING, (const char *)s, len);
}
static int cb_start_map(void *ctx)
{
	if (((struct reader *)ctx)->mute)
		return 1;
	return on_value(ctx, V_MAP, NULL, 0);
}
static int cb_start_array(void *ctx)
{
	if (((struct reader *)ctx)->mute)
		return 1;
	return on_value(ctx, V_ARRAY, NULL, 0);
}

static const char *const top_keys[] = {
	"snapshot", "nodes", "edges", "strings", "trace_function_infos", "trace_tree", NULL};
static const char *const meta_keys[] = {"node_fields",
					"edge_fields",
					"node_types",
					"edge_types",
					"trace_function_info_fields",
					"trace_node_fields",
					NULL};

static int cb_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	struct level *l = top(r);
	const char *const *v = NULL;
	size_t i;

	r->key = NULL;
	if (r->j.skip || !l || r->mute)
		return 1;
	if (l->ctx == C_TOP)
		v = top_keys;
	else if (l->ctx == C_SNAPSHOT) {
		if (len == 4 && !memcmp(s, "meta", 4))
			r->key = "meta";
		return 1;
	} else if (l->ctx == C_META)
		v = meta_keys;
	for (i = 0; v && v[i]; i++)
		if (strlen(v[i]) == len && !memcmp(v[i], s, len)) {
			r->key = v[i];
			break;
		}
	return 1;
}
static int cb_end(void *ctx)
{
	struct reader *r = ctx;
	if (r->mute)
		return 1;
	if (pt_v8json_end_skip(&r->j))
		return 1;
	if (r->depth) {
		struct level *l = top(r);
		if (l->ctx == C_TRACE && l->pos != 0)
			return pt_v8json_fail(
				&r->j, "trace_tree: a record cut short (%u of %" PRIu32 " fields)",
				(unsigned)l->pos, r->g->ntn_fields);
		r->depth--;
	}
	return 1;
}

static const yajl_callbacks callbacks = {
	cb_null,      cb_boolean, NULL,	  NULL,		  cb_number, cb_string,
	cb_start_map, cb_map_key, cb_end, cb_start_array, cb_end,
};

/* The bulk of a snapshot, the integers of 'nodes' and 'edges', read here rather than
 * through yajl's callbacks: digits, commas and whitespace. The scan stops in front of
 * anything else (a sign, a fraction, an exponent, a leading zero, more than 32 bits,
 * another token, the end of the input) and yajl goes on from there in the same state,
 * so every error and its offset are the ones yajl and on_value give. */
enum { AT_START, AT_VALUE, AT_COMMA, AT_CLOSE };

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* from just after the array's '['; returns the state it stopped in (AT_CLOSE: after its
 * ']'), -1 on a read error */
static int scan_ints(struct reader *r, struct pt_input *in, enum target t)
{
	struct pt_heapgraph *g = r->g;
	uint32_t *v = t == T_NODES ? g->nodes : g->edges;
	size_t len = t == T_NODES ? g->nodes_len : g->edges_len;
	size_t alloc = t == T_NODES ? g->nodes_alloc : g->edges_alloc;
	int state = AT_START;

	for (;;) {
		const unsigned char *p;
		int rc = pt_input_need(in, PT_V8JSON_CHUNK, &p);
		size_t n, i = 0, stop;

		if (rc < 0) {
			state = -1;
			break;
		}
		n = in->end - in->pos;
		/* a number is 10 digits at most: before the end of the window, one that
		 * starts is there whole with the byte after it */
		stop = rc ? n - 11 : n;
		while (i < stop) {
			unsigned char c = p[i];
			if (is_digit(c)) {
				size_t s = i;
				uint64_t x = (uint64_t)(c - '0');
				if (state == AT_VALUE)
					goto stop;
				i++;
				if (c != '0')
					while (i < n && is_digit(p[i]) && i - s < 10)
						x = x * 10 + (uint64_t)(p[i++] - '0');
				if (i == n || x > UINT32_MAX || is_digit(p[i]) || p[i] == '.' ||
				    p[i] == 'e' || p[i] == 'E') {
					i = s;
					goto stop;
				}
				if (t != T_SKIPPED) {
					if (len == alloc) {
						alloc = alloc < 4096 ? 4096 : alloc * 2;
						v = pt_xreallocarray(v, alloc, sizeof(*v));
					}
					v[len++] = (uint32_t)x;
				}
				state = AT_VALUE;
			} else if (c == ',' && state == AT_VALUE) {
				state = AT_COMMA;
				i++;
			} else if (c == ']' && state != AT_COMMA) {
				i++;
				state = AT_CLOSE;
				goto stop;
			} else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
				i++;
			} else {
				goto stop;
			}
		}
		pt_input_consume(in, i);
		if (!rc && i == n)
			break;
		continue;
	stop:
		pt_input_consume(in, i);
		break;
	}
	if (t == T_SKIPPED)
		return state;
	if (t == T_NODES) {
		g->nodes = v;
		g->nodes_len = len;
		g->nodes_alloc = alloc;
	} else {
		g->edges = v;
		g->edges_len = len;
		g->edges_alloc = alloc;
	}
	return state;
}

/* After scan_ints: a new yajl handle, brought to the state the scan stopped in by a
 * prefix its callbacks ignore (yajl cannot skip input). No prefix ends in a number,
 * whose token the next byte would continue. Returns 0 or -1. */
static int resume(struct reader *r, struct pt_input *in)
{
	static const char *const prefix[] = {"{\"\":[", "{\"\":[0 ", "{\"\":[0,", "{\"\":[]"};
	enum target t = r->raw;
	int state;

	r->raw = T_NONE;
	state = scan_ints(r, in, t);
	if (state < 0)
		return -1;
	if (t == T_SKIPPED && state != AT_CLOSE)
		r->j.skip = 1; /* yajl goes on inside it */
	else if (t != T_SKIPPED && state == AT_CLOSE)
		r->depth--;
	pt_yajl()->free(r->j.h);
	r->j.h = pt_yajl()->alloc(&callbacks, NULL, r);
	r->mute = 1;
	if (pt_yajl()->parse(r->j.h, (const unsigned char *)prefix[state], strlen(prefix[state])) !=
	    yajl_status_ok)
		return pt_diag_error_at(r->j.d, pt_input_tell(in), "internal: cannot resume yajl");
	r->mute = 0;
	return 0;
}

/* ---- locating a bad index at its own number, for the error ---- */

/* The byte offset of number k (0-based, in document order) inside the value of the
 * top-level member `key`, found by reading the input again from its start; `fallback`
 * when it cannot be read again (a pipe) or that number is not x there. Nothing is kept
 * per number while reading: this runs once, on the error path. */
static uint64_t locate(struct pt_input *src, const char *key, uint64_t k, uint32_t x,
		       uint64_t fallback)
{
	struct pt_input in;
	struct pt_diag d;
	size_t klen = strlen(key), kpos = 0;
	int depth = 0, instr = 0, esc = 0, innum = 0, match = 0, key_ok = 0, target = 0;
	uint64_t seen = 0, at = 0, val = 0;
	int digits_only = 0;

	pt_diag_init(&d, src->name);
	if (src->mem) {
		if (pt_input_open_mem(&in, src->name, src->mem, src->mem_len, src->max_size, &d) <
		    0)
			return fallback;
	} else {
		/* only a regular file, and the same one: opening a pipe's name again could
		 * wait for a writer */
		struct stat st, st2;
		if (src->fd <= 0 || fstat(src->fd, &st) < 0 || !S_ISREG(st.st_mode))
			return fallback;
		if (pt_input_open(&in, src->name, src->max_size, &d) < 0 ||
		    fstat(in.fd, &st2) < 0 || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
			pt_input_close(&in);
			return fallback;
		}
	}
	for (;;) {
		const unsigned char *p;
		int rc = pt_input_need(&in, PT_V8JSON_CHUNK, &p);
		size_t n, i;
		if (rc < 0)
			break;
		n = in.end - in.pos;
		for (i = 0; i < n; i++) {
			unsigned char c = p[i];
			if (innum) {
				if (is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' ||
				    c == '-') {
					digits_only &= is_digit(c);
					val = val < UINT32_MAX ? val * 10 + (uint64_t)(c - '0')
							       : val;
					continue;
				}
				innum = 0;
				if (target && seen++ == k) {
					pt_input_close(&in);
					return digits_only && val == x ? at : fallback;
				}
			}
			if (instr) {
				if (esc)
					esc = 0, match = 0;
				else if (c == '\\')
					esc = 1, match = 0;
				else if (c == '"')
					instr = 0, key_ok = depth == 1 && match && kpos == klen;
				else if (match && kpos < klen && c == (unsigned char)key[kpos])
					kpos++;
				else
					match = 0;
				continue;
			}
			if (c == '"') {
				instr = 1;
				match = depth == 1;
				kpos = 0;
			} else if (c == '-' || is_digit(c)) {
				innum = 1;
				at = pt_input_tell(&in) + i;
				digits_only = is_digit(c);
				val = digits_only ? (uint64_t)(c - '0') : 0;
			} else if (c == ':' && depth == 1) {
				target = key_ok;
			} else if (c == '{' || c == '[') {
				depth++;
			} else if (c == '}' || c == ']') {
				depth--;
			} else if (c == ',' && depth == 1 && target) {
				goto out;
			}
			if (depth == 0 && c == '}')
				goto out;
		}
		pt_input_consume(&in, n);
		if (!rc)
			break;
	}
	if (innum && target && seen == k && digits_only && val == x)
		fallback = at;
out:
	pt_input_close(&in);
	return fallback;
}

static uint64_t locate_graph(void *ctx, int edges, size_t k, uint32_t x, uint64_t fallback)
{
	return locate(ctx, edges ? "edges" : "nodes", k, x, fallback);
}

/* pt_json_feed_resume's hook: yajl stopped at the start of an array scan_ints reads */
static int resume_hook(void *ctx, struct pt_input *in)
{
	struct reader *r = ctx;

	if (r->raw == T_NONE)
		return 0;
	pt_input_consume(in, pt_yajl()->get_bytes_consumed(r->j.h));
	return resume(r, in) < 0 ? -1 : 1;
}

/* the heap graph row: stream the snapshot from `in` into g (initialized by the caller)
 * and check it (pt_heapgraph_finish); 0, or -1 with d set and g still to be released */
static int heapsnapshot_load(struct pt_input *in, struct pt_heapgraph *g, struct pt_diag *d)
{
	struct reader r;
	const struct pt_v8json_opts jo = {0, resume_hook, NULL};
	uint64_t end_off;
	int ret = -1;

	memset(&r, 0, sizeof(r));
	r.g = g;
	r.j.d = d;
	if (pt_v8json_parse(&r.j, &callbacks, &r, in, &jo) < 0)
		goto out;
	end_off = r.j.end_off;
	if (!r.seen_nodes || !r.seen_edges || !r.seen_strings) {
		pt_diag_error_at(d, end_off, "not a V8 heap snapshot: no '%s'",
				 !r.seen_nodes	 ? "nodes"
				 : !r.seen_edges ? "edges"
						 : "strings");
		goto out;
	}
	{
		const struct pt_heap_locator loc = {locate_graph, in};
		ret = pt_heapgraph_finish(g, end_off, &loc, d) < 0 ? -1 : 0;
	}
out:
	pt_v8json_release(&r.j);
	free(r.stack);
	return ret;
}

/* ---- the format row: allocation stacks as a call tree ---- */

static int heapsnapshot_read(struct pt_input *in, struct pt_profile *p,
			     const struct pt_read_opts *o, struct pt_diag *d)
{
	struct pt_heapgraph g;
	uint32_t *ptnode = NULL, *frames = NULL;
	uint32_t f_name, f_script, f_line, f_col, nf;
	size_t i, nfuncs;
	int ret = -1;

	p->format = "heapsnapshot";
	pt_heapgraph_init(&g);
	if (heapsnapshot_load(in, &g, d) < 0)
		goto out;
	if (!g.ntraces && o && o->heap_out) {
		/* the graph itself is what the caller takes */
		pt_heapgraph_release(o->heap_out);
		*o->heap_out = g;
		pt_heapgraph_init(&g);
		ret = PT_READ_HEAP;
		goto out;
	}
	if (!g.ntraces) {
		pt_diag_error_at(d, pt_input_tell(in),
				 "heap snapshot without allocation stacks (no trace_tree): "
				 "'proftool heap' summarizes it");
		goto out;
	}
	nf = g.ntf_fields;
	f_name = field_pos(g.meta_tf_fields, nf, "name");
	f_script = field_pos(g.meta_tf_fields, nf, "script_name");
	f_line = field_pos(g.meta_tf_fields, nf, "line");
	f_col = field_pos(g.meta_tf_fields, nf, "column");
	if (!nf || f_name == PT_HEAP_NONE || g.tfuncs_len % nf) {
		pt_diag_error_at(d, pt_input_tell(in),
				 "trace_function_infos do not match trace_function_info_fields");
		goto out;
	}
	nfuncs = g.tfuncs_len / nf;
	frames = pt_xcalloc(nfuncs ? nfuncs : 1, sizeof(uint32_t));
	for (i = 0; i < nfuncs; i++) {
		const uint32_t *fi = g.tfuncs + i * nf;
		struct pt_frame f;
		uint32_t name = fi[f_name], script = f_script == PT_HEAP_NONE ? 0 : fi[f_script];
		const char *ns;
		if (name >= g.nstrings || (f_script != PT_HEAP_NONE && script >= g.nstrings)) {
			int bad_name = name >= g.nstrings;
			pt_diag_error_at(
				d,
				locate(in, "trace_function_infos",
				       i * nf + (bad_name ? f_name : f_script),
				       bad_name ? name : script, pt_input_tell(in)),
				"trace function %zu: name or script_name is not a string id", i);
			goto out;
		}
		ns = pt_heap_str(&g, name);
		memset(&f, 0, sizeof(f));
		/* V8 writes line and column 1-based, 0 when unknown */
		f.func = pt_profile_func_text(
			p, pt_strref_cstr(*ns ? ns : "(anonymous)"), pt_strref_of(NULL, 0),
			pt_strref_cstr(f_script == PT_HEAP_NONE ? NULL : pt_heap_str(&g, script)),
			f_line == PT_HEAP_NONE ? 0 : fi[f_line], 0);
		f.column = f_col == PT_HEAP_NONE ? 0 : fi[f_col];
		if (!strcmp(ns, "(root)"))
			frames[i] = 0;
		else
			frames[i] = pt_profile_frame(p, &f);
	}
	pt_profile_add_type(p, "space", "bytes");
	pt_profile_add_type(p, "objects", "count");
	ptnode = pt_xmalloc(g.ntraces * sizeof(uint32_t));
	/* a record comes before its children's: parents have smaller indexes */
	for (i = 0; i < g.ntraces; i++) {
		const struct pt_heap_trace *t = &g.traces[i];
		uint32_t parent = t->parent == PT_HEAP_NONE ? 0 : ptnode[t->parent];
		int64_t v[2];
		if (t->func >= nfuncs) {
			uint64_t end = pt_input_tell(in);
			pt_diag_error_at(
				d,
				t->func_at == UINT32_MAX
					? end
					: locate(in, "trace_tree", t->func_at, t->func, end),
				"trace node %" PRIu32 ": function_info_index %" PRIu32
				" is not one of the %zu trace functions",
				t->id, t->func, nfuncs);
			goto out;
		}
		ptnode[i] = frames[t->func] ? pt_profile_child(p, parent, frames[t->func]) : parent;
		v[0] = (int64_t)t->size;
		v[1] = (int64_t)t->count;
		if (v[0] || v[1])
			pt_profile_add_sample(p, ptnode[i], 0, v, 0);
	}
	ret = 0;
out:
	free(ptnode);
	free(frames);
	pt_heapgraph_release(&g);
	return ret;
}

static int heapsnapshot_detect(const unsigned char *head, size_t len)
{
	if (pt_json_first(head, len) != '{')
		return 0;
	if (PT_JSON_HAS_KEY(head, len, "node_fields") && PT_JSON_HAS_KEY(head, len, "edge_fields"))
		return 95;
	if (PT_JSON_HAS_KEY(head, len, "snapshot") && PT_JSON_HAS_KEY(head, len, "meta"))
		return 70;
	return 0;
}

const struct pt_format pt_format_heapsnapshot = {
	.name = "heapsnapshot",
	.description = "V8 heap snapshot (.heapsnapshot): its allocation stacks, when taken with "
		       "allocation tracking; 'proftool heap' summarizes the heap itself",
	.suffixes = NULL,
	.detect = heapsnapshot_detect,
	.read = heapsnapshot_read,
	.write = NULL,
	.read_heap = heapsnapshot_load, /* the graph itself, for 'proftool heap' */
};
