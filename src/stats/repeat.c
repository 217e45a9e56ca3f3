// SPDX-License-Identifier: MIT
/* Adaptive repetition's stopping rule and the outlier rule. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/ci.h"
#include "stats/repeat.h"
#include "stats/stats.h"

bool mt_repeat_ci_met(const double *x, size_t n, double pct)
{
	double mean, half;

	if (mt_ci_mean95(x, n, &mean, &half) || mean == 0)
		return false;
	return half <= fabs(mean) * pct / 100.0;
}

unsigned long mt_repeat_limit(const struct mt_config *cfg)
{
	return cfg->ci_target > 0 ? cfg->max_iterations : cfg->iterations;
}

enum mt_stop mt_repeat_decide(const struct mt_config *cfg, size_t done, double elapsed_s,
			      bool all_met)
{
	if (cfg->ci_target <= 0)
		return done >= cfg->iterations ? MT_STOP_ITERATIONS : MT_STOP_NONE;
	/* The target first: met on the last allowed iteration, it was met. */
	if (done >= cfg->min_iterations && done >= 2 && all_met)
		return MT_STOP_TARGET;
	if (done >= cfg->max_iterations)
		return MT_STOP_MAX_ITERATIONS;
	if (done && cfg->max_time_s > 0 && elapsed_s >= cfg->max_time_s)
		return MT_STOP_MAX_TIME;
	return MT_STOP_NONE;
}

int mt_repeat_outliers(const double *x, size_t n, bool *flag)
{
	double q[3], iqr;
	int count = 0;

	memset(flag, 0, n * sizeof(*flag));
	if (n < 4)
		return 0;
	if (mt_stats_quartiles(x, n, q))
		return -ENOMEM;
	iqr = q[2] - q[0];
	for (size_t i = 0; i < n; i++) {
		flag[i] = x[i] > q[2] + 1.5 * iqr || x[i] < q[0] - 1.5 * iqr;
		count += flag[i];
	}
	return count;
}

bool mt_repeat_jumped(const double *x, const bool *flag, size_t n, size_t i)
{
	if (!(x[i] > 0))
		return false;
	for (size_t j = 0; j < n; j++)
		if (!flag[j] && !(x[j] < x[i]))
			return false;
	return true;
}
