/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_WORKLOAD_CLEAR_H
#define MEMTLB_WORKLOAD_CLEAR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The clear loops of the first-touch roofline (clear.c, built like the
 * touch loops: always optimised, never instrumented). Each clears memory
 * with one instruction kind (enum mt_clear_method, model/roofline.h), the
 * ways a kernel can clear a freshly allocated folio.
 */

/* MT_CLEAR_*: whether this CPU has the method (x86-64 only; CLZERO by cpuid). */
bool mt_clear_supported(int method);

/*
 * Zero len bytes at p (64-byte aligned, len a multiple of 64 and not 0)
 * with method, one mt_clear_supported said yes to (another may raise
 * SIGILL: the check costs a cpuid, too dear per chunk): 0, -EINVAL (bad
 * arguments) or -EOPNOTSUPP (not x86-64).
 */
int mt_clear_run(int method, void *p, size_t len);

#endif
