/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_ANALYSIS_EXPLAIN_H
#define MEMTLB_ANALYSIS_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/compare.h"

/*
 * compare --explain: each changed ns per block (a phase of a point, one
 * later input against the base) cut into named terms that sum to the
 * change exactly, each with its 95% confidence interval by the delta
 * method (Student's t at the Welch-Satterthwaite degrees of freedom of
 * the term's inputs). The model, per block of the phase:
 *
 *   ns = faults x ns per fault + walk time + flushes x ns per flush
 *        + the page size mix's translation cost + the rest
 *
 * A change of a product x c is split at the midpoint, exactly:
 * d(x c) = dx (ca + cb) / 2 + dc (xa + xb) / 2 (the count's term and the
 * cost's). Every cost comes from the reports themselves, never from a
 * table: see memtlb-compare(1), EXPLAIN.
 */

enum mt_explain_term {
	MT_EXPLAIN_MIX,		/* page size mix: shares x cost per size */
	MT_EXPLAIN_FAULTS,	/* faults per block changed, at the mean cost */
	MT_EXPLAIN_FAULT_COST,	/* ns per fault changed, at the mean count */
	MT_EXPLAIN_WALKS,	/* page-walk time per block (PMU walk cycles) */
	MT_EXPLAIN_FLUSHES,	/* TLB flushes per block x ns per flush */
	MT_EXPLAIN_RESIDUAL,	/* the change less the named terms */
	MT_EXPLAIN_TERMS,
};

/* A term's key (JSON) and label (text); NULL out of range. */
const char *mt_explain_term_key(enum mt_explain_term t);
const char *mt_explain_term_label(enum mt_explain_term t);

/*
 * A share of the page size mix moved by this much or more (a fraction of
 * the region) makes the mix the cause: the faults and walks it changed are
 * its term's, not terms of their own (they would count one time twice).
 */
#define MT_EXPLAIN_MIX_DOMINANT 0.05
/* Shares closer than this (a fraction) did not move. */
#define MT_EXPLAIN_MIX_EPS 0.001
#define MT_EXPLAIN_SIZES 8
#define MT_EXPLAIN_DETAIL 80
#define MT_EXPLAIN_WHY 112

/* A measured mean with its uncertainty. mean NAN: not measured. */
struct mt_explain_qty {
	double mean;
	double var;	/* of the mean: se^2; 0 for an exact count */
	double df;	/* of var: n - 1; INFINITY where exact */
};

/* What one report says of the point at the phase: the model's inputs. */
struct mt_explain_side {
	struct mt_explain_qty ns_per_block;
	struct mt_explain_qty faults_per_block;
	struct mt_explain_qty ns_per_fault;	/* the first touch's time over its faults */
	struct mt_explain_qty misses_per_block;	/* dTLB misses: shown, priced by walk_ns */
	struct mt_explain_qty walk_ns;		/* walk cycles x ns per cycle, per block */
	struct mt_explain_qty flushes_per_block;
	struct mt_explain_qty ns_per_flush;	/* slope over the report's points */
	bool scanned;				/* the proof's page scan: shares known */
	unsigned int n_sizes;
	uint64_t size[MT_EXPLAIN_SIZES];	/* folio sizes, bytes */
	double share[MT_EXPLAIN_SIZES];		/* of the region */
};

/* The decomposition's inputs: the two sides and the cost per folio size. */
struct mt_explain_in {
	struct mt_explain_side a, b;
	uint64_t page;		/* the base page, bytes */
	uint64_t pmd;		/* the PMD size (a THP), bytes */
	unsigned int n_costs;
	uint64_t cost_size[MT_EXPLAIN_SIZES];
	struct mt_explain_qty cost[MT_EXPLAIN_SIZES];	/* ns per block at that size */
	/* a term absent for a reason the pure part cannot see ("" none) */
	char why[MT_EXPLAIN_TERMS][MT_EXPLAIN_WHY];
};

struct mt_explain_val {
	bool present;
	double ns;		/* ns per block */
	double low, high;	/* its 95% CI; NAN where not known */
	double var, df;		/* the delta method's, for the residual */
	double share;		/* ns / the change */
	char detail[MT_EXPLAIN_DETAIL];	/* "THP 100% -> 0%" */
	char why[MT_EXPLAIN_WHY];	/* absent: why */
};

/* One changed ns per block explained. */
struct mt_explain {
	const char *point;
	char phase[MT_PHASE_NAME_MAX];
	unsigned int input;	/* 1..n-1 */
	double base_ns, new_ns;
	double change_ns, change_pct;
	double low_ns, high_ns;	/* the change's 95% CI, ns per block; NAN unknown */
	bool fail;		/* a regression beyond the noise and --fail-above, past Holm */
	struct mt_explain_val term[MT_EXPLAIN_TERMS];
	int rank[MT_EXPLAIN_TERMS];	/* present terms by |share|, -1 after the last */
};

struct mt_explanation {
	size_t n;
	struct mt_explain *items;
};

/*
 * The pure arithmetic: in's terms into out (its numbers; point, phase,
 * input and fail are the caller's). The named terms and the residual sum
 * to b - a exactly. 0, -EINVAL when either side has no ns per block.
 */
int mt_explain_terms(const struct mt_explain_in *in, struct mt_explain *out);

/*
 * Every ns_per_block row of cmp that changed (compare's test and noise
 * threshold), per later input, explained from the two reports. fail_above
 * (percent, < 0 none) is --fail-above: a FAIL is a regression beyond the
 * noise and beyond it, significant after Holm's correction over every ns
 * per block of that input that was tested. 0, -ENOMEM.
 */
int mt_explain_create(struct mt_explanation **out, const struct mt_comparison *cmp,
		      double fail_above);
void mt_explain_destroy(struct mt_explanation *ex);

/*
 * An interval of a sum of independent means: sum the vars, df by
 * Welch-Satterthwaite from each part's (var, df); half-width of the 95%
 * CI (0 where var is 0, NAN where a part's df is not positive).
 */
double mt_explain_half(const double *var, const double *df, size_t n, double *df_out);

#endif
