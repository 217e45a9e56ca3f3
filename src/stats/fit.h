/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_FIT_H
#define MEMTLB_STATS_FIT_H

#include <stddef.h>

/*
 * Time against a count, over points and iterations: y = intercept + slope x
 * by ordinary least squares. With y in ns and x a count (faults, dTLB
 * misses, walks) the slope is the cost of one event, the number TLB papers
 * quote; r2 says how much of the time the count explains.
 */
struct mt_fit {
	double slope;
	double intercept;
	double r2;		/* 1 - SSres/SStot; 1 when y does not vary and is fitted exactly */
	size_t n;
};

/*
 * Fit n pairs. Returns 0, or -EINVAL for n < 3, a value that is not
 * finite, or x that does not vary (no slope to speak of).
 */
int mt_fit_linear(const double *x, const double *y, size_t n, struct mt_fit *out);

#endif
