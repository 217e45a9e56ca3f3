/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_COMMAND_H
#define MEMTLB_MEASURE_COMMAND_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "counters/counters.h"
#include "stats/stats.h"

/*
 * memtlb run: fork, exec argv (no shell) with the counters opened on the
 * child before it execs and enabled by the exec (enable_on_exec), children
 * of the command inherited. repeats runs, stopping after the first that
 * fails. The result has one phase, "command": its wall time (from the go
 * byte that lets the child exec, after the fork and the counter open, to the
 * reap) and every event's count, summarised over the runs. No shell is
 * used, not even for a file the kernel cannot exec (oc->exec_errno ENOEXEC).
 * A SIGTERM or SIGHUP sent to memtlb alone goes on to the command; memtlb
 * waits for it and stops after that run (oc->signal): the runs done are
 * the result. With opts->attach, -ESRCH when the process is gone before
 * the counters open. Returns 0, or -ECHILD when the child ended before it could
 * exec, or the signal came before the first run (oc->status says how), or
 * -errno.
 */
struct mt_run_outcome {
	unsigned int runs;	/* runs done, the failing one included */
	int status;		/* shell-style: exit code, or 128 + signal */
	int exec_errno;		/* exec failed in the child: its errno, 0 if not */
	int signal;		/* SIGTERM or SIGHUP memtlb got (and passed on), 0 if none */
	bool idle;		/* -p: the process never ran while counted (no time enabled) */
};

/* The counts of one interval (-I): t_s since the start, delta since the last. */
typedef void (*mt_interval_fn)(void *arg, double t_s, const struct mt_event *ev,
			       const struct mt_counts *delta, size_t n_ev);

/*
 * What run may do beyond the plain one (NULL: nothing). interval_ms: the
 * counts read every interval_ms while the command runs, given to interval
 * (perf stat -I); the reads are memtlb's, between the command's own work.
 * attach: count this running process (perf stat -p) instead of running
 * argv: each of its threads, and the threads and children they start from
 * then on (inherit), until it exits, SIGINT (Ctrl-C: the normal end, as perf
 * stat -p's), SIGTERM or SIGHUP (oc->signal) or after duration_s; the
 * outcome's status is then 0: the process is not memtlb's child.
 * last_counts, last_time_ns: where set, the last run's raw counts (n_ev of
 * them, unscaled) and wall time, for a caller that pools runs (run --vary).
 */
struct mt_run_opts {
	unsigned int interval_ms;
	mt_interval_fn interval;
	void *interval_arg;
	pid_t attach;
	double duration_s;
	struct mt_counts *last_counts;
	uint64_t *last_time_ns;
};

int mt_measure_run(char *const argv[], unsigned int repeats, const struct mt_event *ev,
		   size_t n_ev, int hw_counters, const struct mt_run_opts *opts,
		   struct mt_result **out, struct mt_run_outcome *oc, struct mt_event *used);

#endif
