/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_CELLS_H
#define MEMTLB_REPORT_CELLS_H

#include <stddef.h>

/* A value for humans: whole above 100, 3 decimals below, %g at the extremes. */
void mt_report_number(char *buf, size_t len, double v);


#endif
