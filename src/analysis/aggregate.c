/* aggregate.c: flat/cum per entry, edges and lines, counted once per stack.
 *
 * The walk is an iterative depth-first traversal of the call tree (no recursion, so
 * 100k-deep stacks are fine). An entry's cum gets a node's inclusive value only where
 * the cumulative rule (cum.h) counts the node on its path, which is what makes
 * recursion count once. Edges and lines go through the same rule. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/cum.h"
#include "util/xalloc.h"

/* the key of frame fid's entry at a's granularity, and the entry to make for it */
static uint64_t frame_key(const struct pt_profile *p, enum pt_granularity g, uint32_t fid,
			  struct pt_agg_entry *e)
{
	const struct pt_frame *f = &p->frames[fid];
	const struct pt_func *fn = &p->funcs[f->func];
	uint64_t key;

	memset(e, 0, sizeof(*e));
	e->name = fn->name;
	e->file = fn->file;
	e->func = f->func;
	switch (g) {
	case PT_GRAN_FILES:
		key = fn->file;
		e->name = fn->file;
		e->line = 0;
		e->func = 0;
		if (!fn->file && f->mapping) {
			/* no source file: fall back to the binary, as pprof does */
			key = (uint64_t)1 << 32 | p->mappings[f->mapping].file;
			e->name = e->file = p->mappings[f->mapping].file;
		}
		break;
	case PT_GRAN_LINES:
		key = (uint64_t)f->func << 32 | ((uint64_t)f->line & 0xffffffffu);
		e->line = f->line;
		break;
	case PT_GRAN_ADDRESSES:
		key = fid;
		e->line = f->line;
		e->addr = f->addr;
		break;
	default:
		key = f->func;
		e->line = fn->start_line;
		break;
	}
	return key;
}

uint32_t pt_agg_entry_for_frame(const struct pt_profile *p, struct pt_agg *a, uint32_t fid)
{
	struct pt_agg_entry e;
	uint64_t key = frame_key(p, a->gran, fid, &e);
	uint32_t id = pt_agg_entry(a, key, &e);

	a->entries[id].flags |= p->frames[fid].flags;
	return id;
}

uint32_t pt_agg_find_frame(const struct pt_profile *p, const struct pt_agg *a, uint32_t fid)
{
	struct pt_agg_entry e;

	return pt_map_get(&a->entry_index, frame_key(p, a->gran, fid, &e));
}

static int copy_agg(const struct pt_agg *src, struct pt_agg *out)
{
	uint32_t i, w = src->ntypes;

	pt_agg_init(out, w, src->gran);
	out->edges_per_occurrence = src->edges_per_occurrence;
	for (i = 0; i < src->nentries; i++) {
		uint32_t id = pt_agg_entry(out, i, &src->entries[i]);
		memcpy(out->flat + (size_t)id * w, src->flat + (size_t)i * w, w * sizeof(int64_t));
		memcpy(out->cum + (size_t)id * w, src->cum + (size_t)i * w, w * sizeof(int64_t));
	}
	for (i = 0; i < src->nedges; i++) {
		uint32_t id = pt_agg_edge(out, src->edges[i].caller, src->edges[i].callee);
		memcpy(out->edge_value + (size_t)id * w, src->edge_value + (size_t)i * w,
		       w * sizeof(int64_t));
	}
	for (i = 0; i < src->nlines; i++) {
		uint32_t id = pt_agg_line(out, src->lines[i].entry, src->lines[i].line);
		memcpy(out->line_self + (size_t)id * w, src->line_self + (size_t)i * w,
		       w * sizeof(int64_t));
		memcpy(out->line_cum + (size_t)id * w, src->line_cum + (size_t)i * w,
		       w * sizeof(int64_t));
	}
	memcpy(out->total, src->total, w * sizeof(int64_t));
	return 0;
}

int pt_aggregate_at(const struct pt_profile *p, enum pt_granularity g, struct pt_diag *d)
{
	if (pt_profile_has_stacks(p))
		return 0;
	if (g == p->agg->gran)
		return 1;
	return pt_profile_need_stacks_say(p, d, ", so only function granularity is available",
					  "this profile has no stacks");
}

int pt_aggregate(const struct pt_profile *p, enum pt_granularity g, struct pt_agg *out,
		 struct pt_diag *d)
{
	return pt_aggregate_views(p, g, PT_AGG_EDGES | PT_AGG_LINES, out, d);
}

/* one level of the walk in pt_aggregate_views */
struct walk {
	uint32_t node, entry;
	unsigned char outer_entry, outer_edge, outer_line; /* outermost on the path */
};

int pt_aggregate_views(const struct pt_profile *p, enum pt_granularity g, unsigned views,
		       struct pt_agg *out, struct pt_diag *d)
{
	uint32_t w = p->ntypes, n, i;
	uint32_t *node_edge, *node_line, *frame_entry;
	struct pt_cum entry_cum, edge_cum, line_cum;
	struct walk *st = NULL;
	int64_t *sub = NULL; /* w values per level: the subtree's inclusive value so far */
	size_t st_alloc = 0, sub_alloc = 0, depth = 0, es, ls;

	if (p->agg) {
		if (pt_aggregate_at(p, g, d) < 0)
			return -1;
		copy_agg(p->agg, out);
		return 0;
	}

	pt_agg_init(out, w, g);

	/* Entries, edges and lines first, in node id order, so their ids follow the
	 * order of first appearance. Views not asked for cost no memory: every node
	 * reads the one "none" slot 0. */
	frame_entry = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	for (i = 0; i < p->nframes; i++)
		frame_entry[i] = UINT32_MAX;
	es = views & PT_AGG_EDGES ? 1 : 0;
	ls = views & PT_AGG_LINES ? 1 : 0;
	node_edge = pt_xmalloc((es ? (size_t)p->nnodes : 1) * sizeof(uint32_t));
	node_line = pt_xmalloc((ls ? (size_t)p->nnodes : 1) * sizeof(uint32_t));
	node_edge[0] = node_line[0] = UINT32_MAX;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t fid = p->nodes[n].frame, par = p->nodes[n].parent, e;
		if (frame_entry[fid] == UINT32_MAX)
			frame_entry[fid] = pt_agg_entry_for_frame(p, out, fid);
		e = frame_entry[fid];
		if (es)
			node_edge[n] = par ? pt_agg_edge(out, frame_entry[p->nodes[par].frame], e)
					   : UINT32_MAX;
		if (ls)
			node_line[n] = p->frames[fid].line > 0
					       ? pt_agg_line(out, e, p->frames[fid].line)
					       : UINT32_MAX;
	}

	pt_cum_init(&entry_cum, (size_t)out->nentries + 1);
	pt_cum_init(&edge_cum, (size_t)out->nedges + 1);
	pt_cum_init(&line_cum, (size_t)out->nlines + 1);

	/* Then one depth-first walk without recursion. A node's value counts towards an
	 * entry's (edge's, line's) cum only where the rule counts it on its path, so
	 * recursion counts once per stack. Each level keeps its subtree's sum,
	 * added to the parent's level on the way out: memory grows with the depth, not
	 * with the number of nodes. */
	memcpy(out->total, p->node_self, w * sizeof(int64_t));
	n = p->nodes[0].first_child;
	while (n) {
		const int64_t *self = p->node_self + (size_t)n * w;
		uint32_t e = frame_entry[p->nodes[n].frame];
		struct walk *s;

		/* enter n */
		PT_ALLOC_GROW(st, depth + 1, st_alloc);
		PT_ALLOC_GROW(sub, (depth + 1) * (w ? w : 1), sub_alloc);
		s = &st[depth];
		s->node = n;
		s->entry = e;
		memcpy(sub + depth * w, self, w * sizeof(int64_t));
		pt_add_values(out->flat + (size_t)e * w, self, w);
		s->outer_entry = pt_cum_enter(&entry_cum, e);
		s->outer_edge =
			node_edge[n * es] != UINT32_MAX && pt_cum_enter(&edge_cum, node_edge[n]);
		s->outer_line =
			node_line[n * ls] != UINT32_MAX && pt_cum_enter(&line_cum, node_line[n]);
		if (node_line[n * ls] != UINT32_MAX)
			pt_add_values(out->line_self + (size_t)node_line[n] * w, self, w);
		depth++;
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		/* leave n and every ancestor whose children are all done */
		n = 0;
		while (depth) {
			const int64_t *v = sub + (depth - 1) * w;
			uint32_t m;

			s = &st[depth - 1];
			m = s->node;
			if (s->outer_entry)
				pt_add_values(out->cum + (size_t)s->entry * w, v, w);
			pt_cum_leave(&entry_cum, s->entry);
			if (node_edge[m * es] != UINT32_MAX) {
				if (s->outer_edge)
					pt_add_values(out->edge_value + (size_t)node_edge[m] * w, v,
						      w);
				pt_cum_leave(&edge_cum, node_edge[m]);
			}
			if (node_line[m * ls] != UINT32_MAX) {
				if (s->outer_line)
					pt_add_values(out->line_cum + (size_t)node_line[m] * w, v,
						      w);
				pt_cum_leave(&line_cum, node_line[m]);
			}
			pt_add_values(depth >= 2 ? sub + (depth - 2) * w : out->total, v, w);
			depth--;
			if (p->nodes[m].next_sibling) {
				n = p->nodes[m].next_sibling;
				break;
			}
		}
	}

	free(st);
	free(sub);
	pt_cum_release(&entry_cum);
	pt_cum_release(&edge_cum);
	pt_cum_release(&line_cum);
	free(frame_entry);
	free(node_edge);
	free(node_line);
	return 0;
}
