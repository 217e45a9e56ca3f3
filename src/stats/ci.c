// SPDX-License-Identifier: MIT
/* Confidence intervals of a mean: Student's t, from the Welch module's tail. */
#include <errno.h>
#include <math.h>

#include "model/result.h"
#include "stats/ci.h"
#include "stats/welch.h"

double mt_ci_t95(double df)
{
	return df >= 1.0 ? mt_stats_t_quantile(0.05, df) : NAN;
}

int mt_ci_mean95(const double *x, size_t n, double *mean, double *half)
{
	double m = 0.0, ss = 0.0;

	if (n < 2)
		return -EDOM;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*half = mt_ci_t95((double)(n - 1)) * sqrt(ss / (double)(n - 1)) / sqrt((double)n);
	return 0;
}

double mt_ci_half95(const struct mt_summary *s)
{
	return s->n > 1 ? mt_ci_t95((double)(s->n - 1)) * s->stddev / sqrt((double)s->n) : NAN;
}
