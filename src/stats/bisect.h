/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_BISECT_H
#define MEMTLB_STATS_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/report.h"
#include "model/result.h"

/*
 * memtlb bisect-run's rule: whether a kernel's metric changed beyond a
 * threshold from a baseline's, decided sequentially on plain samples, so
 * that tests decide it on synthetic ones. A few repetitions first; more
 * only while the change's interval still holds the threshold; and no
 * verdict at all (undecided) rather than a guess once the budget is spent.
 * The interval is the Hodges-Lehmann shift's (stats/mwu), which outliers
 * move by a rank rather than by their size, each end a bound that holds
 * with 95% over all the looks the budget allows (Bonferroni's split).
 */

/* The first look, and the most repetitions unless --max-runs says. */
#define MT_BISECT_FIRST_LOOK 3
#define MT_BISECT_MAX_RUNS 30

enum mt_bisect_verdict {
	MT_BISECT_GOOD,		/* the whole interval at or within the threshold */
	MT_BISECT_BAD,		/* the whole interval beyond it */
	MT_BISECT_UNDECIDED,	/* it still holds the threshold: the budget spent */
	MT_BISECT_MORE,		/* it holds the threshold: measure more */
	MT_BISECT_VERDICT_MAX,
};

/* "good", "bad", "undecided", "more": the words of the verdict line. */
const char *mt_bisect_verdict_name(enum mt_bisect_verdict v);

struct mt_bisect_rule {
	double threshold_pct;	/* a change worse than this, in percent, is bad */
	int worse;		/* +1: up is worse (times, counts); -1: down */
	size_t max_runs;	/* the budget of the candidate's repetitions */
};

struct mt_bisect_decision {
	enum mt_bisect_verdict verdict;
	size_t n;		/* the candidate's repetitions judged */
	unsigned int looks;	/* how many times the rule was asked */
	double change;		/* percent of the base's median: the shift's estimate */
	bool have_ci;		/* false: unbounded (too few repetitions yet) */
	double ci_low, ci_high;	/* percent: each a 95% bound over all the looks */
};

/*
 * After n repetitions, how many to have at the next look: the first at
 * MT_BISECT_FIRST_LOOK, then half as many again each time (3, 5, 8, 12,
 * 18, 27, ...), never past max, and max rather than a last step of less
 * than half (3, 5, 8, 12, 18, 30 for 30). Few looks keep the share of the
 * error each may spend large; growing ones spend the repetitions where it
 * is close.
 */
size_t mt_bisect_next_look(size_t n, size_t max);

/*
 * The chance of a wrong verdict that a look at n repetitions may spend,
 * one-sided (each end of its interval at this level): 5% split over the
 * looks a budget of max allows, in proportion to their repetitions, so
 * that all the looks together err at most 5% (stats/bisect.c says why).
 */
double mt_bisect_look_alpha(size_t n, size_t max);

/* A series of samples: the baseline's; a saved candidate's (--from). */
struct mt_bisect_array {
	const double *x;
	size_t n;
};

/*
 * One look: base the baseline's samples (n >= 2, median not 0), cand[0..n)
 * the candidate's repetitions so far. The change is the Hodges-Lehmann
 * shift of the candidate from the base in percent of the base's median,
 * its ends at mt_bisect_look_alpha(n, max_runs) each. The
 * verdict is MORE only while n is below the rule's budget. 0, -EDOM (a
 * base that cannot be a percentage's, a rule without a budget), -ENOMEM.
 */
int mt_bisect_judge(const struct mt_bisect_rule *rule, const struct mt_bisect_array *base,
		    const double *cand, size_t n, struct mt_bisect_decision *out);

/*
 * Where the candidate's repetitions come from: at least want of them in
 * *x, *n set (fewer only when there are no more: a saved report's); 0 or
 * -errno, which ends the decision with it.
 */
typedef int (*mt_bisect_more_fn)(void *arg, size_t want, const double **x, size_t *n);

/* The sequential test: looks at mt_bisect_next_look's counts until a verdict. */
int mt_bisect_decide(const struct mt_bisect_rule *rule, const struct mt_bisect_array *base,
		     mt_bisect_more_fn more, void *arg, struct mt_bisect_decision *out);

/* A saved series as a source: its first want repetitions (--from). */
int mt_bisect_array_more(void *arg, size_t want, const double **x, size_t *n);

/*
 * The per-repetition values of metric field in phase of r, in the unit
 * compare shows them: ns_per_block (the phase time over the blocks),
 * time_us, or an event's count (where not counted: left out). *out is
 * malloc'ed, *n of them. 0, -ENOENT (no such phase or event), -ENODATA
 * (a metric that keeps no samples, or none kept), -ENOMEM.
 */
int mt_bisect_samples(const struct mt_result *r, const char *phase, const char *field,
		      double **out, size_t *n);

/* Whether field is a time (judged by no verdict on an emulated CPU). */
bool mt_bisect_is_time(const char *field);

/*
 * The metric judged when none is asked: the report's default phase's
 * ns_per_block; on an emulated CPU (times are qemu's) the first event
 * counted there with samples and a mean not 0, else in the first phase
 * that has one (write_0's faults). 0, or -ENOENT (none: the phase and
 * field untouched).
 */
int mt_bisect_default_metric(const struct mt_report *rep, bool emulated, char *phase,
			     size_t phase_len, char *field, size_t field_len);

#endif
