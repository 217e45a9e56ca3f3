/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_STATS_H
#define MEMTLB_STATS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "counters/resolve.h"
#include "model/result.h"
#include "model/sample.h"

/* Summary of n samples (mean, sample stddev, cv, min, median, max). */
int mt_stats_summarize(const double *x, size_t n, struct mt_summary *s);

/*
 * The quartiles of x[0..n) by linear interpolation between the sorted
 * samples (numpy's default): q[0] the first, q[1] the median, q[2] the
 * third. A spread that cannot go below the least sample, as a mean's
 * stddev can. 0, -EINVAL (n 0), -ENOMEM.
 */
int mt_stats_quartiles(const double *x, size_t n, double q[3]);

/*
 * Scale and summarise the raw samples of a run into a result: each
 * iteration's delta scaled by enabled/running time; iterations that never
 * ran are left out of the summary and of the running share. With no
 * iteration at all, the times' summary has n 0 and no event is counted.
 */
int mt_result_from_samples(struct mt_result **out, const struct mt_samples *s,
			   const struct mt_event *ev, uint64_t region, uint64_t block,
			   uint64_t blocks);

/* Derived metrics from the means; absent (bit clear) when an input is missing. */
void mt_result_derive(struct mt_result *r);

#endif
