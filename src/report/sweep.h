/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_SWEEP_H
#define MEMTLB_REPORT_SWEEP_H

#include <stdio.h>

#include "model/report.h"

/*
 * Sweeps (report/sweep.c): seed 000's table, one row per region of each
 * series with the phase's mean, ns per block, faults and misses per block
 * where counted, and the knees (NULL ko: defaults). 0, -EINVAL for no
 * phase (NULL), or -ENOMEM.
 */
struct mt_knee_opts;
int mt_report_print_sweep(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko);
int mt_report_print_sweep_csv(FILE *f, const struct mt_report *rep, const char *phase,
			      const struct mt_knee_opts *ko);

#endif
