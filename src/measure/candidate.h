/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_CANDIDATE_H
#define MEMTLB_MEASURE_CANDIDATE_H

#include <stddef.h>

#include "counters/resolve.h"
#include "measure/measure.h"
#include "model/config.h"
#include "workload/workload.h"

/*
 * bisect-run's measurement of the running kernel: stat runs of one config
 * (the baseline's), as many iterations as the sequential test asks for at
 * each look, the one metric's samples pooled across them. A stat run per
 * look, not one left open, so that each look's samples are a finished
 * result's, summarised by the same path as memtlb stat's.
 */
struct mt_candidate;

/*
 * cfg, ev and opts must outlive it; a verification mismatch is said in
 * *bad. At most max samples. 0, -ENOMEM; destroy accepts NULL.
 */
int mt_candidate_create(struct mt_candidate **out, const struct mt_config *cfg,
			struct mt_event *ev, size_t n_ev, const struct mt_measure_opts *opts,
			const char *phase, const char *field, size_t max,
			struct mt_mismatch *bad);
void mt_candidate_destroy(struct mt_candidate *c);

/*
 * A source for mt_bisect_decide (arg: the candidate): iterations run until
 * want samples are there. 0, or mt_measure_stat's -errno; -ENODATA when
 * the metric came back without samples.
 */
int mt_candidate_more(void *arg, size_t want, const double **x, size_t *n);

#endif
