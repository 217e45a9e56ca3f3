/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_RUNGRID_H
#define MEMTLB_REPORT_RUNGRID_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"
#include "stats/compare.h"

/*
 * memtlb run --vary's table (rep->grid set): a column per combination of
 * the tunables' values, a row per event and the wall time; each cell the
 * mean over the column's runs that exited 0, its stddev in % of the mean,
 * and after the first column the change to it, marked '*' where compare's
 * test finds it significant beyond the noise threshold. Blocks of columns
 * within 80 columns (the row names repeated), one table when wide. 0,
 * -ENOMEM or -EIO.
 */
int mt_rungrid_print_table(FILE *f, const struct mt_report *rep, bool wide);

/*
 * Whether rep is a sweep that varies a kernel tunable at one region: a
 * study of the seeds' kind, as memtlb run --vary's around any command.
 */
bool mt_rungrid_is_study(const struct mt_report *rep);

/*
 * Such a sweep's phase in run --vary's layout (seed 001's): a column per
 * point, a row per event counted in the phase and its time, each the mean
 * per iteration +- stddev, and the change to the first column, judged as
 * compare judges it. Nothing for any other report. 0, -ENOMEM or -EIO.
 */
int mt_rungrid_print_study(FILE *f, const struct mt_report *rep, const char *phase, bool wide);

/*
 * The same as CSV: a line per column and metric: column, values, metric,
 * unit, mean, stddev, cv, n, failed, change, change_unit (% or the unit,
 * for a near-zero base), p, changed.
 */
int mt_rungrid_print_csv(FILE *f, const struct mt_report *rep);

/*
 * One cell: mean (a count grouped, a time at scale, digits decimals), its
 * stddev in % of the mean where n > 1, and where chg is not NULL the change
 * with its mark ("1,234 +- 0.52%     +9.1%*"). mark_ok false: a time on an
 * emulated CPU, no mark. The change judged as compare's (mt_compare_judge).
 */
void mt_rungrid_cell(char *buf, size_t len, const struct mt_summary *s, double scale,
		     int digits, const struct mt_cmp_side *chg);

#endif
