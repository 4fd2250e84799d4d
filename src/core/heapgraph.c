/* heapgraph.c: the heap snapshot graph: meta lookup, index checks, the first-edge
 * table, DevTools' class of a node. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/heapgraph.h"
#include "util/xalloc.h"

void pt_heapgraph_init(struct pt_heapgraph *g)
{
	memset(g, 0, sizeof(*g));
}

static void free_list(char **v, uint32_t n)
{
	uint32_t i;
	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void pt_heapgraph_release(struct pt_heapgraph *g)
{
	free_list(g->meta_node_fields, g->nfields);
	free_list(g->meta_edge_fields, g->efields);
	free_list(g->node_types, g->nnode_types);
	free_list(g->edge_types, g->nedge_types);
	free_list(g->meta_tf_fields, g->ntf_fields);
	free_list(g->meta_tn_fields, g->ntn_fields);
	free(g->nodes);
	free(g->edges);
	free(g->first_edge);
	free(g->strbuf);
	free(g->str_off);
	free(g->tfuncs);
	free(g->traces);
	free(g->rb_addr);
	free(g->rb_type);
	free(g->rb_site);
	free(g->rb_gen);
	free(g->rb_pinned);
	memset(g, 0, sizeof(*g));
}

void pt_heapgraph_add_string(struct pt_heapgraph *g, const char *s, size_t n)
{
	PT_ALLOC_GROW(g->str_off, (size_t)g->nstrings + 1, g->str_alloc);
	PT_ALLOC_GROW(g->strbuf, g->strbuf_len + n + 1, g->strbuf_alloc);
	g->str_off[g->nstrings++] = g->strbuf_len;
	memcpy(g->strbuf + g->strbuf_len, s, n);
	g->strbuf[g->strbuf_len + n] = '\0';
	g->strbuf_len += n + 1;
}

static uint32_t find(char **v, uint32_t n, const char *name)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return i;
	return PT_HEAP_NONE;
}

int pt_heap_edge_named(const struct pt_heapgraph *g, size_t e)
{
	uint32_t t = pt_heap_edge_type(g, e);
	return t != g->et_element && t != g->et_hidden;
}

/* DevTools' propagateDOMState: embedder (native) nodes whose detachedness is known (1
 * attached, 2 detached) pass it on to the native nodes they reach (not over hidden,
 * invisible or weak edges), attached first; detached ones are renamed "Detached <name>".
 * The same steps in the same order, so the same nodes end up renamed. */
struct dom_state {
	struct pt_heapgraph *g;
	uint32_t f_det, nstrings;
	uint8_t *visited;
	uint32_t *attached, *detached, *renamed;
	size_t nattached, ndetached;
};

static void dom_process(struct dom_state *s, uint32_t v, uint32_t state)
{
	struct pt_heapgraph *g = s->g;
	uint32_t *rec = g->nodes + (size_t)v * g->nfields;

	if (s->visited[v])
		return;
	s->visited[v] = 1;
	if (rec[g->f_type] != g->t_native)
		return;
	rec[s->f_det] = state;
	if (state == 1) {
		s->attached[s->nattached++] = v;
	} else if (state == 2) {
		uint32_t old = rec[g->f_name];
		if (old < s->nstrings) {
			if (s->renamed[old] == PT_HEAP_NONE) {
				const char *nm = pt_heap_str(g, old);
				size_t len = strlen(nm);
				char *t = pt_xmalloc(len + 10);
				memcpy(t, "Detached ", 9);
				memcpy(t + 9, nm, len + 1);
				s->renamed[old] = g->nstrings;
				pt_heapgraph_add_string(g, t, len + 9);
				free(t);
			}
			rec[g->f_name] = s->renamed[old];
		}
		s->detached[s->ndetached++] = v;
	}
}

static void dom_spread(struct dom_state *s, uint32_t v, uint32_t state, uint32_t et_invisible)
{
	struct pt_heapgraph *g = s->g;
	size_t e;
	for (e = g->first_edge[v]; e < g->first_edge[v + 1]; e++) {
		uint32_t t = pt_heap_edge_type(g, e);
		if (t == g->et_hidden || t == g->et_weak || t == et_invisible)
			continue;
		dom_process(s, pt_heap_edge_to(g, e), state);
	}
}

static void propagate_detachedness(struct pt_heapgraph *g, uint32_t f_det)
{
	struct dom_state s;
	uint32_t et_invisible = find(g->edge_types, g->nedge_types, "invisible");
	size_t i, n = g->nnodes;

	s.g = g;
	s.f_det = f_det;
	s.nstrings = g->nstrings;
	s.visited = pt_xcalloc(n, 1);
	s.attached = pt_xmalloc(n * sizeof(uint32_t));
	s.detached = pt_xmalloc(n * sizeof(uint32_t));
	s.renamed = pt_xmalloc(((size_t)g->nstrings + 1) * sizeof(uint32_t));
	memset(s.renamed, 0xff, ((size_t)g->nstrings + 1) * sizeof(uint32_t));
	s.nattached = s.ndetached = 0;
	for (i = 0; i < n; i++) {
		uint32_t state = g->nodes[i * g->nfields + f_det];
		if (state)
			dom_process(&s, (uint32_t)i, state);
	}
	while (s.nattached)
		dom_spread(&s, s.attached[--s.nattached], 1, et_invisible);
	while (s.ndetached) {
		uint32_t v = s.detached[--s.ndetached];
		if (g->nodes[(size_t)v * g->nfields + f_det] != 1)
			dom_spread(&s, v, 2, et_invisible);
	}
	free(s.visited);
	free(s.attached);
	free(s.detached);
	free(s.renamed);
}

/* the offset of number k of nodes or edges (its value x), for an error */
static uint64_t at(const struct pt_heap_locator *loc, uint64_t off, int edges, size_t k, uint32_t x)
{
	return loc ? loc->at(loc->ctx, edges, k, x, off) : off;
}

/* 0 when the len numbers of a (the nodes, or the edges if `edges`) make whole records of
 * nfields each; else -1, the error at the first number of the broken last record */
static int whole_records(const struct pt_heap_locator *loc, uint64_t off, int edges,
			 const uint32_t *a, size_t len, uint32_t nfields, struct pt_diag *d)
{
	size_t k = len - len % nfields;

	if (k == len)
		return 0;
	return pt_diag_error_at(d, at(loc, off, edges, k, a[k]),
				"'%s' holds %zu numbers, not a multiple of the %" PRIu32
				" %s fields",
				edges ? "edges" : "nodes", len, nfields, edges ? "edge" : "node");
}

int pt_heapgraph_finish(struct pt_heapgraph *g, uint64_t off, const struct pt_heap_locator *loc,
			struct pt_diag *d)
{
	size_t i, e = 0;
	static const char *const need_node[] = {"type", "name", "id", "self_size", "edge_count"};
	static const char *const need_edge[] = {"type", "name_or_index", "to_node"};
	uint32_t *nf[] = {&g->f_type, &g->f_name, &g->f_id, &g->f_self, &g->f_edges};
	uint32_t *ef[] = {&g->e_type, &g->e_name, &g->e_to};

	if (!g->nfields || !g->efields)
		return pt_diag_error_at(d, off,
					"no snapshot.meta with node_fields and edge_fields");
	for (i = 0; i < 5; i++)
		if ((*nf[i] = find(g->meta_node_fields, g->nfields, need_node[i])) == PT_HEAP_NONE)
			return pt_diag_error_at(d, off, "snapshot.meta.node_fields has no '%s'",
						need_node[i]);
	for (i = 0; i < 3; i++)
		if ((*ef[i] = find(g->meta_edge_fields, g->efields, need_edge[i])) == PT_HEAP_NONE)
			return pt_diag_error_at(d, off, "snapshot.meta.edge_fields has no '%s'",
						need_edge[i]);
	g->f_trace = find(g->meta_node_fields, g->nfields, "trace_node_id");
	if (!g->nnode_types || !g->nedge_types)
		return pt_diag_error_at(d, off,
					"snapshot.meta has no node_types or edge_types list");
	g->t_hidden = find(g->node_types, g->nnode_types, "hidden");
	g->t_object = find(g->node_types, g->nnode_types, "object");
	g->t_native = find(g->node_types, g->nnode_types, "native");
	g->t_code = find(g->node_types, g->nnode_types, "code");
	g->t_synthetic = find(g->node_types, g->nnode_types, "synthetic");
	g->t_string = find(g->node_types, g->nnode_types, "string");
	g->t_cons_string = find(g->node_types, g->nnode_types, "concatenated string");
	g->t_sliced_string = find(g->node_types, g->nnode_types, "sliced string");
	g->t_closure = find(g->node_types, g->nnode_types, "closure");
	g->t_array = find(g->node_types, g->nnode_types, "array");
	g->et_weak = find(g->edge_types, g->nedge_types, "weak");
	g->et_shortcut = find(g->edge_types, g->nedge_types, "shortcut");
	g->et_element = find(g->edge_types, g->nedge_types, "element");
	g->et_hidden = find(g->edge_types, g->nedge_types, "hidden");
	g->et_internal = find(g->edge_types, g->nedge_types, "internal");
	g->et_context = find(g->edge_types, g->nedge_types, "context");
	g->et_property = find(g->edge_types, g->nedge_types, "property");

	if (whole_records(loc, off, 0, g->nodes, g->nodes_len, g->nfields, d) < 0 ||
	    whole_records(loc, off, 1, g->edges, g->edges_len, g->efields, d) < 0)
		return -1;
	g->nnodes = g->nodes_len / g->nfields;
	g->nedges = g->edges_len / g->efields;
	if (!g->nnodes)
		return pt_diag_error_at(d, off, "the snapshot has no nodes");
	g->first_edge = pt_xmalloc((g->nnodes + 1) * sizeof(uint32_t));
	for (i = 0; i < g->nnodes; i++) {
		uint32_t t = pt_heap_type(g, (uint32_t)i),
			 nm = pt_heap_field(g, (uint32_t)i, g->f_name);
		uint32_t ec = pt_heap_field(g, (uint32_t)i, g->f_edges);
		size_t rec = i * g->nfields;
		if (t >= g->nnode_types)
			return pt_diag_error_at(d, at(loc, off, 0, rec + g->f_type, t),
						"node %zu (id %" PRIu32 "): type %" PRIu32
						" is not in node_types",
						i, pt_heap_id(g, (uint32_t)i), t);
		if (nm >= g->nstrings)
			return pt_diag_error_at(d, at(loc, off, 0, rec + g->f_name, nm),
						"node %zu (id %" PRIu32 "): name %" PRIu32
						" is not a string id (%" PRIu32 " strings)",
						i, pt_heap_id(g, (uint32_t)i), nm, g->nstrings);
		if (ec > g->nedges - e)
			return pt_diag_error_at(d, at(loc, off, 0, rec + g->f_edges, ec),
						"node %zu (id %" PRIu32 "): edge_count %" PRIu32
						" is more than the %zu edges left",
						i, pt_heap_id(g, (uint32_t)i), ec, g->nedges - e);
		g->first_edge[i] = (uint32_t)e;
		e += ec;
	}
	g->first_edge[g->nnodes] = (uint32_t)e;
	if (e != g->nedges) /* at the first edge of no node */
		return pt_diag_error_at(d,
					at(loc, off, 1, e * g->efields, g->edges[e * g->efields]),
					"%zu edges belong to no node (the edge_counts sum to %zu)",
					g->nedges - e, e);
	for (i = 0; i < g->nedges; i++) {
		uint32_t t = pt_heap_edge_type(g, i), to = g->edges[i * g->efields + g->e_to];
		size_t rec = i * g->efields;
		if (t >= g->nedge_types)
			return pt_diag_error_at(d, at(loc, off, 1, rec + g->e_type, t),
						"edge %zu: type %" PRIu32 " is not in edge_types",
						i, t);
		if (to % g->nfields || to / g->nfields >= g->nnodes)
			return pt_diag_error_at(d, at(loc, off, 1, rec + g->e_to, to),
						"edge %zu: to_node %" PRIu32
						" is not a node (a multiple of %" PRIu32
						" below %zu)",
						i, to, g->nfields, g->nodes_len);
		if (pt_heap_edge_named(g, i) && pt_heap_edge_name(g, i) >= g->nstrings)
			return pt_diag_error_at(
				d, at(loc, off, 1, rec + g->e_name, pt_heap_edge_name(g, i)),
				"edge %zu: name %" PRIu32 " is not a string id", i,
				pt_heap_edge_name(g, i));
		g->edges[rec + g->e_to] = to / g->nfields; /* from here on, an ordinal */
	}
	{
		uint32_t f_det = find(g->meta_node_fields, g->nfields, "detachedness");
		if (f_det != PT_HEAP_NONE && g->t_native != PT_HEAP_NONE)
			propagate_detachedness(g, f_det);
	}
	return 0;
}

const char *pt_heap_class(const struct pt_heapgraph *g, uint32_t node, char *buf, size_t n,
			  int64_t *key)
{
	uint32_t t = pt_heap_type(g, node);

	if (t == g->t_object || t == g->t_native) {
		*key = g->nodes[(size_t)node * g->nfields + g->f_name];
		return pt_heap_name(g, node);
	}
	*key = -1 - (int64_t)t;
	if (t == g->t_hidden)
		return "(system)";
	if (t == g->t_code)
		return "(compiled code)";
	snprintf(buf, n, "(%s)", g->node_types[t]);
	return buf;
}
