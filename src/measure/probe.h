/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_PROBE_H
#define MEMTLB_MEASURE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/config.h"
#include "stats/knee.h"

/*
 * The probe: TLB reach by timing alone (no PMU). A dependent-load chase
 * (workload/chase.h) over one cache line per page, pages in random order,
 * at sizes doubling from 16 KiB (or 4 pages), bisected near every knee
 * (stats/knee.h); beside it the same number of lines packed into few pages,
 * so a knee that the data caches explain is not taken for a TLB level.
 * The method is described in memtlb-probe(1).
 */
#define MT_PROBE_MAX_POINTS 128
#define MT_PROBE_KNEE_RATIO 1.5

/* The pages probed, in the order of --pages' choices. */
enum mt_probe_pages {
	MT_PROBE_PAGES_BASE,	/* the base page size, MADV_NOHUGEPAGE */
	MT_PROBE_PAGES_THP,	/* 2 MiB-aligned, MADV_HUGEPAGE */
	MT_PROBE_PAGES_HUGETLB,	/* MAP_HUGETLB | MAP_HUGE_2MB */
	MT_PROBE_PAGES_MAX,
};

/* "base", "thp", "hugetlb" (as --pages spells them), NULL out of range. */
const char *mt_probe_pages_name(enum mt_probe_pages p);

/* One size measured. */
struct mt_probe_point {
	uint64_t size;		/* bytes covered: pages x the page size */
	uint64_t pages;		/* pages chased = lines */
	double ns;		/* per access, one line per page */
	double packed_ns;	/* per access, the same lines back to back */
	unsigned int reps;	/* repetitions of ns (3 to 40) */
	unsigned int packed_reps;	/* and of packed_ns */
};

struct mt_probe_result {
	enum mt_probe_pages kind;
	uint64_t page;		/* the page size probed, bytes */
	uint64_t first;		/* the smallest size probed */
	uint64_t max;		/* the largest, whole pages */
	struct mt_knee_opts knee_opts;	/* what the levels were found with */
	/* What was mapped. */
	uint64_t map_bytes;	/* the probed mapping (with THP: 2 MiB more, to align) */
	uint64_t packed_bytes;	/* the packed control's mapping */
	int64_t anon_huge;	/* AnonHugePages of the process once mapped, bytes; -errno */
	/* Sorted by size; levels index into points. */
	size_t n_points;
	struct mt_probe_point points[MT_PROBE_MAX_POINTS];
	size_t n_levels;
	struct mt_level levels[MT_KNEE_MAX];
};

/* What the probe tells its caller while it runs (the CLI shows it). */
enum mt_probe_event {
	MT_PROBE_MAPPED,	/* the pages are mapped and touched: anon_huge is known */
	MT_PROBE_POINT,		/* point was measured */
	MT_PROBE_DONE,		/* the measurements ended: clear what was shown */
};

struct mt_probe_progress {
	enum mt_probe_event kind;
	const struct mt_probe_result *res;	/* as far as it goes */
	const struct mt_probe_point *point;	/* MT_PROBE_POINT: the one just measured */
};

typedef void (*mt_probe_progress_fn)(void *arg, const struct mt_probe_progress *p);

struct mt_probe_opts {
	enum mt_probe_pages kind;
	uint64_t max;		/* 0: 64 MiB with base pages, 1 GiB with 2 MiB pages */
	struct mt_knee_opts knee;	/* ratio MT_PROBE_KNEE_RATIO by default */
	mt_probe_progress_fn progress;	/* NULL: nothing said */
	void *progress_arg;
};

/* The defaults: base pages, the default --max, the probe's knee ratio. */
void mt_probe_opts_init(struct mt_probe_opts *o);

/*
 * Check o against this machine before anything is mapped: *max_out is the
 * size that will be probed. 0, or -EINVAL (below 4 pages or 16 KiB) or
 * -E2BIG (above MemAvailable) with msg.
 */
int mt_probe_check(const struct mt_probe_opts *o, uint64_t *max_out, struct mt_msg *msg);

/*
 * Map, touch and probe; *out gets the result (mt_probe_result_destroy).
 * Returns 0, -EINVAL/-E2BIG as mt_probe_check, or -errno of the mapping
 * with msg (its hint: how to reserve a hugetlb pool); msg->text is "" for
 * a plain allocation failure.
 */
int mt_probe_run(const struct mt_probe_opts *o, struct mt_probe_result **out,
		 struct mt_msg *msg);

void mt_probe_result_destroy(struct mt_probe_result *r);

/* Whether THP pages were asked for and under half of max got them. */
bool mt_probe_thp_short(const struct mt_probe_result *r);

#endif
