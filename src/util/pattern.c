/* pattern.c: regular expressions on PCRE2, with their compile and match cost bounded
 * (pattern.h says how). */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/pattern.h"
#include "util/xalloc.h"

struct pt_pattern {
	char *src;
	size_t srclen;
	pcre2_code *code;
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	uint32_t steps_per_byte;
	unsigned groups;
	/* code units every match holds (PCRE2's first and last "required" ones), -1 if
	 * none: a subject without them is no match, found by memchr in linear time */
	int need[2];
};

/* PCRE2's limit on steps counts backtracks from each start position afresh, so an
 * unanchored search of a long name could cost its length squared. Compiled as one
 * anchored search whose lazy prefix walks the start positions, the limit covers the
 * whole subject: the same leftmost match, \K keeps its start where the pattern's own
 * match starts, and no group is added. \E ends a \Q left open; the newline ends a
 * comment of (?x) that would swallow the closing parenthesis. Without auto-possession
 * a repeat's scan is paid back by counted backtracks; the JIT is left out, as it skips
 * work (a search back for the literal after a repeat) that the limit does not count. */
static pcre2_code *compile_wrapped(const char *src, size_t len, pcre2_compile_context *cctx,
				   int *errcode)
{
	static const char head[] = "(?s:.*?)\\K(?:", *const tails[] = {"\\E)", "\\E\n)"};
	const uint32_t opts = PCRE2_ANCHORED | PCRE2_NO_AUTO_POSSESS | PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_UTF |
			      PCRE2_NEVER_UCP | PCRE2_NEVER_BACKSLASH_C;
	pcre2_code *code = NULL;
	char *w = pt_xmalloc(sizeof(head) + len + 8);
	PCRE2_SIZE off;
	size_t i;

	for (i = 0; i < 2 && !code; i++) {
		memcpy(w, head, sizeof(head) - 1);
		memcpy(w + sizeof(head) - 1, src, len);
		strcpy(w + sizeof(head) - 1 + len, tails[i]);
		code = pcre2_compile((PCRE2_SPTR)w, strlen(w), opts, errcode, &off, cctx);
	}
	free(w);
	return code;
}

static void error_text(int code, char *buf, size_t len)
{
	if (pcre2_get_error_message(code, (PCRE2_UCHAR *)buf, len) == PCRE2_ERROR_BADDATA)
		snprintf(buf, len, "PCRE2 error %d", code);
}

/* Compile src alone first: its errors and offsets are the user's, and it says whether
 * there are backreferences, how many groups, which code units a match needs. NULL
 * with err filled. */
static pcre2_code *check_plain(const char *src, size_t len, pcre2_compile_context *cctx,
			       char *err, size_t errlen)
{
	int code;
	PCRE2_SIZE off;
	uint32_t backrefs = 0;
	pcre2_code *plain = pcre2_compile((PCRE2_SPTR)src, len,
					  PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_UTF |
						  PCRE2_NEVER_UCP | PCRE2_NEVER_BACKSLASH_C,
					  &code, &off, cctx);
	if (!plain) {
		char msg[256];
		error_text(code, msg, sizeof(msg));
		snprintf(err, errlen, "%s at offset %zu", msg, (size_t)off);
		return NULL;
	}
	pcre2_pattern_info(plain, PCRE2_INFO_BACKREFMAX, &backrefs);
	if (backrefs) {
		pcre2_code_free(plain);
		snprintf(err, errlen, "backreferences are not supported");
		return NULL;
	}
	return plain;
}

struct pt_pattern *pt_pattern_compile(const char *src, char *err, size_t errlen)
{
	size_t len = strlen(src);
	pcre2_compile_context *cctx;
	pcre2_code *plain, *code = NULL;
	struct pt_pattern *pat;
	uint32_t groups = 0, type, unit;
	int ecode, need[2] = {-1, -1};

	if (len > PT_PATTERN_MAX_LEN) {
		snprintf(err, errlen, "longer than %d bytes", PT_PATTERN_MAX_LEN);
		return NULL;
	}
	cctx = pcre2_compile_context_create(NULL);
	if (!cctx)
		pt_die("out of memory compiling a pattern");
	pcre2_set_max_pattern_length(cctx, PT_PATTERN_MAX_LEN + 64);
	plain = check_plain(src, len, cctx, err, errlen);
	if (plain) {
		pcre2_pattern_info(plain, PCRE2_INFO_CAPTURECOUNT, &groups);
		if (!pcre2_pattern_info(plain, PCRE2_INFO_FIRSTCODETYPE, &type) && type == 1 &&
		    !pcre2_pattern_info(plain, PCRE2_INFO_FIRSTCODEUNIT, &unit))
			need[0] = (int)unit;
		if (!pcre2_pattern_info(plain, PCRE2_INFO_LASTCODETYPE, &type) && type == 1 &&
		    !pcre2_pattern_info(plain, PCRE2_INFO_LASTCODEUNIT, &unit))
			need[1] = (int)unit;
		pcre2_code_free(plain);
		if (!(code = compile_wrapped(src, len, cctx, &ecode))) {
			char msg[256];
			error_text(ecode, msg, sizeof(msg));
			snprintf(err, errlen, "%s", msg);
		}
	}
	pcre2_compile_context_free(cctx);
	if (!code)
		return NULL;

	pat = pt_xcalloc(1, sizeof(*pat));
	pat->src = pt_xmalloc(len + 1);
	memcpy(pat->src, src, len + 1);
	pat->srclen = len;
	pat->code = code;
	pat->groups = groups;
	pat->steps_per_byte = PT_PATTERN_STEPS_BYTE +
			      (len < PT_PATTERN_STEPS_LEN_CAP ? (uint32_t)len : PT_PATTERN_STEPS_LEN_CAP);
	pat->md = pcre2_match_data_create_from_pattern(code, NULL);
	pat->mctx = pcre2_match_context_create(NULL);
	if (!pat->md || !pat->mctx)
		pt_die("out of memory compiling a pattern");
	pcre2_set_heap_limit(pat->mctx, PT_PATTERN_HEAP_KIB);
	pat->need[0] = need[0];
	pat->need[1] = need[1];
	return pat;
}

static int too_costly(const struct pt_pattern *pat, int rc, uint32_t steps, size_t n,
		      struct pt_diag *d)
{
	char why[128];

	switch (rc) {
	case PCRE2_ERROR_MATCHLIMIT:
		snprintf(why, sizeof(why), "over %" PRIu32 " steps on %zu bytes", steps, n);
		break;
	case PCRE2_ERROR_HEAPLIMIT:
	case PCRE2_ERROR_DEPTHLIMIT:
	case PCRE2_ERROR_NOMEMORY:
		snprintf(why, sizeof(why), "over %d MiB of backtracking memory on %zu bytes",
			 PT_PATTERN_HEAP_KIB / 1024, n);
		break;
	default:
		error_text(rc, why, sizeof(why));
		return pt_diag_error(d, "pattern '%s': cannot match: %s", pat->src, why);
	}
	return pt_diag_error(d, "pattern '%s': too costly to match (%s)", pat->src, why);
}

/* 0 if s[0..n) lacks a code unit every match holds, in either case: PCRE2 does not say
 * whether the unit is caseless, and an ASCII letter's other case is all (?i) adds
 * without UTF */
static int has_unit(const char *s, size_t n, int u)
{
	int other = u >= 'a' && u <= 'z' ? u - 32 : u >= 'A' && u <= 'Z' ? u + 32 : u;
	return u < 0 || (n && (memchr(s, u, n) || (other != u && memchr(s, other, n))));
}

int pt_pattern_match_group(struct pt_pattern *pat, const char *s, size_t n, unsigned g,
			   size_t *so, size_t *eo, struct pt_diag *d)
{
	uint64_t want = PT_PATTERN_STEPS_BASE + ((uint64_t)n + 1) * pat->steps_per_byte;
	uint32_t steps = want > UINT32_MAX ? UINT32_MAX : (uint32_t)want;
	PCRE2_SIZE *ov;
	int rc;

	if (!has_unit(s, n, pat->need[0]) || !has_unit(s, n, pat->need[1]))
		return 0;
	pcre2_set_match_limit(pat->mctx, steps);
	rc = pcre2_match(pat->code, (PCRE2_SPTR)(n ? s : ""), n, 0, 0, pat->md, pat->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0)
		return too_costly(pat, rc, steps, n, d);
	if (so && eo) {
		ov = pcre2_get_ovector_pointer(pat->md);
		*so = *eo = (size_t)-1;
		if (g <= pat->groups && (uint32_t)rc > g && ov[2 * g] != PCRE2_UNSET) {
			*so = ov[2 * g];
			*eo = ov[2 * g + 1];
		}
	}
	return 1;
}

int pt_pattern_match(struct pt_pattern *pat, const char *s, size_t n, struct pt_diag *d)
{
	return pt_pattern_match_group(pat, s, n, 0, NULL, NULL, d);
}

unsigned pt_pattern_groups(const struct pt_pattern *pat)
{
	return pat->groups;
}

const char *pt_pattern_source(const struct pt_pattern *pat)
{
	return pat->src;
}

void pt_pattern_free(struct pt_pattern *pat)
{
	if (!pat)
		return;
	pcre2_match_context_free(pat->mctx);
	pcre2_match_data_free(pat->md);
	pcre2_code_free(pat->code);
	free(pat->src);
	free(pat);
}
