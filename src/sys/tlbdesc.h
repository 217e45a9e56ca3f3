/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_TLBDESC_H
#define MEMTLB_SYS_TLBDESC_H

struct mt_sysinfo;

/*
 * Intel's cpuid leaf 2: one-byte descriptors in eax..edx (the low byte of
 * eax is a count, a register with bit 31 set holds none). The TLB
 * descriptors are appended to si->tlbs. Returns how many were added, or
 * -ENODATA when a descriptor 0xfe says the TLBs are described by leaf 0x18
 * instead (what current CPUs do).
 */
int mt_tlbdesc_decode(struct mt_sysinfo *si, const unsigned int r[4]);

#endif
