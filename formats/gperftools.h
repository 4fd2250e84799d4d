/* gperftools.h: what the two gperftools readers (gperftools-cpu.c, gperftools-heap.c)
 * share: the stacks of addresses they collect, the memory map that ends both formats
 * (/proc/self/maps text), and making model frames of the addresses once the map is
 * known. See formats/gperftools.md. */
#ifndef PT_GPERFTOOLS_H
#define PT_GPERFTOOLS_H

#include <stddef.h>
#include <stdint.h>

#include "core/profile.h"
#include "core/sink.h"

/* one sample: its addresses, leaf first, already moved onto the call instruction */
struct pt_gperf_sample {
	size_t first, n; /* in addrs[first, first + n) */
	int64_t v[4];	 /* the profile's ntypes values */
	int64_t bytes;	 /* heap: pprof's "bytes" label (the block size) */
	int has_bytes;
};

struct pt_gperf_map {
	uint64_t start, limit, offset;
	uint32_t file, build_id; /* string ids of the profile */
	uint64_t low;		 /* start - offset: the first part of a split mapping */
	int merged;		 /* folded into the mapping before it */
};

struct pt_gperf {
	uint64_t *addrs;
	size_t naddrs, addrs_alloc;
	struct pt_gperf_sample *s;
	size_t ns, s_alloc;
	struct pt_gperf_map *maps;
	size_t nmaps, maps_alloc;
};

void pt_gperf_init(struct pt_gperf *g);
void pt_gperf_release(struct pt_gperf *g);
/* room for n more addresses of the sample being added (the caller checked n against
 * the input it has left) */
uint64_t *pt_gperf_addrs(struct pt_gperf *g, size_t n);
/* One line of the memory map, as pprof reads it: "START-END PERMS OFFSET DEV INODE
 * [PATH]" (/proc/self/maps) or "START-END [PERMS] [PATH] [(@OFFSET)] [BUILDID]". An
 * executable mapping (or one without permissions) is added; other lines, and lines of
 * neither form, are left out as pprof leaves them. */
void pt_gperf_map_line(struct pt_gperf *g, struct pt_profile *p, const char *s, size_t n);
/* Frames for every address (named 0x<addr>, with the mapping holding it, as pprof's
 * massageMappings and remapMappingIDs place it), each sample handed to the sink with
 * its "bytes" label when it has one. */
void pt_gperf_emit(struct pt_gperf *g, struct pt_profile *p, struct pt_sink *sink);

#endif
