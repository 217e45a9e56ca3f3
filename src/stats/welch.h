/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_WELCH_H
#define MEMTLB_STATS_WELCH_H

#include "model/result.h"

/* Regularized incomplete beta function I_x(a, b); NAN for bad arguments. */
double mt_stats_betai(double a, double b, double x);

/* Two-sided p-value of Student's t with df degrees of freedom. */
double mt_stats_t_pvalue(double t, double df);

/*
 * The t with P(|T| > t) = p for Student's t with df degrees of freedom
 * (0.05: the 95% two-sided critical value); NAN for p outside (0, 1] or
 * df <= 0.
 */
double mt_stats_t_quantile(double p, double df);

/* Welch's unequal-variances t-test, from two summaries (mean, stddev, n). */
struct mt_welch {
	double t;	/* (mean_b - mean_a) / standard error */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided */
	double ci95;	/* half-width of the 95% CI of mean_b - mean_a (Student's t at df) */
};

/* 0, or -EDOM when a side has fewer than 2 samples (no variance to test). */
int mt_stats_welch(const struct mt_summary *a, const struct mt_summary *b,
		   struct mt_welch *w);

#endif
