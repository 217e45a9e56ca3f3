/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_WORKLOAD_CHASE_H
#define MEMTLB_WORKLOAD_CHASE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The probe's dependent-load pointer chase (chase.c, built with -O2). A
 * chase is a single cycle through n slots in random order; each load's
 * address is the value the previous load returned, so loads cannot overlap
 * and the time per load is the latency of one access, translation included.
 */

/*
 * Link n slots of one cache line each: slot j at base + j * stride + off(j),
 * where off(j) is a line within the stride drawn from seed and j (so the
 * slots spread over the cache sets, whatever the physical pages). stride =
 * the page size puts one line in every page; stride = 64 packs the same
 * number of lines into few pages (the cache-only control). The visiting
 * order is a random single cycle drawn from seed: the same seed gives the
 * same order and offsets. order is a scratch array of n entries. Returns
 * the start of the cycle.
 */
void **mt_chase_link(char *base, size_t n, size_t stride, uint64_t seed, size_t *order);

/*
 * The paired design: a and b linked by one shuffle, the same order and the
 * same offsets, so the two chains touch the same lines of their mappings in
 * the same sequence and only what backs the pages differs. *pa and *pb get
 * the starts.
 */
void mt_chase_link_pair(char *a, char *b, size_t n, size_t stride, uint64_t seed,
			size_t *order, void ***pa, void ***pb);

/* Follow the chain for steps loads; returns where it ended (keep it live). */
void **mt_chase_run(void **p, uint64_t steps);

#endif
