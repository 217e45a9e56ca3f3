/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_COMPARE_H
#define MEMTLB_STATS_COMPARE_H

#include <stdbool.h>

#include "model/report.h"

#define MT_COMPARE_MAX_INPUTS 64	/* a fleet: one column per box, as lkp compares commits */
#define MT_COMPARE_ALPHA 0.05
/* criterion's noise threshold: a significant change smaller than this is noise. */
#define MT_COMPARE_NOISE_PCT 1.0
/* The row of a phase's time, in microseconds: its metric's name. */
#define MT_COMPARE_TIME_METRIC "time_us"

enum mt_compare_test {
	MT_COMPARE_WELCH,	/* Welch's t-test on the summaries */
	MT_COMPARE_MWU,		/* Mann-Whitney U on the samples, where kept */
	MT_COMPARE_TEST_MAX,
};

struct mt_compare_opts {
	double noise_pct;	/* a change calls only beyond this, in percent */
	enum mt_compare_test test;
};

/* Summary lines: the geometric mean of ratios within each family. */
enum mt_family {
	MT_FAMILY_TIME,		/* phase times */
	MT_FAMILY_PER_BLOCK,	/* derived per-block costs and ratios */
	MT_FAMILY_COUNTER,	/* counts per phase */
	MT_FAMILY_MAX,
};

enum mt_side_state {
	MT_SIDE_OK,
	MT_SIDE_ABSENT,		/* the point or metric is not in this input */
	MT_SIDE_UNSUPPORTED,	/* the event could not be counted there */
	MT_SIDE_NOT_COUNTED,
};

struct mt_cmp_side {
	enum mt_side_state state;
	struct mt_summary s;	/* n == 0: a value without samples (derived) */
	const double *samples;	/* s.n of them, times scale = the row's unit; or NULL */
	double scale;
	/* vs the base, for inputs 1..n-1; only when both sides are OK: */
	bool have_change;
	bool absolute;		/* near-zero base: change is new - base */
	double change;		/* percent, or the absolute difference */
	bool tested;		/* both sides had >= 2 samples */
	enum mt_compare_test test;	/* the one p is from: Welch where no samples */
	double p;
	bool significant;	/* tested, p < alpha */
	/* 95% CI of change (same unit), delta method on Welch's errors: */
	bool have_ci;
	double ci_low, ci_high;
	bool changed;		/* significant and beyond the noise (or absolute) */
	bool regression;	/* changed and in the worse direction */
	/*
	 * A time where this input or the base ran on an emulated CPU (or one
	 * perhaps emulated): qemu's translator's time, no change judged, never
	 * a verdict; its counts still compare.
	 */
	bool emulated;
};

/* One metric of one phase of one point, across the inputs. */
struct mt_cmp_row {
	const char *point;	/* the point's parameters */
	char phase[16];
	char metric[72];	/* "time_us", "minor-faults", "ns_per_block", ... */
	enum mt_family family;
	int worse;		/* +1: up is worse, -1: down is worse */
	struct mt_cmp_side side[MT_COMPARE_MAX_INPUTS];
};

struct mt_comparison {
	struct mt_compare_opts opts;
	unsigned int n_inputs;
	const char *files[MT_COMPARE_MAX_INPUTS];
	const struct mt_report *reps[MT_COMPARE_MAX_INPUTS];
	size_t n_rows;
	struct mt_cmp_row *rows;
	size_t between_runs;	/* rows whose spread is between --runs' processes */
	size_t n_warnings;
	char **warnings;	/* differences in configuration or system */
	size_t n_lonely;
	char **lonely;		/* "region=1g block=4k: only in FILE" */
	/* per input 1..n-1 and family; count 0 when nothing to average */
	double geomean[MT_COMPARE_MAX_INPUTS][MT_FAMILY_MAX];	/* percent change */
	unsigned int geomean_n[MT_COMPARE_MAX_INPUTS][MT_FAMILY_MAX];
};

/*
 * Compare reps[1..n-1] with reps[0]; the reports must outlive the
 * comparison. opts NULL: Welch's test, the default noise threshold.
 * 0, -EINVAL (n, a negative noise), -ENOMEM.
 */
int mt_compare_create_opts(struct mt_comparison **out, const struct mt_report *const *reps,
			   const char *const *files, unsigned int n,
			   const struct mt_compare_opts *opts);
/* The same with the defaults. */
int mt_compare_create(struct mt_comparison **out, const struct mt_report *const *reps,
		      const char *const *files, unsigned int n);

/* "welch", "mwu": --test's names; NULL out of range. */
const char *mt_compare_test_name(enum mt_compare_test t);

/*
 * 95% confidence interval of the percent change from a to b (both n >= 2,
 * a's mean not 0): the delta method on Welch's standard errors, with the
 * Welch-Satterthwaite degrees of freedom of b - R a. 0, -EDOM, or -ERANGE
 * when the base's mean is not clear of 0 (Fieller's g >= 1: no bounded
 * interval exists).
 */
int mt_compare_ci_pct(const struct mt_summary *a, const struct mt_summary *b,
		      double *low, double *high);
void mt_compare_destroy(struct mt_comparison *cmp);

/*
 * One change judged as a comparison judges a row's: b against the base a
 * (summaries in one unit; counter: counts, where a base below 1 is near
 * zero), beyond noise_pct percent. Fills out's have_change, absolute,
 * change, tested, test (Welch's), p, significant, have_ci, ci_low, ci_high
 * and changed; the rest (state, regression, emulated) is the caller's.
 */
void mt_compare_judge(const struct mt_summary *a, const struct mt_summary *b, bool counter,
		      double noise_pct, struct mt_cmp_side *out);

/*
 * What --fail-above gates in row r for input i: a regression beyond the
 * noise, in percent; 0 when there is none (or the base is near zero).
 */
double mt_compare_gated(const struct mt_cmp_row *r, unsigned int i);

/* The largest regression beyond the noise in percent, 0 when there is none. */
double mt_compare_worst(const struct mt_comparison *cmp);

/*
 * s with the bytes a terminal acts on (C0, DEL, C1) as \xNN, for strings
 * from a report; cut short at len, never inside an escape.
 */
void mt_compare_escape(char *buf, size_t len, const char *s);

const char *mt_family_name(enum mt_family f);

/* The result of rep whose parameters are key (a row's point), or NULL. */
const struct mt_result *mt_compare_find_point(const struct mt_report *rep, const char *key);

#endif
