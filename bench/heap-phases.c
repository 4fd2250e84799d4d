/* heap-phases.c: the CPU time of each phase of `proftool heap` on one snapshot (read and
 * check, dominator tree, per-constructor summary), for make bench's heap rows.
 * usage: heap-phases FILE   prints "READ_SECONDS DOMINATOR_SECONDS SUMMARY_SECONDS NODES" */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "analysis/dominator.h"
#include "formats/load.h"
#include "report/heap.h"
#include "util/xalloc.h"

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct pt_input in;
	struct pt_diag d;
	struct pt_heapgraph g;
	struct pt_heap_dom dom;
	struct pt_heap_summary s;
	double t0, t1, t2, t3;

	if (argc != 2) {
		fprintf(stderr, "usage: heap-phases FILE\n");
		return 2;
	}
	pt_xalloc_init(); /* huge pages, as proftool asks for them */
	pt_diag_init(&d, argv[1]);
	pt_heapgraph_init(&g);
	t0 = cpu_now();
	if (pt_input_open(&in, argv[1], 0, &d) < 0 || pt_load_heap_input(&in, &g, &d) < 0) {
		pt_diag_print(&d, stderr);
		return 1;
	}
	pt_input_close(&in);
	t1 = cpu_now();
	pt_heap_dominators(&g, &dom);
	t2 = cpu_now();
	pt_heap_summarize(&g, &dom, &s);
	t3 = cpu_now();
	printf("%.3f %.3f %.3f %zu\n", t1 - t0, t2 - t1, t3 - t2, g.nnodes);
	pt_heap_summary_release(&s);
	pt_heap_dom_release(&dom);
	pt_heapgraph_release(&g);
	return 0;
}
