/* gperftools-cpu.c: gperftools' legacy CPU profile (CPUPROFILE=): a header of machine
 * words (0, 3, 0, period in microseconds, 0), samples (count, depth, addresses), the
 * trailer (0, 1, 0), then the process's /proc/self/maps text. Read as pprof reads it:
 * see formats/gperftools.md. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/gperftools.h"
#include "util/map.h"
#include "util/xalloc.h"

/* the word layout the header was found in */
struct words {
	const unsigned char *b;
	size_t len;
	unsigned size; /* 4 or 8 */
	int big;       /* big-endian */
};

static uint64_t word(const struct words *w, size_t off)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < w->size; i++) {
		unsigned k = w->big ? i : w->size - 1 - i;
		v = v << 8 | w->b[off + k];
	}
	return v;
}

/* 1: a C++ profile's header, 2: a Java one's, 0: neither, in the layout set in w */
static int header_in(struct words *w, uint64_t *period)
{
	static const struct {
		unsigned size;
		int big;
	} layouts[] = {{4, 0}, {4, 1}, {8, 0}, {8, 1}};
	size_t i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		w->size = layouts[i].size;
		w->big = layouts[i].big;
		if (w->len < 5 * (size_t)w->size)
			continue;
		if (word(w, 0) || word(w, w->size) != 3 || word(w, 3 * (size_t)w->size) == 0 ||
		    word(w, 4 * (size_t)w->size) || word(w, 2 * (size_t)w->size) > 1)
			continue;
		*period = word(w, 3 * (size_t)w->size);
		return word(w, 2 * (size_t)w->size) == 0 ? 1 : 2;
	}
	return 0;
}

/* the start of a header cut short: the words 0 and 3 and no more than 5 words in all */
static int header_cut(struct words *w)
{
	static const unsigned sizes[] = {4, 8};
	size_t i;

	for (i = 0; i < 4; i++) {
		w->size = sizes[i / 2];
		w->big = (int)(i % 2);
		if (w->len >= 2 * (size_t)w->size && w->len < 5 * (size_t)w->size && !word(w, 0) &&
		    word(w, w->size) == 3)
			return 1;
	}
	return 0;
}

static int gperf_cpu_detect(const unsigned char *head, size_t len)
{
	struct words w = {head, len, 4, 0};
	uint64_t period;

	if (header_in(&w, &period))
		return 100;
	return header_cut(&w) ? 60 : 0;
}

/* take address 1 out of sample s (the signal handler's frame, or a duplicated leaf) */
static void drop_second(struct pt_gperf *g, struct pt_gperf_sample *s)
{
	memmove(&g->addrs[s->first + 1], &g->addrs[s->first + 2], (s->n - 2) * sizeof(*g->addrs));
	s->n--;
}

/* pprof: when (nearly) every sample has the same second address, it is a frame the
 * signal handler pushed, not the program's: taken out, twice at most. Then a leaf
 * found twice (from the signal context and from unwinding, the second moved onto the
 * call by -1) is kept once. */
static void strip_artifacts(struct pt_gperf *g)
{
	struct pt_map count;
	uint64_t *addr = NULL;
	uint32_t *n = NULL;
	size_t nd, alloc = 0, i, margin = g->ns / 32;
	int iter;

	for (iter = 0; iter < 2; iter++) {
		pt_map_init(&count);
		nd = 0;
		for (i = 0; i < g->ns; i++) {
			uint32_t *slot;
			if (g->s[i].n < 2)
				continue;
			slot = pt_map_put(&count, g->addrs[g->s[i].first + 1]);
			if (*slot == PT_MAP_NEW) {
				PT_ALLOC_GROW(addr, nd + 1, alloc);
				n = pt_xreallocarray(n, alloc, sizeof(*n));
				addr[nd] = g->addrs[g->s[i].first + 1];
				n[nd] = 0;
				*slot = (uint32_t)nd++;
			}
			n[*slot]++;
		}
		pt_map_release(&count);
		for (i = 0; i < nd; i++)
			if (n[i] + margin >= g->ns)
				break;
		if (i < nd) {
			uint64_t a = addr[i];
			size_t k;
			for (k = 0; k < g->ns; k++)
				if (g->s[k].n > 1 && g->addrs[g->s[k].first + 1] == a)
					drop_second(g, &g->s[k]);
		}
	}
	free(addr);
	free(n);
	for (i = 0; i < g->ns; i++) {
		struct pt_gperf_sample *s = &g->s[i];
		if (s->n > 1 && g->addrs[s->first] == g->addrs[s->first + 1] + 1)
			drop_second(g, s);
	}
}

/* the samples from byte `pos` up to the trailer; *end is where the map text starts */
static int read_samples(struct pt_gperf *g, const struct words *w, size_t pos, int64_t period,
			const struct pt_read_opts *o, struct pt_diag *d, size_t *end)
{
	size_t sz = w->size;

	while (pos < w->len) {
		uint64_t count, depth, j, *a;
		struct pt_gperf_sample *s;

		if (w->len - pos < 2 * sz)
			return pt_diag_error_at(d, pos,
						"the input ends inside a sample's count and depth");
		count = word(w, pos);
		depth = word(w, pos + sz);
		if (depth > (w->len - pos - 2 * sz) / sz)
			return pt_diag_error_at(d, pos,
						"a stack of %" PRIu64
						" addresses does not fit in the "
						"%zu bytes left",
						depth, w->len - pos - 2 * sz);
		if (count == 0 && depth == 1 && word(w, pos + 2 * sz) == 0) {
			*end = pos + 3 * sz;
			return 0;
		}
		if (count > (uint64_t)INT64_MAX / (uint64_t)period)
			return pt_diag_error_at(d, pos,
						"sample count %" PRIu64
						" times the period does not "
						"fit in 64 bits",
						count);
		PT_ALLOC_GROW(g->s, g->ns + 1, g->s_alloc);
		s = &g->s[g->ns++];
		memset(s, 0, sizeof(*s));
		s->first = g->naddrs;
		s->n = (size_t)depth;
		s->v[0] = (int64_t)count;
		s->v[1] = (int64_t)count * period;
		a = pt_gperf_addrs(g, (size_t)depth);
		/* return addresses moved onto their call; the leaf is where the signal hit */
		for (j = 0; j < depth; j++)
			a[j] = word(w, pos + (2 + j) * sz) - (j > 0);
		pos += (2 + (size_t)depth) * sz;
	}
	*end = w->len;
	if (!o->lenient)
		return pt_diag_error_at(d, w->len,
					"the input ends before the end-of-data trailer (0, 1, 0): "
					"cut short");
	pt_diag_warn_at(d, w->len, "the input ends before the end-of-data trailer: cut short");
	return 0;
}

static void read_maps(struct pt_gperf *g, struct pt_profile *p, const unsigned char *b, size_t len)
{
	const char *s = (const char *)b, *end = s + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		pt_gperf_map_line(g, p, s, n);
		s += n + (nl != NULL);
	}
}

static int gperf_cpu_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			  struct pt_diag *d)
{
	struct pt_gperf g;
	struct words w;
	unsigned char *data = NULL;
	size_t len = 0, end = 0;
	uint64_t period_us = 0;
	int kind, ret = -1;

	pt_gperf_init(&g);
	p->format = "gperftools-cpu";
	if (pt_input_slurp(in, &data, &len) < 0)
		goto out;
	w.b = data;
	w.len = len;
	kind = header_in(&w, &period_us);
	if (!kind && header_cut(&w)) {
		pt_diag_error_at(d, len, "the input ends inside the header of five %u-bit words",
				 w.size * 8);
		goto out;
	}
	if (!kind) {
		pt_diag_error_at(d, 0,
				 "not a gperftools CPU profile: the header is not the words 0, 3, "
				 "0, PERIOD, 0 (32 or 64 bits, either byte order)");
		goto out;
	}
	if (kind == 2) {
		pt_diag_error_at(d, 2 * (uint64_t)w.size,
				 "a Java CPU profile (header word 2 is 1): not read");
		goto out;
	}
	if (period_us > (uint64_t)INT64_MAX / 1000) {
		pt_diag_error_at(d, 3 * (uint64_t)w.size,
				 "sampling period of %" PRIu64 " microseconds does not fit in 64 "
				 "bits of nanoseconds",
				 period_us);
		goto out;
	}
	pt_profile_add_type(p, "samples", "count");
	pt_profile_add_type(p, "cpu", "nanoseconds");
	p->default_type = 1;
	p->period_type.name = pt_str(p, "cpu");
	p->period_type.unit = pt_str(p, "nanoseconds");
	p->period = (int64_t)period_us * 1000;
	if (read_samples(&g, &w, 5 * (size_t)w.size, p->period, o, d, &end) < 0)
		goto out;
	strip_artifacts(&g);
	read_maps(&g, p, data + end, len - end);
	pt_gperf_emit(&g, p, o->sink);
	ret = 0;
out:
	free(data);
	pt_gperf_release(&g);
	return ret;
}

static const char *const gperf_cpu_suffixes[] = {NULL};

const struct pt_format pt_format_gperftools_cpu = {
	.name = "gperftools-cpu",
	.description = "gperftools' legacy CPU profile (CPUPROFILE=): binary samples and the "
		       "memory map",
	.suffixes = gperf_cpu_suffixes,
	.detect = gperf_cpu_detect,
	.read = gperf_cpu_read,
	.addresses = 1,
	.write = NULL,
};
