/* check.h: the one model check every read ends with (pprof's Profile.CheckValid): ids
 * resolve, rows are as wide as the types, the call tree is a tree. */
#ifndef PT_CHECK_H
#define PT_CHECK_H

#include "core/profile.h"
#include "util/diag.h"

/* 0 if p (packed, as the load front leaves it) holds together, else -1 with d filled:
 * "no sample types in the profile" at offset 0 for a profile without types, otherwise
 * the first broken rule, named as a reader's bug. Linear in the model's size. */
int pt_profile_check(const struct pt_profile *p, struct pt_diag *d);

#endif
