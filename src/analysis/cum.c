/* cum.c: the marks behind the cumulative rule (cum.h): their room and their reset. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cum.h"
#include "util/xalloc.h"

void pt_cum_reserve(struct pt_cum *c, size_t nkeys)
{
	size_t old = c->n;

	if (nkeys <= old)
		return;
	PT_ALLOC_GROW(c->mark, nkeys, c->n);
	memset(c->mark + old, 0, (c->n - old) * sizeof(uint32_t));
}

void pt_cum_wrap(struct pt_cum *c)
{
	if (c->mark)
		memset(c->mark, 0, c->n * sizeof(uint32_t));
	c->epoch = 1;
}
