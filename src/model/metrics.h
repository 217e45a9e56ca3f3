/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_METRICS_H
#define MEMTLB_MODEL_METRICS_H

#include <stdbool.h>

/*
 * The metrics vocabulary, defined once: what an event stands for in the
 * derived metrics (its role), and the derived metrics with their machine
 * names (JSON, CSV, compare), units and labels. Formulas: memtlb-metrics(7).
 */

enum mt_role {
	MT_ROLE_NONE,
	MT_ROLE_PAGE_FAULTS,
	MT_ROLE_MINOR_FAULTS,
	MT_ROLE_MAJOR_FAULTS,
	MT_ROLE_DTLB_LOADS,
	MT_ROLE_DTLB_MISSES,
	MT_ROLE_CYCLES,
	MT_ROLE_INSTRUCTIONS,
	MT_ROLE_WALK_CYCLES,	/* cycles with a page walk in progress */
	MT_ROLE_ITLB_MISSES,
	MT_ROLE_MAX,
};

/* Role names of the event set files: "dtlb-miss", "-" (none); -1 unknown. */
int mt_role_parse(const char *s);
const char *mt_role_name(int role);

enum mt_derived {
	MT_DERIVED_NS_PER_BLOCK,
	MT_DERIVED_FAULTS_PER_BLOCK,
	MT_DERIVED_DTLB_MISS_RATIO,	/* misses / accesses (likwid: miss ratio) */
	MT_DERIVED_MISSES_PER_BLOCK,
	MT_DERIVED_DTLB_MISS_RATE,	/* misses / instructions (likwid: miss rate) */
	MT_DERIVED_DTLB_MPKI,		/* 1000 misses / instructions */
	MT_DERIVED_ITLB_MPKI,
	MT_DERIVED_WALK_CYCLES_SHARE,	/* walk cycles / cycles (toplev's DTLB_Load idea) */
	MT_DERIVED_MAX,
};

/*
 * The events whose count is a time: perf's task-clock and cpu-clock count
 * nanoseconds, and perf prints them as msec. Their unit, "msec", or NULL
 * for an event that counts things.
 */
const char *mt_event_time_unit(const char *event);

/*
 * Whether event is one of the kernel's software counts (page-faults,
 * context-switches, ...; not the clocks), which perf stat shows as a rate
 * per second of task-clock.
 */
bool mt_event_is_software_count(const char *event);
#define MT_CLOCK_NS_PER_UNIT	1e6	/* ns in one "msec" */

const char *mt_derived_name(enum mt_derived d);	/* "ns_per_block"; NULL out of range */
const char *mt_derived_unit(enum mt_derived d);	/* "ns/block", "fraction", ... */
const char *mt_derived_label(enum mt_derived d);	/* table heading: "ns/block", "dTLB miss%" */

#endif
