/* test-cum.c: the cumulative rule's two bookkeepings (analysis/cum.h): a key counts once
 * per stack, stacks one by one (their numbers wrapping) and along a depth-first path. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "analysis/cum.h"
#include "tap.h"

/* the distinct keys of one stack, in order of first occurrence, into out; how many */
static size_t distinct(struct pt_cum *c, const uint32_t *keys, size_t n, uint32_t *out)
{
	size_t i, m = 0;

	pt_cum_next_stack(c);
	for (i = 0; i < n; i++)
		if (pt_cum_first(c, keys[i]))
			out[m++] = keys[i];
	return m;
}

static void stacks(void)
{
	struct pt_cum c;
	const uint32_t s1[] = {0, 1, 2, 1, 2, 1}, s2[] = {2, 2, 2}, s3[] = {3, 0, 3};
	uint32_t out[8];
	size_t m;

	pt_cum_init(&c, 3);
	m = distinct(&c, s1, 6, out);
	ok(m == 3 && out[0] == 0 && out[1] == 1 && out[2] == 2,
	   "a recursive stack counts each key once, at its first occurrence");
	m = distinct(&c, s2, 3, out);
	ok(m == 1 && out[0] == 2, "the next stack starts unmarked, without clearing");
	pt_cum_reserve(&c, 4);
	m = distinct(&c, s3, 3, out);
	ok(m == 2 && out[0] == 3 && out[1] == 0, "a key added later (reserve) starts unmet");
	/* the stack numbers wrap: the marks are cleared then, not confused (key 1 still
	 * holds 1, the number of the first stack, the one the wrap starts again from) */
	is_int(c.mark[1], 1, "key 1 was last met in stack 1");
	c.epoch = UINT32_MAX;
	m = distinct(&c, s1, 6, out);
	is_int(c.epoch, 1, "after the last stack number comes 1");
	ok(m == 3 && out[1] == 1, "a stack right after the wrap counts each of its keys, once");
	m = distinct(&c, s1, 6, out);
	ok(m == 3, "and so does the one after it");
	pt_cum_release(&c);
}

/* the walk of a;b;a;b with a leaf c under the second a: which nodes count */
static void path(void)
{
	struct pt_cum c;
	const uint32_t a = 0, b = 1, cc = 2;
	int got[5];

	pt_cum_init(&c, 3);
	got[0] = pt_cum_enter(&c, a);
	got[1] = pt_cum_enter(&c, b);
	got[2] = pt_cum_enter(&c, a);
	got[3] = pt_cum_enter(&c, cc);
	pt_cum_leave(&c, cc);
	got[4] = pt_cum_enter(&c, b);
	ok(got[0] && got[1] && !got[2] && got[3] && !got[4],
	   "on a path a;b;a;c / a;b;a;b only the rootmost a and b count");
	pt_cum_leave(&c, b);
	pt_cum_leave(&c, a);
	pt_cum_leave(&c, b);
	ok(pt_cum_enter(&c, b), "b under the first a again, once the inner ones are left: counts");
	pt_cum_leave(&c, b);
	pt_cum_leave(&c, a);
	ok(c.mark[a] == 0 && c.mark[b] == 0 && c.mark[cc] == 0,
	   "leaving every node clears every mark");
	ok(pt_cum_enter(&c, a), "a new root counts");
	pt_cum_release(&c);
}

int main(void)
{
	stacks();
	path();
	return tap_done();
}
