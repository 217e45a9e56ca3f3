/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_WORKLOAD_H
#define MEMTLB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <memtlb/config.h>

/*
 * The mmap touch workload of test_with_mmap: per iteration, mmap the
 * region, then per pass write one word at the start of every block and read
 * every block's word back and compare, then munmap. It never prints and
 * knows nothing of counters: the caller's hook runs at each phase boundary,
 * outside the clock reads, which sit right around the phase itself.
 */

#define MT_PHASE_NAME_MAX 16

struct mt_workload;

/* Called before (end = false) and after (end = true) each timed phase. */
typedef int (*mt_boundary_fn)(void *arg, unsigned int phase, bool end);

struct mt_mismatch {
	char phase[MT_PHASE_NAME_MAX];
	unsigned int iter;
	const void *addr;
	uint64_t expected;
	uint64_t found;
};

int mt_workload_create(struct mt_workload **out, const struct mt_config *cfg);
void mt_workload_destroy(struct mt_workload *w);

unsigned int mt_workload_phases(const struct mt_workload *w);
const char *mt_workload_phase_name(const struct mt_workload *w, unsigned int phase);
uint64_t mt_workload_blocks(const struct mt_workload *w);

/*
 * One iteration: every phase once. time_ns[phase] receives each phase's
 * wall time. Returns 0, a -errno of mmap/munmap, -EILSEQ on a verification
 * mismatch (details in *bad), or the hook's own negative return.
 */
int mt_workload_iterate(struct mt_workload *w, unsigned int iter, uint64_t *time_ns,
			mt_boundary_fn hook, void *arg, struct mt_mismatch *bad);

/* The pattern word of a pass: different per pass, as test_with_mmap. */
uint64_t mt_workload_pattern(unsigned int pass);

/* The touch loops (touch.c, always built with optimisation). */
void mt_touch_write(char *p, uint64_t nblocks, uint64_t block, uint64_t pattern);
char *mt_touch_verify(char *p, uint64_t nblocks, uint64_t block, uint64_t pattern);

#endif
