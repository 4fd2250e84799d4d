/* map.c: linear-probing uint64 -> uint32 map, keyed hashing (util/hash.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/map.h"
#include "util/xalloc.h"

static void alloc_slots(struct pt_map *m, uint32_t nslots)
{
	uint32_t i;
	m->slots = pt_xmalloc((size_t)nslots * sizeof(*m->slots));
	for (i = 0; i < nslots; i++)
		m->slots[i].val = UINT32_MAX;
	m->mask = nslots - 1;
}

void pt_map_init(struct pt_map *m)
{
	struct pt_hash_key key;
	pt_hash_key_init(&key);
	pt_map_init_key(m, &key);
}

void pt_map_init_key(struct pt_map *m, const struct pt_hash_key *key)
{
	m->n = 0;
	m->key = *key;
	alloc_slots(m, 64);
}

void pt_map_release(struct pt_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static uint32_t find_slot(const struct pt_map *m, uint64_t key)
{
	uint32_t i = (uint32_t)pt_hash_u64(&m->key, key) & m->mask;
	while (m->slots[i].val != UINT32_MAX && m->slots[i].key != key)
		i = (i + 1) & m->mask;
	return i;
}

uint32_t pt_map_get(const struct pt_map *m, uint64_t key)
{
	return m->slots[find_slot(m, key)].val;
}

uint32_t *pt_map_put(struct pt_map *m, uint64_t key)
{
	uint32_t i = find_slot(m, key);

	if (m->slots[i].val != UINT32_MAX)
		return &m->slots[i].val;
	if ((uint64_t)(m->n + 1) * 4 > (uint64_t)(m->mask + 1) * 3) {
		struct pt_map_slot *old = m->slots;
		uint32_t j, oldn = m->mask + 1;
		alloc_slots(m, oldn * 2);
		for (j = 0; j < oldn; j++)
			if (old[j].val != UINT32_MAX)
				m->slots[find_slot(m, old[j].key)] = old[j];
		free(old);
		i = find_slot(m, key);
	}
	m->n++;
	m->slots[i].key = key;
	/* mark occupied with a sentinel the caller overwrites */
	m->slots[i].val = PT_MAP_NEW;
	return &m->slots[i].val;
}
