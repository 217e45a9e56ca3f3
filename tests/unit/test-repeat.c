// SPDX-License-Identifier: MIT
/*
 * The rules of adaptive repetition on synthetic samples: the CI test of
 * --ci-target (Student's t: 8 samples of mean 100.125, sd 1.2464, give a
 * half-width of 1.0407% of the mean), the stop decision between iterations,
 * and hyperfine's outlier rule with numpy's default (linear) quartiles.
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

#include "model/config.h"
#include "stats/repeat.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_ci_met(void **state)
{
	const double x[] = { 100, 101, 99, 100, 102, 98, 100, 101 };
	const double zero[] = { 0, 0, 0 };

	(void)state;
	assert_true(mt_repeat_ci_met(x, N(x), 5));
	assert_true(mt_repeat_ci_met(x, N(x), 1.05));
	assert_false(mt_repeat_ci_met(x, N(x), 1.03));
	/* one sample has no interval; a zero mean no relative one */
	assert_false(mt_repeat_ci_met(x, 1, 50));
	assert_false(mt_repeat_ci_met(zero, N(zero), 50));
	/* 2 samples: t(1) = 12.706, wide: 100, 101 is 6.32% wide each side */
	assert_false(mt_repeat_ci_met(x, 2, 6.3));
	assert_true(mt_repeat_ci_met(x, 2, 6.4));
}

static void test_decide_fixed(void **state)
{
	struct mt_config cfg;

	(void)state;
	mt_config_init(&cfg);
	cfg.iterations = 4;
	assert_int_equal(mt_repeat_limit(&cfg), 4);
	assert_int_equal(mt_repeat_decide(&cfg, 3, 1e9, true), MT_STOP_NONE);
	assert_int_equal(mt_repeat_decide(&cfg, 4, 0, false), MT_STOP_ITERATIONS);
}

static void test_decide_target(void **state)
{
	struct mt_config cfg;

	(void)state;
	mt_config_init(&cfg);
	cfg.ci_target = 5;
	cfg.min_iterations = 3;
	cfg.max_iterations = 60;
	assert_int_equal(mt_repeat_limit(&cfg), 60);
	/* met, but below --min-iterations: go on */
	assert_int_equal(mt_repeat_decide(&cfg, 2, 0, true), MT_STOP_NONE);
	assert_int_equal(mt_repeat_decide(&cfg, 3, 0, true), MT_STOP_TARGET);
	assert_int_equal(mt_repeat_decide(&cfg, 30, 0, false), MT_STOP_NONE);
	assert_int_equal(mt_repeat_decide(&cfg, 60, 0, false), MT_STOP_MAX_ITERATIONS);
	/* met on the last allowed iteration: it was met */
	assert_int_equal(mt_repeat_decide(&cfg, 60, 0, true), MT_STOP_TARGET);
	cfg.max_time_s = 2.5;
	assert_int_equal(mt_repeat_decide(&cfg, 5, 2.4, false), MT_STOP_NONE);
	assert_int_equal(mt_repeat_decide(&cfg, 5, 2.5, false), MT_STOP_MAX_TIME);
	/* no iteration done yet: the time limit waits for one */
	assert_int_equal(mt_repeat_decide(&cfg, 0, 9, false), MT_STOP_NONE);
	/* a min of 1 still needs 2 samples for an interval */
	cfg.min_iterations = 1;
	assert_int_equal(mt_repeat_decide(&cfg, 1, 0, true), MT_STOP_NONE);
}

static void test_outliers(void **state)
{
	/* numpy: q1 10.25, q3 12.0, fences 7.625 and 14.625 */
	const double x[] = { 10, 12, 11, 13, 10, 11, 12, 50, 0, 11 };
	const double y[] = { 1, 2, 3, 4, 5, 6, 7, 8, 100 };
	const double few[] = { 1, 2, 3, 1000 };
	const double flat[] = { 5, 5, 5, 5, 5 };
	bool flag[16];

	(void)state;
	assert_int_equal(mt_repeat_outliers(x, N(x), flag), 2);
	for (size_t i = 0; i < N(x); i++)
		assert_int_equal(flag[i], i == 7 || i == 8);
	assert_int_equal(mt_repeat_outliers(y, N(y), flag), 1);
	assert_true(flag[8]);
	/* 4 samples: q1 1.75, q3 252.25, upper fence 628; 3 have no quartiles */
	assert_int_equal(mt_repeat_outliers(few, N(few), flag), 1);
	assert_true(flag[3]);
	assert_int_equal(mt_repeat_outliers(few, 3, flag), 0);
	assert_int_equal(mt_repeat_outliers(flat, N(flat), flag), 0);
}

static void test_jumped(void **state)
{
	/* iteration 2 is the outlier; steal jumped in it, not in 4 */
	const bool flag[] = { false, false, true, false, true };
	const double steal[] = { 0, 1, 9, 2, 1 };
	const double none[] = { 0, 0, 0, 0, 0 };
	const double unread[] = { -1, -1, -1, -1, -1 };
	const double tie[] = { 3, 0, 3, 0, 0 };

	(void)state;
	assert_true(mt_repeat_jumped(steal, flag, 5, 2));
	assert_false(mt_repeat_jumped(steal, flag, 5, 4));
	assert_false(mt_repeat_jumped(none, flag, 5, 2));
	assert_false(mt_repeat_jumped(unread, flag, 5, 2));
	/* as much in an ordinary iteration: nothing to blame */
	assert_false(mt_repeat_jumped(tie, flag, 5, 2));
}

static void test_stop_names(void **state)
{
	(void)state;
	assert_null(mt_stop_name(MT_STOP_NONE));
	assert_string_equal(mt_stop_name(MT_STOP_TARGET), "target");
	assert_string_equal(mt_stop_name(MT_STOP_MAX_TIME), "max-time");
	assert_int_equal(mt_stop_parse("max-iterations"), MT_STOP_MAX_ITERATIONS);
	assert_int_equal(mt_stop_parse("bogus"), -1);
	assert_int_equal(mt_order_parse("interleaved"), MT_ORDER_INTERLEAVED);
	assert_string_equal(mt_order_name(MT_ORDER_RANDOM), "random");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ci_met),
		cmocka_unit_test(test_decide_fixed),
		cmocka_unit_test(test_decide_target),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_jumped),
		cmocka_unit_test(test_stop_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
