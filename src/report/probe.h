/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_PROBE_H
#define MEMTLB_REPORT_PROBE_H

#include <stdio.h>

#include "measure/probe.h"
#include "sys/sysinfo.h"

/*
 * A probe's result (report/probe.c). The table: a title, one row per size
 * with a "<- TLB" or "<- cache" mark on the first size above each knee, one
 * line per level and what cpuid says of the data TLBs for these pages (si's
 * TLB geometry, as memtlb sysinfo decodes it). 0 or -EIO.
 */
int mt_report_print_probe(FILE *f, const struct mt_probe_result *r,
			  const struct mt_sysinfo *si);

/* The CSV: size,pages,ns_per_access,packed_ns_per_access,level. 0 or -EIO. */
int mt_report_print_probe_csv(FILE *f, const struct mt_probe_result *r);

/*
 * The JSON document of a probe (schema MT_PROBE_SCHEMA, memtlb-probe(1)):
 * memtlb (schema, version, command), system (as a report's), config,
 * mapping, points, levels, on f. 0 or -errno.
 */
#define MT_PROBE_SCHEMA 3
int mt_report_print_probe_json(FILE *f, const struct mt_probe_result *r,
			       const struct mt_sysinfo *si);

#endif
