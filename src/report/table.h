/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_TABLE_H
#define MEMTLB_REPORT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"

/*
 * The seed's table: phase, mean (us), cv (%), a column per event, derived
 * (the phase table of report/cells.h, as memtlb report shows it too); for
 * memtlb run, a row per event. 0, -ENOMEM or -EIO (the stream failed).
 */
int mt_report_print_table(FILE *f, const struct mt_report *rep, bool verbose);
/* Every value a row: point, phase, metric, unit, mean, stddev, cv, running, status. */
int mt_report_print_csv(FILE *f, const struct mt_report *rep);

/* Two lines when the report's CPU was or may have been emulated (sys/emulation). */
void mt_report_print_emulated(FILE *f, const struct mt_report *rep);

#endif
