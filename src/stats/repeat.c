// SPDX-License-Identifier: MIT
/* Adaptive repetition's stopping rule and the outlier rule. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/ci.h"
#include "stats/repeat.h"

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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double quantile(const double *sorted, size_t n, double q)
{
	double h = q * (double)(n - 1);
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

int mt_repeat_outliers(const double *x, size_t n, bool *flag)
{
	double *s, q1, q3, iqr;
	int count = 0;

	memset(flag, 0, n * sizeof(*flag));
	if (n < 4)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	q1 = quantile(s, n, 0.25);
	q3 = quantile(s, n, 0.75);
	iqr = q3 - q1;
	free(s);
	for (size_t i = 0; i < n; i++) {
		flag[i] = x[i] > q3 + 1.5 * iqr || x[i] < q1 - 1.5 * iqr;
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
