// SPDX-License-Identifier: MIT
/*
 * The page-size matrix: the points of a sweep over --pages, one row per
 * size, first touch against steady access, with the cheapest of each.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/matrix.h"
#include "model/config.h"
#include "model/reach.h"
#include "stats/ci.h"
#include "stats/welch.h"

/* The phase of the first touch: test_with_mmap's first write pass. */
#define TOUCH_PHASE "write_0"

/* Of the region, the share the scan found in folios of size. */
static double share_of(const struct mt_result *r, uint64_t size, uint64_t page)
{
	const struct mt_pagescan *s = &r->map.scan;
	uint64_t got = 0;

	if (!r->map.scanned || !s->len || !size)
		return NAN;
	if (size == page)
		return (double)s->base / (double)s->len;
	for (unsigned int i = 0; i < s->n_folios; i++)
		if (s->folios[i].size == size)
			got += s->folios[i].bytes;
	if (!s->n_folios)
		got = size >= (2ull << 20) ? s->huge : 0;
	return (double)got / (double)s->len;
}

/* A phase's ns per unit (n of them) and its 95% half-width (Student's t). */
static void per_unit(const struct mt_phase_stat *ps, double n, double *mean, double *ci)
{
	const struct mt_summary *t = &ps->time_ns;

	*mean = t->mean / n;
	*ci = mt_ci_half95(t) / n;
}

static void fill(const struct mt_report *rep, const char *phase, const struct mt_result *r,
		 struct mt_matrix_row *row)
{
	const struct mt_phase_stat *touch = mt_result_phase(r, TOUCH_PHASE);
	const struct mt_phase_stat *steady = mt_result_phase(r, phase);
	uint64_t page = rep->system.page_size > 0 ? (uint64_t)rep->system.page_size : 4096;

	memset(row, 0, sizeof(*row));
	row->r = r;
	snprintf(row->pages, sizeof(row->pages), "%s", mt_result_param(r, "pages"));
	row->folio = mt_config_folio(row->pages, page);
	row->share = share_of(r, row->folio, page);
	row->proven = r->map.page_check > 0;
	row->tlb_page = mt_reach_page(rep, r);
	row->fault_ns = row->touch_ns_4k = row->touch_ci95_4k = row->faults_per_block = NAN;
	row->steady_ns = row->steady_ci95 = row->vs_base_ns = row->vs_base_ci95 = NAN;
	if (touch && r->blocks && r->region) {
		per_unit(touch, (double)r->region / 4096.0, &row->touch_ns_4k,
			 &row->touch_ci95_4k);
		if (mt_phase_has(touch, MT_DERIVED_FAULTS_PER_BLOCK) &&
		    touch->derived[MT_DERIVED_FAULTS_PER_BLOCK] > 0) {
			row->faults_per_block = touch->derived[MT_DERIVED_FAULTS_PER_BLOCK];
			row->fault_ns = touch->time_ns.mean /
					(row->faults_per_block * (double)r->blocks);
		}
	}
	if (steady && r->blocks)
		per_unit(steady, (double)r->blocks, &row->steady_ns, &row->steady_ci95);
	mt_roofline_split(&rep->roofline, row->folio, row->fault_ns, r->region,
			  touch ? touch->time_ns.mean : NAN, &row->split);
}

/* b - a in steady ns per block, with Welch's 95% half-width. */
static void difference(const struct mt_matrix_row *a, const struct mt_matrix_row *b,
		       const char *phase, double *d, double *ci)
{
	const struct mt_phase_stat *pa = mt_result_phase(a->r, phase);
	const struct mt_phase_stat *pb = mt_result_phase(b->r, phase);
	struct mt_welch w;

	*d = b->steady_ns - a->steady_ns;
	*ci = pa && pb && !mt_stats_welch(&pa->time_ns, &pb->time_ns, &w) ?
	      w.ci95 / (double)a->r->blocks : NAN;
}

/* The cheapest proven row by key and the runner-up. */
static void best_two(const struct mt_matrix_row *rows, const struct mt_matrix *m, bool steady,
		     int *best, int *next)
{
	*best = *next = -1;
	for (size_t i = m->first; i < m->first + m->n; i++) {
		double v = steady ? rows[i].steady_ns : rows[i].touch_ns_4k;

		if (!rows[i].proven || !isfinite(v))
			continue;
		if (*best < 0 || v < (steady ? rows[*best].steady_ns : rows[*best].touch_ns_4k)) {
			*next = *best;
			*best = (int)i;
		} else if (*next < 0 ||
			   v < (steady ? rows[*next].steady_ns : rows[*next].touch_ns_4k)) {
			*next = (int)i;
		}
	}
}

int mt_matrix_build(const struct mt_report *rep, const char *phase, struct mt_matrix_row *rows,
		    size_t max, size_t *n_rows, struct mt_matrix *mats, size_t max_mats)
{
	size_t n = 0, n_mats = 0, kinds = 0;
	bool *done;

	*n_rows = 0;
	if (!phase)
		return 0;
	/* two --pages values or more, or there is nothing to set side by side */
	for (size_t i = 0; i < rep->n_results && kinds < 2; i++) {
		const char *v = mt_result_param(rep->results[i], "pages");

		if (v && (!kinds || strcmp(v, mt_result_param(rep->results[0], "pages") ?: "")))
			kinds++;
	}
	if (kinds < 2)
		return 0;
	done = calloc(rep->n_results + 1, sizeof(*done));
	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < rep->n_results && n_mats < max_mats; i++) {
		struct mt_matrix *m = &mats[n_mats];
		int base = -1;

		if (done[i] || !mt_result_param(rep->results[i], "pages"))
			continue;
		memset(m, 0, sizeof(*m));
		m->region = rep->results[i]->region;
		m->first = n;
		for (size_t j = i; j < rep->n_results && n < max; j++) {
			if (done[j] || !mt_result_paired(rep->results[i], rep->results[j], "pages"))
				continue;
			done[j] = true;
			fill(rep, phase, rep->results[j], &rows[n]);
			if (!strcmp(rows[n].pages, mt_pages_name(MT_PAGES_BASE)))
				base = (int)n;
			n++;
		}
		m->n = n - m->first;
		for (size_t k = m->first; base >= 0 && k < n; k++)
			if ((int)k != base)
				difference(&rows[base], &rows[k], phase, &rows[k].vs_base_ns,
					   &rows[k].vs_base_ci95);
		best_two(rows, m, false, &m->touch_best, &m->touch_next);
		best_two(rows, m, true, &m->steady_best, &m->steady_next);
		m->steady_margin = m->steady_margin_ci95 = NAN;
		if (m->steady_best >= 0 && m->steady_next >= 0)
			difference(&rows[m->steady_best], &rows[m->steady_next], phase,
				   &m->steady_margin, &m->steady_margin_ci95);
		n_mats++;
	}
	free(done);
	*n_rows = n;
	return (int)n_mats;
}

bool mt_matrix_steady_apart(const struct mt_matrix *m)
{
	return isfinite(m->steady_margin_ci95) && m->steady_margin > m->steady_margin_ci95;
}
