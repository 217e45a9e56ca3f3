// SPDX-License-Identifier: MIT
/*
 * Seed 000's sweep table: one row per region with one phase's mean, ns per
 * block, faults and misses per block where counted, and the knees of each
 * series. Works on any report (a sweep's, or one loaded back), so knees are
 * recomputed without rerunning.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/matrix.h"
#include "analysis/series.h"
#include "analysis/translation.h"
#include "model/reach.h"
#include "model/report.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/rungrid.h"
#include "report/sweep.h"
#include "stats/ci.h"
#include "stats/fit.h"
#include "stats/knee.h"
#include "stats/welch.h"

static bool varied(const struct mt_report *rep, const char *key)
{
	for (size_t i = 0; i < rep->n_results; i++)
		for (unsigned int v = 0; v < rep->results[i]->n_vary; v++)
			if (!strcmp(rep->results[i]->vary[v].key, key))
				return true;
	return false;
}

/* The --vary parameters come from the report file: escaped (mt_cell_safe). */
static void series_title(char *buf, size_t len, const struct mt_result *r)
{
	char blk[32], raw[MT_SAFE_MAX];
	size_t n;

	mt_size_format_short(r->block, blk, sizeof(blk));
	n = (size_t)snprintf(raw, sizeof(raw), "block=%s", blk);
	for (unsigned int i = 0; i < r->n_vary && n < sizeof(raw); i++) {
		if (!strcmp(r->vary[i].key, "block"))
			continue;
		n += (size_t)snprintf(raw + n, sizeof(raw) - n, " %s=%s", r->vary[i].key,
				      r->vary[i].value);
	}
	mt_cell_safe(buf, len, raw);
}




/* The knee at point k, an uncertain one only when uncertain. */
static const struct mt_knee *knee_at(const struct mt_series *c, size_t k, bool uncertain)
{
	for (int i = 0; i < c->n_knees; i++)
		if (c->knees[i].after == k && (uncertain || !c->knees[i].uncertain))
			return &c->knees[i];
	return NULL;
}


/*
 * Why a knee is where it is: the TLB level whose reach lies between its two
 * regions (analysis/series), or that no level known here explains it.
 */
static void explain_knee(char *buf, size_t len, const struct mt_report *rep,
			 const struct mt_series *c, const struct mt_knee *k)
{
	const struct mt_series_level *l = &c->level[k - c->knees];
	const struct mt_reach lv = l->lv;
	uint64_t page = l->page;
	int found = l->found;
	char reach[32], pg[32];

	mt_size_format(page, pg, sizeof(pg));
	if (found > 0 && lv.entries_min != lv.entries_max) {
		char lo[32];

		/* a measured level: its reach is a range, as the probe found it */
		mt_size_format(mt_reach_min(&lv), lo, sizeof(lo));
		mt_size_format(mt_reach_max(&lv), reach, sizeof(reach));
		snprintf(buf, len, ": the region passes the %s reach, %s..%s (%llu..%llu x %s, %s)",
			 lv.name, lo, reach, (unsigned long long)lv.entries_min,
			 (unsigned long long)lv.entries_max, pg, lv.source);
	} else if (found > 0) {
		mt_size_format(mt_reach_max(&lv), reach, sizeof(reach));
		snprintf(buf, len, ": the region passes the %s reach, %s (%llu x %s, %s)",
			 lv.name, reach, (unsigned long long)lv.entries_max, pg, lv.source);
	} else if (found < 0) {
		snprintf(buf, len, "; the CPU reports no TLB sizes (cpuid%s), so no level can "
			 "explain it: memtlb probe measures them", rep->system.hypervisor > 0 ?
			 ", which a hypervisor may filter" : "");
	} else {
		snprintf(buf, len, "; no TLB level of %s pages that %s has its reach here", pg,
			 rep->n_levels ? "cpuid or the probe reports" : "cpuid reports");
	}
}






/*
 * The translation series under the series tables: per region, the base
 * and huge pages' ns per block and their difference, what the huge pages
 * save in translation (the same layout, the same touches otherwise).
 */
static int print_translation(FILE *f, const struct mt_report *rep, const char *phase,
			     int width, int prose)
{
	struct mt_translation *tr = calloc(rep->n_results + 1, sizeof(*tr));
	struct mt_table *t = NULL;
	char cell[MT_CELL_MAX], ph[MT_SAFE_MAX];
	int n, ret;

	if (!tr)
		return -ENOMEM;
	n = mt_translation_series(rep, phase, tr, rep->n_results);
	if (n <= 0) {
		free(tr);
		return n;
	}
	ret = mt_table_create(&t, 6);
	if (ret) {
		free(tr);
		return ret;
	}
	fputc('\n', f);
	mt_text_wrapf(f, prose, "translation: %s ns/block, base pages - huge pages (95%% CI, "
		      "Welch)", mt_cell_safe(ph, sizeof(ph), phase));
	t->width[0] = 10;
	mt_table_add(t, "%s", "region");
	mt_table_add(t, "%s", "pages");
	mt_table_add(t, "%s", "base");
	mt_table_add(t, "%s", "huge");
	mt_table_add(t, "%s", "base-huge");
	mt_table_add(t, "%s", "ci95");
	for (int i = 0; i < n; i++) {
		mt_size_format_short(tr[i].region, cell, sizeof(cell));
		mt_table_add(t, "%s", cell);
		mt_table_add(t, "%s", tr[i].pages);
		mt_table_add(t, "%.3f", tr[i].base_ns);
		mt_table_add(t, "%.3f", tr[i].huge_ns);
		if (tr[i].refused) {
			mt_table_add(t, "%s", "refused");
			mt_table_add(t, "%s", "-");
			/* mt_table_note escapes the verdict, a string from the report */
			mt_table_note(t, "%s: refused, the %s point was %s", cell, tr[i].refused_pages,
				      tr[i].refused);
			continue;
		}
		mt_table_add(t, "%+.3f", tr[i].translation_ns);
		if (isnan(tr[i].ci95_ns))
			mt_table_add(t, "%s", "-");
		else
			mt_table_add(t, "+-%.3f", tr[i].ci95_ns);
	}
	ret = t->err ? t->err : mt_table_print_fit(f, t, width, 1);
	if (!ret)
		ret = mt_table_print_notes_fit(f, t, prose);
	if (!ret && mt_translation_none_apart(tr, n))
		mt_text_wrapf(f, prose, "note: no region's base - huge is apart from 0: the "
			      "TLBs hold every region either way, the huge pages save no TLB "
			      "entries here (a host that backs guest memory with base pages), "
			      "or the noise hides the difference; -i narrows the intervals, and "
			      "memtlb probe says whether huge pages save entries here");
	mt_table_destroy(t);
	free(tr);
	return ret;
}

#define MATRIX_MAX 64
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The matrix's columns, and the roofline's under it (the same pages and ns/fault). */
static const char *const matrix_heads[] = { "pages", "proven", "ns/fault", "ns/4KiB", "flt/blk",
					    "steady", "+-95%", "vs base", "+-95%" };
static const char *const roofline_heads[] = { "pages", "ns/fault", "zero", "floor", "rest",
					      "GB/s", "% ceiling" };

static void heads(struct mt_table *t, const char *const *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mt_table_add(t, "%s", h[i]);
}

/* A number of the matrix, "-" where it is not known. */
static void matrix_cell(struct mt_table *t, const char *fmt, double v)
{
	if (isfinite(v))
		mt_table_add(t, fmt, v);
	else
		mt_table_add(t, "%s", "-");
}

/*
 * Why a row has no verdict: the scan's words (less their "not as
 * requested: " lead), and where the kernel counted the size's faults, how
 * many fell back to smaller folios: allocation, not the scan.
 */
static void unproven_note(struct mt_table *t, const struct mt_matrix_row *r)
{
	static const char lead[] = "not as requested: ";
	const struct mt_mapinfo *m = &r->r->map;
	const char *why = m->verdict[0] ? m->verdict : "not scanned";

	if (!strncmp(why, lead, sizeof(lead) - 1))
		why += sizeof(lead) - 1;
	if (m->folios_counted)
		mt_table_note(t, "%s: not as requested (%s), no verdict; %llu of %llu faults "
			      "fell back", r->pages, why, (unsigned long long)m->folio_fallback,
			      (unsigned long long)(m->folio_fallback + m->folio_alloc));
	else
		mt_table_note(t, "%s: not as requested (%s), no verdict", r->pages, why);
}

/* The verdict of one region: the cheapest first touch and steady access. */
static void matrix_verdict(FILE *f, const struct mt_matrix_row *rows, const struct mt_matrix *m,
			   int prose)
{
	char a[MT_SAFE_MAX], b[MT_SAFE_MAX];

	if (m->touch_best < 0 || m->steady_best < 0) {
		mt_text_wrapf(f, prose, "verdict: none, no page size was proven as asked");
		return;
	}
	mt_cell_safe(a, sizeof(a), rows[m->touch_best].pages);
	mt_cell_safe(b, sizeof(b), rows[m->steady_best].pages);
	if (m->touch_next >= 0)
		mt_text_wrapf(f, prose, "verdict: first touch cheapest with %s, %.1f ns per 4 KiB "
			      "(x%.2f under %s)", a, rows[m->touch_best].touch_ns_4k,
			      rows[m->touch_next].touch_ns_4k / rows[m->touch_best].touch_ns_4k,
			      mt_cell_safe(b, sizeof(b), rows[m->touch_next].pages));
	mt_cell_safe(b, sizeof(b), rows[m->steady_best].pages);
	if (m->steady_next < 0)
		return;
	if (isfinite(m->steady_margin_ci95) && !mt_matrix_steady_apart(m)) {
		mt_text_wrapf(f, prose, "verdict: steady access: %s and %s are not apart "
			      "(%.3f +-%.3f ns/block)", b,
			      mt_cell_safe(a, sizeof(a), rows[m->steady_next].pages),
			      m->steady_margin, m->steady_margin_ci95);
		return;
	}
	mt_text_wrapf(f, prose, "verdict: steady access cheapest with %s, %.3f ns/block, %.3f "
		      "+-%.3f under %s%s", b, rows[m->steady_best].steady_ns, m->steady_margin,
		      m->steady_margin_ci95, mt_cell_safe(a, sizeof(a), rows[m->steady_next].pages),
		      m->touch_best != m->steady_best ? "; first touch and steady access "
		      "disagree" : "");
}

/*
 * What each row's TLB entries reach, by level: entries x the page an entry
 * maps (cpuid's levels and the probe's), the rows that share a page on one
 * line. Only the sizes measured: a level of a page no row used is not
 * theirs. mTHP folios are mapped by base-page entries, so their reach is
 * the base pages' unless the CPU coalesces contiguous entries.
 */
static void matrix_reach(FILE *f, const struct mt_report *rep, const struct mt_matrix_row *rows,
			 const struct mt_matrix *m, int prose)
{
	struct mt_reach lv[2 * MT_REACH_MAX];
	size_t nl = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX), k = 0;
	char line[1024], who[MT_SAFE_MAX];
	bool folios = false;

	k = (size_t)snprintf(line, sizeof(line), "reach by level (entries x page):");
	for (size_t i = m->first; i < m->first + m->n && k < sizeof(line); i++) {
		const char *sep = "";
		bool first = true, any = false;

		folios |= rows[i].folio > rows[i].tlb_page;
		for (size_t j = m->first; j < i && first; j++)
			first = rows[j].tlb_page != rows[i].tlb_page;
		if (!first)
			continue;
		k += (size_t)snprintf(line + k, sizeof(line) - k, "%s", i > m->first ? ";" : "");
		for (size_t j = i; j < m->first + m->n && k < sizeof(line); j++) {
			if (rows[j].tlb_page != rows[i].tlb_page)
				continue;
			k += (size_t)snprintf(line + k, sizeof(line) - k, "%s %s", sep,
					      mt_cell_safe(who, sizeof(who), rows[j].pages));
			sep = ",";
		}
		k += (size_t)snprintf(line + k, sizeof(line) - k, ":");
		for (size_t l = 0; l < nl && k < sizeof(line); l++) {
			char pg[32], a[32], b[32];

			if (lv[l].page_size != rows[i].tlb_page)
				continue;
			mt_size_format_short(lv[l].page_size, pg, sizeof(pg));
			mt_size_format_short(mt_reach_min(&lv[l]), a, sizeof(a));
			mt_size_format_short(mt_reach_max(&lv[l]), b, sizeof(b));
			if (lv[l].entries_min == lv[l].entries_max)
				k += (size_t)snprintf(line + k, sizeof(line) - k,
						      "%s %s %llu x %s = %s", any ? "," : "",
						      lv[l].name,
						      (unsigned long long)lv[l].entries_max, pg, b);
			else
				k += (size_t)snprintf(line + k, sizeof(line) - k,
						      "%s %s %llu..%llu x %s = %s..%s", any ? "," : "",
						      lv[l].name,
						      (unsigned long long)lv[l].entries_min,
						      (unsigned long long)lv[l].entries_max, pg, a, b);
			any = true;
		}
		if (!any)
			k += (size_t)snprintf(line + k, sizeof(line) - k, " no level known");
	}
	mt_text_wrapf(f, prose, "%s%s", line, folios ? "; mTHP folios are mapped by base-page "
		      "entries: their reach is base pages' unless the CPU coalesces them (memtlb "
		      "probe --coalesce)" : "");
}

/*
 * The methods' clear bandwidths and the floor under the roofline table:
 * what the split was made of, every figure the calibration measured.
 */
static void roofline_inputs(FILE *f, const struct mt_roofline *rf, int prose)
{
	char line[512], buf[32], chunk[32];
	size_t n;

	mt_text_wrapf(f, prose, "zero: one folio cleared at GB/s, %s's in chunks of the "
		      "folio's size; %% ceiling: the first touch's bytes per second over it",
		      mt_roofline_method_name(rf->ceiling) ?: "no method");
	mt_size_format(rf->buffer, buf, sizeof(buf));
	mt_size_format_short(rf->n_methods ? rf->methods[0].chunk : 0, chunk, sizeof(chunk));
	n = (size_t)snprintf(line, sizeof(line), "clear bandwidth over %s (past the LLC) in %s "
			     "chunks, median of %u:", buf, chunk, rf->reps);
	for (unsigned int i = 0; i < rf->n_methods && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s %.1f", i ? "," : "",
				      mt_roofline_method_name(rf->methods[i].method) ?: "?",
				      rf->methods[i].gbps);
	mt_text_wrapf(f, prose, "%s%s", rf->n_methods ? line : "clear bandwidth: not measured (no "
		      "clear method on this CPU)", rf->n_methods ? " GB/s" : "");
	if (isfinite(mt_roofline_floor(rf)))
		mt_text_wrapf(f, prose, "entry floor: %.1f ns per read fault that maps the zero "
			      "page (%llu faults for %llu touches)", rf->floor_ns,
			      (unsigned long long)rf->floor_faults,
			      (unsigned long long)rf->floor_touches);
	else
		mt_text_wrapf(f, prose, "entry floor: absent (%llu faults for %llu touches: not "
			      "one each)", (unsigned long long)rf->floor_faults,
			      (unsigned long long)rf->floor_touches);
}

/*
 * Under one region's matrix: each row's first touch per fault split into
 * the folio's clear, the entry/exit floor and the rest (analysis/roofline),
 * with the first touch's share of the zeroing ceiling.
 */
static int print_roofline(FILE *f, const struct mt_report *rep, const struct mt_matrix_row *rows,
			  const struct mt_matrix *m, int width, int prose)
{
	const struct mt_roofline *rf = &rep->roofline;
	const char *how = mt_roofline_method_name(rf->ceiling);
	struct mt_table *t = NULL;
	int ret;

	if (!rf->measured)
		return 0;
	ret = mt_table_create(&t, ARRAY_SIZE(roofline_heads));
	if (ret)
		return ret;
	fputc('\n', f);
	if (how)
		mt_text_wrapf(f, prose, "first touch per fault: zeroing (%s, %.1f GB/s at best), "
			      "entry floor, remainder (ns)", how, mt_roofline_ceiling(rf));
	else
		mt_text_wrapf(f, prose, "first touch per fault: zeroing (not measured), entry "
			      "floor, remainder (ns)");
	heads(t, roofline_heads, ARRAY_SIZE(roofline_heads));
	for (size_t i = m->first; i < m->first + m->n; i++) {
		const struct mt_matrix_row *r = &rows[i];
		const struct mt_roofline_split *sp = &r->split;

		mt_table_add(t, "%s", r->pages);
		matrix_cell(t, "%.1f", r->fault_ns);
		matrix_cell(t, "%.1f", sp->zero_ns);
		matrix_cell(t, "%.1f", sp->floor_ns);
		if (sp->inconsistent)
			mt_table_add(t, "%s", "incons.");
		else
			matrix_cell(t, "%.1f", sp->rest_ns);
		matrix_cell(t, "%.1f", sp->gbps);
		matrix_cell(t, "%.2f%%", sp->ceiling_pct);
		if (sp->inconsistent)
			mt_table_note(t, "%s: inconsistent, zero + floor = %.1f ns is over the %.1f "
				      "measured by more than %.0f%%: no remainder", r->pages,
				      sp->zero_ns + sp->floor_ns, r->fault_ns,
				      100.0 * MT_ROOFLINE_SLACK);
	}
	ret = t->err ? t->err : mt_table_print_fit(f, t, width, 1);
	if (!ret)
		ret = mt_table_print_notes_fit(f, t, prose);
	mt_table_destroy(t);
	if (!ret)
		roofline_inputs(f, rf, prose);
	return ret;
}

/*
 * The page-size matrix under the series: per region, one row per --pages
 * value, first touch against steady access, and the verdict.
 */
static int print_matrix(FILE *f, const struct mt_report *rep, const char *phase, int width,
			int prose)
{
	struct mt_matrix_row *rows = calloc(rep->n_results + 1, sizeof(*rows));
	struct mt_matrix mats[MATRIX_MAX];
	char cell[MT_CELL_MAX], ph[MT_SAFE_MAX];
	size_t n_rows;
	int n, ret = 0;

	if (!rows)
		return -ENOMEM;
	n = mt_matrix_build(rep, phase, rows, rep->n_results, &n_rows, mats, MATRIX_MAX);
	for (int g = 0; g < n && !ret; g++) {
		const struct mt_matrix *m = &mats[g];
		struct mt_table *t = NULL;

		ret = mt_table_create(&t, ARRAY_SIZE(matrix_heads));
		if (ret)
			break;
		mt_size_format_short(m->region, cell, sizeof(cell));
		fputc('\n', f);
		mt_text_wrapf(f, prose, "page sizes: region %s, first touch (write_0) and steady "
			      "access (%s, ns/block +-95%%)", cell,
			      mt_cell_safe(ph, sizeof(ph), phase));
		heads(t, matrix_heads, ARRAY_SIZE(matrix_heads));
		for (size_t i = m->first; i < m->first + m->n; i++) {
			const struct mt_matrix_row *r = &rows[i];

			/* mt_table_add escapes the value, a string from the report */
			mt_table_add(t, "%s", r->pages);
			if (isfinite(r->share))
				mt_table_add(t, "%.0f%%%s", 100.0 * r->share, r->proven ? "" : "!");
			else
				mt_table_add(t, "%s", r->proven ? "yes" : "no!");
			matrix_cell(t, "%.1f", r->fault_ns);
			matrix_cell(t, "%.1f", r->touch_ns_4k);
			matrix_cell(t, "%.3f", r->faults_per_block);
			matrix_cell(t, "%.3f", r->steady_ns);
			matrix_cell(t, "%.3f", r->steady_ci95);
			matrix_cell(t, "%+.3f", r->vs_base_ns);
			matrix_cell(t, "%.3f", r->vs_base_ci95);
			if (!r->proven)
				unproven_note(t, r);
		}
		ret = t->err ? t->err : mt_table_print_fit(f, t, width, 1);
		if (!ret)
			ret = mt_table_print_notes_fit(f, t, prose);
		mt_table_destroy(t);
		if (!ret)
			matrix_verdict(f, rows, m, prose);
		if (!ret)
			matrix_reach(f, rep, rows, m, prose);
		if (!ret)
			ret = print_roofline(f, rep, rows, m, width, prose);
	}
	free(rows);
	return ret < 0 ? ret : 0;
}

int mt_report_print_matrix(FILE *f, const struct mt_report *rep, const char *phase, int width)
{
	return print_matrix(f, rep, phase, width, width);
}

void mt_report_print_tlb_agreement(FILE *f, const struct mt_report *rep, int width)
{
	char line[160];

	for (size_t i = 0; i < rep->n_levels; i++)
		if (mt_reach_agreement(rep, i, line, sizeof(line)) > 0)
			mt_text_wrapf(f, width, "%s", line);
}

/* Time on counts over the series' points: the cost of one fault, one miss. */
static void print_fits(FILE *f, const struct mt_report *rep, unsigned int s, int width)
{
	struct mt_fit_row rows[MT_FIT_MAX];
	int n = mt_fit_results(rep->results, rep->n_results, rows, MT_FIT_MAX);
	char x[MT_SAFE_MAX], icpt[32];

	for (int i = 0; i < n; i++) {
		double ab = rows[i].fit.intercept < 0 ? -rows[i].fit.intercept : rows[i].fit.intercept;
		double scale;
		const char *unit = mt_time_unit(&ab, 1, &scale);

		if (rows[i].series != s)
			continue;
		mt_cell_time(icpt, sizeof(icpt), ab, scale);
		mt_text_wrapf(f, width, "fit: %s time = %.1f ns x %s %s %s %s, r2 %.3f, %zu points",
		      rows[i].phase, rows[i].fit.slope, mt_cell_safe(x, sizeof(x), rows[i].x),
		      rows[i].fit.intercept < 0 ? "-" : "+", icpt, unit, rows[i].fit.r2,
		      rows[i].fit.n);
	}
}

static void print_knees(FILE *f, const struct mt_report *rep, const struct mt_series *c,
			int width)
{
	char a[32], b[32], why[256];
	size_t at = 0;
	double worst;

	if (c->n_knees < 0) {
		mt_text_wrapf(f, width, "knee: not computed (%s)",
			c->n_knees == -EINVAL ? "a region measured twice, or a zero cost" :
						"out of memory");
		return;
	}
	if (c->n < 3) {
		mt_text_wrapf(f, width, "knee: none (3 points or more are needed)");
		return;
	}
	for (int i = 0; i < c->n_knees; i++) {
		const struct mt_knee *k = &c->knees[i];

		mt_size_format_short((uint64_t)c->x[k->before], a, sizeof(a));
		mt_size_format_short((uint64_t)c->x[k->after], b, sizeof(b));
		if (k->uncertain) {
			mt_text_wrapf(f, width, "knee: uncertain, %s -> %s, ns/block x%.1f: CV "
				      "%.0f%% is above %.0f%%, the rise may be noise (more "
				      "iterations, -i, tell)", a, b, k->step, 100.0 * k->cv,
				      100.0 * MT_KNEE_CV_MAX);
			continue;
		}
		explain_knee(why, sizeof(why), rep, c, k);
		mt_text_wrapf(f, width, "knee: %s -> %s, ns/block x%.1f%s%s", a, b, k->step,
			k->confirmed ? "" : " (at the last point: not confirmed)", why);
	}
	if (mt_series_knees(c))
		return;
	worst = mt_knee_largest_step(c->y, c->n, &at);
	mt_size_format_short((uint64_t)c->x[at], a, sizeof(a));
	mt_size_format_short((uint64_t)c->x[at + 1], b, sizeof(b));
	if (!(worst > 1.0)) {
		mt_text_wrapf(f, width, "knee: none (no point rises; a knee is x%.1f over the "
			      "trend)", c->ko.ratio);
		return;
	}
	mt_text_wrapf(f, width, "knee: none (the largest one-step rise, x%.2f from %s to %s, is "
		      "no knee: %s; a knee is x%.1f over the trend and stays up)", worst, a, b,
		      mt_knee_why_text(mt_series_why(c, at)), c->ko.ratio);
}


/* A note once per report: misses per block needs dTLB events the machine lacks. */
static void print_missing(FILE *f, const struct mt_report *rep, int width)
{
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct mt_result *r = rep->results[i];

		for (unsigned int e = 0; e < r->n_events; e++) {
			const char *name = r->events[e].name;

			if (r->n_phases && r->phases[0].counters[e].state == MT_COUNTER_UNSUPPORTED &&
			    (r->events[e].role == MT_ROLE_DTLB_MISSES ||
			     (strcasestr(name, "tlb") && strcasestr(name, "miss")))) {
				char safe[MT_SAFE_MAX], why[MT_SAFE_MAX];

				mt_text_wrapf(f, width, "misses/block: absent, %s is not supported%s%s",
					mt_cell_safe(safe, sizeof(safe), name),
					r->events[e].reason[0] ? ": " : "",
					mt_cell_safe(why, sizeof(why), r->events[e].reason));
				return;
			}
		}
	}
}

/* A per-block metric, "-" where the point does not have it. */
static void per_block(struct mt_table *t, const struct mt_phase_stat *ps, enum mt_derived d)
{
	if (mt_phase_has(ps, d))
		mt_table_add(t, "%.3f", ps->derived[d]);
	else
		mt_table_add(t, "%s", "-");
}

/* used[] with lv once (a series of base and huge pages states two levels). */
static unsigned int reach_used(struct mt_reach *used, unsigned int n, const struct mt_reach *lv)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(used[i].name, lv->name) && !strcmp(used[i].source, lv->source) &&
		    used[i].page_size == lv->page_size)
			return n;
	if (n < 4)
		used[n++] = *lv;
	return n;
}

/* One series' rows: region, ns/block beside it, mean in the column's unit, ... */
static int series_table(FILE *f, const struct mt_report *rep, const char *phase,
			const struct mt_series *c, int width)
{
	bool faults = false, misses = false, reach = false;
	unsigned int ncols = 5, n_used = 0;
	struct mt_reach last, used[4];
	struct mt_table *t;
	double *times, scale;
	char cell[MT_CELL_MAX];
	const char *unit;
	int ret;

	times = calloc(c->n ? c->n : 1, sizeof(*times));
	if (!times)
		return -ENOMEM;
	for (size_t k = 0; k < c->n; k++) {
		const struct mt_phase_stat *ps = mt_result_phase(rep->results[c->idx[k]], phase);

		faults |= mt_phase_has(ps, MT_DERIVED_FAULTS_PER_BLOCK);
		misses |= mt_phase_has(ps, MT_DERIVED_MISSES_PER_BLOCK);
		times[k] = ps->time_ns.mean;
	}
	unit = mt_time_unit(times, c->n, &scale);
	free(times);
	/* the pressure in one number: the region over the last level's reach */
	for (size_t k = 0; k < c->n && !reach; k++)
		reach = mt_reach_last(rep, mt_reach_page(rep, rep->results[c->idx[k]]), &last);
	ret = mt_table_create(&t, ncols + faults + misses + reach);
	if (ret)
		return ret;
	t->width[0] = 10;
	mt_table_add(t, "%s", "region");
	mt_table_add(t, "%s", mt_derived_label(MT_DERIVED_NS_PER_BLOCK));
	mt_table_add(t, "mean (%s)", unit);
	mt_table_add(t, "%s", MT_HEAD_CV);
	if (faults)
		mt_table_add(t, "%s", mt_derived_label(MT_DERIVED_FAULTS_PER_BLOCK));
	if (misses)
		mt_table_add(t, "%s", mt_derived_label(MT_DERIVED_MISSES_PER_BLOCK));
	if (reach)
		mt_table_add(t, "%s", "x reach");
	mt_table_add(t, "%s", "knee");
	for (size_t k = 0; k < c->n; k++) {
		const struct mt_result *r = rep->results[c->idx[k]];
		const struct mt_phase_stat *ps = mt_result_phase(r, phase);
		const struct mt_knee *kn = knee_at(c, k, true);

		mt_size_format_short(r->region, cell, sizeof(cell));
		mt_table_add(t, "%s", cell);
		mt_table_add(t, "%.3f", c->y[k]);
		mt_cell_time(cell, sizeof(cell), ps->time_ns.mean, scale);
		mt_table_add(t, "%s", cell);
		mt_cell_cv(cell, sizeof(cell), &ps->time_ns);
		mt_table_add(t, "%s", cell);
		if (faults)
			per_block(t, ps, MT_DERIVED_FAULTS_PER_BLOCK);
		if (misses)
			per_block(t, ps, MT_DERIVED_MISSES_PER_BLOCK);
		if (reach && mt_reach_last(rep, mt_reach_page(rep, r), &last)) {
			mt_reach_times(&last, r->region, cell, sizeof(cell));
			mt_table_add(t, "%s", cell);
			n_used = reach_used(used, n_used, &last);
		} else if (reach) {
			mt_table_add(t, "%s", "-");	/* no level of this point's pages */
		}
		if (kn && kn->uncertain)
			mt_table_add(t, "x%.1f uncertain", kn->step);
		else if (kn)
			mt_table_add(t, "<- x%.1f%s", kn->step, kn->confirmed ? "" : "?");
		else
			mt_table_add(t, "%s", "");
	}
	ret = t->err ? t->err : mt_table_print_fit(f, t, width, 1);
	mt_table_destroy(t);
	for (unsigned int i = 0; !ret && i < n_used; i++) {
		char lv[160];

		mt_reach_describe(&used[i], lv, sizeof(lv));
		mt_text_wrapf(f, MT_PROSE_WIDTH(width), "x reach: the region over the %s%s", lv,
			      i + 1 < n_used ? "" : "; the JSON report has it for every level "
			      "(pressure)");
	}
	return ret;
}

int mt_report_print_sweep(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, bool wide)
{
	const struct mt_config *cfg = &rep->config;
	struct mt_series c;
	char cmd[MT_SAFE_MAX], ph[MT_SAFE_MAX];
	int ret = 0, width = mt_report_width(f, rep), prose = MT_PROSE_WIDTH(width);

	/* A report without a read pass has no default phase: nothing to show. */
	if (!phase)
		return -EINVAL;
	ret = mt_series_begin(&c, rep, phase, ko);
	if (ret)
		return ret;
	/* What --vary changes is in each series' title, not in this header. */
	if (varied(rep, "iterations") || varied(rep, "passes") || varied(rep, "backing"))
		mt_text_wrapf(f, prose, "memtlb %s: %s per region, %zu point%s",
		      mt_cell_safe(cmd, sizeof(cmd), rep->command),
		      mt_cell_safe(ph, sizeof(ph), phase), rep->n_results,
		      rep->n_results == 1 ? "" : "s");
	else
		mt_text_wrapf(f, prose, "memtlb %s: %s per region, %lu iteration%s x %lu pass%s (%s), "
		      "%zu point%s", mt_cell_safe(cmd, sizeof(cmd), rep->command),
		      mt_cell_safe(ph, sizeof(ph), phase), cfg->iterations,
		      cfg->iterations == 1 ? "" : "s", cfg->passes, cfg->passes == 1 ? "" : "es",
		      mt_backing_name(cfg->backing), rep->n_results,
		      rep->n_results == 1 ? "" : "s");
	mt_report_print_system(f, rep, prose);
	mt_report_print_tlb_agreement(f, rep, prose);
	while ((ret = mt_series_next(&c)) > 0) {
		char title[512];

		series_title(title, sizeof(title), rep->results[c.idx[0]]);
		fputc('\n', f);
		mt_text_wrap(f, title, prose, 2);
		ret = series_table(f, rep, phase, &c, wide ? 0 : width);
		if (ret)
			break;
		print_knees(f, rep, &c, prose);
		print_fits(f, rep, c.s, prose);
	}
	mt_series_end(&c);
	if (!ret)
		ret = print_translation(f, rep, phase, wide ? 0 : width, prose);
	if (!ret)
		ret = print_matrix(f, rep, phase, wide ? 0 : width, prose);
	if (!ret)
		ret = mt_rungrid_print_study(f, rep, phase, wide);
	if (!ret)
		print_missing(f, rep, prose);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

int mt_report_print_knees(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, int width)
{
	struct mt_series c;
	int ret;

	if (!phase)
		return -EINVAL;
	ret = mt_series_begin(&c, rep, phase, ko);
	while (!ret && (ret = mt_series_next(&c)) > 0) {
		char title[512];

		series_title(title, sizeof(title), rep->results[c.idx[0]]);
		mt_text_wrap(f, title, width, 2);
		print_knees(f, rep, &c, width);
		print_fits(f, rep, c.s, width);
		ret = 0;
	}
	mt_series_end(&c);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

int mt_report_knee_points(const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko, double *x, double *y, size_t max)
{
	struct mt_series c;
	size_t n = 0;
	int ret;

	if (!phase)
		return -EINVAL;
	ret = mt_series_begin(&c, rep, phase, ko);
	while (!ret && (ret = mt_series_next(&c)) > 0) {
		for (int i = 0; i < c.n_knees && n < max; i++) {
			if (c.knees[i].uncertain)
				continue;
			x[n] = c.x[c.knees[i].after];
			y[n++] = c.y[c.knees[i].after];
		}
		ret = 0;
	}
	mt_series_end(&c);
	return ret ? ret : (int)n;
}

/*
 * The translation columns of the huge pages' point r: base - huge ns per
 * block and its CI's half-width, and whether the pair was measured as
 * asked ("ok") or refused; empty fields on any other point.
 */
static void csv_translation(FILE *f, const struct mt_translation *tr, int n,
			    const struct mt_result *r)
{
	char num[2][40];

	for (int i = 0; i < n; i++) {
		if (tr[i].huge != r)
			continue;
		if (tr[i].refused) {
			fputs(",,refused", f);
			return;
		}
		mt_cell_csv_number(num[0], sizeof(num[0]), tr[i].translation_ns);
		num[1][0] = '\0';
		if (!isnan(tr[i].ci95_ns))
			mt_cell_csv_number(num[1], sizeof(num[1]), tr[i].ci95_ns);
		fprintf(f, "%s,%s,ok", num[0], num[1]);
		return;
	}
	fputs(",,", f);
}

int mt_report_print_sweep_csv(FILE *f, const struct mt_report *rep, const char *phase,
			      const struct mt_knee_opts *ko)
{
	struct mt_series c;
	struct mt_translation *tr;
	int ret, n_tr;

	if (!phase)
		return -EINVAL;
	tr = calloc(rep->n_results + 1, sizeof(*tr));
	if (!tr)
		return -ENOMEM;
	ret = mt_series_begin(&c, rep, phase, ko);
	if (ret) {
		free(tr);
		return ret;
	}
	n_tr = mt_translation_series(rep, phase, tr, rep->n_results);
	/* every unit in its header cell; cv and the knee's step are ratios */
	fprintf(f, "series,params,region_bytes,phase,mean_ns,cv,ns_per_block,faults_per_block,"
		   "misses_per_block,knee_step,translation_ns_per_block,"
		   "translation_ci95_ns_per_block,translation_status\n");
	while ((ret = mt_series_next(&c)) > 0) {
		char title[512], qt[2 * MT_SAFE_MAX + 3], qp[2 * MT_SAFE_MAX + 3];

		series_title(title, sizeof(title), rep->results[c.idx[0]]);
		for (size_t k = 0; k < c.n; k++) {
			const struct mt_result *r = rep->results[c.idx[k]];
			const struct mt_phase_stat *ps = mt_result_phase(r, phase);
			const struct mt_knee *kn = knee_at(&c, k, false);
			char num[3][40];

			mt_cell_csv_number(num[0], sizeof(num[0]), ps->time_ns.mean);
			mt_cell_csv_number(num[1], sizeof(num[1]), ps->time_ns.cv);
			mt_cell_csv_number(num[2], sizeof(num[2]), c.y[k]);
			fprintf(f, "%u,%s,%llu,%s,%s,%s,%s,", c.s,
				mt_cell_csv(qt, sizeof(qt), title, true),
				(unsigned long long)r->region,
				mt_cell_csv(qp, sizeof(qp), phase, false), num[0], num[1], num[2]);
			if (mt_phase_has(ps, MT_DERIVED_FAULTS_PER_BLOCK)) {
				mt_cell_csv_number(num[0], sizeof(num[0]),
						   ps->derived[MT_DERIVED_FAULTS_PER_BLOCK]);
				fputs(num[0], f);
			}
			fputc(',', f);
			if (mt_phase_has(ps, MT_DERIVED_MISSES_PER_BLOCK)) {
				mt_cell_csv_number(num[0], sizeof(num[0]),
						   ps->derived[MT_DERIVED_MISSES_PER_BLOCK]);
				fputs(num[0], f);
			}
			fputc(',', f);
			if (kn) {
				mt_cell_csv_number(num[0], sizeof(num[0]), kn->step);
				fputs(num[0], f);
			}
			fputc(',', f);
			csv_translation(f, tr, n_tr, r);
			fputc('\n', f);
		}
	}
	mt_series_end(&c);
	free(tr);
	return ret;
}
