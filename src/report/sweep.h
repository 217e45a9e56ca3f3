/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_SWEEP_H
#define MEMTLB_REPORT_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"
#include "stats/knee.h"

/*
 * Sweeps (report/sweep.c): seed 000's table, one row per region of each
 * series with ns per block, the phase's mean (in the unit of the column),
 * faults and misses per block where counted, and the knees (NULL ko:
 * defaults); within the width of f (mt_text_width) unless wide. The CSV
 * has every value in full precision. 0, -EINVAL for no phase (NULL),
 * -ENOMEM or -EIO.
 */
struct mt_knee_opts;
int mt_report_print_sweep(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, bool wide);
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
int mt_report_translation(const struct mt_report *rep, const char *phase,
			  struct mt_translation *out, size_t max);

/*
 * One line per measured level of rep (--tlb) that cpuid also describes:
 * whether cpuid's entry count lies in the probe's range (agree) or not.
 */
void mt_report_print_tlb_agreement(FILE *f, const struct mt_report *rep, int width);

int mt_report_print_sweep_csv(FILE *f, const struct mt_report *rep, const char *phase,
			      const struct mt_knee_opts *ko);

/*
 * The knee and fit lines of each series under its title, as memtlb sweep
 * prints them below its tables, wrapped at width (for memtlb report).
 * NULL ko: defaults. 0, -EINVAL (no phase), -ENOMEM, -EIO.
 */
int mt_report_print_knees(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, int width);

/*
 * Where the knees of every series are, for the plots: the region (x) and
 * ns per block (y) of each knee's first point on the new level, up to max.
 * Returns how many, or -EINVAL (no phase), -ENOMEM.
 */
int mt_report_knee_points(const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, double *x, double *y, size_t max);

/*
 * A report's series (results alike but for the region) one after another,
 * each as the curve of one phase: its points by region and the knees found
 * on it. A series no point of which has the phase is passed over.
 */
struct mt_report_series {
	unsigned int s;		/* the series: ids[i] == s for its results */
	size_t n;		/* points on the curve */
	size_t *idx;		/* their results' indices, by region */
	double *x, *y;		/* region, ns per block */
	double *cv;		/* the phase time's CV per point, NAN: one sample */
	struct mt_knee knees[MT_KNEE_MAX];	/* uncertain ones included */
	int n_knees;		/* < 0: not computed (-EINVAL: a region twice, a zero cost) */
	unsigned int *ids;	/* each result's series (mt_knee_series) */
	size_t n_series;
	const struct mt_report *rep;
	const char *phase;	/* NULL: no curve at all */
	struct mt_knee_opts ko;
	unsigned int next;
};

/*
 * 0 or -ENOMEM; NULL ko: the report's knee_ratio, else the defaults; NULL
 * phase: no curve. End it with
 * mt_report_series_end, after a failed begin too.
 */
int mt_report_series_begin(struct mt_report_series *it, const struct mt_report *rep,
			   const char *phase, const struct mt_knee_opts *ko);
/* 1 with the next series' curve in *it, 0 when none is left, -ENOMEM. */
int mt_report_series_next(struct mt_report_series *it);
/* The series' knees that are not uncertain: what it has to say as knees. */
int mt_report_series_knees(const struct mt_report_series *it);
/* Why the step at -> at+1 of the curve is, or is not, a knee. */
enum mt_knee_why mt_report_series_why(const struct mt_report_series *it, size_t at);
void mt_report_series_end(struct mt_report_series *it);

#endif
