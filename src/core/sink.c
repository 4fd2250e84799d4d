/* sink.c: handing a reader's records to the installed sink, or to the call tree. */
#include "config.h"

#include "core/sink.h"

void pt_sink_sample(struct pt_sink *s, struct pt_profile *p, const uint32_t *frames, size_t n,
		    int leaf_first, uint32_t labels, const int64_t *values, int64_t time)
{
	if (s) {
		s->sample(s, p, frames, n, leaf_first, labels, values, time);
		p->nrecords++;
		return;
	}
	pt_profile_add_sample(p, pt_profile_stack(p, frames, n, leaf_first), labels, values, time);
}

void pt_sink_scale_type(struct pt_sink *s, struct pt_profile *p, uint32_t t, int64_t factor)
{
	pt_profile_scale_type(p, t, factor);
	if (s && s->scale_type)
		s->scale_type(s, p, t, factor);
}

void pt_sink_frames_complete(struct pt_sink *s, struct pt_profile *p)
{
	if (s && s->frames_complete)
		s->frames_complete(s, p);
}
