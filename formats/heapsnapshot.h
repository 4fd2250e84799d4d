/* heapsnapshot.h: loading a V8 heap snapshot (.heapsnapshot) as a graph, for the heap
 * command. The format row (pt_format_heapsnapshot) reads only its allocation stacks. */
#ifndef PT_HEAPSNAPSHOT_H
#define PT_HEAPSNAPSHOT_H

#include "core/heapgraph.h"
#include "util/diag.h"
#include "util/input.h"

/* Stream the snapshot from `in` into g (initialized by the caller) and check it
 * (pt_heapgraph_finish). 0, or -1 with d set; g is then to be released all the same. */
int pt_heapsnapshot_load(struct pt_input *in, struct pt_heapgraph *g, struct pt_diag *d);

#endif
