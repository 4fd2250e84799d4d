/* profile.c: building the model: dedup tables, the call tree, sample rows, timeline. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/functable.h"
#include "core/profile.h"
#include "util/buf.h"
#include "util/demangle.h"
#include "util/round.h"
#include "util/xalloc.h"

void pt_profile_init(struct pt_profile *p)
{
	struct pt_hash_key key;

	/* one system call for the eight tables' keys */
	pt_hash_key_init(&key);
	pt_profile_init_key(p, &key);
}

void pt_profile_init_key(struct pt_profile *p, const struct pt_hash_key *key)
{
	struct pt_hash_key k[8];
	unsigned i;

	memset(p, 0, sizeof(*p));
	p->key = *key;
	pt_arena_init(&p->arena);
	for (i = 0; i < 8; i++)
		pt_hash_key_derive(key, i, &k[i]);
	pt_intern_init_key(&p->strings, &p->arena, &k[0]);
	pt_index_init_key(&p->func_index, &k[1], 1);
	pt_intern_init_key(&p->mapping_keys, &p->arena, &k[2]);
	pt_index_init_key(&p->frame_index, &k[3], 1);
	pt_intern_init_key(&p->labelset_keys, &p->arena, &k[4]);
	pt_map_init_key(&p->children, &k[5]);
	pt_map_init_key(&p->sample_index, &k[6]);

	/* id 0 of each table is a placeholder, matching key id 0 ("") */
	PT_ALLOC_GROW(p->funcs, 1, p->funcs_alloc);
	memset(&p->funcs[0], 0, sizeof(p->funcs[0]));
	p->nfuncs = 1;
	PT_ALLOC_GROW(p->mappings, 1, p->mappings_alloc);
	memset(&p->mappings[0], 0, sizeof(p->mappings[0]));
	p->nmappings = 1;
	PT_ALLOC_GROW(p->frames, 1, p->frames_alloc);
	memset(&p->frames[0], 0, sizeof(p->frames[0]));
	p->nframes = 1;
	PT_ALLOC_GROW(p->labelsets, 1, p->labelsets_alloc);
	memset(&p->labelsets[0], 0, sizeof(p->labelsets[0]));
	p->nlabelsets = 1;

	PT_ALLOC_GROW(p->nodes, 1, p->nodes_alloc);
	memset(&p->nodes[0], 0, sizeof(p->nodes[0]));
	p->nnodes = 1;
	/* one value column until types are added (pt_profile_add_type re-strides) */
	p->node_self = pt_xcalloc(p->nodes_alloc, sizeof(int64_t));
}

void pt_profile_release(struct pt_profile *p)
{
	if (p->agg) {
		pt_agg_release(p->agg);
		free(p->agg);
	}
	if (p->line_agg) {
		pt_agg_release(p->line_agg);
		free(p->line_agg);
	}
	free(p->funcs);
	free(p->mappings);
	free(p->frames);
	free(p->labelsets);
	free(p->types);
	free(p->nodes);
	free(p->node_self);
	free(p->last_frames);
	free(p->last_nodes);
	free(p->samples);
	free(p->sample_values);
	free(p->events);
	free(p->event_values);
	free(p->comments);
	free(p->meta);
	pt_map_release(&p->children);
	free(p->renamed);
	free(p->indexed);
	pt_map_release(&p->sample_index);
	pt_intern_release(&p->strings);
	pt_index_release(&p->func_index);
	pt_intern_release(&p->mapping_keys);
	pt_index_release(&p->frame_index);
	pt_intern_release(&p->labelset_keys);
	pt_arena_release(&p->arena);
	memset(p, 0, sizeof(*p));
}

void pt_profile_moved(struct pt_profile *p)
{
	p->strings.arena = &p->arena;
	p->mapping_keys.arena = &p->arena;
	p->labelset_keys.arena = &p->arena;
}

/* the rows of the tree, the samples and the timeline re-strided from p->stride to nw
 * values each (the timeline only once it exists) */
static void restride_rows(struct pt_profile *p, uint32_t nw)
{
	struct {
		int64_t **v;
		size_t used, alloc;
	} arr[] = {
		{&p->node_self, p->nnodes, p->nodes_alloc},
		{&p->sample_values, p->nsamples, p->samples_alloc},
		{&p->event_values, p->nevents, p->events_alloc},
	};
	size_t k;

	for (k = 0; k < sizeof(arr) / sizeof(arr[0]); k++)
		if (*arr[k].v)
			*arr[k].v = nw > p->stride ? pt_rows_widen(*arr[k].v, arr[k].alloc,
								   arr[k].used, p->stride, nw)
						   : pt_rows_narrow(*arr[k].v, arr[k].used,
								    arr[k].alloc, p->stride, nw);
	p->stride = nw;
}

uint32_t pt_profile_add_type(struct pt_profile *p, const char *name, const char *unit)
{
	uint32_t t = p->ntypes, w = p->stride;

	if (t >= PT_MAX_TYPES)
		return UINT32_MAX;
	PT_ALLOC_GROW(p->types, (size_t)t + 1, p->types_alloc);
	p->types[t].name = pt_str(p, name);
	p->types[t].unit = pt_str(p, unit);
	p->types[t].decimals = 0;
	if (t + 1 > w)
		restride_rows(p, pt_row_width(w, t + 1, p->nnodes > 1 || p->nsamples || p->nevents,
					      PT_MAX_TYPES));
	p->ntypes = t + 1;
	if (p->agg)
		pt_agg_add_type(p->agg);
	return t;
}

void pt_profile_pack(struct pt_profile *p)
{
	if (p->stride != p->ntypes && p->ntypes)
		restride_rows(p, p->ntypes);
	if (p->agg)
		pt_agg_pack(p->agg);
	if (p->line_agg)
		pt_agg_pack(p->line_agg);
}

int pt_profile_find_type(const struct pt_profile *p, const char *spec)
{
	uint32_t t;
	const char *s;

	for (t = 0; t < p->ntypes; t++)
		if (!strcmp(pt_s(p, p->types[t].name), spec))
			return (int)t;
	if (!*spec)
		return -1;
	for (s = spec; *s; s++)
		if (!isdigit((unsigned char)*s))
			return -1;
	if (strlen(spec) > 6)
		return -1;
	t = (uint32_t)atoi(spec);
	return t < p->ntypes ? (int)t : -1;
}

static uint64_t uabs64(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

int pt_profile_overflow_at(struct pt_profile *p, uint32_t t, enum pt_diag_where where,
			   uint64_t pos)
{
	if (!p->overflows++) {
		p->overflow_type = t;
		p->overflow_where = where;
		p->overflow_pos = pos;
	}
	return -1;
}

/* the record being read overflows type t: count it, keep where the first was */
static int overflow(struct pt_profile *p, uint32_t t)
{
	if (p->src && p->src->lineno)
		return pt_profile_overflow_at(p, t, PT_DIAG_LINE, p->src->lineno);
	if (p->src)
		return pt_profile_overflow_at(p, t, PT_DIAG_OFFSET, pt_input_tell(p->src));
	return pt_profile_overflow_at(p, t, PT_DIAG_NOWHERE, 0);
}

static int64_t smul(int64_t v, int64_t f)
{
	int64_t r;
	if (__builtin_mul_overflow(v, f, &r))
		return (v < 0) != (f < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

void pt_profile_scale_type(struct pt_profile *p, uint32_t t, int64_t factor)
{
	uint64_t sum;
	size_t i;

	/* rescaled values that no longer fit are an overflow of the record at hand */
	if (__builtin_mul_overflow(p->sum_abs[t], uabs64(factor), &sum) || sum > INT64_MAX)
		overflow(p, t);
	else
		p->sum_abs[t] = sum;
	for (i = 0; i < p->nnodes; i++)
		p->node_self[i * p->stride + t] = smul(p->node_self[i * p->stride + t], factor);
	for (i = 0; i < p->nsamples; i++)
		p->sample_values[i * p->stride + t] =
			smul(p->sample_values[i * p->stride + t], factor);
	for (i = 0; i < p->nevents; i++)
		p->event_values[i * p->stride + t] =
			smul(p->event_values[i * p->stride + t], factor);
}

/* the type of values whose sum would pass INT64_MAX, or ntypes when none */
static uint32_t past_max(const struct pt_profile *p, const int64_t *values)
{
	uint32_t t;

	for (t = 0; t < p->ntypes; t++)
		if (uabs64(values[t]) > (uint64_t)INT64_MAX - p->sum_abs[t])
			break;
	return t;
}

static void add_abs(struct pt_profile *p, const int64_t *values)
{
	uint32_t t;

	for (t = 0; t < p->ntypes; t++)
		p->sum_abs[t] += uabs64(values[t]);
}

int pt_profile_account(struct pt_profile *p, const int64_t *values)
{
	uint32_t t = past_max(p, values);

	if (t < p->ntypes)
		return overflow(p, t);
	add_abs(p, values);
	return 0;
}

int pt_profile_account_at(struct pt_profile *p, const int64_t *values, enum pt_diag_where where,
			  uint64_t pos)
{
	uint32_t t = past_max(p, values);

	if (t < p->ntypes)
		return pt_profile_overflow_at(p, t, where, pos);
	add_abs(p, values);
	return 0;
}

int pt_profile_check_sums(const struct pt_profile *p, int lenient, struct pt_diag *d)
{
	const char *type;

	if (!p->overflows)
		return 0;
	type = p->overflow_type < p->ntypes ? pt_s(p, p->types[p->overflow_type].name) : "";
	if (lenient) {
		pt_diag_warn(d, p->overflow_where, p->overflow_pos,
			     "%llu record%s left out: the values of type '%s' would sum past "
			     "%lld (the first here)",
			     (unsigned long long)p->overflows, p->overflows == 1 ? "" : "s", type,
			     (long long)INT64_MAX);
		return 0;
	}
	d->where = p->overflow_where;
	d->pos = p->overflow_pos;
	snprintf(d->msg, sizeof(d->msg), "the values of type '%s' sum past %lld", type,
		 (long long)INT64_MAX);
	return -1;
}

static void put32(unsigned char **q, uint32_t v)
{
	memcpy(*q, &v, 4);
	*q += 4;
}

static void put64(unsigned char **q, uint64_t v)
{
	memcpy(*q, &v, 8);
	*q += 8;
}

int64_t pt_mul_round(int64_t v, double f)
{
	double x = (double)v * f;
	if (x >= 9.2e18)
		return INT64_MAX;
	if (x <= -9.2e18)
		return INT64_MIN;
	return pt_llround(x);
}

void pt_profile_mul_type(struct pt_profile *p, uint32_t t, double f)
{
	size_t i;
	for (i = 0; i < p->nnodes; i++)
		p->node_self[i * p->stride + t] = pt_mul_round(p->node_self[i * p->stride + t], f);
	for (i = 0; i < p->nsamples; i++)
		p->sample_values[i * p->stride + t] =
			pt_mul_round(p->sample_values[i * p->stride + t], f);
}

uint32_t pt_profile_func(struct pt_profile *p, uint32_t name, uint32_t system_name, uint32_t file,
			 int64_t start_line)
{
	return pt_profile_func_ident(p, name, system_name, file, start_line, 0);
}

/* name's new name under p->name_mode (a string id), and whether name is mangled: each
 * distinct name is looked at once, then kept in p->renamed (profile.h). A table by
 * string id: 4 bytes a string, where a hash map took 16 to 32 a name. */
static uint32_t rename_of(struct pt_profile *p, uint32_t name, int *mangled)
{
	uint32_t v = name < p->renamed_alloc ? p->renamed[name] : 0, to = name;
	const char *s;
	size_t n;
	struct pt_buf b = PT_BUF_INIT;

	if (v) {
		*mangled = (int)((v - 1) & 1);
		return (v - 1) >> 1;
	}
	s = pt_s(p, name);
	n = strlen(s);
	*mangled = pt_demangle_candidate(s, n);
	if (*mangled && (p->name_mode & PT_NAMES_DEMANGLE) &&
	    pt_demangle(&b, s, n, (p->name_mode & PT_NAMES_SIMPLIFY) != 0))
		to = pt_strn(p, b.buf, b.len);
	else if ((p->name_mode & PT_NAMES_SIMPLIFY) && pt_simplify_demangled(&b, s, n))
		to = pt_strn(p, b.buf, b.len);
	pt_buf_release(&b);
	if (to < (UINT32_C(1) << 31) - 1) {
		if (name >= p->renamed_alloc) {
			size_t old = p->renamed_alloc;
			PT_ALLOC_GROW(p->renamed, (size_t)name + 1, p->renamed_alloc);
			memset(p->renamed + old, 0, (p->renamed_alloc - old) * sizeof(*p->renamed));
		}
		p->renamed[name] = (to << 1 | (uint32_t)*mangled) + 1;
	}
	return to;
}

/* the name, system name and key system name of a function as p->name_mode wants */
static void rename_func(struct pt_profile *p, uint32_t *name, uint32_t *system_name,
			uint32_t *key_sys)
{
	uint32_t raw = *name, to;
	int mangled;

	if (!raw)
		return;
	to = rename_of(p, raw, &mangled);
	/* a mangled name is its own system name (pprof's mark of one not demangled) */
	if (mangled && !*system_name)
		*system_name = *key_sys = raw;
	*name = to;
	/* simplified: one function per simple name (pprof's nodes); else the mangled
	 * name keeps apart functions whose demangled names are alike */
	if (to != raw && (p->name_mode & PT_NAMES_SIMPLIFY))
		*key_sys = 0;
}

/* A function's identity, as bytes to hash and compare: name, key system name, file,
 * start line and ident. */
#define FUNC_KEY 28
static void func_key(unsigned char *key, uint32_t name, uint32_t key_sys, uint32_t file,
		     int64_t start_line, uint64_t ident)
{
	unsigned char *q = key;

	put32(&q, name);
	put32(&q, key_sys);
	put32(&q, file);
	put64(&q, (uint64_t)start_line);
	put64(&q, ident);
}

static int func_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pt_func *f = &((const struct pt_profile *)ctx)->funcs[id];
	unsigned char k[FUNC_KEY];

	func_key(k, f->name, f->key_sys, f->file, f->start_line, f->ident);
	return !memcmp(k, key, FUNC_KEY);
}

static uint64_t func_hash(const void *ctx, uint32_t id)
{
	const struct pt_profile *p = ctx;
	const struct pt_func *f = &p->funcs[id];
	unsigned char k[FUNC_KEY];

	func_key(k, f->name, f->key_sys, f->file, f->start_line, f->ident);
	return pt_index_hash(&p->func_index, k, FUNC_KEY);
}

static const struct pt_index_ops func_ops = {func_eq, func_hash};

uint32_t pt_profile_func_ident(struct pt_profile *p, uint32_t name, uint32_t system_name,
			       uint32_t file, int64_t start_line, uint64_t ident)
{
	unsigned char key[FUNC_KEY];
	uint32_t id, key_sys = system_name;

	if (p->name_mode)
		rename_func(p, &name, &system_name, &key_sys);

	func_key(key, name, key_sys, file, start_line, ident);
	id = pt_index_put(&p->func_index, pt_index_hash(&p->func_index, key, sizeof(key)), key,
			  &func_ops, p);
	if (id == p->nfuncs) {
		PT_ALLOC_GROW(p->funcs, (size_t)id + 1, p->funcs_alloc);
		p->funcs[id].name = name;
		p->funcs[id].system_name = system_name;
		p->funcs[id].file = file;
		p->funcs[id].key_sys = key_sys;
		p->funcs[id].start_line = start_line;
		p->funcs[id].ident = ident;
		p->nfuncs++;
	}
	return id;
}

uint32_t pt_profile_func_text(struct pt_profile *p, struct pt_strref name,
			      struct pt_strref system_name, struct pt_strref file,
			      int64_t start_line, uint64_t ident)
{
	/* one declaration each, so sequenced: the order profile.h documents */
	uint32_t f = file.n ? pt_strn(p, file.s, file.n) : 0;
	uint32_t sys = system_name.n ? pt_strn(p, system_name.s, system_name.n) : 0;
	uint32_t n = name.n ? pt_strn(p, name.s, name.n) : 0;

	return pt_profile_func_ident(p, n, sys, f, start_line, ident);
}

uint32_t pt_profile_mapping(struct pt_profile *p, const struct pt_mapping *m)
{
	unsigned char key[36], *q = key;
	uint32_t id;

	put64(&q, m->start);
	put64(&q, m->limit);
	put64(&q, m->offset);
	put32(&q, m->file);
	put32(&q, m->build_id);
	put32(&q, m->flags);
	id = pt_intern(&p->mapping_keys, key, sizeof(key));
	if (id == p->nmappings) {
		PT_ALLOC_GROW(p->mappings, (size_t)id + 1, p->mappings_alloc);
		p->mappings[id] = *m;
		p->nmappings++;
	}
	return id;
}

static int is_shared_lib(const char *base)
{
	const char *so = strstr(base, ".so");
	return so && (so[3] == '\0' || so[3] == '.');
}

/* the main mapping among those marked in used (p->nmappings + 1 bytes, freed here) */
static uint32_t main_of_used(const struct pt_profile *p, unsigned char *used)
{
	uint32_t m, first = 0, best = 0;

	for (m = 1; m < p->nmappings && !best; m++) {
		const char *file = pt_s(p, p->mappings[m].file), *base = strrchr(file, '/');
		if (!used[m])
			continue;
		base = base ? base + 1 : file;
		if (!first)
			first = m;
		if (*file && file[0] != '[' && !is_shared_lib(base))
			best = m;
	}
	free(used);
	return best ? best : first;
}

uint32_t pt_profile_main_mapping(const struct pt_profile *p)
{
	unsigned char *used = pt_xcalloc(p->nmappings + 1, 1);
	uint32_t n;

	for (n = 1; n < p->nnodes; n++)
		used[pt_frame_of(p, n)->mapping] = 1;
	return main_of_used(p, used);
}

uint32_t pt_profile_main_mapping_of(const struct pt_profile *p, const uint32_t *frames, size_t n)
{
	unsigned char *used = pt_xcalloc(p->nmappings + 1, 1);
	size_t i;

	for (i = 0; i < n; i++)
		used[p->frames[frames[i]].mapping] = 1;
	return main_of_used(p, used);
}

/* a frame's identity is all of its record, pad zeroed */
static int frame_eq(const void *ctx, uint32_t id, const void *key)
{
	return !memcmp(&((const struct pt_profile *)ctx)->frames[id], key, sizeof(struct pt_frame));
}

static uint64_t frame_hash(const void *ctx, uint32_t id)
{
	const struct pt_profile *p = ctx;
	return pt_index_hash(&p->frame_index, &p->frames[id], sizeof(struct pt_frame));
}

static const struct pt_index_ops frame_ops = {frame_eq, frame_hash};

uint32_t pt_profile_frame(struct pt_profile *p, const struct pt_frame *f)
{
	struct pt_frame k = *f;
	uint32_t id;

	k.pad = 0;
	id = pt_index_put(&p->frame_index, pt_index_hash(&p->frame_index, &k, sizeof(k)), &k,
			  &frame_ops, p);
	if (id == p->nframes) {
		PT_ALLOC_GROW(p->frames, (size_t)id + 1, p->frames_alloc);
		p->frames[id] = k;
		p->nframes++;
	}
	return id;
}

uint32_t pt_profile_name_frame(struct pt_profile *p, uint32_t name, uint32_t file, int64_t line,
			       uint32_t flags)
{
	struct pt_frame f;

	memset(&f, 0, sizeof(f));
	f.func = pt_profile_func(p, name, 0, file, 0);
	f.line = line;
	f.flags = flags;
	return pt_profile_frame(p, &f);
}

uint32_t pt_profile_simple_frame(struct pt_profile *p, const char *name, size_t len, uint32_t file,
				 int64_t line, uint32_t flags)
{
	return pt_profile_name_frame(p, pt_strn(p, name, len), file, line, flags);
}

static int label_cmp(const void *a, const void *b)
{
	const struct pt_label *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->str != y->str)
		return x->str < y->str ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->num_unit < y->num_unit ? -1 : x->num_unit > y->num_unit;
}

/* a label set of at most this many labels is sorted and keyed on the stack */
#define SMALL_LABELSET 8

uint32_t pt_profile_labelset(struct pt_profile *p, const struct pt_label *v, uint32_t n)
{
	struct pt_label small[SMALL_LABELSET], *sorted = small;
	unsigned char small_key[SMALL_LABELSET * 20], *key = small_key, *q;
	uint32_t i, j, id;

	if (!n)
		return 0;
	if (n > SMALL_LABELSET) {
		sorted = pt_xreallocarray(NULL, n, sizeof(*sorted));
		key = pt_xreallocarray(NULL, n, 20);
	}
	memcpy(sorted, v, n * sizeof(*sorted));
	if (n > SMALL_LABELSET) {
		qsort(sorted, n, sizeof(*sorted), label_cmp);
	} else {
		/* a few labels: insertion sort, no call per comparison (equal labels are
		 * alike in every byte of the key, so any sort gives the same set) */
		for (i = 1; i < n; i++) {
			struct pt_label x = sorted[i];
			for (j = i; j > 0 && label_cmp(&sorted[j - 1], &x) > 0; j--)
				sorted[j] = sorted[j - 1];
			sorted[j] = x;
		}
	}
	q = key;
	for (i = 0; i < n; i++) {
		put32(&q, sorted[i].key);
		put32(&q, sorted[i].str);
		put64(&q, (uint64_t)sorted[i].num);
		put32(&q, sorted[i].num_unit);
	}
	id = pt_intern(&p->labelset_keys, key, (size_t)n * 20);
	if (id == p->nlabelsets) {
		struct pt_label *stored = pt_arena_alloc(&p->arena, n * sizeof(*stored));
		memcpy(stored, sorted, n * sizeof(*stored));
		PT_ALLOC_GROW(p->labelsets, (size_t)id + 1, p->labelsets_alloc);
		p->labelsets[id].v = stored;
		p->labelsets[id].n = n;
		p->nlabelsets++;
	}
	if (n > SMALL_LABELSET) {
		free(key);
		free(sorted);
	}
	return id;
}

/* a parent with fewer children than this is searched along its sibling list */
#define PT_CHILD_SCAN 8

uint32_t pt_profile_child(struct pt_profile *p, uint32_t parent, uint32_t frame)
{
	uint32_t *slot = NULL, id, c, nsiblings = 0;
	int indexed = (size_t)parent / 8 < p->indexed_alloc &&
		      (p->indexed[parent / 8] >> (parent % 8) & 1);

	if (!indexed) {
		for (c = p->nodes[parent].first_child; c; c = p->nodes[c].next_sibling, nsiblings++)
			if (p->nodes[c].frame == frame)
				return c;
	} else {
		slot = pt_map_put(&p->children, (uint64_t)parent << 32 | frame);
		if (*slot != PT_MAP_NEW)
			return *slot;
	}
	id = p->nnodes;
	if (id >= PT_MAP_NEW - 1) {
		/* cannot happen before memory runs out; keep the invariant explicit */
		abort();
	}
	if ((size_t)id + 1 > p->nodes_alloc) {
		PT_ALLOC_GROW(p->nodes, (size_t)id + 1, p->nodes_alloc);
		p->node_self = pt_xreallocarray(p->node_self, p->nodes_alloc,
						(p->stride ? p->stride : 1) * sizeof(int64_t));
	}
	/* rows are zeroed as nodes are made: spare capacity is never touched */
	memset(p->node_self + (size_t)id * p->stride, 0, p->stride * sizeof(int64_t));
	if (slot) /* the map has not changed since pt_map_put */
		*slot = id;
	p->nodes[id].parent = parent;
	p->nodes[id].frame = frame;
	p->nodes[id].first_child = 0;
	p->nodes[id].next_sibling = p->nodes[parent].first_child;
	p->nodes[parent].first_child = id;
	p->nodes[id].depth = p->nodes[parent].depth + 1;
	p->nnodes++;
	if (!indexed && nsiblings + 1 >= PT_CHILD_SCAN) {
		/* from now on this parent is looked up in the map: index its children */
		size_t byte = (size_t)parent / 8, old = p->indexed_alloc;
		if (byte >= old) {
			PT_ALLOC_GROW(p->indexed, byte + 1, p->indexed_alloc);
			memset(p->indexed + old, 0, p->indexed_alloc - old);
		}
		p->indexed[byte] |= (uint8_t)(1u << (parent % 8));
		for (c = p->nodes[parent].first_child; c; c = p->nodes[c].next_sibling)
			*pt_map_put(&p->children, (uint64_t)parent << 32 | p->nodes[c].frame) = c;
	}
	return id;
}

uint32_t pt_profile_stack(struct pt_profile *p, const uint32_t *frames, size_t n, int leaf_first)
{
	uint32_t node = 0;
	size_t i = 0;

	if (n > p->last_alloc) {
		size_t a = p->last_alloc;
		PT_ALLOC_GROW(p->last_frames, n, a);
		a = p->last_alloc;
		PT_ALLOC_GROW(p->last_nodes, n, p->last_alloc);
	}
	for (; i < n && i < p->last_n; i++) {
		uint32_t f = frames[leaf_first ? n - 1 - i : i];
		if (p->last_frames[i] != f)
			break;
		node = p->last_nodes[i];
	}
	for (; i < n; i++) {
		uint32_t f = frames[leaf_first ? n - 1 - i : i];
		node = pt_profile_child(p, node, f);
		p->last_frames[i] = f;
		p->last_nodes[i] = node;
	}
	p->last_n = n;
	return node;
}

void pt_profile_reserve(struct pt_profile *p, size_t nodes, size_t rows)
{
	size_t w = (p->stride ? p->stride : 1) * sizeof(int64_t);

	if (nodes > p->nodes_alloc) {
		p->nodes = pt_xreallocarray(p->nodes, nodes, sizeof(*p->nodes));
		p->node_self = pt_xreallocarray(p->node_self, nodes, w);
		p->nodes_alloc = nodes;
	}
	if (rows > p->samples_alloc) {
		p->samples = pt_xreallocarray(p->samples, rows, sizeof(*p->samples));
		p->sample_values = pt_xreallocarray(p->sample_values, rows, w);
		p->samples_alloc = rows;
	}
}

static uint32_t row_for(struct pt_profile *p, uint32_t node, uint32_t labels)
{
	uint32_t *slot, row = p->last_row;

	if (row < p->nsamples && p->samples[row].node == node && p->samples[row].labels == labels)
		return row;
	slot = pt_map_put(&p->sample_index, (uint64_t)node << 32 | labels);
	if (*slot != PT_MAP_NEW)
		return p->last_row = *slot;
	row = p->nsamples;
	if ((size_t)row + 1 > p->samples_alloc) {
		PT_ALLOC_GROW(p->samples, (size_t)row + 1, p->samples_alloc);
		p->sample_values = pt_xreallocarray(p->sample_values, p->samples_alloc,
						    (p->stride ? p->stride : 1) * sizeof(int64_t));
	}
	memset(p->sample_values + (size_t)row * p->stride, 0, p->stride * sizeof(int64_t));
	*slot = row;
	p->samples[row].node = node;
	p->samples[row].labels = labels;
	p->nsamples++;
	return p->last_row = row;
}

uint32_t pt_profile_add_sample(struct pt_profile *p, uint32_t node, uint32_t labels,
			       const int64_t *values, int64_t time)
{
	uint32_t row;

	if (pt_profile_account(p, values) < 0)
		return row_for(p, node, labels);
	row = pt_profile_add_sample_counted(p, node, labels, values, time);
	p->nrecords++;
	return row;
}

uint32_t pt_profile_add_sample_counted(struct pt_profile *p, uint32_t node, uint32_t labels,
				       const int64_t *values, int64_t time)
{
	uint32_t row, t;
	int64_t *rv, *nv;

	row = row_for(p, node, labels);
	rv = p->sample_values + (size_t)row * p->stride;
	nv = p->node_self + (size_t)node * p->stride;

	for (t = 0; t < p->ntypes; t++) {
		rv[t] = pt_add(rv[t], values[t]);
		nv[t] = pt_add(nv[t], values[t]);
	}
	if (p->keep_timeline) {
		size_t e = p->nevents;
		if (e + 1 > p->events_alloc) {
			PT_ALLOC_GROW(p->events, e + 1, p->events_alloc);
			p->event_values =
				pt_xreallocarray(p->event_values, p->events_alloc,
						 (p->stride ? p->stride : 1) * sizeof(int64_t));
		}
		p->events[e].sample = row;
		p->events[e].pad = 0;
		p->events[e].time = time;
		if (p->ntypes) { /* no types yet: values may be NULL */
			int64_t *ev = p->event_values + e * p->stride;
			memcpy(ev, values, p->ntypes * sizeof(int64_t));
			memset(ev + p->ntypes, 0, (p->stride - p->ntypes) * sizeof(int64_t));
		}
		p->nevents++;
	}
	return row;
}

void pt_profile_add_value(struct pt_profile *p, uint32_t node, uint32_t labels, uint32_t t,
			  int64_t v)
{
	uint32_t row;
	int64_t *rv, *nv;
	uint64_t a = uabs64(v);

	if (t < p->ntypes && a > (uint64_t)INT64_MAX - p->sum_abs[t]) {
		overflow(p, t);
		return;
	}
	if (t < p->ntypes)
		p->sum_abs[t] += a;
	row = row_for(p, node, labels);
	rv = &p->sample_values[(size_t)row * p->stride + t];
	nv = &p->node_self[(size_t)node * p->stride + t];
	*rv = pt_add(*rv, v);
	*nv = pt_add(*nv, v);
}

void pt_profile_drop_timeline(struct pt_profile *p)
{
	p->nevents = 0;
	p->keep_timeline = 0;
}

void pt_profile_add_meta(struct pt_profile *p, const char *key, const char *value)
{
	PT_ALLOC_GROW(p->meta, p->nmeta + 1, p->meta_alloc);
	p->meta[p->nmeta].key = pt_str(p, key);
	p->meta[p->nmeta].value = pt_str(p, value);
	p->nmeta++;
}

const char *pt_profile_meta(const struct pt_profile *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(pt_s(p, p->meta[i].key), key))
			return pt_s(p, p->meta[i].value);
	return NULL;
}

void pt_profile_add_comment(struct pt_profile *p, const char *comment)
{
	PT_ALLOC_GROW(p->comments, p->ncomments + 1, p->comments_alloc);
	p->comments[p->ncomments++] = pt_str(p, comment);
}

int64_t pt_profile_total(const struct pt_profile *p, uint32_t t)
{
	int64_t sum = 0;
	uint32_t i;

	if (p->agg)
		return p->agg->total[t];
	for (i = 0; i < p->nsamples; i++)
		sum = pt_add(sum, p->sample_values[(size_t)i * p->stride + t]);
	return sum;
}

int pt_profile_need_stacks_say(const struct pt_profile *p, struct pt_diag *d, const char *tail,
			       const char *fmt, ...)
{
	struct pt_buf b = PT_BUF_INIT;
	va_list ap;

	if (pt_profile_has_stacks(p))
		return 0;
	va_start(ap, fmt);
	pt_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pt_diag_error(d, "%s (%s)%s", b.buf, pt_profile_no_stacks_why(p), tail);
	pt_buf_release(&b);
	return -1;
}

int pt_profile_need_stacks(const struct pt_profile *p, const char *doing, struct pt_diag *d)
{
	if (doing)
		return pt_profile_need_stacks_say(p, d, "", "cannot %s: the profile has no stacks",
						  doing);
	if (pt_profile_has_stacks(p))
		return 0;
	return pt_diag_error(
		d, "%s", p->no_stacks_reason ? p->no_stacks_reason : "the profile has no stacks");
}

void pt_profile_count(const struct pt_profile *p, uint64_t *stacks, uint64_t *functions)
{
	unsigned char *seen;
	uint32_t n, t;

	*stacks = *functions = 0;
	if (p->agg) {
		*functions = p->agg->nentries;
		return;
	}
	seen = pt_xcalloc((size_t)p->nfuncs + 1, 1);
	for (n = 1; n < p->nnodes; n++) {
		uint32_t fn = p->frames[p->nodes[n].frame].func;
		for (t = 0; t < p->ntypes; t++)
			if (p->node_self[(size_t)n * p->ntypes + t]) {
				++*stacks;
				break;
			}
		if (!seen[fn]) {
			seen[fn] = 1;
			++*functions;
		}
	}
	free(seen);
}
