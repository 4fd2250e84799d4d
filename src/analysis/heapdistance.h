/* heapdistance.h: Chrome DevTools' distances in a heap snapshot (calculateDistances, its
 * Distance column), kept as the edge over which each node was first reached: the
 * shortest retaining path, as DevTools' Retainers pane orders an object's retainers by
 * that distance. A breadth-first search first from the user roots the root holds (the
 * page's globals), then from the root for the rest, over every edge but weak ones and
 * those DevTools' filter leaves out: a NativeContext's sloppy_function_map, the
 * descriptor slots (index 3i + 4) of a "(map descriptors)" array (maps share those
 * arrays, so not every link holds for every map), and the first of a
 * WeakMap entry's two edges to its value met (the key's and the table's): the value is
 * reached over whichever comes second. */
#ifndef PT_HEAPDISTANCE_H
#define PT_HEAPDISTANCE_H

#include <stdint.h>

#include "core/heapgraph.h"

/* For each node of g, the edge it was first reached over (via_edge) and the node that
 * edge leaves (via_node); PT_HEAP_NONE for the root and for nodes only weak or left-out
 * edges reach. Following via_node from a node leads to the root in as many steps as its
 * distance from the root (a user root is one step from it), unless the search came back
 * to the root through an edge into it, which V8 never writes: DevTools then measures
 * from there, and the path stops at the root. Both arrays have g->nnodes entries, the
 * caller's. Linear in the snapshot's size. */
void pt_heap_reach(const struct pt_heapgraph *g, uint32_t *via_edge, uint32_t *via_node);

#endif
