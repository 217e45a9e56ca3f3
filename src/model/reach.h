/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_REACH_H
#define MEMTLB_MODEL_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mt_report;
struct mt_result;
struct mt_sysinfo;

/*
 * What a TLB level covers: entries x page size. From cpuid the entry count
 * is exact (entries_min == entries_max); from a probe it is the range the
 * measured step lies in. The reach is what a region is compared with: a
 * region beyond it cannot be translated from that level alone.
 */
#define MT_REACH_MAX 16

struct mt_reach {
	char name[32];		/* "L1 dTLB", "L2 TLB", "further translation knee" */
	uint64_t page_size;	/* bytes */
	uint64_t entries_min;
	uint64_t entries_max;
	char source[24];	/* "cpuid", "probe" */
	/*
	 * A probe's level also says what translating one access costs on
	 * the plateau below its step and on the one above (ns, base pages
	 * against huge ones); cpuid's does not: cost_known false.
	 */
	bool cost_known;
	double from_ns, to_ns;
};

static inline uint64_t mt_reach_min(const struct mt_reach *r)
{
	return r->entries_min * r->page_size;
}

static inline uint64_t mt_reach_max(const struct mt_reach *r)
{
	return r->entries_max * r->page_size;
}

/*
 * The data-side levels the CPU reports through cpuid (sysinfo's tlbs), one
 * per level and page size; instruction TLBs are left out (the workloads
 * touch data). Returns the number written, at most max.
 */
size_t mt_reach_from_sysinfo(const struct mt_sysinfo *si, struct mt_reach *out, size_t max);

/*
 * The level of page size page whose reach lies in [lo, hi]: a knee between
 * regions lo and hi that this level explains. A probe level explains it
 * when its reach range overlaps the interval. Returns its index, or -1.
 */
int mt_reach_explain(const struct mt_reach *lv, size_t n, uint64_t page, uint64_t lo,
		     uint64_t hi);

/*
 * The page-table entries (8 bytes each, 512 to a table as on x86-64 and
 * arm64 with 4 KiB granules) that translate a region mapped with pages of
 * size page: the leaf entries and one per table above, up to the first
 * level that needs only one. What a full walk of the region touches, to
 * be set against the data caches.
 */
uint64_t mt_reach_pt_bytes(uint64_t region, uint64_t page);

/*
 * Where bytes of page tables stand against si's data and unified caches,
 * into buf: "over L2 (1.0 MiB), within L3 (32.0 MiB)", "within L1d (48.0
 * KiB)", "over L3 (32.0 MiB), the largest cache"; "" where none is known.
 */
void mt_reach_pt_caches(const struct mt_sysinfo *si, uint64_t bytes, char *buf, size_t len);

/*
 * The page size result r of rep was translated with: the configuration's
 * huge page size when more than half of its region was mapped by huge
 * pages (the proof of mapping's page scan), else the system's base page.
 */
uint64_t mt_reach_page(const struct mt_report *rep, const struct mt_result *r);

/*
 * The level that explains a knee of a report's curve between regions lo
 * and hi, whose upper point is result r: the data TLB level (cpuid's, then
 * the measured ones, mt_reach_levels) of the
 * page size r was mapped with whose reach lies in [lo, hi]. Returns 1 with
 * the level in *out, 0 when none does, -ENOENT when the report's CPU
 * describes no TLB at all. *page gets the page size.
 */
int mt_reach_knee(const struct mt_report *rep, const struct mt_result *r, uint64_t lo,
		  uint64_t hi, struct mt_reach *out, uint64_t *page);

/*
 * The levels a report knows: cpuid's (from its system), then the measured
 * ones it carries (rep->levels: a probe report given with --tlb). Returns
 * the number written, at most max.
 */
size_t mt_reach_levels(const struct mt_report *rep, struct mt_reach *out, size_t max);

/*
 * Whether the measured level m and cpuid's level c are the same TLB: the
 * same level number (the digit after "L") and page size.
 */
bool mt_reach_same_level(const struct mt_reach *m, const struct mt_reach *c);

/*
 * cpuid against the probe for the report's measured level i: "L2 dTLB:
 * cpuid 2048 entries, probe 1536..2560: agree" (or "disagree": cpuid's
 * count outside the measured range, as a hypervisor's filtered cpuid
 * gives). Returns 1 with the line in buf, 0 when cpuid has no such level.
 */
int mt_reach_agreement(const struct mt_report *rep, size_t i, char *buf, size_t len);

/* "L2 TLB reach (2048 x 4.0 KiB)", "L2 TLB reach (1920..7680 x 4.0 KiB, probe)". */
void mt_reach_describe(const struct mt_reach *r, char *buf, size_t len);

/* "128 x L2 TLB reach (2048 x 4.0 KiB)", or "0.5 x ...": the region's pressure. */
void mt_reach_pressure(const struct mt_reach *r, uint64_t region, char *buf, size_t len);

/*
 * region / r's reach (its entries_max), returned; into buf as "0.25", "2.5",
 * "2731", and for a measured range over both ends, "0.533..2.13".
 */
double mt_reach_times(const struct mt_reach *r, uint64_t region, char *buf, size_t len);

/*
 * The last TLB level of page size page that rep knows, to state a region's
 * pressure in one number: the highest numbered level (L2 before L1; no
 * "further translation knee") a probe measured, else cpuid's. 1 with it in
 * out, 0 when there is none.
 */
int mt_reach_last(const struct mt_report *rep, uint64_t page, struct mt_reach *out);

#endif
