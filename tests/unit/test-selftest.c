// SPDX-License-Identifier: MIT
/* memtlb selftest's rules on fixed points (analysis/selftest.h) and its KTAP (report/ktap.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/selftest.h"
#include "model/reach.h"
#include "model/result.h"
#include "report/ktap.h"
#include "sys/sysinfo.h"

#define MIB (1ull << 20)

static void level(struct mt_reach *r, const char *name, uint64_t page, uint64_t lo, uint64_t hi,
		  const char *source)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->page_size = page;
	r->entries_min = lo;
	r->entries_max = hi;
	snprintf(r->source, sizeof(r->source), "%s", source);
}

static void cache(struct mt_sysinfo *si, unsigned int lvl, const char *type, uint64_t size)
{
	struct mt_cache *c = &si->caches[si->n_caches++];

	c->level = lvl;
	snprintf(c->type, sizeof(c->type), "%s", type);
	c->size = size;
}

/* One curve judged from scratch, both knee rules ended. */
static void judge(const struct mt_selftest_curve *c, const struct mt_reach *lv, size_t n_lv,
		  const struct mt_sysinfo *si, struct mt_selftest_result *e,
		  struct mt_selftest_result *a)
{
	struct mt_knee_opts ko;

	mt_knee_opts_init(&ko);
	mt_selftest_init(e);
	mt_selftest_init(a);
	assert_int_equal(mt_selftest_judge_curve(c, lv, n_lv, si, &ko, e, a), 0);
	mt_selftest_knees_end(e, a);
}

/* Every check has a name, each its own: KTAP's names are unique. */
static void names_once(void **state)
{
	(void)state;
	for (int i = 0; i < MT_SELFTEST_N; i++) {
		assert_non_null(mt_selftest_desc(i));
		assert_true(strlen(mt_selftest_desc(i)->name) > 0);
		assert_null(strchr(mt_selftest_desc(i)->name, '#'));
		for (int k = 0; k < i; k++)
			assert_string_not_equal(mt_selftest_desc(i)->name, mt_selftest_desc(k)->name);
	}
	assert_null(mt_selftest_desc(MT_SELFTEST_N));
}

/* A write_0 phase whose minor faults were samples[0..n), with a page scan of huge bytes. */
static struct mt_result *fault_run(uint64_t region, const double *samples, size_t n,
				   bool scanned, uint64_t huge)
{
	struct mt_result *r;
	struct mt_counter_stat *cs;
	double sorted[8];

	assert_int_equal(mt_result_create(&r, 1, 1), 0);
	r->region = region;
	snprintf(r->events[0].name, sizeof(r->events[0].name), "minor-faults");
	snprintf(r->phases[0].name, sizeof(r->phases[0].name), "write_0");
	r->phases[0].time_ns.n = n;
	cs = &r->phases[0].counters[0];
	cs->state = MT_COUNTER_OK;
	memcpy(sorted, samples, n * sizeof(*samples));
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (sorted[k] < sorted[i]) {
				double t = sorted[i];

				sorted[i] = sorted[k];
				sorted[k] = t;
			}
	cs->s.n = n;
	cs->s.min = sorted[0];
	cs->s.max = sorted[n - 1];
	cs->s.median = sorted[n / 2];
	r->map.scanned = scanned;
	r->map.scan.len = region;
	r->map.scan.huge = huge;
	r->map.scan.base = region - huge;
	return r;
}

static void faults_exact(void **state)
{
	struct mt_selftest_result out;
	struct mt_result *r;

	(void)state;
	/* base pages: 16 MiB / 4 KiB, the median of three; one stray fault is not the kernel's */
	r = fault_run(16 * MIB, (double[]){ 4096, 4097, 4096 }, 3, true, 0);
	mt_selftest_judge_faults(r, 4096, 2 * MIB, false, &out);
	assert_int_equal(out.verdict, MT_SELFTEST_PASS);
	mt_result_destroy(r);
	/* one fault short on most iterations: the count is wrong */
	r = fault_run(16 * MIB, (double[]){ 4095, 4095, 4096 }, 3, true, 0);
	mt_selftest_judge_faults(r, 4096, 2 * MIB, false, &out);
	assert_int_equal(out.verdict, MT_SELFTEST_FAIL);
	assert_non_null(strstr(out.reason, "4095 minor faults, expected 4096"));
	mt_result_destroy(r);
	/* THP proven: one fault per 2 MiB */
	r = fault_run(16 * MIB, (double[]){ 8, 8, 8 }, 3, true, 16 * MIB);
	mt_selftest_judge_faults(r, 4096, 2 * MIB, true, &out);
	assert_int_equal(out.verdict, MT_SELFTEST_PASS);
	mt_result_destroy(r);
	/* THP asked, base pages got (shmem_enabled never): a skip, never a fail */
	r = fault_run(16 * MIB, (double[]){ 4096, 4096, 4096 }, 3, true, 0);
	mt_selftest_judge_faults(r, 4096, 2 * MIB, true, &out);
	assert_int_equal(out.verdict, MT_SELFTEST_SKIP);
	assert_non_null(strstr(out.reason, "THP not obtained"));
	mt_result_destroy(r);
	/* THP asked and nothing can prove it */
	r = fault_run(16 * MIB, (double[]){ 8, 8, 8 }, 3, false, 0);
	mt_selftest_judge_faults(r, 4096, 2 * MIB, true, &out);
	assert_int_equal(out.verdict, MT_SELFTEST_SKIP);
	mt_result_destroy(r);
	/* THP proven, and 9 faults: a base page fault somewhere in it */
	r = fault_run(16 * MIB, (double[]){ 9, 9, 9 }, 3, true, 16 * MIB);
	mt_selftest_judge_faults(r, 4096, 2 * MIB, true, &out);
	assert_int_equal(out.verdict, MT_SELFTEST_FAIL);
	mt_result_destroy(r);
}

static void levels_bracket(void **state)
{
	struct mt_reach cpuid[2], probe[2];
	struct mt_selftest_result out;

	(void)state;
	level(&cpuid[0], "L1 dTLB", 4096, 96, 96, "cpuid");
	level(&cpuid[1], "L2 dTLB", 4096, 2048, 2048, "cpuid");
	/* the probe's L1 step around cpuid's count: within */
	level(&probe[0], "L1 dTLB", 4096, 88, 104, "probe");
	mt_selftest_judge_levels(probe, 1, cpuid, 2, 4096, "", &out);
	assert_int_equal(out.verdict, MT_SELFTEST_PASS);
	/* the L2 the probe did not see is said, not judged */
	assert_int_equal(out.n_diag, 2);
	assert_non_null(strstr(out.diag[1], "L2 dTLB: cpuid 2048 entries, no step"));
	/* within the stated margin: 25% below the measured range's low end */
	level(&probe[1], "L2 TLB", 4096, 1600, 2560, "probe");
	mt_selftest_judge_levels(probe, 2, cpuid, 2, 4096, "", &out);
	assert_int_equal(out.verdict, MT_SELFTEST_PASS);
	/* a hypervisor's filtered cpuid: far outside the measured step */
	level(&probe[1], "L2 TLB", 4096, 3000, 3600, "probe");
	mt_selftest_judge_levels(probe, 2, cpuid, 2, 4096, "", &out);
	assert_int_equal(out.verdict, MT_SELFTEST_FAIL);
	assert_non_null(strstr(out.reason, "L2 dTLB: cpuid's 2048 entries outside"));
	/* no step found: a skip with the probe's reason */
	mt_selftest_judge_levels(probe, 0, cpuid, 2, 4096, "2 MiB pages save no translation",
				 &out);
	assert_int_equal(out.verdict, MT_SELFTEST_SKIP);
	assert_string_equal(out.reason, "2 MiB pages save no translation");
	/* cpuid reports none */
	mt_selftest_judge_levels(probe, 2, cpuid, 0, 4096, "", &out);
	assert_int_equal(out.verdict, MT_SELFTEST_SKIP);
	/* a further translation knee has no cpuid counterpart */
	level(&probe[0], "further translation knee", 4096, 8192, 16384, "probe");
	mt_selftest_judge_levels(probe, 1, cpuid, 2, 4096, "", &out);
	assert_int_equal(out.verdict, MT_SELFTEST_SKIP);
}

/* Seed 000's T7-2 LDOM read_4 (us) per block: 8 KiB blocks, 8 KiB pages. */
static const double seed_x_mib[] = { 256, 320, 384, 448, 512, 576, 640, 704, 768 };
static const double no_patch_us[] = { 888.64, 1096.16, 1311.02, 1534.28, 1741.04,
				      10885.34, 20029.18, 29174.22, 38330.03 };
static const double patch_us[] = { 885.33, 1097.02, 1312.44, 1533.70, 1736.21,
				   1958.27, 2185.42, 2392.41, 2597.53 };

static void t7(struct mt_sysinfo *si, struct mt_reach *lv)
{
	memset(si, 0, sizeof(*si));
	cache(si, 1, "data", 16 << 10);
	cache(si, 2, "unified", 256 << 10);
	cache(si, 3, "unified", 8 << 20);
	level(lv, "L1 dTLB", 8192, 128, 128, "probe");
}

static void judge_us(const double *us, const struct mt_reach *lv, size_t n_lv,
		     const struct mt_sysinfo *si, struct mt_selftest_result *e,
		     struct mt_selftest_result *a)
{
	double x[9], y[9];
	struct mt_selftest_curve c = { .x = x, .y = y, .n = 9, .page = 8192, .block = 8192 };

	for (int i = 0; i < 9; i++) {
		x[i] = seed_x_mib[i] * MIB;
		y[i] = us[i] * 1000 / (x[i] / 8192);
	}
	judge(&c, lv, n_lv, si, e, a);
}

/* Seed 000: the TSB's jump is no level's; the patched curve has no knee. */
static void seed000(void **state)
{
	struct mt_selftest_result e, a;
	struct mt_sysinfo si;
	struct mt_reach lv[2];

	(void)state;
	t7(&si, lv);
	judge_us(no_patch_us, lv, 1, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_FAIL);
	assert_non_null(strstr(e.reason, "at 512m -> 576m"));
	assert_int_equal(a.verdict, MT_SELFTEST_SKIP);
	judge_us(patch_us, lv, 1, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_PASS);
	assert_int_equal(a.verdict, MT_SELFTEST_SKIP);
	/*
	 * Were the kernel's 1 MiB TSB declared a level (64 Ki x 8 KiB), it
	 * would explain the jump: why the fixtures declare the hardware alone.
	 */
	level(&lv[1], "L2 TSB", 8192, 65536, 65536, "probe");
	judge_us(no_patch_us, lv, 2, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_PASS);
	assert_int_equal(a.verdict, MT_SELFTEST_PASS);
}

/* 4 KiB pages, 32 MiB of L3: x regions, y with one step of 3x at step_at. */
static void curve(double *x, double *y, size_t n, double first, size_t step_at)
{
	for (size_t i = 0; i < n; i++) {
		x[i] = first * (double)(1u << i);
		y[i] = i >= step_at ? 30 : 10;
	}
}

static void explanations(void **state)
{
	double x[8], y[8];
	struct mt_selftest_result e, a;
	struct mt_sysinfo si = { 0 };
	struct mt_reach lv[2];
	struct mt_selftest_curve c = { .x = x, .y = y, .n = 8, .page = 4096, .block = 4096 };

	(void)state;
	cache(&si, 3, "unified", 32 << 20);
	/* 1m..128m, a step 8m -> 16m; the L2 TLB (2048 x 4 KiB = 8 MiB) explains it */
	curve(x, y, 8, 1.0 * MIB, 4);
	level(&lv[0], "L2 dTLB", 4096, 2048, 2048, "cpuid");
	judge(&c, lv, 1, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_PASS);
	assert_int_equal(a.verdict, MT_SELFTEST_PASS);
	/* within one step: a reach of 4 MiB is one step before the knee's 8m -> 16m */
	level(&lv[0], "L2 dTLB", 4096, 1024, 1024, "cpuid");
	judge(&c, lv, 1, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_PASS);
	assert_int_equal(a.verdict, MT_SELFTEST_PASS);
	/* two steps away (2 MiB): not the level's, and no cache boundary: both fail */
	level(&lv[0], "L2 dTLB", 4096, 512, 512, "cpuid");
	judge(&c, lv, 1, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_FAIL);
	assert_int_equal(a.verdict, MT_SELFTEST_FAIL);
	/* a probe's page-walk cache explains it (and predicts nothing) */
	level(&lv[1], "further translation knee", 4096, 3000, 3500, "probe");
	judge(&c, lv, 2, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_PASS);
	assert_non_null(strstr(e.diag[0], "page-walk cache"));
	/* the page tables leave L3: 4 GiB..16 GiB of 4 KiB pages hold 8..32 MiB of PTEs */
	curve(x, y, 8, 512.0 * MIB, 4);
	judge(&c, NULL, 0, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_PASS);
	assert_non_null(strstr(e.diag[0], "leave L3"));
	assert_int_equal(a.verdict, MT_SELFTEST_SKIP);
	/* a knee whose points vary by more than 25% between rounds: not judged */
	curve(x, y, 8, 1.0 * MIB, 4);
	c.cv = (double[]){ 0.01, 0.01, 0.01, 0.01, 0.4, 0.01, 0.01, 0.01 };
	judge(&c, NULL, 0, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_PASS);
	assert_non_null(strstr(e.diag[0], "uncertain"));
	/* fewer than 3 points: nothing to judge */
	c.n = 2;
	judge(&c, NULL, 0, &si, &e, &a);
	assert_int_equal(e.verdict, MT_SELFTEST_SKIP);
}

static void ktap_lines(void **state)
{
	struct mt_selftest_result r[3];
	char *buf = NULL;
	size_t len = 0;
	struct mt_ktap k;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	for (int i = 0; i < 3; i++)
		mt_selftest_init(&r[i]);
	r[0].verdict = MT_SELFTEST_PASS;
	mt_selftest_diag(&r[0], "two\nlines");
	mt_selftest_set(&r[1], MT_SELFTEST_FAIL, "a # SKIP in a reason is no directive");
	mt_selftest_set(&r[2], MT_SELFTEST_SKIP, "cannot run here");
	mt_ktap_begin(&k, f, 3);
	mt_ktap_result(&k, "a", &r[0]);
	mt_ktap_result(&k, "b", &r[1]);
	mt_ktap_result(&k, "c", &r[2]);
	assert_int_equal(mt_ktap_end(&k), 0);
	fclose(f);
	assert_string_equal(buf, "KTAP version 1\n1..3\n"
			    "# a: two lines\n"
			    "ok 1 a\n"
			    "not ok 2 b # a   SKIP in a reason is no directive\n"
			    "ok 3 c # SKIP cannot run here\n"
			    "# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0\n");
	assert_int_equal(mt_ktap_exit_code(&k), MT_KSFT_FAIL);
	free(buf);
	/* kselftest's codes: a skip is never a pass */
	k = (struct mt_ktap){ .plan = 2, .n = 2, .skip = 2 };
	assert_int_equal(mt_ktap_exit_code(&k), MT_KSFT_SKIP);
	k = (struct mt_ktap){ .plan = 2, .n = 2, .pass = 1, .skip = 1 };
	assert_int_equal(mt_ktap_exit_code(&k), MT_KSFT_PASS);
	k = (struct mt_ktap){ .plan = 2, .n = 1, .pass = 1 };
	assert_int_equal(mt_ktap_exit_code(&k), MT_KSFT_FAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_once),
		cmocka_unit_test(faults_exact),
		cmocka_unit_test(levels_bracket),
		cmocka_unit_test(seed000),
		cmocka_unit_test(explanations),
		cmocka_unit_test(ktap_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
