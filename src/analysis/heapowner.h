/* heapowner.h: the two changes Chrome DevTools' heap snapshot worker makes to a snapshot
 * before its dominator pass: owned sizes moved to their owners, and the WeakMap tables'
 * edges to their values left out; and the two tests they rest on, user roots and
 * WeakMap edge names. */
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

/* whether node v is what DevTools calls a user root when the root holds it: a node not
 * synthetic, or the synthetic "(Document DOM trees)" */
int pt_heap_user_root(const struct pt_heapgraph *g, uint32_t v);

/* Whether s (n bytes) matches DevTools' ephemeron edge name
 * /^\d+( \/ part of key \(.*? @\d+\) -> value \(.*? @\d+\) pair in WeakMap \(table @(\d+)\))$/:
 * 0 if not, else the offset of the group after the number (the part a WeakMap entry's two
 * edges, the key's and the table's, share), with the table id in *table (UINT64_MAX past
 * 2^64). The anchored tail fixes the last two numbers, so only the middle is searched,
 * each " @" start once: linear in n. */
size_t pt_heap_weakmap_name(const char *s, size_t n, uint64_t *table);

/* A bitmap (bit e of byte e / 8) of the internal edges named "N / part of key (K @k)
 * -> value (V @v) pair in WeakMap (table @T)" that leave the node whose id is T: a
 * WeakMap value is held by the table and by its key, and DevTools' dominator pass
 * follows only the key's edge (computeIsEssentialEdge). Each distinct name is parsed
 * once, in time linear in its length. Owned; free() it. */
uint8_t *pt_heap_weakmap_table_edges(const struct pt_heapgraph *g);

#endif
