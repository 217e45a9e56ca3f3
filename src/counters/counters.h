/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_COUNTERS_COUNTERS_H
#define MEMTLB_COUNTERS_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "counters/resolve.h"
#include "model/sample.h"

struct mt_counters;

/*
 * Open the events as one group on task pid (0: this process, inherited by
 * threads and children) through the backend chosen by MEMTLB_BACKEND
 * ("perf", the default, or "replay:FILE"). Events that cannot be opened get
 * ev->err and are skipped; the rest still count. When the kernel refuses
 * an event in the group (EINVAL) that opens alone, the events are split
 * into several groups: ev->group says which. The groups open stopped:
 * nothing counts before mt_counters_enable (or the exec of pid, with
 * attr.enable_on_exec).
 */
int mt_counters_create(struct mt_counters **out, struct mt_event *ev, size_t n, pid_t pid);

/*
 * Start and stop every group, each as a whole (inherited counters follow).
 * Stopped, nothing counts: reads between a disable and the next enable
 * are not in the counts.
 */
int mt_counters_enable(struct mt_counters *c);
int mt_counters_disable(struct mt_counters *c);

void mt_counters_destroy(struct mt_counters *c);

/* Read every event's running totals; unopened events read as all zero. */
int mt_counters_read(struct mt_counters *c, struct mt_counts *out);

/*
 * Open ev alone on this process and close it again: whether the machine
 * can count it is then in ev->err (0: yes). Returns 0, or -errno when the
 * backend itself failed.
 */
int mt_counters_try(struct mt_event *ev);

/*
 * Count a page-fault software event (page-faults, minor-faults,
 * major-faults) from the kernel's own per-task counters instead: read by
 * getrusage(RUSAGE_SELF) with the group's reads, it covers this process and
 * its threads, not its children, and costs nothing per fault, where perf's
 * software event adds its own cost to every fault. Returns true if ev is
 * such an event (ev->rusage set, ev->fstr and ev->meaning say so).
 */
bool mt_counters_use_rusage(struct mt_event *ev);

#endif
