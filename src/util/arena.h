/* arena.h: bump allocator (git's mem_pool). A profile owns one; everything in it is
 * freed at once by pt_arena_release(). Allocations are 8-byte aligned and zeroed. */
#ifndef PT_ARENA_H
#define PT_ARENA_H

#include <stddef.h>

struct pt_arena_block;

struct pt_arena {
	struct pt_arena_block *head;
	size_t total; /* bytes handed out, for statistics */
};

#define PT_ARENA_INIT                                                                              \
	{                                                                                          \
		NULL, 0                                                                            \
	}

void pt_arena_init(struct pt_arena *a);
void *pt_arena_alloc(struct pt_arena *a, size_t n);
/* a NUL-terminated copy of n bytes (which may themselves contain NULs) */
char *pt_arena_memdup(struct pt_arena *a, const void *p, size_t n);
void pt_arena_release(struct pt_arena *a);

#endif
