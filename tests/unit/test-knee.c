// SPDX-License-Identifier: MIT
/*
 * Knee detection on seed 000's published read_4 means (us per region, 8k
 * blocks: per-block cost = time / (region / 8k)) and on synthetic curves.
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

#include "stats/knee.h"
#include "stats/stats.h"

#define M (1024.0 * 1024.0)
#define G (1024.0 * M)

static const double small_x[] = { 256 * M, 320 * M, 384 * M, 448 * M, 512 * M,
				   576 * M, 640 * M, 704 * M, 768 * M };
static const double all_x[] = { 256 * M, 320 * M, 384 * M, 448 * M, 512 * M, 576 * M,
				640 * M, 704 * M, 768 * M, 2 * G, 4 * G, 6 * G, 8 * G,
				10 * G, 12 * G, 14 * G, 16 * G };

/* "no patch" columns: 256m..768m. */
static const double ldom_nopatch[] = { 888.64, 1096.16, 1311.02, 1534.28, 1741.04,
				       10885.34, 20029.18, 29174.22, 38330.03 };
static const double bare_nopatch[] = { 896.42, 1077.53, 1374.84, 1512.21, 1800.35,
				       10816.66, 19912.01, 29138.67, 38215.05 };
static const double t58_nopatch[] = { 1282.48, 1582.04, 1897.30, 2200.42, 2508.67,
				      12952.35, 23196.00, 33594.81, 44024.04 };
/* "patch" and "S11.3" columns: 256m..16g. */
static const double flat_columns[6][17] = {
	{ 885.33, 1097.02, 1312.44, 1533.70, 1736.21, 1958.27, 2185.42, 2392.41, 2597.53,
	  6996.52, 14179.75, 22739.78, 30532.06, 38808.78, 48192.40, 63295.06, 77528.53 },
	{ 926.23, 1151.21, 1382.20, 1617.01, 1840.40, 2068.41, 2321.79, 2529.47, 2766.51,
	  7324.10, 15031.50, 23393.57, 32148.94, 40430.79, 50292.28, 62081.07, 76133.42 },
	{ 893.94, 1113.77, 1331.38, 1547.06, 1752.13, 1990.98, 2209.60, 2421.58, 2639.70,
	  7002.06, 14031.26, 22737.31, 30327.43, 38166.01, 45825.36, 53745.17, 61909.64 },
	{ 1300.72, 1628.67, 1937.39, 2293.58, 2589.45, 2925.43, 3266.45, 3547.10, 3919.14,
	  10309.68, 20800.67, 32157.27, 43313.26, 54417.91, 65615.88, 75464.72, 88794.12 },
	{ 1237.02, 1402.70, 1672.54, 1968.63, 2214.64, 2476.88, 2675.64, 3021.73, 3274.23,
	  8744.85, 18075.35, 38238.04, 51342.70, 67445.53, 80693.10, 93587.64, 108258.13 },
	{ 1490.88, 1862.87, 2225.20, 2590.34, 2970.70, 3333.26, 3710.52, 4088.76, 4459.49,
	  11856.14, 25066.44, 46081.15, 62928.90, 77680.87, 93567.80, 108438.67, 126455.04 },
};

static void per_block(const double *x, const double *us, size_t n, double blk, double *y)
{
	for (size_t i = 0; i < n; i++)
		y[i] = us[i] * 1000.0 / (x[i] / blk);
}

static void one_knee_between(const double *x, const double *y, size_t n, double lo,
			     double hi, double step_lo, double step_hi)
{
	struct mt_knee k[4];

	assert_int_equal(mt_knee_find(x, y, n, NULL, k, 4), 1);
	assert_true(x[k[0].before] == lo);
	assert_true(x[k[0].after] == hi);
	assert_true(k[0].step >= step_lo && k[0].step <= step_hi);
	assert_true(k[0].confirmed);
}

static void test_seed_nopatch(void **state)
{
	const double *cols[] = { ldom_nopatch, bare_nopatch, t58_nopatch };
	double y[9];

	(void)state;
	for (int c = 0; c < 3; c++) {
		per_block(small_x, cols[c], 9, 8192, y);
		/* x5.56, x5.34, x4.59 in one step */
		one_knee_between(small_x, y, 9, 512 * M, 576 * M, 4.5, 5.7);
	}
}

static void test_seed_8m_pages(void **state)
{
	const double x[] = { 128 * G, 192 * G, 256 * G, 320 * G, 384 * G };
	const double nopatch[] = { 730.9, 1137.66, 1517.06, 13486.47, 26406.62 };
	const double patch[] = { 744.83, 1122.72, 1512.26, 1933.85, 2313.34 };
	struct mt_knee k[4];
	double y[5];

	(void)state;
	per_block(x, nopatch, 5, 8 * M, y);
	one_knee_between(x, y, 5, 256 * G, 320 * G, 7.0, 7.2);
	per_block(x, patch, 5, 8 * M, y);
	assert_int_equal(mt_knee_find(x, y, 5, NULL, k, 4), 0);
}

static void test_seed_patch_and_s11_no_knee(void **state)
{
	struct mt_knee k[4];
	double y[17], worst = 0;
	size_t at = 0, worst_at = 0;
	int worst_col = -1;

	(void)state;
	for (int c = 0; c < 6; c++) {
		double s;

		per_block(all_x, flat_columns[c], 17, 8192, y);
		assert_int_equal(mt_knee_find(all_x, y, 17, NULL, k, 4), 0);
		s = mt_knee_largest_step(y, 17, &at);
		if (s > worst) {
			worst = s;
			worst_at = at;
			worst_col = c;
		}
	}
	/* The largest one-step rise: T5-8 "patch", 4g -> 6g, x1.41. */
	assert_int_equal(worst_col, 4);
	assert_true(all_x[worst_at] == 4 * G);
	assert_float_equal(worst, 1.41, 0.005);

	/* A lower ratio than the default does see that rise as a knee. */
	{
		struct mt_knee_opts o;

		mt_knee_opts_init(&o);
		o.ratio = 1.3;
		per_block(all_x, flat_columns[4], 17, 8192, y);
		assert_int_equal(mt_knee_find(all_x, y, 17, &o, k, 4), 1);
		assert_true(all_x[k[0].before] == 4 * G && all_x[k[0].after] == 6 * G);
	}
}

static void test_synthetic(void **state)
{
	double x[16], y[16];
	struct mt_knee k[4];

	(void)state;
	for (int i = 0; i < 16; i++)
		x[i] = 16 * M * (double)(1u << i) / 16;

	/* flat */
	for (int i = 0; i < 16; i++)
		y[i] = 3.0;
	assert_int_equal(mt_knee_find(x, y, 16, NULL, k, 4), 0);

	/* linear in the region: doubles every step, a trend, not a knee */
	for (int i = 0; i < 16; i++)
		y[i] = x[i] / M;
	assert_int_equal(mt_knee_find(x, y, 16, NULL, k, 4), 0);

	/* one knee, x4 between points 6 and 7 */
	for (int i = 0; i < 16; i++)
		y[i] = i < 7 ? 1.2 : 4.8;
	assert_int_equal(mt_knee_find(x, y, 16, NULL, k, 4), 1);
	assert_int_equal(k[0].before, 6);
	assert_int_equal(k[0].after, 7);
	assert_float_equal(k[0].step, 4.0, 1e-9);

	/* one knee on a rising trend */
	for (int i = 0; i < 16; i++)
		y[i] = (i < 9 ? 1.0 : 3.0) * sqrt(x[i] / M);
	assert_int_equal(mt_knee_find(x, y, 16, NULL, k, 4), 1);
	assert_int_equal(k[0].after, 9);

	/* two knees: 1.2 -> 2.9 -> 30 (probe-like) */
	for (int i = 0; i < 16; i++)
		y[i] = i < 4 ? 1.2 : i < 10 ? 2.9 : 30.0;
	{
		struct mt_knee_opts o;

		mt_knee_opts_init(&o);
		assert_int_equal(mt_knee_find(x, y, 16, &o, k, 4), 2);
		assert_int_equal(k[0].after, 4);
		assert_int_equal(k[1].after, 10);
	}

	/* a knee at the last point is reported, unconfirmed */
	for (int i = 0; i < 16; i++)
		y[i] = i < 15 ? 1.0 : 5.0;
	assert_int_equal(mt_knee_find(x, y, 16, NULL, k, 4), 1);
	assert_false(k[0].confirmed);

	/* too few points before it: no level to jump from */
	for (int i = 0; i < 16; i++)
		y[i] = i < 1 ? 1.0 : 5.0;
	assert_int_equal(mt_knee_find(x, y, 16, NULL, k, 4), 0);
}

static void test_noisy(void **state)
{
	double x[24], y[24];
	struct mt_knee k[4];
	unsigned int seed = 12345;

	(void)state;
	for (int i = 0; i < 24; i++) {
		double noise = 1.0 + 0.3 * ((double)rand_r(&seed) / RAND_MAX - 0.5);

		x[i] = 64 * M * (i + 1);
		y[i] = (i < 12 ? 2.0 : 7.0) * noise;	/* +-15% */
	}
	/* one spike that comes back: an outlier, not a knee */
	y[5] *= 3.0;
	assert_int_equal(mt_knee_find(x, y, 24, NULL, k, 4), 1);
	assert_int_equal(k[0].before, 11);
	assert_int_equal(k[0].after, 12);
}

/* A low point that comes back up is an outlier too, even second on a level. */
static void test_low_outlier(void **state)
{
	const double flat[] = { 4, 0.8, 4, 4, 4, 4, 4, 4 };
	const double step[] = { 4, 0.8, 4, 4, 4, 12, 12, 12 };
	const double late[] = { 4, 4, 4, 0.8, 4, 4, 4, 4 };
	double x[8];
	struct mt_knee k[4];

	(void)state;
	for (int i = 0; i < 8; i++)
		x[i] = 64 * M * (double)(1u << i);
	/* the trend of 4 and 0.8 made the next 4 a knee, x5.0 */
	assert_int_equal(mt_knee_find(x, flat, 8, NULL, k, 4), 0);
	assert_int_equal(mt_knee_find(x, late, 8, NULL, k, 4), 0);
	/* and a real step after it is still one, from the last point kept */
	assert_int_equal(mt_knee_find(x, step, 8, NULL, k, 4), 1);
	assert_int_equal(k[0].before, 4);
	assert_int_equal(k[0].after, 5);
	assert_float_equal(k[0].step, 3.0, 1e-9);
}

/* Regions from..to: adding step (add != 0), or times f rounded down to 4 KiB. */
static size_t grid(double *x, size_t max, double from, double to, double add, double f)
{
	size_t n = 0;

	for (double v = from; v <= to && n < max; v = add ? v + add : floor(v * f / 4096) * 4096)
		x[n++] = v;
	return n;
}

/*
 * ns/block = 1 + region / 1g: flat, then linear, which no power law follows.
 * No knee whatever the spacing; a x3 step on it is one on every grid.
 */
static void test_ramp_any_spacing(void **state)
{
	static const struct {
		double from, to, add, f;
	} g[] = {
		{ 64 * M, 64 * G, 64 * M, 0 },
		{ 16 * M, 64 * G, 0, 1.5 },
		{ 64 * M, 64 * G, 0, 1.5 },
		{ 16 * M, 64 * G, 0, 2 },
		{ 64 * M, 64 * G, 0, 2 },
	};
	static double x[1024], y[1024];
	struct mt_knee k[4];

	(void)state;
	for (size_t j = 0; j < sizeof(g) / sizeof(*g); j++) {
		size_t n = grid(x, 1024, g[j].from, g[j].to, g[j].add, g[j].f), s = n / 2;

		for (size_t i = 0; i < n; i++)
			y[i] = 1 + x[i] / G;
		assert_int_equal(mt_knee_find(x, y, n, NULL, k, 4), 0);
		for (size_t i = 0; i < n; i++)
			y[i] = (1 + x[i] / G) * (i < s ? 1 : 3);
		assert_int_equal(mt_knee_find(x, y, n, NULL, k, 4), 1);
		assert_int_equal(k[0].after, s);
	}
}

/* Knees of y over regions 1m, 2m, 4m ... at --knee-ratio 1.5. */
static int knees_doubling(const double *y, size_t n, struct mt_knee *k)
{
	struct mt_knee_opts o;
	double x[16];

	for (size_t i = 0; i < n && i < 16; i++)
		x[i] = M * (double)(1u << i);
	mt_knee_opts_init(&o);
	o.ratio = 1.5;
	return mt_knee_find(x, y, n, &o, k, 4);
}

/*
 * A sweep of this guest (read_4, 1m..64m, --knee-ratio 1.5): a rise at 4m,
 * a larger one at 8m where the L2 TLB's reach ends. The point above a knee
 * is a level of its own: the second rise is a knee too.
 */
static void test_knee_after_knee(void **state)
{
	const double y[] = { 0.80, 0.74, 1.23, 3.54, 4.74, 4.99, 5.24 };
	struct mt_knee k[4];

	(void)state;
	assert_int_equal(knees_doubling(y, 7, k), 2);
	assert_int_equal(k[0].before, 1);
	assert_int_equal(k[0].after, 2);
	assert_int_equal(k[1].before, 2);
	assert_int_equal(k[1].after, 3);
	assert_true(k[1].confirmed);
}

/* A low outlier right after a knee is no point to draw the trend through. */
static void test_outlier_after_knee(void **state)
{
	const double y[] = { 1, 1, 1, 1, 3, 1.2, 3, 3, 3, 3 };
	struct mt_knee k[4];

	(void)state;
	assert_int_equal(knees_doubling(y, 10, k), 1);
	assert_int_equal(k[0].after, 4);
}

/*
 * After a knee the one point above it takes the trend of the level below:
 * a cost that keeps growing with the region (1 + region / 1g, x3 from the
 * middle) makes no knee at each point after the step, even at ratio 1.5.
 */
static void test_trend_after_knee(void **state)
{
	static double x[64], y[64];
	struct mt_knee_opts o;
	struct mt_knee k[4];
	size_t n = grid(x, 64, 16 * M, 64 * G, 0, 2), s = n / 2;

	(void)state;
	mt_knee_opts_init(&o);
	o.ratio = 1.5;
	for (size_t i = 0; i < n; i++)
		y[i] = (1 + x[i] / G) * (i < s ? 1 : 3);
	assert_int_equal(mt_knee_find(x, y, n, &o, k, 4), 1);
	assert_int_equal(k[0].after, s);
}

/* Knees of y over regions 1m, 2m, 4m ... at the default ratio, x2. */
static int knees_default(const double *y, size_t n, struct mt_knee *k,
			 struct mt_knee_step *steps)
{
	double x[16];

	for (size_t i = 0; i < n && i < 16; i++)
		x[i] = M * (double)(1u << i);
	if (steps)
		return mt_knee_explain(x, y, n, NULL, steps);
	return mt_knee_find(x, y, n, NULL, k, 4);
}

/*
 * A held-out curve: one preempted point (x5) right before the real x2.5
 * knee. Judged by the points after it alone, it looked sustained (they are
 * up, on the knee's level) and became the knee, hiding the real one; its
 * neighbours on both sides are on the old level, so it is a spike.
 */
static void test_spike_before_knee(void **state)
{
	const double y[] = { 1, 1, 1, 1, 1, 5, 1, 2.5, 2.5, 2.5, 2.5 };
	const double y2[] = { 1, 1, 1, 1, 5, 1, 1, 2.5, 2.5, 2.5, 2.5 };
	struct mt_knee_step steps[11];
	struct mt_knee k[4];

	(void)state;
	assert_int_equal(knees_default(y, 11, k, NULL), 1);
	assert_int_equal(k[0].before, 6);
	assert_int_equal(k[0].after, 7);
	assert_float_equal(k[0].step, 2.5, 1e-9);
	assert_int_equal(knees_default(y, 11, NULL, steps), 1);
	assert_int_equal(steps[5].why, MT_KNEE_WHY_SPIKE);
	assert_int_equal(steps[7].why, MT_KNEE_WHY_KNEE);
	/* two points before it: the same */
	assert_int_equal(knees_default(y2, 11, k, NULL), 1);
	assert_int_equal(k[0].after, 7);
}

/*
 * A step down, then a x2.5 step up from the lower level: the rise is
 * measured from the level it starts from. Against the higher points before
 * the drop it was x1.3 over the trend, and no knee.
 */
static void test_step_down_then_up(void **state)
{
	const double y[] = { 4, 4, 4, 4, 1, 1, 1, 1, 2.5, 2.5, 2.5, 2.5 };
	struct mt_knee_step steps[12];
	struct mt_knee k[4];

	(void)state;
	assert_int_equal(knees_default(y, 12, k, NULL), 1);
	assert_int_equal(k[0].before, 7);
	assert_int_equal(k[0].after, 8);
	assert_float_equal(k[0].step, 2.5, 1e-9);
	assert_true(k[0].confirmed);
	assert_int_equal(knees_default(y, 12, NULL, steps), 1);
	assert_int_equal(steps[4].why, MT_KNEE_WHY_DROP);
	assert_int_equal(steps[8].why, MT_KNEE_WHY_KNEE);
}

/* Why a rise is no knee: each verdict has its name and sentence. */
static void test_explain(void **state)
{
	const double brief[] = { 1, 1, 1, 1, 3, 3, 1, 1, 1, 1 };
	const double dip[] = { 1, 1, 1, 1, 0.3, 1, 1, 1 };
	struct mt_knee_step steps[10];
	size_t at = 0;

	(void)state;
	/* up two points, then back: not sustained, no knee */
	assert_int_equal(knees_default(brief, 10, NULL, steps), 0);
	assert_int_equal(steps[4].why, MT_KNEE_WHY_BRIEF);
	/* the largest one-step rise is out of a dip */
	assert_int_equal(knees_default(dip, 8, NULL, steps), 0);
	assert_float_equal(mt_knee_largest_step(dip, 8, &at), 1 / 0.3, 1e-9);
	assert_int_equal(at, 4);
	assert_int_equal(steps[4].why, MT_KNEE_WHY_DIP);
	assert_int_equal(steps[5].why, MT_KNEE_WHY_TREND);
	for (int w = 0; w < MT_KNEE_WHY_N; w++) {
		assert_true(mt_knee_why_name(w)[0]);
		assert_true(mt_knee_why_text(w)[0]);
		assert_int_equal(mt_knee_why_parse(mt_knee_why_name(w)), w);
	}
	assert_int_equal(mt_knee_why_parse("nonsense"), MT_KNEE_WHY_N);
}

/* A knee whose point's CV is above 50% is uncertain; an unknown CV is not. */
static void test_uncertain_cv(void **state)
{
	const double y[] = { 1, 1, 1, 1, 3, 3, 3, 3 };
	double cv[] = { 0.01, 0.01, 0.01, 0.01, 0.63, 0.02, 0.02, 0.02 };
	struct mt_knee k[4];

	(void)state;
	assert_int_equal(knees_default(y, 8, k, NULL), 1);
	assert_int_equal(mt_knee_judge(k, 1, cv), 1);
	assert_true(k[0].uncertain);
	assert_float_equal(k[0].cv, 0.63, 1e-9);
	cv[4] = 0.5;	/* at the limit: believed */
	assert_int_equal(mt_knee_judge(k, 1, cv), 0);
	assert_false(k[0].uncertain);
	cv[3] = NAN;
	cv[4] = NAN;
	assert_int_equal(mt_knee_judge(k, 1, cv), 0);
	assert_true(isnan(k[0].cv));
	assert_int_equal(mt_knee_judge(k, 1, NULL), 0);
}

static void test_bad_input(void **state)
{
	const double x[] = { 1, 2, 2 }, y[] = { 1, 1, 1 }, yz[] = { 1, 0, 1 };
	struct mt_knee k[1];

	(void)state;
	assert_int_equal(mt_knee_find(x, y, 1, NULL, k, 1), -EINVAL);
	assert_int_equal(mt_knee_find(x, y, 3, NULL, k, 1), -EINVAL);	/* x not ascending */
	assert_int_equal(mt_knee_find(x, yz, 2, NULL, k, 1), -EINVAL);	/* y = 0 */
}

/* Series and curves from results: unsorted regions, two block sizes. */
static void test_results_curve(void **state)
{
	const uint64_t regions[] = { 192, 64, 128, 64, 128 };
	const uint64_t blocks[] = { 4096, 4096, 4096, 8192, 8192 };
	struct mt_result *res[5];
	unsigned int series[5];
	size_t idx[5], n;
	double x[5], y[5];

	(void)state;
	for (int i = 0; i < 5; i++) {
		assert_int_equal(mt_result_create(&res[i], 1, 0), 0);
		strcpy(res[i]->phases[0].name, "read_4");
		res[i]->region = regions[i] << 20;
		res[i]->block = blocks[i];
		res[i]->blocks = res[i]->region / blocks[i];
		res[i]->phases[0].time_ns.mean = (double)res[i]->blocks * (i + 1);
		mt_result_derive(res[i]);	/* as every measured or loaded result is */
	}
	mt_result_set_param(res[3], "backing", "anon");
	mt_result_set_param(res[4], "backing", "anon");
	assert_int_equal(mt_knee_series(res, 5, series), 2);
	assert_int_equal(mt_knee_curve(res, 5, series, 0, "read_4", idx, x, y, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[2], 0);
	assert_float_equal(y[0], 2.0, 1e-9);
	assert_float_equal(y[2], 1.0, 1e-9);
	assert_int_equal(mt_knee_curve(res, 5, series, 0, "read_9", idx, x, y, &n), -ENOENT);
	for (int i = 0; i < 5; i++)
		mt_result_destroy(res[i]);
}

/*
 * The curve's cost is the phase time / blocks, as compare's: a stale stored
 * ns_per_block (flat at 2) would hide the x4 knee, and a result that has
 * none (a report without it) is still a point.
 */
static void test_results_curve_from_time(void **state)
{
	const double cost[] = { 2, 2, 2, 8, 8, 8 };
	struct mt_result *res[6];
	unsigned int series[6];
	struct mt_knee k[4];
	size_t idx[6], n;
	double x[6], y[6];

	(void)state;
	for (int i = 0; i < 6; i++) {
		struct mt_phase_stat *ps;

		assert_int_equal(mt_result_create(&res[i], 1, 0), 0);
		ps = &res[i]->phases[0];
		strcpy(ps->name, "read_4");
		res[i]->region = (uint64_t)(i + 1) << 26;
		res[i]->block = 4096;
		res[i]->blocks = res[i]->region / 4096;
		ps->time_ns.mean = (double)res[i]->blocks * cost[i];
		mt_result_derive(res[i]);
		if (i >= 3)
			ps->derived[MT_DERIVED_NS_PER_BLOCK] = 2.0;
	}
	res[1]->phases[0].has_derived &= ~(1u << MT_DERIVED_NS_PER_BLOCK);
	assert_int_equal(mt_knee_series(res, 6, series), 1);
	assert_int_equal(mt_knee_curve(res, 6, series, 0, "read_4", idx, x, y, &n), 0);
	assert_int_equal(n, 6);
	assert_int_equal(idx[1], 1);
	for (int i = 0; i < 6; i++)
		assert_float_equal(y[i], cost[i], 1e-9);
	assert_int_equal(mt_knee_find(x, y, n, NULL, k, 4), 1);
	assert_int_equal(k[0].after, 3);
	for (int i = 0; i < 6; i++)
		mt_result_destroy(res[i]);
}

/*
 * A live probe of this VM (AMD EPYC, 4 KiB pages, memtlb probe, first run):
 * pages, ns per access with one line per page, and with the lines packed.
 */
static const double probe_pages[] = { 4, 8, 16, 32, 48, 56, 60, 62, 63, 64, 128, 256, 512,
				      528, 544, 576, 640, 768, 1024, 2048, 4096, 8192, 12288 };
static const double probe_ns[] = { 1.386, 1.381, 1.407, 1.374, 1.286, 1.293, 1.293, 1.309,
				   1.304, 3.632, 3.866, 3.970, 3.666, 4.558, 5.141, 10.056,
				   6.595, 6.848, 7.081, 32.856, 34.547, 101.876, 49.204 };
static const double probe_ctl[] = { 1.390, 1.396, 1.377, 1.354, 1.295, 1.293, 1.280, 1.301,
				    1.299, 1.386, 1.383, 1.427, 1.411, 1.706, 2.177, 3.871,
				    3.813, 3.912, 4.055, 4.438, 7.601, 18.917, 24.100 };

static void test_levels_recorded(void **state)
{
	const size_t n = sizeof(probe_ns) / sizeof(*probe_ns);
	struct mt_level lv[8];
	struct mt_knee_opts o;
	double x[32];
	int nl;

	(void)state;
	mt_knee_opts_init(&o);
	o.ratio = 1.5;
	for (size_t i = 0; i < n; i++)
		x[i] = probe_pages[i] * 4096;
	nl = mt_knee_levels(x, probe_ns, probe_ctl, n, &o, lv, 8);
	assert_true(nl >= 3);
	/* L1 dTLB: 63 pages fast, 64 slow; the packed lines stay at 1.4 ns */
	assert_int_equal(lv[0].kind, MT_LEVEL_TLB);
	assert_true(probe_pages[lv[0].knee.before] == 63);
	/* 512 lines leave the 32 KiB L1d: the control rises too */
	assert_int_equal(lv[1].kind, MT_LEVEL_CACHE);
	assert_true(probe_pages[lv[1].knee.before] >= 512 && probe_pages[lv[1].knee.after] <= 576);
	/* the next TLB level between 1024 and 2048 pages */
	assert_int_equal(lv[2].kind, MT_LEVEL_TLB);
	assert_true(probe_pages[lv[2].knee.before] == 1024);

	/* without a control every knee is taken for translation */
	nl = mt_knee_levels(x, probe_ns, NULL, n, &o, lv, 8);
	assert_true(nl >= 3);
	assert_int_equal(lv[1].kind, MT_LEVEL_TLB);
}

/* The prototype's numbers: 1.2 ns up to 256 KiB, 2.9 from 512 KiB. */
static void test_levels_prototype(void **state)
{
	double x[10], y[10], c[10];
	struct mt_level lv[4];
	struct mt_knee_opts o;

	(void)state;
	mt_knee_opts_init(&o);
	o.ratio = 1.5;
	for (int i = 0; i < 10; i++) {
		x[i] = 16384.0 * (1 << i);	/* 16k .. 8m */
		y[i] = x[i] <= 262144 ? 1.2 : 2.9;
		c[i] = 1.2;
	}
	assert_int_equal(mt_knee_levels(x, y, c, 10, &o, lv, 4), 1);
	assert_int_equal(lv[0].kind, MT_LEVEL_TLB);
	assert_true(x[lv[0].knee.before] == 262144);
	assert_float_equal(lv[0].ctl_step, 1.0, 1e-9);
	/* the same rise in the control: a data cache */
	for (int i = 0; i < 10; i++)
		c[i] = y[i];
	assert_int_equal(mt_knee_levels(x, y, c, 10, &o, lv, 4), 1);
	assert_int_equal(lv[0].kind, MT_LEVEL_CACHE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_nopatch),
		cmocka_unit_test(test_seed_8m_pages),
		cmocka_unit_test(test_seed_patch_and_s11_no_knee),
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_low_outlier),
		cmocka_unit_test(test_ramp_any_spacing),
		cmocka_unit_test(test_knee_after_knee),
		cmocka_unit_test(test_trend_after_knee),
		cmocka_unit_test(test_outlier_after_knee),
		cmocka_unit_test(test_spike_before_knee),
		cmocka_unit_test(test_step_down_then_up),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_uncertain_cv),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_results_curve),
		cmocka_unit_test(test_results_curve_from_time),
		cmocka_unit_test(test_levels_recorded),
		cmocka_unit_test(test_levels_prototype),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
