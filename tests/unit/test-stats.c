/* test-stats.c: the regression gate's statistics (analysis/stats.c). Without arguments,
 * TAP cases whose answers can be counted by hand; with `--cases FILE`, one line
 * "U P exact" per case line "A1 A2 ... | B1 B2 ...", for t6110 to hold against
 * scipy.stats.mannwhitneyu (or the references it made). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "analysis/stats.h"

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-12 * (fabs(want) > 1 ? fabs(want) : 1);
}

static void test_median(void)
{
	double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2};
	ok(pt_stats_median(odd, 3) == 3, "median of three values is the middle one");
	ok(pt_stats_median(even, 4) == 2.5, "median of four is the mean of the middle two");
}

static void test_exact(void)
{
	/* 5 against 5, fully separated: U = 0, and the only arrangement at least as
	 * extreme on either side is one of C(10,5) = 252 each: p = 2/252 */
	double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
	/* interleaved once: a's ranks 1,2,3,4,6: R = 16, U = 1; P(U <= 1) = 2/252 */
	double c[] = {1, 2, 3, 4, 6}, d[] = {5, 7, 8, 9, 10};
	struct pt_mwu r;

	pt_stats_mwu(a, 5, b, 5, &r);
	ok(r.exact && r.u == 0 && near(r.p, 2.0 / 252), "separated 5 v 5: U 0, p 2/252");
	pt_stats_mwu(b, 5, a, 5, &r);
	ok(r.exact && r.u == 25 && near(r.p, 2.0 / 252), "the other way round: U 25, same p");
	pt_stats_mwu(c, 5, d, 5, &r);
	ok(r.exact && r.u == 1 && near(r.p, 4.0 / 252), "one swap: U 1, p 4/252");
	pt_stats_mwu(a, 1, b, 1, &r);
	ok(r.exact && r.p == 1, "one run a side: p 1, nothing can be told");
}

static void test_ties_and_normal(void)
{
	double a[] = {1, 1, 1}, b[] = {1, 1, 1};
	double big_a[20], big_b[20];
	struct pt_mwu r;
	int i;

	pt_stats_mwu(a, 3, b, 3, &r);
	ok(!r.exact && r.p == 1, "all tied: the normal approximation, p 1");
	for (i = 0; i < 20; i++) {
		big_a[i] = i;
		big_b[i] = i + 100;
	}
	pt_stats_mwu(big_a, 20, big_b, 20, &r);
	/* U = 0: z = (400 - 200 - 0.5) / sqrt(400 * 41 / 12) */
	ok(!r.exact && near(r.p, erfc((199.5 / sqrt(400.0 * 41 / 12)) / sqrt(2.0))),
	   "20 v 20 separated: p from z with the continuity correction");
}

static void test_shift(void)
{
	/* b = a + 10: every difference near 10; 5 v 5 at 95%: P(U <= 2) = 4/252 <= 0.025 <
	 * P(U <= 3) = 7/252, so the interval is the 3rd smallest to the 3rd largest of the
	 * 25 differences */
	double a[] = {1, 2, 3, 4, 5}, b[] = {11, 12, 13, 14, 15}, est, lo, hi;

	pt_stats_shift(a, 5, b, 5, 0.05, &est, &lo, &hi);
	/* the differences 6..14 with counts 1,2,3,4,5,4,3,2,1: 3rd smallest 7, 3rd
	 * largest 13 */
	ok(est == 10 && lo == 7 && hi == 13, "5 v 5 shift 10: estimate 10, interval [7, 13]");
	pt_stats_shift(a, 2, b, 2, 0.05, &est, &lo, &hi);
	ok(isinf(lo) && isinf(hi), "2 v 2 has no 95%% interval");
}

static void test_bh(void)
{
	double p[] = {0.01, 0.04, 0.03, 0.5}, q[4];

	pt_stats_bh(p, 4, q);
	/* sorted 0.01 0.03 0.04 0.5 -> 0.04 0.06 0.0533 0.5, then the running minimum
	 * from the top: 0.04 0.0533 0.0533 0.5 */
	ok(near(q[0], 0.04) && near(q[2], 0.16 / 3) && near(q[1], 0.16 / 3) && q[3] == 0.5,
	   "Benjamini-Hochberg: adjusted, monotone in p");
}

/* "--cases FILE": for each line "a... | b...", print U, p and exact */
static int run_cases(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[8192];

	if (!fp) {
		perror(path);
		return 1;
	}
	while (fgets(line, sizeof(line), fp)) {
		double v[2][512];
		size_t n[2] = {0, 0};
		int side = 0;
		char *tok, *save = NULL;
		struct pt_mwu r;

		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			if (!strcmp(tok, "|"))
				side = 1;
			else if (n[side] < 512)
				v[side][n[side]++] = strtod(tok, NULL);
		}
		if (!n[0] || !n[1])
			continue;
		pt_stats_mwu(v[0], n[0], v[1], n[1], &r);
		printf("%.17g %.17g %d\n", r.u, r.p, r.exact);
	}
	fclose(fp);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--cases"))
		return run_cases(argv[2]);
	test_median();
	test_exact();
	test_ties_and_normal();
	test_shift();
	test_bh();
	return tap_done();
}
