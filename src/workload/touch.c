// SPDX-License-Identifier: MIT
/*
 * The touch loops. meson builds this file with -O2 whatever the build type,
 * because an unoptimised loop measures the compiler, not the TLB (David
 * Miller's point on seed 000). The volatile access is what keeps exactly one
 * store, or one load and compare, per block: the compiler may neither drop,
 * merge nor vectorise it. Nothing else belongs inside these loops.
 */
#include <stddef.h>

#include "workload/touch.h"
#include "workload/workload.h"

void mt_touch_write(char *p, uint64_t nblocks, uint64_t block, uint64_t pattern)
{
	for (uint64_t i = 0; i < nblocks; i++) {
		*(volatile uint64_t *)p = pattern;
		p += block;
	}
}

char *mt_touch_verify(char *p, uint64_t nblocks, uint64_t block, uint64_t pattern)
{
	for (uint64_t i = 0; i < nblocks; i++) {
		if (*(volatile uint64_t *)p != pattern)
			return p;
		p += block;
	}
	return NULL;
}

/*
 * Random order: the offsets were computed before the timed phases. Each
 * block costs one load of its offset (sequential, prefetched) and the one
 * store or load+compare of the block itself.
 */
void mt_touch_write_at(char *base, const uint64_t *off, uint64_t n, uint64_t pattern)
{
	for (uint64_t i = 0; i < n; i++)
		*(volatile uint64_t *)(base + off[i]) = pattern;
}

char *mt_touch_verify_at(char *base, const uint64_t *off, uint64_t n, uint64_t pattern)
{
	for (uint64_t i = 0; i < n; i++) {
		if (*(volatile uint64_t *)(base + off[i]) != pattern)
			return base + off[i];
	}
	return NULL;
}
