/* registry.c: the one list of formats, detection and lookup by name or suffix. */
#include "config.h"

#include <string.h>

#include "formats/format.h"

const struct pt_format *const pt_formats[] = {
	&pt_format_collapsed,
	&pt_format_perf,
	&pt_format_pprof,
	&pt_format_cpuprofile,
	&pt_format_heapprofile,
	&pt_format_heapsnapshot,
	&pt_format_stackprof,
	&pt_format_stackprof_json,
	&pt_format_callgrind,
	&pt_format_dot,
	&pt_format_speedscope,
	&pt_format_svg,
	&pt_format_html,
	&pt_format_goroutine,
	&pt_format_gotext,
	&pt_format_bpftrace,
	NULL,
};

const struct pt_format *pt_format_find(const char *name)
{
	size_t i;
	for (i = 0; pt_formats[i]; i++)
		if (!strcmp(pt_formats[i]->name, name))
			return pt_formats[i];
	return NULL;
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
