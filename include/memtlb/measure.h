/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_H
#define MEMTLB_MEASURE_H

#include <signal.h>
#include <stdbool.h>

#include <memtlb/config.h>
#include <memtlb/counters.h>
#include <memtlb/stats.h>
#include <memtlb/workload.h>

/*
 * One stat run: the workload's iterations under the counter group, the
 * counters read at every phase boundary, summarised into a result.
 * hw_counters goes into the "not supported" reasons. Returns 0, -EILSEQ
 * with *bad filled, or another -errno.
 */
struct mt_measure_opts {
	bool progress;		/* "iteration k of n" on stderr (a terminal) */
	int hw_counters;
	/* Set by a signal handler: stop between iterations with -EINTR. */
	volatile sig_atomic_t *stop;
};

int mt_measure_stat(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		    const struct mt_measure_opts *opts, struct mt_result **out,
		    struct mt_mismatch *bad);

#endif
