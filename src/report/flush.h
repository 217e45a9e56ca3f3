/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_FLUSH_H
#define MEMTLB_REPORT_FLUSH_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"

/*
 * memtlb flush's tables (80 columns): time per op and per page over K,
 * the workload's exact counts, then the events per op, five at a time;
 * below them the knee, the flush ceiling and the paravirtual flush caveat.
 * An event the machine could not count is named "not supported" and has
 * no column. Returns 0, -EINVAL (not a flush report) or -EIO.
 */
int mt_flush_print_table(FILE *f, const struct mt_report *rep, bool verbose);

#endif
