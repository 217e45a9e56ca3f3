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
	double cv;		/* the larger CV of before and after; NAN: not known */
	bool uncertain;		/* cv above MT_KNEE_CV_MAX: not called a knee */
};

/*
 * A knee whose point's time varies by more than half its mean between
 * iterations is no step a reader can believe: the rise is within the noise.
 */
#define MT_KNEE_CV_MAX 0.5

/*
 * What the finder made of the step to a point (the point, against the
 * trend of the level it follows). Names and sentences in one table,
 * mt_knee_why_name() and mt_knee_why_text().
 */
enum mt_knee_why {
	MT_KNEE_WHY_TREND,	/* below the ratio over the trend: on the level */
	MT_KNEE_WHY_SHORT,	/* the first level has fewer than min_base points */
	MT_KNEE_WHY_SPIKE,	/* up, and the next point straight back down */
	MT_KNEE_WHY_BRIEF,	/* up, and the median of the next points back down */
	MT_KNEE_WHY_DIP,	/* down by the ratio and back up: an outlier */
	MT_KNEE_WHY_DROP,	/* down by the ratio and staying: a new, lower level */
	MT_KNEE_WHY_KNEE,	/* a knee */
	MT_KNEE_WHY_UNCERTAIN,	/* a knee but for its CV (mt_knee_judge) */
	MT_KNEE_WHY_N
};

struct mt_knee_step {
	enum mt_knee_why why;
	double over_trend;	/* y / the trend of the level before, at this point */
};

void mt_knee_opts_init(struct mt_knee_opts *o);

/*
 * Find up to max knees. Returns how many (>= 0), or -EINVAL for fewer
 * than 2 points, x not strictly ascending, or a y that is not > 0.
 */
int mt_knee_find(const double *x, const double *y, size_t n, const struct mt_knee_opts *o,
		 struct mt_knee *out, size_t max);

/*
 * The finder's verdict on every point but the first: steps[i] for the step
 * i-1 -> i, steps[0] a TREND with over_trend 1. Returns the number of knees
 * as mt_knee_find, or its errors.
 */
int mt_knee_explain(const double *x, const double *y, size_t n, const struct mt_knee_opts *o,
		    struct mt_knee_step *steps);

/*
 * Each knee's cv from the points' CVs (cv[i] of point i, NAN where not
 * known; NULL: none known), and uncertain where it is above MT_KNEE_CV_MAX.
 * Returns how many are uncertain.
 */
int mt_knee_judge(struct mt_knee *k, int n, const double *cv);

/* The verdict's name, a JSON value ("spike"), and its sentence for people. */
const char *mt_knee_why_name(enum mt_knee_why why);
const char *mt_knee_why_text(enum mt_knee_why why);
/* The verdict of a name from mt_knee_why_name; MT_KNEE_WHY_N for another. */
enum mt_knee_why mt_knee_why_parse(const char *name);

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

/* cv[k] of the phase's time at the curve's point k (idx from mt_knee_curve). */
void mt_knee_curve_cv(struct mt_result *const *res, const size_t *idx, size_t n,
		      const char *phase, double *cv);

#endif
