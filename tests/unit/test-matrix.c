// SPDX-License-Identifier: MIT
/* The page-size matrix (analysis/matrix.h): rows, differences to base, verdicts. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/matrix.h"
#include "model/report.h"
#include "model/result.h"

#define REGION (4u << 20)
#define BLOCKS (REGION / 4096)

static void phase(struct mt_phase_stat *ps, const char *name, double mean_ns, double sd)
{
	snprintf(ps->name, sizeof(ps->name), "%s", name);
	ps->time_ns = (struct mt_summary){ .n = 10, .mean = mean_ns, .stddev = sd,
					   .min = mean_ns, .median = mean_ns, .max = mean_ns };
}

/*
 * A point: pages, first touch (write_0) of touch_ns for the region with
 * faults per block, steady read_4 at steady ns per block, proven or not.
 */
static void point(struct mt_report *rep, const char *pages, uint64_t folio, double touch_ns,
		  double faults, double steady, double sd, bool proven)
{
	struct mt_result *r;

	assert_int_equal(mt_result_create(&r, 2, 0), 0);
	r->region = REGION;
	r->block = 4096;
	r->blocks = BLOCKS;
	assert_int_equal(mt_result_set_param(r, "pages", pages), 0);
	phase(&r->phases[0], "write_0", touch_ns, touch_ns / 100);
	r->phases[0].derived[MT_DERIVED_FAULTS_PER_BLOCK] = faults;
	r->phases[0].has_derived |= 1u << MT_DERIVED_FAULTS_PER_BLOCK;
	phase(&r->phases[1], "read_4", steady * BLOCKS, sd * BLOCKS);
	r->map.valid = r->map.scanned = true;
	r->map.scan.len = REGION;
	if (folio == 4096)
		r->map.scan.base = proven ? REGION : REGION / 2;
	else
		mt_mapinfo_add_folio(&r->map.scan, folio, proven ? REGION : REGION / 2);
	r->map.page_check = proven ? 1 : -1;
	assert_int_equal(mt_report_add(rep, r), 0);
}

static void test_rows_and_verdicts(void **state)
{
	struct mt_matrix_row rows[8];
	struct mt_matrix mats[4];
	struct mt_report *rep;
	size_t n;

	(void)state;
	assert_int_equal(mt_report_create(&rep, "sweep"), 0);
	rep->system.page_size = 4096;
	/* base: 1 fault a block, 10 ms to touch; steady 6 ns */
	point(rep, "base", 4096, 10e6, 1.0, 6.0, 0.01, true);
	/* 64k: 1/16 of the faults, 4 ms; steady 5 ns: cheapest both ways */
	point(rep, "mthp:64k", 65536, 4e6, 1.0 / 16, 5.0, 0.01, true);
	/* 16k: cheaper still, but not proven: no verdict */
	point(rep, "mthp:16k", 16384, 1e6, 0.25, 1.0, 0.01, false);
	assert_int_equal(mt_matrix_build(rep, "read_4", rows, 8, &n, mats, 4), 1);
	assert_int_equal(n, 3);
	assert_int_equal(mats[0].region, REGION);
	assert_int_equal(mats[0].n, 3);
	assert_string_equal(rows[1].pages, "mthp:64k");
	assert_int_equal(rows[1].folio, 65536);
	assert_true(rows[1].proven && rows[1].share == 1.0);
	assert_false(rows[2].proven);
	assert_true(rows[2].share == 0.5);
	/* per fault: the touch over its faults; per 4 KiB: over the region's pages */
	assert_true(fabs(rows[0].fault_ns - 10e6 / BLOCKS) < 1e-6);
	assert_true(fabs(rows[1].fault_ns - 4e6 / (BLOCKS / 16.0)) < 1e-6);
	assert_true(fabs(rows[1].touch_ns_4k - 4e6 / BLOCKS) < 1e-6);
	assert_true(fabs(rows[1].steady_ns - 5.0) < 1e-9);
	assert_true(isfinite(rows[1].steady_ci95) && rows[1].steady_ci95 > 0);
	/* against base at the same point: -1 ns, its interval well under it */
	assert_true(isnan(rows[0].vs_base_ns));
	assert_true(fabs(rows[1].vs_base_ns + 1.0) < 1e-9);
	assert_true(rows[1].vs_base_ci95 < 0.1);
	/* the verdicts pass over the unproven 16k */
	assert_int_equal(mats[0].touch_best, 1);
	assert_int_equal(mats[0].touch_next, 0);
	assert_int_equal(mats[0].steady_best, 1);
	assert_int_equal(mats[0].steady_next, 0);
	assert_true(fabs(mats[0].steady_margin - 1.0) < 1e-9);
	mt_report_destroy(rep);
}

/* One --pages value, or none: nothing to set side by side. */
static void test_no_matrix(void **state)
{
	struct mt_matrix_row rows[4];
	struct mt_matrix mats[2];
	struct mt_report *rep;
	size_t n;

	(void)state;
	assert_int_equal(mt_report_create(&rep, "sweep"), 0);
	point(rep, "base", 4096, 10e6, 1.0, 6.0, 0.01, true);
	assert_int_equal(mt_matrix_build(rep, "read_4", rows, 4, &n, mats, 2), 0);
	assert_int_equal(n, 0);
	mt_report_destroy(rep);
}

/* Each row's first touch split by the report's roofline calibration. */
static void test_roofline_split(void **state)
{
	struct mt_matrix_row rows[4];
	struct mt_matrix mats[2];
	struct mt_report *rep = NULL;
	struct mt_roofline *rf;
	size_t n;

	(void)state;
	assert_int_equal(mt_report_create(&rep, "sweep"), 0);
	rf = &rep->roofline;
	rf->measured = true;
	/* 4 KiB at 4.096 bytes/ns: 1000 ns; 64 KiB not measured; floor 500 ns */
	rf->n_chunks = 1;
	rf->chunks[0] = (struct mt_roofline_clear){ MT_CLEAR_REP_STOSB, 4096, 4.096 };
	rf->floor_ns = 500.0;
	rf->floor_touches = rf->floor_faults = 4096;
	/* base: 2000 ns a fault over the whole region */
	point(rep, "base", 4096, 2000.0 * BLOCKS, 1.0, 6.0, 0.01, true);
	point(rep, "mthp:64k", 65536, 4e6, 1.0 / 16, 5.0, 0.01, true);
	assert_int_equal(mt_matrix_build(rep, "read_4", rows, 4, &n, mats, 2), 1);
	assert_true(fabs(rows[0].split.zero_ns - 1000.0) < 1e-9);
	assert_true(fabs(rows[0].split.rest_ns - 500.0) < 1e-6);
	assert_true(fabs(rows[0].split.ceiling_pct - 50.0) < 1e-6);
	/* no clear figure at 64 KiB: no zeroing, no rest, the floor stands */
	assert_true(isnan(rows[1].split.zero_ns) && isnan(rows[1].split.rest_ns));
	assert_true(fabs(rows[1].split.floor_ns - 500.0) < 1e-12);
	mt_report_destroy(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_verdicts),
		cmocka_unit_test(test_no_matrix),
		cmocka_unit_test(test_roofline_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
