/* gperftools-heap.c: gperftools' legacy heap profiles in text: HEAPPROFILE= dumps
 * ("@ heapprofile"), tcmalloc's heap sample ("@ heap_v2/RATE") and growth stacks
 * ("@ growth"): a header, "INUSE: BYTES [ALLOC: BYTES] @ ADDR ..." lines, then
 * MAPPED_LIBRARIES: and /proc/self/maps text. Read as pprof reads them: see
 * formats/gperftools.md. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/gperftools.h"
#include "util/libm.h"
#include "util/text.h"
#include "util/xalloc.h"

struct reader {
	struct pt_profile *p;
	struct pt_diag *d;
	struct pt_gperf g;
	int v2;	       /* heap_v2: values unsampled by the rate */
	int has_alloc; /* four types, alloc before inuse */
	int64_t rate;
	struct pt_libm lm; /* exp, opened when values are unsampled (util/libm.h) */
};

static int starts(const char *s, size_t n, const char *pre)
{
	size_t k = strlen(pre);
	return n >= k && !memcmp(s, pre, k);
}

static void blanks(const char *s, size_t n, size_t *i)
{
	while (*i < n && pt_is_blank(s[*i]))
		(*i)++;
}

/* a decimal at s[*i] (a '-' first if neg_ok), its digits in *ds, *dn; 0, -1 if none,
 * -2 if it does not fit in 64 bits */
static int num(const char *s, size_t n, size_t *i, int neg_ok, int64_t *v, const char **ds,
	       size_t *dn)
{
	size_t j = *i, k;
	uint64_t acc = 0;
	int neg = 0;

	if (neg_ok && j < n && s[j] == '-') {
		neg = 1;
		j++;
	}
	if (j == n || s[j] < '0' || s[j] > '9')
		return -1;
	*ds = s + *i;
	for (k = j; k < n && s[k] >= '0' && s[k] <= '9'; k++)
		;
	*dn = (size_t)(s + k - *ds);
	for (; j < k; j++) {
		if (acc > ((uint64_t)INT64_MAX - 9) / 10)
			return -2;
		acc = acc * 10 + (uint64_t)(s[j] - '0');
	}
	*v = neg ? -(int64_t)acc : (int64_t)acc;
	*i = j;
	return 0;
}

/* "A: B [C: D]" at s[*i], as four numbers (the first two may be negative in samples) */
static int four(struct reader *r, const char *s, size_t n, size_t *i, int neg_ok, int64_t v[4],
		const char *ds[4], size_t dn[4], uint64_t lineno)
{
	static const char after[4] = {':', '[', ':', ']'};
	int k;

	for (k = 0; k < 4; k++) {
		int rc;
		blanks(s, n, i);
		rc = num(s, n, i, neg_ok && k < 2, &v[k], &ds[k], &dn[k]);
		if (rc == -2)
			return pt_diag_error_line(r->d, lineno, "'%.*s' does not fit in 64 bits",
						  (int)(dn[k] > 24 ? 24 : dn[k]), ds[k]);
		if (rc < 0)
			return pt_diag_error_line(r->d, lineno,
						  "expected 'COUNT: BYTES [COUNT: BYTES]'");
		blanks(s, n, i);
		if (*i >= n || s[*i] != after[k])
			return pt_diag_error_line(r->d, lineno,
						  "expected 'COUNT: BYTES [COUNT: BYTES]'");
		(*i)++;
	}
	return 0;
}

static int same(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && !memcmp(a, b, an);
}

/* "heap profile: A: B [C: D] @ KIND[/RATE]": the types, period and unsampling */
static int header(struct reader *r, const char *s, size_t n, uint64_t lineno)
{
	struct pt_profile *p = r->p;
	const char *ds[4], *kind;
	size_t dn[4], i, kn;
	int64_t v[4], rate = 0;

	i = 0;
	blanks(s, n, &i);
	if (!starts(s + i, n - i, "heap profile:"))
		return pt_diag_error_line(r->d, lineno, "expected 'heap profile: ...' first");
	i += 13;
	if (four(r, s, n, &i, 0, v, ds, dn, lineno) < 0)
		return -1;
	blanks(s, n, &i);
	if (i >= n || s[i] != '@')
		return pt_diag_error_line(r->d, lineno, "expected '@ KIND' after the totals");
	i++;
	blanks(s, n, &i);
	kind = s + i;
	while (i < n && s[i] != '/' && !pt_is_blank(s[i]))
		i++;
	kn = (size_t)(s + i - kind);
	if (i < n && s[i] == '/') {
		const char *rd;
		size_t rn;
		i++;
		if (num(s, n, &i, 0, &rate, &rd, &rn) < 0)
			return pt_diag_error_line(r->d, lineno, "bad sampling rate after '/'");
	}
	p->period_type.name = pt_str(p, "space");
	p->period_type.unit = pt_str(p, "bytes");
	p->period = 1;
	if (same(kind, kn, "growth", 6) || same(kind, kn, "growthz", 7) ||
	    same(kind, kn, "fragmentation", 13) || same(kind, kn, "fragmentationz", 14)) {
		pt_profile_add_type(p, "objects", "count");
		pt_profile_add_type(p, "space", "bytes");
		p->default_type = 1;
		return 0;
	}
	if (same(kind, kn, "heapz_v2", 8) || same(kind, kn, "heap_v2", 7)) {
		r->v2 = 1;
		p->period = rate;
	} else if (same(kind, kn, "heap", 4)) {
		r->v2 = 1;
		p->period = rate / 2;
	} else if (!same(kind, kn, "heapprofile", 11)) {
		return pt_diag_error_line(r->d, lineno, "unknown heap profile kind '%.*s'",
					  (int)(kn > 32 ? 32 : kn), kind);
	}
	r->rate = p->period;
	if (r->v2 && r->rate > 1 && pt_libm_open(&r->lm, r->d) < 0)
		return -1;
	/* pprof compares the digits: alloc totals that differ from inuse and are not 0 */
	r->has_alloc = (!same(ds[2], dn[2], ds[0], dn[0]) && !same(ds[2], dn[2], "0", 1)) ||
		       (!same(ds[3], dn[3], ds[1], dn[1]) && !same(ds[3], dn[3], "0", 1));
	if (r->has_alloc) {
		pt_profile_add_type(p, "alloc_objects", "count");
		pt_profile_add_type(p, "alloc_space", "bytes");
		pt_profile_add_type(p, "inuse_objects", "count");
		pt_profile_add_type(p, "inuse_space", "bytes");
	} else {
		pt_profile_add_type(p, "objects", "count");
		pt_profile_add_type(p, "space", "bytes");
	}
	p->default_type = p->ntypes - 1;
	return 0;
}

/* pprof's unsampling of a heap_v2 sample: count and size / (1 - e^(-avg/rate)),
 * truncated toward zero as Go's int64() does */
static void unsample(const struct pt_libm *lm, int64_t *count, int64_t *size, int64_t rate)
{
	double scale, c, z;

	if (*count == 0 || *size == 0) {
		*count = *size = 0;
		return;
	}
	if (rate <= 1)
		return;
	scale = 1 / (1 - lm->exp(-((double)*size / (double)*count) / (double)rate));
	c = (double)*count * scale;
	z = (double)*size * scale;
	*count = c >= 9.2e18 ? INT64_MAX : c <= -9.2e18 ? INT64_MIN : (int64_t)c;
	*size = z >= 9.2e18 ? INT64_MAX : z <= -9.2e18 ? INT64_MIN : (int64_t)z;
}

/* one pair of a sample: pprof's addValues */
static int add_values(struct reader *r, struct pt_gperf_sample *s, int at, int64_t count,
		      int64_t size, const char *what, uint64_t lineno)
{
	if (count == 0 && size != 0)
		return pt_diag_error_line(r->d, lineno, "%s count is 0 but its bytes are %" PRId64,
					  what, size);
	if (count != 0) {
		s->bytes = size / count;
		if (r->v2)
			unsample(&r->lm, &count, &size, r->rate);
	}
	s->v[at] = count;
	s->v[at + 1] = size;
	return 0;
}

/* "0x" and 1 to 16 lowercase hex digits, as pprof's hexNumberRE and ParseUint take */
static int hex_address(const char *t, size_t len, uint64_t *a)
{
	size_t k;

	if (len < 3 || len > 18 || t[0] != '0' || t[1] != 'x')
		return -1;
	for (*a = 0, k = 2; k < len; k++) {
		int c = (unsigned char)t[k];
		int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (h < 0)
			return -1;
		*a = *a << 4 | (uint64_t)h;
	}
	return 0;
}

/* "INUSE: BYTES [ALLOC: BYTES] @ 0xADDR ..." */
static int sample(struct reader *r, const char *s, size_t n, uint64_t lineno)
{
	struct pt_gperf_sample *smp;
	const char *ds[4];
	size_t dn[4], i = 0, start;
	int64_t v[4];
	int at = 0;

	if (four(r, s, n, &i, 1, v, ds, dn, lineno) < 0)
		return -1;
	blanks(s, n, &i);
	if (i >= n || s[i] != '@')
		return pt_diag_error_line(r->d, lineno, "expected '@' and the stack's addresses");
	i++;
	PT_ALLOC_GROW(r->g.s, r->g.ns + 1, r->g.s_alloc);
	smp = &r->g.s[r->g.ns];
	memset(smp, 0, sizeof(*smp));
	smp->has_bytes = 1;
	if (r->has_alloc) {
		if (add_values(r, smp, 0, v[2], v[3], "allocation", lineno) < 0)
			return -1;
		at = 2;
	}
	if (add_values(r, smp, at, v[0], v[1], "inuse", lineno) < 0)
		return -1;
	start = r->g.naddrs;
	smp->first = start;
	while (1) {
		const char *t;
		uint64_t a;
		blanks(s, n, &i);
		if (i >= n)
			break;
		t = s + i;
		while (i < n && !pt_is_blank(s[i]))
			i++;
		if (hex_address(t, (size_t)(s + i - t), &a) < 0) {
			r->g.naddrs = start; /* the line is left out whole (--lenient) */
			return pt_diag_error_line(
				r->d, lineno, "'%.*s' is not a 64-bit hex address",
				(int)((size_t)(s + i - t) > 24 ? 24 : s + i - t), t);
		}
		/* return addresses moved onto their call */
		*pt_gperf_addrs(&r->g, 1) = a - 1;
	}
	smp->n = r->g.naddrs - start;
	r->g.ns++;
	return 0;
}

static int is_map_sentinel(const char *s, size_t n)
{
	return memmem(s, n, "MAPPED_LIBRARIES:", 17) || memmem(s, n, "--- Memory map: ---", 19);
}

static int gperf_heap_read(struct pt_input *in, struct pt_profile *p, const struct pt_read_opts *o,
			   struct pt_diag *d)
{
	struct reader r;
	char *line;
	size_t n;
	int rc, ret = -1, in_maps = 0;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.d = d;
	pt_gperf_init(&r.g);
	p->format = "gperftools-heap";
	rc = pt_input_getline(in, &line, &n);
	if (rc <= 0) {
		if (rc == 0)
			pt_diag_error_line(d, 1, "empty input: expected 'heap profile: ...'");
		goto out;
	}
	if (memchr(line, '\0', n)) {
		pt_diag_error_line(d, in->lineno, "NUL byte in line");
		goto out;
	}
	if (header(&r, line, pt_trim_end(line, n), in->lineno) < 0)
		goto out;
	while ((rc = pt_input_getline(in, &line, &n)) > 0) {
		size_t i = 0;
		n = pt_trim_end(line, n);
		if (in_maps) {
			pt_gperf_map_line(&r.g, p, line, n);
			continue;
		}
		blanks(line, n, &i);
		if (i == n || line[i] == '#')
			continue;
		if (is_map_sentinel(line, n)) {
			in_maps = 1;
			continue;
		}
		if ((memchr(line, '\0', n) ? pt_diag_error_line(d, in->lineno, "NUL byte in line")
					   : sample(&r, line + i, n - i, in->lineno)) < 0 &&
		    pt_read_skip(o, d, in->lineno) < 0)
			goto out;
	}
	if (rc < 0)
		goto out;
	pt_gperf_emit(&r.g, p, o->sink);
	ret = 0;
out:
	pt_gperf_release(&r.g);
	pt_libm_close(&r.lm);
	return ret;
}

/* the first line "heap profile:" with one of gperftools' kinds (Go's debug=1 heap
 * profile, "@ heap/RATE", is the gotext reader's unless a memory map follows) */
static int gperf_heap_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *nl = memchr(s, '\n', len);
	size_t n = nl ? (size_t)(nl - s) : len;

	if (!starts(s, n, "heap profile:"))
		return 0;
	if (memmem(s, n, "@ heapprofile", 13) || memmem(s, n, "@ heap_v2/", 10) ||
	    memmem(s, n, "@ heapz_v2/", 11) || memmem(s, n, "@ growth", 8) ||
	    memmem(s, n, "@ fragmentation", 15) || memmem(s, len, "\nMAPPED_LIBRARIES:", 18))
		return 97;
	return 0;
}

static const char *const gperf_heap_suffixes[] = {NULL};

const struct pt_format pt_format_gperftools_heap = {
	.name = "gperftools-heap",
	.description = "gperftools' legacy heap, heap sample and growth profiles (HEAPPROFILE=)",
	.suffixes = gperf_heap_suffixes,
	.detect = gperf_heap_detect,
	.read = gperf_heap_read,
	.addresses = 1,
	.write = NULL,
};
