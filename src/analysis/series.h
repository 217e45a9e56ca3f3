/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_ANALYSIS_SERIES_H
#define MEMTLB_ANALYSIS_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/reach.h"
#include "model/report.h"
#include "stats/knee.h"

/*
 * What a report's curves mean, computed here once for every printer (the
 * sweep table and CSV, memtlb report, the JSON, the exports): the series
 * of a report (results alike but for the region) one after another, each
 * as the curve of one phase, with its points by region, the knees found on
 * it and the TLB level that explains each. A series no point of which has
 * the phase is passed over.
 */

/* The level whose reach lies between a knee's two regions (mt_reach_knee). */
struct mt_series_level {
	int found;		/* 1: lv; 0: no level of page has it; < 0: no TLB known */
	struct mt_reach lv;
	uint64_t page;		/* the page size the knee's points were mapped with */
};

struct mt_series {
	unsigned int s;		/* the series: ids[i] == s for its results */
	size_t n;		/* points on the curve */
	size_t *idx;		/* their results' indices, by region */
	double *x, *y;		/* region, ns per block */
	double *cv;		/* the phase time's CV per point, NAN: one sample */
	struct mt_knee knees[MT_KNEE_MAX];	/* uncertain ones included */
	struct mt_series_level level[MT_KNEE_MAX];	/* knees[i]'s */
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
 * phase: no curve. End it with mt_series_end, after a failed begin too.
 */
int mt_series_begin(struct mt_series *it, const struct mt_report *rep, const char *phase,
		    const struct mt_knee_opts *ko);
/* 1 with the next series' curve in *it, 0 when none is left, -ENOMEM. */
int mt_series_next(struct mt_series *it);
/* The series' knees that are not uncertain: what it has to say as knees. */
int mt_series_knees(const struct mt_series *it);
/* Why the step at -> at+1 of the curve is, or is not, a knee. */
enum mt_knee_why mt_series_why(const struct mt_series *it, size_t at);
void mt_series_end(struct mt_series *it);

/*
 * The JSON's name of a series: its swept parameters but the region, as
 * "key=value key=value" ("" when only regions vary); for the report file
 * and the comparison of two.
 */
void mt_series_key(const struct mt_result *r, char *buf, size_t len);

#endif
