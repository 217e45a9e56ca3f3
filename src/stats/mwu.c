// SPDX-License-Identifier: MIT
/*
 * Mann-Whitney U test. First-touch phases on a VM are skewed (a steal-time
 * jump makes one iteration twice the rest), so a rank test is offered
 * beside Welch's t; scipy's defaults are followed so that its answers can
 * be checked against scipy's. The same U distribution bounds the
 * Hodges-Lehmann shift, bisect-run's robust interval of a change.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/mwu.h"

/* scipy's method "auto": exact up to this many values in the smaller side. */
#define EXACT_MAX 8

struct ranked {
	double v;
	int from_x;
};

static int by_value(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The number of ways to get each U is the coefficient of q^U in the
 * Gaussian binomial [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
 * Each partial product is itself a Gaussian binomial, so its coefficients
 * stay non-negative integers; long double keeps them exact well past what
 * the exact path is used for (m <= 8).
 */
double mt_stats_mwu_sf(size_t m, size_t n, double u)
{
	size_t top, k;
	long double *c, total = 0.0L, tail = 0.0L;

	if (!m || !n)
		return NAN;
	if (m > n) {
		size_t t = m;

		m = n;
		n = t;
	}
	top = m * n;
	if (u <= 0)
		return 1.0;
	if (u > (double)top)
		return 0.0;
	c = calloc(top + 1, sizeof(*c));
	if (!c)
		return NAN;
	c[0] = 1.0L;
	for (size_t i = 1; i <= m; i++) {
		/* times (1 - q^(n+i)): the degree so far is (i - 1) n, now i n */
		for (k = top; k >= n + i; k--)
			c[k] -= c[k - (n + i)];
		/* over (1 - q^i): a running sum with stride i */
		for (k = i; k <= top; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= top; k++) {
		total += c[k];
		if ((double)k >= u)
			tail += c[k];
	}
	free(c);
	return (double)(tail / total);
}

int mt_stats_mwu(const double *x, size_t nx, const double *y, size_t ny, struct mt_mwu *out)
{
	size_t n = nx + ny, i, j;
	double r1 = 0.0, tie_term = 0.0, u, mu, s, z;
	struct ranked *a;

	if (!nx || !ny)
		return -EDOM;
	a = malloc(n * sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		a[i].v = i < nx ? x[i] : y[i - nx];
		a[i].from_x = i < nx;
		if (isnan(a[i].v)) {
			free(a);
			return -EDOM;
		}
	}
	qsort(a, n, sizeof(*a), by_value);
	/* Ties get the mean of the ranks they span (1-based). */
	for (i = 0; i < n; i = j) {
		double rank, t;

		for (j = i + 1; j < n && a[j].v == a[i].v; j++)
			;
		t = (double)(j - i);
		rank = (double)(i + 1 + j) / 2.0;
		for (size_t k = i; k < j; k++)
			r1 += a[k].from_x ? rank : 0.0;
		tie_term += t * t * t - t;
	}
	free(a);
	out->u = r1 - (double)nx * (double)(nx + 1) / 2.0;
	/* Two-sided: the larger of U1 and U2 = nx ny - U1, as scipy does. */
	u = fmax(out->u, (double)nx * (double)ny - out->u);
	out->exact = (nx <= EXACT_MAX || ny <= EXACT_MAX) && tie_term == 0.0;
	if (out->exact) {
		out->p = 2.0 * mt_stats_mwu_sf(nx, ny, u);
		if (isnan(out->p))
			return -ENOMEM;
	} else {
		mu = (double)nx * (double)ny / 2.0;
		s = sqrt((double)nx * (double)ny / 12.0 *
			 ((double)n + 1.0 - tie_term / ((double)n * (double)(n - 1))));
		/* All values equal: s is 0, nothing tells the samples apart. */
		z = s > 0.0 ? (u - mu - 0.5) / s : -INFINITY;
		out->p = erfc(z / M_SQRT2);
	}
	out->p = fmin(1.0, fmax(0.0, out->p));
	return 0;
}

/*
 * The one-sided normal quantile: Newton's steps from 0 on P(Z > z) - tail,
 * which falls and is convex for z >= 0, so that every step stays below the
 * root and the steps only grow towards it.
 */
static double z_upper(double tail)
{
	double z = 0.0;

	for (int i = 0; i < 64; i++)
		z += (0.5 * erfc(z / M_SQRT2) - tail) / (exp(-z * z / 2.0) / sqrt(2.0 * M_PI));
	return z;
}

/*
 * The largest c with P(U <= c - 1) <= tail, at most (mn + 1) / 2 (so that
 * the interval's ranks do not cross). Exact where the test is exact (a side
 * of at most EXACT_MAX values), ties or not: ties only widen the closed
 * interval's coverage. Else the normal approximation with the continuity
 * correction and without the tie correction, which would narrow it.
 */
static int hl_rank(size_t m, size_t n, double tail, size_t *c)
{
	size_t mn = m * n, lo = 0, hi = (mn + 1) / 2;
	double s, v;

	if (m <= EXACT_MAX || n <= EXACT_MAX) {
		/* P(U <= c - 1) = P(U >= mn + 1 - c), U symmetric: it grows with c */
		while (lo < hi) {
			size_t mid = (lo + hi + 1) / 2;
			double p = mt_stats_mwu_sf(m, n, (double)(mn + 1 - mid));

			if (isnan(p))
				return -ENOMEM;
			if (p <= tail)
				lo = mid;
			else
				hi = mid - 1;
		}
		*c = lo;
		return 0;
	}
	s = sqrt((double)mn * (double)(m + n + 1) / 12.0);
	v = floor((double)mn / 2.0 + 0.5 - z_upper(tail) * s);
	*c = v <= 0.0 ? 0 : v >= (double)hi ? hi : (size_t)v;
	return 0;
}

int mt_stats_hl(const double *x, size_t nx, const double *y, size_t ny, double alpha,
		struct mt_hl *out)
{
	size_t mn = nx * ny, k = 0, c;
	double *d;
	int ret;

	if (!nx || !ny || !(alpha > 0.0 && alpha < 1.0))
		return -EDOM;
	d = malloc(mn * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			d[k++] = x[i] - y[j];
	for (k = 0; k < mn; k++)
		if (isnan(d[k])) {
			free(d);
			return -EDOM;
		}
	ret = hl_rank(nx, ny, alpha / 2.0, &c);
	if (!ret) {
		qsort(d, mn, sizeof(*d), cmp_double);
		out->shift = mn & 1 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2.0;
		out->low = c ? d[c - 1] : -INFINITY;
		out->high = c ? d[mn - c] : INFINITY;
	}
	free(d);
	return ret;
}
