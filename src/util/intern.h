/* intern.h: string table mapping byte strings to dense uint32_t ids.
 * Id 0 is always the empty string (pprof's string_table rule). Strings are copied into
 * the arena given at init and live as long as it does; they are NUL-terminated but may
 * contain NUL bytes, so use the length for binary keys. */
#ifndef PT_INTERN_H
#define PT_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/hash.h"

struct pt_intern_entry {
	const char *str;
	uint32_t len;
	uint32_t hash;
};

struct pt_intern {
	struct pt_arena *arena; /* not owned */
	struct pt_intern_entry *v;
	uint32_t n, alloc;
	/* id + 1 in the low half (0 = empty), the hash's high half above it: a probe
	 * compares the tag before it touches the entry, so probes cost no cache miss */
	uint64_t *slots;
	uint32_t mask;
	struct pt_hash_key key; /* random per table: names come from the input */
};

void pt_intern_init(struct pt_intern *t, struct pt_arena *arena);
/* the same with the given key (pt_hash_key_derive), for a family of tables */
void pt_intern_init_key(struct pt_intern *t, struct pt_arena *arena, const struct pt_hash_key *key);
void pt_intern_release(struct pt_intern *t);
/* id of the string, adding it if new */
uint32_t pt_intern(struct pt_intern *t, const void *s, size_t len);
static inline uint32_t pt_intern_cstr(struct pt_intern *t, const char *s);
/* id if present, else UINT32_MAX */
uint32_t pt_intern_find(const struct pt_intern *t, const void *s, size_t len);

static inline const char *pt_intern_str(const struct pt_intern *t, uint32_t id)
{
	return t->v[id].str;
}
static inline size_t pt_intern_len(const struct pt_intern *t, uint32_t id)
{
	return t->v[id].len;
}

#include <string.h>
static inline uint32_t pt_intern_cstr(struct pt_intern *t, const char *s)
{
	return pt_intern(t, s, strlen(s));
}

#endif
