// SPDX-License-Identifier: MIT
/* Fits of time on counts (stats/fit.h) and TLB reach (model/reach.h). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/reach.h"
#include "model/result.h"
#include "stats/fit.h"
#include "sys/sysinfo.h"
#include "sys/tlbdesc.h"

static void fit_exact_line(void **state)
{
	/* write_0 of a region sweep: ns = 2000 + 850 x faults, exactly. */
	double x[] = { 4096, 8192, 16384, 32768, 65536 }, y[5];
	struct mt_fit f;

	(void)state;
	for (int i = 0; i < 5; i++)
		y[i] = 2000 + 850 * x[i];
	assert_int_equal(mt_fit_linear(x, y, 5, &f), 0);
	assert_true(fabs(f.slope - 850) < 1e-9);
	assert_true(fabs(f.intercept - 2000) < 1e-3);
	assert_true(fabs(f.r2 - 1) < 1e-12);
	assert_int_equal(f.n, 5);
}

static void fit_against_reference(void **state)
{
	/*
	 * Anscombe's first quartet: slope 0.5001, intercept 3.0001, r2 0.6665
	 * (the published figures, to 4 digits).
	 */
	double x[] = { 10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5 };
	double y[] = { 8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68 };
	struct mt_fit f;

	(void)state;
	assert_int_equal(mt_fit_linear(x, y, 11, &f), 0);
	assert_true(fabs(f.slope - 0.5001) < 1e-4);
	assert_true(fabs(f.intercept - 3.0001) < 1e-4);
	assert_true(fabs(f.r2 - 0.6665) < 1e-4);
}

static void fit_large_counts(void **state)
{
	/* 16g of 4k pages: x near 4e6, centred sums keep the slope. */
	double x[] = { 4194304, 4194305, 4194306, 4194307 };
	double y[] = { 1e9, 1e9 + 150, 1e9 + 300, 1e9 + 450 };
	struct mt_fit f;

	(void)state;
	assert_int_equal(mt_fit_linear(x, y, 4, &f), 0);
	assert_true(fabs(f.slope - 150) < 1e-3);
}

static void fit_refuses(void **state)
{
	double x[] = { 1, 1, 1 }, y[] = { 1, 2, 3 }, bad[] = { 1, NAN, 3 };
	struct mt_fit f;

	(void)state;
	assert_int_equal(mt_fit_linear(x, y, 2, &f), -EINVAL);
	assert_int_equal(mt_fit_linear(x, y, 3, &f), -EINVAL);	/* x constant */
	assert_int_equal(mt_fit_linear(y, bad, 3, &f), -EINVAL);
}

static void reach_from_cpuid(void **state)
{
	/* Zen 3: L1 dTLB 64 x 4K/2M, L2 2048 x 4K/2M, instruction TLBs left out. */
	struct mt_sysinfo si = { 0 };
	struct mt_reach r[MT_REACH_MAX];
	const unsigned int l1[4] = { 0xff40ff40, 0xff40ff40, 0, 0 };
	const unsigned int l2[4] = { 0x48002200, 0x68004200, 0, 0 };
	size_t n;

	(void)state;
	mt_sysinfo_tlb_amd(&si, l1, l2, NULL);
	n = mt_reach_from_sysinfo(&si, r, MT_REACH_MAX);
	assert_true(n >= 3);
	assert_string_equal(r[0].name, "L1 dTLB");
	assert_int_equal(r[0].page_size, 4096);
	assert_int_equal(mt_reach_max(&r[0]), 64 * 4096);
	for (size_t i = 0; i < n; i++)
		assert_null(strstr(r[i].name, "iTLB"));
	/* The 8 MiB L2 reach explains a knee 4m -> 16m, 8m -> 16m, not 1m -> 2m. */
	int l2i = mt_reach_explain(r, n, 4096, 4u << 20, 16u << 20);

	assert_true(l2i >= 0);
	assert_int_equal(mt_reach_max(&r[l2i]), 8u << 20);
	assert_int_equal(mt_reach_explain(r, n, 4096, 1u << 20, 2u << 20), -1);
	assert_int_equal(mt_reach_explain(r, n, 4096, 8u << 20, 16u << 20), l2i);
	/* Not for another page size. */
	assert_int_equal(mt_reach_explain(r, n, 1u << 30, 4u << 20, 16u << 20), -1);
}

static void reach_probe_range(void **state)
{
	struct mt_reach r = { .name = "L2 dTLB", .page_size = 4096, .entries_min = 1536,
			      .entries_max = 2560, .source = "probe" };
	char buf[96];

	(void)state;
	/* 6..10 MiB overlaps 8m -> 16m and 4m -> 8m, not 16m -> 32m or 2m -> 4m. */
	assert_int_equal(mt_reach_explain(&r, 1, 4096, 8u << 20, 16u << 20), 0);
	assert_int_equal(mt_reach_explain(&r, 1, 4096, 4u << 20, 8u << 20), 0);
	assert_int_equal(mt_reach_explain(&r, 1, 4096, 16u << 20, 32u << 20), -1);
	assert_int_equal(mt_reach_explain(&r, 1, 4096, 2u << 20, 4u << 20), -1);
	mt_reach_pressure(&r, 1ull << 30, buf, sizeof(buf));
	assert_string_equal(buf, "102..171 x L2 dTLB reach (1536..2560 x 4.0 KiB, probe)");
	/* A 96-entry L1 against 1 GiB: 2731 times, never 2.73e+03 */
	r = (struct mt_reach){ .name = "L1 dTLB", .page_size = 4096, .entries_min = 96,
			       .entries_max = 96, .source = "cpuid" };
	mt_reach_pressure(&r, 1ull << 30, buf, sizeof(buf));
	assert_string_equal(buf, "2731 x L1 dTLB reach (96 x 4.0 KiB)");
	mt_reach_pressure(&r, 96 * 4096 / 4, buf, sizeof(buf));
	assert_string_equal(buf, "0.25 x L1 dTLB reach (96 x 4.0 KiB)");
}

static void page_table_bytes(void **state)
{
	(void)state;
	/* 1 GiB of 4K pages: 262144 PTEs, 512 PMD entries, 1 PUD entry. */
	assert_int_equal(mt_reach_pt_bytes(1ull << 30, 4096), (262144 + 512 + 1) * 8);
	/* With 2M pages: 512 PMD entries, 1 PUD. */
	assert_int_equal(mt_reach_pt_bytes(1ull << 30, 2u << 20), (512 + 1) * 8);
	assert_int_equal(mt_reach_pt_bytes(4096, 4096), 8);
	assert_int_equal(mt_reach_pt_bytes(4096, 0), 0);
}

static void leaf2_descriptors(void **state)
{
	/* A Nehalem: 0x5a DTLB0 2M, 0x03 DTLB 4K, 0xca STLB 512 x 4K (and caches). */
	const unsigned int neh[4] = { 0x55035a01, 0x00f0b2ff, 0, 0x00ca0000 };
	/* This machine's (a KVM guest on a recent Xeon): caches in leaf 4, TLBs in 0x18. */
	const unsigned int vm[4] = { 0x00feff01, 0x000000f0, 0, 0 };
	const unsigned int invalid[4] = { 0x80000301, 0, 0, 0 };
	struct mt_sysinfo si = { 0 };
	struct mt_reach r[MT_REACH_MAX];
	size_t n;

	(void)state;
	assert_int_equal(mt_tlbdesc_decode(&si, neh), 5);	/* 5a 03 55 b2 ca */
	n = mt_reach_from_sysinfo(&si, r, MT_REACH_MAX);
	assert_int_equal(n, 3);	/* 5a: 2M (4M left out), 03: 4K, ca: 4K */
	assert_int_equal(mt_reach_max(&r[1]), 64 * 4096);
	assert_string_equal(r[2].name, "L2 TLB");
	assert_int_equal(mt_reach_max(&r[2]), 512 * 4096);
	memset(&si, 0, sizeof(si));
	assert_int_equal(mt_tlbdesc_decode(&si, vm), -ENODATA);
	assert_int_equal(si.n_tlbs, 0);
	assert_int_equal(mt_tlbdesc_decode(&si, invalid), 0);	/* bit 31: no descriptors */
}

/* A region sweep: write_0 costs 800 ns a fault plus 5 us; reads fault never. */
static struct mt_result *point(uint64_t region, bool with_event)
{
	struct mt_result *r;
	uint64_t blocks = region / 4096;

	assert_int_equal(mt_result_create(&r, 2, with_event ? 1 : 0), 0);
	r->region = region;
	r->block = 4096;
	r->blocks = blocks;
	if (with_event) {
		snprintf(r->events[0].name, sizeof(r->events[0].name), "minor-faults");
		r->events[0].role = MT_ROLE_MINOR_FAULTS;
	}
	snprintf(r->phases[0].name, sizeof(r->phases[0].name), "write_0");
	snprintf(r->phases[1].name, sizeof(r->phases[1].name), "read_0");
	r->phases[0].time_ns.mean = 5000 + 800.0 * blocks + (blocks % 3) * 10;
	r->phases[1].time_ns.mean = 40.0 * blocks;
	if (with_event) {
		r->phases[0].counters[0].state = MT_COUNTER_OK;
		r->phases[0].counters[0].s.mean = (double)blocks;
		r->phases[1].counters[0].state = MT_COUNTER_OK;
		r->phases[1].counters[0].s.mean = 0;
	} else {
		assert_int_equal(mt_result_set_extras(r, 1), 0);
		snprintf(r->extra_names[0], MT_EXTRA_NAME_MAX, "rusage.minflt");
		r->phases[0].extras[0].mean = (double)blocks;
		r->phases[0].has_extra = 1;
		r->phases[1].extras[0].mean = 0;
		r->phases[1].has_extra = 1;
	}
	return r;
}

static void fit_sweep(void **state)
{
	struct mt_result *res[5];
	struct mt_fit_row rows[MT_FIT_MAX];

	(void)state;
	for (int ev = 1; ev >= 0; ev--) {
		for (int i = 0; i < 5; i++)
			res[i] = point((16ull << 20) << i, ev);
		/* One fit: write_0 on the fault count; read_0's count never varies. */
		assert_int_equal(mt_fit_results(res, 5, rows, MT_FIT_MAX), 1);
		assert_string_equal(rows[0].phase, "write_0");
		assert_string_equal(rows[0].x, ev ? "minor-faults" : "rusage.minflt");
		assert_true(fabs(rows[0].fit.slope - 800) < 0.1);
		assert_true(rows[0].fit.r2 > 0.9999);
		assert_int_equal(rows[0].fit.n, 5);
		/* A point whose count is not supported: no fit rather than a wrong one. */
		if (ev) {
			res[2]->phases[0].counters[0].state = MT_COUNTER_UNSUPPORTED;
			assert_int_equal(mt_fit_results(res, 5, rows, MT_FIT_MAX), 0);
		}
		for (int i = 0; i < 5; i++)
			mt_result_destroy(res[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fit_exact_line),
		cmocka_unit_test(fit_against_reference),
		cmocka_unit_test(fit_large_counts),
		cmocka_unit_test(fit_refuses),
		cmocka_unit_test(reach_from_cpuid),
		cmocka_unit_test(reach_probe_range),
		cmocka_unit_test(page_table_bytes),
		cmocka_unit_test(leaf2_descriptors),
		cmocka_unit_test(fit_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
