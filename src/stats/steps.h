/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_STEPS_H
#define MEMTLB_STATS_STEPS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Steps of a curve that rises in plateaus, as the probe's translation cost
 * does: flat while a TLB level holds the pages, then up. The curve is y at
 * sorted x, with ci the half-width of each y's 95% interval.
 */
#define MT_STEPS_MAX 8

struct mt_step_opts {
	double ratio;		/* a step ends at least ratio x the plateau (above 1) */
	double min_rise;	/* and at least this much above it, in y's unit */
};

struct mt_step {
	size_t before;		/* the last point on the plateau below */
	size_t after;		/* the first point above it */
	size_t top;		/* the last point of the rise (after, or a ramp's end) */
	double from;		/* the plateau: median of its points */
	double to;		/* y at after */
	bool confirmed;		/* a point after it stayed up */
};

/* ratio 1.5, min_rise 0.4 (ns: under it a step is timer noise here). */
void mt_step_opts_init(struct mt_step_opts *o);

/*
 * Whether y (half-width cy) is a rise over the plateau p (half-width cp):
 * by ratio and min_rise, and with the two intervals apart.
 */
bool mt_steps_rises(double p, double cp, double y, double cy, const struct mt_step_opts *o);

/*
 * The steps of the curve, in order, at most max into out; returns how many.
 * A point that rises and whose next point falls back below the middle of
 * the rise is a spike, not a step; a rise that goes on over consecutive
 * points, each over the one before by the ratio's square root and min_rise
 * with the intervals apart, is one step (a ramp: a set-associative TLB fills set by set), its range
 * where it starts, and so are two rises with a plateau of one or two
 * points between them (a ramp that paused), unless the second is at the
 * last point, unconfirmed, and the first stayed up.
 */
size_t mt_steps_find(const double *y, const double *ci, size_t n, const struct mt_step_opts *o,
		     struct mt_step *out, size_t max);

#endif
