/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_TABLE_H
#define MEMTLB_REPORT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"

/* The seed's table: phase, mean (us), cv (%), a column per event, derived. */
void mt_report_print_table(FILE *f, const struct mt_report *rep, bool verbose);
void mt_report_print_csv(FILE *f, const struct mt_report *rep);

#endif
