/* top-stackprof.c: `top --style stackprof`: the layout of `stackprof --text`
 * (Mode / Samples with miss rate / GC header; TOTAL (pct) SAMPLES (pct) FRAME rows). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "report/report.h"
#include "util/text.h"
#include "util/xalloc.h"

static int64_t meta_int(const struct pt_profile *p, const char *key, int64_t dflt)
{
	const char *s = pt_profile_meta(p, key);
	return s && *s ? strtoll(s, NULL, 10) : dflt;
}

struct sp_sort {
	const struct pt_agg *a;
	uint32_t t;
	int by_cum;
};

/* value descending; ties keep the order functions first appeared in the input, which
 * for a stackprof dump is its frames' order (stackprof's sort is stable) */
static int sp_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sp_sort *c = ctx;
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb, w = c->a->ntypes;
	const int64_t *v = c->by_cum ? c->a->cum : c->a->flat;
	int64_t vx = v[(size_t)x * w + c->t], vy = v[(size_t)y * w + c->t];

	if (vx != vy)
		return vx > vy ? -1 : 1;
	if (c->a->entries[x].func != c->a->entries[y].func)
		return c->a->entries[x].func < c->a->entries[y].func ? -1 : 1;
	return x < y ? -1 : x > y;
}

uint32_t *pt_report_sorted_by_appearance(const struct pt_agg *a, uint32_t type, int by_cum,
					 uint32_t *n)
{
	uint32_t *idx = pt_xreallocarray(NULL, a->nentries ? a->nentries : 1, sizeof(uint32_t));
	struct sp_sort c = {a, type, by_cum};
	uint32_t i, k = 0, w = a->ntypes;

	for (i = 0; i < a->nentries; i++)
		if (a->flat[(size_t)i * w + type] || a->cum[(size_t)i * w + type])
			idx[k++] = i;
	qsort_r(idx, k, sizeof(*idx), sp_cmp, &c);
	*n = k;
	return idx;
}

static void pct(char *buf, size_t n, int64_t v, int64_t total)
{
	/* Ruby prints NaN for 0/0.0 */
	if (!total)
		snprintf(buf, n, v ? "(Inf%%)" : "(NaN%%)");
	else
		snprintf(buf, n, "(%2.1f%%)", 100.0 * (double)v / (double)total);
}

int pt_report_top_stackprof(const struct pt_profile *p, const struct pt_agg *a,
			    const struct pt_top_opts *o, FILE *out, struct pt_diag *d)
{
	struct pt_buf b = PT_BUF_INIT;
	int stackprof = p->totals_in_meta;
	const char *mode, *interval;
	int64_t samples, missed, gc = 0, total;
	uint32_t n, i, shown, w = a->ntypes, *idx;
	char pt[32], ps[32];

	(void)d;
	if (stackprof && pt_profile_meta(p, "mode")) {
		mode = pt_profile_meta(p, "mode");
		interval = pt_profile_meta(p, "interval") ? pt_profile_meta(p, "interval") : "";
		samples = meta_int(p, "samples", 0);
		missed = meta_int(p, "missed_samples", 0);
		gc = meta_int(p, "gc_samples", 0);
	} else {
		mode = pt_s(p, p->types[o->type].name);
		interval = "";
		/* a count type counts samples; otherwise the input's records are the samples */
		samples = !strcmp(pt_s(p, p->types[o->type].unit), "count") &&
					  !p->types[o->type].decimals
				  ? a->total[o->type]
				  : (int64_t)p->nrecords;
		missed = 0;
		for (i = 0; i < a->nentries; i++)
			if ((a->entries[i].flags & PT_FRAME_SYNTHETIC) &&
			    !strncmp(pt_s(p, a->entries[i].name), "(garbage", 8))
				gc = pt_add(gc, a->cum[(size_t)i * w + o->type]);
	}
	/* stackprof's percentages are of all samples, empty stacks included */
	total = stackprof && !strcmp(pt_s(p, p->types[o->type].name), "samples")
			? samples
			: a->total[o->type];

	pt_buf_addstr(&b, "==================================\n");
	pt_buf_addf(&b, "  Mode: %s(", mode);
	if (*interval)
		pt_buf_addstr(&b, interval);
	else if (!stackprof && p->period > 0)
		pt_buf_addf(&b, "%" PRId64, p->period);
	pt_buf_addf(&b, ")\n  Samples: %" PRId64 " (%.2f%% miss rate)\n", samples,
		    missed + samples ? 100.0 * (double)missed / (double)(missed + samples) : 0.0);
	pt_buf_addf(&b, "  GC: %" PRId64 " (%.2f%%)\n", gc,
		    samples ? 100.0 * (double)gc / (double)samples : 0.0);
	pt_buf_addstr(&b, "==================================\n");
	pt_buf_addf(&b, "%10s    (pct)  %10s    (pct)     FRAME\n", "TOTAL", "SAMPLES");
	fwrite(b.buf, 1, b.len, out);

	idx = pt_report_sorted_by_appearance(a, o->type, o->by_cum, &n);
	shown = (uint32_t)pt_report_shown(o->limit, n);
	for (i = 0; i < shown; i++) {
		const struct pt_agg_entry *e = &a->entries[idx[i]];
		int64_t flat = a->flat[(size_t)idx[i] * w + o->type];
		int64_t cum = a->cum[(size_t)idx[i] * w + o->type];

		pct(pt, sizeof(pt), cum, total);
		pct(ps, sizeof(ps), flat, total);
		pt_buf_reset(&b);
		pt_buf_addf(&b, "% 10" PRId64 " %8s  % 10" PRId64 " %8s     ", cum, pt, flat, ps);
		pt_buf_add_printable(&b, pt_s(p, e->name), pt_intern_len(&p->strings, e->name));
		pt_buf_addch(&b, '\n');
		fwrite(b.buf, 1, b.len, out);
	}
	free(idx);
	pt_buf_release(&b);
	return 0;
}
