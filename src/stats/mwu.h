/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_MWU_H
#define MEMTLB_STATS_MWU_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Mann-Whitney U, two-sided, as scipy.stats.mannwhitneyu(x, y) computes it
 * by default (method "auto", use_continuity): the exact distribution of U
 * when a sample has at most 8 values and there are no ties, else the
 * normal approximation with the tie correction and a continuity correction.
 */
struct mt_mwu {
	double u;	/* U of x: pairs (x_i, y_j) with x_i > y_j, ties counted half */
	double p;	/* two-sided */
	bool exact;	/* p from the exact distribution */
};

/*
 * 0; -EDOM when a sample is empty or has a value that is not a number;
 * -ENOMEM.
 */
int mt_stats_mwu(const double *x, size_t nx, const double *y, size_t ny, struct mt_mwu *out);

/*
 * P(U >= u) under the null hypothesis for samples of m and n values without
 * ties, from the distribution's generating function (the Gaussian binomial
 * coefficient); NAN for -ENOMEM or m, n == 0.
 */
double mt_stats_mwu_sf(size_t m, size_t n, double u);

/*
 * The Hodges-Lehmann estimate of the shift of x from y, the median of the
 * nx ny differences x_i - y_j, and the interval that inverts the two-sided
 * Mann-Whitney test at alpha (Lehmann): the differences of rank c and
 * nx ny + 1 - c, c the largest count with P(U < c) <= alpha / 2 under the
 * null hypothesis. Free of any assumption on the distribution but that x
 * is y shifted: a few outliers move the bounds by a rank, not by their size.
 */
struct mt_hl {
	double shift;
	double low, high;	/* -INFINITY and INFINITY: too few values for alpha */
};

/* 0; -EDOM (a sample empty or with a NAN, alpha not in (0, 1)); -ENOMEM. */
int mt_stats_hl(const double *x, size_t nx, const double *y, size_t ny, double alpha,
		struct mt_hl *out);

#endif
