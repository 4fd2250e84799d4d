/* filter.c: transforms that rebuild a profile: filters, granularity, merge.
 *
 * Every pass decides, for each node of the old tree (in id order, so a parent is seen
 * before its children and no recursion is needed), whether the node keeps its frame
 * (a child of its parent's new node), merges into its parent's new node (hide, show,
 * prune_from, show_from), or into an ancestor (collapse_recursion), and which sample
 * rows survive. New nodes are created only for nodes that lead to a kept row, so the
 * result has no empty branches. Rows carry their labels; events follow their rows. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/pattern.h"
#include "analysis/filter.h"
#include "util/text.h"
#include "core/units.h"
#include "core/xlat.h"
#include "util/xalloc.h"

#define NONE UINT32_MAX

/* everything but the tree, rows and timeline */
static void copy_header(struct pt_xlat *x)
{
	const struct pt_profile *s = x->src;
	struct pt_profile *d = x->dst;
	uint32_t t;
	size_t i;

	d->format = s->format;
	d->totals_in_meta = s->totals_in_meta;
	d->keep_timeline = s->keep_timeline;
	for (t = 0; t < s->ntypes; t++) {
		pt_profile_add_type(d, pt_s(s, s->types[t].name), pt_s(s, s->types[t].unit));
		d->types[t].decimals = s->types[t].decimals;
	}
	d->default_type = s->default_type;
	memcpy(d->emptied, s->emptied, sizeof(d->emptied));
	d->period_type.name = pt_xlat_str(x, s->period_type.name);
	d->period_type.unit = pt_xlat_str(x, s->period_type.unit);
	d->period_type.decimals = s->period_type.decimals;
	d->period = s->period;
	d->no_stacks_reason = s->no_stacks_reason;
	d->time_nanos = s->time_nanos;
	d->duration_nanos = s->duration_nanos;
	d->drop_frames = pt_xlat_str(x, s->drop_frames);
	d->keep_frames = pt_xlat_str(x, s->keep_frames);
	for (i = 0; i < s->ncomments; i++)
		pt_profile_add_comment(d, pt_s(s, s->comments[i]));
	for (i = 0; i < s->nmeta; i++)
		pt_profile_add_meta(d, pt_s(s, s->meta[i].key), pt_s(s, s->meta[i].value));
}

/* add values (of src's width, translated by type_map) to a row; returns the row */
static uint32_t add_row(struct pt_profile *d, uint32_t node, uint32_t labels, const int64_t *v,
			uint32_t nv, const uint32_t *type_map)
{
	uint32_t t;
	for (t = 0; t < nv; t++)
		if (!type_map || type_map[t] != PT_TYPE_SKIP)
			pt_profile_add_value(d, node, labels, type_map ? type_map[t] : t, v[t]);
	return pt_map_get(&d->sample_index, (uint64_t)node << 32 | labels);
}

static void push_event(struct pt_profile *d, uint32_t row, int64_t time, const int64_t *v,
		       uint32_t nv, const uint32_t *type_map)
{
	size_t e = d->nevents;
	uint32_t t;

	if (e + 1 > d->events_alloc) {
		PT_ALLOC_GROW(d->events, e + 1, d->events_alloc);
		d->event_values = pt_xreallocarray(d->event_values, d->events_alloc,
						   (d->ntypes ? d->ntypes : 1) * sizeof(int64_t));
	}
	d->events[e].sample = row;
	d->events[e].pad = 0;
	d->events[e].time = time;
	memset(d->event_values + e * d->ntypes, 0, d->ntypes * sizeof(int64_t));
	for (t = 0; t < nv; t++)
		if (!type_map || type_map[t] != PT_TYPE_SKIP)
			d->event_values[e * d->ntypes + (type_map ? type_map[t] : t)] = v[t];
	d->nevents++;
}

/* 1 if every input record has its event, so kept events count kept records */
static int timeline_complete(const struct pt_profile *p)
{
	return p->nevents && p->nevents == p->nrecords;
}

/* ---- one pass: node plan -> new profile ---- */

enum {
	N_MERGE = 1 << 0,    /* the node's new node is its parent's */
	N_DROPROWS = 1 << 1, /* rows at this node are dropped */
	N_ATROOT = 1 << 2,   /* the new node is the root (only merges above it) */
	N_HIT = 1 << 3,	     /* a match on the path (inherited) */
	N_NEEDED = 1 << 4,   /* leads to a kept row */
};

struct plan {
	uint8_t *flags;	    /* per old node */
	uint32_t *target;   /* per old node: merge into this ancestor (collapse), or NONE */
	uint8_t *row_ok;    /* per old row, NULL = all (subject to N_DROPROWS) */
	int drop_root_rows; /* rows whose new node is the root are dropped (hide/show) */
	int from_events;    /* rebuild the rows from the kept events (time window) */
	uint8_t *event_ok;  /* per event, with from_events */
	uint32_t (*frame_map)(struct pt_xlat *x, uint32_t frame, void *ctx); /* NULL: x_frame */
	void *frame_ctx;
};

static int row_kept(const struct pt_profile *p, const struct plan *pl, uint32_t r)
{
	uint8_t f = pl->flags[p->samples[r].node];
	if (f & N_DROPROWS)
		return 0;
	if (pl->drop_root_rows && (f & N_ATROOT))
		return 0;
	return !pl->row_ok || pl->row_ok[r];
}

/* a row dropped only because hide/show left its stack without frames */
static int row_emptied(const struct pt_profile *p, const struct plan *pl, uint32_t r)
{
	uint8_t f = pl->flags[p->samples[r].node];
	return pl->drop_root_rows && (f & N_ATROOT) && !(f & N_DROPROWS) &&
	       (!pl->row_ok || pl->row_ok[r]);
}

static void add_emptied(struct pt_profile *np, const int64_t *v)
{
	uint32_t t;
	for (t = 0; t < np->ntypes; t++)
		np->emptied[t] = pt_add(np->emptied[t], v[t]);
}

static void build(const struct pt_profile *p, struct pt_profile *np, struct plan *pl)
{
	struct pt_xlat x;
	uint32_t *newnode = pt_xlat_unset(p->nnodes), *newrow = pt_xlat_unset(p->nsamples);
	uint32_t n, r;
	size_t e;

	pt_profile_init(np);
	pt_xlat_init(&x, p, np);
	x.keep_ident = 1;
	copy_header(&x);

	/* which nodes lead to a kept row: children have larger ids than parents */
	if (pl->from_events) {
		for (e = 0; e < p->nevents; e++)
			if (pl->event_ok[e])
				pl->flags[p->samples[p->events[e].sample].node] |= N_NEEDED;
	} else {
		for (r = 0; r < p->nsamples; r++)
			if (row_kept(p, pl, r))
				pl->flags[p->samples[r].node] |= N_NEEDED;
	}
	for (n = p->nnodes; n-- > 1;)
		if (pl->flags[n] & N_NEEDED)
			pl->flags[p->nodes[n].parent] |= N_NEEDED;

	newnode[0] = 0;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t par = p->nodes[n].parent, fr;
		if (!(pl->flags[n] & N_NEEDED))
			continue;
		if (pl->target && pl->target[n] != NONE) {
			newnode[n] = newnode[pl->target[n]];
		} else if (pl->flags[n] & N_MERGE) {
			newnode[n] = newnode[par];
		} else {
			fr = pl->frame_map ? pl->frame_map(&x, p->nodes[n].frame, pl->frame_ctx)
					   : pt_xlat_frame(&x, p->nodes[n].frame);
			newnode[n] = pt_profile_child(np, newnode[par], fr);
		}
	}

	if (pl->from_events) {
		uint64_t kept = 0;
		for (e = 0; e < p->nevents; e++) {
			const struct pt_sample *s = &p->samples[p->events[e].sample];
			const int64_t *v = p->event_values + e * p->ntypes;
			uint32_t row;
			if (!pl->event_ok[e])
				continue;
			row = add_row(np, newnode[s->node], pt_xlat_labels(&x, s->labels), v,
				      p->ntypes, NULL);
			push_event(np, row, p->events[e].time, v, p->ntypes, NULL);
			kept++;
		}
		np->nrecords = kept;
	} else {
		uint64_t kept = 0;
		for (r = 0; r < p->nsamples; r++)
			if (row_kept(p, pl, r))
				newrow[r] = add_row(np, newnode[p->samples[r].node],
						    pt_xlat_labels(&x, p->samples[r].labels),
						    p->sample_values + (size_t)r * p->ntypes,
						    p->ntypes, NULL);
			else if (row_emptied(p, pl, r))
				add_emptied(np, p->sample_values + (size_t)r * p->ntypes);
		for (e = 0; e < p->nevents; e++) {
			uint32_t row = newrow[p->events[e].sample];
			if (row == NONE)
				continue;
			push_event(np, row, p->events[e].time, p->event_values + e * p->ntypes,
				   p->ntypes, NULL);
			kept++;
		}
		np->nrecords = timeline_complete(p) ? kept : p->nrecords;
	}
	pt_xlat_release(&x);
	free(newnode);
	free(newrow);
}

/* ---- matching ---- */

struct matcher {
	struct pt_pattern *re;
	const struct pt_profile *p;
	int match_file;
	uint8_t *cache;	   /* per string id: 0 unknown, 1 no, 2 yes (functions share names and
			    * files, so each string is matched once) */
	struct pt_diag *d; /* filled when a match is too costly */
};

static int matcher_init(struct matcher *m, const char *opt, const char *re,
			const struct pt_profile *p, int match_file, struct pt_diag *d)
{
	char msg[256];

	memset(m, 0, sizeof(*m));
	if (!(m->re = pt_pattern_compile(re, msg, sizeof(msg))))
		return pt_diag_error(d, "bad regular expression '%s' for --%s: %s", re, opt, msg);
	m->p = p;
	m->match_file = match_file;
	m->cache = p ? pt_xcalloc(p->strings.n ? p->strings.n : 1, 1) : NULL;
	m->d = d;
	return 0;
}

static void matcher_release(struct matcher *m)
{
	pt_pattern_free(m->re);
	free(m->cache);
}

/* 1 or 0, or -1 when a match is too costly (m->d filled) */
static int str_matches(struct matcher *m, uint32_t s)
{
	if (!m->cache[s]) {
		int hit = pt_pattern_match(m->re, pt_s(m->p, s), pt_intern_len(&m->p->strings, s),
					   m->d);
		if (hit < 0)
			return -1;
		m->cache[s] = hit ? 2 : 1;
	}
	return m->cache[s] == 2;
}

static int func_matches(struct matcher *m, uint32_t func)
{
	const struct pt_func *f = &m->p->funcs[func];
	int hit = str_matches(m, f->name);
	if (!hit && m->match_file && f->file)
		hit = str_matches(m, f->file);
	return hit;
}

static int node_matches(struct matcher *m, uint32_t n)
{
	return n ? func_matches(m, pt_frame_of(m->p, n)->func) : 0;
}

/* ---- the filters ---- */

enum kind { K_FOCUS, K_IGNORE, K_SHOW_FROM, K_HIDE, K_SHOW, K_PRUNE_FROM };

static const char *const kind_opt[] = {"focus", "ignore", "show-from",
				       "hide",	"show",	  "prune-from"};

/* -1 when a match is too costly (m->d filled) */
static int plan_regex(const struct pt_profile *p, struct plan *pl, enum kind k, struct matcher *m)
{
	uint32_t n;

	pl->flags[0] = N_ATROOT;
	for (n = 1; n < p->nnodes; n++) {
		uint32_t par = p->nodes[n].parent;
		uint8_t pf = pl->flags[par], f = 0;
		int hit = node_matches(m, n);
		if (hit < 0)
			return -1;
		switch (k) {
		case K_FOCUS:
		case K_IGNORE:
			if ((pf & N_HIT) || hit)
				f |= N_HIT;
			if ((k == K_FOCUS) != !!(f & N_HIT))
				f |= N_DROPROWS;
			break;
		case K_SHOW_FROM:
			/* above the rootmost match: merged into the root, rows dropped */
			if ((pf & N_HIT) || hit)
				f |= N_HIT;
			else
				f |= N_MERGE | N_DROPROWS;
			break;
		case K_HIDE:
		case K_SHOW:
			if ((k == K_HIDE) == !!hit)
				f |= N_MERGE;
			break;
		case K_PRUNE_FROM:
			/* below the rootmost match: merged into it */
			if (pf & N_HIT)
				f |= N_MERGE | N_HIT;
			else if (hit)
				f |= N_HIT;
			break;
		}
		if ((f & N_MERGE) && (pf & N_ATROOT))
			f |= N_ATROOT;
		pl->flags[n] = f;
	}
	pl->drop_root_rows = k == K_HIDE || k == K_SHOW;
	/* a row at the root itself has no frame to match */
	if (k == K_FOCUS || k == K_SHOW_FROM)
		pl->flags[0] |= N_DROPROWS;
	return 0;
}

/* collapse_recursion: a function already on the (folded) path sends the walk back to
 * that earlier node, so A;B;A;B becomes A;B. Iterative DFS with an undo log, since the
 * folded path shrinks and regrows as the walk moves through the tree. */
struct fold_entry {
	uint32_t node, func;
};

static void plan_fold(const struct pt_profile *p, struct plan *pl)
{
	struct fold_entry *path = NULL, *undo = NULL;
	size_t npath = 0, path_alloc = 0, nundo = 0, undo_alloc = 0;
	uint32_t *pos = pt_xlat_unset(p->nfuncs), *undo_mark = pt_xlat_unset(p->nnodes);
	uint8_t *pushed = pt_xcalloc(p->nnodes ? p->nnodes : 1, 1);
	uint32_t n;

	pl->target = pt_xlat_unset(p->nnodes);
	n = p->nodes[0].first_child;
	while (n) {
		uint32_t fn = pt_frame_of(p, n)->func;
		/* enter n */
		if (pos[fn] != NONE) {
			size_t k = pos[fn] + 1;
			pl->target[n] = path[pos[fn]].node;
			undo_mark[n] = (uint32_t)nundo;
			PT_ALLOC_GROW(undo, nundo + (npath - k), undo_alloc);
			while (npath > k) {
				undo[nundo++] = path[--npath];
				pos[path[npath].func] = NONE;
			}
		} else {
			PT_ALLOC_GROW(path, npath + 1, path_alloc);
			path[npath].node = n;
			path[npath].func = fn;
			pos[fn] = (uint32_t)npath++;
			pushed[n] = 1;
		}
		if (p->nodes[n].first_child) {
			n = p->nodes[n].first_child;
			continue;
		}
		/* leave n and every ancestor whose children are all done */
		while (n) {
			if (pushed[n]) {
				npath--;
				pos[path[npath].func] = NONE;
			} else {
				while (nundo > undo_mark[n]) {
					path[npath] = undo[--nundo];
					pos[path[npath].func] = (uint32_t)npath;
					npath++;
				}
			}
			if (p->nodes[n].next_sibling) {
				n = p->nodes[n].next_sibling;
				break;
			}
			n = p->nodes[n].parent;
		}
	}
	free(path);
	free(undo);
	free(pos);
	free(undo_mark);
	free(pushed);
}

/* ---- labels ---- */

/* one match of pprof's tagFilterRangeRx, ([+-]?[[:digit:]]+)([[:alpha:]]+)?, found from
 * s[*at] on: its start and end, the number and its unit; 0 if none or the number does
 * not fit (pprof would panic there) */
struct range_num {
	size_t start, end;
	long long v;
	char unit[16];
};

static int range_find(const char *s, size_t from, struct range_num *m)
{
	size_t i, j, k;
	char *end;

	for (i = from; s[i]; i++) {
		j = i + ((s[i] == '+' || s[i] == '-') && s[i + 1] >= '0' && s[i + 1] <= '9');
		if (s[j] >= '0' && s[j] <= '9')
			break;
	}
	if (!s[i])
		return 0;
	for (j = i + (s[i] == '+' || s[i] == '-'); s[j] >= '0' && s[j] <= '9'; j++)
		;
	for (k = j; (s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z'); k++)
		;
	errno = 0;
	m->v = strtoll(s + i, &end, 10);
	if (errno || end != s + j || k - j >= sizeof(m->unit))
		return 0;
	memcpy(m->unit, s + j, k - j);
	m->unit[k - j] = '\0';
	m->start = i;
	m->end = k;
	return 1;
}

/* pprof's parseTagFilterRange: c->value as a range, or c->range left 0 (a bare
 * number without a unit stays a plain value, equal to a string or a number) */
static void parse_range(struct pt_tag_cond *c)
{
	const char *s = c->value, *unit;
	size_t n = strlen(s);
	struct range_num a, b;
	int two;

	if (!range_find(s, 0, &a))
		return;
	two = range_find(s, a.end, &b);
	c->lo = c->hi = pt_pprof_scale(a.v, a.unit, a.unit, &unit);
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	if (two) {
		if (a.start || s[a.end] != ':' || b.start != a.end + 1 || b.end != n)
			return;
		c->hi = pt_pprof_scale(b.v, b.unit, c->unit, &unit);
		if (strcmp(unit, c->unit))
			return;
		c->range = c->has_lo = c->has_hi = 1;
	} else if (a.start == 0 && a.end == n) {
		/* "2kb" is a range of one value; "2" stays a plain value */
		c->range = c->has_lo = c->has_hi = a.unit[0] != '\0';
	} else if (a.start == 0 && a.end + 1 == n && s[a.end] == ':') {
		c->range = c->has_lo = 1;
	} else if (a.start == 1 && a.end == n && s[0] == ':') {
		c->range = c->has_hi = 1;
	}
}

static int label_in_range(const struct pt_profile *p, const struct pt_label *l,
			  const struct pt_tag_cond *c)
{
	const char *unit;
	double v;

	if (l->str)
		return 0;
	v = pt_pprof_scale(l->num, pt_pprof_num_label_unit(p, l), c->unit, &unit);
	return !strcmp(unit, c->unit) && (!c->has_lo || v >= c->lo) && (!c->has_hi || v <= c->hi);
}

static int label_matches(const struct pt_profile *p, const struct pt_label *l,
			 const struct pt_tag_cond *c)
{
	if (pt_intern_len(&p->strings, l->key) != c->keylen ||
	    memcmp(pt_s(p, l->key), c->key, c->keylen))
		return 0;
	if (c->range)
		return label_in_range(p, l, c);
	if (l->str)
		return !strcmp(pt_s(p, l->str), c->value);
	{
		char *end;
		long long v;
		if (!*c->value)
			return 0;
		v = strtoll(c->value, &end, 10);
		if (*end) {
			/* "1.0" or "1e3": compare as a double */
			double dv = strtod(c->value, &end);
			return !*end && dv == (double)l->num;
		}
		return v == l->num;
	}
}

static int labelset_ok(const struct pt_profile *p, uint32_t ls, const struct pt_filter *f)
{
	const struct pt_labelset *s = &p->labelsets[ls];
	uint32_t g, i;
	size_t c;

	for (g = 0; g < f->ngroups; g++) {
		int ok = 0;
		for (c = 0; c < f->ntags && !ok; c++) {
			if (f->tags[c].group != g)
				continue;
			for (i = 0; i < s->n && !ok; i++)
				ok = label_matches(p, &s->v[i], &f->tags[c]);
		}
		if (!ok)
			return 0;
	}
	for (c = 0; c < f->ntags; c++) {
		if (!f->tags[c].ignore)
			continue;
		for (i = 0; i < s->n; i++)
			if (label_matches(p, &s->v[i], &f->tags[c]))
				return 0;
	}
	return 1;
}

/* ---- the filter object ---- */

void pt_filter_init(struct pt_filter *f)
{
	memset(f, 0, sizeof(*f));
}

static int add_cond(struct pt_filter *f, const char *key, size_t keylen, const char *value,
		    uint32_t group, int from_tag)
{
	struct pt_tag_cond *c;
	if (f->ntags == PT_FILTER_MAX_TAGS)
		return -1;
	c = &f->tags[f->ntags++];
	c->key = key;
	c->keylen = keylen;
	c->value = value;
	c->group = group;
	c->from_tag = from_tag;
	c->ignore = 0;
	c->range = 0;
	if (from_tag)
		parse_range(c);
	return 0;
}

int pt_filter_add_tag(struct pt_filter *f, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t i, klen;
	uint32_t group;

	if (!eq || eq == arg)
		return -1;
	klen = (size_t)(eq - arg);
	group = f->ngroups;
	for (i = 0; i < f->ntags; i++)
		if (f->tags[i].from_tag && f->tags[i].keylen == klen &&
		    !memcmp(f->tags[i].key, arg, klen)) {
			group = f->tags[i].group;
			break;
		}
	if (add_cond(f, arg, klen, eq + 1, group, 1) < 0)
		return -1;
	if (group == f->ngroups)
		f->ngroups++;
	return 0;
}

int pt_filter_add_tag_ignore(struct pt_filter *f, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || add_cond(f, arg, (size_t)(eq - arg), eq + 1, UINT32_MAX, 0) < 0)
		return -1;
	f->tags[f->ntags - 1].ignore = 1;
	parse_range(&f->tags[f->ntags - 1]);
	return 0;
}

int pt_filter_add_pid(struct pt_filter *f, const char *arg)
{
	if (add_cond(f, PT_LABEL_PID, strlen(PT_LABEL_PID), arg, f->ngroups, 0) < 0)
		return -1;
	f->ngroups++;
	return 0;
}

int pt_filter_add_thread(struct pt_filter *f, const char *arg)
{
	const char *s = arg;
	uint32_t g = f->ngroups;

	while (*s >= '0' && *s <= '9')
		s++;
	if (f->ntags + 2 > PT_FILTER_MAX_TAGS)
		return -1;
	if (*arg && !*s)
		add_cond(f, PT_LABEL_TID, strlen(PT_LABEL_TID), arg, g, 0);
	add_cond(f, PT_LABEL_THREAD, strlen(PT_LABEL_THREAD), arg, g, 0);
	if (add_cond(f, PT_LABEL_COMM, strlen(PT_LABEL_COMM), arg, g, 0) < 0)
		return -1;
	f->ngroups++;
	return 0;
}

int pt_filter_active(const struct pt_filter *f)
{
	return f->focus || f->ignore || f->hide || f->show || f->show_from || f->prune_from ||
	       f->ntags || f->collapse_recursion || f->has_time_from || f->has_time_to ||
	       f->tag_root || f->tag_leaf;
}

int pt_filter_needs_timeline(const struct pt_filter *f)
{
	return f->has_time_from || f->has_time_to;
}

static const char *kind_re(const struct pt_filter *f, enum kind k)
{
	switch (k) {
	case K_FOCUS:
		return f->focus;
	case K_IGNORE:
		return f->ignore;
	case K_SHOW_FROM:
		return f->show_from;
	case K_HIDE:
		return f->hide;
	case K_SHOW:
		return f->show;
	case K_PRUNE_FROM:
		return f->prune_from;
	}
	return NULL;
}

int pt_filter_check(const struct pt_filter *f, struct pt_diag *d)
{
	int k;
	for (k = K_FOCUS; k <= K_PRUNE_FROM; k++) {
		const char *re = kind_re(f, (enum kind)k);
		struct matcher m;
		if (!re)
			continue;
		if (matcher_init(&m, kind_opt[k], re, NULL, 0, d) < 0)
			return -1;
		matcher_release(&m);
	}
	return 0;
}

void pt_filter_log_init(struct pt_filter_log *l)
{
	memset(l, 0, sizeof(*l));
}

void pt_filter_log_release(struct pt_filter_log *l)
{
	size_t i;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].what);
		free(l->v[i].before);
		free(l->v[i].removed);
	}
	free(l->v);
	free(l->whole);
	free(l->main_file);
	free(l->main_build_id);
	memset(l, 0, sizeof(*l));
}

void pt_filter_log_describe(const struct pt_filter_log *l, const struct pt_profile *p, uint32_t t,
			    struct pt_buf *b)
{
	size_t i;

	for (i = 0; l && i < l->n; i++) {
		const struct pt_filter_step *s = &l->v[i];
		if (t >= l->ntypes)
			break;
		pt_buf_addstr(b, "Filter: ");
		pt_buf_add_printable(b, s->what, strlen(s->what));
		pt_buf_addstr(b, " removed ");
		pt_buf_add_scaled(b, p, t, s->removed[t]);
		pt_buf_addstr(b, " of ");
		pt_buf_add_scaled(b, p, t, s->before[t]);
		pt_buf_addstr(b, " (");
		pt_buf_add_pct(b, s->removed[t], s->before[t]);
		pt_buf_addstr(b, ")\n");
	}
}

static void log_step(struct pt_filter_log *l, const struct pt_profile *before,
		     const struct pt_profile *after, const char *what)
{
	struct pt_filter_step *s;
	uint32_t t;

	if (!l)
		return;
	PT_ALLOC_GROW(l->v, l->n + 1, l->alloc);
	s = &l->v[l->n++];
	l->ntypes = before->ntypes;
	s->what = pt_xstrdup(what);
	s->kind = PT_STEP_STACKS;
	s->before = pt_xcalloc(before->ntypes ? before->ntypes : 1, sizeof(int64_t));
	s->removed = pt_xcalloc(before->ntypes ? before->ntypes : 1, sizeof(int64_t));
	for (t = 0; t < before->ntypes; t++) {
		s->before[t] = pt_profile_total(before, t);
		s->removed[t] = s->before[t] - pt_profile_total(after, t);
	}
}

/* pprof's total (report.computeTotal): |value| summed per sample */
static void log_whole(struct pt_filter_log *l, const struct pt_profile *p)
{
	uint32_t t, i, m = pt_profile_main_mapping(p);

	if (m && *pt_s(p, p->mappings[m].file))
		l->main_file = pt_xstrdup(pt_s(p, p->mappings[m].file));
	if (m && p->mappings[m].build_id)
		l->main_build_id = pt_xstrdup(pt_s(p, p->mappings[m].build_id));
	l->ntypes = p->ntypes;
	l->whole = pt_xcalloc(p->ntypes ? p->ntypes : 1, sizeof(int64_t));
	for (t = 0; t < p->ntypes; t++) {
		int64_t sum = 0, v;
		for (i = 0; i < p->nsamples; i++) {
			v = p->sample_values[(size_t)i * p->stride + t];
			sum = pt_add(sum, v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v);
		}
		v = p->emptied[t];
		l->whole[t] = pt_add(sum, v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v);
	}
}

static void plan_init(struct plan *pl, const struct pt_profile *p)
{
	memset(pl, 0, sizeof(*pl));
	pl->flags = pt_xcalloc(p->nnodes ? p->nnodes : 1, 1);
}

static void plan_release(struct plan *pl)
{
	free(pl->flags);
	free(pl->target);
	free(pl->row_ok);
	free(pl->event_ok);
}

/* run one planned pass on *p, replacing it */
static void run_pass(struct pt_profile *p, struct plan *pl, struct pt_filter_log *log,
		     const char *what)
{
	struct pt_profile np;
	build(p, &np, pl);
	log_step(log, p, &np, what);
	pt_profile_release(p);
	*p = np;
	pt_profile_moved(p);
	plan_release(pl);
}

static void describe_time(struct pt_buf *b, const struct pt_filter *f)
{
	if (f->has_time_from)
		pt_buf_addf(b, "--time-from %g", f->time_from);
	if (f->has_time_to)
		pt_buf_addf(b, "%s--time-to %g", f->has_time_from ? " " : "", f->time_to);
}

static int time_window(struct pt_profile *p, const struct pt_filter *f, struct pt_filter_log *log,
		       struct pt_diag *d)
{
	struct plan pl;
	struct pt_buf what = PT_BUF_INIT;
	int64_t t0 = INT64_MAX;
	size_t e;

	/* readers of formats without time stamps (collapsed) record time 0 */
	for (e = 0; e < p->nevents; e++)
		if (p->events[e].time < t0)
			t0 = p->events[e].time;
	for (e = 0; e < p->nevents && !p->events[e].time; e++)
		;
	if (e == p->nevents)
		return pt_diag_error(d, "cannot apply --time-from/--time-to: the profile has no "
					"timeline (no timestamped samples)");
	plan_init(&pl, p);
	pl.from_events = 1;
	pl.event_ok = pt_xcalloc(p->nevents, 1);
	for (e = 0; e < p->nevents; e++) {
		double s = (double)(p->events[e].time - t0) / 1e9;
		pl.event_ok[e] = (!f->has_time_from || s >= f->time_from) &&
				 (!f->has_time_to || s < f->time_to);
	}
	describe_time(&what, f);
	run_pass(p, &pl, log, what.buf);
	if (log)
		log->v[log->n - 1].kind = PT_STEP_TIME;
	pt_buf_release(&what);
	return 0;
}

static void describe_tags(struct pt_buf *b, const struct pt_filter *f)
{
	uint32_t g;
	size_t i;

	pt_buf_addstr(b, "labels");
	for (g = 0; g < f->ngroups; g++) {
		const char *sep = " ";
		for (i = 0; i < f->ntags; i++)
			if (f->tags[i].group == g) {
				pt_buf_addf(b, "%s%.*s=%s", sep, (int)f->tags[i].keylen,
					    f->tags[i].key, f->tags[i].value);
				sep = "|";
			}
	}
	for (i = 0; i < f->ntags; i++)
		if (f->tags[i].ignore)
			pt_buf_addf(b, " not %.*s=%s", (int)f->tags[i].keylen, f->tags[i].key,
				    f->tags[i].value);
}

/* one legend line, "   NAME=VALUE", cut as pprof cuts it (80 bytes, then an ellipsis) */
static void legend_line(struct pt_buf *b, const char *line, size_t n)
{
	pt_buf_addstr(b, "   ");
	pt_buf_add(b, line, n > 80 ? 80 : n);
	pt_buf_addstr(b, n > 80 ? "\xe2\x80\xa6\n" : "\n");
}

/* "tagfocus=" or "tagignore=" and the conditions of one --tag group (KEY=V1,V2, as
 * pprof writes alternatives of one key) or of one --tag-ignore */
static void legend_tag(struct pt_buf *b, const struct pt_filter *f, size_t first)
{
	struct pt_buf line = PT_BUF_INIT;
	const struct pt_tag_cond *c0 = &f->tags[first];
	size_t i;

	pt_buf_addf(&line, "%s=%.*s=%s", c0->ignore ? "tagignore" : "tagfocus", (int)c0->keylen,
		    c0->key, c0->value);
	for (i = first + 1; !c0->ignore && i < f->ntags; i++)
		if (f->tags[i].from_tag && f->tags[i].group == c0->group)
			pt_buf_addf(&line, ",%s", f->tags[i].value);
	legend_line(b, line.buf, line.len);
	pt_buf_release(&line);
}

void pt_filter_pprof_legend(const struct pt_filter *f, struct pt_buf *b)
{
	/* pprof's order (driver.reportOptions) */
	static const struct {
		const char *name;
		enum kind k;
	} names[] = {{"focus", K_FOCUS},
		     {"ignore", K_IGNORE},
		     {"hide", K_HIDE},
		     {"show", K_SHOW},
		     {"show_from", K_SHOW_FROM}};
	size_t start = b->len, i, j;

	pt_buf_addstr(b, "Active filters:\n");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *re = kind_re(f, names[i].k);
		struct pt_buf line = PT_BUF_INIT;
		if (!re)
			continue;
		pt_buf_addf(&line, "%s=%s", names[i].name, re);
		legend_line(b, line.buf, line.len);
		pt_buf_release(&line);
	}
	for (i = 0; i < f->ntags; i++) {
		/* a --tag group once, at its first condition */
		for (j = 0; j < i && f->tags[i].from_tag; j++)
			if (f->tags[j].from_tag && f->tags[j].group == f->tags[i].group)
				break;
		if (f->tags[i].from_tag && j == i)
			legend_tag(b, f, i);
	}
	for (i = 0; i < f->ntags; i++)
		if (f->tags[i].ignore)
			legend_tag(b, f, i);
	if (b->len == start + strlen("Active filters:\n"))
		pt_buf_setlen(b, start);
}

/* ---- --tag-root, --tag-leaf: label values as frames (pprof's addLabelNodes) ---- */

#define MAX_TAG_KEYS 32

struct tag_keys {
	const char *k[MAX_TAG_KEYS];
	size_t len[MAX_TAG_KEYS], n;
};

/* "k1,k2": empty keys dropped (pprof's dropEmptyStrings), at most MAX_TAG_KEYS */
static void split_keys(const char *s, struct tag_keys *tk)
{
	tk->n = 0;
	while (s && *s && tk->n < MAX_TAG_KEYS) {
		size_t n = strcspn(s, ",");
		if (n) {
			tk->k[tk->n] = s;
			tk->len[tk->n++] = n;
		}
		s += n + (s[n] == ',');
	}
}

/* the frame for key k of label set ls: a function named by the values of k (strings,
 * then numbers scaled as pprof's ScaledLabel with their unit), joined by ",", in the
 * file k; "" (pprof's <unknown>) when the sample has no such label, as pprof adds it */
static uint32_t label_frame(struct pt_xlat *x, uint32_t ls, const char *k, size_t klen,
			    struct pt_buf *b)
{
	const struct pt_profile *p = x->src;
	const struct pt_labelset *set = ls ? &p->labelsets[ls] : NULL;
	struct pt_frame fr;
	uint32_t i, pass, file;

	pt_buf_reset(b);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; set && i < set->n; i++) {
			const struct pt_label *l = &set->v[i];
			if (pt_intern_len(&p->strings, l->key) != klen ||
			    memcmp(pt_s(p, l->key), k, klen) || (l->str ? 1u : 0u) != pass)
				continue;
			if (b->len)
				pt_buf_addch(b, ',');
			if (l->str)
				pt_buf_add(b, pt_s(p, l->str), pt_intern_len(&p->strings, l->str));
			else
				pt_buf_add_pprof_label(b, l->num,
						       l->num_unit ? pt_s(p, l->num_unit) : "",
						       l->num_unit ? "minimum" : "");
		}
	memset(&fr, 0, sizeof(fr));
	file = pt_strn(x->dst, k, klen);
	fr.func = pt_profile_func(x->dst, b->len ? pt_strn(x->dst, b->buf, b->len) : 0, 0, file, 0);
	return pt_profile_frame(x->dst, &fr);
}

/* the new node of old node n under anchor a (a new node), made with its path */
static uint32_t tag_path(const struct pt_profile *p, struct pt_xlat *x, struct pt_map *memo,
			 uint32_t a, uint32_t n, uint32_t **stack, size_t *alloc)
{
	size_t depth = 0;
	uint32_t at = a, *slot;

	/* up to the first old node already placed under a (or the root) */
	while (n) {
		uint32_t got = pt_map_get(memo, (uint64_t)a << 32 | n);
		if (got != UINT32_MAX) {
			at = got;
			break;
		}
		PT_ALLOC_GROW(*stack, depth + 1, *alloc);
		(*stack)[depth++] = n;
		n = p->nodes[n].parent;
	}
	while (depth--) {
		n = (*stack)[depth];
		at = pt_profile_child(x->dst, at, pt_xlat_frame(x, p->nodes[n].frame));
		slot = pt_map_put(memo, (uint64_t)a << 32 | n);
		*slot = at;
	}
	return at;
}

/* every row's stack with the label frames of f->tag_root above it (the first key
 * rootmost) and of f->tag_leaf below it (the last key leafmost); rows, labels and
 * events kept */
static void tag_frames(struct pt_profile *p, const struct pt_filter *f)
{
	struct tag_keys root, leaf;
	struct pt_profile np;
	struct pt_xlat x;
	struct pt_map memo;
	struct pt_buf b = PT_BUF_INIT;
	uint32_t *newrow = pt_xlat_unset(p->nsamples), *stack = NULL, r, i;
	size_t alloc = 0, e;
	uint64_t kept = 0;

	split_keys(f->tag_root, &root);
	split_keys(f->tag_leaf, &leaf);
	pt_profile_init(&np);
	pt_xlat_init(&x, p, &np);
	x.keep_ident = 1;
	copy_header(&x);
	pt_map_init(&memo);
	for (r = 0; r < p->nsamples; r++) {
		const struct pt_sample *s = &p->samples[r];
		uint32_t at = 0;
		for (i = 0; i < root.n; i++)
			at = pt_profile_child(
				&np, at, label_frame(&x, s->labels, root.k[i], root.len[i], &b));
		at = tag_path(p, &x, &memo, at, s->node, &stack, &alloc);
		for (i = 0; i < leaf.n; i++)
			at = pt_profile_child(
				&np, at, label_frame(&x, s->labels, leaf.k[i], leaf.len[i], &b));
		newrow[r] = add_row(&np, at, pt_xlat_labels(&x, s->labels),
				    p->sample_values + (size_t)r * p->ntypes, p->ntypes, NULL);
	}
	for (e = 0; e < p->nevents; e++) {
		push_event(&np, newrow[p->events[e].sample], p->events[e].time,
			   p->event_values + e * p->ntypes, p->ntypes, NULL);
		kept++;
	}
	np.nrecords = timeline_complete(p) ? kept : p->nrecords;
	pt_map_release(&memo);
	pt_buf_release(&b);
	pt_xlat_release(&x);
	free(stack);
	free(newrow);
	pt_profile_release(p);
	*p = np;
	pt_profile_moved(p);
}

int pt_filter_apply(struct pt_profile *p, const struct pt_filter *f, struct pt_filter_log *log,
		    struct pt_diag *d)
{
	const char *first = NULL;
	char doing[64];
	struct plan pl;
	int k;

	if (!pt_filter_active(f))
		return 0;
	if (pt_filter_check(f, d) < 0)
		return -1;
	if (f->focus)
		first = "--focus";
	else if (f->ignore)
		first = "--ignore";
	else if (f->hide)
		first = "--hide";
	else if (f->show)
		first = "--show";
	else if (f->show_from)
		first = "--show-from";
	else if (f->prune_from)
		first = "--prune-from";
	else if (f->ntags)
		first = "--tag";
	else if (f->collapse_recursion)
		first = "--collapse-recursion";
	else if (f->tag_root || f->tag_leaf)
		first = f->tag_root ? "--tag-root" : "--tag-leaf";
	else
		first = "--time-from/--time-to";
	snprintf(doing, sizeof(doing), "apply %s", first);
	if (pt_profile_need_stacks(p, doing, d) < 0)
		return -1;

	if (log && !log->whole)
		log_whole(log, p);
	if (f->tag_root || f->tag_leaf)
		tag_frames(p, f);
	if (pt_filter_needs_timeline(f) && time_window(p, f, log, d) < 0)
		return -1;
	if (f->ntags) {
		struct pt_buf what = PT_BUF_INIT;
		uint8_t *ls_ok = pt_xmalloc(p->nlabelsets ? p->nlabelsets : 1);
		uint32_t r, i;
		for (i = 0; i < p->nlabelsets; i++)
			ls_ok[i] = labelset_ok(p, i, f);
		plan_init(&pl, p);
		pl.row_ok = pt_xmalloc(p->nsamples ? p->nsamples : 1);
		for (r = 0; r < p->nsamples; r++)
			pl.row_ok[r] = ls_ok[p->samples[r].labels];
		free(ls_ok);
		describe_tags(&what, f);
		run_pass(p, &pl, log, what.buf);
		if (log)
			log->v[log->n - 1].kind = PT_STEP_LABELS;
		pt_buf_release(&what);
	}
	for (k = K_FOCUS; k <= K_PRUNE_FROM; k++) {
		const char *re = kind_re(f, (enum kind)k);
		struct pt_buf what = PT_BUF_INIT;
		struct matcher m;
		if (!re)
			continue;
		if (matcher_init(&m, kind_opt[k], re, p, f->match_file, d) < 0)
			return -1; /* checked above: cannot happen */
		plan_init(&pl, p);
		if (plan_regex(p, &pl, (enum kind)k, &m) < 0) {
			matcher_release(&m);
			plan_release(&pl);
			return -1;
		}
		matcher_release(&m);
		pt_buf_addf(&what, "--%s '%s'%s", kind_opt[k], re,
			    f->match_file ? " (names and files)" : "");
		run_pass(p, &pl, log, what.buf);
		pt_buf_release(&what);
	}
	if (f->collapse_recursion) {
		plan_init(&pl, p);
		plan_fold(p, &pl);
		run_pass(p, &pl, log, "--collapse-recursion");
	}
	return 0;
}

/* ---- granularity ---- */

static uint32_t gran_frame(struct pt_xlat *x, uint32_t id, void *ctx)
{
	const enum pt_granularity *g = ctx;
	const struct pt_frame *f = &x->src->frames[id];
	const struct pt_func *fn = &x->src->funcs[f->func];
	struct pt_frame nf;

	memset(&nf, 0, sizeof(nf));
	nf.mapping = pt_xlat_mapping(x, f->mapping);
	nf.flags = f->flags & ~(uint32_t)(PT_FRAME_INLINED | PT_FRAME_FOLDED);
	switch (*g) {
	case PT_GRAN_FILES: {
		uint32_t file = fn->file, name;
		if (!file && f->mapping)
			file = x->src->mappings[f->mapping].file;
		/* a frame needs a name: pprof prints "<unknown>" for no file either */
		name = file ? pt_xlat_str(x, file) : pt_str(x->dst, "<unknown>");
		nf.func = pt_profile_func(x->dst, name, 0, pt_xlat_str(x, file), 0);
		nf.flags &= ~(uint32_t)PT_FRAME_NO_SYMBOL;
		break;
	}
	case PT_GRAN_LINES:
		nf.func = pt_xlat_func(x, f->func);
		nf.line = f->line;
		break;
	default:
		nf.func = pt_xlat_func(x, f->func);
		break;
	}
	return pt_profile_frame(x->dst, &nf);
}

int pt_filter_granularity(struct pt_profile *p, enum pt_granularity g, struct pt_diag *d)
{
	struct plan pl;
	int at;

	if (g == PT_GRAN_ADDRESSES)
		return 0;
	/* a profile without stacks is at its table's granularity, the only one */
	if ((at = pt_aggregate_at(p, g, d)))
		return at < 0 ? -1 : 0;
	plan_init(&pl, p);
	pl.frame_map = gran_frame;
	pl.frame_ctx = &g;
	run_pass(p, &pl, NULL, NULL);
	return 0;
}

static const char *const granularity_names[] = {
	[PT_GRAN_FUNCTIONS] = "functions",
	[PT_GRAN_FILES] = "files",
	[PT_GRAN_LINES] = "lines",
	[PT_GRAN_ADDRESSES] = "addresses",
};

int pt_parse_granularity(const char *s, enum pt_granularity *g)
{
	size_t i;

	for (i = 0; i < sizeof(granularity_names) / sizeof(granularity_names[0]); i++)
		if (!strcmp(s, granularity_names[i])) {
			*g = (enum pt_granularity)i;
			return 0;
		}
	return -1;
}

const char *pt_granularity_name(enum pt_granularity g)
{
	return granularity_names[g];
}

/* ---- merge ---- */

static void shift_events(struct pt_profile *p, int64_t by)
{
	size_t e;
	if (by)
		for (e = 0; e < p->nevents; e++)
			p->events[e].time = pt_add(p->events[e].time, by);
}

void pt_profile_merge(struct pt_profile *dst, const struct pt_profile *src,
		      const uint32_t *type_map)
{
	struct pt_xlat x;
	uint32_t *newnode = pt_xlat_unset(src->nnodes), *newrow = pt_xlat_unset(src->nsamples);
	int64_t shift_src = 0;
	uint32_t n, r;
	size_t e, i, j;

	pt_xlat_init(&x, src, dst);

	/* one time base: the earlier start; the span covers both */
	if (src->time_nanos && dst->time_nanos) {
		int64_t start =
			dst->time_nanos < src->time_nanos ? dst->time_nanos : src->time_nanos;
		int64_t end_d = pt_add(dst->time_nanos, dst->duration_nanos);
		int64_t end_s = pt_add(src->time_nanos, src->duration_nanos);
		shift_events(dst, dst->time_nanos - start);
		shift_src = src->time_nanos - start;
		dst->time_nanos = start;
		dst->duration_nanos = (end_d > end_s ? end_d : end_s) - start;
	} else {
		if (!dst->time_nanos)
			dst->time_nanos = src->time_nanos;
		if (src->duration_nanos > dst->duration_nanos)
			dst->duration_nanos = src->duration_nanos;
	}
	if (!dst->period_type.name && src->period_type.name) {
		dst->period_type.name = pt_xlat_str(&x, src->period_type.name);
		dst->period_type.unit = pt_xlat_str(&x, src->period_type.unit);
		dst->period = src->period;
	}
	for (i = 0; i < src->ncomments; i++) {
		uint32_t c = pt_xlat_str(&x, src->comments[i]);
		for (j = 0; j < dst->ncomments && dst->comments[j] != c; j++)
			;
		if (j == dst->ncomments)
			pt_profile_add_comment(dst, pt_s(src, src->comments[i]));
	}
	for (i = 0; i < src->nmeta; i++) {
		uint32_t k = pt_xlat_str(&x, src->meta[i].key),
			 v = pt_xlat_str(&x, src->meta[i].value);
		for (j = 0; j < dst->nmeta && (dst->meta[j].key != k || dst->meta[j].value != v);
		     j++)
			;
		if (j == dst->nmeta)
			pt_profile_add_meta(dst, pt_s(src, src->meta[i].key),
					    pt_s(src, src->meta[i].value));
	}

	newnode[0] = 0;
	for (n = 1; n < src->nnodes; n++)
		newnode[n] = pt_profile_child(dst, newnode[src->nodes[n].parent],
					      pt_xlat_frame(&x, src->nodes[n].frame));
	for (r = 0; r < src->nsamples; r++)
		newrow[r] = add_row(dst, newnode[src->samples[r].node],
				    pt_xlat_labels(&x, src->samples[r].labels),
				    src->sample_values + (size_t)r * src->ntypes, src->ntypes,
				    type_map);
	if (dst->keep_timeline)
		for (e = 0; e < src->nevents; e++)
			push_event(dst, newrow[src->events[e].sample],
				   pt_add(src->events[e].time, shift_src),
				   src->event_values + e * src->ntypes, src->ntypes, type_map);
	dst->nrecords += src->nrecords;
	pt_xlat_release(&x);
	free(newnode);
	free(newrow);
}

/* ---- merging aggregate-only profiles ---- */

/* Add the aggregate a of profile p (ids translated by x, or p == out's profile when x is
 * NULL) into out, entries keyed by function id (by name when there is none). */
static void agg_add(struct pt_agg *out, const struct pt_agg *a, struct pt_xlat *x,
		    const uint32_t *type_map)
{
	uint32_t *emap = pt_xmalloc((a->nentries ? a->nentries : 1) * sizeof(*emap));
	uint32_t i, t, w = a->ntypes, ow = out->ntypes;

	for (i = 0; i < a->nentries; i++) {
		struct pt_agg_entry e = a->entries[i];
		if (x) {
			e.name = pt_xlat_str(x, e.name);
			e.file = pt_xlat_str(x, e.file);
			e.func = pt_xlat_func(x, e.func);
		}
		emap[i] = pt_agg_entry(out, e.func ? e.func : (uint64_t)1 << 32 | e.name, &e);
		out->entries[emap[i]].flags |= e.flags;
	}
	for (t = 0; t < w; t++) {
		uint32_t u = type_map ? type_map[t] : t;
		if (u == PT_TYPE_SKIP)
			continue;
		out->total[u] = pt_add(out->total[u], a->total[t]);
		for (i = 0; i < a->nentries; i++) {
			int64_t *f = &out->flat[(size_t)emap[i] * ow + u];
			int64_t *c = &out->cum[(size_t)emap[i] * ow + u];
			*f = pt_add(*f, a->flat[(size_t)i * w + t]);
			*c = pt_add(*c, a->cum[(size_t)i * w + t]);
		}
	}
	for (i = 0; i < a->nedges; i++) {
		uint32_t k = pt_agg_edge(out, emap[a->edges[i].caller], emap[a->edges[i].callee]);
		for (t = 0; t < w; t++) {
			uint32_t u = type_map ? type_map[t] : t;
			int64_t *v = &out->edge_value[(size_t)k * ow + u];
			if (u != PT_TYPE_SKIP)
				*v = pt_add(*v, a->edge_value[(size_t)i * w + t]);
		}
	}
	for (i = 0; i < a->nlines; i++) {
		uint32_t k = pt_agg_line(out, emap[a->lines[i].entry], a->lines[i].line);
		for (t = 0; t < w; t++) {
			uint32_t u = type_map ? type_map[t] : t;
			if (u == PT_TYPE_SKIP)
				continue;
			out->line_self[(size_t)k * ow + u] =
				pt_add(out->line_self[(size_t)k * ow + u],
				       a->line_self[(size_t)i * w + t]);
			out->line_cum[(size_t)k * ow + u] = pt_add(
				out->line_cum[(size_t)k * ow + u], a->line_cum[(size_t)i * w + t]);
		}
	}
	out->edges_per_occurrence |= a->edges_per_occurrence;
	free(emap);
}

/* drop dst's tree, rows and timeline, keeping its tables */
static void clear_stacks(struct pt_profile *p)
{
	memset(p->node_self, 0, (size_t)p->nnodes * p->ntypes * sizeof(int64_t));
	p->nnodes = 1;
	p->nodes[0].first_child = 0;
	if (p->indexed_alloc)
		memset(p->indexed, 0, p->indexed_alloc);
	p->nsamples = 0;
	p->nevents = 0;
	p->keep_timeline = 0;
	pt_map_release(&p->children);
	pt_map_init(&p->children);
	pt_map_release(&p->sample_index);
	pt_map_init(&p->sample_index);
}

int pt_profile_merge_any(struct pt_profile *dst, const struct pt_profile *src,
			 const uint32_t *type_map, struct pt_diag *d)
{
	struct pt_agg *out, tmp;
	struct pt_xlat x;

	if (pt_profile_has_stacks(dst) && pt_profile_has_stacks(src)) {
		pt_profile_merge(dst, src, type_map);
		return 0;
	}
	/* the result has no stacks: function aggregates add up */
	out = pt_xcalloc(1, sizeof(*out));
	pt_agg_init(out, dst->ntypes, PT_GRAN_FUNCTIONS);
	if (pt_aggregate(dst, PT_GRAN_FUNCTIONS, &tmp, d) < 0) {
		pt_agg_release(out);
		free(out);
		return -1;
	}
	agg_add(out, &tmp, NULL, NULL);
	pt_agg_release(&tmp);
	if (pt_aggregate(src, PT_GRAN_FUNCTIONS, &tmp, d) < 0) {
		pt_agg_release(out);
		free(out);
		return -1;
	}
	pt_xlat_init(&x, src, dst);
	agg_add(out, &tmp, &x, type_map);
	pt_xlat_release(&x);
	pt_agg_release(&tmp);

	if (dst->agg) {
		pt_agg_release(dst->agg);
		free(dst->agg);
	} else {
		clear_stacks(dst);
	}
	dst->agg = out;
	if (!dst->no_stacks_reason && src->no_stacks_reason)
		dst->no_stacks_reason = pt_s(dst, pt_str(dst, src->no_stacks_reason));
	dst->nrecords += src->nrecords;
	if (src->duration_nanos > dst->duration_nanos)
		dst->duration_nanos = src->duration_nanos;
	if (!dst->time_nanos || (src->time_nanos && src->time_nanos < dst->time_nanos))
		dst->time_nanos = src->time_nanos;
	return 0;
}
