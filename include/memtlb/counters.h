/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_COUNTERS_H
#define MEMTLB_COUNTERS_H

/* libpfm4's copy of perf_event.h is guarded only by its own macro. */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <memtlb/sample.h>

#define MT_EVENT_NAME_MAX 192

/* One event as the user named it, resolved to an attr by libpfm4. */
struct mt_event {
	char name[MT_EVENT_NAME_MAX];	/* as given: "dTLB-load-misses" */
	char fstr[MT_EVENT_NAME_MAX];	/* libpfm4's fully qualified name */
	struct perf_event_attr attr;
	int err;			/* -errno of the open: 0 = counting */
	bool user_only;			/* kernel counting refused by paranoia */
	int role;			/* enum mt_role from an event set; 0: from attr */
	unsigned int group;		/* group the backend put it in (0 = first) */
	bool alone;			/* never scheduled with others: a group of its own */
	char meaning[128];		/* what it measures on this CPU, from the set */
};

/*
 * Split a comma-separated list and resolve every name: perf-style names
 * (cycles, dTLB-load-misses, minor-faults) through libpfm4's perf:: PMU,
 * PMU names (DTLB_LOAD_MISSES:WALK_COMPLETED) through the detected one.
 * Returns 0 or -EINVAL with the offending name copied into bad.
 */
int mt_events_resolve(const char *list, struct mt_event **out, size_t *n, char *bad,
		      size_t bad_len);

/*
 * Why an event is not counted, for humans ("no PMU driver in this kernel").
 * hw_counters: whether the kernel has a CPU PMU driver (1, 0, or -1 unknown).
 */
const char *mt_event_reason(const struct mt_event *ev, int hw_counters);

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

/* How many groups the opened events form. */
unsigned int mt_counters_groups(const struct mt_counters *c);
void mt_counters_destroy(struct mt_counters *c);

/* Read every event's running totals; unopened events read as all zero. */
int mt_counters_read(struct mt_counters *c, struct mt_counts *out);

const char *mt_counters_backend(const struct mt_counters *c);

/* Backends: an ops table, one static instance per backend (wlroots-style). */
struct mt_backend;

struct mt_backend_ops {
	const char *name;
	int (*open)(struct mt_backend *be, struct mt_event *ev, size_t n, pid_t pid);
	int (*enable)(struct mt_backend *be);
	int (*disable)(struct mt_backend *be);
	int (*read)(struct mt_backend *be, size_t idx, struct mt_counts *out);
	void (*destroy)(struct mt_backend *be);
};

struct mt_backend {
	const struct mt_backend_ops *ops;
};

int mt_backend_perf_create(struct mt_backend **out);
int mt_backend_replay_create(struct mt_backend **out, const char *path);

#endif
