/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_ANALYSIS_SELFTEST_H
#define MEMTLB_ANALYSIS_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/config.h"
#include "model/reach.h"
#include "model/report.h"
#include "model/result.h"
#include "stats/knee.h"
#include "sys/sysinfo.h"

/*
 * memtlb selftest's rules (memtlb-selftest(1)): each check a pure function
 * of what was measured or loaded and of the machine's own geometry (cpuid,
 * the probe, the caches), never of a table of known machines. A verdict is
 * pass, fail or skip (the check cannot run here, and says why); KTAP's
 * printing is report/ktap's, the measuring measure/selftest's.
 */
enum mt_selftest_verdict {
	MT_SELFTEST_PASS,
	MT_SELFTEST_FAIL,
	MT_SELFTEST_SKIP,
};

/* The checks, in the order they run and print; named once, in the table. */
enum mt_selftest_check {
	MT_SELFTEST_FAULTS_ANON_BASE,
	MT_SELFTEST_FAULTS_ANON_THP,
	MT_SELFTEST_FAULTS_SHARED_BASE,
	MT_SELFTEST_FAULTS_SHARED_THP,
	MT_SELFTEST_FAULTS_MEMFD_BASE,
	MT_SELFTEST_FAULTS_MEMFD_THP,
	MT_SELFTEST_TLB_LEVELS,
	MT_SELFTEST_KNEES_EXPLAINED,
	MT_SELFTEST_KNEES_AT_REACH,
	MT_SELFTEST_N
};

enum mt_selftest_kind {
	MT_SELFTEST_KIND_FAULTS,	/* a stat run of backing and pages */
	MT_SELFTEST_KIND_LEVELS,	/* the probe against cpuid */
	MT_SELFTEST_KIND_KNEES,		/* a sweep's knees: live, or --from's */
};

struct mt_selftest_desc {
	const char *name;		/* KTAP's test name */
	enum mt_selftest_kind kind;
	enum mt_backing backing;	/* faults: the backing */
	enum mt_pages pages;		/* faults: MT_PAGES_BASE or MT_PAGES_THP */
};

/* The table's entry of id; NULL out of range. */
const struct mt_selftest_desc *mt_selftest_desc(enum mt_selftest_check id);

/* A check's verdict, the reason a fail or skip gives, and what it saw. */
#define MT_SELFTEST_DIAG_MAX 12
#define MT_SELFTEST_TEXT 200

struct mt_selftest_result {
	enum mt_selftest_verdict verdict;
	char reason[MT_SELFTEST_TEXT];	/* fail, skip: one line, KTAP's directive */
	size_t n_diag;
	char diag[MT_SELFTEST_DIAG_MAX][MT_SELFTEST_TEXT];	/* "# " lines before it */
	/* the knee rules, over every curve: what was predicted, judged, failed */
	unsigned int n_predicted, n_judged, n_failed;
};

/* A verdict with its reason (printf), diag lines kept. */
void mt_selftest_set(struct mt_selftest_result *out, enum mt_selftest_verdict v,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* One diagnostic line more (dropped past MT_SELFTEST_DIAG_MAX). */
void mt_selftest_diag(struct mt_selftest_result *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * (1) Fault counts: a region touched once by write_0 faults once per page
 * it is mapped with. r is a stat run (its write_0 phase, its minor-faults
 * event, its proof of mapping); base_page and huge_page the machine's; huge:
 * the run asked for THP. Exact: the median over the iterations must equal
 * region / page, where page is huge_page only when the proof says every
 * byte was mapped huge (skip when it says otherwise, or cannot say).
 */
int mt_selftest_judge_faults(const struct mt_result *r, uint64_t base_page, uint64_t huge_page,
			     bool huge, struct mt_selftest_result *out);

/*
 * (2) TLB levels: each probe level (source "probe", named "L<n> ...") of
 * page size page against cpuid's level of the same number and page size:
 * cpuid's entry count must lie in the probe's [entries_min, entries_max]
 * widened by MT_SELFTEST_LEVEL_MARGIN each way. Skip when cpuid names no
 * level of page, or the probe found none (no_step: why, "" when not known),
 * or no level is in both.
 */
#define MT_SELFTEST_LEVEL_MARGIN 0.25

int mt_selftest_judge_levels(const struct mt_reach *probe, size_t n_probe,
			     const struct mt_reach *cpuid, size_t n_cpuid, uint64_t page,
			     const char *no_step, struct mt_selftest_result *out);

/*
 * (3) and (4) on one curve: x regions (ascending), y ns per block (each
 * point's median), cv each point's CV (NULL: none known), mapped with
 * pages of size page, blocks of block bytes (cv robust: 1.4826 x MAD / median); lv the levels the report knows
 * (cpuid's and measured), si the machine's caches.
 *
 * explained: every knee (mt_knee_find at ko; uncertain ones, or those of a
 * point whose cv is above MT_SELFTEST_KNEE_CV, left out) is
 * explained, within one sweep step either side, by the reach of a TLB
 * level of page, of a page-walk cache (a measured level not named "L<n>"),
 * or by a cache boundary crossed by the page tables (mt_reach_pt_bytes)
 * or by the lines the blocks touch; one that nothing explains fails.
 *
 * at_reach: each TLB level of page whose reach lies inside the curve's
 * regions predicts a knee; the knee nearest it (within a factor of 4) must
 * be within one sweep step of it. Skip when no level predicts one there or
 * no knee is near a prediction.
 *
 * A curve's results are added to out's: call once per curve on the same
 * pair, after mt_selftest_init, then mt_selftest_knees_end.
 */
/* The most a knee's points may vary (robust CV) for a knee rule to judge it. */
#define MT_SELFTEST_KNEE_CV 0.25

struct mt_selftest_curve {
	const double *x, *y, *cv;
	size_t n;
	uint64_t page, block;
	const char *label;		/* the series' name in diag lines, "" for one */
};

void mt_selftest_init(struct mt_selftest_result *out);
int mt_selftest_judge_curve(const struct mt_selftest_curve *c, const struct mt_reach *lv,
			    size_t n_lv, const struct mt_sysinfo *si, const struct mt_knee_opts *ko,
			    struct mt_selftest_result *explained,
			    struct mt_selftest_result *at_reach);
/* The two verdicts once every curve was judged (skip where none was). */
void mt_selftest_knees_end(struct mt_selftest_result *explained,
			   struct mt_selftest_result *at_reach);

/*
 * (3) and (4) on a report: each series' curve of phase (NULL: the report's
 * default), y the median time per block, at ko (NULL: the report's ratio),
 * with the levels the report knows (mt_reach_levels). 0 or -ENOMEM.
 */
int mt_selftest_judge_knees(const struct mt_report *rep, const char *phase,
			    const struct mt_knee_opts *ko, struct mt_selftest_result *explained,
			    struct mt_selftest_result *at_reach);

#endif
