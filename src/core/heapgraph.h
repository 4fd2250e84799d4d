/* heapgraph.h: a V8 heap snapshot as a graph, kept in the snapshot's own packed layout:
 * one uint32_t array of nodes and one of edges, each record laid out by the meta's field
 * lists (node_fields, edge_fields), plus the strings. Not a call-tree profile: commands
 * that summarize a heap (src/report/heap.c) read it; the reader is formats/heapsnapshot.c.
 *
 * Invariants once a reader has filled it (pt_heapgraph_finish checked them): every
 * node's edge_count fits in the edges left, every edge's to_node was a multiple of
 * nfields below the nodes' length (and is now the target's ordinal, to_node / nfields), every name
 * (node name, string edge name) is a string id, every type is below its type list's length. Node 0
 * is the synthetic root. Ownership: the graph owns every array; pt_heapgraph_release frees them. */
#ifndef PT_HEAPGRAPH_H
#define PT_HEAPGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

#define PT_HEAP_NONE UINT32_MAX

struct pt_heapgraph {
	/* meta: field names and type lists, as string ids into `strings`' own table */
	char **meta_node_fields, **meta_edge_fields, **node_types, **edge_types;
	uint32_t nfields, efields, nnode_types, nedge_types;
	/* offsets of the fields we use in a node / edge record; PT_HEAP_NONE if absent */
	uint32_t f_type, f_name, f_id, f_self, f_edges, f_trace;
	uint32_t e_type, e_name, e_to;
	/* type values we use; PT_HEAP_NONE if the meta has no such type */
	uint32_t t_hidden, t_object, t_native, t_code, t_synthetic, t_string;
	uint32_t t_cons_string, t_sliced_string, t_closure, t_array;
	uint32_t et_weak, et_shortcut, et_element, et_hidden, et_internal, et_context, et_property;

	uint32_t *nodes; /* nnodes * nfields */
	size_t nnodes, nodes_len, nodes_alloc;
	uint32_t *edges; /* nedges * efields */
	size_t nedges, edges_len, edges_alloc;
	uint32_t *first_edge; /* nnodes + 1: index of a node's first edge (in edges) */

	char *strbuf; /* every string, NUL-terminated, back to back */
	size_t strbuf_len, strbuf_alloc;
	size_t *str_off; /* nstrings */
	uint32_t nstrings;
	size_t str_alloc;

	/* allocation tracking (empty without it): trace_function_infos by
	 * trace_function_info_fields, the trace tree flattened to (id, function info, count,
	 * size, parent index) */
	char **meta_tf_fields, **meta_tn_fields;
	uint32_t ntf_fields, ntn_fields;
	uint32_t *tfuncs;
	size_t tfuncs_len, tfuncs_alloc;
	struct pt_heap_trace *traces;
	size_t ntraces, traces_alloc;

	/* Ruby dumps only (all NULL otherwise), per node (the root's entries 0): its address,
	 * the object's identity from one dump to the next; its Ruby type (an index in
	 * node_types: "OBJECT" for an object named by its class); its allocation site (a
	 * string id of "file:line", 0 when the dump has none) and 1 + its GC generation (0:
	 * none), both there only when allocation tracing was on; 1 when GC compaction may
	 * not move it ("flags": {"pinned": true}) */
	uint64_t *rb_addr;
	uint32_t *rb_type, *rb_site, *rb_gen;
	uint8_t *rb_pinned;
};

struct pt_heap_trace {
	uint32_t id, func; /* func: index of the function info */
	uint32_t parent;   /* index in traces; PT_HEAP_NONE for the top */
	uint32_t func_at;  /* func's number: its index among the trace tree's numbers */
	uint64_t count, size;
};

void pt_heapgraph_init(struct pt_heapgraph *g);
void pt_heapgraph_release(struct pt_heapgraph *g);

/* Where a number of the input is, for an error: `at` returns the byte offset of the
 * number at index k (0-based) of 'nodes' (edges = 0) or 'edges' (edges = 1), whose value
 * is x, or `fallback` when it cannot tell. The reader supplies it. */
struct pt_heap_locator {
	uint64_t (*at)(void *ctx, int edges, size_t k, uint32_t x, uint64_t fallback);
	void *ctx;
};

/* Once every array is read: find the fields and types in the meta, check every
 * index and build first_edge. A bad index is located at its own number through loc
 * (NULL: at `off`, the end of the input); the other errors at `off`. */
int pt_heapgraph_finish(struct pt_heapgraph *g, uint64_t off, const struct pt_heap_locator *loc,
			struct pt_diag *d);

/* append a string (n bytes) to the string table */
void pt_heapgraph_add_string(struct pt_heapgraph *g, const char *s, size_t n);

static inline const char *pt_heap_str(const struct pt_heapgraph *g, uint32_t id)
{
	return id < g->nstrings ? g->strbuf + g->str_off[id] : "";
}
/* the length of string id (a string id of g), its NUL not counted; strings may hold NULs */
static inline size_t pt_heap_str_len(const struct pt_heapgraph *g, uint32_t id)
{
	size_t end = id + 1 < g->nstrings ? g->str_off[id + 1] - 1 : g->strbuf_len - 1;
	return end - g->str_off[id];
}
static inline uint32_t pt_heap_field(const struct pt_heapgraph *g, uint32_t node, uint32_t f)
{
	return f == PT_HEAP_NONE ? 0 : g->nodes[(size_t)node * g->nfields + f];
}
static inline uint32_t pt_heap_type(const struct pt_heapgraph *g, uint32_t node)
{
	return g->nodes[(size_t)node * g->nfields + g->f_type];
}
static inline uint32_t pt_heap_self(const struct pt_heapgraph *g, uint32_t node)
{
	return g->nodes[(size_t)node * g->nfields + g->f_self];
}
static inline uint32_t pt_heap_id(const struct pt_heapgraph *g, uint32_t node)
{
	return g->nodes[(size_t)node * g->nfields + g->f_id];
}
static inline const char *pt_heap_name(const struct pt_heapgraph *g, uint32_t node)
{
	return pt_heap_str(g, g->nodes[(size_t)node * g->nfields + g->f_name]);
}
/* edge e's target node: an ordinal (pt_heapgraph_finish divided the record offset the
 * file holds by nfields) */
static inline uint32_t pt_heap_edge_to(const struct pt_heapgraph *g, size_t e)
{
	return g->edges[e * g->efields + g->e_to];
}
static inline uint32_t pt_heap_edge_type(const struct pt_heapgraph *g, size_t e)
{
	return g->edges[e * g->efields + g->e_type];
}
static inline uint32_t pt_heap_edge_name(const struct pt_heapgraph *g, size_t e)
{
	return g->edges[e * g->efields + g->e_name];
}
/* whether edge e's name_or_index is a string id (else an index) */
int pt_heap_edge_named(const struct pt_heapgraph *g, size_t e);

/* DevTools' class of a node for its Summary: objects and native nodes by name,
 * "(system)" for hidden, "(compiled code)" for code, else "(<type>)". `key` gets a
 * value equal for nodes of one class (DevTools' classIndex). */
const char *pt_heap_class(const struct pt_heapgraph *g, uint32_t node, char *buf, size_t n,
			  int64_t *key);

#endif
