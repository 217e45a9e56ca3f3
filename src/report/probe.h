/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_PROBE_H
#define MEMTLB_REPORT_PROBE_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "measure/probe.h"
#include "sys/sysinfo.h"
#include "sys/msg.h"

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

/*
 * A probe's JSON document read back (memtlb probe --from): its result in
 * *out (mt_probe_result_destroy) and its system in si. 0; -EINVAL with
 * why in msg (not a probe report, a schema not known); -errno.
 */
int mt_report_load_probe(const char *path, struct mt_probe_result **out, struct mt_sysinfo *si,
			 struct mt_msg *msg);
/* The same from a document already read (mt_report_load_json): each file read once. */
int mt_report_probe_from_json(json_t *root, struct mt_probe_result **out,
			      struct mt_sysinfo *si, struct mt_msg *msg);

#endif
