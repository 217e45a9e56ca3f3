/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_SWEEP_H
#define MEMTLB_REPORT_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"

/*
 * Sweeps (report/sweep.c): seed 000's table, one row per region of each
 * series with ns per block, the phase's mean (in the unit of the column),
 * faults and misses per block where counted, and the knees (NULL ko:
 * defaults); within the width of f (mt_text_width) unless wide. The CSV
 * has every value in full precision. 0, -EINVAL for no phase (NULL),
 * -ENOMEM or -EIO.
 */
struct mt_knee_opts;
int mt_report_print_sweep(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, bool wide);
int mt_report_print_sweep_csv(FILE *f, const struct mt_report *rep, const char *phase,
			      const struct mt_knee_opts *ko);

#endif
