/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_ANALYSIS_MATRIX_H
#define MEMTLB_ANALYSIS_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/roofline.h"
#include "model/report.h"

/*
 * The page-size matrix (sweep --vary pages=all, or any list): every page
 * size measured on the same region and access order, side by side. A row
 * is one point: its first touch (the write_0 phase: ns per fault and per
 * 4 KiB, faults per block), its steady access (the report's phase: ns per
 * block with the 95% CI), and the steady difference to base pages at the
 * same point but for --pages (Welch, as the translation series), and
 * where the first touch's time per fault goes (the roofline). A row
 * whose pages were not proven as asked is kept, marked, and left out of
 * the verdicts.
 */
struct mt_matrix_row {
	const struct mt_result *r;
	char pages[64];		/* the --pages value */
	uint64_t folio;		/* the folio size asked for, bytes; 0: the policy's */
	double share;		/* of the region in folios of that size; NAN unknown */
	bool proven;		/* the scan says as requested */
	uint64_t tlb_page;	/* the page a TLB entry maps for it (mt_reach_page) */
	double fault_ns;	/* first touch per fault; NAN: faults not counted */
	double touch_ns_4k, touch_ci95_4k;	/* first touch per 4 KiB of the region */
	double faults_per_block;	/* NAN: not counted */
	double steady_ns, steady_ci95;	/* per block; ci NAN below 2 iterations */
	double vs_base_ns, vs_base_ci95;	/* steady - base's; NAN: no base row */
	/* fault_ns split by the report's roofline calibration (analysis/roofline) */
	struct mt_roofline_split split;
};

/* One region's rows (and the same other parameters), and what they say. */
struct mt_matrix {
	uint64_t region;
	size_t first, n;	/* rows[first .. first + n) */
	int touch_best, steady_best;	/* row indices, -1: no proven row */
	int touch_next, steady_next;	/* the runner-up, -1: none */
	double steady_margin, steady_margin_ci95;	/* next - best, Welch */
};

/*
 * The matrix of rep at the steady phase: rows into rows (max), groups into
 * mats (max_mats, by region then the other parameters, in result order).
 * Returns the number of groups, 0 when --pages did not vary over two
 * values or more, -ENOMEM. *n_rows gets the rows.
 */
int mt_matrix_build(const struct mt_report *rep, const char *phase, struct mt_matrix_row *rows,
		    size_t max, size_t *n_rows, struct mt_matrix *mats, size_t max_mats);

/* The best and the runner-up in steady access are apart: the margin beyond its CI. */
bool mt_matrix_steady_apart(const struct mt_matrix *m);

#endif
