// SPDX-License-Identifier: MIT
/* Confidence intervals of a mean: Student's t, from the Welch module's tail. */
#include <errno.h>
#include <math.h>

#include "stats/ci.h"
#include "stats/welch.h"

double mt_ci_t95(double df)
{
	double lo = 0.0, hi = 1000.0;

	if (!(df >= 1.0))
		return NAN;
	/* p falls as t grows: bisect p(t) = 0.05 to well under the digits used. */
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (mt_stats_t_pvalue(mid, df) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
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
