/* intern.c: open-addressing string table with linear probing, hashed under a key of
 * its own (util/hash.h) so that names chosen by an input cannot pile into one run. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/intern.h"
#include "util/xalloc.h"

static void rehash(struct pt_intern *t, uint32_t nslots)
{
	uint64_t *old = t->slots;
	uint32_t i, oldn = old ? t->mask + 1 : 0;

	t->slots = pt_xcalloc(nslots, sizeof(*t->slots));
	t->mask = nslots - 1;
	for (i = 0; i < oldn; i++) {
		uint32_t s;
		if (!(uint32_t)old[i])
			continue;
		s = t->v[(uint32_t)old[i] - 1].hash & t->mask;
		while (t->slots[s])
			s = (s + 1) & t->mask;
		t->slots[s] = old[i];
	}
	free(old);
}

void pt_intern_init(struct pt_intern *t, struct pt_arena *arena)
{
	struct pt_hash_key key;
	pt_hash_key_init(&key);
	pt_intern_init_key(t, arena, &key);
}

void pt_intern_init_key(struct pt_intern *t, struct pt_arena *arena, const struct pt_hash_key *key)
{
	memset(t, 0, sizeof(*t));
	t->arena = arena;
	t->key = *key;
	rehash(t, 64);
	pt_intern(t, "", 0);
}

void pt_intern_release(struct pt_intern *t)
{
	free(t->v);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* h: the 64-bit hash; its low half picks the slot and is kept in the entry, its high
 * half is the slot's tag */
static uint32_t lookup(const struct pt_intern *t, const void *s, size_t len, uint64_t h,
		       uint32_t *slot)
{
	uint32_t i = (uint32_t)h & t->mask;
	uint64_t tag = h & 0xffffffff00000000u;
	for (;;) {
		uint64_t x = t->slots[i];
		uint32_t id = (uint32_t)x;
		if (!id) {
			*slot = i;
			return UINT32_MAX;
		}
		id--;
		if ((x & 0xffffffff00000000u) == tag && t->v[id].hash == (uint32_t)h &&
		    t->v[id].len == len && !memcmp(t->v[id].str, s, len))
			return id;
		i = (i + 1) & t->mask;
	}
}

uint32_t pt_intern_find(const struct pt_intern *t, const void *s, size_t len)
{
	uint32_t slot;

	if (!len) /* an empty byte string may come as NULL: hash and compare "" */
		s = "";
	if (len > UINT32_MAX)
		return UINT32_MAX;
	return lookup(t, s, len, pt_hash_bytes(&t->key, s, len), &slot);
}

uint32_t pt_intern(struct pt_intern *t, const void *s, size_t len)
{
	uint64_t h;
	uint32_t slot, id;

	if (!len) /* an empty byte string may come as NULL: hash and compare "" */
		s = "";
	if (len >= UINT32_MAX)
		pt_die("string of %zu bytes is too long", len);
	h = pt_hash_bytes(&t->key, s, len);
	id = lookup(t, s, len, h, &slot);
	if (id != UINT32_MAX)
		return id;
	if (t->n == UINT32_MAX - 1)
		pt_die("too many distinct strings");
	PT_ALLOC_GROW(t->v, (size_t)t->n + 1, t->alloc);
	id = t->n++;
	t->v[id].str = pt_arena_memdup(t->arena, s, len);
	t->v[id].len = (uint32_t)len;
	t->v[id].hash = (uint32_t)h;
	t->slots[slot] = (h & 0xffffffff00000000u) | (id + 1);
	if ((uint64_t)t->n * 4 > (uint64_t)(t->mask + 1) * 3)
		rehash(t, (t->mask + 1) * 2);
	return id;
}
