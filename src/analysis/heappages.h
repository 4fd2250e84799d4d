/* heappages.h: a Ruby heap dump's objects laid out on the GC's heap pages, from their
 * addresses: which page each object sits on, which slot, how full each page is. */
#ifndef PT_HEAPPAGES_H
#define PT_HEAPPAGES_H

#include <stddef.h>
#include <stdint.h>

#include "core/heapgraph.h"

struct pt_heap_page {
	uint64_t base;	      /* the page's address (aligned to the page size) */
	uint32_t first, live; /* its objects: order[first .. first + live) */
	uint32_t pinned;      /* how many of them are pinned */
	uint32_t pad;
};

struct pt_heap_pages {
	struct pt_heap_page *v; /* by address */
	size_t n;
	uint32_t *order;		      /* the objects (nodes but the root) by address */
	uint64_t page_size, slot_size, slots; /* slots: a page's capacity */
	uint64_t live, under25;		      /* objects; pages under 25% full */
};

/* Lay g's objects (a Ruby dump: rb_addr set) on pages of page_size bytes (a power of
 * two, at least 4 slots) holding slots of slot_size bytes: a page's capacity is
 * (page_size - 8) / slot_size, its first 8 bytes being the GC's page header, as in
 * Ruby's gc.c (16 KiB pages of 40-byte slots: 409, HEAP_PAGE_OBJ_LIMIT). Owned arrays;
 * free with pt_heap_pages_release. */
void pt_heap_pages(const struct pt_heapgraph *g, uint64_t page_size, uint64_t slot_size,
		   struct pt_heap_pages *p);
void pt_heap_pages_release(struct pt_heap_pages *p);

/* the slot of an object at addr on a page at base */
static inline uint64_t pt_heap_slot(const struct pt_heap_pages *p, uint64_t base, uint64_t addr)
{
	return (addr - base) / p->slot_size;
}

#endif
