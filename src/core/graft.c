/* graft.c: one profile's samples added to another under sample types of their own
 * (pt_profile_graft, declared in core/profile.h): a reader that reads two kinds of
 * data from one input (a Chrome trace's CPU samples and its spans) builds each apart. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/profile.h"
#include "util/xalloc.h"

struct graft {
	struct pt_profile *dst;
	const struct pt_profile *src;
	uint32_t *str, *frame, *labels; /* src id -> dst id, UINT32_MAX: not yet */
};

static uint32_t str_of(struct graft *g, uint32_t id)
{
	if (g->str[id] == UINT32_MAX)
		g->str[id] = pt_strn(g->dst, pt_s(g->src, id), pt_intern_len(&g->src->strings, id));
	return g->str[id];
}

static uint32_t frame_of(struct graft *g, uint32_t id)
{
	const struct pt_profile *s = g->src;
	struct pt_frame f;

	if (g->frame[id] != UINT32_MAX)
		return g->frame[id];
	f = s->frames[id];
	if (f.func) {
		const struct pt_func *fn = &s->funcs[f.func];
		f.func = pt_profile_func_ident(g->dst, str_of(g, fn->name),
					       str_of(g, fn->system_name), str_of(g, fn->file),
					       fn->start_line, fn->ident);
	}
	if (f.mapping) {
		struct pt_mapping m = s->mappings[f.mapping];
		m.file = str_of(g, m.file);
		m.build_id = str_of(g, m.build_id);
		f.mapping = pt_profile_mapping(g->dst, &m);
	}
	return g->frame[id] = pt_profile_frame(g->dst, &f);
}

static uint32_t labels_of(struct graft *g, uint32_t id)
{
	const struct pt_labelset *ls = &g->src->labelsets[id];
	struct pt_label *v;
	uint32_t i;

	if (g->labels[id] != UINT32_MAX)
		return g->labels[id];
	v = pt_xmalloc((ls->n + 1) * sizeof(*v));
	for (i = 0; i < ls->n; i++) {
		v[i] = ls->v[i];
		v[i].key = str_of(g, v[i].key);
		v[i].str = str_of(g, v[i].str);
		v[i].num_unit = str_of(g, v[i].num_unit);
	}
	g->labels[id] = pt_profile_labelset(g->dst, v, ls->n);
	free(v);
	return g->labels[id];
}

static uint32_t *unset(size_t n)
{
	uint32_t *a = pt_xmalloc((n + 1) * sizeof(*a));
	memset(a, 0xff, (n + 1) * sizeof(*a));
	return a;
}

uint32_t pt_profile_graft(struct pt_profile *dst, const struct pt_profile *src)
{
	struct graft g = {dst, src, NULL, NULL, NULL};
	uint32_t base = dst->ntypes, t, *node;
	int64_t v[PT_MAX_TYPES];
	uint64_t records = dst->nrecords;
	size_t i;

	if ((size_t)base + src->ntypes > PT_MAX_TYPES)
		return UINT32_MAX;
	g.str = unset(src->strings.n);
	g.frame = unset(src->nframes);
	g.labels = unset(src->nlabelsets);
	for (t = 0; t < src->ntypes; t++) {
		uint32_t k = pt_profile_add_type(dst, pt_s(src, src->types[t].name),
						 pt_s(src, src->types[t].unit));
		dst->types[k].decimals = src->types[t].decimals;
	}
	/* a node's parent has a smaller id: one pass in id order maps them all */
	node = pt_xmalloc(((size_t)src->nnodes + 1) * sizeof(*node));
	node[0] = 0;
	for (i = 1; i < src->nnodes; i++)
		node[i] = pt_profile_child(dst, node[src->nodes[i].parent],
					   frame_of(&g, src->nodes[i].frame));
	memset(v, 0, sizeof(v));
	/* the timeline when both keep one (each record in its order), else the rows */
	if (dst->keep_timeline && src->keep_timeline) {
		for (i = 0; i < src->nevents; i++) {
			const struct pt_sample *s = &src->samples[src->events[i].sample];
			memcpy(v + base, src->event_values + i * src->stride,
			       src->ntypes * sizeof(int64_t));
			pt_profile_add_sample(dst, node[s->node], labels_of(&g, s->labels), v,
					      src->events[i].time);
		}
	} else {
		for (i = 0; i < src->nsamples; i++) {
			const struct pt_sample *s = &src->samples[i];
			uint32_t n = node[s->node], l = labels_of(&g, s->labels);
			for (t = 0; t < src->ntypes; t++)
				pt_profile_add_value(dst, n, l, base + t,
						     src->sample_values[i * src->stride + t]);
		}
		dst->nrecords = records + src->nrecords;
	}
	if (src->duration_nanos > dst->duration_nanos)
		dst->duration_nanos = src->duration_nanos;
	free(node);
	free(g.str);
	free(g.frame);
	free(g.labels);
	return base;
}
