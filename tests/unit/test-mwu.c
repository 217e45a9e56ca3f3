// SPDX-License-Identifier: MIT
/*
 * Mann-Whitney U against scipy.stats.mannwhitneyu (two-sided, method
 * "auto"). scipy is not on the build machine: the expected values come from
 * tests/data/compare/mwu-reference.py, which enumerates every split of the
 * pooled ranks for the exact p (independent of the generating function in
 * mwu.c) and applies scipy's normal approximation otherwise; the first case
 * is scipy's documented example (U 17, p 0.1111111111111111, asymptotic
 * 0.11134688653314041).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "stats/mwu.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void check(const double *x, size_t nx, const double *y, size_t ny, double u, double p,
		  bool exact)
{
	struct mt_mwu m;

	assert_int_equal(mt_stats_mwu(x, nx, y, ny, &m), 0);
	assert_float_equal(m.u, u, 1e-12);
	assert_float_equal(m.p, p, 1e-12);
	assert_int_equal(m.exact, exact);
}

static void test_scipy_doc_example(void **state)
{
	const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };

	(void)state;
	check(males, N(males), females, N(females), 17, 0.1111111111111111, true);
	/* The other way round: U2 = 20 - 17, the same two-sided p. */
	check(females, N(females), males, N(males), 3, 0.1111111111111111, true);
}

static void test_exact(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	const double c[] = { 1.1, 3.2, 5.3, 7.4, 9.5, 11.6 }, d[] = { 2.2, 4.1, 6.3, 8.2, 10.1 };
	const double e[] = { 10.5, 12.25, 9.75 };
	double f[12];

	(void)state;
	/* Fully separated: 2 / C(10, 5) = 2 / 252. */
	check(a, 5, b, 5, 0, 0.0079365079365079361, true);
	/* Alternating: U = nx ny / 2, p clipped at 1. */
	check(c, N(c), d, N(d), 15, 1.0, true);
	/* 3 against 12: exact, as one side has at most 8 values. */
	for (int i = 0; i < 12; i++)
		f[i] = i + 1;
	check(e, N(e), f, 12, 31, 0.07032967032967033, true);
}

static void test_asymptotic(void **state)
{
	const double a[] = { 1, 2, 2, 3, 4 }, b[] = { 2, 3, 3, 5, 6 };
	double x[10], y[10];

	(void)state;
	/* Ties: the normal approximation with the tie correction. */
	check(a, 5, b, 5, 6, 0.19882894401644238, false);
	/* Both sides above 8 values. */
	for (int i = 0; i < 10; i++) {
		x[i] = 2.0 * i;
		y[i] = 2.0 * i + 3.5;
	}
	check(x, 10, y, 10, 36, 0.30748945661868132, false);
}

static void test_sf(void **state)
{
	(void)state;
	/* m = n = 2: U is 0, 1, 2, 2, 3, 4 over the 6 splits. */
	assert_float_equal(mt_stats_mwu_sf(2, 2, 0), 1.0, 0);
	assert_float_equal(mt_stats_mwu_sf(2, 2, 2), 4.0 / 6.0, 1e-15);
	assert_float_equal(mt_stats_mwu_sf(2, 2, 4), 1.0 / 6.0, 1e-15);
	assert_float_equal(mt_stats_mwu_sf(2, 2, 5), 0.0, 0);
	/* m = 1: U uniform over 0..n. */
	assert_float_equal(mt_stats_mwu_sf(1, 9, 7), 3.0 / 10.0, 1e-15);
	assert_true(isnan(mt_stats_mwu_sf(0, 3, 1)));
}

static void test_degenerate(void **state)
{
	const double a[] = { 5, 5, 5 }, b[] = { 5, 5, 5 }, bad[] = { 1, NAN };
	struct mt_mwu m;

	(void)state;
	/* Every value tied: nothing tells them apart. */
	check(a, 3, b, 3, 4.5, 1.0, false);
	assert_int_equal(mt_stats_mwu(a, 0, b, 3, &m), -EDOM);
	assert_int_equal(mt_stats_mwu(a, 3, bad, 2, &m), -EDOM);
}

static void check_hl(const double *x, size_t nx, const double *y, size_t ny, double alpha,
		     double shift, double low, double high)
{
	struct mt_hl hl;

	assert_int_equal(mt_stats_hl(x, nx, y, ny, alpha, &hl), 0);
	assert_float_equal(hl.shift, shift, 1e-12);
	assert_float_equal(hl.low, low, 1e-12);
	assert_float_equal(hl.high, high, 1e-12);
}

/*
 * Hodges-Lehmann against a brute force (tests/data/compare/hl-reference.py):
 * every difference sorted, the exact U counts from every split of the
 * pooled ranks, the normal quantile from Python's statistics.NormalDist.
 */
static void test_hl(void **state)
{
	const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	const double e[] = { 10.5, 12.25, 9.75 }, two[] = { 1, 2 }, other[] = { 3, 4 };
	double f[12], g[12], h[10];
	struct mt_hl hl;

	(void)state;
	/* exact: P(U <= 1) = 2 / 126 <= 0.025 < P(U <= 2) = 4 / 126 */
	check_hl(males, N(males), females, N(females), 0.05, 7, -1, 17);
	for (int i = 0; i < 12; i++)
		f[i] = i + 1;
	check_hl(e, N(e), f, 12, 0.05, 4.375, -0.25, 8.75);
	/* a smaller alpha, a wider interval */
	check_hl(e, N(e), f, 12, 0.01, 4.375, -1.5, 10.25);
	/* both sides above 8: the normal approximation, c = 30 of 120 */
	for (int i = 1; i <= 12; i++)
		g[i - 1] = fmod(1.5 * i, 17) + 0.1 * i;
	for (int i = 1; i <= 10; i++)
		h[i - 1] = (7 * i) % 13 + 0.05 * i;
	check_hl(g, 12, h, 10, 0.05, 2.525, -2.2, 7.35);
	/* 2 against 2: no split is rare enough for 95%, the interval unbounded */
	assert_int_equal(mt_stats_hl(two, 2, other, 2, 0.05, &hl), 0);
	assert_float_equal(hl.shift, -2, 0);
	assert_true(isinf(hl.low) && hl.low < 0 && isinf(hl.high) && hl.high > 0);
	assert_int_equal(mt_stats_hl(two, 0, other, 2, 0.05, &hl), -EDOM);
	assert_int_equal(mt_stats_hl(two, 2, other, 2, 0, &hl), -EDOM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scipy_doc_example),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_asymptotic),
		cmocka_unit_test(test_sf),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_hl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
