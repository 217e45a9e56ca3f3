/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_WORKLOAD_FLUSH_H
#define MEMTLB_WORKLOAD_FLUSH_H

#include <stdbool.h>
#include <stdint.h>

#include "model/flush.h"

/*
 * The flush workload: tasks, threads of one mm (a shootdown needs page
 * tables that other CPUs use), share an anonymous private region of base
 * pages. The caller's thread owns the first pages, the target: each timed
 * op invalidates its first K pages (munmap, madvise(MADV_DONTNEED) or an
 * mprotect round trip) and, untimed, maps and writes them again. The other
 * tasks spin reading pages of their own after the target, pinned one per
 * CPU where the affinity mask allows, so the mm is live on their CPUs and
 * every flush has to reach them; they never touch the target, so the
 * re-touch faults exactly K times per munmap or madvise. It never prints
 * and knows no counters: the caller's hook runs around each op, outside
 * the two clock reads.
 */

struct mt_flush;

struct mt_flush_opts {
	int op;			/* enum mt_flush_op */
	unsigned long tasks;	/* 1..MT_FLUSH_TASKS_MAX: 1 flushes locally only */
	uint64_t pages;		/* the target's pages: the largest K */
	uint64_t spin_pages;	/* pages each other task reads, >= 1 */
};

/* Called before (end = false) and after (end = true) each timed op. */
typedef int (*mt_flush_hook_fn)(void *arg, bool end);

/* What mt_flush_ops did: exact counts, and the times of the ops alone. */
struct mt_flush_run {
	uint64_t ops;		/* ops done */
	uint64_t refaults;	/* minor faults of this thread's re-touches */
	uint64_t time_ns;	/* the ops' times added up */
};

/*
 * Map and write the region, start the tasks and wait until each has read
 * its pages once. Returns 0, -EINVAL (bad opts), -ENOMEM, or -errno of
 * mmap or pthread_create.
 */
int mt_flush_create(struct mt_flush **out, const struct mt_flush_opts *o);

/* Stop and join the tasks, unmap, restore this thread's CPU affinity; NULL is fine. */
void mt_flush_destroy(struct mt_flush *f);

/* How many tasks (this thread included) run pinned to a CPU of their own. */
unsigned int mt_flush_pinned(const struct mt_flush *f);

/*
 * m timed ops on the first k pages (1 <= k <= opts.pages); op_ns, when not
 * NULL, gets each op's time. hook runs around each op (NULL: none); its
 * error ends the loop. Returns 0, -EINVAL, or -errno of a failed op, map
 * or hook.
 */
int mt_flush_ops(struct mt_flush *f, uint64_t k, unsigned long m, mt_flush_hook_fn hook,
		 void *arg, uint64_t *op_ns, struct mt_flush_run *run);

#endif
