/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MEASURE_SELFTEST_H
#define MEMTLB_MEASURE_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters/resolve.h"
#include "measure/probe.h"
#include "model/config.h"
#include "model/reach.h"
#include "model/report.h"
#include "model/result.h"
#include "sys/msg.h"

/*
 * What memtlb selftest measures, and how much: sizes small enough that the
 * whole self-test stays well under a minute, unprivileged, on a 2-vCPU
 * guest. The rules that judge it are analysis/selftest's.
 */
#define MT_SELFTEST_FAULT_REGION (16ull << 20)	/* 8 PMD-sized pages */
#define MT_SELFTEST_FAULT_ITERS 3		/* the median of three */
#define MT_SELFTEST_SWEEP_ITERS 7		/* interleaved rounds, the median */
#define MT_SELFTEST_SWEEP_MAX (384ull << 20)	/* memory and time: seconds */
#define MT_SELFTEST_PROBE_MIN (1ull << 20)
#define MT_SELFTEST_PROBE_MAX (32ull << 20)

/*
 * A fault check's config: the region written once (one pass), blocks of the
 * base page so every page is touched, page faults alone counted (the
 * faults event set: getrusage, no PMU). 0 or -EINVAL with msg.
 */
int mt_selftest_fault_config(struct mt_config *cfg, enum mt_backing backing,
			     enum mt_pages pages, struct mt_msg *msg);

/* The stat run of cfg, in this process (mt_measure_stat's returns). */
int mt_selftest_faults(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		       struct mt_result **out, struct mt_mismatch *bad);

/*
 * The probe's options: up to 4 x the largest reach cpuid gives for page
 * (between MT_SELFTEST_PROBE_MIN and _MAX, a power of two), so that every
 * level cpuid names can show, and no more time is spent past them.
 */
void mt_selftest_probe_opts(struct mt_probe_opts *o, const struct mt_reach *cpuid, size_t n,
			    uint64_t page);

/*
 * The probe of o, run a second time when the first found no level: one
 * pass a neighbour's load flattened must not turn a level into a skip.
 * mt_probe_run's returns.
 */
int mt_selftest_probe(const struct mt_probe_opts *o, struct mt_probe_result **out,
		      struct mt_msg *msg);

/* A probe's levels as reaches (source "probe"), at most max: how many. */
size_t mt_selftest_probe_levels(const struct mt_probe_result *r, struct mt_reach *out,
				size_t max);

/* Why a probe found no level, into buf ("" when it says nothing more). */
void mt_selftest_probe_why(const struct mt_probe_result *r, char *buf, size_t len);

/*
 * The sweep of the knee checks: read_4's curve, THP-backed anon memory
 * when thp (the huge-page TLB's case, seed 000's), else base pages; its
 * regions around the reaches of lv (--region auto's) of the page size it
 * maps, within [2 pages, MT_SELFTEST_SWEEP_MAX]. The report carries lv's
 * measured levels. 0, -ENOENT with msg (no level of that page size),
 * -errno of a point (msg says which).
 */
int mt_selftest_sweep_config(struct mt_config *cfg, bool thp, struct mt_msg *msg);
int mt_selftest_sweep(const struct mt_config *cfg, const struct mt_reach *lv, size_t n_lv,
		      struct mt_event *ev, size_t n_ev, struct mt_report **out, struct mt_msg *msg);

#endif
