/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_KNEE_H
#define MEMTLB_STATS_KNEE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Knees in a cost curve: x ascending (region sizes), y > 0 (ns per block
 * or per access). A knee is a step i -> i+1 where y[i+1] rises beyond the
 * trend of the points since the previous knee by at least opts.ratio, and
 * the points after it stay up. The method is described in memtlb-sweep(1).
 */
#define MT_KNEE_RATIO_DEFAULT 2.0
#define MT_KNEE_MAX 16

struct mt_knee_opts {
	double ratio;		/* rise over the trend that makes a knee, > 1 */
	unsigned int min_base;	/* points on the first level before a knee ends it, >= 2 */
	unsigned int confirm;	/* later points whose median must stay up */
};

struct mt_knee {
	size_t before;		/* index of the last point on the old level */
	size_t after;		/* index of the first point on the new level */
	double step;		/* y[after] / y[before] */
	double over_trend;	/* y[after] / trend of the old level at x[after] */
	bool confirmed;		/* false: after is the last point, nothing to confirm */
};

void mt_knee_opts_init(struct mt_knee_opts *o);

/*
 * Find up to max knees. Returns how many (>= 0), or -EINVAL for fewer
 * than 2 points, x not strictly ascending, or a y that is not > 0.
 */
int mt_knee_find(const double *x, const double *y, size_t n, const struct mt_knee_opts *o,
		 struct mt_knee *out, size_t max);

/* The largest one-step rise y[i+1]/y[i], its i in *at; 0 when n < 2. */
double mt_knee_largest_step(const double *y, size_t n, size_t *at);

/*
 * The probe's levels: knees of the 1-line-per-page curve y, each told apart
 * by a control curve y_ctl (the same number of lines packed into few pages,
 * NULL when there is none): a knee the control shows as well (its rise at
 * least the square root of y's) is a data cache, else translation (TLB).
 * Returns the number of levels or -EINVAL as mt_knee_find.
 */
enum mt_level_kind {
	MT_LEVEL_TLB,
	MT_LEVEL_CACHE,
};

struct mt_level {
	struct mt_knee knee;
	enum mt_level_kind kind;
	double ctl_step;	/* the control's rise over the same step, 0 without */
};

int mt_knee_levels(const double *x, const double *y, const double *y_ctl, size_t n,
		   const struct mt_knee_opts *o, struct mt_level *out, size_t max);

/*
 * On measured results (a sweep's report): the curve of one phase over the
 * results of one series, x = region, y = ns per block, recomputed from the
 * phase's mean time as compare does (never a stored ns_per_block). Results
 * belong to the same series when every parameter but the region matches
 * (block, --vary values).
 */
struct mt_result;

/* Number of distinct series among the results; series[i] gets each result's series. */
size_t mt_knee_series(struct mt_result *const *res, size_t n, unsigned int *series);

/*
 * The curve of series s: its results' indices (sorted by region) in idx,
 * x and y; *n_out points. Results lacking the phase are skipped.
 * Returns 0, -ENOENT when no result has the phase, -ENOMEM.
 */
int mt_knee_curve(struct mt_result *const *res, size_t n, const unsigned int *series,
		  unsigned int s, const char *phase, size_t *idx, double *x, double *y,
		  size_t *n_out);

#endif
