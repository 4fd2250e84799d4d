/* perf.h: what the perf script reader (perf.c) shares with perf-maps.c: the memory
 * maps that `perf script --show-mmap-events` prints, and the mapping an unnamed frame
 * ("addr [unknown] (/path/to/dso)") gets so the symbolizer finds its binary and the
 * address in it. See formats/perf.md, "Unnamed frames". */
#ifndef PT_PERF_H
#define PT_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "core/profile.h"
#include "util/arena.h"
#include "util/intern.h"

/* the executable maps met so far, newest first per file */
struct pt_perf_maps {
	struct pt_perf_map *v;
	size_t n, alloc;
	struct pt_arena arena;
	struct pt_intern files; /* the maps' file paths (not the profile's strings) */
	uint32_t *head;		/* per id of files: its newest map's index + 1 (0: none) */
	size_t head_alloc;
};

void pt_perf_maps_init(struct pt_perf_maps *m);
void pt_perf_maps_release(struct pt_perf_maps *m);

/* A side-band line s[0..n) of the input: when it is an executable PERF_RECORD_MMAP or
 * PERF_RECORD_MMAP2 ("... PERF_RECORD_MMAP2 pid/tid: [0xSTART(0xLEN) @ 0xPGOFF ...]:
 * r-xp /path"), its map is kept; any other line is let be (side-band lines are never an
 * error). */
void pt_perf_maps_line(struct pt_perf_maps *m, const char *s, size_t n);

/* The mapping (an id of p) of the frame at address addr in the file dso[0..n). perf
 * script prints addr relative to the file (perf 6.1: the ip less the map's start plus
 * its file offset): then the mapping is the whole file at address 0, which the
 * symbolizer places by the binary's executable segment. An address inside one of the
 * file's maps (a perf that prints the ip itself) gets that map. */
uint32_t pt_perf_maps_mapping(struct pt_perf_maps *m, struct pt_profile *p, const char *dso,
			      size_t n, uint64_t addr);

#endif
