// SPDX-License-Identifier: MIT
/* compare --explain's arithmetic (analysis/explain.h) on fixed numbers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/explain.h"

#define PAGE 4096u
#define PMD (2u << 20)

static const struct mt_explain_qty none = { NAN, NAN, NAN };

static struct mt_explain_qty q(double mean, double var, double df)
{
	return (struct mt_explain_qty){ mean, var, df };
}

static void side_init(struct mt_explain_side *s, double ns)
{
	memset(s, 0, sizeof(*s));
	s->ns_per_block = q(ns, 0.01, 4);
	s->faults_per_block = s->ns_per_fault = s->misses_per_block = none;
	s->walk_ns = s->flushes_per_block = s->ns_per_flush = none;
}

static void in_init(struct mt_explain_in *in, double a, double b)
{
	memset(in, 0, sizeof(*in));
	in->page = PAGE;
	in->pmd = PMD;
	side_init(&in->a, a);
	side_init(&in->b, b);
}

static void one_size(struct mt_explain_side *s, uint64_t size, double share, uint64_t other)
{
	s->scanned = true;
	s->n_sizes = 2;
	s->size[0] = size;
	s->share[0] = share;
	s->size[1] = other;
	s->share[1] = 1.0 - share;
}

static double sum(const struct mt_explain *e)
{
	double s = 0.0;

	for (int t = 0; t < MT_EXPLAIN_TERMS; t++)
		if (e->term[t].present)
			s += e->term[t].ns;
	return s;
}

/* THP 100% -> 0%: the mix at the same report's per-size costs, the rest residual. */
static void test_mix(void **state)
{
	struct mt_explain_in in;
	struct mt_explain e;

	(void)state;
	in_init(&in, 10.0, 19.0);
	one_size(&in.a, PMD, 1.0, PAGE);
	one_size(&in.b, PMD, 0.0, PAGE);
	in.n_costs = 2;
	in.cost_size[0] = PAGE;
	in.cost[0] = q(18.0, 0.04, 4);
	in.cost_size[1] = PMD;
	in.cost[1] = q(10.0, 0.01, 4);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_true(e.term[MT_EXPLAIN_MIX].present);
	assert_float_equal(e.term[MT_EXPLAIN_MIX].ns, 8.0, 1e-12);
	assert_float_equal(e.term[MT_EXPLAIN_RESIDUAL].ns, 1.0, 1e-12);
	assert_float_equal(sum(&e), e.change_ns, 1e-12);
	assert_float_equal(e.term[MT_EXPLAIN_MIX].share, 8.0 / 9.0, 1e-12);
	assert_string_equal(e.term[MT_EXPLAIN_MIX].detail, "THP 100% -> 0%");
	/* the mix moved past MT_EXPLAIN_MIX_DOMINANT: faults and walks are in it */
	assert_false(e.term[MT_EXPLAIN_FAULTS].present);
	assert_false(e.term[MT_EXPLAIN_WALKS].present);
	assert_int_equal(e.rank[0], MT_EXPLAIN_MIX);
	assert_int_equal(e.rank[1], MT_EXPLAIN_RESIDUAL);
	/*
	 * The delta method: var = 1^2 x 0.04 + 1^2 x 0.01 (share moves of +1 and
	 * -1), df by Welch-Satterthwaite: 0.05^2 / (0.04^2/4 + 0.01^2/4) = 5.88.
	 */
	{
		double df = 0.05 * 0.05 / (0.04 * 0.04 / 4 + 0.01 * 0.01 / 4);
		double half = (e.term[MT_EXPLAIN_MIX].high - e.term[MT_EXPLAIN_MIX].low) / 2.0;

		assert_float_equal(e.term[MT_EXPLAIN_MIX].df, df, 1e-9);
		/* t(0.975, 5.882) = 2.45882 (Student's cdf integrated numerically) */
		assert_float_equal(half, 2.45882 * sqrt(0.05), 1e-4);
	}
}

/* A size no report priced: the mix is absent, said why, and all is residual. */
static void test_mix_unpriced(void **state)
{
	struct mt_explain_in in;
	struct mt_explain e;

	(void)state;
	in_init(&in, 10.0, 12.0);
	one_size(&in.a, 65536, 1.0, PAGE);
	one_size(&in.b, 65536, 0.0, PAGE);
	in.n_costs = 1;
	in.cost_size[0] = PAGE;
	in.cost[0] = q(12.0, 0.01, 4);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_false(e.term[MT_EXPLAIN_MIX].present);
	assert_non_null(strstr(e.term[MT_EXPLAIN_MIX].why, "mTHP 64k"));
	assert_float_equal(e.term[MT_EXPLAIN_RESIDUAL].ns, 2.0, 1e-12);
	assert_float_equal(e.term[MT_EXPLAIN_RESIDUAL].share, 1.0, 1e-12);

	/* no page scan on a side */
	in.a.scanned = false;
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_false(e.term[MT_EXPLAIN_MIX].present);
	assert_non_null(strstr(e.term[MT_EXPLAIN_MIX].why, "page scan"));
}

/*
 * Faults doubled at the same cost per fault: the count's term is the whole
 * change; the midpoint split sums exactly whatever both move.
 */
static void test_faults(void **state)
{
	struct mt_explain_in in;
	struct mt_explain e;

	(void)state;
	in_init(&in, 1000.0, 1500.0);
	in.a.faults_per_block = q(1.0, 0.0, INFINITY);
	in.b.faults_per_block = q(2.0, 0.0, INFINITY);
	in.a.ns_per_fault = q(500.0, 25.0, 4);
	in.b.ns_per_fault = q(500.0, 25.0, 4);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_float_equal(e.term[MT_EXPLAIN_FAULTS].ns, 500.0, 1e-9);
	assert_float_equal(e.term[MT_EXPLAIN_FAULT_COST].ns, 0.0, 1e-9);
	assert_float_equal(e.term[MT_EXPLAIN_RESIDUAL].ns, 0.0, 1e-9);
	assert_int_equal(e.rank[0], MT_EXPLAIN_FAULTS);
	/* var = (dx/2)^2 (25 + 25) = 12.5, counts exact */
	assert_float_equal(e.term[MT_EXPLAIN_FAULTS].var, 12.5, 1e-9);

	in.b.ns_per_fault = q(700.0, 25.0, 4);
	in.b.ns_per_block.mean = 2100.0;
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	/* d(x c) = 1 x 600 + 200 x 1.5 = 900 + 300 = 1200 = 2 x 700 - 1 x 500 */
	assert_float_equal(e.term[MT_EXPLAIN_FAULTS].ns, 600.0, 1e-9);
	assert_float_equal(e.term[MT_EXPLAIN_FAULT_COST].ns, 300.0, 1e-9);
	assert_float_equal(sum(&e), 1100.0, 1e-9);
	assert_float_equal(e.term[MT_EXPLAIN_RESIDUAL].ns, 200.0, 1e-9);

	/* no fault on one side (--populate): its cost is not needed, the other's stands */
	in.a.faults_per_block = q(0.0, 0.0, INFINITY);
	in.a.ns_per_fault = none;
	in.a.ns_per_block.mean = 100.0;
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_float_equal(e.term[MT_EXPLAIN_FAULTS].ns, 1400.0, 1e-9);
	assert_float_equal(e.term[MT_EXPLAIN_FAULT_COST].ns, 0.0, 1e-9);
	assert_float_equal(e.term[MT_EXPLAIN_RESIDUAL].ns, 600.0, 1e-9);
	/* a side with faults and no cost for them: absent */
	in.a.faults_per_block = q(1.0, 0.0, INFINITY);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_false(e.term[MT_EXPLAIN_FAULTS].present);
}

/* Missing inputs: absent terms with their reasons, the residual the whole change. */
static void test_absent(void **state)
{
	struct mt_explain_in in;
	struct mt_explain e;

	(void)state;
	in_init(&in, 10.0, 11.0);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	for (int t = 0; t < MT_EXPLAIN_RESIDUAL; t++) {
		assert_false(e.term[t].present);
		assert_true(e.term[t].why[0]);
	}
	assert_true(e.term[MT_EXPLAIN_RESIDUAL].present);
	assert_float_equal(e.term[MT_EXPLAIN_RESIDUAL].ns, 1.0, 1e-12);
	assert_int_equal(e.rank[0], MT_EXPLAIN_RESIDUAL);
	assert_int_equal(e.rank[1], -1);
	/* misses counted without walk cycles: said so */
	in.a.misses_per_block = q(0.1, 0, INFINITY);
	in.b.misses_per_block = q(0.2, 0, INFINITY);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_non_null(strstr(e.term[MT_EXPLAIN_WALKS].why, "no walk cycles"));
	/* flushes counted, no cost */
	in.a.flushes_per_block = q(0.0, 0, INFINITY);
	in.b.flushes_per_block = q(0.01, 0, INFINITY);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_non_null(strstr(e.term[MT_EXPLAIN_FLUSHES].why, "no cost per flush"));
	/* priced by the base's fit: 0.01 x 50 ns */
	in.a.ns_per_flush = q(50.0, 4.0, 3);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_float_equal(e.term[MT_EXPLAIN_FLUSHES].ns, 0.5, 1e-12);
	assert_float_equal(e.term[MT_EXPLAIN_RESIDUAL].ns, 0.5, 1e-12);
	/* a side with no ns per block has nothing to explain */
	in.b.ns_per_block.mean = NAN;
	assert_int_equal(mt_explain_terms(&in, &e), -EINVAL);
}

/* Walk time measured on both sides: its difference, exactly. */
static void test_walks(void **state)
{
	struct mt_explain_in in;
	struct mt_explain e;

	(void)state;
	in_init(&in, 10.0, 14.0);
	in.a.walk_ns = q(1.0, 0.01, 4);
	in.b.walk_ns = q(4.0, 0.04, 4);
	assert_int_equal(mt_explain_terms(&in, &e), 0);
	assert_float_equal(e.term[MT_EXPLAIN_WALKS].ns, 3.0, 1e-12);
	assert_float_equal(e.term[MT_EXPLAIN_WALKS].share, 0.75, 1e-12);
	assert_float_equal(sum(&e), 4.0, 1e-12);
}

/* The interval of a sum: exact parts add nothing; unknown spread, unknown CI. */
static void test_half(void **state)
{
	double var[2] = { 0.0, 0.0 }, df[2] = { INFINITY, INFINITY }, d;

	(void)state;
	assert_float_equal(mt_explain_half(var, df, 2, &d), 0.0, 0.0);
	var[0] = 1.0;
	df[0] = 1e9;
	assert_float_equal(mt_explain_half(var, df, 2, &d), 1.96, 1e-3);
	var[1] = NAN;
	assert_true(isnan(mt_explain_half(var, df, 2, &d)));
}

static void test_names(void **state)
{
	(void)state;
	for (int t = 0; t < MT_EXPLAIN_TERMS; t++) {
		assert_non_null(mt_explain_term_key(t));
		assert_non_null(mt_explain_term_label(t));
	}
	assert_null(mt_explain_term_key(MT_EXPLAIN_TERMS));
	assert_string_equal(mt_explain_term_key(MT_EXPLAIN_MIX), "page_size_mix");
	mt_explain_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_mix_unpriced),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_walks),
		cmocka_unit_test(test_half),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
