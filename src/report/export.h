/* export.h: profiles as normalized tables for a column store (ClickHouse, DuckDB, ...):
 * stacks, samples and profiles, written as TSV (ClickHouse's TabSeparated) or CSV.
 * Stack and profile ids are content hashes, so exports made apart share them. */
#ifndef PT_EXPORT_H
#define PT_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "core/profile.h"
#include "util/diag.h"
#include "util/map.h"

enum pt_export_format { PT_EXPORT_TSV, PT_EXPORT_CSV };

/* One export run over any number of profiles. The three streams are the caller's:
 *   stacks:   stack_id, depth, function, file, start_line, line
 *             one row per frame, depth 0 the outermost caller; a stack is written once
 *             per run however many profiles hold it
 *   samples:  profile_id, stack_id, sample_type, unit, value, time, label_keys,
 *             label_values; one row per stack, label set and sample type with a value
 *             other than 0 (per timeline event with timeline set and a timeline there)
 *   profiles: profile_id, source, start, duration, sample_types, default_type
 * Times are nanoseconds since the epoch (0: unknown). The arrays are ClickHouse array
 * literals ['a','b'] (backslash escapes), in a CSV field when the format is CSV.
 * stack_id is FNV-1a 64 over the stack's frames, outermost first, each as the text
 * "function TAB file TAB start_line TAB line LF" (decimal lines, 0 unknown); profile_id
 * is FNV-1a 64 over "source LF start". Both are printed as unsigned decimals. */
struct pt_export {
	enum pt_export_format fmt;
	int timeline;
	FILE *stacks, *samples, *profiles;
	struct pt_map seen; /* stack ids written */
};

void pt_export_init(struct pt_export *x, enum pt_export_format fmt, FILE *stacks, FILE *samples,
		    FILE *profiles);
/* Write profile p (read from source, the name it gets in the profiles table). -1 with d
 * filled when p has no stacks. */
int pt_export_profile(struct pt_export *x, const struct pt_profile *p, const char *source,
		      struct pt_diag *d);
void pt_export_release(struct pt_export *x);

/* FNV-1a 64 of n bytes, continuing from h (start from PT_FNV_OFFSET) */
#define PT_FNV_OFFSET 0xcbf29ce484222325ULL
uint64_t pt_fnv1a(uint64_t h, const void *data, size_t n);

#endif
