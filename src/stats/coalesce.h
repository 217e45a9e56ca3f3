/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_COALESCE_H
#define MEMTLB_STATS_COALESCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Coalescing: whether a TLB level holds more base pages when they are
 * physically contiguous (and aligned in runs) than when they are scattered,
 * as AMD's PTE coalescing and arm64's contiguous bit do. The probe measures
 * both at the sizes around a level, paired; this judges the two curves.
 */

/* One size: each variant's translation cost, and their paired difference. */
struct mt_coalesce_point {
	uint64_t pages;
	double scattered_ns, scattered_ci95_ns;		/* scattered - the control */
	double contiguous_ns, contiguous_ci95_ns;	/* contiguous - the control */
	double diff_ns, diff_ci95_ns;			/* scattered - contiguous, paired */
};

/* What a level shows, least first. */
enum mt_coalesce_kind {
	MT_COALESCE_NOT_APART,	/* the two variants alike at every size */
	MT_COALESCE_CHEAPER,	/* contiguous cheaper, its reach not moved */
	MT_COALESCE_REACH,	/* contiguous pages reach further: a larger entry */
	MT_COALESCE_KINDS,
};

/* The paired difference must hold at this many consecutive sizes. */
#define MT_COALESCE_APART_RUN 2
/* A reach moved by less is the grid's half octave or noise, not an entry. */
#define MT_COALESCE_MIN_FACTOR 2.0

struct mt_coalesce_verdict {
	enum mt_coalesce_kind kind;
	/*
	 * Each variant's reach: the last size under the level's half height
	 * before the first at or over it (pages); 0 where the first size is
	 * already over it. The contiguous one is the last size measured with
	 * contiguous_beyond when it never got there.
	 */
	uint64_t scattered_reach, contiguous_reach;
	bool contiguous_beyond;
	double factor;		/* contiguous / scattered reach; NAN without both */
	uint64_t apart_at;	/* the first size of the first apart run; 0 none */
	double apart_ns;	/* the largest paired difference apart; NAN: none */
};

/*
 * Judge n points (sorted by pages) around a level whose translation rises
 * from from_ns to to_ns: a size is apart when the paired difference is at
 * least min_ns with its interval clear of 0; the variants are apart at
 * MT_COALESCE_APART_RUN consecutive sizes; the reach moved when they are
 * apart and contiguous / scattered reach is MT_COALESCE_MIN_FACTOR or more.
 * Pure.
 */
void mt_coalesce_judge(const struct mt_coalesce_point *p, size_t n, double from_ns,
		       double to_ns, double min_ns, struct mt_coalesce_verdict *v);

/* "none", "cheaper", "reach" (the JSON's), NULL out of range; and back (-1). */
const char *mt_coalesce_kind_name(int kind);
int mt_coalesce_kind_parse(const char *name);

/*
 * The mechanism a reach factor suggests on a machine (uname's machine,
 * cpuinfo's vendor_id): the run length nearest the factor, by a table of
 * those known; NULL when none fits.
 */
const char *mt_coalesce_mechanism(double factor, const char *machine, const char *vendor);

#endif
