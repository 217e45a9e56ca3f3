// SPDX-License-Identifier: MIT
/*
 * The first-touch roofline: a matrix row's ns per fault split into the
 * folio's clear, the kernel entry/exit floor and the rest, from the
 * calibration the report carries (so a report loaded back splits alike).
 */
#include <errno.h>
#include <math.h>

#include "analysis/roofline.h"

double mt_roofline_bandwidth(const struct mt_roofline *rf, uint64_t chunk)
{
	if (!rf || !rf->measured || !chunk)
		return NAN;
	for (unsigned int i = 0; i < rf->n_chunks && i < MT_ROOFLINE_CHUNKS; i++)
		if (rf->chunks[i].chunk == chunk && rf->chunks[i].gbps > 0)
			return rf->chunks[i].gbps;
	return NAN;
}

double mt_roofline_ceiling(const struct mt_roofline *rf)
{
	if (!rf || !rf->measured)
		return NAN;
	for (unsigned int i = 0; i < rf->n_methods && i < MT_CLEAR_METHODS; i++)
		if (rf->methods[i].method == rf->ceiling && rf->methods[i].gbps > 0)
			return rf->methods[i].gbps;
	return NAN;
}

double mt_roofline_floor(const struct mt_roofline *rf)
{
	/*
	 * A touch that took no fault, or two, is no measure of one fault. The
	 * count is the thread's: a stray fault of memtlb's own (a stack page,
	 * a sanitizer's shadow page: one in 20480 under ASan) is let through
	 * up to 0.1% of the touches; a touch without its fault never is.
	 */
	if (!rf || !rf->measured || !rf->floor_touches || rf->floor_faults < rf->floor_touches ||
	    rf->floor_faults - rf->floor_touches > rf->floor_touches / 1000 ||
	    !(rf->floor_ns > 0))
		return NAN;
	return rf->floor_ns;
}

int mt_roofline_split(const struct mt_roofline *rf, uint64_t folio, double total_ns,
		      uint64_t region, double touch_ns, struct mt_roofline_split *out)
{
	if (!out)
		return -EINVAL;
	out->gbps = mt_roofline_bandwidth(rf, folio);
	out->zero_ns = (double)folio / out->gbps;	/* NAN when gbps is */
	out->floor_ns = mt_roofline_floor(rf);
	out->rest_ns = out->ceiling_pct = NAN;
	out->inconsistent = false;
	if (region && touch_ns > 0)
		out->ceiling_pct = 100.0 * ((double)region / touch_ns) / out->gbps;
	if (!(total_ns > 0) || !isfinite(out->zero_ns) || !isfinite(out->floor_ns))
		return 0;
	if (out->zero_ns + out->floor_ns > total_ns * (1.0 + MT_ROOFLINE_SLACK)) {
		out->inconsistent = true;
		return 0;
	}
	out->rest_ns = total_ns - out->zero_ns - out->floor_ns;
	return 0;
}
