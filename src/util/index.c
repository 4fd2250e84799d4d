/* index.c: open addressing with linear probing over the caller's records (index.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/index.h"
#include "util/xalloc.h"

#define INDEX_FIRST_SLOTS 64

/* the slot of a hash: its low half picks it, its high half tags it */
static void place(uint64_t *slots, uint32_t mask, uint64_t h, uint32_t id)
{
	uint32_t s = (uint32_t)h & mask;

	while (slots[s])
		s = (s + 1) & mask;
	slots[s] = (h & 0xffffffff00000000u) | ((uint64_t)id + 1);
}

/* twice the slots, each id placed again from the hash its record gives */
static void grow(struct pt_index *x, const struct pt_index_ops *ops, const void *ctx)
{
	uint32_t i, oldn = x->mask + 1, nslots = oldn * 2;
	uint64_t *old = x->slots;

	if (nslots < oldn) /* 2^32 slots cannot be reached before memory runs out */
		pt_die("too many distinct records");
	x->slots = pt_xcalloc(nslots, sizeof(*x->slots));
	x->mask = nslots - 1;
	for (i = 0; i < oldn; i++) {
		uint32_t id = (uint32_t)old[i];
		if (id)
			place(x->slots, x->mask, ops->hash(ctx, id - 1), id - 1);
	}
	free(old);
}

void pt_index_init_key(struct pt_index *x, const struct pt_hash_key *key, uint32_t first)
{
	memset(x, 0, sizeof(*x));
	x->key = *key;
	x->slots = pt_xcalloc(INDEX_FIRST_SLOTS, sizeof(*x->slots));
	x->mask = INDEX_FIRST_SLOTS - 1;
	x->n = first;
}

void pt_index_release(struct pt_index *x)
{
	free(x->slots);
	memset(x, 0, sizeof(*x));
}

uint32_t pt_index_put(struct pt_index *x, uint64_t h, const void *key,
		      const struct pt_index_ops *ops, const void *ctx)
{
	uint64_t tag = h & 0xffffffff00000000u;
	uint32_t s;

	if (x->n == UINT32_MAX - 1)
		pt_die("too many distinct records");
	/* at most three quarters full once this key is in; every id below n has its
	 * record stored by now, so the rehash can ask for it */
	if ((uint64_t)(x->n + 1) * 4 > ((uint64_t)x->mask + 1) * 3)
		grow(x, ops, ctx);
	for (s = (uint32_t)h & x->mask;; s = (s + 1) & x->mask) {
		uint64_t v = x->slots[s];
		if (!v)
			break;
		if ((v & 0xffffffff00000000u) == tag && ops->eq(ctx, (uint32_t)v - 1, key))
			return (uint32_t)v - 1;
	}
	x->slots[s] = tag | ((uint64_t)x->n + 1);
	return x->n++;
}
