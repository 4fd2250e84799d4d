/* sink.c: the notices a reader gives besides its records (sink.h). */
#include "config.h"

#include "core/sink.h"

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
