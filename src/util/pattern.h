/* pattern.h: the one regular-expression dialect of every pattern proftool takes (the
 * filters, tree, method --regex, merge --label-from-path, pprof's drop_frames), on PCRE2.
 *
 * Syntax: PCRE2's, which holds RE2's (what pprof users type: \d, \w, (?i), non-greedy
 * repeats) and POSIX extended syntax as people write it. Matching is unanchored, over a
 * byte string with a length (a name may hold NUL bytes), without UTF-8 checks.
 *
 * Cost: a pattern is refused when compiling it would exceed PT_PATTERN_MAX_LEN bytes of
 * source or PCRE2's compiled-size limit, or when it uses backreferences (RE2 has none;
 * they compare without counting). A match is a single anchored search whose steps (PCRE2's
 * match limit: backtracks, counted over the whole subject, not per start position) are
 * bounded by PT_PATTERN_STEPS_BASE + (n + 1) * per-byte steps that grow with the pattern's
 * length, and whose memory is bounded too; past that the match is refused, so the cost of
 * matching a whole input stays linear in its size. */
#ifndef PT_PATTERN_H
#define PT_PATTERN_H

#include <stddef.h>

#include "util/diag.h"

#define PT_PATTERN_MAX_LEN 8192
#define PT_PATTERN_STEPS_BASE 1000
/* steps per subject byte: PT_PATTERN_STEPS_BYTE + the source's length in bytes, at most
 * PT_PATTERN_STEPS_LEN_CAP (a pattern tries each of its alternatives at each byte) */
#define PT_PATTERN_STEPS_BYTE 16
#define PT_PATTERN_STEPS_LEN_CAP 240
/* backtracking memory of one match */
#define PT_PATTERN_HEAP_KIB (32 * 1024)

struct pt_pattern;

/* Compile the NUL-terminated src. NULL with err filled (what is wrong, without the
 * pattern itself: "missing closing parenthesis at offset 4"). src is copied. */
struct pt_pattern *pt_pattern_compile(const char *src, char *err, size_t errlen);
/* 1 if s[0..n) matches, 0 if not, -1 when the match is too costly, with d filled:
 * "pattern 'SRC': too costly to match (...)". */
int pt_pattern_match(struct pt_pattern *pat, const char *s, size_t n, struct pt_diag *d);
/* As pt_pattern_match; on a match, *so and *eo delimit what capture group g matched
 * (0: the whole match), both (size_t)-1 when the group took no part. */
int pt_pattern_match_group(struct pt_pattern *pat, const char *s, size_t n, unsigned g,
			   size_t *so, size_t *eo, struct pt_diag *d);
/* the number of capture groups */
unsigned pt_pattern_groups(const struct pt_pattern *pat);
/* the source it was compiled from */
const char *pt_pattern_source(const struct pt_pattern *pat);
void pt_pattern_free(struct pt_pattern *pat);

#endif
