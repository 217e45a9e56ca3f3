/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_HUGETLB_H
#define MEMTLB_SYS_HUGETLB_H

#include <stdint.h>

/* The hugetlb pool of one page size, under /sys/kernel/mm/hugepages (sysroot). */
struct mt_hugepool_state {
	uint64_t size_kb;
	long total;	/* nr_hugepages */
	/*
	 * free_hugepages less resv_hugepages: the pages a new mapping can
	 * have. Pages another process's mapping reserved (not yet faulted)
	 * count as free in free_hugepages, and a guard that took them for
	 * ours let the run fault short (SIGBUS) instead of growing the pool.
	 */
	long free;
	long resv;	/* resv_hugepages; 0 where the kernel has no such file */
};

/* 0, or -errno (-ENOENT: the kernel has no pool of this size). */
int mt_hugetlb_pool_read(uint64_t size_kb, struct mt_hugepool_state *st);

/* The file that sets the pool's size, for messages and restore actions. */
const char *mt_hugetlb_pool_file(uint64_t size_kb, char *buf, size_t len);

/*
 * Grow the pool so that need pages are free, registering a cleanup action
 * that writes the original nr_hugepages back (at exit, on error, on
 * SIGINT/SIGTERM). *handle receives the action (-1 when nothing changed).
 * Returns 0 or -errno; st holds the state after the attempt, which may
 * still be short (the kernel could not find contiguous memory).
 */
int mt_hugetlb_reserve(uint64_t size_kb, long need, struct mt_hugepool_state *st,
		       int *handle);

#endif
