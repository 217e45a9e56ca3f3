// SPDX-License-Identifier: MIT
/*
 * The touch loops. meson builds this file with -O2 whatever the build type,
 * because an unoptimised loop measures the compiler, not the TLB (David
 * Miller's point on seed 000). The volatile access is what keeps exactly one
 * store, or one load and compare, per block: the compiler may neither drop,
 * merge nor vectorise it. Nothing else belongs inside these loops.
 */
#include <stddef.h>

#include <memtlb/workload.h>

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
