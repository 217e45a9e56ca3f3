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

/*
 * The fits of a sweep (or any set of results): per series (mt_knee_series)
 * and phase, the phase's mean time on the mean count of each fault or TLB
 * event (by role; rusage.minflt when no fault event was counted) over the
 * series' points. Fits whose count is missing at a point, does not vary,
 * or has fewer than 3 points are not made. Returns how many (at most max)
 * or -ENOMEM.
 */
struct mt_result;

#define MT_FIT_MAX 64
#define MT_FIT_X_MAX 192

struct mt_fit_row {
	unsigned int series;
	char phase[16];
	char x[MT_FIT_X_MAX];	/* the event or evidence name */
	struct mt_fit fit;	/* slope in ns per event, intercept in ns */
};

int mt_fit_results(struct mt_result *const *res, size_t n, struct mt_fit_row *out, size_t max);

#endif
