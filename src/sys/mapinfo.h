/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_MAPINFO_H
#define MEMTLB_SYS_MAPINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What backs a range, page by page: bytes mapped by huge pages (a THP or a
 * hugetlb page), by base pages, and not mapped at all (never touched).
 */
struct mt_pagescan {
	uint64_t len;		/* the range asked about */
	uint64_t huge;
	uint64_t base;
	uint64_t absent;	/* len - huge - base */
	bool smaps;		/* PAGEMAP_SCAN missing: from smaps, per VMA, not per page */
};

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
	/* The same region page by page (mt_mapinfo_scan), and its verdict. */
	bool scanned;
	struct mt_pagescan scan;
	int page_check;		/* 1 as requested, -1 not, 0 nothing asked or not checked */
	char verdict[160];	/* "as requested", "not as requested: ...", or "" */
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


/*
 * Scan [addr, addr+len) of this process: PAGEMAP_SCAN on /proc/self/pagemap
 * (kernel 6.7+, unprivileged), or where the ioctl is missing (ENOTTY,
 * EINVAL) the smaps entries covering the range, whose huge-page counts are
 * per VMA: the range's share of them is assumed. 0, or -errno.
 */
int mt_mapinfo_scan(const void *addr, uint64_t len, struct mt_pagescan *ps);

/*
 * Whether s is what was asked: all of the range in huge pages (want_huge),
 * or all of it in base pages. asked names the request for the reason
 * ("thp", "base"). True "as requested"; false with why set to
 * "not as requested: <why>" (e.g. "--pages thp got 4.0 KiB pages for 6.0
 * MiB of 8.0 MiB").
 */
bool mt_mapinfo_verdict(const struct mt_pagescan *s, bool want_huge, const char *asked,
			char *why, size_t len);

#endif
