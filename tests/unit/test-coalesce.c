// SPDX-License-Identifier: MIT
/*
 * Coalescing's verdict on fixed points (stats/coalesce), and the physical
 * layout's run count on fixed pagemap words (sys/mapinfo): no clock, no
 * machine.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "stats/coalesce.h"
#include "sys/mapinfo.h"

/* A level of 2048 entries rising from 2 to 50 ns, the grid by half octaves. */
static const uint64_t sizes[] = { 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384 };
#define N (sizeof(sizes) / sizeof(sizes[0]))

/* y(pages): the plateau up to reach, then the walk's cost. */
static double curve(uint64_t pages, uint64_t reach)
{
	return pages <= reach ? 2.0 : 50.0;
}

static void points(struct mt_coalesce_point *p, uint64_t s_reach, uint64_t c_reach, double ci)
{
	for (size_t i = 0; i < N; i++) {
		p[i] = (struct mt_coalesce_point){ .pages = sizes[i] };
		p[i].scattered_ns = curve(sizes[i], s_reach);
		p[i].contiguous_ns = curve(sizes[i], c_reach);
		p[i].scattered_ci95_ns = p[i].contiguous_ci95_ns = ci;
		p[i].diff_ns = p[i].scattered_ns - p[i].contiguous_ns;
		p[i].diff_ci95_ns = ci;
	}
}

/* 4-page coalescing: the contiguous step moves from 2048 to 8192 pages. */
static void reach_x4(void **state)
{
	struct mt_coalesce_point p[N];
	struct mt_coalesce_verdict v;

	(void)state;
	points(p, 2048, 8192, 0.5);
	mt_coalesce_judge(p, N, 2.0, 50.0, 0.4, &v);
	assert_int_equal(v.kind, MT_COALESCE_REACH);
	assert_int_equal(v.scattered_reach, 2048);
	assert_int_equal(v.contiguous_reach, 8192);
	assert_false(v.contiguous_beyond);
	assert_true(fabs(v.factor - 4.0) < 1e-9);
	assert_int_equal(v.apart_at, 3072);
	assert_true(fabs(v.apart_ns - 48.0) < 1e-9);
	assert_string_equal(mt_coalesce_mechanism(v.factor, "x86_64", "AuthenticAMD"),
			    "AMD PTE coalescing");
	assert_null(mt_coalesce_mechanism(v.factor, "x86_64", "GenuineIntel"));
	assert_null(mt_coalesce_mechanism(v.factor, "aarch64", NULL));
	/* a factor of the grid's half octaves rounds to the nearest power of two */
	assert_string_equal(mt_coalesce_mechanism(5.3, "x86_64", "HygonGenuine"),
			    "AMD PTE coalescing");
	assert_string_equal(mt_coalesce_mechanism(16.0, "aarch64", NULL), "arm64 contpte");
	assert_null(mt_coalesce_mechanism(1.5, "x86_64", "AuthenticAMD"));
	assert_null(mt_coalesce_mechanism(NAN, "x86_64", "AuthenticAMD"));
}

/* The contiguous variant never rises within the sizes: a lower bound. */
static void reach_beyond(void **state)
{
	struct mt_coalesce_point p[N];
	struct mt_coalesce_verdict v;

	(void)state;
	points(p, 2048, 1u << 30, 0.5);
	mt_coalesce_judge(p, N, 2.0, 50.0, 0.4, &v);
	assert_int_equal(v.kind, MT_COALESCE_REACH);
	assert_true(v.contiguous_beyond);
	assert_int_equal(v.contiguous_reach, 16384);
	assert_true(fabs(v.factor - 8.0) < 1e-9);
}

/* The same curve twice, within noise: not apart, the factor 1. */
static void not_apart(void **state)
{
	struct mt_coalesce_point p[N];
	struct mt_coalesce_verdict v;

	(void)state;
	points(p, 2048, 2048, 0.5);
	/* noise: a difference whose interval holds 0, one under min_ns */
	p[5].diff_ns = 1.0;
	p[5].diff_ci95_ns = 2.0;
	p[6].diff_ns = 0.3;
	p[6].diff_ci95_ns = 0.1;
	mt_coalesce_judge(p, N, 2.0, 50.0, 0.4, &v);
	assert_int_equal(v.kind, MT_COALESCE_NOT_APART);
	assert_int_equal(v.apart_at, 0);
	assert_true(isnan(v.apart_ns));
	assert_true(fabs(v.factor - 1.0) < 1e-9);
	/* one size apart alone is a burst, not a difference */
	p[7].diff_ns = 3.0;
	p[7].diff_ci95_ns = 1.0;
	mt_coalesce_judge(p, N, 2.0, 50.0, 0.4, &v);
	assert_int_equal(v.kind, MT_COALESCE_NOT_APART);
}

/* Cheaper past the level at two sizes, the step where it was: cheaper. */
static void cheaper(void **state)
{
	struct mt_coalesce_point p[N];
	struct mt_coalesce_verdict v;

	(void)state;
	points(p, 2048, 2048, 0.5);
	for (size_t i = 5; i < 7; i++) {
		p[i].contiguous_ns -= 3.0;
		p[i].diff_ns = 3.0;
	}
	mt_coalesce_judge(p, N, 2.0, 50.0, 0.4, &v);
	assert_int_equal(v.kind, MT_COALESCE_CHEAPER);
	assert_int_equal(v.apart_at, 6144);
	assert_true(fabs(v.apart_ns - 3.0) < 1e-9);
	/* a reach moved by one grid step (1.5x) is no larger entry */
	points(p, 2048, 3072, 0.5);
	mt_coalesce_judge(p, N, 2.0, 50.0, 0.4, &v);
	assert_true(fabs(v.factor - 1.5) < 1e-9);
	assert_int_equal(v.kind, MT_COALESCE_NOT_APART);	/* one size apart */
	p[4].diff_ns = 1.0;	/* and the next one too */
	mt_coalesce_judge(p, N, 2.0, 50.0, 0.4, &v);
	assert_int_equal(v.kind, MT_COALESCE_CHEAPER);
}

/* Above the half height from the first size: reach 0 (below the sizes), no factor. */
static void reach_below(void **state)
{
	struct mt_coalesce_point p[N];
	struct mt_coalesce_verdict v;

	(void)state;
	points(p, 0, 0, 0.5);
	mt_coalesce_judge(p, N, 2.0, 50.0, 0.4, &v);
	assert_int_equal(v.scattered_reach, 0);
	assert_true(isnan(v.factor));
	assert_int_equal(v.kind, MT_COALESCE_NOT_APART);
	assert_int_equal(mt_coalesce_kind_parse("reach"), MT_COALESCE_REACH);
	assert_string_equal(mt_coalesce_kind_name(MT_COALESCE_CHEAPER), "cheaper");
	assert_int_equal(mt_coalesce_kind_parse("bogus"), -1);
	assert_null(mt_coalesce_kind_name(MT_COALESCE_KINDS));
}

#define PM(pfn) (MT_PM_PRESENT | (uint64_t)(pfn))

/* Aligned runs from pagemap words: contiguous, shuffled, misaligned, absent. */
static void layout_runs(void **state)
{
	uint64_t pm[64];
	struct mt_pfn_layout l;

	(void)state;
	for (size_t i = 0; i < 64; i++)
		pm[i] = PM(0x1000 + i);
	memset(&l, 0, sizeof(l));
	/* in two batches: a group cut between them is carried over */
	assert_int_equal(mt_mapinfo_layout_of(pm, 30, &l), 0);
	assert_int_equal(mt_mapinfo_layout_of(pm + 30, 34, &l), 0);
	assert_int_equal(l.groups[0], 16);
	assert_int_equal(l.runs[0], 16);
	assert_int_equal(l.groups[1], 4);
	assert_int_equal(l.runs[1], 4);
	assert_true(fabs(mt_mapinfo_run_share(&l, 0) - 1.0) < 1e-12);
	/* contiguous but one page off alignment: no run at all */
	for (size_t i = 0; i < 64; i++)
		pm[i] = PM(0x1001 + i);
	memset(&l, 0, sizeof(l));
	assert_int_equal(mt_mapinfo_layout_of(pm, 64, &l), 0);
	assert_int_equal(l.runs[0], 0);
	assert_int_equal(l.runs[1], 0);
	/* pairs swapped: every 4-page group broken */
	for (size_t i = 0; i < 64; i++)
		pm[i] = PM(0x1000 + (i ^ 1));
	memset(&l, 0, sizeof(l));
	assert_int_equal(mt_mapinfo_layout_of(pm, 64, &l), 0);
	assert_int_equal(l.runs[0], 0);
	/* an absent page breaks its group alone */
	for (size_t i = 0; i < 64; i++)
		pm[i] = PM(0x1000 + i);
	pm[5] = 0;
	memset(&l, 0, sizeof(l));
	assert_int_equal(mt_mapinfo_layout_of(pm, 64, &l), 0);
	assert_int_equal(l.runs[0], 15);
	assert_int_equal(l.runs[1], 3);
	assert_true(fabs(mt_mapinfo_run_share(&l, 1) - 0.75) < 1e-12);
	/* PFNs hidden (not CAP_SYS_ADMIN): present pages read as PFN 0 */
	pm[0] = MT_PM_PRESENT;
	memset(&l, 0, sizeof(l));
	assert_int_equal(mt_mapinfo_layout_of(pm, 64, &l), -EPERM);
	/* nothing read: no share, never 0 */
	memset(&l, 0, sizeof(l));
	assert_true(isnan(mt_mapinfo_run_share(&l, 0)));
	assert_true(isnan(mt_mapinfo_run_share(&l, MT_PFN_RUNS)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reach_x4),
		cmocka_unit_test(reach_beyond),
		cmocka_unit_test(not_apart),
		cmocka_unit_test(cheaper),
		cmocka_unit_test(reach_below),
		cmocka_unit_test(layout_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
