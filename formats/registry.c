/* registry.c: the one list of formats, detection and lookup by name or suffix. */
#include "config.h"

#include <string.h>

#include "formats/format.h"

/* The one list of rows, in `proftool formats` order; each row is defined in its
 * formats/<name>.c as pt_format_<name> and is named nowhere else. */
#define PT_FORMAT_ROWS(X)                                                                          \
	X(collapsed)                                                                               \
	X(perf)                                                                                    \
	X(pprof)                                                                                   \
	X(cpuprofile)                                                                              \
	X(heapprofile)                                                                             \
	X(heapsnapshot)                                                                            \
	X(stackprof)                                                                               \
	X(stackprof_json)                                                                          \
	X(callgrind)                                                                               \
	X(dot)                                                                                     \
	X(speedscope)                                                                              \
	X(svg)                                                                                     \
	X(html)                                                                                    \
	X(goroutine)                                                                               \
	X(gotext)                                                                                  \
	X(gotrace)                                                                                 \
	X(gecko)                                                                                   \
	X(traceevents)                                                                             \
	X(rubyheap)                                                                                \
	X(bpftrace)                                                                                \
	X(gperftools_cpu)                                                                          \
	X(gperftools_heap)                                                                         \
	/* the end of the rows */

#define DECLARE_ROW(name) extern const struct pt_format pt_format_##name;
#define LIST_ROW(name)	  &pt_format_##name,
PT_FORMAT_ROWS(DECLARE_ROW)

const struct pt_format *const pt_formats[] = {PT_FORMAT_ROWS(LIST_ROW) NULL};

const struct pt_format *pt_format_find(const char *name)
{
	size_t i;
	for (i = 0; pt_formats[i]; i++)
		if (!strcmp(pt_formats[i]->name, name))
			return pt_formats[i];
	return NULL;
}

unsigned pt_format_yields(const struct pt_format *f)
{
	return (f->read ? PT_YIELD_PROFILE : 0) | (f->read_heap ? PT_YIELD_HEAP_GRAPH : 0);
}

const struct pt_format *pt_format_detect_yield(const unsigned char *head, size_t len, unsigned need)
{
	const struct pt_format *best = NULL, *first = NULL;
	int best_score = 0;
	size_t i;

	for (i = 0; pt_formats[i]; i++) {
		int s;
		if (!(pt_format_yields(pt_formats[i]) & need))
			continue;
		if (!first)
			first = pt_formats[i];
		s = pt_formats[i]->detect ? pt_formats[i]->detect(head, len) : 0;
		if (s > best_score) {
			best_score = s;
			best = pt_formats[i];
		}
	}
	return best ? best : first;
}

const struct pt_format *pt_format_detect(const unsigned char *head, size_t len)
{
	const struct pt_format *best = NULL;
	int best_score = 0;
	size_t i;

	for (i = 0; pt_formats[i]; i++) {
		int s;
		if (!pt_formats[i]->detect || !pt_formats[i]->read)
			continue;
		s = pt_formats[i]->detect(head, len);
		if (s > best_score) {
			best_score = s;
			best = pt_formats[i];
		}
	}
	return best;
}

static int suffix_matches(const char *path, const char *suffix)
{
	size_t pl = strlen(path), sl = strlen(suffix);
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (sl && suffix[sl - 1] == '*')
		return !strncmp(base, suffix, sl - 1);
	return pl >= sl && !strcmp(path + pl - sl, suffix);
}

const struct pt_format *pt_format_for_path(const char *path)
{
	const struct pt_format *best = NULL;
	size_t best_len = 0, i, j;

	for (i = 0; pt_formats[i]; i++) {
		if (!pt_formats[i]->write || !pt_formats[i]->suffixes)
			continue;
		for (j = 0; pt_formats[i]->suffixes[j]; j++) {
			const char *s = pt_formats[i]->suffixes[j];
			if (suffix_matches(path, s) && strlen(s) > best_len) {
				best = pt_formats[i];
				best_len = strlen(s);
			}
		}
	}
	return best;
}

/* the reader whose suffix is the longest that the name (without a .gz, .xz or .zst)
 * ends with, if no other reader's is as long */
const struct pt_format *pt_format_reader_for_path(const char *path)
{
	static const char *const packed[] = {".gz", ".xz", ".zst"};
	const struct pt_format *best = NULL;
	size_t best_len = 0, i, j, k, n = strlen(path);
	char name[256];
	int tie = 0;

	for (k = 0; k <= sizeof(packed) / sizeof(packed[0]); k++) {
		size_t cut = k ? strlen(packed[k - 1]) : 0;
		if (best || n < cut || n - cut >= sizeof(name) ||
		    strcmp(path + n - cut, k ? packed[k - 1] : ""))
			continue;
		memcpy(name, path, n - cut);
		name[n - cut] = '\0';
		for (i = 0; pt_formats[i]; i++) {
			if (!pt_formats[i]->read || !pt_formats[i]->suffixes)
				continue;
			for (j = 0; pt_formats[i]->suffixes[j]; j++) {
				const char *s = pt_formats[i]->suffixes[j];
				if (!suffix_matches(name, s) || strlen(s) < best_len)
					continue;
				tie = strlen(s) == best_len && best != pt_formats[i];
				best = pt_formats[i];
				best_len = strlen(s);
			}
		}
	}
	return tie ? NULL : best;
}
