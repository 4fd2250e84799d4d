/* perf-maps.c: the memory maps of `perf script --show-mmap-events` and the mapping
 * of an unnamed frame's address (perf.h), for the symbolizer. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* the mapping of a file whose addresses are relative to it: the whole file at 0 (a
 * limit other than 0 and all ones, which say "addresses are the binary's own") */
#define FILE_LIMIT ((uint64_t)1 << 40)
/* the most maps of one file looked at for an address (newest first): a file mapped
 * by many processes costs no more */
#define MAX_PROBE 64

struct pt_perf_map {
	uint64_t start, len, pgoff;
	uint32_t file; /* id in files */
	uint32_t next; /* the file's older map, index + 1 (0: none) */
};

void pt_perf_maps_init(struct pt_perf_maps *m)
{
	memset(m, 0, sizeof(*m));
	pt_arena_init(&m->arena);
	pt_intern_init(&m->files, &m->arena);
}

void pt_perf_maps_release(struct pt_perf_maps *m)
{
	free(m->v);
	free(m->head);
	pt_intern_release(&m->files);
	pt_arena_release(&m->arena);
}

/* "0x" (optional) and at most 16 hex digits at s[*i]; 0 if there are none */
static int hex_at(const char *s, size_t n, size_t *i, uint64_t *v)
{
	size_t j = *i, k;

	if (n - j >= 2 && s[j] == '0' && (s[j + 1] == 'x' || s[j + 1] == 'X'))
		j += 2;
	for (k = j, *v = 0; k < n && pt_hex_digit(s[k]) >= 0; k++) {
		if (k - j == 16)
			return 0;
		*v = *v << 4 | (uint64_t)pt_hex_digit(s[k]);
	}
	if (k == j)
		return 0;
	*i = k;
	return 1;
}

/* s[*i..] starts with lit: 1 and *i past it */
static int lit_at(const char *s, size_t n, size_t *i, const char *lit)
{
	size_t l = strlen(lit);

	if (n - *i < l || memcmp(s + *i, lit, l))
		return 0;
	*i += l;
	return 1;
}

static const char *find(const char *s, size_t n, const char *needle)
{
	size_t l = strlen(needle), i;

	for (i = 0; i + l <= n; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, l))
			return s + i;
	return NULL;
}

void pt_perf_maps_line(struct pt_perf_maps *m, const char *s, size_t n)
{
	const char *at = find(s, n, "PERF_RECORD_MMAP"), *end, *prot;
	uint64_t start, len, pgoff;
	size_t i;
	uint32_t id;

	if (!at)
		return;
	i = (size_t)(at - s) + 16;
	/* " pid/tid: [0xSTART(0xLEN) @ 0xPGOFF" */
	at = find(s + i, n - i, " [");
	if (!at)
		return;
	i = (size_t)(at - s) + 2;
	if (!hex_at(s, n, &i, &start) || !lit_at(s, n, &i, "(") || !hex_at(s, n, &i, &len) ||
	    !lit_at(s, n, &i, ") @ ") || !hex_at(s, n, &i, &pgoff))
		return;
	/* "...]: PROT PATH": MMAP2's prot is "r-xp", MMAP's "x" for an executable map */
	end = find(s + i, n - i, "]: ");
	if (!end)
		return;
	prot = end + 3;
	i = (size_t)(prot - s);
	while (i < n && s[i] != ' ')
		i++;
	if (i >= n || !memchr(prot, 'x', (size_t)(s + i - prot)) || !len)
		return;
	i++;
	n = pt_trim_end(s, n);
	if (i >= n)
		return;
	id = pt_intern(&m->files, s + i, n - i);
	if (id >= m->head_alloc) {
		size_t old = m->head_alloc;
		PT_ALLOC_GROW(m->head, (size_t)id + 1, m->head_alloc);
		memset(m->head + old, 0, (m->head_alloc - old) * sizeof(*m->head));
	}
	PT_ALLOC_GROW(m->v, m->n + 1, m->alloc);
	m->v[m->n].start = start;
	m->v[m->n].len = len;
	m->v[m->n].pgoff = pgoff;
	m->v[m->n].file = id;
	m->v[m->n].next = m->head[id];
	m->head[id] = (uint32_t)++m->n;
}

uint32_t pt_perf_maps_mapping(struct pt_perf_maps *m, struct pt_profile *p, const char *dso,
			      size_t n, uint64_t addr)
{
	struct pt_mapping mp;
	uint32_t id = m->n ? pt_intern_find(&m->files, dso, n) : UINT32_MAX, k;
	int probes = 0;

	memset(&mp, 0, sizeof(mp));
	mp.file = pt_strn(p, dso, n);
	mp.limit = FILE_LIMIT;
	mp.flags = PT_MAPPING_EXPORTS_SEEN;
	for (k = id < m->head_alloc ? m->head[id] : 0; k && probes < MAX_PROBE;
	     k = m->v[k - 1].next, probes++) {
		const struct pt_perf_map *v = &m->v[k - 1];
		if (addr >= v->start && addr - v->start < v->len) {
			mp.start = v->start;
			mp.limit = v->start + v->len;
			mp.offset = v->pgoff;
			break;
		}
	}
	return pt_profile_mapping(p, &mp);
}
