/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_MAPINFO_H
#define MEMTLB_SYS_MAPINFO_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Proof of what the kernel mapped: the region's /proc/PID/smaps entry read
 * after the first write pass of the first iteration (task 0's region in
 * tasks mode), and for a cold file cache what posix_fadvise left behind.
 * Sizes in bytes.
 */
struct mt_mapinfo {
	bool valid;
	uint64_t addr;		/* region start */
	uint64_t align;		/* largest power of two dividing addr, at most 1 GiB */
	uint64_t size;		/* bytes of the smaps entries covering the region */
	uint64_t kernel_page;	/* KernelPageSize */
	uint64_t mmu_page;	/* MMUPageSize */
	uint64_t rss;
	uint64_t anon_huge;	/* AnonHugePages */
	uint64_t shmem_pmd;	/* ShmemPmdMapped */
	uint64_t file_pmd;	/* FilePmdMapped */
	uint64_t hugetlb;	/* Shared_Hugetlb + Private_Hugetlb */
	double huge_coverage;	/* (anon_huge+shmem_pmd+file_pmd+hugetlb) / region */
	bool cache_checked;	/* --file-cache cold: mincore after each drop */
	uint64_t cache_pages;	/* the file's pages */
	uint64_t cache_resident;	/* most pages the kernel kept after a drop */
};

/*
 * Read the smaps entries of pid (0: self) overlapping [addr, addr+len).
 * 0, or -errno (-ENOENT when no entry covers addr).
 */
int mt_mapinfo_read(int pid, const void *addr, uint64_t len, struct mt_mapinfo *mi);

/*
 * AnonHugePages of this whole process (/proc/self/smaps_rollup), bytes:
 * 0, or -errno (-ENOENT when the file has no such line).
 */
int mt_mapinfo_read_anon_huge(uint64_t *bytes);

#endif
