/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_INTERRUPTS_H
#define MEMTLB_SYS_INTERRUPTS_H

#include <stddef.h>
#include <stdint.h>

/* A row /proc/interrupts does not have. */
#define MT_INTERRUPTS_ABSENT UINT64_MAX

/*
 * Rows of /proc/interrupts (under MEMTLB_SYSROOT) by their name ("TLB":
 * TLB shootdowns, "CAL": function-call IPIs), each summed over the CPUs:
 * system-wide counts, every task's IPIs in them. out[i] gets
 * MT_INTERRUPTS_ABSENT where the kernel has no such row. Returns 0,
 * -EINVAL (no CPU header line) or open's -errno. Reads into a static
 * buffer: no page faults between phases, and not thread-safe.
 */
int mt_interrupts_read(const char *const *rows, size_t n, uint64_t *out);

#endif
