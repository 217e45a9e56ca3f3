/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_FLUSH_H
#define MEMTLB_MEASURE_FLUSH_H

#include <stddef.h>
#include <stdint.h>

#include "counters/resolve.h"
#include "measure/measure.h"
#include "model/config.h"
#include "model/flush.h"
#include "model/report.h"

/*
 * The flush engine (memtlb flush): per K of the sweep and iteration, M
 * timed ops of the flush workload, the counters on between the clock reads
 * of each op only and read at the point's boundaries. Each K becomes a
 * result of the report, one phase named after the op, its time and counts
 * per op (ns_per_block is then ns per page); rep->flush gets what the
 * workload counted, the knees over K and the flush ceiling. The IPIs of
 * /proc/interrupts come from a second pass of the M ops with the counters
 * off (their toggles are IPIs of memtlb's own); what the counted pass had
 * above it is the point's own_irq.
 */
struct mt_flush_params {
	int op;			/* enum mt_flush_op */
	unsigned long tasks;	/* cfg->tasks is set to it too */
	unsigned long ops;	/* M */
	const uint64_t *pages;	/* the K of the sweep, ascending */
	size_t n_pages;
	uint64_t region_pages;	/* the target's pages, >= every K */
	double knee_ratio;	/* the knee finder's opts.ratio; 0: its default */
};

/*
 * Measure into rep (made by mt_measure_report_create). The counters are
 * opened before the tasks start, so they count in every task. Returns 0,
 * -EINVAL, -EINTR (opts->stop: the points done are kept), -errno.
 */
int mt_flush_measure(const struct mt_config *cfg, const struct mt_flush_params *p,
		     struct mt_event *ev, size_t n_ev, const struct mt_measure_opts *opts,
		     struct mt_report *rep);

#endif
