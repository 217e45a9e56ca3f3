// SPDX-License-Identifier: MIT
/*
 * bisect-run's sequential test on synthetic samples: a clear regression is
 * bad at the first look, a clear non-change good, an interval that holds
 * the threshold asks for more and, with the budget spent, gives no
 * verdict; an improvement is never bad; a saved series that runs out
 * ends the test where it ends.
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
#include "stats/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* 100 +- 1: a quiet baseline of 10 */
static const double base_x[] = { 99, 101, 100, 99.5, 100.5, 100, 99, 101, 100.2, 99.8 };

static struct mt_summary base(void)
{
	struct mt_summary s;

	assert_int_equal(mt_stats_summarize(base_x, N(base_x), &s), 0);
	return s;
}

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
}

static void test_clear_bad(void **state)
{
	const double x[] = { 110, 111, 109 };
	struct mt_summary b = base();
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
	struct mt_summary b = base();
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
	struct mt_summary b = base();
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
	struct mt_summary b = base();
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
	struct mt_summary zero = { .n = 5 }, one = { .n = 1, .mean = 100 };
	const double x[] = { 1, 2, 3 };
	struct mt_bisect_decision d;

	(void)state;
	assert_int_equal(mt_bisect_judge(&rule, &zero, x, N(x), &d), -EDOM);
	assert_int_equal(mt_bisect_judge(&rule, &one, x, N(x), &d), -EDOM);
}

/* The sequential driver: more repetitions only while it is close. */
static void test_decide(void **state)
{
	/* close first (+2.5% at 3 and 5), then clearly over as it settles */
	double x[30];
	struct mt_bisect_array a = { x, N(x) };
	struct mt_summary b = base();
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
		cmocka_unit_test(test_clear_bad),
		cmocka_unit_test(test_clear_good),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_improvement),
		cmocka_unit_test(test_bad_base),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
