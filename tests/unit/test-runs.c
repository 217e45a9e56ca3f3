// SPDX-License-Identifier: MIT
/*
 * stat --runs merging on synthetic runs: the phase's summaries are the ones
 * of every iteration of every run (the counter's pooled from the runs'
 * summaries: n, mean, stddev, min and max exact against the summary of all
 * samples), runs[] keeps each run's means, between_runs their spread and CI;
 * a counter one run missed is not counted, and runs of other shapes refused.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/measure.h"
#include "stats/ci.h"
#include "stats/stats.h"

#define RUNS 3
#define ITERS 4

/* This cmocka has no assert_double_equal. */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static const double times[RUNS][ITERS] = {
	{ 100, 110, 90, 105 }, { 130, 120, 125, 140 }, { 95, 97, 99, 101 },
};
static const double counts[RUNS][ITERS] = {
	{ 10, 12, 9, 11 }, { 20, 22, 25, 19 }, { 1, 2, 3, 4 },
};

static struct mt_result *one_run(unsigned int k, uint64_t addr)
{
	struct mt_result *r;

	assert_int_equal(mt_result_create(&r, 1, 1), 0);
	strcpy(r->phases[0].name, "read_0");
	strcpy(r->events[0].name, "minor-faults");
	r->blocks = 10;
	r->map.valid = true;
	r->map.addr = addr;
	r->phases[0].time_samples = malloc(sizeof(times[k]));
	assert_non_null(r->phases[0].time_samples);
	memcpy(r->phases[0].time_samples, times[k], sizeof(times[k]));
	assert_int_equal(mt_stats_summarize(times[k], ITERS, &r->phases[0].time_ns), 0);
	r->phases[0].counters[0].state = MT_COUNTER_OK;
	r->phases[0].counters[0].running = 1.0;
	r->phases[0].counters[0].samples = malloc(sizeof(counts[k]));
	assert_non_null(r->phases[0].counters[0].samples);
	memcpy(r->phases[0].counters[0].samples, counts[k], sizeof(counts[k]));
	assert_int_equal(mt_stats_summarize(counts[k], ITERS, &r->phases[0].counters[0].s), 0);
	return r;
}

static void test_merge(void **state)
{
	struct mt_result *runs[RUNS], *m = NULL;
	struct mt_summary all_t, all_c;
	double flat_t[RUNS * ITERS], flat_c[RUNS * ITERS], means[RUNS], mean, half;
	const struct mt_phase_stat *ps;

	(void)state;
	for (unsigned int k = 0; k < RUNS; k++) {
		runs[k] = one_run(k, 0x7f0000000000ull + k * 0x1000000ull);
		memcpy(flat_t + k * ITERS, times[k], sizeof(times[k]));
		memcpy(flat_c + k * ITERS, counts[k], sizeof(counts[k]));
		means[k] = runs[k]->phases[0].time_ns.mean;
	}
	mt_stats_summarize(flat_t, RUNS * ITERS, &all_t);
	mt_stats_summarize(flat_c, RUNS * ITERS, &all_c);
	mt_ci_mean95(means, RUNS, &mean, &half);

	assert_int_equal(mt_measure_runs_merge(runs, RUNS, &m), 0);
	for (unsigned int k = 0; k < RUNS; k++)
		assert_null(runs[k]);
	assert_int_equal(m->n_runs, RUNS);
	ps = &m->phases[0];
	assert_int_equal(ps->time_ns.n, RUNS * ITERS);
	assert_memory_equal(ps->time_samples, flat_t, sizeof(flat_t));
	assert_near(ps->time_ns.mean, all_t.mean, 1e-9);
	assert_near(ps->time_ns.stddev, all_t.stddev, 1e-9);
	assert_near(ps->time_ns.median, all_t.median, 1e-9);
	/* pooled from the runs' summaries: exact but for the median */
	assert_int_equal(ps->counters[0].s.n, RUNS * ITERS);
	assert_near(ps->counters[0].s.mean, all_c.mean, 1e-9);
	assert_near(ps->counters[0].s.stddev, all_c.stddev, 1e-9);
	assert_near(ps->counters[0].s.cv, all_c.cv, 1e-12);
	assert_near(ps->counters[0].s.min, 1, 0);
	assert_near(ps->counters[0].s.max, 25, 0);
	for (unsigned int k = 0; k < RUNS; k++) {
		assert_int_equal(ps->runs[k].n, ITERS);
		assert_near(ps->runs[k].time_mean, means[k], 1e-12);
		assert_true(ps->runs[k].map_addr == 0x7f0000000000ull + k * 0x1000000ull);
	}
	assert_near(ps->runs[1].counter_means[0], 21.5, 1e-12);
	assert_int_equal(ps->between.n, RUNS);
	assert_near(ps->between.mean, mean, 1e-9);
	assert_near(ps->between_half, half, 1e-9);
	assert_true(ps->between.stddev > 10.0);	/* between runs, not within one */
	mt_result_destroy(m);
}

static void test_missing_counter(void **state)
{
	struct mt_result *runs[2], *m = NULL;

	(void)state;
	runs[0] = one_run(0, 0x1000);
	runs[1] = one_run(1, 0x2000);
	runs[1]->phases[0].counters[0].state = MT_COUNTER_NOT_COUNTED;
	assert_int_equal(mt_measure_runs_merge(runs, 2, &m), 0);
	/*
	 * Not counted in one run: the summary is over the run that counted
	 * (its n says so) and the other's iterations are NAN in the samples,
	 * never a mean that claims both runs.
	 */
	assert_int_equal(m->phases[0].counters[0].state, MT_COUNTER_OK);
	assert_int_equal(m->phases[0].counters[0].s.n, m->phases[0].runs[0].n);
	assert_near(m->phases[0].counters[0].s.mean, 10.5, 1e-12);
	for (size_t i = 0; i < m->phases[0].time_ns.n; i++)
		assert_true(i < m->phases[0].runs[0].n ?
			    isfinite(m->phases[0].counters[0].samples[i]) :
			    !isfinite(m->phases[0].counters[0].samples[i]));
	assert_false(isfinite(m->phases[0].runs[1].counter_means[0]));
	assert_near(m->phases[0].runs[0].counter_means[0], 10.5, 1e-12);
	mt_result_destroy(m);
}

static void test_shapes(void **state)
{
	struct mt_result *runs[2], *m = NULL;

	(void)state;
	runs[0] = one_run(0, 0x1000);
	runs[1] = one_run(1, 0x2000);
	strcpy(runs[1]->phases[0].name, "read_1");
	assert_int_equal(mt_measure_runs_merge(runs, 2, &m), -EPROTO);
	assert_null(m);
	assert_int_equal(mt_measure_runs_merge(runs, 0, &m), -EINVAL);
	mt_result_destroy(runs[0]);
	mt_result_destroy(runs[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_missing_counter),
		cmocka_unit_test(test_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
