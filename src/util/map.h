/* map.h: open-addressing hash map from uint64_t keys to uint32_t values.
 * Used for the call tree's child index, sample rows and aggregation keys. */
#ifndef PT_MAP_H
#define PT_MAP_H

#include <stdint.h>

#include "util/hash.h"

struct pt_map_slot {
	uint64_t key;
	uint32_t val; /* UINT32_MAX = empty */
};

struct pt_map {
	struct pt_map_slot *slots;
	uint32_t n, mask;
	struct pt_hash_key key; /* random per map: keys are ids an input can choose */
};

void pt_map_init(struct pt_map *m);
/* the same with the given key (pt_hash_key_derive), for a family of tables */
void pt_map_init_key(struct pt_map *m, const struct pt_hash_key *key);
void pt_map_release(struct pt_map *m);
/* value for key, or UINT32_MAX */
uint32_t pt_map_get(const struct pt_map *m, uint64_t key);
/* Pointer to the value slot for key. A key that was absent is inserted with the value
 * PT_MAP_NEW, which the caller overwrites with the real one (values must stay below
 * PT_MAP_NEW). The pointer is valid until the next insert. */
#define PT_MAP_NEW (UINT32_MAX - 1)
uint32_t *pt_map_put(struct pt_map *m, uint64_t key);

#endif
