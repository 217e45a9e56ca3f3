/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_REPEAT_H
#define MEMTLB_STATS_REPEAT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/config.h"
#include "model/result.h"

/*
 * When to stop iterating, and which iterations stand out: the rules of
 * --ci-target and of the outlier flags, on plain samples so that tests
 * decide them on synthetic ones, never on timings.
 */

/*
 * Whether the 95% CI of the mean of x[0..n) (Student's t) is within pct
 * percent of the mean: false when n < 2 or the mean is 0.
 */
bool mt_repeat_ci_met(const double *x, size_t n, double pct);

/*
 * After done summarised iterations and elapsed_s seconds, with all_met the
 * CI test of every phase considered: why to stop now (MT_STOP_TARGET, a
 * limit), or MT_STOP_NONE to run another. Without cfg->ci_target, the fixed
 * cfg->iterations (MT_STOP_ITERATIONS). The target is tested only from
 * cfg->min_iterations on; max_time_s only once one iteration is done.
 */
enum mt_stop mt_repeat_decide(const struct mt_config *cfg, size_t done, double elapsed_s,
			      bool all_met);

/* The most iterations a run of cfg can summarise (its sample room). */
unsigned long mt_repeat_limit(const struct mt_config *cfg);

/*
 * hyperfine's rule: flag[i] set for x[i] beyond Q3 + 1.5 IQR or below
 * Q1 - 1.5 IQR (quartiles by linear interpolation, as numpy's default).
 * Returns how many were flagged; none when n < 4 (no quartiles worth
 * the name) or -ENOMEM.
 */
int mt_repeat_outliers(const double *x, size_t n, bool *flag);

/*
 * Whether x[i] (a steal time, a context-switch count of iteration i) is
 * above 0 and above x of every iteration not flagged: it jumped in i, a
 * visible cause of i's outlying time. NaN or negative (unread) never is.
 */
bool mt_repeat_jumped(const double *x, const bool *flag, size_t n, size_t i);

#endif
