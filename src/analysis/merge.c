/* merge.c: adding one profile into another (merge.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/filter.h"
#include "analysis/merge.h"
#include "util/buf.h"
#include "util/xalloc.h"

void pt_merge_init(struct pt_merge *m, struct pt_profile *dst, const char *first_path)
{
	memset(m, 0, sizeof(*m));
	m->dst = dst;
	m->first_path = first_path;
	m->timeline = dst->nevents > 0;
}

void pt_merge_release(struct pt_merge *m)
{
	free(m->map);
	memset(m, 0, sizeof(*m));
}

/* m->map[t]: dst's type of the same name and unit as src's type t; -1 if some has none */
static int map_types(struct pt_merge *m, const struct pt_profile *src)
{
	const struct pt_profile *dst = m->dst;
	uint32_t t, u;

	if (dst->ntypes != src->ntypes)
		return -1;
	PT_ALLOC_GROW(m->map, src->ntypes, m->map_alloc);
	for (t = 0; t < src->ntypes; t++) {
		for (u = 0; u < dst->ntypes; u++)
			if (!strcmp(pt_s(src, src->types[t].name), pt_s(dst, dst->types[u].name)) &&
			    !strcmp(pt_s(src, src->types[t].unit), pt_s(dst, dst->types[u].unit)))
				break;
		if (u == dst->ntypes)
			return -1;
		m->map[t] = u;
	}
	return 0;
}

/* bring both to the larger fixed point of each type */
static void align_decimals(struct pt_profile *dst, struct pt_profile *src, const uint32_t *map)
{
	uint32_t t;

	for (t = 0; t < src->ntypes; t++) {
		struct pt_sample_type *a = &dst->types[map[t]], *b = &src->types[t];
		while (a->decimals < b->decimals) {
			pt_profile_scale_type(dst, map[t], 10);
			a->decimals++;
		}
		while (b->decimals < a->decimals) {
			pt_profile_scale_type(src, t, 10);
			b->decimals++;
		}
	}
}

/* "name [unit], name [unit]" */
static void type_list(struct pt_buf *b, const struct pt_profile *p)
{
	uint32_t t;

	for (t = 0; t < p->ntypes; t++)
		pt_buf_addf(b, "%s%s [%s]", t ? ", " : "", pt_s(p, p->types[t].name),
			    pt_s(p, p->types[t].unit));
}

int pt_merge_add(struct pt_merge *m, struct pt_profile *src, const char *path, struct pt_diag *d)
{
	pt_diag_init(d, path);
	if (map_types(m, src) < 0) {
		struct pt_buf a = PT_BUF_INIT, b = PT_BUF_INIT;
		type_list(&a, m->dst);
		type_list(&b, src);
		pt_diag_error(
			d,
			"sample types differ: %s here, %s in '%s' (merge needs the same names "
			"and units)",
			b.buf, a.buf, m->first_path);
		pt_buf_release(&a);
		pt_buf_release(&b);
		return -1;
	}
	align_decimals(m->dst, src, m->map);
	m->timeline = m->timeline && src->nevents > 0;
	return pt_profile_merge_any(m->dst, src, m->map, d);
}

void pt_merge_finish(struct pt_merge *m)
{
	if (!m->timeline)
		pt_profile_drop_timeline(m->dst);
}
