// SPDX-License-Identifier: MIT
/* Measured TLB levels beside cpuid's (model/reach.h), --region auto (measure/sweep.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/sweep.h"
#include "model/config.h"
#include "model/reach.h"
#include "model/report.h"
#include "model/result.h"
#include "sys/sysinfo.h"

static void level(struct mt_reach *r, const char *name, uint64_t lo, uint64_t hi)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->page_size = 4096;
	r->entries_min = lo;
	r->entries_max = hi;
	snprintf(r->source, sizeof(r->source), "probe");
}

/* Zen 3's cpuid: L1 dTLB 64, L2 2048 entries of 4K and 2M pages. */
static void zen3(struct mt_sysinfo *si)
{
	const unsigned int l1[4] = { 0xff40ff40, 0xff40ff40, 0, 0 };
	const unsigned int l2[4] = { 0x48002200, 0x68004200, 0, 0 };

	mt_sysinfo_tlb_amd(si, l1, l2, NULL);
}

static void cache(struct mt_sysinfo *si, unsigned int level, const char *type, uint64_t size)
{
	struct mt_cache *c = &si->caches[si->n_caches++];

	c->level = level;
	snprintf(c->type, sizeof(c->type), "%s", type);
	c->size = size;
}

/* Page tables against the data side's caches: the largest overflowed, the smallest that holds. */
static void pt_against_caches(void **state)
{
	struct mt_sysinfo si = { 0 };
	char line[128];

	(void)state;
	mt_reach_pt_caches(&si, 4096, line, sizeof(line));
	assert_string_equal(line, "");
	cache(&si, 1, "data", 48 << 10);
	cache(&si, 1, "instruction", 4 << 20);	/* never the walker's */
	cache(&si, 2, "unified", 1 << 20);
	cache(&si, 3, "unified", 32 << 20);
	mt_reach_pt_caches(&si, 32 << 10, line, sizeof(line));
	assert_string_equal(line, "within L1d (48.0 KiB)");
	mt_reach_pt_caches(&si, 48 << 10, line, sizeof(line));
	assert_string_equal(line, "within L1d (48.0 KiB)");
	mt_reach_pt_caches(&si, 2 << 20, line, sizeof(line));
	assert_string_equal(line, "over L2 (1.0 MiB), within L3 (32.0 MiB)");
	mt_reach_pt_caches(&si, 64 << 20, line, sizeof(line));
	assert_string_equal(line, "over L3 (32.0 MiB), the largest cache");
}

/* The level a sweep states its pressure against: measured first, then the highest. */
static void last_level(void **state)
{
	struct mt_report *rep;
	struct mt_reach r;
	char x[48];

	(void)state;
	assert_int_equal(mt_report_create(&rep, "sweep"), 0);
	assert_int_equal(mt_reach_last(rep, 4096, &r), 0);
	zen3(&rep->system);
	assert_int_equal(mt_reach_last(rep, 4096, &r), 1);
	assert_string_equal(r.name, "L2 dTLB");
	assert_string_equal(r.source, "cpuid");
	level(&rep->levels[0], "L1 dTLB", 56, 72);
	level(&rep->levels[1], "further translation knee", 8192, 16384);
	rep->n_levels = 2;
	/* a measured L1 before cpuid's L2; never the further knee */
	assert_int_equal(mt_reach_last(rep, 4096, &r), 1);
	assert_string_equal(r.name, "L1 dTLB");
	assert_string_equal(r.source, "probe");
	level(&rep->levels[2], "L2 TLB", 1536, 2560);
	rep->n_levels = 3;
	assert_int_equal(mt_reach_last(rep, 4096, &r), 1);
	assert_string_equal(r.name, "L2 TLB");
	/* 16 MiB over 2560..1536 x 4 KiB: both ends of the range */
	assert_float_equal(mt_reach_times(&r, 16u << 20, x, sizeof(x)), 1.6, 1e-12);
	assert_string_equal(x, "1.6..2.67");
	/* far under a level: never an exponent */
	mt_reach_times(&r, 4096, x, sizeof(x));
	assert_string_equal(x, "<0.001..<0.001");
	assert_int_equal(mt_reach_last(rep, 2u << 20, &r), 1);
	assert_string_equal(r.source, "cpuid");	/* zen3's 2M entries */
	mt_report_destroy(rep);
}

static void agreement(void **state)
{
	struct mt_report *rep;
	char line[160];

	(void)state;
	assert_int_equal(mt_report_create(&rep, "sweep"), 0);
	zen3(&rep->system);
	level(&rep->levels[0], "L2 TLB", 1536, 2560);
	level(&rep->levels[1], "L1 dTLB", 80, 96);
	level(&rep->levels[2], "further translation knee", 8192, 16384);
	rep->n_levels = 3;
	assert_int_equal(mt_reach_agreement(rep, 0, line, sizeof(line)), 1);
	assert_string_equal(line, "L2 dTLB: cpuid 2048 entries, probe 1536..2560: agree");
	assert_int_equal(mt_reach_agreement(rep, 1, line, sizeof(line)), 1);
	assert_string_equal(line, "L1 dTLB: cpuid 64 entries, probe 80..96: disagree");
	/* no level number: nothing of cpuid's to compare with */
	assert_int_equal(mt_reach_agreement(rep, 2, line, sizeof(line)), 0);
	/* another page size is another level */
	rep->levels[0].page_size = 1u << 30;
	assert_int_equal(mt_reach_agreement(rep, 0, line, sizeof(line)), 0);
	mt_report_destroy(rep);
}

static void knee_from_probe(void **state)
{
	struct mt_report *rep;
	struct mt_result res = { 0 };
	struct mt_reach lv, all[2 * MT_REACH_MAX];
	uint64_t page;

	(void)state;
	assert_int_equal(mt_report_create(&rep, "sweep"), 0);
	rep->system.page_size = 4096;
	/* cpuid describes no TLB (this KVM guest): no level at all */
	assert_int_equal(mt_reach_knee(rep, &res, 8u << 20, 16u << 20, &lv, &page), -ENOENT);
	level(&rep->levels[0], "L2 TLB", 1536, 2560);
	rep->n_levels = 1;
	/* 6..10 MiB overlaps 8m..16m: the probe's level explains the knee */
	assert_int_equal(mt_reach_knee(rep, &res, 8u << 20, 16u << 20, &lv, &page), 1);
	assert_string_equal(lv.source, "probe");
	assert_int_equal(page, 4096);
	assert_int_equal(mt_reach_knee(rep, &res, 16u << 20, 32u << 20, &lv, &page), 0);
	/* cpuid's first, then the measured ones */
	zen3(&rep->system);
	size_t n = mt_reach_levels(rep, all, 2 * MT_REACH_MAX);

	assert_true(n >= 2);
	assert_string_equal(all[0].source, "cpuid");
	assert_string_equal(all[n - 1].source, "probe");
	mt_report_destroy(rep);
}

static void pressure_says_probe(void **state)
{
	struct mt_reach r;
	char buf[160];

	(void)state;
	level(&r, "L2 TLB", 1536, 2560);
	mt_reach_pressure(&r, 20u << 20, buf, sizeof(buf));
	assert_string_equal(buf, "2..3.33 x L2 TLB reach (1536..2560 x 4.0 KiB, probe)");
}

static void region_auto(void **state)
{
	struct mt_config base, cfg;
	struct mt_sweep *sw;
	struct mt_reach lv[2];
	struct mt_msg msg;
	const uint64_t K = 1024;
	/* 256k..32m doubling (4 x 10 MiB = 40 MiB), 0.75 x 56 x 4k, 1.5 x 72 x 4k,
	 * 0.75 x 1536 x 4k, 1.5 x 2560 x 4k */
	const uint64_t want[] = { 168 * K, 256 * K, 432 * K, 512 * K, 1024 * K, 2048 * K,
				  4096 * K, 4608 * K, 8192 * K, 15360 * K, 16384 * K, 32768 * K };

	(void)state;
	mt_config_init(&base);
	base.block = 4096;
	assert_int_equal(mt_sweep_create(&sw, &base), 0);
	/* nothing known: refused, with the probe as the way out */
	assert_int_equal(mt_sweep_set_regions_auto(sw, lv, 0, 4096, &msg), -ENOENT);
	assert_non_null(strstr(msg.hint, "memtlb probe -o p.json"));
	level(&lv[0], "L1 dTLB", 56, 72);
	level(&lv[1], "L2 TLB", 1536, 2560);
	/* only levels of the page size mapped count */
	assert_int_equal(mt_sweep_set_regions_auto(sw, lv, 2, 2u << 20, &msg), -ENOENT);
	assert_int_equal(mt_sweep_set_regions_auto(sw, lv, 2, 4096, &msg), 0);
	assert_int_equal(mt_sweep_points(sw), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		mt_sweep_point_config(sw, i, &cfg);
		assert_int_equal(cfg.region, want[i]);
	}
	/* rounded to the block, never 0, never twice */
	base.block = 1u << 20;
	assert_int_equal(mt_sweep_set_regions_auto(sw, lv, 2, 4096, &msg), 0);
	for (size_t i = 0; i < mt_sweep_points(sw); i++) {
		mt_sweep_point_config(sw, i, &cfg);
		assert_true(cfg.region && cfg.region % (1u << 20) == 0);
		if (i) {
			struct mt_config prev;

			mt_sweep_point_config(sw, i - 1, &prev);
			assert_true(prev.region < cfg.region);
		}
	}
	mt_sweep_destroy(sw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pt_against_caches),
		cmocka_unit_test(last_level),
		cmocka_unit_test(agreement),
		cmocka_unit_test(knee_from_probe),
		cmocka_unit_test(pressure_says_probe),
		cmocka_unit_test(region_auto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
