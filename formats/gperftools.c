/* gperftools.c: what the gperftools readers share: the memory map at the end of both
 * formats, and the frames made of the addresses once it is read (pprof's
 * massageMappings and remapMappingIDs, in logarithmic time per address). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gperftools.h"
#include "util/buf.h"
#include "util/map.h"
#include "util/sort.h"
#include "util/text.h"
#include "util/xalloc.h"

void pt_gperf_init(struct pt_gperf *g)
{
	memset(g, 0, sizeof(*g));
}

void pt_gperf_release(struct pt_gperf *g)
{
	free(g->addrs);
	free(g->s);
	free(g->maps);
	memset(g, 0, sizeof(*g));
}

uint64_t *pt_gperf_addrs(struct pt_gperf *g, size_t n)
{
	/* a sample of no frames takes no room (and no pointer arithmetic on NULL: UBSan,
	 * found by fuzz-gperftools-cpu) */
	if (!n)
		return g->addrs;
	PT_ALLOC_GROW(g->addrs, g->naddrs + n, g->addrs_alloc);
	g->naddrs += n;
	return g->addrs + g->naddrs - n;
}

/* s[0, n) as a hex number (an optional 0x first); 0, or -1 if it is none or too long */
static int hex_token(const char *s, size_t n, int allow_0x, uint64_t *v)
{
	size_t i = 0;

	if (allow_0x && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (i == n)
		return -1;
	for (*v = 0; i < n; i++) {
		int h = pt_hex_digit((unsigned char)s[i]);
		if (h < 0 || *v >> 60)
			return -1;
		*v = *v << 4 | (uint64_t)h;
	}
	return 0;
}

/* the longest hex number (optional 0x) at s[*i]: its end in *i */
static int hex_at(const char *s, size_t n, size_t *i, uint64_t *v)
{
	size_t j = *i;

	if (j + 2 < n && s[j] == '0' && (s[j + 1] == 'x' || s[j + 1] == 'X') &&
	    pt_hex_digit((unsigned char)s[j + 2]) >= 0)
		j += 2;
	while (j < n && pt_hex_digit((unsigned char)s[j]) >= 0)
		j++;
	if (hex_token(s + *i, j - *i, 1, v) < 0)
		return -1;
	*i = j;
	return 0;
}

static int all_of(const char *s, size_t n, const char *set)
{
	size_t i;
	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr(set, s[i]))
			return 0;
	return 1;
}

struct tok {
	const char *s;
	size_t n;
};

#define MAX_TOK 8

static size_t split(const char *s, size_t n, struct tok *t)
{
	size_t i = 0, k = 0;

	while (k < MAX_TOK) {
		while (i < n && pt_is_blank(s[i]))
			i++;
		if (i == n)
			break;
		t[k].s = s + i;
		while (i < n && !pt_is_blank(s[i]))
			i++;
		t[k].n = (size_t)(s + i - t[k].s);
		k++;
	}
	return k;
}

/* "DEV INODE": hex:hex and decimal */
static int is_dev_inode(const struct tok *t)
{
	const char *colon = memchr(t[0].s, ':', t[0].n);
	uint64_t v;

	return colon && hex_token(t[0].s, (size_t)(colon - t[0].s), 0, &v) == 0 &&
	       hex_token(colon + 1, (size_t)(t[0].s + t[0].n - colon - 1), 0, &v) == 0 &&
	       all_of(t[1].s, t[1].n, "0123456789");
}

void pt_gperf_map_line(struct pt_gperf *g, struct pt_profile *p, const char *s, size_t n)
{
	struct pt_gperf_map m;
	struct tok t[MAX_TOK], perm = {"", 0}, file = {"", 0}, build = {"", 0};
	size_t i = 0, k, nt;
	uint64_t v;

	memset(&m, 0, sizeof(m));
	while (i < n && pt_is_blank(s[i]))
		i++;
	if (hex_at(s, n, &i, &m.start) < 0)
		return;
	if (i < n && (s[i] == '-' || pt_is_blank(s[i])))
		i++;
	while (i < n && pt_is_blank(s[i]))
		i++;
	if (hex_at(s, n, &i, &m.limit) < 0)
		return;
	if (i < n && s[i] == ':')
		i++;
	if (i < n && !pt_is_blank(s[i]))
		return;
	nt = split(s + i, n - i, t);
	k = 0;
	if (k < nt && all_of(t[k].s, t[k].n, "-rwxp"))
		perm = t[k++];
	if (k + 2 < nt && hex_token(t[k].s, t[k].n, 0, &v) == 0 && is_dev_inode(&t[k + 1])) {
		/* /proc/self/maps: OFFSET DEV INODE [PATH] */
		m.offset = v;
		if (k + 3 < nt)
			file = t[k + 3];
	} else if (k + 1 < nt && is_dev_inode(&t[k])) {
		if (k + 2 < nt)
			file = t[k + 2];
	} else {
		/* pprof's brief form: [PATH] [(@OFFSET)] [BUILDID] */
		if (k < nt && !(t[k].n > 3 && t[k].s[0] == '(' && t[k].s[1] == '@'))
			file = t[k++];
		if (k < nt && t[k].n > 3 && t[k].s[0] == '(' && t[k].s[1] == '@' &&
		    t[k].s[t[k].n - 1] == ')') {
			if (hex_token(t[k].s + 2, t[k].n - 3, 0, &m.offset) < 0)
				return;
			k++;
		}
		if (k < nt && hex_token(t[k].s, t[k].n, 0, &v) == 0)
			build = t[k];
	}
	if (perm.n && !memchr(perm.s, 'x', perm.n))
		return;
	m.file = pt_strn(p, file.s, file.n);
	m.build_id = pt_strn(p, build.s, build.n);
	PT_ALLOC_GROW(g->maps, g->nmaps + 1, g->maps_alloc);
	g->maps[g->nmaps++] = m;
}

/* pprof's adjacent(): the same file and build id where both say, touching, and offsets
 * that follow on where both have one */
static int adjacent(const struct pt_gperf_map *a, const struct pt_gperf_map *b)
{
	if (a->file && b->file && a->file != b->file)
		return 0;
	if (a->build_id && b->build_id && a->build_id != b->build_id)
		return 0;
	if (a->limit != b->start)
		return 0;
	return !a->offset || !b->offset || a->offset + (a->limit - a->start) == b->offset;
}

/* a shared library by pprof's libRx: ".so" at the end or ".so." / ".so_" and a digit */
static int is_lib(const char *f)
{
	const char *s = f;

	while ((s = strstr(s, ".so"))) {
		if (!s[3] || ((s[3] == '.' || s[3] == '_') && s[4] >= '0' && s[4] <= '9'))
			return 1;
		s += 3;
	}
	return 0;
}

/* "(deleted)" out and blanks trimmed: whether a main binary's name is left */
static int is_main(const struct pt_profile *p, uint32_t file)
{
	const char *f = pt_s(p, file);
	struct pt_buf b = PT_BUF_INIT;
	const char *d;
	size_t i = 0, n;
	int ret;

	while ((d = strstr(f + i, "(deleted)"))) {
		pt_buf_add(&b, f + i, (size_t)(d - f) - i);
		i = (size_t)(d - f) + 9;
	}
	pt_buf_add(&b, f + i, strlen(f + i));
	for (i = 0; i < b.len && pt_is_blank(b.buf[i]); i++)
		;
	n = pt_trim_end(b.buf + i, b.len - i);
	ret = n && !is_lib(b.buf + i) && b.buf[i] != '[';
	pt_buf_release(&b);
	return ret;
}

/* pprof's massageMappings: adjacent pieces of one mapping merged, the main binary's
 * moved first; then remapMappingIDs' repairs of the first mapping */
static void massage(struct pt_gperf *g, struct pt_profile *p)
{
	size_t i, k = 0;

	for (i = 0; i < g->nmaps; i++) {
		struct pt_gperf_map *m = &g->maps[i];
		if (k && adjacent(&g->maps[k - 1], m)) {
			struct pt_gperf_map *lm = &g->maps[k - 1];
			lm->limit = m->limit;
			if (m->file)
				lm->file = m->file;
			if (m->build_id)
				lm->build_id = m->build_id;
			continue;
		}
		g->maps[k++] = *m;
	}
	g->nmaps = k;
	for (i = 0; i < g->nmaps; i++) {
		if (is_main(p, g->maps[i].file)) {
			struct pt_gperf_map t = g->maps[0];
			g->maps[0] = g->maps[i];
			g->maps[i] = t;
			break;
		}
	}
	if (g->nmaps > 1 && !strncmp(pt_s(p, g->maps[0].file), "/anon_hugepage", 14) &&
	    g->maps[0].limit == g->maps[1].start) {
		memmove(g->maps, g->maps + 1, (g->nmaps - 1) * sizeof(*g->maps));
		g->nmaps--;
	}
	if (g->nmaps && g->maps[0].start - g->maps[0].offset == 0x400000) {
		g->maps[0].start = 0x400000;
		g->maps[0].offset = 0;
	}
}

/* the mappings sorted by a key (start, or start - offset for the split ones) */
struct index {
	struct pt_keyed *v;
	size_t n;
};

static void index_build(struct index *x, const struct pt_gperf *g, int low)
{
	struct pt_keyed *tmp = pt_xreallocarray(NULL, g->nmaps + 1, sizeof(*tmp));
	size_t i;

	x->v = pt_xreallocarray(NULL, g->nmaps + 1, sizeof(*x->v));
	x->n = 0;
	for (i = 0; i < g->nmaps; i++) {
		const struct pt_gperf_map *m = &g->maps[i];
		if (low && (!m->offset || m->offset > m->start))
			continue;
		x->v[x->n].key = low ? m->start - m->offset : m->start;
		x->v[x->n].x = m->start;
		x->v[x->n].a = (uint32_t)i;
		x->v[x->n].b = 0;
		x->n++;
	}
	if (pt_sort_keyed(x->v, tmp, x->n, 64) == tmp) {
		free(x->v);
		x->v = tmp;
	} else {
		free(tmp);
	}
}

/* the last entry whose key is at most a; -1 if none */
static long index_find(const struct index *x, uint64_t a)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->v[mid].key <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/* The mapping of address a (index + 1), 0 if none. pprof: the mapping holding it;
 * else a mapping with an offset whose first part [start - offset, start) its producer
 * left out holds it, and is grown down to cover it. Overlapping mappings (never in a
 * real map): the one starting nearest below a. */
static uint32_t place(struct pt_gperf *g, const struct index *by_start, const struct index *by_low,
		      uint64_t a)
{
	long i;

	if (!a)
		return 0;
	i = index_find(by_start, a);
	if (i >= 0 && a < g->maps[by_start->v[i].a].limit)
		return by_start->v[i].a + 1;
	i = index_find(by_low, a);
	if (i >= 0 && a < by_low->v[i].x) {
		struct pt_gperf_map *m = &g->maps[by_low->v[i].a];
		m->start = by_low->v[i].key;
		m->offset = 0;
		return by_low->v[i].a + 1;
	}
	return 0;
}

/* the model frame of an address in mapping mi (0: none), named by the address */
static uint32_t addr_frame(struct pt_profile *p, uint64_t a, uint32_t mapping)
{
	struct pt_frame f;
	char name[32];

	memset(&f, 0, sizeof(f));
	snprintf(name, sizeof(name), "0x%" PRIx64, a);
	f.mapping = mapping;
	f.func = pt_profile_func(p, pt_str(p, name), 0, mapping ? p->mappings[mapping].file : 0, 0);
	f.addr = a;
	f.flags = PT_FRAME_NO_SYMBOL;
	return pt_profile_frame(p, &f);
}

void pt_gperf_emit(struct pt_gperf *g, struct pt_profile *p, struct pt_sink *sink)
{
	struct index by_start, by_low;
	struct pt_map seen;
	uint64_t *uaddr = NULL;
	uint32_t *where = NULL, *model = NULL, *frames = NULL, bytes_key = pt_str(p, "bytes");
	uint32_t fake = 0;
	size_t nu = 0, ualloc = 0, i, j, nframes = 0, frames_alloc = 0;

	massage(g, p);
	index_build(&by_start, g, 0);
	index_build(&by_low, g, 1);
	pt_map_init(&seen);
	/* every address once, in order of first use, placed in its mapping */
	for (i = 0; i < g->naddrs; i++) {
		uint32_t *slot = pt_map_put(&seen, g->addrs[i]);
		if (*slot != PT_MAP_NEW)
			continue;
		*slot = (uint32_t)nu;
		PT_ALLOC_GROW(uaddr, nu + 1, ualloc);
		where = pt_xreallocarray(where, ualloc, sizeof(*where));
		uaddr[nu] = g->addrs[i];
		where[nu++] = place(g, &by_start, &by_low, g->addrs[i]);
	}
	/* the mappings as they ended (split ones grown), then a frame per address */
	model = pt_xreallocarray(NULL, g->nmaps + 1, sizeof(*model));
	model[0] = 0;
	for (i = 0; i < g->nmaps; i++) {
		struct pt_mapping m;
		memset(&m, 0, sizeof(m));
		m.start = g->maps[i].start;
		m.limit = g->maps[i].limit;
		m.offset = g->maps[i].offset;
		m.file = g->maps[i].file;
		m.build_id = g->maps[i].build_id;
		model[i + 1] = pt_profile_mapping(p, &m);
	}
	for (i = 0; i < nu; i++) {
		uint32_t mi = model[where[i]];
		/* pprof's fake mapping, the whole address space, for addresses outside any */
		if (!where[i] && uaddr[i]) {
			if (!fake) {
				struct pt_mapping m;
				memset(&m, 0, sizeof(m));
				m.limit = UINT64_MAX;
				fake = pt_profile_mapping(p, &m);
			}
			mi = fake;
		}
		where[i] = addr_frame(p, uaddr[i], mi);
	}
	pt_sink_frames_complete(sink, p);
	for (i = 0; i < g->ns; i++) {
		const struct pt_gperf_sample *s = &g->s[i];
		struct pt_label l;
		uint32_t labels = 0;

		PT_ALLOC_GROW(frames, s->n + 1, frames_alloc);
		for (j = 0, nframes = 0; j < s->n; j++)
			frames[nframes++] = where[pt_map_get(&seen, g->addrs[s->first + j])];
		if (s->has_bytes) {
			memset(&l, 0, sizeof(l));
			l.key = bytes_key;
			l.num = s->bytes;
			labels = pt_profile_labelset(p, &l, 1);
		}
		pt_sink_sample(sink, p, frames, nframes, 1, labels, s->v, 0);
	}
	pt_map_release(&seen);
	free(by_start.v);
	free(by_low.v);
	free(uaddr);
	free(where);
	free(model);
	free(frames);
}
