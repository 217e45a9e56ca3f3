/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CPUID_H
#define MEMTLB_CPUID_H

/*
 * The data TLB geometry the CPU reports: AMD's cpuid leaves 0x80000005
 * (L1) and 0x80000006 (L2). 0 entries: not reported.
 */
struct mt_tlb_level {
	unsigned int entries_4k;
	unsigned int entries_2m;
};

struct mt_tlb_geom {
	char vendor[13];
	struct mt_tlb_level l1d;
	struct mt_tlb_level l2d;
};

/* 0, or -ENOTSUP (not x86, or a vendor whose TLB leaves we do not read). */
int mt_cpuid_tlb(struct mt_tlb_geom *g);

#endif
