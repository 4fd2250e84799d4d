/* cpuprofile-write.c: the .cpuprofile writer (pt_format_cpuprofile's write): a profile as
 * Chrome DevTools and VS Code open it, its samples from the timeline or made up from
 * the tree's counts. See formats/cpuprofile.md. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "formats/cpuprofile.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/intern.h"
#include "util/json.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* samples the writer makes up from counts: up to SYNTH_ANY in all, or up to SYNTH_PER_NODE
 * per node of the call tree, and never more than MAX_SYNTH. The output then grows with
 * the tree, not with a count: an 11-byte "a;b 999999" no longer makes 7 MB (the fuzzer's
 * per-byte CPU check found it). 250,000 samples are about 1.7 MB of output. */
#define SYNTH_ANY      250000
#define SYNTH_PER_NODE 32
#define MAX_SYNTH      1000000

/* One output node per (parent, function, column): our tree may split a function into
 * siblings by current line (positionTicks), which a .cpuprofile keeps inside one node. */
struct wnode {
	uint32_t parent, cf, first_child, next_sibling, last_child;
	uint32_t id; /* output id, 1.. in pre-order */
	int64_t hits;
};

struct wtick {
	uint32_t node;
	uint32_t pad;
	int64_t line, ticks;
};

struct writer {
	const struct pt_profile *p;
	struct wnode *nodes;
	size_t n, alloc;
	struct pt_map index;   /* parent << 32 | cf -> wnode */
	struct pt_map cfindex; /* func << 32 | column -> cf */
	uint32_t *cf_frame;    /* cf -> a frame with that function and column */
	size_t ncf, cf_alloc;
	struct pt_map ticks_index; /* wnode << 32 | line -> wtick */
	struct wtick *ticks;
	size_t nticks, ticks_alloc;
	struct pt_buf out;
	FILE *fp;
};

static uint32_t wnode_new(struct writer *w, uint32_t parent, uint32_t cf)
{
	uint32_t id = (uint32_t)w->n;
	PT_ALLOC_GROW(w->nodes, w->n + 1, w->alloc);
	memset(&w->nodes[id], 0, sizeof(w->nodes[id]));
	w->nodes[id].parent = parent;
	w->nodes[id].cf = cf;
	/* children kept in creation order */
	if (w->nodes[parent].last_child)
		w->nodes[w->nodes[parent].last_child].next_sibling = id;
	else
		w->nodes[parent].first_child = id;
	w->nodes[parent].last_child = id;
	w->n++;
	return id;
}

static uint32_t wnode_child(struct writer *w, uint32_t parent, uint32_t cf)
{
	uint32_t *slot = pt_map_put(&w->index, (uint64_t)parent << 32 | cf);
	if (*slot == PT_MAP_NEW)
		*slot = wnode_new(w, parent, cf);
	return *slot;
}

static void add_hit(struct writer *w, uint32_t wn, int64_t line, int64_t count)
{
	uint32_t *slot;
	w->nodes[wn].hits = pt_add(w->nodes[wn].hits, count);
	if (line <= 0)
		return;
	slot = pt_map_put(&w->ticks_index, (uint64_t)wn << 32 | ((uint64_t)line & 0xffffffffu));
	if (*slot == PT_MAP_NEW) {
		PT_ALLOC_GROW(w->ticks, w->nticks + 1, w->ticks_alloc);
		w->ticks[w->nticks].node = wn;
		w->ticks[w->nticks].pad = 0;
		w->ticks[w->nticks].line = line;
		w->ticks[w->nticks].ticks = 0;
		*slot = (uint32_t)w->nticks++;
	}
	w->ticks[*slot].ticks = pt_add(w->ticks[*slot].ticks, count);
}

static int cmp_wtick(const void *a, const void *b)
{
	const struct wtick *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* "VM123": the name our reader gives code without a url (eval, new Function) */
static int vm_script(const char *file, const char **digits)
{
	const char *s;
	if (strncmp(file, "VM", 2) || !file[2])
		return 0;
	for (s = file + 2; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	*digits = file + 2;
	return 1;
}

/* `,"callFrame":{...},"hitCount":` for the cf (0: the root) onto b; a script gets its
 * id from `scripts` the first time its file is seen, so call this in writing order */
static void call_frame(const struct writer *w, struct pt_buf *b, struct pt_intern *scripts,
		       uint32_t cf, uint64_t vm_max)
{
	const struct pt_profile *p = w->p;
	const char *name = "(root)", *file = "", *digits;
	size_t namelen = 6, filelen = 0;
	int64_t line = 0, col = 0;
	char script[32] = "0";

	if (cf) {
		const struct pt_frame *f = &p->frames[w->cf_frame[cf]];
		const struct pt_func *fn = &p->funcs[f->func];
		name = pt_s(p, fn->name);
		namelen = pt_intern_len(&p->strings, fn->name);
		file = pt_s(p, fn->file);
		filelen = pt_intern_len(&p->strings, fn->file);
		line = fn->start_line;
		col = f->column;
		if (!strcmp(name, "(anonymous)"))
			namelen = 0;
		if (vm_script(file, &digits)) {
			snprintf(script, sizeof(script), "%s", digits);
			filelen = 0;
		} else if (filelen) {
			uint32_t sid = pt_intern(scripts, file, filelen);
			snprintf(script, sizeof(script), "%" PRIu64, vm_max + (uint64_t)sid);
		}
	}
	pt_buf_addstr(b, ",\"callFrame\":{\"functionName\":");
	pt_buf_add_json_str(b, name, namelen);
	pt_buf_addf(b, ",\"scriptId\":\"%s\",\"url\":", script);
	pt_buf_add_json_str(b, file, filelen);
	pt_buf_addf(b, ",\"lineNumber\":%" PRId64 ",\"columnNumber\":%" PRId64 "},\"hitCount\":",
		    line > 0 ? line - 1 : -1, col > 0 ? col - 1 : -1);
}

struct timed {
	int64_t time;
	uint32_t event;
	uint32_t pad;
};

static int cmp_timed(const void *a, const void *b)
{
	const struct timed *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->event < y->event ? -1 : x->event > y->event;
}

/* The samples a writer lays out: the output node of each, its time delta, and the
 * profile's start and end (microseconds). */
struct wsamples {
	uint32_t *node;
	int64_t *delta;
	size_t n, alloc;
	int64_t start, end;
};

static void wsamples_add(struct wsamples *ws, uint32_t node, int64_t delta)
{
	if (ws->n + 1 > ws->alloc) {
		PT_ALLOC_GROW(ws->node, ws->n + 1, ws->alloc);
		ws->delta = pt_xreallocarray(ws->delta, ws->alloc, sizeof(int64_t));
	}
	ws->node[ws->n] = node;
	ws->delta[ws->n] = delta;
	ws->n++;
}

/* The output node of every tree node, in node order (a parent has a smaller id than
 * its children), and the callFrames (cf) of w. A node whose (function, column) several
 * frames share, or that is below such a node, may meet another node of the same path
 * and goes through the (parent, cf) hash; the others get their own wnode directly.
 * *cf_used says which cfs a node has. */
static uint32_t *map_nodes(struct writer *w, uint8_t **cf_used)
{
	const struct pt_profile *p = w->p;
	uint32_t *cf_of_frame, *wnode_of, fi, n;
	uint8_t *cf_shared, *tainted;

	cf_of_frame = pt_xmalloc(((size_t)p->nframes + 1) * sizeof(uint32_t));
	cf_shared = pt_xcalloc((size_t)p->nframes + 1, 1);
	for (fi = 1; fi < p->nframes; fi++) {
		const struct pt_frame *fr = &p->frames[fi];
		uint64_t key = (uint64_t)fr->func << 32 | ((uint64_t)fr->column & 0xffffffffu);
		uint32_t *slot = pt_map_put(&w->cfindex, key);
		if (*slot == PT_MAP_NEW) {
			PT_ALLOC_GROW(w->cf_frame, w->ncf + 1, w->cf_alloc);
			w->cf_frame[w->ncf] = fi;
			*slot = (uint32_t)w->ncf++;
		} else {
			cf_shared[*slot] = 1;
		}
		cf_of_frame[fi] = *slot;
	}
	*cf_used = pt_xcalloc(w->ncf, 1);
	tainted = pt_xmalloc((size_t)p->nnodes);
	tainted[0] = 0;
	PT_ALLOC_GROW(w->nodes, p->nnodes, w->alloc);
	wnode_of = pt_xmalloc((size_t)p->nnodes * sizeof(uint32_t));
	wnode_of[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t cf = cf_of_frame[p->nodes[n].frame], par = p->nodes[n].parent;
		if (!(*cf_used)[cf]) {
			/* the first node's frame speaks for the cf, as columns are cut to
			 * 32 bits in its key */
			(*cf_used)[cf] = 1;
			w->cf_frame[cf] = p->nodes[n].frame;
		}
		tainted[n] = tainted[par] || cf_shared[cf];
		if (tainted[n])
			wnode_of[n] = wnode_child(w, wnode_of[par], cf);
		else
			wnode_of[n] = wnode_new(w, wnode_of[par], cf);
	}
	free(tainted);
	free(cf_shared);
	free(cf_of_frame);
	return wnode_of;
}

/* The timeline, in time order: one sample per event. The last sample lasts as long as
 * its time value says (of the first type with a time unit, time_type). */
static void samples_from_timeline(struct writer *w, const uint32_t *wnode_of, int64_t time_type,
				  struct wsamples *ws)
{
	const struct pt_profile *p = w->p;
	struct timed *ord = pt_xreallocarray(NULL, p->nevents, sizeof(*ord));
	int64_t prev = 0;
	size_t k;

	for (k = 0; k < p->nevents; k++) {
		ord[k].time = p->events[k].time / 1000;
		ord[k].event = (uint32_t)k;
		ord[k].pad = 0;
	}
	qsort(ord, p->nevents, sizeof(*ord), cmp_timed);
	ws->start = p->time_nanos / 1000;
	for (k = 0; k < p->nevents; k++) {
		const struct pt_event *e = &p->events[ord[k].event];
		uint32_t node = p->samples[e->sample].node;
		wsamples_add(ws, wnode_of[node], pt_sub(ord[k].time, prev));
		prev = ord[k].time;
		add_hit(w, wnode_of[node], node ? pt_frame_of(p, node)->line : 0, 1);
	}
	ws->end = pt_add(ws->start, prev);
	if (time_type >= 0) {
		double tns = 0;
		pt_unit_is_time(pt_s(p, p->types[time_type].unit), &tns);
		ws->end = pt_add(
			ws->end,
			d2i((double)p->event_values[(size_t)ord[ws->n - 1].event * p->ntypes +
						    (size_t)time_type] *
			    tns / 1000.0));
	}
	free(ord);
}

/* No timeline: the tree in depth-first order. A time value (type t, ns nanoseconds a
 * unit, when timeunit) becomes one sample lasting that long; a count v becomes v
 * samples 1 ms apart (one sample lasting v ms when the counts add up to more than the
 * SYNTH_ limits allow); any other unit (bytes...) one sample lasting v microseconds. */
static void samples_from_tree(struct writer *w, const uint32_t *wnode_of, uint32_t t, int timeunit,
			      double ns, struct wsamples *ws)
{
	const struct pt_profile *p = w->p;
	int64_t total = 0, div = 1, prev_us = 0, sum = 0;
	int replicate = 0, count = !strcmp(pt_s(p, p->types[t].unit), "count");
	uint32_t i, n;

	for (i = 0; i < p->types[t].decimals; i++)
		div *= 10;
	if (!timeunit && count) {
		for (n = 0; n < p->nnodes; n++) {
			int64_t v = p->node_self[(size_t)n * p->ntypes + t] / div;
			if (v > 0)
				total = pt_add(total, v);
		}
		replicate = total <= MAX_SYNTH &&
			    (total <= SYNTH_ANY || total <= (int64_t)SYNTH_PER_NODE * p->nnodes);
	}
	ws->start = p->time_nanos / 1000;
	n = 0;
	for (;;) {
		int64_t v = p->node_self[(size_t)n * p->ntypes + t] / div;
		if (v > 0) {
			int64_t reps = replicate ? v : 1, rep, us;
			if (timeunit)
				us = d2i((double)v * ns / 1000.0);
			else if (replicate)
				us = 1000;
			else if (count)
				us = v > INT64_MAX / 1000 ? INT64_MAX : v * 1000;
			else
				us = v;
			for (rep = 0; rep < reps; rep++) {
				/* DevTools weighs a sample by the time to the next one: the
				 * delta of sample i carries the weight of i - 1 */
				wsamples_add(ws, wnode_of[n], prev_us);
				prev_us = us;
				sum = pt_add(sum, us);
			}
			add_hit(w, wnode_of[n], n ? pt_frame_of(p, n)->line : 0, reps);
		}
		if (!(n = pt_profile_next_node(p, n)))
			break;
	}
	ws->end = pt_add(ws->start, sum);
}

/* the node after n in depth-first pre-order, 0 after the last */
static uint32_t wnode_next(const struct writer *w, uint32_t n)
{
	if (w->nodes[n].first_child)
		return w->nodes[n].first_child;
	while (n && !w->nodes[n].next_sibling)
		n = w->nodes[n].parent;
	return n ? w->nodes[n].next_sibling : 0;
}

/* ids in pre-order: root first, parents before children */
static void number_nodes(struct writer *w)
{
	uint32_t next_id = 1, n = 0;

	do
		w->nodes[n].id = next_id++;
	while ((n = wnode_next(w, n)));
}

/* the largest N of the "VMN" scripts of the used cfs (call_frame numbers the others
 * past it) */
static uint64_t vm_scripts_max(const struct writer *w, const uint8_t *cf_used)
{
	const struct pt_profile *p = w->p;
	uint64_t vm_max = 0;
	uint32_t n;

	for (n = 1; n < w->ncf; n++) {
		const char *digits;
		if (!cf_used[n])
			continue;
		const struct pt_func *fn = &p->funcs[p->frames[w->cf_frame[n]].func];
		if (vm_script(pt_s(p, fn->file), &digits)) {
			uint64_t v = strtoull(digits, NULL, 10);
			if (v > vm_max)
				vm_max = v;
		}
	}
	return vm_max;
}

/* one node's object: id, callFrame (cftext from cf_off/cf_len), hits, children, ticks */
static void write_node(struct writer *w, uint32_t n, const struct pt_buf *cftext,
		       const size_t *cf_off, const size_t *cf_len, const uint32_t *tick_first)
{
	const struct wnode *wn = &w->nodes[n];
	uint32_t c;

	if (n)
		pt_buf_addch(&w->out, ',');
	pt_buf_addstr(&w->out, "{\"id\":");
	pt_buf_add_u64(&w->out, wn->id);
	pt_buf_add(&w->out, cftext->buf + cf_off[wn->cf], cf_len[wn->cf]);
	pt_buf_add_i64(&w->out, wn->hits);
	if (wn->first_child) {
		pt_buf_addstr(&w->out, ",\"children\":[");
		for (c = wn->first_child; c; c = w->nodes[c].next_sibling) {
			if (c != wn->first_child)
				pt_buf_addch(&w->out, ',');
			pt_buf_add_u64(&w->out, w->nodes[c].id);
		}
		pt_buf_addch(&w->out, ']');
	}
	if (tick_first[n] != UINT32_MAX) {
		size_t t0 = tick_first[n], t1;
		pt_buf_addstr(&w->out, ",\"positionTicks\":[");
		for (t1 = t0; t1 < w->nticks && w->ticks[t1].node == n; t1++) {
			pt_buf_addstr(&w->out, t1 == t0 ? "{\"line\":" : ",{\"line\":");
			pt_buf_add_i64(&w->out, w->ticks[t1].line);
			pt_buf_addstr(&w->out, ",\"ticks\":");
			pt_buf_add_i64(&w->out, w->ticks[t1].ticks);
			pt_buf_addch(&w->out, '}');
		}
		pt_buf_addch(&w->out, ']');
	}
	pt_buf_addch(&w->out, '}');
}

/* "nodes": in pre-order. The callFrame text of a cf is made the first time it is
 * written (that is when its script gets its id) and copied after that. */
static void write_nodes(struct writer *w, struct pt_intern *scripts, uint64_t vm_max)
{
	struct pt_buf cftext = PT_BUF_INIT;
	size_t *cf_off = pt_xmalloc(w->ncf * sizeof(size_t));
	size_t *cf_len = pt_xmalloc(w->ncf * sizeof(size_t));
	uint32_t *tick_first = pt_xmalloc(w->n * sizeof(uint32_t)), n = 0;
	size_t k;

	if (w->nticks)
		qsort(w->ticks, w->nticks, sizeof(*w->ticks), cmp_wtick);
	for (k = 0; k < w->n; k++)
		tick_first[k] = UINT32_MAX;
	for (k = w->nticks; k-- > 0;)
		tick_first[w->ticks[k].node] = (uint32_t)k;
	for (k = 0; k < w->ncf; k++)
		cf_off[k] = SIZE_MAX;
	pt_buf_addstr(&w->out, "{\"nodes\":[");
	for (;;) {
		const struct wnode *wn = &w->nodes[n];
		if (cf_off[wn->cf] == SIZE_MAX) {
			cf_off[wn->cf] = cftext.len;
			call_frame(w, &cftext, scripts, wn->cf, vm_max);
			cf_len[wn->cf] = cftext.len - cf_off[wn->cf];
		}
		write_node(w, n, &cftext, cf_off, cf_len, tick_first);
		pt_buf_write_out(&w->out, w->fp, PT_BUF_BLOCK);
		if (!(n = wnode_next(w, n)))
			break;
	}
	free(cf_off);
	free(cf_len);
	free(tick_first);
	pt_buf_release(&cftext);
}

/* the rest of the document: start, end, the samples' node ids and deltas */
static void write_samples(struct writer *w, const struct wsamples *ws)
{
	size_t k;

	pt_buf_addstr(&w->out, "],\"startTime\":");
	pt_buf_add_i64(&w->out, ws->start);
	pt_buf_addstr(&w->out, ",\"endTime\":");
	pt_buf_add_i64(&w->out, ws->end);
	pt_buf_addstr(&w->out, ",\"samples\":[");
	for (k = 0; k < ws->n; k++) {
		if (k)
			pt_buf_addch(&w->out, ',');
		pt_buf_add_u64(&w->out, w->nodes[ws->node[k]].id);
		pt_buf_write_out(&w->out, w->fp, PT_BUF_BLOCK);
	}
	pt_buf_addstr(&w->out, "],\"timeDeltas\":[");
	for (k = 0; k < ws->n; k++) {
		if (k)
			pt_buf_addch(&w->out, ',');
		pt_buf_add_i64(&w->out, ws->delta[k]);
		pt_buf_write_out(&w->out, w->fp, PT_BUF_BLOCK);
	}
	pt_buf_addstr(&w->out, "]}\n");
	pt_buf_write_out(&w->out, w->fp, 0);
}

int pt_cpuprofile_write(const struct pt_profile *p, const struct pt_write_opts *o, FILE *fp,
			struct pt_diag *d)
{
	struct writer w;
	struct wsamples ws;
	uint32_t *wnode_of, t, i;
	uint8_t *cf_used;
	struct pt_intern scripts;
	struct pt_arena arena;
	double ns = 0;
	int timeunit, has_times = 0;
	int64_t time_type = -1;
	size_t k;

	if (pt_profile_need_stacks(p, NULL, d) < 0)
		return -1;
	t = o->type >= 0 && (uint32_t)o->type < p->ntypes ? (uint32_t)o->type : p->default_type;
	if (t >= p->ntypes)
		return pt_diag_error(d, "the profile has no sample types");
	timeunit = pt_unit_is_time(pt_s(p, p->types[t].unit), &ns);
	for (i = 0; i < p->ntypes && time_type < 0; i++)
		if (pt_unit_is_time(pt_s(p, p->types[i].unit), &ns))
			time_type = i;
	if (timeunit)
		pt_unit_is_time(pt_s(p, p->types[t].unit), &ns);

	memset(&w, 0, sizeof(w));
	memset(&ws, 0, sizeof(ws));
	w.p = p;
	w.fp = fp;
	pt_buf_init(&w.out);
	pt_map_init(&w.index);
	pt_map_init(&w.cfindex);
	pt_map_init(&w.ticks_index);
	pt_arena_init(&arena);
	pt_intern_init(&scripts, &arena);
	PT_ALLOC_GROW(w.nodes, 1, w.alloc);
	memset(&w.nodes[0], 0, sizeof(w.nodes[0]));
	w.n = 1;
	PT_ALLOC_GROW(w.cf_frame, 1, w.cf_alloc);
	w.cf_frame[0] = 0;
	w.ncf = 1;

	wnode_of = map_nodes(&w, &cf_used);
	/* the samples, in order, with the time to the previous one */
	for (k = 1; k < p->nevents && !has_times; k++)
		has_times = p->events[k].time != p->events[0].time;
	if (has_times)
		samples_from_timeline(&w, wnode_of, time_type, &ws);
	else
		samples_from_tree(&w, wnode_of, t, timeunit, ns, &ws);
	number_nodes(&w);
	write_nodes(&w, &scripts, vm_scripts_max(&w, cf_used));
	write_samples(&w, &ws);

	free(wnode_of);
	free(cf_used);
	free(ws.node);
	free(ws.delta);
	free(w.nodes);
	free(w.cf_frame);
	free(w.ticks);
	pt_map_release(&w.index);
	pt_map_release(&w.cfindex);
	pt_map_release(&w.ticks_index);
	pt_intern_release(&scripts);
	pt_arena_release(&arena);
	pt_buf_release(&w.out);
	return 0;
}
