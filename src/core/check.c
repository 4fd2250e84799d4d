/* check.c: the model check after every reader (core/check.h). The rules are what the
 * writers and analysis index by without looking: a failure here is a reader's bug that
 * would otherwise read out of bounds or print a wrong number further on. */
#include "config.h"

#include "core/check.h"
#include "core/functable.h"

static int bad(struct pt_diag *d, const char *what, uint64_t id, const char *rule)
{
	return pt_diag_error(d, "the reader left a broken profile: %s %llu %s", what,
			     (unsigned long long)id, rule);
}

/* a string id names an interned string */
static int str_ok(const struct pt_profile *p, uint32_t id)
{
	return id < p->strings.n;
}

static int check_tables(const struct pt_profile *p, struct pt_diag *d)
{
	uint32_t i;
	size_t k;

	for (i = 0; i < p->ntypes; i++)
		if (!str_ok(p, p->types[i].name) || !str_ok(p, p->types[i].unit))
			return bad(d, "sample type", i, "names a string it does not have");
	if (!str_ok(p, p->period_type.name) || !str_ok(p, p->period_type.unit))
		return bad(d, "period type", 0, "names a string it does not have");
	for (i = 1; i < p->nfuncs; i++)
		if (!str_ok(p, p->funcs[i].name) || !str_ok(p, p->funcs[i].system_name) ||
		    !str_ok(p, p->funcs[i].file))
			return bad(d, "function", i, "names a string it does not have");
	for (i = 1; i < p->nmappings; i++)
		if (!str_ok(p, p->mappings[i].file) || !str_ok(p, p->mappings[i].build_id))
			return bad(d, "mapping", i, "names a string it does not have");
	for (i = 1; i < p->nframes; i++) {
		const struct pt_frame *f = &p->frames[i];
		if (!f->func || f->func >= p->nfuncs)
			return bad(d, "frame", i, "has no function");
		if (f->mapping >= p->nmappings)
			return bad(d, "frame", i, "names a mapping it does not have");
	}
	for (i = 1; i < p->nlabelsets; i++)
		for (k = 0; k < p->labelsets[i].n; k++) {
			const struct pt_label *l = &p->labelsets[i].v[k];
			if (!str_ok(p, l->key) || !str_ok(p, l->str) || !str_ok(p, l->num_unit))
				return bad(d, "label set", i, "names a string it does not have");
		}
	for (k = 0; k < p->nmeta; k++)
		if (!str_ok(p, p->meta[k].key) || !str_ok(p, p->meta[k].value))
			return bad(d, "metadata entry", k, "names a string it does not have");
	for (k = 0; k < p->ncomments; k++)
		if (!str_ok(p, p->comments[k]))
			return bad(d, "comment", k, "names a string it does not have");
	if (!str_ok(p, p->drop_frames) || !str_ok(p, p->keep_frames))
		return bad(d, "frame filter", 0, "names a string it does not have");
	return 0;
}

/* a tree: parents before children, each node under one parent at its depth */
static int check_tree(const struct pt_profile *p, struct pt_diag *d)
{
	uint32_t n;

	for (n = 1; n < p->nnodes; n++) {
		const struct pt_node *x = &p->nodes[n];
		if (x->parent >= n)
			return bad(d, "call tree node", n, "comes before its parent");
		if (!x->frame || x->frame >= p->nframes)
			return bad(d, "call tree node", n, "has no frame");
		if (x->depth != p->nodes[x->parent].depth + 1)
			return bad(d, "call tree node", n, "is not one deeper than its parent");
		if (x->first_child >= p->nnodes || x->next_sibling >= p->nnodes)
			return bad(d, "call tree node", n, "links to a node it does not have");
	}
	return 0;
}

static int check_rows(const struct pt_profile *p, struct pt_diag *d)
{
	uint32_t r;
	size_t e;

	for (r = 0; r < p->nsamples; r++)
		if (p->samples[r].node >= p->nnodes || p->samples[r].labels >= p->nlabelsets)
			return bad(d, "sample row", r,
				   "names a node or label set it does not have");
	for (e = 0; e < p->nevents; e++)
		if (p->events[e].sample >= p->nsamples)
			return bad(d, "timeline event", e, "names a row it does not have");
	return 0;
}

int pt_profile_check(const struct pt_profile *p, struct pt_diag *d)
{
	if (!p->ntypes)
		return pt_diag_error_at(d, 0, "no sample types in the profile");
	if (p->stride != p->ntypes)
		return bad(d, "row width", p->stride, "is not the number of sample types");
	if (p->agg && p->agg->ntypes != p->ntypes)
		return bad(d, "function table width", p->agg->ntypes,
			   "is not the number of sample types");
	if (check_tables(p, d) < 0 || check_tree(p, d) < 0 || check_rows(p, d) < 0)
		return -1;
	return 0;
}
