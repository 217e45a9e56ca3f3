/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_PROBE_H
#define MEMTLB_MEASURE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/config.h"
#include "stats/coalesce.h"
#include "stats/steps.h"
#include "sys/mapinfo.h"

/*
 * The probe: the translation cost of an access, by a paired design and a
 * clock alone (no PMU). Each size, in base pages, is chased twice on the
 * same layout (one line per base page, the same random cycle, the same
 * line in each page: workload/chase.h): once mapped with base pages, once
 * with 2 MiB pages (THP, or hugetlb). The data caches see the same lines
 * both times; the difference base - huge is what translating base pages
 * costs. Levels are the steps of that curve (stats/steps.h), each checked
 * by a fresh measurement. The method is described in memtlb-probe(1).
 */
#define MT_PROBE_MAX_POINTS 96
#define MT_PROBE_MAX_LEVELS MT_STEPS_MAX
#define MT_PROBE_REPS 12

/* The pages asked for, in the order of --pages' choices. */
enum mt_probe_pages {
	MT_PROBE_PAGES_BASE,	/* base against THP (the default) */
	MT_PROBE_PAGES_THP,	/* the same: base against THP */
	MT_PROBE_PAGES_HUGETLB,	/* base against MAP_HUGETLB | MAP_HUGE_2MB */
	MT_PROBE_PAGES_MAX,
};

/* "base", "thp", "hugetlb" (as --pages spells them), NULL out of range. */
const char *mt_probe_pages_name(enum mt_probe_pages p);

/* The level name equal to name ("L1 dTLB", ...), as levels[].name holds it; NULL: none. */
const char *mt_probe_level_name(const char *name);

/* One size measured: both variants, interleaved. */
struct mt_probe_point {
	uint64_t pages;		/* base pages chased, one line each */
	uint64_t bytes;		/* pages x the base page size */
	double base_ns;		/* mean per access over reps, base pages */
	double huge_ns;		/* the same, huge pages */
	double translation_ns;	/* mean of the reps' base - control (huge or packed) */
	double ci95_ns;		/* its 95% interval's half-width (Student t) */
	double packed_ns;	/* the data-cache control: the lines packed */
	double vs_huge_ns, vs_huge_ci95_ns;	/* base - huge, each repetition */
	double vs_packed_ns, vs_packed_ci95_ns;	/* base - packed, each repetition */
	unsigned int reps;
	bool refined;		/* measured to narrow a step, not on the grid */
};

struct mt_probe_level {
	const char *name;	/* "L1 dTLB", "L2 TLB", "further translation knee" */
	uint64_t entries_min;	/* the last size before the step starts, pages */
	uint64_t entries_max;	/* the first at or over the step's half height */
	uint64_t page_size;	/* the pages the entries hold */
	uint64_t reach_bytes;	/* entries_min x page_size */
	double from_ns;		/* translation cost: the plateau below */
	double to_ns;		/* and the one above (lowest of the top and 2 after) */
	double confidence;	/* 1 - p of the validation pass (Welch) */
};

/*
 * Coalescing (--coalesce): the base variant, its pages faulted in random
 * order so that they are physically scattered, against base pages that are
 * physically contiguous (2 MiB THPs whose PMDs were split to PTEs, each
 * folio kept whole), paired with the control at the sizes around each TLB
 * level, as memtlb-probe(1) describes.
 */
#define MT_PROBE_CO_MAX_POINTS 48
#define MT_PROBE_CO_MAX_LEVELS 2	/* the L1 dTLB and the L2 TLB */

/* What pagemap's PFNs say of both variants' max bytes, one run length. */
struct mt_probe_co_run {
	uint64_t pages;		/* the run's length (mt_pfn_run_pages) */
	double scattered, contiguous;	/* share of aligned runs contiguous, 0 to 1 */
};

struct mt_probe_co_point {
	const char *level;	/* the level it was measured around */
	uint64_t bytes;
	struct mt_coalesce_point c;	/* translation of each, their difference */
	unsigned int reps;
};

struct mt_probe_co_level {
	const char *name;	/* a level of levels[] */
	double from_ns, to_ns;	/* its plateaus, whose middle the reaches cross */
	struct mt_coalesce_verdict v;
};

struct mt_probe_coalesce {
	bool asked;
	char absent_why[160];	/* "" when measured: why there is no result */
	double min_ns;		/* the least difference apart: the steps' min_rise */
	bool scattered_pte, contiguous_pte;	/* every page present, mapped by a PTE */
	size_t n_runs;		/* 0: the PFNs were not read */
	struct mt_probe_co_run runs[MT_PFN_RUNS];
	size_t n_points;	/* by level, then by pages */
	struct mt_probe_co_point points[MT_PROBE_CO_MAX_POINTS];
	size_t n_levels;
	struct mt_probe_co_level levels[MT_PROBE_CO_MAX_LEVELS];
};

struct mt_probe_result {
	enum mt_probe_pages kind;
	uint64_t page;		/* the base page size */
	uint64_t huge_page;	/* 2 MiB */
	uint64_t max;		/* the largest size, bytes */
	unsigned int reps;
	double ratio;		/* what a step must rise by */
	uint64_t map_bytes;	/* each variant's mapping */
	uint64_t packed_bytes;
	bool collapsed;		/* THP needed MADV_COLLAPSE */
	/* Sizes whose mapping was not as requested: refused, never used. */
	unsigned int refused;
	char refused_why[160];
	size_t n_points;	/* sorted by pages */
	struct mt_probe_point points[MT_PROBE_MAX_POINTS];
	size_t n_levels;	/* validated levels only */
	struct mt_probe_level levels[MT_PROBE_MAX_LEVELS];
	unsigned int unvalidated;	/* steps the validation pass did not confirm */
	/*
	 * The smallest grid size, within the data cache's reach, where the huge
	 * variant is slower than the packed control by the step ratio: its TLB
	 * entries act as base pages there. 0: not seen.
	 */
	uint64_t huge_slow_at;
	/*
	 * With huge_slow_at, the 2 MiB variant saves no TLB entries, so base -
	 * huge is no translation cost: the packed control (the same lines in
	 * few pages, TLB-light) is the curve's control instead.
	 */
	bool vs_packed;
	struct mt_probe_coalesce co;
};

/* What the probe tells its caller while it runs (the CLI shows it). */
enum mt_probe_event {
	MT_PROBE_MAPPED,	/* both variants are mapped and touched */
	MT_PROBE_POINT,		/* point was measured */
	MT_PROBE_CO_POINT,	/* co_point, of the coalescing pass, was measured */
	MT_PROBE_DONE,		/* the measurements ended: clear what was shown */
};

struct mt_probe_progress {
	enum mt_probe_event kind;
	const struct mt_probe_result *res;	/* as far as it goes */
	const struct mt_probe_point *point;	/* MT_PROBE_POINT: the one just measured */
	const struct mt_probe_co_point *co_point;	/* MT_PROBE_CO_POINT: likewise */
};

typedef void (*mt_probe_progress_fn)(void *arg, const struct mt_probe_progress *p);

struct mt_probe_opts {
	enum mt_probe_pages kind;
	uint64_t max;		/* 0: 64 MiB */
	double ratio;		/* MT_PROBE_STEP_RATIO by default */
	bool coalesce;		/* measure coalescing too */
	mt_probe_progress_fn progress;	/* NULL: nothing said */
	void *progress_arg;
};

#define MT_PROBE_STEP_RATIO 1.5

/* The defaults: base against THP, 64 MiB, the step ratio. */
void mt_probe_opts_init(struct mt_probe_opts *o);

/*
 * Check o against this machine before anything is mapped: *max_out is the
 * size that will be probed. 0, or -EINVAL (below 4 pages) or -E2BIG (the
 * mappings, two or with coalesce three, above MemAvailable) with msg.
 */
int mt_probe_check(const struct mt_probe_opts *o, uint64_t *max_out, struct mt_msg *msg);

/*
 * Map, touch and probe; *out gets the result (mt_probe_result_destroy).
 * Returns 0, -EINVAL/-E2BIG as mt_probe_check, -errno of the mapping with
 * msg (its hint: how to reserve a hugetlb pool; msg->text is "" for a
 * plain allocation failure), or -EPERM with the reason when no size's
 * mapping was as requested.
 */
int mt_probe_run(const struct mt_probe_opts *o, struct mt_probe_result **out,
		 struct mt_msg *msg);

void mt_probe_result_destroy(struct mt_probe_result *r);

/*
 * The steps of r's translation curve on the grid's points (stats/steps.h
 * with r->ratio; the points measured to narrow a step left out), at most
 * max into out, indices into r->points: what the probe narrows and
 * validates. Returns how many.
 */
size_t mt_probe_steps(const struct mt_probe_result *r, struct mt_step *out, size_t max);

#endif
