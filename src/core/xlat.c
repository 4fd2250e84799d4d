/* xlat.c: one profile's ids interned into another on first use (core/xlat.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/xlat.h"
#include "util/xalloc.h"

#define NONE UINT32_MAX

uint32_t *pt_xlat_unset(size_t n)
{
	uint32_t *v = pt_xmalloc((n ? n : 1) * sizeof(uint32_t));
	memset(v, 0xff, (n ? n : 1) * sizeof(uint32_t));
	return v;
}

void pt_xlat_init(struct pt_xlat *x, const struct pt_profile *src, struct pt_profile *dst)
{
	x->src = src;
	x->dst = dst;
	x->str = pt_xlat_unset(src->strings.n);
	x->func = pt_xlat_unset(src->nfuncs);
	x->mapping = pt_xlat_unset(src->nmappings);
	x->frame = pt_xlat_unset(src->nframes);
	x->lset = pt_xlat_unset(src->nlabelsets);
	x->keep_ident = 0;
}

void pt_xlat_release(struct pt_xlat *x)
{
	free(x->str);
	free(x->func);
	free(x->mapping);
	free(x->frame);
	free(x->lset);
}

uint32_t pt_xlat_str(struct pt_xlat *x, uint32_t id)
{
	if (!id)
		return 0;
	if (x->str[id] == NONE)
		x->str[id] = pt_strn(x->dst, pt_s(x->src, id), pt_intern_len(&x->src->strings, id));
	return x->str[id];
}

/* the bytes of string id of the source */
static struct pt_strref src_str(const struct pt_xlat *x, uint32_t id)
{
	return pt_strref_of(pt_s(x->src, id), pt_intern_len(&x->src->strings, id));
}

uint32_t pt_xlat_func(struct pt_xlat *x, uint32_t id)
{
	if (!id)
		return 0;
	if (x->func[id] == NONE) {
		const struct pt_func *f = &x->src->funcs[id];
		x->func[id] = pt_profile_func_text(x->dst, src_str(x, f->name),
						   src_str(x, f->system_name), src_str(x, f->file),
						   f->start_line, x->keep_ident ? f->ident : 0);
	}
	return x->func[id];
}

uint32_t pt_xlat_mapping(struct pt_xlat *x, uint32_t id)
{
	if (!id)
		return 0;
	if (x->mapping[id] == NONE) {
		struct pt_mapping m = x->src->mappings[id];
		m.file = pt_xlat_str(x, m.file);
		m.build_id = pt_xlat_str(x, m.build_id);
		x->mapping[id] = pt_profile_mapping(x->dst, &m);
	}
	return x->mapping[id];
}

uint32_t pt_xlat_frame(struct pt_xlat *x, uint32_t id)
{
	if (!id)
		return 0;
	if (x->frame[id] == NONE) {
		struct pt_frame f = x->src->frames[id];
		f.func = pt_xlat_func(x, f.func);
		f.mapping = pt_xlat_mapping(x, f.mapping);
		x->frame[id] = pt_profile_frame(x->dst, &f);
	}
	return x->frame[id];
}

uint32_t pt_xlat_labels(struct pt_xlat *x, uint32_t id)
{
	if (!id)
		return 0;
	if (x->lset[id] == NONE) {
		const struct pt_labelset *ls = &x->src->labelsets[id];
		struct pt_label *v = pt_xreallocarray(NULL, ls->n, sizeof(*v));
		uint32_t i;
		for (i = 0; i < ls->n; i++) {
			v[i] = ls->v[i];
			v[i].key = pt_xlat_str(x, v[i].key);
			v[i].str = pt_xlat_str(x, v[i].str);
			v[i].num_unit = pt_xlat_str(x, v[i].num_unit);
		}
		x->lset[id] = pt_profile_labelset(x->dst, v, ls->n);
		free(v);
	}
	return x->lset[id];
}
