// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "stats/stats.h"

static void test_summary_by_hand(void **state)
{
	/*
	 * 2 4 4 4 5 5 7 9: sum 40, mean 5; squared deviations 9 1 1 1 0 0 4 16
	 * = 32; sample variance 32/7 = 4.571428..., stddev 2.138089935;
	 * cv 0.427617987; median (4 + 5) / 2 = 4.5.
	 */
	const double x[] = { 9, 2, 4, 4, 5, 4, 7, 5 };
	struct mt_summary s;

	(void)state;
	assert_int_equal(mt_stats_summarize(x, 8, &s), 0);
	assert_int_equal(s.n, 8);
	assert_float_equal(s.mean, 5.0, 1e-12);
	assert_float_equal(s.stddev, 2.138089935, 1e-9);
	assert_float_equal(s.cv, 0.427617987, 1e-9);
	assert_float_equal(s.median, 4.5, 1e-12);
	assert_float_equal(s.min, 2.0, 0);
	assert_float_equal(s.max, 9.0, 0);
}

static void test_summary_odd_and_single(void **state)
{
	const double x[] = { 888.64, 885.33, 926.23 };
	struct mt_summary s;

	(void)state;
	/* mean 900.0667; deviations -11.4267 -14.7367 26.1633; ss 1032.27; var 516.13 */
	assert_int_equal(mt_stats_summarize(x, 3, &s), 0);
	assert_float_equal(s.mean, 900.066667, 1e-5);
	assert_float_equal(s.median, 888.64, 1e-12);
	assert_float_equal(s.stddev, 22.718473, 1e-5);
	assert_int_equal(mt_stats_summarize(x, 1, &s), 0);
	assert_float_equal(s.stddev, 0.0, 0);
	assert_float_equal(s.cv, 0.0, 0);
	assert_int_equal(mt_stats_summarize(x, 0, &s), -EINVAL);
}

static void test_large_counts_no_cancellation(void **state)
{
	/* 1e12 + {1, 2, 3}: stddev 1 exactly; sum-of-squares would lose it. */
	const double x[] = { 1e12 + 1, 1e12 + 2, 1e12 + 3 };
	struct mt_summary s;

	(void)state;
	assert_int_equal(mt_stats_summarize(x, 3, &s), 0);
	assert_float_equal(s.stddev, 1.0, 1e-6);
}

static struct mt_samples *samples_one_event(unsigned int n_iter)
{
	struct mt_samples *s;

	assert_int_equal(mt_samples_create(&s, 2, n_iter, 2), 0);
	strcpy(s->phase_names[0], "write_0");
	strcpy(s->phase_names[1], "read_0");
	return s;
}

static void test_scaling_and_states(void **state)
{
	struct mt_event ev[2];
	struct mt_samples *s = samples_one_event(2);
	struct mt_result *r;

	(void)state;
	memset(ev, 0, sizeof(ev));
	strcpy(ev[0].name, "dTLB-load-misses");
	strcpy(ev[1].name, "cycles");
	ev[1].err = -ENOENT;
	/* write_0: multiplexed half the time: 100 counted in 500 of 1000 ns -> 200. */
	*mt_samples_counts(s, 0, 0, 0) = (struct mt_counts){ 100, 1000, 500 };
	*mt_samples_counts(s, 0, 0, 1) = (struct mt_counts){ 300, 1000, 500 };
	/* read_0: enabled, never running: not counted, never 0. */
	*mt_samples_counts(s, 1, 0, 0) = (struct mt_counts){ 0, 1000, 0 };
	*mt_samples_counts(s, 1, 0, 1) = (struct mt_counts){ 0, 1000, 0 };
	for (unsigned int p = 0; p < 2; p++)
		for (unsigned int i = 0; i < 2; i++)
			*mt_samples_time(s, p, i) = 1000 * (i + 1);

	assert_int_equal(mt_result_from_samples(&r, s, ev, 8192, 4096, 2), 0);
	assert_int_equal(r->phases[0].counters[0].state, MT_COUNTER_OK);
	assert_float_equal(r->phases[0].counters[0].s.mean, 400.0, 1e-9); /* (200+600)/2 */
	assert_float_equal(r->phases[0].counters[0].running, 0.5, 1e-12);
	assert_int_equal(r->phases[1].counters[0].state, MT_COUNTER_NOT_COUNTED);
	assert_int_equal(r->phases[0].counters[1].state, MT_COUNTER_UNSUPPORTED);
	assert_float_equal(r->phases[0].time_ns.mean, 1500.0, 1e-9);
	assert_true(mt_phase_has(&r->phases[0], MT_DERIVED_NS_PER_BLOCK));
	assert_float_equal(r->phases[0].derived[MT_DERIVED_NS_PER_BLOCK], 750.0, 1e-9);
	/* no role for these names: no faults, no ratio, never a made-up 0 */
	assert_false(mt_phase_has(&r->phases[0], MT_DERIVED_FAULTS_PER_BLOCK));
	assert_false(mt_phase_has(&r->phases[0], MT_DERIVED_DTLB_MISS_RATIO));
	mt_result_destroy(r);
	mt_samples_destroy(s);
}

static void test_derived_by_role(void **state)
{
	struct mt_event ev[2];
	struct mt_samples *s = samples_one_event(1);
	struct mt_result *r;

	(void)state;
	memset(ev, 0, sizeof(ev));
	strcpy(ev[0].name, "dTLB-loads");
	ev[0].attr.type = PERF_TYPE_HW_CACHE;
	ev[0].attr.config = PERF_COUNT_HW_CACHE_DTLB;
	strcpy(ev[1].name, "dTLB-load-misses");
	ev[1].attr.type = PERF_TYPE_HW_CACHE;
	ev[1].attr.config = PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	*mt_samples_counts(s, 0, 0, 0) = (struct mt_counts){ 1000, 10, 10 };
	*mt_samples_counts(s, 0, 1, 0) = (struct mt_counts){ 50, 10, 10 };
	/* read_0: loads not counted: the ratio must be absent, misses/block present */
	*mt_samples_counts(s, 1, 0, 0) = (struct mt_counts){ 0, 10, 0 };
	*mt_samples_counts(s, 1, 1, 0) = (struct mt_counts){ 20, 10, 10 };
	assert_int_equal(mt_result_from_samples(&r, s, ev, 1 << 20, 4096, 256), 0);
	assert_int_equal(r->events[0].role, MT_ROLE_DTLB_LOADS);
	assert_int_equal(r->events[1].role, MT_ROLE_DTLB_MISSES);
	assert_float_equal(r->phases[0].derived[MT_DERIVED_DTLB_MISS_RATIO], 0.05, 1e-12);
	assert_float_equal(r->phases[0].derived[MT_DERIVED_MISSES_PER_BLOCK], 50.0 / 256, 1e-12);
	assert_false(mt_phase_has(&r->phases[1], MT_DERIVED_DTLB_MISS_RATIO));
	assert_float_equal(r->phases[1].derived[MT_DERIVED_MISSES_PER_BLOCK], 20.0 / 256, 1e-12);
	mt_result_destroy(r);
	mt_samples_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_by_hand),
		cmocka_unit_test(test_summary_odd_and_single),
		cmocka_unit_test(test_large_counts_no_cancellation),
		cmocka_unit_test(test_scaling_and_states),
		cmocka_unit_test(test_derived_by_role),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
