// SPDX-License-Identifier: MIT
/*
 * bisect-run's sequential test on synthetic samples: a clear regression is
 * bad at the first look, a clear non-change good, an interval that holds
 * the threshold asks for more and, with the budget spent, gives no
 * verdict; an improvement is never bad; a saved series that runs out
 * ends the test where it ends; outliers that mislead a mean's interval
 * leave the verdict right or undecided.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "stats/bisect.h"
#include "stats/compare.h"
#include "stats/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * 100 +- 1: a quiet baseline of 20. Fewer could not decide at 3: the
 * first look spends 0.2% (test_look_alpha), and 3 against 10 have 286
 * orders, the rarest 0.35%.
 */
static const double base_x[] = { 99, 101, 100, 99.5, 100.5, 100, 99, 101, 100.2, 99.8,
				  99.1, 100.9, 100.1, 99.6, 100.4, 99.9, 99.3, 100.7, 100.3, 99.7 };

static const struct mt_bisect_array b = { base_x, N(base_x) };

static const struct mt_bisect_rule rule = { .threshold_pct = 2.5, .worse = 1, .max_runs = 30 };

static void test_looks(void **state)
{
	(void)state;
	assert_int_equal(mt_bisect_next_look(0, 30), 3);
	assert_int_equal(mt_bisect_next_look(3, 30), 5);
	assert_int_equal(mt_bisect_next_look(5, 30), 8);
	assert_int_equal(mt_bisect_next_look(8, 30), 12);
	assert_int_equal(mt_bisect_next_look(27, 30), 30);
	assert_int_equal(mt_bisect_next_look(0, 3), 3);
	/* not 27 then 30: a last look of less than half a step is the budget */
	assert_int_equal(mt_bisect_next_look(18, 30), 30);
	assert_int_equal(mt_bisect_next_look(18, 50), 27);
	assert_int_equal(mt_bisect_next_look(0, 4), 3);
	assert_int_equal(mt_bisect_next_look(3, 4), 4);
}

/* The looks' levels: 5% over 3 + 5 + 8 + 12 + 18 + 30 = 76 repetitions. */
static void test_look_alpha(void **state)
{
	double sum = 0.0;

	(void)state;
	for (size_t n = 0; n < 30; n = mt_bisect_next_look(n, 30))
		sum += mt_bisect_look_alpha(mt_bisect_next_look(n, 30), 30);
	assert_float_equal(sum, 0.05, 1e-15);
	assert_float_equal(mt_bisect_look_alpha(3, 30), 0.05 * 3 / 76, 1e-15);
	assert_float_equal(mt_bisect_look_alpha(30, 30), 0.05 * 30 / 76, 1e-15);
	assert_float_equal(mt_bisect_look_alpha(3, 3), 0.05, 1e-15);
}

static void test_clear_bad(void **state)
{
	const double x[] = { 110, 111, 109 };
	struct mt_bisect_decision d;

	(void)state;
	assert_int_equal(mt_bisect_judge(&rule, &b, x, N(x), &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_BAD);
	assert_true(d.have_ci);
	assert_true(d.ci_low > 2.5);
	assert_true(fabs(d.change - 10.0) < 0.1);
}

static void test_clear_good(void **state)
{
	const double x[] = { 100, 100.3, 99.8 };
	struct mt_bisect_decision d;

	(void)state;
	assert_int_equal(mt_bisect_judge(&rule, &b, x, N(x), &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_GOOD);
	assert_true(d.ci_high <= 2.5);
}

/* +2.5% with spread: the interval holds the threshold */
static void test_overlap(void **state)
{
	const double x[] = { 100, 105, 102.5, 101, 104 };
	struct mt_bisect_rule spent = rule;
	struct mt_bisect_decision d;

	(void)state;
	assert_int_equal(mt_bisect_judge(&rule, &b, x, N(x), &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_MORE);
	assert_true(d.ci_low < 2.5 && d.ci_high > 2.5);
	spent.max_runs = N(x);
	assert_int_equal(mt_bisect_judge(&spent, &b, x, N(x), &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_UNDECIDED);
}

/* A faster kernel is no regression, however far it moved. */
static void test_improvement(void **state)
{
	const double x[] = { 80, 81, 79 };
	struct mt_bisect_rule down = rule;
	struct mt_bisect_decision d;

	(void)state;
	assert_int_equal(mt_bisect_judge(&rule, &b, x, N(x), &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_GOOD);
	assert_true(d.change < -19);
	/* where down is worse (a rate), the same drop is bad */
	down.worse = -1;
	assert_int_equal(mt_bisect_judge(&down, &b, x, N(x), &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_BAD);
	assert_true(d.change > 19 && d.ci_low > 2.5);
}

static void test_bad_base(void **state)
{
	const double zeros[] = { 0, 0, 0, 1, 2 }, x[] = { 1, 2, 3 };
	const struct mt_bisect_array zero = { zeros, N(zeros) }, one = { base_x, 1 };
	struct mt_bisect_decision d;

	(void)state;
	/* a median of 0: no percentage of it */
	assert_int_equal(mt_bisect_judge(&rule, &zero, x, N(x), &d), -EDOM);
	assert_int_equal(mt_bisect_judge(&rule, &one, x, N(x), &d), -EDOM);
}

/*
 * Heavy tails: a base of 30 whose iterations were clean but for 7 at 1.5x
 * (a loaded machine's steal), and a kernel whose every clean iteration is
 * 5% slower. The outliers lift the base's mean past the candidate's, and
 * Welch's interval of the means says good, however many repetitions; the
 * shift's interval holds the threshold at 5 (more, then 125 if it stayed
 * so) and is wholly above it, bad, at 30.
 */
static void test_heavy_tail(void **state)
{
	double y[30], x[30], lo, hi;
	const struct mt_bisect_array heavy = { y, N(y) };
	struct mt_summary sy, sx;
	struct mt_bisect_decision d;

	(void)state;
	for (size_t i = 0; i < N(y); i++) {
		y[i] = i % 4 == 3 && i < 28 ? 150 : 100 + (i % 2 ? 0.5 : -0.5);
		x[i] = 105 + (i % 2 ? 0.3 : -0.3);
	}
	for (size_t n = 5; n <= N(x); n += N(x) - 5) {
		assert_int_equal(mt_stats_summarize(y, N(y), &sy), 0);
		assert_int_equal(mt_stats_summarize(x, n, &sx), 0);
		assert_int_equal(mt_compare_ci_pct(&sy, &sx, &lo, &hi), 0);
		assert_true(hi <= rule.threshold_pct);	/* the mean's rule: good, wrong */
		assert_int_equal(mt_bisect_judge(&rule, &heavy, x, n, &d), 0);
		assert_int_equal(d.verdict, n == 5 ? MT_BISECT_MORE : MT_BISECT_BAD);
		assert_true(fabs(d.change - 5.0) < 0.5);
	}
}

/* The sequential driver: more repetitions only while it is close. */
static void test_decide(void **state)
{
	/* close first (+2.5% at 3 and 5), then clearly over as it settles */
	double x[30];
	struct mt_bisect_array a = { x, N(x) };
	struct mt_bisect_decision d;

	(void)state;
	for (size_t i = 0; i < N(x); i++)
		x[i] = i < 5 ? (i % 2 ? 96 : 110) : 104 + (i % 2 ? 0.5 : -0.5);
	assert_int_equal(mt_bisect_decide(&rule, &b, mt_bisect_array_more, &a, &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_BAD);
	assert_true(d.n > 3);
	assert_true(d.looks >= 2);

	/* a clear one stops at the first look */
	for (size_t i = 0; i < N(x); i++)
		x[i] = 100 + (i % 2 ? 0.2 : -0.2);
	assert_int_equal(mt_bisect_decide(&rule, &b, mt_bisect_array_more, &a, &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_GOOD);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.looks, 1);

	/* always close: the budget spent, then no verdict */
	for (size_t i = 0; i < N(x); i++)
		x[i] = i % 2 ? 92.5 : 112.5;
	assert_int_equal(mt_bisect_decide(&rule, &b, mt_bisect_array_more, &a, &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_UNDECIDED);
	assert_int_equal(d.n, 30);

	/* a saved series of 4 ends the test at 4 */
	a.n = 4;
	assert_int_equal(mt_bisect_decide(&rule, &b, mt_bisect_array_more, &a, &d), 0);
	assert_int_equal(d.verdict, MT_BISECT_UNDECIDED);
	assert_int_equal(d.n, 4);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(mt_bisect_verdict_name(MT_BISECT_GOOD), "good");
	assert_string_equal(mt_bisect_verdict_name(MT_BISECT_UNDECIDED), "undecided");
	assert_true(mt_bisect_is_time("ns_per_block"));
	assert_true(mt_bisect_is_time("time_us"));
	assert_false(mt_bisect_is_time("minor-faults"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_looks),
		cmocka_unit_test(test_look_alpha),
		cmocka_unit_test(test_clear_bad),
		cmocka_unit_test(test_clear_good),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_improvement),
		cmocka_unit_test(test_bad_base),
		cmocka_unit_test(test_heavy_tail),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
