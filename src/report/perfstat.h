/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_PERFSTAT_H
#define MEMTLB_REPORT_PERFSTAT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"

/*
 * memtlb run's counts as perf stat prints them with -x SEP and -j, so that
 * what parses perf's lines parses memtlb's (tools/perf/Documentation/
 * perf-stat.txt, CSV FORMAT and JSON FORMAT): per event, the counter value
 * (msec for task-clock and cpu-clock; <not supported>, <not counted>), its
 * unit, the event, with runs > 1 the variance (the standard error of the
 * mean in % of it, perf's rel_stddev), the time the counter ran (ns, the
 * mean over the runs) and the share of the time it ran (%), and a metric
 * where one is measured (task-clock: CPUs utilized); as JSON, one object a
 * line with perf's keys. A run report only; 0, -EINVAL (another report),
 * -ENOMEM.
 */
int mt_perfstat_print(FILE *f, const struct mt_report *rep, char sep, bool json);

#endif
