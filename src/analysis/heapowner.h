/* heapowner.h: the two changes Chrome DevTools' heap snapshot worker makes to a snapshot
 * before its dominator pass: owned sizes moved to their owners, and the WeakMap tables'
 * edges to their values left out. */
#ifndef PT_HEAPOWNER_H
#define PT_HEAPOWNER_H

#include <stdint.h>

#include "core/heapgraph.h"

/* DevTools' calculateShallowSizes: the self size of each hidden node, array or
 * "system / ExternalStringData" native reached over non-weak edges, through such nodes
 * only, from exactly one other node (its owner: a Map's table, an object's property
 * and element arrays, a function's internals) is added to that owner's and set to 0,
 * unless the owner is synthetic or the root. Only for snapshots whose root has a user
 * root (a non-synthetic node or "(Document DOM trees)"); one made with V8's internals
 * exposed has none and keeps its sizes. Linear: each node is visited at most twice.
 * Rewrites g's self sizes in place; a sum past 2^32 - 1 stays at 2^32 - 1. */
void pt_heap_move_owned_sizes(struct pt_heapgraph *g);

/* A bitmap (bit e of byte e / 8) of the internal edges named "N / part of key (K @k)
 * -> value (V @v) pair in WeakMap (table @T)" that leave the node whose id is T: a
 * WeakMap value is held by the table and by its key, and DevTools' dominator pass
 * follows only the key's edge (computeIsEssentialEdge). Each distinct name is parsed
 * once, in time linear in its length. Owned; free() it. */
uint8_t *pt_heap_weakmap_table_edges(const struct pt_heapgraph *g);

#endif
