/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_MEASURE_H
#define MEMTLB_MEASURE_MEASURE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "counters/resolve.h"
#include "model/config.h"
#include "model/report.h"
#include "model/result.h"
#include "sys/sysinfo.h"
#include "workload/workload.h"

/*
 * The one place that knows both the workload and the counters: a stat run
 * is the workload's iterations under the counter groups, the counters read
 * at every phase boundary, summarised into a result.
 */

/* What a measurement tells its caller while it runs (the CLI shows it). */
enum mt_progress_kind {
	MT_PROGRESS_ITERATION,	/* iter of n_iter done */
	MT_PROGRESS_PHASE,	/* iteration iter of n_iter enters phase: past 1 s, <= 2/s */
	MT_PROGRESS_POINT,	/* a sweep's point starts */
	MT_PROGRESS_RECOUNT,	/* a group was never scheduled: counting again, split */
	MT_PROGRESS_DONE,	/* the measurement ended: clear what was shown */
};

struct mt_progress {
	enum mt_progress_kind kind;
	unsigned int iter, n_iter;
	size_t point, n_points;
	uint64_t region;
	double elapsed_s;
	double eta_s;		/* < 0: not known yet */
	char phase[16];		/* MT_PROGRESS_PHASE: the phase starting */
};

typedef void (*mt_progress_fn)(void *arg, const struct mt_progress *p);

struct mt_measure_opts {
	int hw_counters;	/* the machine's (sysinfo), for the reasons */
	mt_progress_fn progress;	/* NULL: nothing shown */
	void *progress_arg;
	/* Set by a signal handler: stop between iterations with -EINTR. */
	volatile sig_atomic_t *stop;
	/* Steal, context switches, migrations over the runs added here; NULL: not. */
	struct mt_env_run *env_run;
	/* On -EINTR, the iterations done as *out (none done: *out NULL). */
	bool keep_partial;
	/* Iteration timestamps count from here (a sweep's start); NULL: the run's. */
	const struct timespec *t0;
};

/*
 * One stat run. A group the kernel took but never scheduled is split and
 * counted again (MT_PROGRESS_RECOUNT); ev keeps the split for later runs.
 * Returns 0, -EILSEQ with *bad filled, -ECHILD (bad->why), -EINTR, -errno.
 * -EINTR with opts->keep_partial leaves the iterations done in *out, or
 * NULL when none was.
 */
int mt_measure_stat(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		    const struct mt_measure_opts *opts, struct mt_result **out,
		    struct mt_mismatch *bad);

/*
 * A stat run taken one iteration at a time, so that a sweep can alternate
 * its points (--order) and stat can decide between iterations when to stop.
 * create: the workload and counters of cfg, room for cfg->warmup plus the
 * most iterations (mt_repeat_limit); iteration timestamps count from *base
 * (NULL: the run's creation). 0 or -errno; destroy accepts NULL.
 */
struct mt_measure_run;

int mt_measure_run_create(struct mt_measure_run **out, const struct mt_config *cfg,
			  struct mt_event *ev, size_t n_ev, const struct mt_measure_opts *opts,
			  const struct timespec *base);
void mt_measure_run_destroy(struct mt_measure_run *m);

/* One iteration (the warm-up ones first): 0, -EINTR, -EILSEQ, -ECHILD, -ENOSPC, -errno. */
int mt_measure_run_step(struct mt_measure_run *m, struct mt_mismatch *bad);

/* Timed iterations done so far, warm-up not counted. */
unsigned int mt_measure_run_done(const struct mt_measure_run *m);

/* Why to stop now (the config's rule), or MT_STOP_NONE to step again. */
enum mt_stop mt_measure_run_decide(struct mt_measure_run *m);

/*
 * The result of the iterations done, stopped for why (with the untimed
 * evidence iteration unless MT_STOP_INTERRUPTED). 0, -EINTR (interrupted:
 * *out the iterations done, or NULL when none was), -errno.
 */
int mt_measure_run_finish(struct mt_measure_run *m, enum mt_stop why, struct mt_result **out,
			  struct mt_mismatch *bad);

/*
 * stat --runs: the results of n fresh processes as one. The phase's
 * summaries are over all iterations of all runs (counters pooled: n, mean,
 * stddev, min, max exact; median the runs' medians' median), runs[] holds
 * each run's means, between the summary and 95% CI of the run means.
 * Takes runs[] over: on success *out is runs[0] merged, the rest destroyed,
 * every entry NULL. 0, -EINVAL, -EPROTO (runs of different shapes), -ENOMEM.
 */
#define MT_RUNS_MAX 64

int mt_measure_runs_merge(struct mt_result **runs, unsigned int n, struct mt_result **out);

/*
 * --cpu N: this process on that CPU alone (its tasks inherit it), so that
 * what runs before the points (the roofline's calibration) runs where they
 * do; nothing without --cpu. 0 or -errno.
 */
int mt_measure_pin(const struct mt_config *cfg);

/* Whether a group of several events was never scheduled in any phase. */
bool mt_measure_unscheduled(const struct mt_result *r);

/* This machine as every report records it: /proc, /sys and libpfm4's PMUs. */
void mt_measure_sysinfo(struct mt_sysinfo *si);

/* A run id: 32 random hex digits in buf (len >= 33), or "" where none can be drawn. */
void mt_measure_run_id(char *buf, size_t len);

/* A report of command with this machine, the config and the backend; 0 or -errno. */
int mt_measure_report_create(struct mt_report **out, const char *command,
			     const struct mt_config *cfg);

#endif
