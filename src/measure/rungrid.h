/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_RUNGRID_H
#define MEMTLB_MEASURE_RUNGRID_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "counters/counters.h"
#include "model/grid.h"
#include "model/report.h"
#include "sys/msg.h"

/*
 * memtlb run --vary: a command run under every column of a grid of
 * kernel tunables (model/grid.h), each run one mt_measure_run. The
 * tunables are checked before anything runs, saved and registered with
 * the cleanup registry (journaled) before the first write, set before
 * each run where they differ from what is set, and restored after the
 * last. The caller holds the machine lock.
 */
struct mt_rungrid;

/* The grid's keys resolved (sys/tunable.h); two naming one file refused. 0 or -EINVAL, msg. */
int mt_rungrid_create(struct mt_rungrid **out, const struct mt_grid *g, struct mt_msg *msg);
void mt_rungrid_destroy(struct mt_rungrid *rg);	/* accepts NULL */

/*
 * Every tunable read and saved, and checked writable; every value of a
 * choice (always [madvise] never) one of its words. Nothing is written.
 * 0, or -errno with msg: -ENOENT, -ENOMEDIUM (debugfs not mounted), -EPERM
 * (lockdown), -EACCES (not root, read-only), -EINVAL (a value refused).
 */
int mt_rungrid_check(struct mt_rungrid *rg, struct mt_msg *msg);

struct mt_rungrid_opts {
	unsigned int repeat;		/* runs per column */
	enum mt_order order;
	uint64_t seed;			/* --order random's */
	int hw_counters;
	volatile sig_atomic_t *stop;	/* set by a signal: stop before the next run */
};

struct mt_rungrid_outcome {
	unsigned int runs;	/* runs done, failed ones included */
	int exec_errno;		/* the command could not be run: its errno, nothing measured */
	int signal;		/* what stopped the grid early, 0 if none */
};

/*
 * Run argv repeat times per column in the order asked, into rep (command
 * "run"): a result per column, in column order, its tunables' values its
 * parameters, and rep->grid. A run that exits non-zero is counted as the
 * column's failure, its samples left out, and the grid goes on. A SIGTERM
 * or SIGHUP (passed on to the command), a command ended by SIGINT or
 * SIGQUIT (^C at the terminal), or *stop ends it after the run: the runs
 * done are the result (oc->signal). 0, or -errno with msg (a value the
 * kernel refused names the key and the value); the tunables are left for
 * mt_rungrid_restore whatever the return.
 */
int mt_rungrid_run(struct mt_rungrid *rg, char *const argv[], const struct mt_event *ev,
		   size_t n_ev, const struct mt_rungrid_opts *o, struct mt_report *rep,
		   struct mt_rungrid_outcome *oc, struct mt_msg *msg);

/* Every tunable written back: 0, or the first failure with msg (kept in the journal). */
int mt_rungrid_restore(struct mt_rungrid *rg, struct mt_msg *msg);

#endif
