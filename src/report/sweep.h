/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_SWEEP_H
#define MEMTLB_REPORT_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"
#include "stats/knee.h"

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
/*
 * The page-size matrix of a sweep over --pages (analysis/matrix): per
 * region a table of the sizes and the verdict lines, as memtlb sweep
 * prints them, wrapped at width; nothing when --pages did not vary. 0,
 * -ENOMEM or -EIO.
 */
int mt_report_print_matrix(FILE *f, const struct mt_report *rep, const char *phase, int width);

/*
 * One line per measured level of rep (--tlb) that cpuid also describes:
 * whether cpuid's entry count lies in the probe's range (agree) or not.
 */
void mt_report_print_tlb_agreement(FILE *f, const struct mt_report *rep, int width);

int mt_report_print_sweep_csv(FILE *f, const struct mt_report *rep, const char *phase,
			      const struct mt_knee_opts *ko);

/*
 * The knee and fit lines of each series under its title, as memtlb sweep
 * prints them below its tables, wrapped at width (for memtlb report).
 * NULL ko: defaults. 0, -EINVAL (no phase), -ENOMEM, -EIO.
 */
int mt_report_print_knees(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, int width);

/*
 * Where the knees of every series are, for the plots: the region (x) and
 * ns per block (y) of each knee's first point on the new level, up to max.
 * Returns how many, or -EINVAL (no phase), -ENOMEM.
 */
int mt_report_knee_points(const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, double *x, double *y, size_t max);

#endif
