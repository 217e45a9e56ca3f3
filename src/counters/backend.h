/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_COUNTERS_BACKEND_H
#define MEMTLB_COUNTERS_BACKEND_H

#include <stddef.h>

#include "sys/msg.h"

/*
 * The counter backend, chosen once from MEMTLB_BACKEND (this is the only
 * file that reads it): "perf" or unset, the kernel through libperf;
 * "replay:FILE", recorded counts (format in memtlb-stat(1)), the test double
 * for machines without a PMU.
 */
struct mt_backend;

/* A fresh backend as MEMTLB_BACKEND selects: 0, -EINVAL, -ENOMEM, -errno. */
int mt_backend_create(struct mt_backend **out);
void mt_backend_destroy(struct mt_backend *be);

/*
 * MEMTLB_BACKEND checked before a run, a replay file parsed: 0; -EINVAL
 * (not a backend), -EBADMSG (not a valid replay file) or -errno reading it,
 * with msg saying what (and how to fix it, its hint).
 */
int mt_backend_check(struct mt_msg *msg);

/* The replay file MEMTLB_BACKEND names, an input of the run; NULL for perf. */
const char *mt_backend_replay_file(void);

/* "perf" or "replay": what the report records. */
const char *mt_backend_name(void);

#endif
