/* heapprofile.c: V8 sampling heap profiles (node --heap-prof, DevTools "Allocation
 * sampling", CDP HeapProfiler.stopSampling): a nested `head` tree of callFrames with
 * selfSize, and `samples` (size, nodeId). Reader only; see formats/heapprofile.md. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "formats/format.h"
#include "formats/v8json.h"
#include "util/json.h"
#include "util/sort.h"
#include "util/xalloc.h"

#define NO_VALUE INT64_MIN

struct hnode {
	int64_t id, self, line, col; /* NO_VALUE when absent */
	uint32_t name, url, script;  /* string ids */
	uint32_t parent;	     /* node index, UINT32_MAX for the head */
	uint32_t ptnode;	     /* call-tree node, once built */
	uint32_t nsamples;	     /* samples naming this node */
	uint64_t off;		     /* input offset of its '{' */
};

struct hsample {
	int64_t size, node_id;
	uint64_t off;
};

enum ctx { C_TOP, C_NODE, C_CALLFRAME, C_CHILDREN, C_SAMPLES, C_SAMPLE };

enum key {
	K_NONE,
	K_HEAD,
	K_SAMPLES,
	K_CALLFRAME,
	K_SELFSIZE,
	K_ID,
	K_CHILDREN,
	K_FUNCNAME,
	K_URL,
	K_SCRIPT,
	K_LINE,
	K_COL,
	K_SIZE,
	K_NODEID,
	K_OTHER,
};

struct level {
	uint32_t ctx;
	uint32_t idx; /* C_NODE, C_CALLFRAME, C_CHILDREN: node index; C_SAMPLE: sample */
};

struct reader {
	struct pt_v8json j;
	struct pt_profile *p;
	int has_head, has_samples;
	struct level *stack;
	size_t depth, stack_alloc;
	enum key key;
	struct hnode *nodes;
	size_t nnodes, nodes_alloc;
	struct hsample *samples;
	size_t nsamples, samples_alloc;
};

static const struct pt_json_key keys[] = {
	{C_TOP, "head", K_HEAD},
	{C_TOP, "samples", K_SAMPLES},
	{C_NODE, "callFrame", K_CALLFRAME},
	{C_NODE, "selfSize", K_SELFSIZE},
	{C_NODE, "id", K_ID},
	{C_NODE, "children", K_CHILDREN},
	{C_CALLFRAME, "functionName", K_FUNCNAME},
	{C_CALLFRAME, "url", K_URL},
	{C_CALLFRAME, "scriptId", K_SCRIPT},
	{C_CALLFRAME, "lineNumber", K_LINE},
	{C_CALLFRAME, "columnNumber", K_COL},
	{C_SAMPLE, "size", K_SIZE},
	{C_SAMPLE, "nodeId", K_NODEID},
};

static const char *key_name(enum key k)
{
	return pt_json_key_name(keys, sizeof(keys) / sizeof(keys[0]), k);
}

static struct level *top(struct reader *r)
{
	return r->depth ? &r->stack[r->depth - 1] : NULL;
}

static int push(struct reader *r, enum ctx c, uint32_t idx)
{
	if (!pt_v8json_depth_ok(&r->j, r->depth))
		return 0;
	PT_ALLOC_GROW(r->stack, r->depth + 1, r->stack_alloc);
	r->stack[r->depth].ctx = c;
	r->stack[r->depth].idx = idx;
	r->depth++;
	return 1;
}

static int new_node(struct reader *r, uint32_t parent)
{
	struct hnode *n;

	if (r->nnodes >= UINT32_MAX - 2)
		return pt_v8json_fail(&r->j, "too many nodes");
	PT_ALLOC_GROW(r->nodes, r->nnodes + 1, r->nodes_alloc);
	n = &r->nodes[r->nnodes];
	memset(n, 0, sizeof(*n));
	n->id = n->self = n->line = n->col = NO_VALUE;
	n->parent = parent;
	n->off = pt_v8json_here(&r->j) - 1;
	return push(r, C_NODE, (uint32_t)r->nnodes++);
}

static int new_sample(struct reader *r)
{
	struct hsample *s;

	if (r->nsamples >= UINT32_MAX - 2)
		return pt_v8json_fail(&r->j, "too many samples");
	PT_ALLOC_GROW(r->samples, r->nsamples + 1, r->samples_alloc);
	s = &r->samples[r->nsamples];
	s->size = s->node_id = NO_VALUE;
	s->off = pt_v8json_here(&r->j) - 1;
	return push(r, C_SAMPLE, (uint32_t)r->nsamples++);
}

/* the type each key's value must have */
static enum pt_json_kind key_wants(enum key k)
{
	switch (k) {
	case K_HEAD:
	case K_CALLFRAME:
		return PT_JSON_MAP;
	case K_SAMPLES:
	case K_CHILDREN:
		return PT_JSON_ARRAY;
	case K_FUNCNAME:
	case K_URL:
	case K_SCRIPT:
		return PT_JSON_STRING;
	default:
		return PT_JSON_NUMBER;
	}
}

/* a number for key k of the container at l */
static int set_number(struct reader *r, struct level *l, enum key k, const char *s, size_t len)
{
	int64_t x;

	if (pt_v8json_num(s, len, &x, 0) < 0)
		return pt_v8json_fail_at(&r->j, pt_v8json_here(&r->j) - len,
					 "'%s' is not an integer in range", key_name(k));
	if ((k == K_SELFSIZE || k == K_SIZE) && x < 0)
		return pt_v8json_fail_at(&r->j, pt_v8json_here(&r->j) - len,
					 "negative '%s' %" PRId64, key_name(k), x);
	if (l->ctx == C_SAMPLE) {
		if (k == K_SIZE)
			r->samples[l->idx].size = x;
		else
			r->samples[l->idx].node_id = x;
		return 1;
	}
	{
		struct hnode *n = &r->nodes[l->idx];
		if (k == K_SELFSIZE)
			n->self = x;
		else if (k == K_ID)
			n->id = x;
		else if (k == K_LINE)
			n->line = x;
		else
			n->col = x;
	}
	return 1;
}

static int on_value(struct reader *r, enum pt_json_kind vk, const char *s, size_t len)
{
	struct level *l = top(r);
	enum key k = r->key;

	r->key = K_NONE;
	if (r->j.skip)
		return pt_v8json_skip(&r->j, r->depth, pt_json_opens(vk));
	if (!l) {
		r->j.top_seen = 1;
		if (vk != PT_JSON_MAP)
			return pt_v8json_fail(&r->j,
					      "not a V8 heap profile: the JSON is not an object");
		return push(r, C_TOP, 0);
	}
	if (l->ctx == C_CHILDREN || l->ctx == C_SAMPLES) {
		if (vk != PT_JSON_MAP)
			return pt_v8json_fail(&r->j, "an element of '%s' is not an object",
					      l->ctx == C_CHILDREN ? "children" : "samples");
		return l->ctx == C_CHILDREN ? new_node(r, l->idx) : new_sample(r);
	}
	if (k == K_NONE || k == K_OTHER) {
		return pt_v8json_pass(&r->j, pt_json_opens(vk));
	}
	if (vk != key_wants(k))
		return pt_v8json_fail(&r->j, "'%s' is not %s", key_name(k),
				      pt_json_kind_name(key_wants(k)));
	switch (k) {
	case K_HEAD:
		if (r->has_head)
			return pt_v8json_fail(&r->j, "a second 'head'");
		r->has_head = 1;
		return new_node(r, UINT32_MAX);
	case K_SAMPLES:
		if (r->has_samples)
			return pt_v8json_fail(&r->j, "a second 'samples'");
		r->has_samples = 1;
		return push(r, C_SAMPLES, 0);
	case K_CALLFRAME:
		return push(r, C_CALLFRAME, l->idx);
	case K_CHILDREN:
		return push(r, C_CHILDREN, l->idx);
	case K_FUNCNAME:
	case K_URL:
	case K_SCRIPT: {
		struct hnode *n = &r->nodes[l->idx];
		uint32_t id = pt_strn(r->p, s, len);
		if (k == K_FUNCNAME)
			n->name = id;
		else if (k == K_URL)
			n->url = id;
		else
			n->script = id;
		return 1;
	}
	default:
		return set_number(r, l, k, s, len);
	}
}

static int cb_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	struct level *l = top(r);

	r->key = K_NONE;
	if (r->j.skip || !l)
		return 1;
	r->key = pt_json_key_find(keys, sizeof(keys) / sizeof(keys[0]), (int)l->ctx, s, len,
				  K_OTHER);
	return 1;
}
static int cb_end(void *ctx)
{
	struct reader *r = ctx;
	if (!pt_v8json_end_skip(&r->j) && r->depth)
		r->depth--;
	return 1;
}

PT_JSON_CALLBACKS(callbacks, on_value, cb_map_key, cb_end);

/* ---- the call tree ---- */

/* names V8 gives to allocations outside JavaScript: "(root)", "(V8 API)", "(GC)",
 * "(BYTECODE_COMPILER)", "(EXTERNAL)", "(IDLE)", ... */
static int is_synthetic(const char *name, const char *url)
{
	size_t n = strlen(name);
	return !*url && n > 2 && name[0] == '(' && name[n - 1] == ')';
}

static uint32_t node_frame(struct pt_profile *p, const struct hnode *n)
{
	const char *name = pt_s(p, n->name), *url = pt_s(p, n->url);
	const char *script = pt_s(p, n->script);
	/* 0-based, -1 = none, as in .cpuprofile; ours 1-based, 0 = unknown */
	int64_t l = n->line != NO_VALUE && n->line >= 0 && n->line < INT64_MAX ? n->line + 1 : 0;
	int64_t c = n->col != NO_VALUE && n->col >= 0 && n->col < INT64_MAX ? n->col + 1 : 0;
	uint32_t file = n->url;
	struct pt_frame f;

	memset(&f, 0, sizeof(f));
	if (!*url && l > 0 && *script && strcmp(script, "0")) {
		/* eval'd code: DevTools names its script "VM<scriptId>" */
		char vm[80];
		snprintf(vm, sizeof(vm), "VM%.70s", script);
		file = pt_str(p, vm);
	}
	if (!*url && l == 0)
		f.flags = is_synthetic(name, url) ? PT_FRAME_SYNTHETIC : PT_FRAME_NATIVE;
	/* the column is part of the function, as in DevTools and in .cpuprofile */
	f.func = pt_profile_func_ident(p, *name ? n->name : pt_str(p, "(anonymous)"), 0, file, l,
				       (uint64_t)c);
	f.column = c;
	return pt_profile_frame(p, &f);
}

struct idx {
	int64_t id;
	uint32_t node;
	uint32_t pad;
};

static int cmp_idx(const void *a, const void *b)
{
	const struct idx *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* node index of id, or UINT32_MAX: a binary search, as the ids come from the input
 * (no hash a crafted file could make collide) */
static uint32_t find_id(const struct idx *v, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].id == id ? v[lo].node : UINT32_MAX;
}

static int build(struct reader *r, uint64_t end_off)
{
	struct pt_profile *p = r->p;
	struct idx *ids = NULL;
	uint32_t t_objects = 0;
	uint64_t orphans = 0;
	size_t i, nids = 0;
	int ret = -1;

	if (!r->has_head || !r->nnodes) {
		pt_diag_error_at(r->j.d, end_off, "not a V8 heap profile: no 'head'");
		goto out;
	}
	ids = pt_xmalloc(r->nnodes * sizeof(*ids));
	for (i = 0; i < r->nnodes; i++) {
		struct hnode *n = &r->nodes[i];
		/* ids serve the samples only: older V8 (Chrome 69, node 10) wrote
		 * neither, the tree is the nesting */
		if (n->id == NO_VALUE && r->has_samples) {
			pt_diag_error_at(r->j.d, n->off, "node without 'id'");
			goto out;
		}
		if (n->self == NO_VALUE) {
			if (n->id == NO_VALUE)
				pt_diag_error_at(r->j.d, n->off, "node without 'selfSize'");
			else
				pt_diag_error_at(r->j.d, n->off,
						 "node %" PRId64 " without 'selfSize'", n->id);
			goto out;
		}
		ids[nids].id = n->id;
		ids[nids].node = (uint32_t)i;
		ids[nids].pad = 0;
		nids += n->id != NO_VALUE;
	}
	pt_qsort(ids, nids, sizeof(*ids), cmp_idx);
	for (i = 1; i < nids; i++)
		if (ids[i].id == ids[i - 1].id) {
			uint32_t later =
				ids[i].node > ids[i - 1].node ? ids[i].node : ids[i - 1].node;
			pt_diag_error_at(r->j.d, r->nodes[later].off, "duplicate node id %" PRId64,
					 ids[i].id);
			goto out;
		}
	for (i = 0; i < r->nsamples; i++) {
		struct hsample *s = &r->samples[i];
		uint32_t ni;
		if (s->size == NO_VALUE || s->node_id == NO_VALUE) {
			pt_diag_error_at(r->j.d, s->off, "sample without '%s'",
					 s->size == NO_VALUE ? "size" : "nodeId");
			goto out;
		}
		ni = find_id(ids, nids, s->node_id);
		/* V8 may record the last allocations after it has copied the tree out: node
		 * writes samples naming a node that is not in `head` (their size is in no
		 * selfSize either). They are left out and counted. */
		if (ni == UINT32_MAX)
			orphans++;
		else
			r->nodes[ni].nsamples++;
	}
	if (orphans) {
		char num[32];
		snprintf(num, sizeof(num), "%" PRIu64, orphans);
		pt_profile_add_meta(p, "samples_without_node", num);
	}

	pt_profile_add_type(p, "space", "bytes");
	if (r->has_samples)
		t_objects = pt_profile_add_type(p, "objects", "count");
	pt_profile_reserve(p, r->nnodes + 1, r->nnodes);
	/* a node's object opens before its children's: parents have smaller indexes */
	for (i = 0; i < r->nnodes; i++) {
		struct hnode *n = &r->nodes[i];
		const char *name = pt_s(p, n->name);
		int64_t v[2] = {0, 0};
		if (n->parent == UINT32_MAX && !strcmp(name, "(root)") && !*pt_s(p, n->url))
			n->ptnode = 0;
		else
			n->ptnode = pt_profile_child(
				p, n->parent == UINT32_MAX ? 0 : r->nodes[n->parent].ptnode,
				node_frame(p, n));
		v[0] = n->self;
		if (r->has_samples)
			v[t_objects] = n->nsamples;
		if (v[0] || v[1])
			pt_profile_add_sample(p, n->ptnode, 0, v, 0);
	}
	ret = 0;
out:
	free(ids);
	return ret;
}

static int heapprofile_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			    struct pt_diag *d)
{
	struct reader r;
	const struct pt_v8json_opts jo = {0, NULL, NULL};
	int ret = -1;

	(void)o;
	memset(&r, 0, sizeof(r));
	r.p = p;
	r.j.d = d;
	p->format = "heapprofile";
	if (pt_v8json_parse(&r.j, &callbacks, &r, in, &jo) < 0)
		goto out;
	ret = build(&r, r.j.end_off);
out:
	pt_v8json_release(&r.j);
	free(r.stack);
	free(r.nodes);
	free(r.samples);
	return ret;
}

/* V8 writes `head` first and its callFrame then selfSize; a writer that puts `samples`
 * first still shows nodeId and ordinal. Above cpuprofile's score for "callFrame". */
static int heapprofile_detect(const unsigned char *head, size_t len)
{
	if (pt_json_first(head, len) != '{')
		return 0;
	if (PT_JSON_HAS_KEY(head, len, "selfSize") &&
	    (PT_JSON_HAS_KEY(head, len, "callFrame") || PT_JSON_HAS_KEY(head, len, "head")))
		return 90;
	if (PT_JSON_HAS_KEY(head, len, "samples") && PT_JSON_HAS_KEY(head, len, "nodeId") &&
	    PT_JSON_HAS_KEY(head, len, "ordinal"))
		return 85;
	return 0;
}

const struct pt_format pt_format_heapprofile = {
	.name = "heapprofile",
	.description = "V8 sampling heap profile: node --heap-prof / DevTools allocation "
		       "sampling .heapprofile",
	.suffixes = NULL,
	.detect = heapprofile_detect,
	.read = heapprofile_read,
	.write = NULL,
};
