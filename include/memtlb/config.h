/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CONFIG_H
#define MEMTLB_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

enum mt_backing {
	MT_BACKING_SHARED,	/* MAP_SHARED|MAP_ANONYMOUS, as test_with_mmap */
	MT_BACKING_ANON,	/* MAP_PRIVATE|MAP_ANONYMOUS */
	MT_BACKING_SHM,		/* a POSIX shm object (tmpfs under /dev/shm), MAP_SHARED */
	MT_BACKING_MEMFD,	/* memfd_create, MAP_SHARED */
	MT_BACKING_FILE,	/* a regular file made for the run, MAP_SHARED */
	MT_BACKING_MAX,
};

enum mt_pages {
	MT_PAGES_DEFAULT,	/* no madvise: the kernel's THP policy decides */
	MT_PAGES_BASE,		/* MADV_NOHUGEPAGE */
	MT_PAGES_THP,		/* MADV_HUGEPAGE on a huge-page-aligned region */
	MT_PAGES_HUGETLB,	/* MAP_HUGETLB / MFD_HUGETLB with a size flag */
	MT_PAGES_MAX,
};

enum mt_access {
	MT_ACCESS_SEQ,
	MT_ACCESS_RANDOM,	/* every block once, order fixed before the timed phases */
	MT_ACCESS_STRIDE,	/* one block every cfg->stride bytes */
	MT_ACCESS_MAX,
};

enum mt_task_mode {
	MT_TASK_THREAD,
	MT_TASK_PROCESS,
};

enum mt_task_region {
	MT_TASK_REGION_SHARED,	/* one mapping, tasks touch disjoint slices */
	MT_TASK_REGION_PRIVATE,	/* every task maps its own region */
};

enum mt_format {
	MT_FORMAT_TABLE,
	MT_FORMAT_CSV,
	MT_FORMAT_JSON,
};

/* What the user asked for: filled by cli/, read by every later stage. */
struct mt_config {
	uint64_t region;
	uint64_t block;
	unsigned long iterations;
	unsigned long passes;
	enum mt_backing backing;
	const char *file_path;	/* --backing file:PATH, or NULL ($TMPDIR or /tmp) */
	bool file_cold;		/* --file-cache cold */
	enum mt_pages pages;
	uint64_t huge_size;	/* hugetlb/thp page size in bytes; 0 = default */
	bool reserve;		/* --reserve: grow the hugetlb pool for the run */
	enum mt_access access;
	uint64_t stride;	/* --access stride:SIZE */
	uint64_t seed;		/* --seed, for random */
	bool populate;		/* MAP_POPULATE */
	bool read_first;	/* a read pass before write_0 */
	unsigned long tasks;	/* 0: run inline in this thread (no --tasks) */
	enum mt_task_mode task_mode;
	enum mt_task_region task_region;
	const char *events;	/* comma-separated, as given to -e */
	const char *event_set;	/* --events SET, or NULL */
	const char *events_dir;	/* --events-dir DIR, or NULL */
	bool events_given;	/* -e was given */
	enum mt_format format;
	const char *output;	/* -o FILE: the JSON report, or NULL */
	bool force;
	bool verbose;
};

const char *mt_backing_name(enum mt_backing b);
const char *mt_pages_name(enum mt_pages p);
const char *mt_access_name(enum mt_access a);
const char *mt_task_mode_name(enum mt_task_mode m);
const char *mt_task_region_name(enum mt_task_region r);

#endif
