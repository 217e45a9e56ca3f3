/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_CI_H
#define MEMTLB_STATS_CI_H

#include <stddef.h>

/*
 * The two-sided 95% critical value of Student's t with df degrees of
 * freedom (12.706 at 1, 1.960 as df grows); NAN when df < 1.
 */
double mt_ci_t95(double df);

/*
 * Mean of n samples and the half-width of its 95% confidence interval
 * (Student's t, n - 1 degrees of freedom). 0, or -EDOM when n < 2.
 */
int mt_ci_mean95(const double *x, size_t n, double *mean, double *half);

struct mt_summary;

/* The same half-width from a summary (its n and stddev); NAN when n < 2. */
double mt_ci_half95(const struct mt_summary *s);

#endif
