/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_PMUEVENTS_H
#define MEMTLB_SYS_PMUEVENTS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Whether the kernel says the CPU lacks an arm64 PMUv3 common event
 * (number below 0x40). arm64's driver takes such an event raw (type 4,
 * libpfm4's arm_* names, or the PMU's own type) without checking the CPU's
 * PMCEID registers, and it then counts 0; but the events/ directory of its
 * armv8_ PMU under /sys/bus/event_source/devices lists exactly the common
 * events PMCEID has. Seen on qemu's cortex-a57, whose L1D_TLB_REFILL
 * opened and counted 0 (tests/cli/vm-arch.sh). False when there is no
 * arm64 PMU or its list cannot be read. Read under MEMTLB_SYSROOT.
 */
bool mt_pmuevents_absent(uint32_t type, uint64_t config);

#endif
