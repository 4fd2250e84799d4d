/* top-pprof.c: `go tool pprof`'s -top and -traces layouts: its header, its one
 * unit per report, its node trimming and its (inline) marks, rebuilt from the samples
 * the way pprof's graph package does it (one node per function name, or per printed
 * name at -lines and -addresses). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/buf.h"
#include "analysis/filter.h"
#include "analysis/fold.h"
#include "util/map.h"
#include "analysis/graph.h"
#include "report/report.h"
#include "util/text.h"
#include "core/units.h"
#include "util/xalloc.h"

/* measurement.ScaledLabel: "%.2f" without a trailing ".00"; zero prints "0" */
void pt_pprof_label(struct pt_buf *b, int64_t v, const char *from, const char *to)
{
	const char *unit;
	char tmp[64];
	size_t n;

	double x = pt_pprof_scale(v, from, to, &unit);

	/* A count at the int64 edge: (double)v rounds up to 2^63, which "%.2f" would print
	 * past INT64_MAX (pprof prints 9223372036854775808); print the value itself. */
	if (!*unit && fabs(x) >= 9223372036854775807.0) {
		pt_buf_addf(b, "%" PRId64, v);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.2f", x);
	n = strlen(tmp);
	if (n > 3 && !strcmp(tmp + n - 3, ".00"))
		tmp[n - 3] = '\0';
	if (!strcmp(tmp, "0") || !strcmp(tmp, "-0"))
		unit = "";
	pt_buf_addf(b, "%s%s", tmp, unit);
}

/* measurement.Percentage, padded as pprof prints it */
static int64_t abs64(int64_t v)
{
	return v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
}

/* ---- the graph: one vertex per function name (analysis/graph.h) ---- */

struct pp_graph {
	const struct pt_profile *p;
	uint32_t t;
	uint32_t nent;
	uint32_t *frame_ent; /* frame -> entry (the graph's vertex), numbered in node order */
	uint32_t *ent_name;  /* entry -> its printed name's id in *names */
	const struct pt_intern *names; /* p's strings, or `labels` for lines and addresses */
	struct pt_arena arena;
	struct pt_intern labels;
	struct pt_graph g;
	int64_t *flat, *cum; /* g's */
	uint8_t *seen;
	/* the rows the graph is made from instead of p's tree (NULL: the tree), and
	 * whether it needs their edges (only inlined frames make marks) */
	const struct pt_stacks *stacks;
	int edges;
};

/* path (n bytes) made lexically clean as Go's filepath.Clean does, which pprof applies
 * to every source file name: one '/' between elements, no "." elements, a ".." removes
 * the element before it (and is dropped right after the root), no trailing '/', "."
 * for nothing left */
static void add_clean_path(struct pt_buf *b, const char *s, size_t n)
{
	size_t start = b->len, r = 0, dotdot;
	int rooted = n && s[0] == '/';

	if (rooted) {
		pt_buf_addch(b, '/');
		r = 1;
	}
	dotdot = b->len;
	while (r < n) {
		if (s[r] == '/') {
			r++;
		} else if (s[r] == '.' && (r + 1 == n || s[r + 1] == '/')) {
			r++;
		} else if (s[r] == '.' && s[r + 1] == '.' && (r + 2 == n || s[r + 2] == '/')) {
			r += 2;
			if (b->len > dotdot) {
				size_t w = b->len - 1;
				while (w > dotdot && b->buf[w] != '/')
					w--;
				pt_buf_setlen(b, w);
			} else if (!rooted) {
				if (b->len > start)
					pt_buf_addch(b, '/');
				pt_buf_add(b, "..", 2);
				dotdot = b->len;
			}
		} else {
			if (b->len > start + (size_t)rooted)
				pt_buf_addch(b, '/');
			for (; r < n && s[r] != '/'; r++)
				pt_buf_addch(b, s[r]);
		}
	}
	if (b->len == start)
		pt_buf_addch(b, '.');
}

/* A frame's node name as pprof's NodeInfo.PrintableName gives it at -lines or
 * -addresses: the address ("%016x", -addresses only), the function, then "file:line"
 * (":column" after it at -addresses, which keeps columns), or the file alone, the file
 * name cleaned as pprof does (filepath.Clean: "file:///a/./b.js" is "file:/a/b.js"). A frame
 * without a symbol is its binary's base name in brackets, as pprof names a location
 * without a function. */
static void frame_label(struct pt_buf *b, const struct pt_profile *p, const struct pt_frame *f,
			enum pt_granularity gran)
{
	const struct pt_func *fn = &p->funcs[f->func];
	int addresses = gran == PT_GRAN_ADDRESSES;

	pt_buf_reset(b);
	if (addresses && f->addr)
		pt_buf_addf(b, "%016" PRIx64 " ", f->addr);
	if (f->flags & PT_FRAME_NO_SYMBOL) {
		const char *obj = f->mapping ? pt_s(p, p->mappings[f->mapping].file) : "";
		const char *base = strrchr(obj, '/');
		base = base ? base + 1 : obj;
		if (*base)
			pt_buf_addf(b, "[%s]", base);
		else
			pt_buf_addstr(b, "<unknown>");
		return;
	}
	pt_buf_add(b, pt_s(p, fn->name), pt_intern_len(&p->strings, fn->name));
	if (f->line) {
		pt_buf_addch(b, ' ');
		if (fn->file)
			add_clean_path(b, pt_s(p, fn->file), pt_intern_len(&p->strings, fn->file));
		pt_buf_addf(b, ":%" PRId64, f->line);
		if (addresses && f->column)
			pt_buf_addf(b, ":%" PRId64, f->column);
	} else if (fn->file) {
		pt_buf_addch(b, ' ');
		add_clean_path(b, pt_s(p, fn->file), pt_intern_len(&p->strings, fn->file));
	}
}

/* the graph's vertices: those of the frames on p's nodes, or of the frames of stacks
 * (nframes of them) when stacks is not NULL, in the order met */
static void graph_init(struct pp_graph *g, const struct pt_profile *p, uint32_t t,
		       enum pt_granularity gran, const struct pt_stacks *stacks,
		       const uint32_t *frames, uint32_t nframes)
{
	struct pt_map names;
	struct pt_buf label = PT_BUF_INIT;
	int by_label = gran == PT_GRAN_LINES || gran == PT_GRAN_ADDRESSES, nosym = 0;
	uint32_t n, nf = stacks ? nframes : (p->nnodes ? p->nnodes - 1 : 0);

	/* frames without a symbol are one node per binary (or one <unknown>) at function
	 * granularity too, as pprof has them, not one per address: name by label then */
	for (n = 1; gran == PT_GRAN_FUNCTIONS && n < p->nframes && !nosym; n++)
		nosym = (p->frames[n].flags & PT_FRAME_NO_SYMBOL) != 0;
	by_label |= nosym;

	memset(g, 0, sizeof(*g));
	g->p = p;
	g->t = t;
	g->stacks = stacks;
	for (n = 1; stacks && n < p->nframes && !g->edges; n++)
		g->edges = (p->frames[n].flags & PT_FRAME_INLINED) != 0;
	g->names = &p->strings;
	pt_arena_init(&g->arena);
	pt_intern_init(&g->labels, &g->arena);
	if (by_label)
		g->names = &g->labels;
	pt_map_init(&names);
	g->frame_ent = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	g->ent_name = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	for (n = 0; n < p->nframes; n++)
		g->frame_ent[n] = UINT32_MAX;
	for (n = 0; n < nf; n++) {
		uint32_t fid = stacks ? frames[n] : p->nodes[n + 1].frame, name, *slot;
		if (g->frame_ent[fid] != UINT32_MAX)
			continue;
		if (nosym && !(p->frames[fid].flags & PT_FRAME_NO_SYMBOL)) {
			uint32_t fn = p->funcs[p->frames[fid].func].name;
			name = pt_intern(&g->labels, pt_s(p, fn), pt_intern_len(&p->strings, fn));
		} else if (by_label) {
			frame_label(&label, p, &p->frames[fid], gran);
			name = pt_intern(&g->labels, label.buf, label.len);
		} else {
			name = p->funcs[p->frames[fid].func].name;
		}
		slot = pt_map_put(&names, name);
		if (*slot == PT_MAP_NEW) {
			*slot = g->nent;
			g->ent_name[g->nent++] = name;
		}
		g->frame_ent[fid] = *slot;
	}
	pt_map_release(&names);
	pt_buf_release(&label);
	pt_graph_init(&g->g, g->nent);
	g->flat = g->g.flat;
	g->cum = g->g.cum;
	g->seen = g->g.seen;
}

static void graph_release(struct pp_graph *g)
{
	free(g->frame_ent);
	free(g->ent_name);
	pt_intern_release(&g->labels);
	pt_arena_release(&g->arena);
	pt_graph_release(&g->g);
}

/* graph.newGraph, with the nodes not kept left out */
static void graph_build(struct pp_graph *g, const unsigned char *kept)
{
	struct pt_graph_opts o = {.vertex = g->frame_ent, .t = g->t, .nt = 1, .kept = kept};

	if (g->stacks)
		pt_stacks_graph(&g->g, g->stacks, g->p, &o, g->edges);
	else
		pt_graph_build(&g->g, g->p, &o);
}

/* pprof's mark of every entry from its incoming edges at least `cutoff` heavy:
 * 1 "(inline)", 2 "(partial-inline)", 0 none */
static unsigned char *graph_marks(const struct pp_graph *g, int64_t cutoff)
{
	unsigned char *inl = pt_xcalloc(g->nent + 1, 1), *marks = pt_xcalloc(g->nent + 1, 1);
	uint32_t i;

	for (i = 0; i < g->g.nedges; i++) {
		const struct pt_graph_edge *e = &g->g.edges[i];
		if (!e->live || abs64(e->weight) < cutoff)
			continue;
		inl[e->to] |= e->not_inline ? 2 : 1;
	}
	for (i = 0; i < g->nent; i++)
		marks[i] = pt_inline_mark(inl[i]);
	free(inl);
	return marks;
}

static const char *mark_text(unsigned char m)
{
	return m == 1 ? " (inline)" : m == 2 ? " (partial-inline)" : "";
}

unsigned char *pt_report_inline_marks(const struct pt_profile *p, const struct pt_fold *fold,
				      uint32_t t)
{
	/* folded while reading: the fold kept the pairs the marks need */
	if (fold && fold->folded && fold->marks)
		return pt_fold_marks(fold, p, t);
	return pt_graph_name_marks(p, t);
}

const char *pt_report_inline_text(unsigned char mark)
{
	return mark_text(mark);
}

/* ---- header (driver's ProfileLabels) ---- */

struct pp_report {
	const struct pt_profile *p;
	uint32_t t;
	const char *sample_unit;
	const char *out_unit; /* "minimum" until a report picks one */
	int64_t total;	      /* sum of |value| over the rows */
	/* the main mapping's file and build id: p's, or the profile's before the filters
	 * (the log's), as pprof's filters keep every mapping */
	const char *file, *build_id;
	uint32_t main; /* the main mapping of the frames met (pt_profile_main_mapping) */
};

static void fmt_value(struct pt_buf *b, const struct pp_report *r, int64_t v)
{
	pt_pprof_label(b, v, r->sample_unit, r->out_unit);
}

/* broken-down local time of ns since the epoch (seconds floored, as Go's time.Unix);
 * 0 if the C library cannot represent it */
static int local_time(int64_t ns, struct tm *tm)
{
	time_t sec = (time_t)(ns / 1000000000);
	if (ns < 0 && ns % 1000000000)
		sec--;
	return localtime_r(&sec, tm) != NULL;
}

static void header(struct pt_buf *b, const struct pp_report *r)
{
	const struct pt_profile *p = r->p;
	uint32_t m = r->main;
	struct tm tm;
	size_t i;

	if (r->file || m) {
		const char *file = r->file ? r->file : pt_s(p, p->mappings[m].file);
		const char *base = strrchr(file, '/');
		if (*file)
			pt_buf_addf(b, "File: %s\n", base && base[1] ? base + 1 : file);
		if (r->file ? r->build_id != NULL : p->mappings[m].build_id != 0)
			pt_buf_addf(b, "Build ID: %s\n",
				    r->file ? r->build_id : pt_s(p, p->mappings[m].build_id));
	}
	for (i = 0; i < p->ncomments; i++)
		if (pt_s(p, p->comments[i])[0] != '#')
			pt_buf_addf(b, "%s\n", pt_s(p, p->comments[i]));
	pt_buf_addf(b, "Type: %s\n", pt_s(p, p->types[r->t].name));
	if (p->time_nanos && local_time(p->time_nanos, &tm)) {
		/* Go's layout "Jan 2, 2006 at 3:04pm (MST)", in the local zone */
		char mon[16], zone[64];
		strftime(mon, sizeof(mon), "%b", &tm);
		strftime(zone, sizeof(zone), "%Z", &tm);
		pt_buf_addf(b, "Time: %s %d, %d at %d:%02d%s (%s)\n", mon, tm.tm_mday,
			    tm.tm_year + 1900, tm.tm_hour % 12 ? tm.tm_hour % 12 : 12, tm.tm_min,
			    tm.tm_hour < 12 ? "am" : "pm", zone);
	}
	if (p->duration_nanos > 0) { /* a negative one is no duration */
		const char *unit;
		double ns = pt_pprof_scale(r->total, r->sample_unit, "nanoseconds", &unit);
		pt_buf_addstr(b, "Duration: ");
		pt_pprof_label(b, p->duration_nanos, "nanoseconds", "auto");
		pt_buf_addstr(b, ", Total samples = ");
		fmt_value(b, r, r->total);
		pt_buf_addch(b, ' ');
		if (!strcmp(unit, "ns") && ns != 0 && fabs(ns) < 9e18) {
			pt_buf_addch(b, '(');
			pt_buf_add_pprof_pct(b, (int64_t)ns, p->duration_nanos);
			pt_buf_addch(b, ')');
		}
		pt_buf_addch(b, '\n');
	}
}

/* the report of type t of p, or of the rows of stacks when not NULL (whose frames are
 * the nframes of frames) */
static void report_init(struct pp_report *r, const struct pt_profile *p, uint32_t t,
			const struct pt_stacks *stacks, const uint32_t *frames, uint32_t nframes)
{
	uint32_t i;

	r->p = p;
	r->t = t;
	r->sample_unit = pt_s(p, p->types[t].unit);
	r->out_unit = "minimum";
	r->file = r->build_id = NULL;
	r->total = 0;
	if (stacks) {
		r->main = pt_profile_main_mapping_of(p, frames, nframes);
		for (i = 0; i < pt_stacks_n(stacks); i++)
			r->total = pt_add(r->total, abs64(pt_stacks_value(stacks, i, t)));
	} else {
		r->main = pt_profile_main_mapping(p);
		for (i = 0; i < p->nsamples; i++)
			r->total = pt_add(r->total,
					  abs64(p->sample_values[(size_t)i * p->ntypes + t]));
	}
	/* pprof's total keeps the samples a -hide or -show left without a frame */
	r->total = pt_add(r->total, abs64(p->emptied[t]));
}

/* ---- -top ---- */

struct pp_sort {
	const struct pp_graph *g;
	int by_cum;
};

static int cmp_abs_desc(int64_t x, int64_t y)
{
	x = abs64(x);
	y = abs64(y);
	return x > y ? -1 : x < y;
}

/* a node's name as pprof prints it: an empty one (a --tag-root frame of a sample
 * without the label) is "<unknown>", as NodeInfo.NameComponents has it */
static const char *ent_str(const struct pt_intern *st, uint32_t name, size_t *len)
{
	*len = pt_intern_len(st, name);
	if (*len)
		return pt_intern_str(st, name);
	*len = strlen("<unknown>");
	return "<unknown>";
}

static int pp_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct pp_sort *s = ctx;
	const struct pp_graph *g = s->g;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int r = s->by_cum ? cmp_abs_desc(g->cum[a], g->cum[b])
			  : cmp_abs_desc(g->flat[a], g->flat[b]);
	const struct pt_intern *st = g->names;
	const char *na, *nb;
	size_t la, lb;

	if (r)
		return r;
	na = ent_str(st, g->ent_name[a], &la);
	nb = ent_str(st, g->ent_name[b], &lb);
	r = memcmp(na, nb, la < lb ? la : lb);
	if (r)
		return r;
	if (la != lb)
		return la < lb ? -1 : 1;
	r = s->by_cum ? cmp_abs_desc(g->flat[a], g->flat[b]) : cmp_abs_desc(g->cum[a], g->cum[b]);
	return r ? r : (a > b) - (a < b);
}

/* entries of the built graph (nonzero flat or cum... pprof lists every node it made,
 * and a node exists once a nonzero row touched it), sorted */
static uint32_t *pp_sorted(const struct pp_graph *g, const unsigned char *kept, int by_cum,
			   uint32_t *n)
{
	uint32_t *idx = pt_xcalloc(g->nent + 1, sizeof(uint32_t)), i, k = 0;
	struct pp_sort s = {g, by_cum};

	for (i = 0; i < g->nent; i++)
		if ((!kept || kept[i]) && g->seen[i])
			idx[k++] = i;
	qsort_r(idx, k, sizeof(*idx), pp_cmp, &s);
	*n = k;
	return idx;
}

int pt_report_top_pprof(const struct pt_profile *p, const struct pt_top_opts *o, FILE *out,
			struct pt_diag *d)
{
	struct pp_report r;
	struct pp_graph g;
	struct pt_buf b = PT_BUF_INIT;
	unsigned char *kept = NULL, *marks;
	uint32_t *idx, n, i, dropped = 0, orig;
	int64_t node_cutoff, edge_cutoff, flat_sum = 0, sum = 0, min_value = 0;
	const char *min_unit, *max_unit;
	const uint32_t *frames = NULL;
	uint32_t nframes = 0;

	if (!o->stacks && pt_profile_need_stacks_say(p, d, "",
						     "the pprof layout needs stacks, and this "
						     "profile has none") < 0)
		return -1;
	if (o->stacks)
		frames = pt_stacks_frames(o->stacks, &nframes);
	report_init(&r, p, o->type, o->stacks, frames, nframes);
	/* pprof takes its total before it filters: the shares are of the whole profile */
	if (o->filters && o->filters->whole && o->type < o->filters->ntypes) {
		r.total = o->filters->whole[o->type];
		r.file = o->filters->main_file;
		r.build_id = o->filters->main_build_id;
	}
	graph_init(&g, p, o->type, o->gran, o->stacks, frames, nframes);
	graph_build(&g, NULL);

	/* nodes whose |cum| is under 0.5% of the total go, and the graph is rebuilt */
	for (i = 0; i < g.nent; i++)
		if (g.seen[i])
			flat_sum = pt_add(flat_sum, g.flat[i]);
	node_cutoff = abs64((int64_t)((double)flat_sum * o->node_fraction));
	edge_cutoff = abs64((int64_t)((double)flat_sum * o->edge_fraction));
	kept = pt_xcalloc(g.nent + 1, 1);
	for (i = 0; i < g.nent; i++) {
		if (!g.seen[i])
			continue;
		kept[i] = !(node_cutoff > 0 && abs64(g.cum[i]) < node_cutoff);
		dropped += !kept[i];
	}
	/* the rebuild changes only edges (a kept vertex keeps its values): the graph
	 * from stacks skips it when it has none */
	if (dropped && (!g.stacks || g.edges))
		graph_build(&g, kept);
	idx = pp_sorted(&g, kept, o->by_cum, &n);
	orig = n;
	if (o->limit >= 0 && (unsigned long)o->limit < n) {
		/* -nodecount: the first N in report order stay, and the graph is rebuilt */
		memset(kept, 0, g.nent);
		for (i = 0; i < (uint32_t)o->limit; i++)
			kept[idx[i]] = 1;
		free(idx);
		if (!g.stacks || g.edges)
			graph_build(&g, kept);
		idx = pp_sorted(&g, kept, o->by_cum, &n);
	}
	marks = graph_marks(&g, edge_cutoff);

	/* one unit for the whole report (report.selectOutputUnit) */
	for (i = 0; i < n; i++) {
		int64_t m = abs64(g.flat[idx[i]]);
		if (!m)
			m = abs64(g.cum[idx[i]]);
		if (m > 0 && (!min_value || m < min_value))
			min_value = m;
	}
	if (n) {
		const char *unit;
		int64_t max_value = r.total;
		if (!min_value)
			min_value = max_value;
		pt_pprof_scale(min_value, r.sample_unit, "minimum", &min_unit);
		pt_pprof_scale(max_value, r.sample_unit, "minimum", &max_unit);
		unit = min_unit;
		if (strcmp(min_unit, max_unit) && min_value < INT64_MAX / 100 &&
		    min_value * 100 < max_value)
			pt_pprof_scale(100 * min_value, r.sample_unit, "minimum", &unit);
		r.out_unit = *unit ? unit : r.sample_unit;
	}

	header(&b, &r);
	if (o->filter)
		pt_filter_pprof_legend(o->filter, &b);
	flat_sum = 0;
	for (i = 0; i < n; i++)
		flat_sum = pt_add(flat_sum, g.flat[idx[i]]);
	pt_buf_addstr(&b, "Showing nodes accounting for ");
	fmt_value(&b, &r, flat_sum);
	pt_buf_addstr(&b, ", ");
	{
		struct pt_buf pct = PT_BUF_INIT;
		const char *s;
		pt_buf_add_pprof_pct(&pct, flat_sum, r.total);
		for (s = pct.buf; *s == ' '; s++)
			;
		pt_buf_addstr(&b, s);
		pt_buf_release(&pct);
	}
	pt_buf_addstr(&b, " of ");
	fmt_value(&b, &r, r.total);
	pt_buf_addstr(&b, " total\n");
	if (r.total) {
		if (dropped) {
			pt_buf_addf(&b, "Dropped %u node%s (cum <= ", dropped,
				    dropped == 1 ? "" : "s");
			fmt_value(&b, &r, abs64((int64_t)((double)r.total * o->node_fraction)));
			pt_buf_addstr(&b, ")\n");
		}
		if (n < orig)
			pt_buf_addf(&b, "Showing top %u nodes out of %u\n", n, orig);
	}
	pt_buf_addf(&b, "%10s %5s%% %5s%% %10s %5s%%\n", "flat", "flat", "sum", "cum", "cum");
	fwrite(b.buf, 1, b.len, out);
	for (i = 0; i < n; i++) {
		uint32_t e = idx[i];
		struct pt_buf fv = PT_BUF_INIT, cv = PT_BUF_INIT;
		const char *name;
		size_t nlen;

		sum = pt_add(sum, g.flat[e]);
		pt_buf_reset(&b);
		fmt_value(&fv, &r, g.flat[e]);
		fmt_value(&cv, &r, g.cum[e]);
		pt_buf_addf(&b, "%10s ", fv.buf);
		pt_buf_add_pprof_pct(&b, g.flat[e], r.total);
		pt_buf_addch(&b, ' ');
		pt_buf_add_pprof_pct(&b, sum, r.total);
		pt_buf_addf(&b, " %10s ", cv.buf);
		pt_buf_add_pprof_pct(&b, g.cum[e], r.total);
		pt_buf_addstr(&b, "  ");
		name = ent_str(g.names, g.ent_name[e], &nlen);
		pt_buf_add_printable(&b, name, nlen);
		pt_buf_addf(&b, "%s\n", mark_text(marks[e]));
		fwrite(b.buf, 1, b.len, out);
		pt_buf_release(&fv);
		pt_buf_release(&cv);
	}
	pt_buf_release(&b);
	free(marks);
	free(idx);
	free(kept);
	graph_release(&g);
	return 0;
}

/* ---- -traces ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "%10s:  v1 v2" lines for the string (numeric) labels of a set, sorted */
static void label_lines(struct pt_buf *b, const struct pt_profile *p, const struct pt_labelset *ls,
			int numeric)
{
	char **lines = pt_xcalloc(ls->n + 1, sizeof(char *));
	uint32_t i, j, k = 0;

	for (i = 0; i < ls->n; i++) {
		struct pt_buf line = PT_BUF_INIT;
		int first = 1;
		if ((ls->v[i].str == 0) != numeric)
			continue;
		/* one line per key: skip keys already done */
		for (j = 0; j < i; j++)
			if (ls->v[j].key == ls->v[i].key && (ls->v[j].str == 0) == numeric)
				break;
		if (j < i)
			continue;
		pt_buf_addf(&line, "%10s:  ", pt_s(p, ls->v[i].key));
		for (j = i; j < ls->n; j++) {
			if (ls->v[j].key != ls->v[i].key || (ls->v[j].str == 0) != numeric)
				continue;
			if (!first)
				pt_buf_addch(&line, ' ');
			first = 0;
			if (numeric)
				pt_pprof_label(&line, ls->v[j].num, pt_pprof_num_label_unit(p, &ls->v[j]), "auto");
			else
				pt_buf_addstr(&line, pt_s(p, ls->v[j].str));
		}
		pt_buf_addch(&line, '\n');
		lines[k++] = pt_buf_detach(&line, NULL);
	}
	qsort(lines, k, sizeof(*lines), cmp_str);
	for (i = 0; i < k; i++) {
		pt_buf_addstr(b, lines[i]);
		free(lines[i]);
	}
	free(lines);
}

int pt_report_traces(const struct pt_profile *p, uint32_t t, FILE *out, struct pt_diag *d)
{
	static const char sep[] =
		"-----------+-------------------------------------------------------\n";
	struct pp_report r;
	struct pt_buf b = PT_BUF_INIT;
	uint32_t row, k;

	if (pt_profile_need_stacks_say(p, d, "", "this profile has no stacks") < 0)
		return -1;
	report_init(&r, p, t, NULL, NULL, 0);
	header(&b, &r);
	fwrite(b.buf, 1, b.len, out);
	for (row = 0; row < p->nsamples; row++) {
		const struct pt_sample *s = &p->samples[row];
		const int64_t *v = p->sample_values + (size_t)row * p->ntypes;
		uint32_t node;
		int first = 1, zero = 1;

		/* pprof drops samples whose values are all zero when it loads a profile */
		for (k = 0; k < p->ntypes; k++)
			zero &= v[k] == 0;
		if (zero || !s->node)
			continue;
		pt_buf_reset(&b);
		pt_buf_addstr(&b, sep);
		label_lines(&b, p, &p->labelsets[s->labels], 0);
		label_lines(&b, p, &p->labelsets[s->labels], 1);
		for (node = s->node; node; node = p->nodes[node].parent) {
			const struct pt_frame *f = pt_frame_of(p, node);
			uint32_t name = p->funcs[f->func].name;
			struct pt_buf val = PT_BUF_INIT;
			if (first)
				fmt_value(&val, &r, v[t]);
			pt_buf_addf(&b, "%10s   ", val.buf);
			pt_buf_add_printable(&b, pt_s(p, name), pt_intern_len(&p->strings, name));
			pt_buf_addf(&b, "%s\n", f->flags & PT_FRAME_INLINED ? " (inline)" : "");
			pt_buf_release(&val);
			first = 0;
		}
		fwrite(b.buf, 1, b.len, out);
	}
	fputs(sep, out);
	pt_buf_release(&b);
	return 0;
}
