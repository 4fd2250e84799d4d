/* cpuprofile-tree.c: a V8 CPU profile's call tree, from the nodes, ticks and samples the
 * reader collected per profile (formats/cpuprofile.h), of a .cpuprofile or of a trace's
 * profile events alike: samples weighed in time order as DevTools weighs them. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "formats/cpuprofile.h"
#include "util/map.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* what an error that --lenient reads past adds (speedscope reads such traces) */
#define LENIENT_HINT " (--lenient reads past lost nodes)"

static int is_synthetic(const char *name)
{
	return !strcmp(name, "(root)") || !strcmp(name, "(program)") || !strcmp(name, "(idle)") ||
	       !strcmp(name, "(garbage collector)");
}

/* frame of node n (line 0: the function, without a current line) */
static uint32_t node_frame(struct reader *r, struct unit *u, struct rnode *n)
{
	struct pt_profile *p = r->p;
	struct pt_frame f;
	const char *name = pt_s(p, n->name), *url = pt_s(p, n->url);
	const char *script = pt_s(p, n->script);
	int64_t l = n->line, c = n->col;
	uint32_t file = n->url;

	/* human line/column: 1-based, 0 = unknown */
	if (u->one_based) {
		l = l > 0 ? l : 0;
		c = c > 0 ? c : 0;
	} else {
		l = l != NO_VALUE && l >= 0 ? l + 1 : 0;
		c = c != NO_VALUE && c >= 0 ? c + 1 : 0;
	}
	memset(&f, 0, sizeof(f));
	if (!*url && !is_synthetic(name) && l > 0 && *script && strcmp(script, "0")) {
		/* eval / new Function code: no url, only the script id tells two apart;
		 * DevTools calls such a script "VM<scriptId>", and so do we */
		char vm[80];
		snprintf(vm, sizeof(vm), "VM%s", script);
		file = pt_str(p, vm);
	}
	if (!*url && l == 0)
		f.flags = is_synthetic(name) ? PT_FRAME_SYNTHETIC : PT_FRAME_NATIVE;
	/* the column is part of the function, as in DevTools (a function is name,
	 * script, line and column): minified code has many functions on one line, often
	 * of one name */
	f.func = pt_profile_func_ident(p, *name ? n->name : r->s_anon, 0, file, l, (uint64_t)c);
	f.column = c;
	return pt_profile_frame(p, &f);
}

/* callFrame -> frame, for node_frame_cached: a profile repeats a few hundred callFrames
 * over many thousands of nodes. The fields are copied here, as comparing with the node
 * that first had them would reach back into the (big) node array. */
struct cfentry {
	int64_t line, col;
	uint32_t name, url, script, frame;
};

struct cfcache {
	struct pt_map map; /* key made of the fields -> index in v */
	struct cfentry *v;
	size_t n, alloc;
};

static uint32_t node_frame_cached(struct reader *r, struct unit *u, struct cfcache *c,
				  struct rnode *n)
{
	/* a key that tells callFrames apart well enough (the map mixes it again; the
	 * fields are compared on a hit) */
	uint64_t key = ((uint64_t)n->name << 32 | n->url) * 0x9e3779b97f4a7c15ULL ^
		       (uint64_t)n->script * 0xc2b2ae3d27d4eb4fULL ^
		       (uint64_t)n->line * 0x165667b19e3779f9ULL ^
		       (uint64_t)n->col * 0x27d4eb2f165667c5ULL;
	uint32_t *slot = pt_map_put(&c->map, key);
	struct cfentry *e;

	if (*slot != PT_MAP_NEW) {
		e = &c->v[*slot];
		if (e->name == n->name && e->url == n->url && e->script == n->script &&
		    e->line == n->line && e->col == n->col)
			return e->frame;
		return node_frame(r, u, n); /* a hash collision */
	}
	PT_ALLOC_GROW(c->v, c->n + 1, c->alloc);
	*slot = (uint32_t)c->n;
	e = &c->v[c->n++];
	e->line = n->line;
	e->col = n->col;
	e->name = n->name;
	e->url = n->url;
	e->script = n->script;
	e->frame = node_frame(r, u, n);
	return e->frame;
}

/* the call-tree node that node n's variants with a current line go under: its
 * parent's, or the top of the tree for the root (made there by build_unit) */
static uint32_t parent_ptnode(const struct unit *u, const struct rnode *n)
{
	return n->parent == UINT32_MAX ? 0 : u->nodes[n->parent].ptnode;
}

/* node n's frame with a current line (a positionTicks or trace `lines` line) */
static uint32_t line_frame(struct pt_profile *p, const struct rnode *n, int64_t line)
{
	struct pt_frame f = p->frames[n->frame];
	f.line = line;
	return pt_profile_frame(p, &f);
}

static int cmp_tick(const void *a, const void *b)
{
	const struct tick *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq; /* qsort is not stable */
}

/* node id -> node index: a plain array when the ids are dense (node numbers its nodes
 * 1..N), else a hash map */
struct idmap {
	uint32_t *dense;
	int64_t ndense;
	struct pt_map map;
};

static void idmap_init(struct idmap *m, const struct unit *u)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i;

	memset(m, 0, sizeof(*m));
	pt_map_init(&m->map);
	for (i = 0; i < u->nnodes; i++) {
		if (u->nodes[i].id < lo)
			lo = u->nodes[i].id;
		if (u->nodes[i].id > hi)
			hi = u->nodes[i].id;
	}
	if (u->nnodes && lo >= 0 && hi < 4 * (int64_t)u->nnodes + 64) {
		m->ndense = hi + 1;
		m->dense = pt_xmalloc((size_t)m->ndense * sizeof(uint32_t));
		memset(m->dense, 0xff, (size_t)m->ndense * sizeof(uint32_t));
	}
}

static uint32_t idmap_get(const struct idmap *m, int64_t id)
{
	if (m->dense)
		return id >= 0 && id < m->ndense ? m->dense[id] : UINT32_MAX;
	return pt_map_get(&m->map, (uint64_t)id);
}

/* record id -> idx; 0 if the id was there already */
static int idmap_put(struct idmap *m, int64_t id, uint32_t idx)
{
	uint32_t *slot;
	if (m->dense) {
		if (m->dense[id] != UINT32_MAX)
			return 0;
		m->dense[id] = idx;
		return 1;
	}
	slot = pt_map_put(&m->map, (uint64_t)id);
	if (*slot != PT_MAP_NEW)
		return 0;
	*slot = idx;
	return 1;
}

static void idmap_release(struct idmap *m)
{
	free(m->dense);
	pt_map_release(&m->map);
}

/* Resolve ids, check the tree, make call-tree nodes and add the samples of unit u.
 * origin: the microsecond time that timeline times count from. */
/* ids to node indexes in ids, and every node's parent from the parent ids and the
 * children lists, checked: known ids, one parent each, one root; 0 or -1 */
static int link_nodes(struct reader *r, struct unit *u, struct idmap *ids, uint32_t *rootp)
{
	uint32_t root = UINT32_MAX;
	size_t i;

	if (!u->nnodes) {
		/* a trace's profile whose chunks were all lost: --lenient leaves it out */
		pt_diag_error_at(r->j.d, r->j.end_off, "the profile has no nodes%s",
				 r->is_trace ? LENIENT_HINT : "");
		return -1;
	}
	for (i = 0; i < u->nnodes; i++) {
		struct rnode *n = &u->nodes[i];
		if (!idmap_put(ids, n->id, (uint32_t)i)) {
			pt_diag_error_at(r->j.d, n->off, "duplicate node id %" PRId64, n->id);
			return -1;
		}
		n->parent = UINT32_MAX;
		n->nticks = 0;
	}
	for (i = 0; i < u->nnodes; i++) {
		struct rnode *n = &u->nodes[i];
		if (n->parent_id != NO_VALUE) {
			uint32_t pi = idmap_get(ids, n->parent_id);
			if (pi == UINT32_MAX && r->lenient) {
				/* speedscope's reading of a trace whose chunks were lost */
				pt_diag_dangling(r->j.d, n->off);
				n->orphan = 1;
				continue;
			}
			if (pi == UINT32_MAX) {
				pt_diag_error_at(r->j.d, n->off,
						 "unknown parent node id %" PRId64
						 " of node %" PRId64 LENIENT_HINT,
						 n->parent_id, n->id);
				return -1;
			}
			n->parent = pi;
		}
	}
	for (i = 0; i < u->nchildren; i++) {
		uint32_t ci = idmap_get(ids, u->children[i].child);
		struct rnode *c;
		if (ci == UINT32_MAX) {
			pt_diag_error_at(r->j.d, u->children[i].off,
					 "unknown node id %" PRId64 " in children of node %" PRId64,
					 u->children[i].child, u->nodes[u->children[i].parent].id);
			return -1;
		}
		c = &u->nodes[ci];
		if (c->parent != UINT32_MAX && c->parent != u->children[i].parent) {
			pt_diag_error_at(
				r->j.d, u->children[i].off,
				"node id %" PRId64 " has two parents (%" PRId64 " and %" PRId64 ")",
				c->id, u->nodes[c->parent].id, u->nodes[u->children[i].parent].id);
			return -1;
		}
		c->parent = u->children[i].parent;
	}
	for (i = 0; i < u->nnodes; i++) {
		if (u->nodes[i].parent != UINT32_MAX || u->nodes[i].orphan)
			continue;
		if (root != UINT32_MAX) {
			pt_diag_error_at(r->j.d, u->nodes[i].off,
					 "two root nodes (ids %" PRId64 " and %" PRId64 ")",
					 u->nodes[root].id, u->nodes[i].id);
			return -1;
		}
		root = (uint32_t)i;
	}
	if (root == UINT32_MAX) {
		pt_diag_error_at(r->j.d, u->nodes[0].off,
				 "no root node: the parent links form a cycle");
		return -1;
	}
	for (i = 0; i < u->nnodes; i++)
		if (u->nodes[i].orphan && u->nodes[i].parent == UINT32_MAX)
			u->nodes[i].parent = root;
	*rootp = root;
	return 0;
}

/* the call-tree node of every node, walking up with an explicit chain; 0, or -1 on a
 * cycle */
static int place_nodes(struct reader *r, struct unit *u, struct cfcache *frames, uint32_t root)
{
	struct pt_profile *p = r->p;
	uint32_t *chain = NULL;
	uint8_t *state = NULL;
	size_t nchain = 0, chain_alloc = 0, i;

	/* call-tree node of every node, walking up with an explicit chain (no recursion);
	 * state: 0 new, 1 on the chain, 2 done (apart from the nodes: every byte per node
	 * costs, the node array is most of what a big profile's reading touches) */
	state = pt_xcalloc(u->nnodes, 1);
	{
		struct rnode *rt = &u->nodes[root];
		state[root] = 2;
		if (!strcmp(pt_s(p, rt->name), "(root)")) {
			rt->frame = 0;
			rt->ptnode = 0;
		} else {
			rt->frame = node_frame(r, u, rt);
			rt->ptnode = pt_profile_child(p, 0, rt->frame);
		}
	}
	for (i = 0; i < u->nnodes; i++) {
		uint32_t j = (uint32_t)i;
		nchain = 0;
		while (state[j] == 0) {
			state[j] = 1;
			PT_ALLOC_GROW(chain, nchain + 1, chain_alloc);
			chain[nchain++] = j;
			j = u->nodes[j].parent;
		}
		if (state[j] == 1) {
			pt_diag_error_at(r->j.d, u->nodes[j].off,
					 "cycle in the node tree (through node id %" PRId64 ")",
					 u->nodes[j].id);
			free(chain);
			free(state);
			return -1;
		}
		while (nchain) {
			struct rnode *n = &u->nodes[chain[--nchain]];
			n->frame = node_frame_cached(r, u, frames, n);
			n->ptnode = pt_profile_child(p, u->nodes[n->parent].ptnode, n->frame);
			state[chain[nchain]] = 2;
		}
	}

	free(chain);
	free(state);
	return 0;
}

/* positionTicks, grouped per node */
static void group_ticks(struct unit *u)
{
	size_t i;

	if (!u->nticks)
		return;
	/* they come in node order from a .cpuprofile: sort only if not */
	for (i = 1; i < u->nticks && cmp_tick(&u->ticks[i - 1], &u->ticks[i]) < 0; i++)
		;
	if (i < u->nticks)
		qsort(u->ticks, u->nticks, sizeof(*u->ticks), cmp_tick);
	for (i = u->nticks; i-- > 0;) {
		u->nodes[u->ticks[i].node].ticks = (uint32_t)i;
		u->nodes[u->ticks[i].node].nticks++;
	}
}

/* no samples array: hitCount is all there is (no timeline, no time) */
static int add_hit_counts(struct reader *r, struct unit *u, uint32_t labels)
{
	struct pt_profile *p = r->p;
	size_t i;

	for (i = 0; i < u->nnodes; i++) {
		struct rnode *n = &u->nodes[i];
		int64_t left = n->hit_count == NO_VALUE ? 0 : n->hit_count;
		uint32_t k;
		if (left < 0) {
			pt_diag_error_at(r->j.d, n->off, "negative hitCount in node %" PRId64,
					 n->id);
			return -1;
		}
		for (k = 0; k < n->nticks && left > 0; k++) {
			struct tick *t = &u->ticks[n->ticks + k];
			int64_t c = t->ticks < left ? t->ticks : left;
			if (t->line <= 0 || c <= 0 || !n->frame)
				continue;
			pt_profile_add_value(
				p,
				pt_profile_child(p, parent_ptnode(u, n), line_frame(p, n, t->line)),
				labels, 0, c);
			left -= c;
		}
		if (left > 0)
			pt_profile_add_value(p, n->ptnode, labels, 0, left);
	}
	return 0;
}

/* the times array and the samples go together */
static int check_times(struct reader *r, struct unit *u)
{
	if (u->has_deltas && u->ndeltas != u->nsamples) {
		pt_diag_error_at(r->j.d, u->deltas_off,
				 "'timeDeltas' and 'samples' differ in length (%zu and %zu)",
				 u->ndeltas, u->nsamples);
		return -1;
	}
	/* v8-profiler-node8 writes one timestamp more than samples: samples go with the
	 * timestamps of their index, the last is left over (as speedscope reads it) */
	if (u->has_timestamps && u->ndeltas == u->nsamples + 1)
		u->ndeltas--;
	if (u->has_timestamps && u->ndeltas != u->nsamples) {
		pt_diag_error_at(r->j.d, u->deltas_off,
				 "'timestamps' and 'samples' differ in length (%zu and %zu)",
				 u->ndeltas, u->nsamples);
		return -1;
	}
	return 0;
}

/* node n is V8's top-level "(garbage collector)" node */
static int is_gc_node(const struct pt_profile *p, const struct unit *u, const struct rnode *n)
{
	return parent_ptnode(u, n) == 0 && n->frame && !*pt_s(p, n->url) &&
	       !strcmp(pt_s(p, n->name), "(garbage collector)");
}

/* The samples of a unit in time order, each weighed once the next one's time is known.
 * In time order already (the usual case) each goes into the profile at once; otherwise
 * node and weight wait in arrays for the input's order. */
struct weigh {
	struct pt_profile *p;
	struct unit *u;
	const int64_t *tm; /* each sample's time (microseconds), NULL if all are 0 */
	uint32_t *node;	   /* out of order: each sample's node, UINT32_MAX left out */
	int64_t *dur;	   /* out of order: each sample's weight */
	uint32_t labels, prev_node;
	int prev_gc, with_time;
	int64_t origin;
};

/* the call-tree node of sample s, node nd: with its line, if it has one (a trace's
 * `lines` entry, else the next of the node's positionTicks lines, one per sample) */
static uint32_t sample_node(struct pt_profile *p, struct unit *u, struct rnode *nd, size_t s)
{
	int64_t line = 0;

	if (u->nlines == u->nsamples && u->lines)
		line = u->lines[s];
	while (!line && nd->nticks) {
		struct tick *tk = &u->ticks[nd->ticks];
		if (tk->ticks > 0 && tk->line > 0) {
			tk->ticks--;
			line = tk->line;
		} else {
			nd->ticks++;
			nd->nticks--;
		}
	}
	if (line > 0 && nd->frame)
		return pt_profile_child(p, parent_ptnode(u, nd), line_frame(p, nd, line));
	return nd->ptnode;
}

/* sample s (node index ni), the next one in time order at time next */
static void weigh_one(struct weigh *w, size_t s, uint32_t ni, int64_t next)
{
	struct rnode *nd = &w->u->nodes[ni];
	int gc = nd->gc;
	int64_t v[2], t;
	uint32_t node;

	if (gc && w->prev_gc)
		node = w->prev_node; /* the same collection goes on */
	else if (gc)
		node = pt_profile_child(w->p, w->prev_node, nd->frame);
	else
		node = sample_node(w->p, w->u, nd, s);
	w->prev_node = node;
	w->prev_gc = gc;
	v[0] = 1;
	t = w->tm ? w->tm[s] : 0;
	v[1] = w->with_time && next > t ? pt_sub(next, t) : 0; /* saturates */
	if (w->node) {
		w->node[s] = node;
		w->dur[s] = v[1];
		return;
	}
	pt_profile_add_sample(w->p, node, w->labels, v, sat_mul1000(pt_sub(t, w->origin)));
}

/* The samples of unit u, each at its own time; a sample's weight is the time to the next
 * one in time order and the last one's the time to endTime. The timeline keeps the
 * input's order. Chrome DevTools' rules (CPUProfileDataModel): V8 records a few samples
 * out of time order (negative time deltas), and DevTools sorts them by time before
 * weighing them; a "(garbage collector)" sample goes on top of the stack of the sample
 * before it, as V8 takes no stack while it collects: the collection runs inside the
 * JavaScript that allocated. Under --lenient the time of samples left out goes to the
 * kept sample before them. */
static int add_samples(struct reader *r, struct unit *u, const struct idmap *ids, int with_time,
		       int64_t origin, uint32_t labels, int64_t *last)
{
	struct pt_profile *p = r->p;
	int timed = u->has_deltas || u->has_timestamps, sorted = 1, ret = -1;
	/* times in microseconds */
	int64_t start = u->start != NO_VALUE ? u->start / 1000 : 0;
	int64_t end = u->end != NO_VALUE ? u->end / 1000 : NO_VALUE;
	int64_t raw, tmax = INT64_MIN, prev_t = INT64_MIN, *tm;
	struct pt_keyed *ord = NULL, *tmp = NULL, *by_time;
	struct weigh w;
	size_t s, k, n = 0, pending = SIZE_MAX;

	if (u->legacy && u->start != NO_VALUE)
		start = legacy_us(u->start);
	if (u->legacy && u->end != NO_VALUE)
		end = legacy_us(u->end);
	raw = start;
	/* the times take the place of the deltas they are summed from: no array more */
	tm = timed ? u->deltas : NULL;
	memset(&w, 0, sizeof(w));
	w.p = p;
	w.u = u;
	w.tm = tm;
	w.labels = labels;
	w.with_time = with_time && timed;
	w.origin = origin;

	for (k = 0; k < u->nnodes; k++)
		u->nodes[k].gc = (uint8_t)is_gc_node(p, u, &u->nodes[k]);
	/* the times, and which samples are left out: each sample's id becomes its node's
	 * index (UINT32_MAX, left out), looked up once */
	for (s = 0; s < u->nsamples; s++) {
		uint32_t ni = idmap_get(ids, u->samples[s]);
		int64_t t = 0;
		if (u->has_deltas) {
			raw = pt_add(raw, u->deltas[s]);
			t = u->deltas[s] = raw;
		} else if (u->has_timestamps) {
			t = u->deltas[s];
		}
		if (t > tmax)
			tmax = t;
		if (ni == UINT32_MAX) {
			if (!r->lenient) {
				pt_diag_error_at(r->j.d, u->samples_off,
						 "unknown node id %" PRId64
						 " in samples (entry %zu)" LENIENT_HINT,
						 u->samples[s], s);
				goto out;
			}
			pt_diag_dangling(r->j.d, u->samples_off); /* its time still passes */
			u->samples[s] = UINT32_MAX;
			continue;
		}
		u->samples[s] = ni;
		n++;
		if (t < prev_t)
			sorted = 0;
		prev_t = t;
		if (timed && t > *last)
			*last = t;
	}
	/* after the last sample: endTime, or the last sample left out if one is later */
	if (end == NO_VALUE)
		end = tmax;

	if (sorted) {
		for (s = 0; s < u->nsamples; s++) {
			if ((uint32_t)u->samples[s] == UINT32_MAX)
				continue;
			if (pending != SIZE_MAX)
				weigh_one(&w, pending, (uint32_t)u->samples[pending],
					  tm ? tm[s] : 0);
			pending = s;
		}
		if (pending != SIZE_MAX)
			weigh_one(&w, pending, (uint32_t)u->samples[pending], end);
		ret = 0;
		goto out;
	}

	/* out of time order: weighed in time order (stable: equal times keep the input's
	 * order), then put in the input's order */
	ord = pt_xreallocarray(NULL, n, sizeof(*ord));
	tmp = pt_xreallocarray(NULL, n, sizeof(*tmp));
	w.node = pt_xreallocarray(NULL, u->nsamples, sizeof(*w.node));
	w.dur = pt_xreallocarray(NULL, u->nsamples, sizeof(*w.dur));
	for (s = 0, k = 0; s < u->nsamples; s++) {
		w.node[s] = UINT32_MAX;
		if ((uint32_t)u->samples[s] == UINT32_MAX)
			continue;
		/* the key orders int64 times as unsigned numbers */
		ord[k].key = (uint64_t)tm[s] ^ UINT64_C(0x8000000000000000); /* sorted if !tm */
		ord[k].x = 0;
		ord[k].a = (uint32_t)s;
		ord[k++].b = 0;
	}
	by_time = pt_sort_keyed(ord, tmp, n, 64);
	for (k = 0; k < n; k++) {
		s = by_time[k].a;
		weigh_one(&w, s, (uint32_t)u->samples[s], k + 1 < n ? tm[by_time[k + 1].a] : end);
	}
	for (s = 0; s < u->nsamples; s++) {
		int64_t v[2];
		if (w.node[s] == UINT32_MAX)
			continue;
		v[0] = 1;
		v[1] = w.dur[s];
		pt_profile_add_sample(p, w.node[s], labels, v, sat_mul1000(pt_sub(tm[s], origin)));
	}
	ret = 0;
out:
	free(ord);
	free(tmp);
	free(w.node);
	free(w.dur);
	return ret;
}

int pt_cpuprofile_build_unit(struct reader *r, struct unit *u, int with_time, int64_t origin,
			     uint32_t labels, int64_t *last)
{
	struct idmap ids;
	struct cfcache frames;
	uint32_t root = UINT32_MAX;
	int ret = -1;

	idmap_init(&ids, u);
	memset(&frames, 0, sizeof(frames));
	pt_map_init(&frames.map);
	if (link_nodes(r, u, &ids, &root) < 0 || place_nodes(r, u, &frames, root) < 0)
		goto out;
	group_ticks(u);
	if (!u->has_samples)
		ret = add_hit_counts(r, u, labels);
	else if (check_times(r, u) == 0)
		ret = add_samples(r, u, &ids, with_time, origin, labels, last);
out:
	idmap_release(&ids);
	pt_map_release(&frames.map);
	free(frames.v);
	return ret;
}

/* the earliest start of any unit, in microseconds (timeline origin) */
int64_t pt_cpuprofile_unit_start_us(const struct unit *u)
{
	if (u->legacy) {
		if (u->has_timestamps && u->ndeltas)
			return u->deltas[0];
		return u->start != NO_VALUE ? legacy_us(u->start) : 0;
	}
	return u->start != NO_VALUE ? u->start / 1000 : 0;
}
