/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_FLUSH_H
#define MEMTLB_MODEL_FLUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The flush workload's vocabulary and results (memtlb flush): the ops that
 * invalidate K pages of a region the tasks of one mm share, and what a
 * sweep over K found besides the per-point results of the report.
 */

enum mt_flush_op {
	MT_FLUSH_MUNMAP,	/* munmap K pages; map and touch them again, untimed */
	MT_FLUSH_MADVISE,	/* MADV_DONTNEED K pages; touch them again, untimed */
	MT_FLUSH_MPROTECT,	/* PROT_READ and back to read-write: a round trip */
	MT_FLUSH_OP_MAX,
};

const char *mt_flush_op_name(int op);	/* NULL out of range */
int mt_flush_op_parse(const char *s);	/* the op, or -1 */

/* x86's tlb_single_page_flush_ceiling when nobody changed it (arch/x86/mm/tlb.c). */
#define MT_FLUSH_CEILING_DEFAULT 33

#define MT_FLUSH_TASKS_MAX 64
#define MT_FLUSH_OPS_DEFAULT 100
#define MT_FLUSH_TASKS_DEFAULT 2
#define MT_FLUSH_PAGES_DEFAULT "1..64:x2"
/* Flush IPI rows of /proc/interrupts kept per op: TLB shootdowns, function calls. */
#define MT_FLUSH_IRQS 2
/* Counted by the kernel with no PMU: what every machine can say of an op. */
extern const char *const mt_flush_irq_rows[MT_FLUSH_IRQS];	/* "TLB", "CAL" */
/* Their names as a result's extras and in the JSON: "irq.TLB", "irq.CAL". */
extern const char *const mt_flush_irq_names[MT_FLUSH_IRQS];

/* The default: events/flush.events, tracepoints by reason (needs tracefs). */
#define MT_FLUSH_DEFAULT_SET "flush"
/* With -e and no list: the flush set's place is taken by these. */
#define MT_FLUSH_DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations"
#define MT_FLUSH_KNEE_MAX 8

/* What one point (K pages) did, counted by the workload: exact, not sampled. */
struct mt_flush_point {
	uint64_t pages;		/* K */
	uint64_t ops;		/* timed operations done, every iteration */
	uint64_t refaults;	/* minor faults of the untimed re-touch, every iteration */
	double op_median_ns;	/* median of the single ops' times */
	double op_mean_ns;	/* their mean: preempted ops weigh in */
	/*
	 * IPIs per op (TLB, CAL rows) that memtlb's own enabling and disabling
	 * of the counters added, left out of the point's irq.* figures: the
	 * counted pass's median less the uncounted pass's. NaN: not measured.
	 */
	double own_irq[MT_FLUSH_IRQS];
};

struct mt_flush_knee {
	uint64_t before, after;	/* K of the last point before and the first after */
	double step;		/* time per op after / before: < 1 for a drop */
	bool down;		/* found on ops per second: the time dropped */
	/* largest only: why the finder did not call it a knee ("spike"), "" unknown */
	char why[16];
};

struct mt_flush_info {
	int op;			/* enum mt_flush_op */
	unsigned long tasks;	/* threads of the mm, the op's one included */
	unsigned long ops;	/* timed ops per point and iteration */
	unsigned int pinned;	/* tasks pinned to a CPU of their own */
	uint64_t spin_pages;	/* pages the other tasks read while they spin */
	long ceiling;		/* tlb_single_page_flush_ceiling read; -1 unknown */
	char ceiling_note[48];	/* "debugfs", "unknown (lockdown)", ... */
	size_t n_points;
	struct mt_flush_point *points;
	double knee_ratio;	/* the finder's ratio: a step this far off the trend */
	int n_knees;		/* -1: not looked for (fewer than 2 points) */
	struct mt_flush_knee knees[MT_FLUSH_KNEE_MAX];
	struct mt_flush_knee largest;	/* largest one-step rise; step 0: none */
	struct mt_flush_knee largest_drop;	/* largest one-step fall; step 0: none */
};

/* An empty info with room for n points; destroy accepts NULL. */
int mt_flush_info_create(struct mt_flush_info **out, size_t n);
void mt_flush_info_destroy(struct mt_flush_info *fi);

#endif
