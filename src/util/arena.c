/* arena.c: bump allocator; big requests get a block of their own. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/xalloc.h"

#define BLOCK_SIZE (256 * 1024)

struct pt_arena_block {
	struct pt_arena_block *next;
	size_t used, size;
	max_align_t data[]; /* flexible, aligned */
};

void pt_arena_init(struct pt_arena *a)
{
	a->head = NULL;
	a->total = 0;
}

static struct pt_arena_block *new_block(size_t size)
{
	struct pt_arena_block *b = pt_xmalloc(sizeof(*b) + size);
	b->next = NULL;
	b->used = 0;
	b->size = size;
	return b;
}

void *pt_arena_alloc(struct pt_arena *a, size_t n)
{
	struct pt_arena_block *b = a->head;
	void *p;

	n = (n + 7) & ~(size_t)7;
	if (!n)
		n = 8;
	if (n > BLOCK_SIZE / 4) {
		/* large: its own block, linked behind the current one */
		struct pt_arena_block *big = new_block(n);
		big->used = n;
		if (b) {
			big->next = b->next;
			b->next = big;
		} else {
			a->head = big;
		}
		a->total += n;
		memset(big->data, 0, n);
		return big->data;
	}
	if (!b || b->size - b->used < n) {
		b = new_block(BLOCK_SIZE);
		b->next = a->head;
		a->head = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *pt_arena_memdup(struct pt_arena *a, const void *p, size_t n)
{
	char *s = pt_arena_alloc(a, n + 1);
	if (n)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

void pt_arena_release(struct pt_arena *a)
{
	struct pt_arena_block *b = a->head;
	while (b) {
		struct pt_arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->total = 0;
}
