// SPDX-License-Identifier: MIT
/*
 * run --vary's grid: the KEY=V1,V2 grammar, the product's columns, the
 * order of the runs, and the study table's arithmetic (the change to the
 * baseline and its mark, compare's judgement, in a cell).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/grid.h"
#include "report/rungrid.h"
#include "stats/compare.h"

static int add(struct mt_grid *g, const char *arg)
{
	struct mt_msg msg;

	return mt_grid_add(g, arg, &msg);
}

static void test_parse(void **state)
{
	struct mt_grid *g;

	(void)state;
	assert_int_equal(mt_grid_create(&g), 0);
	assert_int_equal(mt_grid_columns(g), 1);
	assert_int_equal(add(g, "thp=always,never"), 0);
	assert_int_equal(add(g, "mthp:64k=never,always,madvise"), 0);
	assert_int_equal(mt_grid_columns(g), 6);
	assert_string_equal(g->axes[1].values[2], "madvise");
	/* bad input: nothing added */
	assert_int_equal(add(g, "thp=madvise"), -EINVAL);		/* a key twice */
	assert_int_equal(add(g, "x="), -EINVAL);			/* no values */
	assert_int_equal(add(g, "x=1,,2"), -EINVAL);			/* an empty one */
	assert_int_equal(add(g, "x=1,"), -EINVAL);
	assert_int_equal(add(g, "x=1,1"), -EINVAL);			/* a value twice */
	assert_int_equal(add(g, "=1,2"), -EINVAL);
	assert_int_equal(add(g, "novalues"), -EINVAL);
	assert_int_equal(add(g, "x=1,2,3,4,5,6,7,8,9,10,11"), -E2BIG);	/* 66 columns */
	assert_int_equal(g->n_axes, 2);
	assert_int_equal(mt_grid_columns(g), 6);
	mt_grid_destroy(g);
	mt_grid_destroy(NULL);
}

/* The first axis outermost: thp=always with every mthp value first. */
static void test_columns(void **state)
{
	struct mt_grid *g;
	size_t vi[MT_GRID_AXES_MAX];

	(void)state;
	assert_int_equal(mt_grid_create(&g), 0);
	assert_int_equal(add(g, "a=1,2"), 0);
	assert_int_equal(add(g, "b=x,y,z"), 0);
	mt_grid_column(g, 0, vi);
	assert_int_equal(vi[0], 0);
	assert_int_equal(vi[1], 0);
	mt_grid_column(g, 2, vi);
	assert_int_equal(vi[0], 0);
	assert_int_equal(vi[1], 2);
	mt_grid_column(g, 4, vi);
	assert_int_equal(vi[0], 1);
	assert_int_equal(vi[1], 1);
	mt_grid_destroy(g);
}

static void test_schedule(void **state)
{
	size_t out[12], again[12], seen[4];

	(void)state;
	assert_int_equal(mt_grid_schedule(3, 2, MT_ORDER_INTERLEAVED, 1, out), 0);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 1);
	assert_int_equal(out[2], 2);
	assert_int_equal(out[3], 0);
	assert_int_equal(out[5], 2);
	assert_int_equal(mt_grid_schedule(3, 2, MT_ORDER_SEQUENTIAL, 1, out), 0);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 0);
	assert_int_equal(out[2], 1);
	assert_int_equal(out[5], 2);
	/* random: each round every column once, the same for one seed */
	assert_int_equal(mt_grid_schedule(4, 3, MT_ORDER_RANDOM, 7, out), 0);
	assert_int_equal(mt_grid_schedule(4, 3, MT_ORDER_RANDOM, 7, again), 0);
	assert_memory_equal(out, again, sizeof(out));
	for (size_t r = 0; r < 3; r++) {
		memset(seen, 0, sizeof(seen));
		for (size_t i = 0; i < 4; i++)
			seen[out[r * 4 + i]]++;
		for (size_t c = 0; c < 4; c++)
			assert_int_equal(seen[c], 1);
	}
	assert_int_equal(mt_grid_schedule(0, 3, MT_ORDER_RANDOM, 7, out), -EINVAL);
	assert_int_equal(mt_grid_schedule(2, 0, MT_ORDER_RANDOM, 7, out), -EINVAL);
}

static struct mt_summary sum(double mean, double sd, size_t n)
{
	return (struct mt_summary){ .n = n, .mean = mean, .stddev = sd,
				    .cv = mean ? sd / mean : 0 };
}

/* % change against known means, significant and beyond the noise or not. */
static void test_change(void **state)
{
	struct mt_summary base = sum(1000, 10, 5), up = sum(1100, 10, 5);
	struct mt_summary near = sum(1005, 10, 5), wide = sum(1100, 400, 5);
	struct mt_cmp_side s;

	(void)state;
	memset(&s, 0, sizeof(s));
	mt_compare_judge(&base, &up, true, MT_COMPARE_NOISE_PCT, &s);
	assert_true(s.have_change && !s.absolute);
	assert_float_equal(s.change, 10.0, 1e-9);
	assert_true(s.tested && s.significant && s.changed);
	/* +0.5%: within the 1% noise threshold, whatever the test */
	memset(&s, 0, sizeof(s));
	mt_compare_judge(&base, &near, true, MT_COMPARE_NOISE_PCT, &s);
	assert_float_equal(s.change, 0.5, 1e-9);
	assert_false(s.changed);
	/* +10% inside a wide spread: not significant */
	memset(&s, 0, sizeof(s));
	mt_compare_judge(&base, &wide, true, MT_COMPARE_NOISE_PCT, &s);
	assert_float_equal(s.change, 10.0, 1e-9);
	assert_false(s.significant);
	assert_false(s.changed);
	/* a count from 0: the difference, not a percentage */
	memset(&s, 0, sizeof(s));
	base = sum(0, 0, 3);
	up = sum(4, 1, 3);
	mt_compare_judge(&base, &up, true, MT_COMPARE_NOISE_PCT, &s);
	assert_true(s.absolute);
	assert_float_equal(s.change, 4.0, 1e-9);
}

static void test_cell(void **state)
{
	struct mt_summary base = sum(1000, 10, 5), up = sum(1100, 11, 5), one = sum(2e9, 0, 1);
	struct mt_cmp_side s = { 0 };
	char buf[128];

	(void)state;
	mt_rungrid_cell(buf, sizeof(buf), &base, 1.0, -1, NULL);
	assert_string_equal(buf, "1,000 +- 1.00%");
	mt_compare_judge(&base, &up, true, MT_COMPARE_NOISE_PCT, &s);
	mt_rungrid_cell(buf, sizeof(buf), &up, 1.0, -1, &s);
	assert_string_equal(buf, "1,100 +- 1.00%    +10.0%*");
	/* an emulated CPU's time: the change, no mark */
	s.emulated = true;
	mt_rungrid_cell(buf, sizeof(buf), &up, 1.0, -1, &s);
	assert_string_equal(buf, "1,100 +- 1.00%    +10.0% ");
	/* one run: no spread, the place kept; seconds at 4 digits */
	mt_rungrid_cell(buf, sizeof(buf), &one, 1e9, 4, NULL);
	assert_string_equal(buf, "2.0000         ");
	/* no change to show (a column without runs): blank, aligned */
	memset(&s, 0, sizeof(s));
	mt_rungrid_cell(buf, sizeof(buf), &base, 1.0, -1, &s);
	assert_string_equal(buf, "1,000 +- 1.00%           ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_change),
		cmocka_unit_test(test_cell),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
