/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_COUNTERS_RESOLVE_H
#define MEMTLB_COUNTERS_RESOLVE_H

/* libpfm4's copy of perf_event.h is guarded only by its own macro. */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/metrics.h"
#include "model/result.h"

/* One event as the user named it, resolved to an attr by libpfm4. */
struct mt_event {
	char name[MT_EVENT_NAME_MAX];	/* as given: "dTLB-load-misses" */
	char fstr[MT_EVENT_NAME_MAX];	/* libpfm4's fully qualified name */
	struct perf_event_attr attr;
	int err;			/* -errno of the open: 0 = counting */
	bool user_only;			/* kernel counting refused by paranoia */
	bool rusage;			/* counted by getrusage, not perf (counters.h) */
	int role;			/* enum mt_role from an event set; 0: from attr */
	unsigned int group;		/* group the backend put it in (0 = first) */
	bool alone;			/* never scheduled with others: a group of its own */
	char meaning[128];		/* what it measures on this CPU, from the set */
	char filter[96];		/* tracepoint: PERF_EVENT_IOC_SET_FILTER's, or "" */
	int unavailable;		/* -errno known before any open (tracefs), 0 */
	char why[112];			/* its reason, for humans */
};

/*
 * Split a comma-separated list and resolve every name: perf-style names
 * (cycles, dTLB-load-misses, minor-faults) through libpfm4's perf:: PMU,
 * PMU names (DTLB_LOAD_MISSES:WALK_COMPLETED) through the detected one,
 * tracepoints (tlb:tlb_flush, tlb:tlb_flush/reason=remote_shootdown/)
 * through tracefs. Returns 0 or -EINVAL with the offending name and why in
 * bad, then, where there is one, a newline and a hint (the values a
 * filter's field has). A tracepoint that cannot be read here (tracefs not
 * mounted, not root) resolves with ev->unavailable and ev->why set: it is
 * not supported, not bad input.
 */
int mt_events_resolve(const char *list, struct mt_event **out, size_t *n, char *bad,
		      size_t bad_len);

/*
 * Why an event is not counted, for humans ("no PMU driver in this kernel").
 * hw_counters: whether the kernel has a CPU PMU driver (1, 0, or -1 unknown).
 */
const char *mt_event_reason(const struct mt_event *ev, int hw_counters);

/*
 * From now on, libpfm4 sees only this PMU (LIBPFM_FORCE_PMU), as on a
 * machine that has it: 0, or -ENODEV. perf's generic names are gone then.
 * Call it before libpfm4 has seen the machine's own PMUs: its
 * pfm_terminate() frees their tables, and a forced pfm_initialize()
 * leaves them freed yet listed (pfm_get_pmu_info reads freed memory).
 * mt_pmu_unforce() goes back to the machine's PMUs, all of them
 * initialised afresh.
 */
int mt_pmu_force(const char *pmu);
int mt_pmu_unforce(void);

/* libpfm4's present core PMU ("icl", "amd64_fam19h"): 0, or -ENOENT. */
int mt_pmu_core_name(char *buf, size_t len);

/* Every PMU libpfm4 detects as present, space-separated: 0 or -ENODEV. */
int mt_pmu_present_list(char *buf, size_t len);

/*
 * With core_only, the present core PMUs alone and how many there are: more
 * than one on hybrid CPUs (adl_glc and adl_grt), where memtlb resolves for
 * the first and events so encoded count on that core type only.
 */
int mt_pmu_present_cores(char *buf, size_t len, bool core_only);

/* The set entry's role when it has one, else one read from the encoding. */
enum mt_role mt_event_role(const struct mt_event *ev);

#endif
