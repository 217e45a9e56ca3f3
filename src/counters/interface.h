/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_COUNTERS_INTERFACE_H
#define MEMTLB_COUNTERS_INTERFACE_H

/*
 * For backend authors only (wlroots' backend/interface.h): the ops a
 * counter backend implements. Nothing outside src/counters/ includes this
 * (tests/layering.sh checks): the rest of memtlb knows a backend by the
 * handle backend.h creates and counters.h reads.
 */
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "counters/resolve.h"
#include "model/sample.h"

/* Backends: an ops table, one static instance per backend (wlroots-style). */
struct mt_backend;

struct mt_backend_ops {
	const char *name;
	int (*open)(struct mt_backend *be, struct mt_event *ev, size_t n, pid_t pid);
	int (*enable)(struct mt_backend *be);
	int (*disable)(struct mt_backend *be);
	int (*read)(struct mt_backend *be, size_t idx, struct mt_counts *out);
	void (*destroy)(struct mt_backend *be);
};

struct mt_backend {
	const struct mt_backend_ops *ops;
};

int mt_backend_perf_create(struct mt_backend **out);
/* A replay file's size cap: a recording is a few lines; /dev/zero is not one. */
#define MT_REPLAY_FILE_MAX	(1 << 20)

/*
 * MEMTLB_BACKEND=replay:FILE: FILE must be a regular file of at most
 * MT_REPLAY_FILE_MAX bytes or a FIFO (read to the same cap). Returns 0,
 * -EINVAL for a file that is not a valid replay file (format in
 * memtlb-stat(1)), -ENOMEM, or stat's or open's -errno.
 */
int mt_backend_replay_create(struct mt_backend **out, const char *path);
/* The same parse on a stream (the fuzz target's entry): 0, -EINVAL, -ENOMEM, -EIO. */
int mt_backend_replay_parse(struct mt_backend **out, FILE *f);

#endif
