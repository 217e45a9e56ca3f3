/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_COMPARE_H
#define MEMTLB_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/explain.h"
#include "model/config.h"
#include "stats/compare.h"


/*
 * The comparison in fmt (MT_FORMATS_COMPARE). Text, markdown and HTML leave out the rows no
 * input counted and name them in one line below the point's table, unless
 * wide; CSV and JSON have every row. 0 or -errno.
 */
int mt_compare_print_wide(FILE *f, const struct mt_comparison *cmp,
			  enum mt_format fmt, bool wide);
/*
 * The same with --explain's section (ex, NULL: none): text and markdown
 * below the legend, JSON as its explain array; -EINVAL for csv and html.
 */
int mt_compare_print_explained(FILE *f, const struct mt_comparison *cmp,
			       const struct mt_explanation *ex, enum mt_format fmt, bool wide);
/* The same, not wide. */
int mt_compare_print(FILE *f, const struct mt_comparison *cmp, enum mt_format fmt);

/*
 * The HTML comparison without its document around it (no head, no body
 * element): for a report that has a comparison section.
 */
void mt_compare_print_html_body(FILE *f, const struct mt_comparison *cmp, bool wide);


#endif
