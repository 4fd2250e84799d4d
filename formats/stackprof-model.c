/* stackprof-model.c: the end of reading a stackprof dump, whichever reader fed the builder:
 * frames become functions, raw runs become stacks (or frames and edges a per-function
 * table), the header and the user's metadata the profile's. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/functable.h"
#include "core/sink.h"
#include "formats/stackprof.h"
#include "util/buf.h"
#include "util/map.h"
#include "util/text.h"
#include "util/xalloc.h"

/* ---- the end: frames become functions, raw becomes stacks or frames an aggregate ---- */

enum { T_SAMPLES, T_TIME, T_OBJECTS };

/* saturating arithmetic: a hostile dump must not make values overflow (UB) */
static int64_t smul(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

/* microseconds since t0 as nanoseconds */
static int64_t us_since(int64_t t, int64_t t0)
{
	int64_t r;
	if (__builtin_sub_overflow(t, t0, &r))
		r = t < t0 ? INT64_MIN : INT64_MAX;
	return smul(r, 1000);
}

/* v and w times mult[0..nt-1] into vv and ww; the first type whose product does not
 * fit in int64, or nt */
static uint32_t scale_pair(int64_t v, int64_t w, uint32_t nt, const int64_t *mult, int64_t *vv,
			   int64_t *ww)
{
	uint32_t j;

	for (j = 0; j < nt; j++)
		if (__builtin_mul_overflow(v, mult[j], &vv[j]) ||
		    __builtin_mul_overflow(w, mult[j], &ww[j]))
			return j;
	return nt;
}

/* A count of the dump that does not fit once scaled (or, with account, whose selves
 * would sum past INT64_MAX) is left out and counted as an overflow at the frame's
 * offset: the loader then refuses the dump there, or with --lenient warns and keeps
 * what fits. Returns 0 when the values are kept. */
static int keep_counts(struct builder *b, const int64_t *self, uint32_t bad, uint32_t nt,
		       uint64_t off, int account)
{
	if (bad < nt) {
		pt_profile_overflow_at(b->p, bad, PT_DIAG_OFFSET, off);
		return -1;
	}
	return account ? pt_profile_account_at(b->p, self, PT_DIAG_OFFSET, off) : 0;
}

/* The dump's own per-function view: an entry per frame (self and total) and its
 * per-line self and total, as stackprof counted them (totals per occurrence). account:
 * the frames' selves are the profile's values (no raw stacks hold them). */
static struct pt_agg *frames_agg(struct builder *b, uint32_t nt, const int64_t *mult,
				 int account)
{
	struct pt_profile *p = b->p;
	struct pt_agg *a = pt_xcalloc(1, sizeof(*a));
	int64_t self[3], total[3];
	size_t k;

	pt_agg_init(a, nt, PT_GRAN_FUNCTIONS);
	a->edges_per_occurrence = 1;
	for (k = 0; k < b->norder; k++) {
		struct lframe *f = &b->lf[b->order[k]];
		struct pt_agg_entry e;
		uint32_t id, j;
		memset(&e, 0, sizeof(e));
		e.name = p->funcs[f->func].name;
		e.file = p->funcs[f->func].file;
		e.line = f->line;
		e.func = f->func;
		e.flags = p->frames[f->frame].flags;
		id = pt_agg_entry(a, b->order[k], &e);
		j = scale_pair(f->self, f->total, nt, mult, self, total);
		if (keep_counts(b, self, j, nt, f->off, account) < 0)
			continue;
		for (j = 0; j < nt; j++) {
			a->flat[(size_t)id * nt + j] = self[j];
			a->cum[(size_t)id * nt + j] = total[j];
		}
	}
	for (k = 0; k < b->nlines; k++) {
		struct lline *l = &b->lines[k];
		uint32_t id = pt_agg_line(a, pt_agg_entry(a, l->frame, NULL), l->line), j;
		j = scale_pair(l->self, l->total, nt, mult, self, total);
		if (keep_counts(b, self, j, nt, b->lf[l->frame].off, 0) < 0)
			continue;
		for (j = 0; j < nt; j++) {
			a->line_self[(size_t)id * nt + j] = self[j];
			a->line_cum[(size_t)id * nt + j] = total[j];
		}
	}
	return a;
}

/* a run's values, for the sink or the tree: its count as samples, its time from its
 * deltas (from index s) in wall mode, else from the interval */
static void run_values(const struct builder *b, int64_t c, uint32_t nt, const int *kind,
		       const int64_t *mult, int wall, uint64_t s, int64_t *vals)
{
	uint32_t t;
	int64_t j;

	for (t = 0; t < nt; t++) {
		if (kind[t] == T_TIME && wall && b->ndeltas) {
			int64_t sum = 0;
			for (j = 0; j < c; j++)
				sum = pt_add(sum, b->deltas[s + (uint64_t)j]);
			vals[t] = sum;
		} else {
			vals[t] = kind[t] == T_SAMPLES ? c : smul(c, mult[t]);
		}
	}
}

/* With a sink, run k goes to it as its frames (node[] holds the trie nodes' frames):
 * the run's count as samples, its time from the deltas in wall mode, else from the
 * interval. A run of count 0 goes too, so that its frames make the same entries as
 * the tree's nodes would; it is not a record. */
static void sink_run(struct builder *b, const uint32_t *node, size_t k, int64_t c, uint32_t nt,
		     const int *kind, const int64_t *mult, int wall, uint64_t s)
{
	const uint32_t *parent = b->have_lines ? b->lparent : b->tparent;
	uint32_t n = b->have_lines ? b->runs[k].lnode : b->runs[k].node;
	int64_t vals[3];
	size_t depth = 0;

	for (; n; n = parent[n]) {
		PT_ALLOC_GROW(b->sink_frames, depth + 1, b->sink_frames_alloc);
		b->sink_frames[depth++] = node[n];
	}
	run_values(b, c, nt, kind, mult, wall, s, vals);
	pt_sink_sample(b->sink, b->p, b->sink_frames, depth, 1, 0, vals, 0);
	/* the sink counted one record: the run holds c */
	b->p->nrecords += (uint64_t)c - 1;
}

/* With coded runs: every frame they name must be defined; lmap then maps local frames
 * to the profile's */
static int stream_frames(struct builder *b)
{
	uint32_t f;

	for (f = 0; f < b->nlf; f++) {
		if (b->lf[f].in_raw && !b->lf[f].defined) {
			struct pt_buf t = PT_BUF_INIT;
			pt_stackprof_frame_label(b, f, &t);
			pt_diag_error_at(b->d, b->lf[f].off,
					 "'raw' names frame %s, which 'frames' lacks", t.buf);
			pt_buf_release(&t);
			return -1;
		}
	}
	b->lmap = pt_xmalloc((b->nlf ? b->nlf : 1) * sizeof(uint32_t));
	for (f = 0; f < b->nlf; f++)
		b->lmap[f] = b->lf[f].frame;
	return 0;
}

/* run k of count c, coded at *pos, to the sink: as sink_run */
static void stream_run(struct builder *b, size_t *pos, int64_t c, uint32_t nt, const int *kind,
		       const int64_t *mult, int wall, uint64_t s)
{
	size_t n = rs_run(b, pos, b->lmap);
	int64_t vals[3];

	run_values(b, c, nt, kind, mult, wall, s, vals);
	pt_sink_sample(b->sink, b->p, b->rstack, n, 0, 0, vals, 0);
	b->p->nrecords += (uint64_t)c - 1;
}

/* the tree node of the run coded at *pos: the previous run's nodes where it shares its
 * frames, children made in order for the rest (b->rnodes[i]: the node after i frames) */
static uint32_t stream_node(struct builder *b, size_t *pos)
{
	size_t before = *pos, keep, n, i;

	keep = (size_t)rs_next(b, &before);
	n = rs_run(b, pos, b->lmap);
	PT_ALLOC_GROW(b->rnodes, n + 1, b->rnodes_alloc);
	b->rnodes[0] = 0;
	for (i = keep; i < n; i++)
		b->rnodes[i + 1] = pt_profile_child(b->p, b->rnodes[i], b->rstack[i]);
	return b->rnodes[n];
}

/* The function of a dump frame. Frames are functions of their own, even two "<main>"
 * frames of one name, file and line: the second such frame gets identity 1, the third
 * 2, and so on (twins maps the first one's function id to the next identity). The
 * first is identity 0, so dumps merged later share their functions by name, file and
 * line, as `stackprof a.dump b.dump` adds them up. */
static uint32_t dump_func(struct pt_profile *p, struct pt_map *twins, uint32_t name, uint32_t file,
			  int64_t line)
{
	uint32_t before = p->nfuncs, first = pt_profile_func(p, name, 0, file, line), *slot;

	if (p->nfuncs > before)
		return first;
	slot = pt_map_put(twins, first);
	if (*slot == PT_MAP_NEW)
		*slot = 1;
	return pt_profile_func_ident(p, name, 0, file, line, (*slot)++);
}

/* the sample types: samples; time for cpu and wall mode; objects for object mode. kind
 * and mult say what each type's value is and its multiple of a sample; returns their
 * number */
static uint32_t sample_types(struct builder *b, const char *mode, int *kind, int64_t *mult)
{
	struct pt_profile *p = b->p;
	uint32_t nt = 0;

	pt_profile_add_type(p, "samples", "count");
	kind[nt] = T_SAMPLES;
	mult[nt++] = 1;
	if ((!strcmp(mode, "cpu") || !strcmp(mode, "wall")) &&
	    (b->interval > 0 || (!strcmp(mode, "wall") && b->ndeltas))) {
		pt_profile_add_type(p, mode, "microseconds");
		kind[nt] = T_TIME;
		mult[nt++] = b->interval;
	} else if (!strcmp(mode, "object") && b->interval > 0) {
		pt_profile_add_type(p, "objects", "count");
		kind[nt] = T_OBJECTS;
		mult[nt++] = b->interval;
	}
	if (nt > 1) {
		p->period_type = p->types[1];
		p->period = b->interval;
	}
	return nt;
}

/* metadata: the header, then the user's */
static void header_meta(struct builder *b, const char *mode)
{
	struct pt_profile *p = b->p;
	struct pt_buf t = PT_BUF_INIT;
	size_t k;

	p->totals_in_meta = 1;
	if (b->have_version) {
		pt_buf_addf(&t, "%g", b->version);
		pt_profile_add_meta(p, "version", t.buf);
	}
	if (b->mode)
		pt_profile_add_meta(p, "mode", mode);
	pt_buf_reset(&t);
	if (b->have_interval)
		pt_buf_addf(&t, "%" PRId64, b->interval);
	pt_profile_add_meta(p, "interval", t.buf);
#define META_INT(name, v)                                                                          \
	do {                                                                                       \
		pt_buf_reset(&t);                                                                  \
		pt_buf_addf(&t, "%" PRId64, (v));                                                  \
		pt_profile_add_meta(p, name, t.buf);                                               \
	} while (0)
	META_INT("samples", b->samples);
	META_INT("gc_samples", b->gc_samples);
	META_INT("missed_samples", b->missed_samples);
#undef META_INT
	for (k = 0; k < b->numeta; k++) {
		PT_ALLOC_GROW(p->meta, p->nmeta + 1, p->meta_alloc);
		p->meta[p->nmeta++] = b->umeta[k];
	}
	pt_buf_release(&t);
}

/* one function per dump frame, in the dump's order (reports break ties by it) */
static void make_functions(struct builder *b)
{
	struct pt_profile *p = b->p;
	struct pt_map twins;
	size_t k;

	pt_map_init(&twins);
	for (k = 0; k < b->norder; k++) {
		struct lframe *f = &b->lf[b->order[k]];
		const char *file;
		uint32_t flags = 0, fileid;
		struct pt_frame fr;

		file = pt_s(p, f->file);
		fileid = f->file;
		if (!strcmp(file, "<cfunc>")) {
			flags |= PT_FRAME_NATIVE;
			fileid = 0;
		} else if (!*file && pt_s(p, f->name)[0] == '(') {
			flags |= PT_FRAME_SYNTHETIC; /* (garbage collection), (marking), ... */
		}
		f->func = dump_func(p, &twins, f->name, fileid, f->line);
		memset(&fr, 0, sizeof(fr));
		fr.func = f->func;
		fr.flags = flags;
		f->frame = pt_profile_frame(p, &fr);
	}
	pt_map_release(&twins);
}

/* What each trie node stands for: the profile's tree node, or with a sink the node's
 * frame. With raw_lines, stacks are over (frame, line) pairs: the line trie's nodes.
 * NULL with the error filled when 'raw' names a frame 'frames' lacks. */
static uint32_t *trie_nodes(struct builder *b)
{
	struct pt_profile *p = b->p;
	size_t nn = b->have_lines ? b->nltrie : b->ntrie, k;
	uint32_t *node = pt_xmalloc((nn ? nn : 1) * sizeof(uint32_t));

	node[0] = 0;
	for (k = 1; k < b->ntrie; k++) {
		struct lframe *f = &b->lf[b->tframe[k]];
		if (!f->defined) {
			struct pt_buf t = PT_BUF_INIT;
			pt_stackprof_frame_label(b, b->tframe[k], &t);
			pt_diag_error_at(b->d, f->off, "'raw' names frame %s, which 'frames' lacks",
					 t.buf);
			pt_buf_release(&t);
			free(node);
			return NULL;
		}
		/* a sink takes each run's frames: node[] is then the frame */
		if (b->sink)
			node[k] = f->frame;
		else if (!b->have_lines)
			node[k] = pt_profile_child(p, node[b->tparent[k]], f->frame);
	}
	for (k = 1; b->have_lines && k < b->nltrie; k++) {
		uint32_t pair = b->lpair[k];
		struct pt_frame fr = p->frames[b->lf[b->pair_frame[pair]].frame];
		fr.line = b->pair_line[pair];
		node[k] = b->sink ? pt_profile_frame(p, &fr)
				  : pt_profile_child(p, node[b->lparent[k]],
						     pt_profile_frame(p, &fr));
	}
	return node;
}

/* the per-sample timestamps or deltas, if any, must be one per sample */
static int check_timestamps(struct builder *b)
{
	uint64_t nsamples = 0;
	size_t k;
	int deltas;

	for (k = 0; k < b->nruns; k++)
		nsamples += (uint64_t)b->runs[k].count;
	deltas = b->ndeltas_seen && b->ndeltas_seen != nsamples;
	if (deltas || (b->nts_seen && b->nts_seen != nsamples))
		return pt_diag_error_at(
			b->d, deltas ? b->deltas_off : b->ts_off,
			"'raw' holds %" PRIu64 " samples but '%s' has %" PRIu64 " entries",
			nsamples, deltas ? "raw_timestamp_deltas" : "raw_sample_timestamps",
			deltas ? b->ndeltas_seen : b->nts_seen);
	if (b->ndeltas != nsamples)
		b->ndeltas = 0; /* not all kept (a second 'mode'): weigh by the interval */
	return 0;
}

/* run k of count c, sample s on, into the tree: one event per sample only where the
 * input has one entry per sample (timestamps or deltas); else a count could ask for
 * 2^62 events */
static void tree_run(struct builder *b, uint32_t n, int64_t c, uint32_t nt, const int *kind,
		     const int64_t *mult, int wall, uint64_t s, int64_t *clock)
{
	struct pt_profile *p = b->p;
	int64_t vals[3], t0 = b->nts ? b->ts[0] : 0, j;
	uint32_t i;

	if (p->keep_timeline && (b->nts || b->ndeltas)) {
		for (j = 0; j < c; j++, s++) {
			int64_t d = b->ndeltas ? b->deltas[s] : b->interval;
			for (i = 0; i < nt; i++)
				vals[i] = kind[i] == T_SAMPLES			    ? 1
					  : kind[i] == T_TIME && wall && b->ndeltas ? d
										    : mult[i];
			*clock = pt_add(*clock, d);
			pt_profile_add_sample(p, n, 0, vals,
					      b->nts ? us_since(b->ts[s], t0) : smul(*clock, 1000));
		}
		return;
	}
	run_values(b, c, nt, kind, mult, wall, s, vals);
	pt_profile_add_sample(p, n, 0, vals, 0);
	p->nrecords += (uint64_t)c - 1;
}

/* a dump with raw stacks: the tree (or the sink) from the tries and the runs */
static int raw_stacks(struct builder *b, uint32_t nt, const int *kind, const int64_t *mult,
		      int wall)
{
	struct pt_profile *p = b->p;
	uint32_t *node = trie_nodes(b);
	size_t pos = 0;
	uint64_t s = 0;
	int64_t clock = 0;
	size_t k;

	if (!node)
		return -1;
	if (b->stream && stream_frames(b) < 0) {
		free(node);
		return -1;
	}
	if (check_timestamps(b) < 0) {
		free(node);
		return -1;
	}
	/* every frame is made: a sink need not watch for new ones */
	pt_sink_frames_complete(b->sink, p);
	if (b->nts_seen > 1 && b->ts_last > b->ts_first)
		p->duration_nanos = us_since(b->ts_last, b->ts_first);
	for (k = 0; k < b->nruns; k++) {
		int64_t c = b->runs[k].count;
		if (b->stream && b->sink) {
			stream_run(b, &pos, c, nt, kind, mult, wall, s);
		} else if (b->stream) {
			/* the run's tree node, made even for a count of 0 as the trie's are */
			uint32_t n = stream_node(b, &pos);
			if (c)
				tree_run(b, n, c, nt, kind, mult, wall, s, &clock);
		} else if (b->sink)
			sink_run(b, node, k, c, nt, kind, mult, wall, s);
		else if (c)
			tree_run(b, node[b->have_lines ? b->runs[k].lnode : b->runs[k].node], c, nt,
				 kind, mult, wall, s, &clock);
		s += (uint64_t)c;
	}
	free(node);
	/* before stackprof 0.2.26 raw stacks carry no lines: keep the dump's own per-line
	 * counts (self exact, totals per occurrence) for `method` */
	if (!b->have_lines && b->nlines)
		p->line_agg = frames_agg(b, nt, mult, 0);
	return 0;
}

/* a dump without raw stacks: the per-function table from its frames and edges */
static int aggregate_only(struct builder *b, uint32_t nt, const int64_t *mult)
{
	struct pt_profile *p = b->p;
	struct pt_agg *a = frames_agg(b, nt, mult, 1);
	int64_t v[3], unused[3];
	uint32_t i;
	size_t k;

	p->agg = a;
	p->no_stacks_reason = "the stackprof dump was recorded without raw: true, so it holds no "
			      "stacks; record it with StackProf.run(raw: true, ...) or "
			      "StackProf.start(raw: true)";
	for (k = 0; k < b->nedges; k++) {
		struct ledge *e = &b->edges[k];
		uint32_t id, c, j;
		if (!b->lf[e->callee].defined) {
			struct pt_buf t = PT_BUF_INIT;
			pt_stackprof_frame_label(b, e->callee, &t);
			pt_diag_error_at(b->d, b->lf[e->callee].off,
					 "'edges' name frame %s, which 'frames' lacks", t.buf);
			pt_buf_release(&t);
			return -1;
		}
		c = pt_agg_entry(a, e->callee, NULL);
		id = pt_agg_edge(a, pt_agg_entry(a, e->caller, NULL), c);
		j = scale_pair(e->count, 0, nt, mult, v, unused);
		for (i = 0; i < nt && j == nt; i++)
			if (__builtin_add_overflow(a->edge_value[(size_t)id * nt + i], v[i], &v[i]))
				j = i;
		if (keep_counts(b, v, j, nt, b->lf[e->callee].off, 0) < 0)
			continue;
		for (j = 0; j < nt; j++)
			a->edge_value[(size_t)id * nt + j] = v[j];
	}
	/* the total: the dump's samples, else the selves' sum (each type's fits: the selves
	 * were accounted) */
	for (k = 0; k < nt; k++) {
		int64_t sum = 0;
		if (b->have_samples) {
			if (__builtin_mul_overflow(b->samples, mult[k], &sum)) {
				pt_profile_overflow_at(p, (uint32_t)k, PT_DIAG_NOWHERE, 0);
				sum = 0;
			}
		} else {
			for (i = 0; i < a->nentries; i++)
				sum += a->flat[(size_t)i * nt + k];
		}
		a->total[k] = sum;
	}
	p->nrecords = (uint64_t)a->total[0];
	return 0;
}

int pt_stackprof_finish(struct builder *b)
{
	const char *mode = b->mode ? pt_s(b->p, b->mode) : "";
	int64_t mult[3];
	int kind[3];
	uint32_t nt;

	if (!b->done)
		return pt_diag_error_at(b->d, b->off, "the dump ends early");
	/* a dump with a mode but no frames holds no samples ({mode: "cpu"}, as stackprof's
	 * Report writes one without data, and its CLI loads) */
	if (!b->have_frames && !b->mode)
		return pt_diag_error_at(b->d, b->off, "not a stackprof dump: no 'frames'");
	nt = sample_types(b, mode, kind, mult);
	header_meta(b, mode);
	make_functions(b);
	if (b->have_raw)
		return raw_stacks(b, nt, kind, mult, !strcmp(mode, "wall"));
	/* no frames: no samples, so no stacks were lost either (stackprof leaves raw out
	 * of a raw: true recording that took none) */
	if (!b->norder)
		return 0;
	return aggregate_only(b, nt, mult);
}
