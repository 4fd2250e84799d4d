/* heapleak.h: the leak verdict over a series of heap snapshots of one process (memlab's
 * find-leaks, heapy's three-dump diff): an object of the last snapshot leaked when it
 * was allocated after the first one and has been alive in every snapshot since. */
#ifndef PT_HEAPLEAK_H
#define PT_HEAPLEAK_H

#include <stdint.h>

#include "core/heapgraph.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/map.h"

/* at most this many snapshots in a series */
#define PT_HEAP_SERIES_MAX 255

/* An object is known by its V8 node id, or by a Ruby dump's address and Ruby type.
 * Only the previous snapshot's objects are kept (each with the snapshot it was first
 * seen in, since when it has not gone), so memory grows with objects, not with bytes
 * or with the number of snapshots. */
struct pt_heap_series {
	struct pt_map prev; /* key -> (type << 8) | the snapshot its run started in */
	struct pt_arena arena;
	struct pt_intern types; /* Ruby type names, one id across snapshots */
	uint32_t count;		/* snapshots added */
	int ruby;		/* the first snapshot's kind */
};

void pt_heap_series_init(struct pt_heap_series *s);
void pt_heap_series_release(struct pt_heap_series *s);

/* Add the next snapshot g. When `leaked` is not NULL (g->nnodes bytes), it gets 1 for
 * each node that appeared after the first snapshot and before g and has been in every
 * snapshot since, 0 for the others. -1 (nothing added) when g is not of the kind the
 * first snapshot was (a V8 snapshot among Ruby dumps), or past PT_HEAP_SERIES_MAX. */
int pt_heap_series_add(struct pt_heap_series *s, const struct pt_heapgraph *g, uint8_t *leaked);

#endif
