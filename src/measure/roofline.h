/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_ROOFLINE_H
#define MEMTLB_MEASURE_ROOFLINE_H

#include <stddef.h>
#include <stdint.h>

#include "model/roofline.h"

/*
 * The first-touch roofline's calibration (model/roofline.h), measured by
 * sweep before its points when --pages varies, never inside a timed phase:
 *
 * - the clear bandwidth: every method this CPU has (workload/clear.h)
 *   clearing a buffer past the last-level cache (llc bytes, 0: unknown),
 *   faulted in first, in chunks of the largest of folios[]; the fastest
 *   method is the ceiling, and is timed again in chunks of each folio size
 *   (a call's overhead weighs on small chunks, as on the kernel's clears);
 * - the kernel entry/exit floor: read faults on a private anonymous
 *   mapping with MADV_NOHUGEPAGE, each mapping the shared zero page, with
 *   getrusage's minor-fault count as the proof of one fault per page.
 *
 * Each figure is the median of a few repetitions; the whole takes well
 * under 2 s. folios: the sizes the sweep's rows ask for (0s skipped).
 * 0, or -errno (-ENOMEM: no buffer, -EIO: the zero page read non-zero).
 */
int mt_roofline_measure(struct mt_roofline *rf, const uint64_t *folios, size_t n, uint64_t llc);

#endif
