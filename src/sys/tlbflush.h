/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_TLBFLUSH_H
#define MEMTLB_SYS_TLBFLUSH_H

#include <stddef.h>

/*
 * What decides how the kernel flushes TLBs here: the guest's paravirtual
 * flush and x86's single-page flush ceiling.
 */

/*
 * Whether the hypervisor offers KVM's paravirtual TLB flush: cpuid leaf
 * 0x40000000 says "KVMKVMKVM" and leaf 0x40000001 EAX has bit 9
 * (KVM_FEATURE_PV_TLB_FLUSH). With it the kernel skips the flush IPI to a
 * preempted vCPU (the host flushes it when it runs again), so IPI counts
 * depend on the host's load. 1 yes, 0 no (bare metal, another hypervisor),
 * -1 unknown (not x86, or MEMTLB_SYSROOT names another machine).
 */
int mt_tlbflush_pv(void);

/*
 * x86's tlb_single_page_flush_ceiling from debugfs (under MEMTLB_SYSROOT):
 * its value, or -1 with why in note ("unknown (lockdown)", "unknown
 * (debugfs not mounted)", ...); note is "debugfs" when it was read.
 */
long mt_tlbflush_ceiling(char *note, size_t len);

#endif
