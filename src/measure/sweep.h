/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_SWEEP_H
#define MEMTLB_MEASURE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters/resolve.h"
#include "measure/measure.h"
#include "model/config.h"
#include "model/report.h"
#include "workload/workload.h"

/*
 * A sweep: the stat measurement at every point of a grid, regions times
 * the values of each --vary axis (a workload option, set through
 * mt_config_set by its name, or a kernel tunable, written before each
 * point and restored at the end whatever ends memtlb). The first axis is
 * outermost, the region innermost.
 */
struct mt_sweep;

/* base: the config every point starts from (it must outlive the sweep). */
int mt_sweep_create(struct mt_sweep **out, const struct mt_config *base);
void mt_sweep_destroy(struct mt_sweep *sw);

/* The region axis, "A..B[:STEP|xF]" (model/range.h): 0 or -EINVAL with msg. */
int mt_sweep_set_regions(struct mt_sweep *sw, const char *range, struct mt_msg *msg);
bool mt_sweep_has_regions(const struct mt_sweep *sw);

/*
 * --region auto: the region axis around the n TLB levels' reaches (those
 * of page size page only): doubling from 256 KiB to 4 x the largest
 * reach, and 0.75 x and 1.5 x each reach (of a measured range: its low end
 * and its high end), each rounded to the base config's block, sorted and
 * unique. 0, or -ENOENT with msg when no level has that page size.
 */
struct mt_reach;
int mt_sweep_set_regions_auto(struct mt_sweep *sw, const struct mt_reach *lv, size_t n,
			      uint64_t page, struct mt_msg *msg);

/*
 * Keep the regions within [lo, hi] alone (memtlb selftest: a THP curve
 * starts at two huge pages, and its largest region stays within the time
 * and memory a self-test may take). Returns how many are left.
 */
size_t mt_sweep_bound_regions(struct mt_sweep *sw, uint64_t lo, uint64_t hi);

/* "KEY=V1,V2,...": 0, or -EINVAL / -E2BIG / -ENOMEM with msg. */
int mt_sweep_add_axis(struct mt_sweep *sw, const char *arg, struct mt_msg *msg);
size_t mt_sweep_axes(const struct mt_sweep *sw);
/* Whether an axis is a kernel tunable: the sweep changes the machine. */
bool mt_sweep_has_tunables(const struct mt_sweep *sw);

size_t mt_sweep_points(const struct mt_sweep *sw);

/* Point p's config and its swept parameters on the result. */
void mt_sweep_point_config(const struct mt_sweep *sw, size_t p, struct mt_config *cfg);

/* The largest region of the sweep, and whether any point has the phase. */
uint64_t mt_sweep_largest(const struct mt_sweep *sw);
bool mt_sweep_has_phase(const struct mt_sweep *sw, const char *phase);

/* Every tunable read, kept and its restore registered: 0 or -errno with msg. */
int mt_sweep_save_tunables(struct mt_sweep *sw, struct mt_msg *msg);

/* Every saved tunable written back now: 0, or the first -errno with msg. */
int mt_sweep_restore_tunables(struct mt_sweep *sw, struct mt_msg *msg);

/* Called after each point is added to the report (the CLI rewrites -o). */
typedef int (*mt_sweep_point_fn)(void *arg, const struct mt_report *rep);

/*
 * Run every point into rep, until done, *opts->stop or an error. On a
 * failed point *failed is its number (1-based) and *bad as mt_measure_stat.
 * Returns 0 (also when stopped: rep->n_results says how far), or -errno.
 */
int mt_sweep_run(struct mt_sweep *sw, struct mt_event *ev, size_t n_ev,
		 const struct mt_measure_opts *opts, struct mt_report *rep,
		 mt_sweep_point_fn point_done, void *arg, size_t *failed,
		 struct mt_mismatch *bad);

#endif
