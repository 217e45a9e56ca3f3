// SPDX-License-Identifier: MIT
/*
 * The probe's pieces without a clock: the paired chain builder, the step
 * finder on synthetic translation curves, and the 95% interval.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/ci.h"
#include "stats/steps.h"
#include "workload/chase.h"

#define PAGE 4096
#define N 300

/* Offsets of the chain's slots from base, in the order it visits them. */
static void walk(char *base, void **p, size_t n, size_t *off)
{
	for (size_t i = 0; i < n; i++) {
		off[i] = (size_t)((char *)p - base);
		p = *p;
	}
	assert_ptr_equal((char *)p - base, off[0]);	/* a cycle of n */
}

static void pair_same_chain(void **state)
{
	size_t *order = calloc(N, sizeof(*order)), oa[N], ob[N];
	char *a = aligned_alloc(PAGE, (size_t)N * PAGE), *b = aligned_alloc(PAGE, (size_t)N * PAGE);
	bool seen[N] = { false };
	void **pa, **pb;
	size_t moved = 0;

	(void)state;
	assert_non_null(order);
	assert_non_null(a);
	assert_non_null(b);
	mt_chase_link_pair(a, b, N, PAGE, 42, order, &pa, &pb);
	walk(a, pa, N, oa);
	walk(b, pb, N, ob);
	for (size_t i = 0; i < N; i++) {
		/* The same page and the same line in it, at the same step. */
		assert_int_equal(oa[i], ob[i]);
		assert_int_equal(oa[i] % 64, 0);
		/* One line in every page, each page once: a single cycle. */
		assert_false(seen[oa[i] / PAGE]);
		seen[oa[i] / PAGE] = true;
		moved += oa[i] % PAGE != 0;
	}
	/* The lines within pages vary (cache sets), not all at offset 0. */
	assert_true(moved > N / 2);
	/*
	 * Every 64 consecutive pages take each of a page's 64 lines once: the
	 * L1 data cache's sets (the line's place in its page) load evenly.
	 */
	for (size_t g = 0; g + 64 <= N; g += 64) {
		bool line[64] = { false };

		for (size_t i = 0; i < N; i++)
			if (oa[i] / PAGE >= g && oa[i] / PAGE < g + 64)
				line[oa[i] % PAGE / 64] = true;
		for (size_t l = 0; l < 64; l++)
			assert_true(line[l]);
	}
	/* mt_chase_link with the same seed draws the same chain again. */
	pa = mt_chase_link(a, N, PAGE, 42, order);
	walk(a, pa, N, ob);
	assert_memory_equal(oa, ob, sizeof(oa));
	/* Another seed, another chain. */
	pa = mt_chase_link(a, N, PAGE, 43, order);
	walk(a, pa, N, ob);
	assert_memory_not_equal(oa, ob, sizeof(oa));
	free(a);
	free(b);
	free(order);
}

static size_t find(const double *y, size_t n, struct mt_step *st)
{
	double ci[64];
	struct mt_step_opts o;

	for (size_t i = 0; i < n; i++)
		ci[i] = 0.05;
	mt_step_opts_init(&o);
	return mt_steps_find(y, ci, n, &o, st, MT_STEPS_MAX);
}

/* Pages 4, 8, ... 32768: flat, +2 ns past 64, +15 past 2048. */
static void two_steps(void **state)
{
	double y[14];
	struct mt_step st[MT_STEPS_MAX];
	size_t n;

	(void)state;
	for (int i = 0; i < 14; i++) {
		unsigned int pages = 4u << i;

		y[i] = pages <= 64 ? 0.01 * (i % 2) : pages <= 2048 ? 2.0 + 0.05 * (i % 2) : 15.0;
	}
	n = find(y, 14, st);
	assert_int_equal(n, 2);
	assert_int_equal(4u << st[0].before, 64);
	assert_int_equal(4u << st[0].after, 128);
	assert_int_equal(4u << st[1].before, 2048);
	assert_int_equal(4u << st[1].after, 4096);
	assert_int_equal(st[1].top, st[1].after);
	assert_true(st[0].confirmed && st[1].confirmed);
	assert_true(fabs(st[1].from - 2.0) < 0.1 && st[1].to == 15.0);
}

static void spike_is_no_step(void **state)
{
	double y[] = { 0.0, 0.02, 0.01, 0.0, 9.0, 0.01, 0.0, 0.02, 0.01 };
	double dip[] = { 2.0, 2.1, 2.0, 0.1, 2.0, 2.05, 2.0 };
	struct mt_step st[MT_STEPS_MAX];

	(void)state;
	assert_int_equal(find(y, 9, st), 0);
	/* A dip and its recovery are no rise over the plateau either. */
	assert_int_equal(find(dip, 7, st), 0);
}

/* A set-associative TLB fills set by set: one step, from where it starts. */
static void ramp_is_one_step(void **state)
{
	double y[] = { 0.0, 0.0, 0.0, 1.0, 2.0, 2.0, 2.05, 2.0 };
	struct mt_step st[MT_STEPS_MAX];

	(void)state;
	assert_int_equal(find(y, 8, st), 1);
	assert_int_equal(st[0].before, 2);
	assert_int_equal(st[0].after, 3);
	assert_int_equal(st[0].top, 4);
	assert_true(st[0].to == 2.0);
}

/*
 * A level whose misses grow as 1 - entries / size rises by less than the
 * ratio from one size to the next: one step while each point rises over
 * the one before, its top where the rise stops.
 */
static void slow_ramp_is_one_step(void **state)
{
	double y[] = { 0.0, 0.0, 0.0, 1.0, 1.5, 2.1, 2.8, 3.5, 3.6, 3.55, 3.6 };
	/* past a level the walks' cost grows on, slower: not the step's */
	double walk[] = { 0, 0, 0, 0, 1.5, 1.5, 1.5, 1.5, 6, 10, 11, 12, 13, 14, 15 };
	/* a ramp to the largest size stayed up: still a step to refine */
	double last[] = { 0.0, 0.0, 0.0, 1.0, 1.5, 2.1, 2.8 };
	struct mt_step st[MT_STEPS_MAX];

	(void)state;
	assert_int_equal(find(y, 11, st), 1);
	assert_int_equal(st[0].before, 2);
	assert_int_equal(st[0].top, 7);
	assert_true(st[0].to == 3.5);
	assert_int_equal(find(walk, 15, st), 2);
	assert_int_equal(st[1].before, 7);
	assert_int_equal(st[1].top, 9);
	assert_true(st[1].to == 10 && st[1].confirmed);
	assert_int_equal(find(last, 7, st), 1);
	assert_int_equal(st[0].top, 6);
	assert_true(st[0].confirmed);
}

/*
 * A burst at the largest size, just past a ramp's pause, is a rise of its
 * own that nothing confirms: the ramp before it stays a confirmed step.
 */
static void burst_at_the_end(void **state)
{
	double y[] = { 0.0, 0.0, 0.0, 2.0, 2.0, 2.0, 2.0, 6.0, 9.0, 9.5, 40.0 };
	struct mt_step st[MT_STEPS_MAX];

	(void)state;
	assert_int_equal(find(y, 11, st), 3);
	assert_int_equal(st[1].before, 6);
	assert_int_equal(st[1].top, 8);
	assert_true(st[1].confirmed && st[1].to == 9.0);
	assert_false(st[2].confirmed);
}

/* A ramp that pauses on a plateau of one or two points is still one step. */
static void paused_ramp_is_one_step(void **state)
{
	double y[] = { 0.0, 0.0, 0.0, 2.1, 3.0, 9.7, 9.5, 9.6, 9.7 };
	double y2[] = { 0.0, 0.0, 0.0, 2.1, 2.2, 2.1, 9.7, 9.5, 9.6, 9.7 };
	double y3[] = { 0.0, 0.0, 0.0, 2.1, 2.0, 2.1, 2.0, 9.7, 9.5, 9.6 };
	struct mt_step st[MT_STEPS_MAX];

	(void)state;
	assert_int_equal(find(y, 9, st), 1);
	assert_int_equal(st[0].before, 2);
	assert_int_equal(st[0].top, 5);
	assert_true(st[0].to == 9.7 && st[0].from == 0.0);
	/* A plateau of three points or more between them: two levels. */
	assert_int_equal(find(y2, 10, st), 2);
	assert_int_equal(st[1].before, 5);
	assert_int_equal(find(y3, 10, st), 2);
	assert_int_equal(st[1].before, 6);
}

/* Noise wider than the rise (intervals overlapping) makes no step. */
static void noise_is_no_step(void **state)
{
	double y[] = { 1.0, 1.1, 0.9, 1.6, 1.7, 1.6 }, ci[] = { 1, 1, 1, 1, 1, 1 };
	struct mt_step st[MT_STEPS_MAX];
	struct mt_step_opts o;

	(void)state;
	mt_step_opts_init(&o);
	assert_int_equal(mt_steps_find(y, ci, 6, &o, st, MT_STEPS_MAX), 0);
	for (int i = 0; i < 6; i++)
		ci[i] = 0.01;
	assert_int_equal(mt_steps_find(y, ci, 6, &o, st, MT_STEPS_MAX), 1);
}

static void ci95(void **state)
{
	double x[] = { 1.0, 2.0, 3.0, 4.0, 5.0 }, m, h;

	(void)state;
	/* Tables of Student's t, two-sided 95%. */
	assert_true(fabs(mt_ci_t95(1) - 12.706) < 0.001);
	assert_true(fabs(mt_ci_t95(4) - 2.776) < 0.001);
	assert_true(fabs(mt_ci_t95(7) - 2.365) < 0.001);
	assert_true(fabs(mt_ci_t95(1e6) - 1.960) < 0.001);
	assert_true(isnan(mt_ci_t95(0)));
	assert_int_equal(mt_ci_mean95(x, 5, &m, &h), 0);
	/* sd = sqrt(2.5), half = 2.776 * sd / sqrt(5) */
	assert_true(fabs(m - 3.0) < 1e-12);
	assert_true(fabs(h - 2.776445 * sqrt(2.5) / sqrt(5.0)) < 1e-4);
	assert_int_equal(mt_ci_mean95(x, 1, &m, &h), -EDOM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pair_same_chain),
		cmocka_unit_test(two_steps),
		cmocka_unit_test(spike_is_no_step),
		cmocka_unit_test(ramp_is_one_step),
		cmocka_unit_test(slow_ramp_is_one_step),
		cmocka_unit_test(burst_at_the_end),
		cmocka_unit_test(paused_ramp_is_one_step),
		cmocka_unit_test(noise_is_no_step),
		cmocka_unit_test(ci95),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
