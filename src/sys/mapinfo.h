/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_MAPINFO_H
#define MEMTLB_SYS_MAPINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every folio size one machine can map: orders 0 to 18 (1 GiB of 4 KiB), and more. */
#define MT_FOLIO_SIZES 24

/* Bytes of a range in folios of one size. */
struct mt_folio_share {
	uint64_t size;		/* a base page, an mTHP size, a PMD, a hugetlb page */
	uint64_t bytes;		/* of the range */
};

/* Where a scan's folio sizes come from, most exact first. */
enum mt_folio_source {
	MT_FOLIO_NONE,		/* not read */
	MT_FOLIO_KPAGEFLAGS,	/* per page: pagemap's PFN, kpageflags' head and tails */
	MT_FOLIO_MTHP_STATS,	/* hugepages-<size>/stats faults over the run, system-wide */
	MT_FOLIO_MAPPING,	/* the mapping alone: PMD and hugetlb sizes, the rest base pages */
};

/* A source's name in a report ("kpageflags"), "" for none; its words for people. */
const char *mt_mapinfo_source_name(int source);
const char *mt_mapinfo_source_label(int source);
/* The source a name says, MT_FOLIO_NONE for a name not known or NULL. */
int mt_mapinfo_source_parse(const char *name);

/*
 * What backs a range: bytes mapped by huge page-table entries (a PMD THP or
 * a hugetlb page), by PTEs in folios larger than a base page (mTHP, large
 * page-cache folios), by base pages, and not mapped at all (never touched).
 * huge + large + base + absent = len. folios names every size with its
 * bytes, smallest first, from folio_source: no folio larger than a base
 * page is in base.
 */
struct mt_pagescan {
	uint64_t len;		/* the range asked about */
	uint64_t huge;
	uint64_t large;
	uint64_t base;
	uint64_t absent;	/* len - huge - large - base */
	bool smaps;		/* PAGEMAP_SCAN missing: from smaps, per VMA, not per page */
	int folio_source;	/* enum mt_folio_source */
	unsigned int n_folios;
	struct mt_folio_share folios[MT_FOLIO_SIZES];
};

/* Bits of /proc/PID/pagemap and /proc/kpageflags (Documentation/admin-guide/mm/pagemap.rst). */
#define MT_PM_PRESENT (1ull << 63)
#define MT_PM_PFN_MASK ((1ull << 55) - 1)
#define MT_KPF_COMPOUND_HEAD 15
#define MT_KPF_COMPOUND_TAIL 16
#define MT_KPF_HUGE 17
#define MT_KPF_THP 22

/* The kpageflags word of pfn (0 where it cannot be read), for mt_mapinfo_folios. */
typedef uint64_t (*mt_kpf_fn)(void *arg, uint64_t pfn);

/*
 * The folio sizes of n pages of pagemap words, added to ps->folios (pure:
 * kpf reads the flags). A head page and the tails after it are one folio,
 * their count its size; a page mapped from the middle of a folio is walked
 * back to its head by PFN. Absent pages are skipped. 0, or -EPERM when a
 * present page shows PFN 0 (pagemap hides PFNs without CAP_SYS_ADMIN).
 */
int mt_mapinfo_folios(const uint64_t *pagemap, size_t n, uint64_t page_size, mt_kpf_fn kpf,
		      void *arg, struct mt_pagescan *ps);

/* Add bytes in folios of size to ps->folios, kept by size. */
void mt_mapinfo_add_folio(struct mt_pagescan *ps, uint64_t size, uint64_t bytes);

/*
 * Each mTHP size's fault counters (hugepages-<size>/stats, under the
 * sysroot), anonymous and shmem summed: folios allocated so far
 * (anon_fault_alloc, shmem_alloc) and faults that fell back to smaller
 * ones (anon_fault_fallback, shmem_fallback).
 */
#define MT_MTHP_STATS_MAX 24
struct mt_mthp_stats {
	unsigned int n;
	uint64_t size[MT_MTHP_STATS_MAX];	/* bytes */
	uint64_t alloc[MT_MTHP_STATS_MAX];
	uint64_t fallback[MT_MTHP_STATS_MAX];
};

/* 0, or -errno (-ENOENT: no mTHP on this kernel). */
int mt_mapinfo_mthp_stats(struct mt_mthp_stats *st);

/*
 * size's counts from before to after into *alloc and *fallback: 0, or
 * -ENOENT when either lacks the size.
 */
int mt_mapinfo_mthp_delta(const struct mt_mthp_stats *before,
			  const struct mt_mthp_stats *after, uint64_t size, uint64_t *alloc,
			  uint64_t *fallback);

/*
 * Folio sizes of a scan from what else is known: its huge bytes in folios
 * of huge_size, and when before/after are given (a kernel with mTHP) the
 * sizes between a page and huge_size that faulted in between (system-wide:
 * at most the scan's PTE-mapped bytes, largest size first), the rest in
 * base pages. Sets large, base and folio_source (pure).
 */
void mt_mapinfo_folios_guess(struct mt_pagescan *ps, uint64_t page_size, uint64_t huge_size,
			     const struct mt_mthp_stats *before,
			     const struct mt_mthp_stats *after);

/* A PMD's bytes: hpage_pmd_size, or a page table's entries times a page. */
uint64_t mt_mapinfo_pmd_size(void);

/*
 * The folio sizes of [addr, addr+len) of pid (0: self) from pagemap and
 * /proc/kpageflags (root); ps's huge bytes already scanned. Sets large,
 * base, folios and folio_source. 0, or -errno (-EPERM, -EACCES: not
 * permitted).
 */
int mt_mapinfo_read_folios(int pid, const void *addr, uint64_t len, struct mt_pagescan *ps);

/*
 * The physical layout of a range, from its PFNs (pagemap, root): of each
 * run length in mt_pfn_run_pages (4 pages, AMD's PTE coalescing; 16,
 * arm64's contiguous bit with 4 KiB pages), how many aligned groups of
 * that many pages are physically contiguous from a PFN aligned alike, as a
 * TLB that gives such a run one entry needs. An absent page breaks its
 * group.
 */
#define MT_PFN_RUNS 2
extern const unsigned int mt_pfn_run_pages[MT_PFN_RUNS];

struct mt_pfn_layout {
	uint64_t pages;			/* pagemap words read */
	uint64_t groups[MT_PFN_RUNS];	/* aligned groups of k pages */
	uint64_t runs[MT_PFN_RUNS];	/* of them, physically contiguous and aligned */
	uint64_t next[MT_PFN_RUNS];	/* the group under way: its first PFN, 0 broken */
};

/*
 * n pagemap words added to l (zeroed first, the first word at an address
 * aligned to the longest run; pure). 0, or -EPERM when a present page
 * shows PFN 0 (pagemap hides PFNs without CAP_SYS_ADMIN).
 */
int mt_mapinfo_layout_of(const uint64_t *pm, size_t n, struct mt_pfn_layout *l);

/* The layout of [addr, addr+len) of this process: 0, or -errno (-EPERM). */
int mt_mapinfo_layout(const void *addr, uint64_t len, struct mt_pfn_layout *l);

/* The share of run r's groups that are runs, 0 to 1; NAN with no group. */
double mt_mapinfo_run_share(const struct mt_pfn_layout *l, unsigned int r);

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
	/*
	 * --pages mthp:SIZE: the kernel's own count of the faults that got a
	 * folio of the size and of those that fell back, over every iteration
	 * (warm-up included; mt_mthp_stats). Where the scan says less than
	 * asked, the fallbacks say why: allocation, not a partial scan.
	 */
	bool folios_counted;
	uint64_t folio_size;		/* bytes: the size they count */
	unsigned int folio_iters;	/* the iterations they cover */
	uint64_t folio_alloc, folio_fallback;
};

/*
 * Read the smaps entries of pid (0: self) overlapping [addr, addr+len).
 * 0, or -errno (-ENOENT when no entry covers addr).
 */
int mt_mapinfo_read(int pid, const void *addr, uint64_t len, struct mt_mapinfo *mi);

/*
 * Scan [addr, addr+len) of this process: PAGEMAP_SCAN on /proc/self/pagemap
 * (kernel 6.7+, unprivileged), or where the ioctl is missing (ENOTTY,
 * EINVAL) the smaps entries covering the range, whose huge-page counts are
 * per VMA: the range's share of them is assumed. 0, or -errno.
 */
int mt_mapinfo_scan(const void *addr, uint64_t len, struct mt_pagescan *ps);

/*
 * Whether s is what was asked: all of the range in huge pages (want_huge),
 * or all of it in base pages (no larger folio). asked names the request for the reason
 * ("thp", "base"). True "as requested"; false with why set to
 * "not as requested: <why>" (e.g. "--pages thp got 4.0 KiB pages for 6.0
 * MiB of 8.0 MiB").
 */
/*
 * Whether s is mapped with folios of size (an mTHP size; pmd, the PMD
 * size, is the scan's huge pages when no folio sizes were read) for 99% of
 * the range or more; false with why, as mt_mapinfo_verdict's.
 */
bool mt_mapinfo_verdict_size(const struct mt_pagescan *s, uint64_t size, uint64_t pmd,
			     const char *asked, char *why, size_t len);

bool mt_mapinfo_verdict(const struct mt_pagescan *s, bool want_huge, const char *asked,
			char *why, size_t len);

#endif
