/* gosplit.h: the goroutine time split of a Go execution trace as a profile, the contract
 * between the trace reader (formats/gotrace.c, asked with PT_READ_GOROUTINE_IDS) and
 * `proftool goroutines` (report/goroutines.c).
 *
 * Such a profile has the PT_GOSPLIT_N sample types below, in this order, each in
 * nanoseconds, and one row per goroutine the trace creates: its stack is the one frame
 * of the function the goroutine started in (PT_GOSPLIT_NEVER_RAN if it never ran while
 * the trace was taken), its label "goroutine" its id. The values are those of
 * internal/trace's GoroutineStats, the numbers go tool trace's goroutine pages show:
 * execution, network wait, sync block, blocking syscall, scheduler wait, GC sweeping,
 * and "GC pause" (here "gc": the time the goroutine lived while a GC cycle ran), with GC
 * mark assists and the goroutine's whole time in the trace. The trace's GC summary is
 * in the metadata, the PT_GOSPLIT_META_* keys, decimal nanoseconds and counts. */
#ifndef PT_GOSPLIT_H
#define PT_GOSPLIT_H

enum {
	PT_GOSPLIT_EXEC,
	PT_GOSPLIT_NET,
	PT_GOSPLIT_SYNC,
	PT_GOSPLIT_SYSCALL,
	PT_GOSPLIT_SCHED,
	PT_GOSPLIT_SWEEP,
	PT_GOSPLIT_ASSIST,
	PT_GOSPLIT_GC,
	PT_GOSPLIT_TOTAL,
	PT_GOSPLIT_N
};

/* the type names, in the order above */
#define PT_GOSPLIT_NAMES                                                                           \
	{                                                                                          \
		"execution", "network", "sync", "syscall", "sched", "sweep", "assist", "gc",       \
			"total"                                                                    \
	}

/* the metadata key whose presence marks such a profile */
#define PT_GOSPLIT_META_MARK	"go_trace_goroutines"
#define PT_GOSPLIT_META_GC	"gc_count"
#define PT_GOSPLIT_META_GC_NS	"gc_nanoseconds"
#define PT_GOSPLIT_META_STW	"stw_count"
#define PT_GOSPLIT_META_STW_NS	"stw_nanoseconds"
#define PT_GOSPLIT_META_STW_MAX "stw_longest_nanoseconds"

/* the frame name of goroutines that never ran while the trace was taken */
#define PT_GOSPLIT_NEVER_RAN "(never ran in the trace)"

#endif
