/* sort.h: a stable radix sort of keyed records, and a table to fold a key's records as
 * they are made, for writers that aggregate millions of (caller, callee) pairs: sorting
 * them and merging runs of equal keys touches memory in order, where a hash map probes
 * it at random. */
#ifndef PT_SORT_H
#define PT_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* a key and payload the caller gives meaning to: carrying a value along with its key
 * spares reading it at random after the sort */
struct pt_keyed {
	uint64_t key;
	uint64_t x;
	uint32_t a, b;
};

/* Sort v[0 .. n) by key, keeping records with equal keys in their order. Every key is
 * below 2^bits (bits <= 64); tmp is scratch room for n records. Returns v or tmp,
 * whichever holds the result; the other is left in some unspecified order. */
struct pt_keyed *pt_sort_keyed(struct pt_keyed *v, struct pt_keyed *tmp, size_t n, unsigned bits);

/* The record made last per key, in a small direct-mapped table. A profile with few
 * functions has millions of nodes but few pairs: records of one key come close
 * together, and where regrouping a fold changes nothing (sums of values that are never
 * negative, which saturate alike in any grouping) they can be folded into the first as
 * they are made, which leaves the sort little to do. */
struct pt_recent {
	uint64_t key;
	size_t at; /* the record's index + 1; 0: none */
};
#define PT_RECENT_BITS 12
#define PT_RECENT_N    ((size_t)1 << PT_RECENT_BITS)

static inline struct pt_recent *pt_recent_slot(struct pt_recent *table, uint64_t key)
{
	return &table[(key * 0x9e3779b97f4a7c15u) >> (64 - PT_RECENT_BITS)];
}

/* The record for key: the one made last for it, while the table (NULL: no table) still
 * holds it, with *made = 0; or else a new one, rec[(*nrec)++], with only its key set,
 * and *made = 1. */
static inline struct pt_keyed *pt_recent_record(struct pt_recent *table, struct pt_keyed *rec,
						size_t *nrec, uint64_t key, int *made)
{
	struct pt_recent *r = table ? pt_recent_slot(table, key) : NULL;
	struct pt_keyed *k;

	if (r && r->at && r->key == key) {
		*made = 0;
		return &rec[r->at - 1];
	}
	k = &rec[(*nrec)++];
	k->key = key;
	if (r) {
		r->key = key;
		r->at = *nrec;
	}
	*made = 1;
	return k;
}

/* the number of bits needed to write v (0 for 0) */
unsigned pt_bits(uint64_t v);

/* qsort for arrays that may be empty (and then NULL, which qsort must not be given) */
static inline void pt_qsort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

#endif
