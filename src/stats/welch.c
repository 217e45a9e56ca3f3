// SPDX-License-Identifier: MIT
/*
 * Welch's t-test. Benchmarks give 3..10 samples with unequal spread, so the
 * variances are not pooled; the p-value comes from Student's t distribution
 * through the regularized incomplete beta function, evaluated as a continued
 * fraction (modified Lentz) as in Numerical Recipes' betacf.
 */
#include <errno.h>
#include <float.h>
#include <math.h>

#include "stats/ci.h"
#include "stats/stats.h"
#include "stats/welch.h"

#define CF_MAX_ITER 300
#define CF_EPS 1e-15
#define CF_TINY 1e-300

/* The continued fraction of I_x(a, b), good for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= CF_MAX_ITER; m++) {
		double m2 = 2.0 * m, num, step;

		/* even term: m (b - m) x / ((a + 2m - 1)(a + 2m)) */
		num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = 1.0 / (fabs(d) < CF_TINY ? CF_TINY : d);
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		h *= d * c;
		/* odd term: -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = 1.0 / (fabs(d) < CF_TINY ? CF_TINY : d);
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		step = d * c;
		h *= step;
		if (fabs(step - 1.0) < CF_EPS)
			break;
	}
	return h;
}

double mt_stats_betai(double a, double b, double x)
{
	double front;

	if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0 && x <= 1.0))
		return NAN;
	if (x == 0.0 || x == 1.0)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* The fraction converges fast only below the mean; use the symmetry above it. */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
double mt_stats_t_pvalue(double t, double df)
{
	if (isnan(t) || !(df > 0.0))
		return NAN;
	if (isinf(t))
		return 0.0;
	return mt_stats_betai(df / 2.0, 0.5, df / (df + t * t));
}

/* Bisection: P(|T| > t) falls monotonically in t, and 200 halvings reach a double's ulp. */
double mt_stats_t_quantile(double p, double df)
{
	double lo = 0.0, hi = 1.0;

	if (!(p > 0.0 && p <= 1.0) || !(df > 0.0))
		return NAN;
	while (mt_stats_t_pvalue(hi, df) > p && hi < 1e300)
		hi *= 2.0;
	for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
		double mid = (lo + hi) / 2.0;

		if (mt_stats_t_pvalue(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

int mt_stats_welch(const struct mt_summary *a, const struct mt_summary *b, struct mt_welch *w)
{
	double va, vb, se2;

	if (a->n < 2 || b->n < 2)
		return -EDOM;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	se2 = va + vb;
	if (se2 <= 0.0) {
		/* No spread on either side: any difference is exact. */
		w->df = (double)(a->n + b->n - 2);
		w->t = b->mean == a->mean ? 0.0 : copysign(INFINITY, b->mean - a->mean);
		w->p = b->mean == a->mean ? 1.0 : 0.0;
		w->ci95 = 0.0;
		return 0;
	}
	w->t = (b->mean - a->mean) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	w->p = mt_stats_t_pvalue(w->t, w->df);
	w->ci95 = mt_ci_t95(w->df) * sqrt(se2);
	return 0;
}
