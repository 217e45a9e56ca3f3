/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_ANALYSIS_TRANSLATION_H
#define MEMTLB_ANALYSIS_TRANSLATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/report.h"

/*
 * One point of a translation series (sweep --vary pages=base,thp or
 * base,hugetlb): the same region and parameters measured with base pages
 * and with huge pages; per block of phase, base - huge, with the 95% CI
 * of the difference (Welch's standard error from the two summaries, the
 * Welch-Satterthwaite degrees of freedom; NAN below 2 iterations a side).
 */
struct mt_translation {
	uint64_t region;
	const struct mt_result *base, *huge;
	char pages[64];			/* the huge side's --pages value */
	double base_ns, huge_ns;	/* mean ns per block */
	double translation_ns;		/* base_ns - huge_ns; NAN when refused */
	double ci95_ns;			/* half-width; NAN when not known */
	/* NULL, or the verdict of a side whose pages were not as requested */
	const char *refused;
	const char *refused_pages;	/* that side's --pages value */
};

/*
 * The translation series of rep at phase, ordered by series then region:
 * at most max in out. Returns the number, 0 when --vary pages did not pair
 * base with huge pages, or -ENOMEM.
 */
int mt_translation_series(const struct mt_report *rep, const char *phase,
			  struct mt_translation *out, size_t max);

/*
 * Whether two regions or more were measured and 0 lies within every one's
 * interval: the huge pages save nothing the noise does not hide.
 */
bool mt_translation_none_apart(const struct mt_translation *tr, int n);

#endif
