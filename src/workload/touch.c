// SPDX-License-Identifier: MIT
/*
 * The touch loops. meson builds this file with -O2 whatever the build type,
 * because an unoptimised loop measures the compiler, not the TLB (David
 * Miller's point on seed 000). The volatile access is what keeps exactly one
 * store, or one load and compare, per block: the compiler may neither drop,
 * merge nor vectorise it. Nothing else belongs inside these loops.
 */
#include <stddef.h>
#include <unistd.h>

#include "workload/touch.h"
#include "workload/workload.h"

/*
 * The loops live in a text section of their own, which mt_touch_prefault
 * maps before the first phase: a loop run for the first time inside a
 * timed window would count the fault of its own code page among the
 * region's (seen under ASan, whose larger binary put mt_touch_write's page
 * beyond what the code run before it had mapped: write_0 took 1025 faults
 * for 1024 pages in its first iteration).
 */
#define TOUCH_TEXT __attribute__((section("memtlb_touch"), noinline))

/* The linker's bounds of that section. */
extern const char __start_memtlb_touch[], __stop_memtlb_touch[];

void mt_touch_prefault(void)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	for (uintptr_t a = (uintptr_t)__start_memtlb_touch & ~(page - 1);
	     a < (uintptr_t)__stop_memtlb_touch; a += page)
		(void)*(const volatile char *)a;
}

TOUCH_TEXT void mt_touch_write(char *p, uint64_t nblocks, uint64_t block, uint64_t pattern)
{
	for (uint64_t i = 0; i < nblocks; i++) {
		*(volatile uint64_t *)p = pattern;
		p += block;
	}
}

TOUCH_TEXT char *mt_touch_verify(char *p, uint64_t nblocks, uint64_t block, uint64_t pattern)
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
TOUCH_TEXT void mt_touch_write_at(char *base, const uint64_t *off, uint64_t n, uint64_t pattern)
{
	for (uint64_t i = 0; i < n; i++)
		*(volatile uint64_t *)(base + off[i]) = pattern;
}

TOUCH_TEXT char *mt_touch_verify_at(char *base, const uint64_t *off, uint64_t n, uint64_t pattern)
{
	for (uint64_t i = 0; i < n; i++) {
		if (*(volatile uint64_t *)(base + off[i]) != pattern)
			return base + off[i];
	}
	return NULL;
}
