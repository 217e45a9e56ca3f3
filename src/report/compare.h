/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_COMPARE_H
#define MEMTLB_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "stats/compare.h"

enum mt_compare_format {
	MT_COMPARE_TEXT,
	MT_COMPARE_MARKDOWN,
	MT_COMPARE_CSV,
	MT_COMPARE_JSON,
	MT_COMPARE_HTML,	/* XHTML, every string from the inputs escaped */
	MT_COMPARE_FORMAT_MAX,
};

/*
 * The comparison in fmt. Text, markdown and HTML leave out the rows no
 * input counted and name them in one line below the point's table, unless
 * wide; CSV and JSON have every row. 0 or -errno.
 */
int mt_compare_print_wide(FILE *f, const struct mt_comparison *cmp,
			  enum mt_compare_format fmt, bool wide);
/* The same, not wide. */
int mt_compare_print(FILE *f, const struct mt_comparison *cmp, enum mt_compare_format fmt);

/*
 * The HTML comparison without its document around it (no head, no body
 * element): for a report that has a comparison section.
 */
void mt_compare_print_html_body(FILE *f, const struct mt_comparison *cmp, bool wide);

/* --format's names: "text", "markdown", "csv", "json", "html"; NULL out of range. */
const char *mt_compare_format_name(enum mt_compare_format fmt);

#endif
