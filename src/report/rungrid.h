/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_RUNGRID_H
#define MEMTLB_REPORT_RUNGRID_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"
#include "stats/compare.h"

/*
 * memtlb run --vary's table (rep->grid set): a column per combination of
 * the tunables' values, a row per event and the wall time; each cell the
 * mean over the column's runs that exited 0, its stddev in % of the mean,
 * and after the first column the change to it, marked '*' where compare's
 * test finds it significant beyond the noise threshold. Blocks of columns
 * within 80 columns (the row names repeated), one table when wide. 0,
 * -ENOMEM or -EIO.
 */
int mt_rungrid_print_table(FILE *f, const struct mt_report *rep, bool wide);

/*
 * A row of the grid: the wall time or an event, named, scaled and rounded
 * as the table shows it, so that a plot of the row says what the table
 * does.
 */
struct mt_rungrid_row {
	const char *phase;	/* a sweep study's phase (mt_rungrid_print_study), NULL: a run's */
	int event;		/* in the first column's result; -1: the wall time */
	const char *name;	/* the event's, NULL for the time */
	const char *tu;		/* a clock event's unit: shown in it */
	const char *unit;	/* what the numbers shown are in: "s", tu, "count" */
	double scale;		/* ns or counts per unit shown */
	int digits;		/* -1: a count */
};

/*
 * Row slot of rep's grid into rw: below the first column's n_events an
 * event, at n_events the wall time (the last row, as perf stat prints
 * it). false past it, and for an event the first column could not open
 * unless wide (the table leaves that row out).
 */
bool mt_rungrid_row(const struct mt_report *rep, unsigned int slot, bool wide,
		    struct mt_rungrid_row *rw);

/* The row's name in the table's first column: "task-clock (msec)". */
void mt_rungrid_row_name(const struct mt_rungrid_row *rw, char *buf, size_t len);

/*
 * Column r's numbers of the row, its event found by name (a report read
 * back need not list the events alike): the summary, and in *samples one
 * value per run, NAN where not counted (NULL: none kept). *state is not
 * MT_COUNTER_OK where there are none: r could not open the event, or
 * lacks it (MT_COUNTER_UNSUPPORTED), or never counted it.
 */
const struct mt_summary *mt_rungrid_value(const struct mt_result *r,
					  const struct mt_rungrid_row *rw,
					  enum mt_counter_state *state, const double **samples);

/*
 * Whether rep is a sweep that varies a kernel tunable at one region: a
 * study of the seeds' kind, as memtlb run --vary's around any command.
 */
bool mt_rungrid_is_study(const struct mt_report *rep);

/*
 * Such a sweep's phase in run --vary's layout (seed 001's): a column per
 * point, a row per event counted in the phase and its time, each the mean
 * per iteration +- stddev, and the change to the first column, judged as
 * compare judges it. Nothing for any other report. 0, -ENOMEM or -EIO.
 */
int mt_rungrid_print_study(FILE *f, const struct mt_report *rep, const char *phase, bool wide);

/*
 * The same as CSV: a line per column and metric: column, values, metric,
 * unit, mean, stddev, cv, n, failed, change, change_unit (% or the unit,
 * for a near-zero base), p, changed.
 */
int mt_rungrid_print_csv(FILE *f, const struct mt_report *rep);

/*
 * One cell: mean (a count grouped, a time at scale, digits decimals), its
 * stddev in % of the mean where n > 1, and where chg is not NULL the change
 * with its mark ("1,234 +- 0.52%     +9.1%*"). mark_ok false: a time on an
 * emulated CPU, no mark. The change judged as compare's (mt_compare_judge).
 */
void mt_rungrid_cell(char *buf, size_t len, const struct mt_summary *s, double scale,
		     int digits, const struct mt_cmp_side *chg);

#endif
