/* xlat.h: the ids of one profile's strings, functions, mappings, frames and label sets,
 * interned into another profile when first asked for (a filter's copy, a merge, a
 * graft of one reader's half into the other's profile). */
#ifndef PT_XLAT_H
#define PT_XLAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/profile.h"

struct pt_xlat {
	const struct pt_profile *src;
	struct pt_profile *dst;
	uint32_t *str, *func, *mapping, *frame, *lset; /* src id -> dst id, UINT32_MAX unknown */
	/* functions keep their reader's identity (pt_func.ident) in a copy of one profile;
	 * across profiles a function is what pprof's is (name, system name, file, start
	 * line), as merged profiles are written as pprof */
	int keep_ident;
};

/* n ids (room for at least one), each UINT32_MAX */
uint32_t *pt_xlat_unset(size_t n);

void pt_xlat_init(struct pt_xlat *x, const struct pt_profile *src, struct pt_profile *dst);
void pt_xlat_release(struct pt_xlat *x);

/* src's id in dst (id 0, the placeholder of each table, stays 0) */
uint32_t pt_xlat_str(struct pt_xlat *x, uint32_t id);
uint32_t pt_xlat_func(struct pt_xlat *x, uint32_t id);
uint32_t pt_xlat_mapping(struct pt_xlat *x, uint32_t id);
uint32_t pt_xlat_frame(struct pt_xlat *x, uint32_t id);
uint32_t pt_xlat_labels(struct pt_xlat *x, uint32_t id);

#endif
