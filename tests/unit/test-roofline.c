// SPDX-License-Identifier: MIT
/* The first-touch roofline's arithmetic (analysis/roofline.h) on fixed numbers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/roofline.h"
#include "model/roofline.h"

#define REGION (4u << 20)

/* A calibration: 4 KiB cleared at 4.096 bytes/ns (1000 ns), a floor of 500 ns. */
static void calibration(struct mt_roofline *rf)
{
	mt_roofline_init(rf);
	rf->measured = true;
	rf->reps = 5;
	rf->buffer = 128u << 20;
	rf->n_methods = 2;
	rf->methods[0] = (struct mt_roofline_clear){ MT_CLEAR_REP_STOSB, 2u << 20, 8.0 };
	rf->methods[1] = (struct mt_roofline_clear){ MT_CLEAR_MOVNTDQ, 2u << 20, 10.0 };
	rf->ceiling = MT_CLEAR_MOVNTDQ;
	rf->n_chunks = 2;
	rf->chunks[0] = (struct mt_roofline_clear){ MT_CLEAR_MOVNTDQ, 4096, 4.096 };
	rf->chunks[1] = (struct mt_roofline_clear){ MT_CLEAR_MOVNTDQ, 2u << 20, 10.0 };
	rf->floor_ns = 500.0;
	rf->floor_touches = rf->floor_faults = 5 * 16384;
}

/* zero + floor + rest is the total, and the ceiling share is the throughput's. */
static void test_parts_sum(void **state)
{
	struct mt_roofline_split sp;
	struct mt_roofline rf;

	(void)state;
	calibration(&rf);
	assert_true(fabs(mt_roofline_ceiling(&rf) - 10.0) < 1e-12);
	/* 1024 faults of 2000 ns each for 4 MiB */
	assert_int_equal(mt_roofline_split(&rf, 4096, 2000.0, REGION, 1024 * 2000.0, &sp), 0);
	assert_true(fabs(sp.gbps - 4.096) < 1e-12);
	assert_true(fabs(sp.zero_ns - 1000.0) < 1e-9);
	assert_true(fabs(sp.floor_ns - 500.0) < 1e-12);
	assert_true(fabs(sp.rest_ns - 500.0) < 1e-9);
	assert_true(fabs(sp.zero_ns + sp.floor_ns + sp.rest_ns - 2000.0) < 1e-9);
	assert_false(sp.inconsistent);
	/* 4 MiB in 2.048 ms is 2.048 bytes/ns: half of 4.096 */
	assert_true(fabs(sp.ceiling_pct - 50.0) < 1e-9);
}

/* Past 10% over the total the split is inconsistent; within it, a small minus. */
static void test_inconsistent(void **state)
{
	struct mt_roofline_split sp;
	struct mt_roofline rf;

	(void)state;
	calibration(&rf);
	/* 1500 against 1400: 7% over, kept, the rest -100 */
	assert_int_equal(mt_roofline_split(&rf, 4096, 1400.0, REGION, NAN, &sp), 0);
	assert_false(sp.inconsistent);
	assert_true(fabs(sp.rest_ns + 100.0) < 1e-9);
	assert_true(isnan(sp.ceiling_pct));
	/* 1500 against 1300: 15% over */
	assert_int_equal(mt_roofline_split(&rf, 4096, 1300.0, REGION, 1300.0 * 1024, &sp), 0);
	assert_true(sp.inconsistent);
	assert_true(isnan(sp.rest_ns));
	assert_true(isfinite(sp.zero_ns) && isfinite(sp.floor_ns));
}

/* A missing input leaves what it feeds absent, never 0. */
static void test_absent(void **state)
{
	struct mt_roofline_split sp;
	struct mt_roofline rf;

	(void)state;
	calibration(&rf);
	/* a folio size the calibration did not clear in: no zeroing, no rest */
	assert_int_equal(mt_roofline_split(&rf, 65536, 2000.0, REGION, 1e6, &sp), 0);
	assert_true(isnan(sp.gbps) && isnan(sp.zero_ns) && isnan(sp.rest_ns));
	assert_true(isnan(sp.ceiling_pct));
	assert_true(fabs(sp.floor_ns - 500.0) < 1e-12);
	assert_false(sp.inconsistent);
	/* the kernel's policy (folio 0), or no fault count: no zeroing, no rest */
	assert_int_equal(mt_roofline_split(&rf, 0, 2000.0, REGION, 1e6, &sp), 0);
	assert_true(isnan(sp.zero_ns) && isnan(sp.rest_ns));
	assert_int_equal(mt_roofline_split(&rf, 4096, NAN, REGION, 1e6, &sp), 0);
	assert_true(isfinite(sp.zero_ns) && isnan(sp.rest_ns) && isfinite(sp.ceiling_pct));
	/* a stray fault of memtlb's own is let through, up to 0.1% of the touches */
	rf.floor_faults++;
	assert_true(isfinite(mt_roofline_floor(&rf)));
	rf.floor_faults = rf.floor_touches + rf.floor_touches / 1000 + 1;
	assert_true(isnan(mt_roofline_floor(&rf)));
	/* a touch that took no fault: no floor, no rest */
	rf.floor_faults = rf.floor_touches - 1;
	assert_true(isnan(mt_roofline_floor(&rf)));
	assert_int_equal(mt_roofline_split(&rf, 4096, 2000.0, REGION, 1e6, &sp), 0);
	assert_true(isnan(sp.floor_ns) && isnan(sp.rest_ns) && isfinite(sp.zero_ns));
	/* no calibration at all */
	mt_roofline_init(&rf);
	assert_int_equal(mt_roofline_split(&rf, 4096, 2000.0, REGION, 1e6, &sp), 0);
	assert_true(isnan(sp.zero_ns) && isnan(sp.floor_ns) && isnan(sp.rest_ns));
	assert_true(isnan(mt_roofline_ceiling(&rf)));
	assert_int_equal(mt_roofline_split(NULL, 4096, 2000.0, REGION, 1e6, &sp), 0);
	assert_true(isnan(sp.zero_ns) && isnan(sp.floor_ns));
	assert_int_equal(mt_roofline_split(&rf, 4096, 2000.0, REGION, 1e6, NULL), -EINVAL);
}

/* The method names, one table both ways. */
static void test_method_names(void **state)
{
	(void)state;
	for (int m = 0; m < MT_CLEAR_METHODS; m++)
		assert_int_equal(mt_roofline_method_parse(mt_roofline_method_name(m)), m);
	assert_string_equal(mt_roofline_method_name(MT_CLEAR_REP_STOSB), "rep stosb");
	assert_null(mt_roofline_method_name(-1));
	assert_null(mt_roofline_method_name(MT_CLEAR_METHODS));
	assert_int_equal(mt_roofline_method_parse("memset"), -1);
	assert_int_equal(mt_roofline_method_parse(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_sum),
		cmocka_unit_test(test_inconsistent),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_method_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
