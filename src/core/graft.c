/* graft.c: one profile's samples added to another under sample types of their own
 * (pt_profile_graft, declared in core/profile.h): a reader that reads two kinds of
 * data from one input (a Chrome trace's CPU samples and its spans) builds each apart. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/profile.h"
#include "core/xlat.h"
#include "util/xalloc.h"

uint32_t pt_profile_graft(struct pt_profile *dst, const struct pt_profile *src)
{
	struct pt_xlat x;
	uint32_t base = dst->ntypes, t, *node;
	int64_t v[PT_MAX_TYPES];
	uint64_t records = dst->nrecords;
	size_t i;

	if ((size_t)base + src->ntypes > PT_MAX_TYPES)
		return UINT32_MAX;
	pt_xlat_init(&x, src, dst);
	x.keep_ident = 1;
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
					   pt_xlat_frame(&x, src->nodes[i].frame));
	memset(v, 0, sizeof(v));
	/* the timeline when both keep one (each record in its order), else the rows */
	if (dst->keep_timeline && src->keep_timeline) {
		for (i = 0; i < src->nevents; i++) {
			const struct pt_sample *s = &src->samples[src->events[i].sample];
			memcpy(v + base, src->event_values + i * src->stride,
			       src->ntypes * sizeof(int64_t));
			pt_profile_add_sample(dst, node[s->node], pt_xlat_labels(&x, s->labels), v,
					      src->events[i].time);
		}
	} else {
		for (i = 0; i < src->nsamples; i++) {
			const struct pt_sample *s = &src->samples[i];
			uint32_t n = node[s->node], l = pt_xlat_labels(&x, s->labels);
			for (t = 0; t < src->ntypes; t++)
				pt_profile_add_value(dst, n, l, base + t,
						     src->sample_values[i * src->stride + t]);
		}
		dst->nrecords = records + src->nrecords;
	}
	if (src->duration_nanos > dst->duration_nanos)
		dst->duration_nanos = src->duration_nanos;
	free(node);
	pt_xlat_release(&x);
	return base;
}
