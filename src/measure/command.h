/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_COMMAND_H
#define MEMTLB_MEASURE_COMMAND_H

#include <stddef.h>

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
 * the result. Returns 0, or -ECHILD when the child ended before it could
 * exec, or the signal came before the first run (oc->status says how), or
 * -errno.
 */
struct mt_run_outcome {
	unsigned int runs;	/* runs done, the failing one included */
	int status;		/* shell-style: exit code, or 128 + signal */
	int exec_errno;		/* exec failed in the child: its errno, 0 if not */
	int signal;		/* SIGTERM or SIGHUP memtlb got (and passed on), 0 if none */
};

int mt_measure_run(char *const argv[], unsigned int repeats, const struct mt_event *ev,
		   size_t n_ev, int hw_counters, struct mt_result **out,
		   struct mt_run_outcome *oc, struct mt_event *used);

#endif
