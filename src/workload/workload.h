/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_WORKLOAD_WORKLOAD_H
#define MEMTLB_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/config.h"
#include "model/result.h"
#include "sys/mapinfo.h"

/*
 * The mmap touch workload of test_with_mmap: per iteration, mmap the
 * region, then per pass write one word at the start of every block and read
 * every block's word back and compare, then munmap. Backing, page size,
 * access order and tasks come from the config. It never prints and knows
 * nothing of counters: the caller's hook runs at each phase boundary,
 * outside the clock reads, which sit right around the phase itself.
 *
 * Tasks (cfg->tasks > 0): threads or processes that run the phases
 * together. Each phase starts when the coordinator (the caller's thread)
 * releases a barrier and ends when the last task reaches the next one; the
 * phase time runs from the release to that moment. With a shared region
 * the coordinator maps and unmaps, the tasks touch disjoint slices; with
 * private regions every task maps, touches and unmaps its own region.
 *
 * Tasks start before the first phase that needs them and stay for every
 * iteration until mt_workload_destroy (or an iteration that fails);
 * processes that share the coordinator's region are forked after its mmap
 * and reaped before its munmap, every iteration. Before the first phase
 * boundary after a fork, the tasks and the coordinator fault in what they
 * will write or run in the phases (the copy-on-write pages fork leaves,
 * a forked task's code and stack), so that counters inherited by the
 * tasks see the workload's own faults in a phase and nothing else.
 */

struct mt_workload;

/* Called before (end = false) and after (end = true) each timed phase. */
typedef int (*mt_boundary_fn)(void *arg, unsigned int phase, bool end);

struct mt_mismatch {
	char why[128];		/* -ECHILD: the task that died, and how */
	char phase[MT_PHASE_NAME_MAX];
	unsigned int iter;
	const void *addr;
	uint64_t expected;
	uint64_t found;
};

/* What the tasks did in one phase of the last iteration. */
struct mt_phase_tasks {
	uint64_t blocks;	/* blocks touched, all tasks together */
	double rate_per_task;	/* mean over tasks of blocks / own time, per second */
	long minflt;		/* getrusage deltas of forked tasks (process mode) */
	long majflt;
};

/* 0, -EINVAL for an impossible config, -ENOMEM, or -errno making the file. */
int mt_workload_create(struct mt_workload **out, const struct mt_config *cfg);
void mt_workload_destroy(struct mt_workload *w);	/* ends the tasks, removes the file */

unsigned int mt_workload_phases(const struct mt_workload *w);
const char *mt_workload_phase_name(const struct mt_workload *w, unsigned int phase);
/* Blocks touched per touch phase, all tasks together. */
uint64_t mt_workload_blocks(const struct mt_workload *w);

/*
 * One iteration: every phase once. time_ns[phase] receives each phase's
 * wall time. Returns 0, a -errno of mmap/munmap or of starting the tasks
 * (fork, pthread_create), -EILSEQ on a verification mismatch (details in
 * *bad), -ECHILD when a forked task died (the others are killed;
 * mt_workload_failure says which), or the hook's own negative return.
 * After an error no task is left; the next iteration starts them again.
 */
int mt_workload_iterate(struct mt_workload *w, unsigned int iter, uint64_t *time_ns,
			mt_boundary_fn hook, void *arg, struct mt_mismatch *bad);

/*
 * The iteration that takes the kernel's evidence: the region's smaps and
 * page scan after the first write pass, between its phases, outside their
 * clocks. Off by default.
 */
void mt_workload_set_evidence(struct mt_workload *w, bool on);

/*
 * Forked --task-mode process tasks take getrusage around every phase (two
 * syscalls each, outside their own clock reads but inside the phase's),
 * for fault counts that getrusage in this process cannot see. Off by
 * default: then only the evidence iteration takes them.
 */
void mt_workload_set_task_faults(struct mt_workload *w, bool on);

/* Per phase, what the tasks (or, without tasks, this thread) did in the last iteration. */
const struct mt_phase_tasks *mt_workload_task_stats(const struct mt_workload *w);

/* Why the last iterate returned -ECHILD: which forked task ended how. */
const char *mt_workload_failure(const struct mt_workload *w);

/* The smaps evidence of the first iteration, and the cache drop check. */
const struct mt_mapinfo *mt_workload_mapinfo(const struct mt_workload *w);

/* The pattern word of a pass: different per pass, as test_with_mmap. */
uint64_t mt_workload_pattern(unsigned int pass);

/* Every block's offset once, in a random order from seed (Fisher-Yates). */
int mt_workload_shuffle(uint64_t *off, uint64_t n, uint64_t step, uint64_t seed);

#endif
