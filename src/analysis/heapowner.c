/* heapowner.c: what Chrome DevTools' heap snapshot worker changes in a snapshot before
 * its dominator pass (see heapowner.h): owned sizes moved to owners, WeakMap tables'
 * edges to their values marked. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/heapowner.h"
#include "util/xalloc.h"

enum { UNVISITED = UINT32_MAX, SHARED = UINT32_MAX - 1 };

int pt_heap_user_root(const struct pt_heapgraph *g, uint32_t v)
{
	return pt_heap_type(g, v) != g->t_synthetic ||
	       !strcmp(pt_heap_name(g, v), "(Document DOM trees)");
}

/* does the root hold a user root: DevTools' test for a snapshot without V8's internals */
static int has_user_roots(const struct pt_heapgraph *g)
{
	size_t e;

	for (e = g->first_edge[0]; e < g->first_edge[1]; e++)
		if (pt_heap_user_root(g, pt_heap_edge_to(g, e)))
			return 1;
	return 0;
}

static int ownable(const struct pt_heapgraph *g, uint32_t v)
{
	uint32_t t = pt_heap_type(g, v);

	return t == g->t_hidden || t == g->t_array ||
	       (t == g->t_native && !strcmp(pt_heap_name(g, v), "system / ExternalStringData"));
}

void pt_heap_move_owned_sizes(struct pt_heapgraph *g)
{
	uint32_t n = (uint32_t)g->nnodes, i, *owner, *todo;
	size_t ntodo = 0;

	if (!n || g->nnodes >= SHARED || !has_user_roots(g))
		return;
	owner = pt_xmalloc((size_t)n * sizeof(uint32_t));
	/* a node is pushed once as its own owner, or at most twice: when it first gets an
	 * owner and when it gets a second one */
	todo = pt_xmalloc((size_t)n * 2 * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		owner[i] = ownable(g, i) ? UNVISITED : i;
		if (owner[i] == i)
			todo[ntodo++] = i;
	}
	/* each owner (or SHARED) flows along non-weak edges into the ownable nodes; a node
	 * reached from two owners is SHARED. The fixed point does not depend on the order. */
	while (ntodo) {
		uint32_t v = todo[--ntodo], o = owner[v];
		size_t e;
		for (e = g->first_edge[v]; e < g->first_edge[v + 1]; e++) {
			uint32_t w;
			if (pt_heap_edge_type(g, e) == g->et_weak)
				continue;
			w = pt_heap_edge_to(g, e);
			if (owner[w] == UNVISITED)
				owner[w] = o;
			else if (owner[w] != w && owner[w] != o && owner[w] != SHARED)
				owner[w] = SHARED;
			else
				continue;
			todo[ntodo++] = w;
		}
	}
	for (i = 0; i < n; i++) {
		uint32_t o = owner[i], *from, *to;
		if (o == UNVISITED || o == SHARED || o == i || o == 0 ||
		    pt_heap_type(g, o) == g->t_synthetic)
			continue;
		from = &g->nodes[(size_t)i * g->nfields + g->f_self];
		to = &g->nodes[(size_t)o * g->nfields + g->f_self];
		*to = *from > UINT32_MAX - *to ? UINT32_MAX : *to + *from;
		*from = 0;
	}
	free(owner);
	free(todo);
}

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* JavaScript's `.` (no s flag): anything but \n, \r, U+2028 and U+2029 */
static int line_break(const char *s, size_t i, size_t end)
{
	return s[i] == '\n' || s[i] == '\r' ||
	       (i + 2 < end && (unsigned char)s[i] == 0xe2 && (unsigned char)s[i + 1] == 0x80 &&
		((unsigned char)s[i + 2] == 0xa8 || (unsigned char)s[i + 2] == 0xa9));
}

size_t pt_heap_weakmap_name(const char *s, size_t n, uint64_t *table)
{
	static const char key[] = " / part of key (", val[] = ") -> value (",
			  pair[] = ") pair in WeakMap (table @";
	size_t i = 0, p, q, t, k;
	uint64_t id = 0;

	while (i < n && digit(s[i]))
		i++;
	if (!i || n - i < sizeof(key) - 1 || memcmp(s + i, key, sizeof(key) - 1))
		return 0;
	p = i + sizeof(key) - 1;
	/* the tail, backwards: " @" D2 pair D3 ")" */
	if (n <= p || s[n - 1] != ')')
		return 0;
	t = n - 1;
	while (t > p && digit(s[t - 1]))
		t--;
	if (t == n - 1 || t - p < sizeof(pair) - 1 ||
	    memcmp(s + t - (sizeof(pair) - 1), pair, sizeof(pair) - 1))
		return 0;
	for (k = t; k < n - 1; k++)
		id = id > (UINT64_MAX - 9) / 10 ? UINT64_MAX : id * 10 + (uint64_t)(s[k] - '0');
	q = t - (sizeof(pair) - 1);
	k = q;
	while (k > p && digit(s[k - 1]))
		k--;
	if (k == q || k - p < 2 || s[k - 1] != '@' || s[k - 2] != ' ')
		return 0;
	q = k - 2; /* the middle, s[p, q): X " @" D1 ") -> value (" Y */
	for (i = p; i < q; i++)
		if (line_break(s, i, q))
			return 0;
	for (i = p; i + 2 < q; i++) {
		if (s[i] != ' ' || s[i + 1] != '@' || !digit(s[i + 2]))
			continue;
		for (k = i + 2; k < q && digit(s[k]); k++)
			;
		if (q - k >= sizeof(val) - 1 && !memcmp(s + k, val, sizeof(val) - 1)) {
			*table = id;
			return p - (sizeof(key) - 1);
		}
		i = k - 1;
	}
	return 0;
}

uint8_t *pt_heap_weakmap_table_edges(const struct pt_heapgraph *g)
{
	uint8_t *bits = pt_xcalloc(g->nedges / 8 + 1, 1);
	uint64_t *table = NULL; /* per string id: its table id, or UINT64_MAX */
	uint8_t *parsed = NULL;
	size_t n = g->nnodes, e;
	uint32_t i;

	if (g->et_internal == PT_HEAP_NONE)
		return bits;
	for (i = 0; i < n; i++)
		for (e = g->first_edge[i]; e < g->first_edge[i + 1]; e++) {
			uint32_t nm;
			if (pt_heap_edge_type(g, e) != g->et_internal || !pt_heap_edge_named(g, e))
				continue;
			nm = pt_heap_edge_name(g, e);
			if (!table) {
				table = pt_xmalloc(((size_t)g->nstrings + 1) * sizeof(uint64_t));
				parsed = pt_xcalloc((size_t)g->nstrings + 1, 1);
			}
			if (!parsed[nm]) {
				parsed[nm] = 1;
				if (!pt_heap_weakmap_name(pt_heap_str(g, nm),
							  pt_heap_str_len(g, nm), &table[nm]))
					table[nm] = UINT64_MAX;
			}
			if (table[nm] == pt_heap_id(g, i))
				bits[e / 8] |= (uint8_t)(1u << (e % 8));
		}
	free(table);
	free(parsed);
	return bits;
}
