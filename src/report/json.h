/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_JSON_H
#define MEMTLB_REPORT_JSON_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "model/report.h"
#include "sys/sysinfo.h"
#include "sys/msg.h"

/*
 * Write the JSON report to path atomically: a 0600 temp file created with
 * O_EXCL in the same directory, fsync'ed, renamed over path; a character
 * device or a FIFO is written through (mt_file_write_atomic). path "-" is
 * stdout. The document is built whole first: nothing is written when any
 * part of it cannot be made (-ENOMEM) or when it would be larger than
 * MT_REPORT_MAX_SIZE, which mt_report_load refuses (-EFBIG). Strings that
 * are not UTF-8 are kept with their invalid bytes as \xHH. Returns 0 or
 * -errno; nothing is left behind on failure.
 */
int mt_report_write(const struct mt_report *rep, const char *path);

/*
 * Whether the report of POINTS points of cfg (iterations, passes, events)
 * can be larger than MT_REPORT_MAX_SIZE, which mt_report_load refuses: an
 * upper bound, checked before a run that writes one. Returns 0, or -EFBIG
 * with why in msg.
 */
int mt_report_size_check(const struct mt_config *cfg, size_t points, struct mt_msg *msg);

/* The same JSON on an open stream (memtlb run's standard error): 0 or -errno. */
int mt_report_print_json(FILE *f, const struct mt_report *rep);

/*
 * Load a report file. Returns 0, -errno for I/O, -EINVAL for a file that
 * is not a memtlb report (msg says why), -EPROTO for another schema.
 */
int mt_report_load(const char *path, struct mt_report **out, struct mt_msg *msg);
/* The same from a document already read (mt_report_load_json): each file read once. */
int mt_report_from_json(json_t *root, struct mt_report **out, struct mt_msg *msg);

/*
 * The command that wrote the memtlb document root (mt_report_load_json)
 * into cmd (len bytes): "stat", "sweep", "run", "flush", "probe"; "" when
 * it names none. What kind of document memtlb report makes of it, known
 * before it is loaded. 0; -EINVAL with why in msg (not memtlb's).
 */
int mt_report_command(json_t *root, char *cmd, size_t len, struct mt_msg *msg);

/*
 * The TLB levels of a probe report (memtlb probe --format json, -o): its
 * probe.levels[] as struct mt_reach, source "probe", at most MT_REACH_MAX
 * in out, *n of them. Returns 0; -EINVAL with why in msg (not a probe
 * report, a level that is not one); -errno when it cannot be read.
 */
int mt_report_load_tlb(const char *path, struct mt_reach *out, size_t *n, struct mt_msg *msg);

/*
 * A JSON document of memtlb's from path, as mt_report_load reads one: at
 * most MT_REPORT_MAX_SIZE, duplicate keys refused. 0; -EINVAL with why in
 * msg; -errno when it cannot be read.
 */
int mt_report_load_json(const char *path, json_t **root, struct mt_msg *msg);

/* The "system" object of a report (probe's too) read back into si. */
void mt_sysinfo_load(json_t *js, struct mt_sysinfo *si);

/* The "system" object of a report (probe's too); NULL: no memory. */
json_t *mt_sysinfo_json(const struct mt_sysinfo *si);

/* The "system" object of a report, alone, indented, to f (memtlb sysinfo --json). */
int mt_sysinfo_write_json(const struct mt_sysinfo *si, FILE *f);

#endif
