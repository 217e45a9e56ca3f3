/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_ANALYSIS_ROOFLINE_H
#define MEMTLB_ANALYSIS_ROOFLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/roofline.h"

/*
 * Where a first touch's time per fault goes, from the report's roofline
 * calibration (model/roofline.h) alone:
 *
 *   zero  = folio bytes / the ceiling method's bandwidth in chunks of the
 *           folio size (the time to clear one folio at the best rate this
 *           CPU reaches from user space)
 *   floor = the entry/exit floor, ns per fault
 *   rest  = total - zero - floor (allocation, memcg and LRU accounting,
 *           page-table updates, and the workload's own stores)
 *
 * zero + floor may exceed the measured total by MT_ROOFLINE_SLACK (the
 * parts are measured apart, each with its noise); past it the split is
 * inconsistent and has no rest. "% of the zeroing ceiling" is the first
 * touch's throughput (region bytes over the phase's time) as a share of
 * the same bandwidth. Every part a missing input makes unknown is NAN.
 */
#define MT_ROOFLINE_SLACK 0.10

struct mt_roofline_split {
	double gbps;		/* the clear bandwidth at the folio's size, bytes/ns */
	double zero_ns, floor_ns, rest_ns;	/* per fault */
	double ceiling_pct;	/* first-touch throughput / gbps, percent */
	bool inconsistent;	/* zero + floor past total x (1 + slack) */
};

/*
 * The split of total_ns per fault for folios of folio bytes, with touch_ns
 * the phase's time for region bytes (NAN, 0: no ceiling share). rf NULL or
 * not measured: every part NAN. 0, or -EINVAL when out is NULL.
 */
int mt_roofline_split(const struct mt_roofline *rf, uint64_t folio, double total_ns,
		      uint64_t region, double touch_ns, struct mt_roofline_split *out);

/* The ceiling method's bandwidth in chunks of chunk bytes; NAN: not measured. */
double mt_roofline_bandwidth(const struct mt_roofline *rf, uint64_t chunk);

/* The ceiling method's bandwidth at its own chunk (the methods' comparison). */
double mt_roofline_ceiling(const struct mt_roofline *rf);

/* The floor when every touch was one fault (getrusage); NAN otherwise. */
double mt_roofline_floor(const struct mt_roofline *rf);

#endif
