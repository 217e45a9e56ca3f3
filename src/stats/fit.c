// SPDX-License-Identifier: MIT
/* Least squares of time on a count (stats/fit.h). */
#include <errno.h>
#include <math.h>

#include "stats/fit.h"

int mt_fit_linear(const double *x, const double *y, size_t n, struct mt_fit *out)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, ssr = 0;

	if (n < 3)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			return -EINVAL;
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	/* Centred sums: counts of 10^9 squared would lose the slope otherwise. */
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - mx, dy = y[i] - my;

		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	if (!(sxx > 0))
		return -EINVAL;
	out->slope = sxy / sxx;
	out->intercept = my - out->slope * mx;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - (out->intercept + out->slope * x[i]);

		ssr += e * e;
	}
	out->r2 = syy > 0 ? 1.0 - ssr / syy : 1.0;
	out->n = n;
	return 0;
}
