/* index.h: dense ids for fixed records that the caller keeps in an array of its own.
 * pt_intern copies each key into an arena and keeps a pointer to it; a table whose
 * records already live in an array (the model's frames and functions) would hold every
 * key twice. This index holds only ids: a probe asks the caller whether record `id`
 * equals the key, and a rehash asks it for each record's hash again. Hashed under a key
 * of its own (util/hash.h), as pt_intern is. */
#ifndef PT_INDEX_H
#define PT_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "util/hash.h"

/* the caller's side: does record id equal key; the hash of record id (pt_index_hash of
 * the same bytes the key was hashed from) */
struct pt_index_ops {
	int (*eq)(const void *ctx, uint32_t id, const void *key);
	uint64_t (*hash)(const void *ctx, uint32_t id);
};

struct pt_index {
	/* id + 1 in the low half (0 = empty), the hash's high half above it, as pt_intern */
	uint64_t *slots;
	uint32_t mask;
	uint32_t n; /* ids given out, the reserved ones included */
	struct pt_hash_key key;
};

/* an empty index under key whose ids start at `first` (ids below it are the caller's
 * placeholders, never found) */
void pt_index_init_key(struct pt_index *x, const struct pt_hash_key *key, uint32_t first);
void pt_index_release(struct pt_index *x);

static inline uint64_t pt_index_hash(const struct pt_index *x, const void *s, size_t n)
{
	return pt_hash_bytes(&x->key, s, n);
}

/* The id of the record equal to key, whose hash is h (pt_index_hash). When there is
 * none, the key takes id x->n (returned, and x->n grows by one): the caller stores the
 * record under that id before it calls again, since a later call may rehash. */
uint32_t pt_index_put(struct pt_index *x, uint64_t h, const void *key,
		      const struct pt_index_ops *ops, const void *ctx);

#endif
