// SPDX-License-Identifier: MIT
/* memtlb selftest's measurements (measure/selftest.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "measure/measure.h"
#include "measure/selftest.h"
#include "measure/sweep.h"
#include "model/size.h"
#include "workload/check.h"

static uint64_t base_page(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (uint64_t)p : 4096;
}

/* Keys set as the options would set them: the one setter checks each. */
static int set_keys(struct mt_config *cfg, const char *const (*kv)[2], size_t n,
		    struct mt_msg *msg)
{
	for (size_t i = 0; i < n; i++) {
		int ret = mt_config_set(cfg, kv[i][0], kv[i][1], msg);

		if (ret)
			return ret;
	}
	return 0;
}

int mt_selftest_fault_config(struct mt_config *cfg, enum mt_backing backing,
			     enum mt_pages pages, struct mt_msg *msg)
{
	char region[32], block[32], iters[16];
	const char *const kv[][2] = {
		{ "region", region }, { "block", block }, { "iterations", iters },
		{ "passes", "1" }, { "events", "faults" },
		{ "backing", mt_backing_name(backing) },
		{ "pages", pages == MT_PAGES_THP ? "thp" : "base" },
	};

	mt_config_init(cfg);
	snprintf(region, sizeof(region), "%llu", (unsigned long long)MT_SELFTEST_FAULT_REGION);
	snprintf(block, sizeof(block), "%llu", (unsigned long long)base_page());
	snprintf(iters, sizeof(iters), "%u", MT_SELFTEST_FAULT_ITERS);
	return set_keys(cfg, kv, sizeof(kv) / sizeof(kv[0]), msg);
}

int mt_selftest_faults(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		       struct mt_result **out, struct mt_mismatch *bad)
{
	struct mt_measure_opts opts = { 0 };

	return mt_measure_stat(cfg, ev, n_ev, &opts, out, bad);
}

void mt_selftest_probe_opts(struct mt_probe_opts *o, const struct mt_reach *cpuid, size_t n,
			    uint64_t page)
{
	uint64_t top = 0, max = MT_SELFTEST_PROBE_MIN;

	mt_probe_opts_init(o);
	for (size_t i = 0; i < n; i++)
		if (cpuid[i].page_size == page && mt_reach_max(&cpuid[i]) > top)
			top = mt_reach_max(&cpuid[i]);
	while (max < 4 * top && max < MT_SELFTEST_PROBE_MAX)
		max *= 2;
	o->max = max;
}

int mt_selftest_probe(const struct mt_probe_opts *o, struct mt_probe_result **out,
		      struct mt_msg *msg)
{
	int ret = mt_probe_run(o, out, msg);

	if (ret || (*out)->n_levels)
		return ret;
	mt_probe_result_destroy(*out);
	*out = NULL;
	return mt_probe_run(o, out, msg);
}

size_t mt_selftest_probe_levels(const struct mt_probe_result *r, struct mt_reach *out,
				size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_levels && n < max; i++) {
		const struct mt_probe_level *l = &r->levels[i];
		struct mt_reach *o = &out[n++];

		memset(o, 0, sizeof(*o));
		snprintf(o->name, sizeof(o->name), "%s", l->name ? l->name : "level");
		o->page_size = l->page_size;
		o->entries_min = l->entries_min;
		o->entries_max = l->entries_max;
		snprintf(o->source, sizeof(o->source), "probe");
	}
	return n;
}

void mt_selftest_probe_why(const struct mt_probe_result *r, char *buf, size_t len)
{
	char at[24], max[24];

	mt_size_format(r->max, max, sizeof(max));
	if (r->huge_slow_at) {
		/* a host that backs the guest with base pages: huge pages save nothing */
		mt_size_format(r->huge_slow_at * r->page, at, sizeof(at));
		snprintf(buf, len, "no step up to %s; 2 MiB pages save no translation here "
			 "(slower than the packed control from %s)", max, at);
	} else if (r->unvalidated) {
		snprintf(buf, len, "no step up to %s that a second pass confirmed (%u not)", max,
			 r->unvalidated);
	} else {
		snprintf(buf, len, "the probe found no step up to %s", max);
	}
}

int mt_selftest_sweep_config(struct mt_config *cfg, bool thp, struct mt_msg *msg)
{
	char block[32], iters[16];
	const char *const kv[][2] = {
		{ "block", block }, { "iterations", iters }, { "events", "faults" },
		{ "backing", "anon" }, { "pages", thp ? "thp" : "base" },
		/*
		 * Iteration 1 of every point, then 2, ...: a burst of load
		 * from elsewhere falls on one round of every point, which the
		 * median drops, not on every iteration of one point (a knee).
		 */
		{ "order", "interleaved" },
	};

	mt_config_init(cfg);
	snprintf(block, sizeof(block), "%llu", (unsigned long long)base_page());
	snprintf(iters, sizeof(iters), "%u", MT_SELFTEST_SWEEP_ITERS);
	return set_keys(cfg, kv, sizeof(kv) / sizeof(kv[0]), msg);
}

int mt_selftest_sweep(const struct mt_config *cfg, const struct mt_reach *lv, size_t n_lv,
		      struct mt_event *ev, size_t n_ev, struct mt_report **out, struct mt_msg *msg)
{
	bool thp = cfg->pages == MT_PAGES_THP;
	uint64_t page = thp ? (cfg->huge_size ? cfg->huge_size : 2ull << 20) : base_page();
	struct mt_measure_opts opts = { 0 };
	struct mt_mismatch bad = { 0 };
	struct mt_report *rep = NULL;
	struct mt_sweep *sw = NULL;
	size_t failed = 0;
	int ret;

	*out = NULL;
	mt_msg_clear(msg);
	ret = mt_sweep_create(&sw, cfg);
	if (ret)
		return ret;
	ret = mt_sweep_set_regions_auto(sw, lv, n_lv, page, msg);
	/* below two pages a THP region cannot be mapped huge: another curve */
	if (!ret && !mt_sweep_bound_regions(sw, 2 * page, MT_SELFTEST_SWEEP_MAX))
		ret = mt_msg_set(msg, -ENOENT, NULL, "no region between %llu KiB and %llu MiB",
				 (unsigned long long)(2 * page) >> 10,
				 (unsigned long long)MT_SELFTEST_SWEEP_MAX >> 20);
	/* every point checked before the first runs, as sweep's (memory, the pages) */
	for (size_t p = 0; !ret && p < mt_sweep_points(sw); p++) {
		struct mt_config pc;

		mt_sweep_point_config(sw, p, &pc);
		ret = mt_workload_check(&pc, msg);
	}
	if (!ret)
		ret = mt_measure_report_create(&rep, "sweep", cfg);
	if (ret)
		goto out;
	rep->config.region = MT_SELFTEST_SWEEP_MAX;
	for (size_t i = 0; i < n_lv && rep->n_levels < MT_REACH_MAX; i++)
		if (!strcmp(lv[i].source, "probe"))
			rep->levels[rep->n_levels++] = lv[i];
	opts.hw_counters = rep->system.hw_counters;
	ret = mt_sweep_run(sw, ev, n_ev, &opts, rep, NULL, NULL, &failed, &bad);
	if (ret && failed)
		mt_msg_set(msg, ret, NULL, "sweep point %zu: %s", failed,
			   bad.why[0] ? bad.why : strerror(-ret));
out:
	mt_sweep_destroy(sw);
	if (ret) {
		mt_report_destroy(rep);
		return ret;
	}
	*out = rep;
	return 0;
}
