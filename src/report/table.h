/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_TABLE_H
#define MEMTLB_REPORT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"

/*
 * The seed's table: phase, ns/block, mean (its unit), cv (%), a column per
 * event that counted, derived (the phase table of report/cells.h, as memtlb
 * report shows it too); for memtlb run, a row per event; for memtlb flush,
 * its tables (mt_flush_print_table). Within the width of f
 * (mt_report_width: stacked tables when the columns do not fit), every
 * column and one table when verbose (--wide). 0, -ENOMEM or -EIO (the
 * stream failed).
 */
int mt_report_print_table(FILE *f, const struct mt_report *rep, bool verbose);
/*
 * memtlb run's table: a row for the wall time, one per event that counted
 * (every event when verbose), one per derived metric; mean, stddev, cv and
 * sem over the runs (perf stat's shape, the spread spelt out); under it
 * the notes, the columns' definitions last. The same for memtlb run and
 * memtlb report. 0, -ENODATA (no result), -ENOMEM; *out NULL on failure.
 */
struct mt_table;
int mt_run_table(struct mt_table **out, const struct mt_report *rep, bool verbose);

/*
 * Every value a row: point, phase, metric, unit, mean, stddev, cv, running,
 * status; integers as integers, the rest in the digits that read back.
 */
int mt_report_print_csv(FILE *f, const struct mt_report *rep);

#endif
