/* pattern.c: regular expressions on PCRE2, with their compile and match cost bounded
 * (pattern.h says how). libpcre2-8 is opened when a first pattern is compiled
 * (util/dynlib.h): most runs take none. */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/dynlib.h"
#include "util/pattern.h"
#include "util/xalloc.h"

/* The PCRE2 calls we make, each as a member named after it: X(member, function). The
 * header's names are macros for the 8-bit library's (pcre2_compile_8), so the name
 * dlsym looks up is the expansion's, and each member takes the function's own type. */
#define PCRE2_CALLS(X)                                                                             \
	X(compile, pcre2_compile)                                                                  \
	X(pattern_info, pcre2_pattern_info)                                                        \
	X(code_free, pcre2_code_free)                                                              \
	X(get_error_message, pcre2_get_error_message)                                              \
	X(compile_context_create, pcre2_compile_context_create)                                    \
	X(set_max_pattern_length, pcre2_set_max_pattern_length)                                    \
	X(compile_context_free, pcre2_compile_context_free)                                        \
	X(match_data_create_from_pattern, pcre2_match_data_create_from_pattern)                    \
	X(match_context_create, pcre2_match_context_create)                                        \
	X(set_heap_limit, pcre2_set_heap_limit)                                                    \
	X(set_match_limit, pcre2_set_match_limit)                                                  \
	X(match, pcre2_match)                                                                      \
	X(get_ovector_pointer, pcre2_get_ovector_pointer)                                          \
	X(match_context_free, pcre2_match_context_free)                                            \
	X(match_data_free, pcre2_match_data_free)

struct pcre2_api {
	PCRE2_CALLS(PT_DYNLIB_MEMBER)
};

static const char *const pcre2_names[] = {PCRE2_CALLS(PT_DYNLIB_NAME)};

struct pt_pattern {
	void *lib; /* libpcre2-8, opened for this pattern */
	struct pcre2_api f;
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
static pcre2_code *compile_wrapped(const struct pcre2_api *f, const char *src, size_t len,
				   pcre2_compile_context *cctx, int *errcode)
{
	static const char head[] = "(?s:.*?)\\K(?:", *const tails[] = {"\\E)", "\\E\n)"};
	const uint32_t opts = PCRE2_ANCHORED | PCRE2_NO_AUTO_POSSESS | PCRE2_DOLLAR_ENDONLY |
			      PCRE2_NEVER_UTF | PCRE2_NEVER_UCP | PCRE2_NEVER_BACKSLASH_C;
	pcre2_code *code = NULL;
	char *w = pt_xmalloc(sizeof(head) + len + 8);
	PCRE2_SIZE off;
	size_t i;

	for (i = 0; i < 2 && !code; i++) {
		memcpy(w, head, sizeof(head) - 1);
		memcpy(w + sizeof(head) - 1, src, len);
		strcpy(w + sizeof(head) - 1 + len, tails[i]);
		code = f->compile((PCRE2_SPTR)w, strlen(w), opts, errcode, &off, cctx);
	}
	free(w);
	return code;
}

static void error_text(const struct pcre2_api *f, int code, char *buf, size_t len)
{
	if (f->get_error_message(code, (PCRE2_UCHAR *)buf, len) == PCRE2_ERROR_BADDATA)
		snprintf(buf, len, "PCRE2 error %d", code);
}

/* Compile src alone first: its errors and offsets are the user's, and it says whether
 * there are backreferences, how many groups, which code units a match needs. NULL
 * with err filled. */
static pcre2_code *check_plain(const struct pcre2_api *f, const char *src, size_t len,
			       pcre2_compile_context *cctx, char *err, size_t errlen)
{
	int code;
	PCRE2_SIZE off;
	uint32_t backrefs = 0;
	pcre2_code *plain = f->compile((PCRE2_SPTR)src, len,
				       PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_UTF | PCRE2_NEVER_UCP |
					       PCRE2_NEVER_BACKSLASH_C,
				       &code, &off, cctx);
	if (!plain) {
		char msg[256];
		error_text(f, code, msg, sizeof(msg));
		snprintf(err, errlen, "%s at offset %zu", msg, (size_t)off);
		return NULL;
	}
	f->pattern_info(plain, PCRE2_INFO_BACKREFMAX, &backrefs);
	if (backrefs) {
		f->code_free(plain);
		snprintf(err, errlen, "backreferences are not supported");
		return NULL;
	}
	return plain;
}

/* Open libpcre2-8 for pat and fill its table of calls. Without the library no pattern
 * works, whichever option gave it: a library that cannot be loaded ends the run. */
static void load_api(struct pt_pattern *pat)
{
	struct pcre2_api *api = &pat->f;
	void *fns[sizeof(pcre2_names) / sizeof(pcre2_names[0])];
	char err[256];
	size_t i = 0;

	pat->lib = pt_dynlib_open(PT_PCRE2_SONAME, "libpcre2-8-0", pcre2_names, fns,
				  sizeof(fns) / sizeof(fns[0]), err, sizeof(err));
	if (!pat->lib)
		pt_die("%s", err);
	PCRE2_CALLS(PT_DYNLIB_SET)
}

struct pt_pattern *pt_pattern_compile(const char *src, char *err, size_t errlen)
{
	size_t len = strlen(src);
	const struct pcre2_api *f;
	pcre2_compile_context *cctx;
	pcre2_code *plain, *code = NULL;
	struct pt_pattern *pat;
	uint32_t groups = 0, type, unit;
	int ecode;

	if (len > PT_PATTERN_MAX_LEN) {
		snprintf(err, errlen, "longer than %d bytes", PT_PATTERN_MAX_LEN);
		return NULL;
	}
	pat = pt_xcalloc(1, sizeof(*pat));
	load_api(pat);
	f = &pat->f;
	pat->need[0] = pat->need[1] = -1;
	cctx = f->compile_context_create(NULL);
	if (!cctx)
		pt_die("out of memory compiling a pattern");
	f->set_max_pattern_length(cctx, PT_PATTERN_MAX_LEN + 64);
	plain = check_plain(f, src, len, cctx, err, errlen);
	if (plain) {
		f->pattern_info(plain, PCRE2_INFO_CAPTURECOUNT, &groups);
		if (!f->pattern_info(plain, PCRE2_INFO_FIRSTCODETYPE, &type) && type == 1 &&
		    !f->pattern_info(plain, PCRE2_INFO_FIRSTCODEUNIT, &unit))
			pat->need[0] = (int)unit;
		if (!f->pattern_info(plain, PCRE2_INFO_LASTCODETYPE, &type) && type == 1 &&
		    !f->pattern_info(plain, PCRE2_INFO_LASTCODEUNIT, &unit))
			pat->need[1] = (int)unit;
		f->code_free(plain);
		if (!(code = compile_wrapped(f, src, len, cctx, &ecode))) {
			char msg[256];
			error_text(f, ecode, msg, sizeof(msg));
			snprintf(err, errlen, "%s", msg);
		}
	}
	f->compile_context_free(cctx);
	if (!code) {
		pt_pattern_free(pat);
		return NULL;
	}

	pat->src = pt_xmalloc(len + 1);
	memcpy(pat->src, src, len + 1);
	pat->srclen = len;
	pat->code = code;
	pat->groups = groups;
	pat->steps_per_byte =
		PT_PATTERN_STEPS_BYTE +
		(len < PT_PATTERN_STEPS_LEN_CAP ? (uint32_t)len : PT_PATTERN_STEPS_LEN_CAP);
	pat->md = f->match_data_create_from_pattern(code, NULL);
	pat->mctx = f->match_context_create(NULL);
	if (!pat->md || !pat->mctx)
		pt_die("out of memory compiling a pattern");
	f->set_heap_limit(pat->mctx, PT_PATTERN_HEAP_KIB);
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
		error_text(&pat->f, rc, why, sizeof(why));
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

int pt_pattern_match_group(struct pt_pattern *pat, const char *s, size_t n, unsigned g, size_t *so,
			   size_t *eo, struct pt_diag *d)
{
	uint64_t want = PT_PATTERN_STEPS_BASE + ((uint64_t)n + 1) * pat->steps_per_byte;
	uint32_t steps = want > UINT32_MAX ? UINT32_MAX : (uint32_t)want;
	PCRE2_SIZE *ov;
	int rc;

	if (!has_unit(s, n, pat->need[0]) || !has_unit(s, n, pat->need[1]))
		return 0;
	pat->f.set_match_limit(pat->mctx, steps);
	rc = pat->f.match(pat->code, (PCRE2_SPTR)(n ? s : ""), n, 0, 0, pat->md, pat->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0)
		return too_costly(pat, rc, steps, n, d);
	if (so && eo) {
		ov = pat->f.get_ovector_pointer(pat->md);
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
	if (pat->lib) {
		pat->f.match_context_free(pat->mctx);
		pat->f.match_data_free(pat->md);
		pat->f.code_free(pat->code);
	}
	pt_dynlib_close(pat->lib);
	free(pat->src);
	free(pat);
}
