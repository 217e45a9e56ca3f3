/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_COMPARE_H
#define MEMTLB_REPORT_COMPARE_H

#include <stdio.h>

#include "stats/compare.h"

enum mt_compare_format {
	MT_COMPARE_TEXT,
	MT_COMPARE_MARKDOWN,
	MT_COMPARE_CSV,
	MT_COMPARE_JSON,
};

int mt_compare_print(FILE *f, const struct mt_comparison *cmp, enum mt_compare_format fmt);

#endif
