/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_WORKLOAD_TOUCH_H
#define MEMTLB_WORKLOAD_TOUCH_H

#include <stdint.h>

/*
 * The touch loops (touch.c, always built with optimisation). The _at
 * variants walk a precomputed array of offsets: one load of the offset and
 * one store (or one load and compare) of the block per block.
 */
void mt_touch_write(char *p, uint64_t nblocks, uint64_t block, uint64_t pattern);
char *mt_touch_verify(char *p, uint64_t nblocks, uint64_t block, uint64_t pattern);
void mt_touch_write_at(char *base, const uint64_t *off, uint64_t n, uint64_t pattern);
char *mt_touch_verify_at(char *base, const uint64_t *off, uint64_t n, uint64_t pattern);

/*
 * Map the loops' code pages now, by reading them: called before the first
 * phase, so that no phase counts a fault of memtlb's own text.
 */
void mt_touch_prefault(void);

#endif
