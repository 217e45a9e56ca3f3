// SPDX-License-Identifier: MIT
/* Text table (test_with_mmap's, widened with counters) and CSV output. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/reach.h"
#include "model/report.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/flush.h"
#include "report/rungrid.h"
#include "report/table.h"
#include "stats/ci.h"

/*
 * The phase table, from the cells every report shares, and under it what
 * explains it: events not supported, counter groups, the '*' mark, meanings.
 * At width when not verbose (--wide: one row per phase whatever the width).
 */
/* A phase's faults: the fault event counted, else the kernel's own count. */
static bool phase_faults(const struct mt_result *r, const struct mt_phase_stat *ps, double *v)
{
	for (unsigned int e = 0; e < r->n_events; e++)
		if ((r->events[e].role == MT_ROLE_MINOR_FAULTS ||
		     r->events[e].role == MT_ROLE_PAGE_FAULTS) &&
		    ps->counters[e].state == MT_COUNTER_OK) {
			*v = ps->counters[e].s.mean;
			return true;
		}
	for (unsigned int x = 0; x < r->n_extras; x++)
		if (!strcmp(r->extra_names[x], "rusage.minflt") && (ps->has_extra & (1ull << x))) {
			*v = ps->extras[x].mean;
			return true;
		}
	return false;
}

/*
 * Fault-around (and huge pages) as measured: pages mapped per fault in the
 * phases that faulted more than one page in at a time. debugfs's
 * fault_around_bytes is beside it only when it could be read.
 */
static void print_fault_around(FILE *f, const struct mt_report *rep, const struct mt_result *r,
			       int width)
{
	uint64_t psz = rep->system.page_size > 0 ? (uint64_t)rep->system.page_size : 4096;
	double pages = (double)(r->region / psz);
	char line[1024];
	size_t k = 0;

	for (unsigned int p = 0; p < r->n_phases && k < sizeof(line); p++) {
		double faults;

		if (!phase_faults(r, &r->phases[p], &faults) || faults < 1 ||
		    pages / faults < 1.05)
			continue;
		k += (size_t)snprintf(line + k, sizeof(line) - k, "%s%s %.1f (%.0f faults)",
				      k ? ", " : "", r->phases[p].name, pages / faults, faults);
	}
	if (!k)
		return;
	if (rep->system.fault_around_state == MT_SYSINFO_READ && rep->system.fault_around_bytes > 0)
		mt_text_wrapf(f, width, "pages mapped per fault: %s; fault_around_bytes %ld", line,
		      rep->system.fault_around_bytes);
	else
		mt_text_wrapf(f, width, "pages mapped per fault: %s; fault_around_bytes %s", line,
		      rep->system.fault_around_state == MT_SYSINFO_ABSENT ?
		      "unknown (debugfs not mounted)" :
		      mt_sysinfo_state_name(rep->system.fault_around_state));
}

static int print_result(FILE *f, const struct mt_report *rep, const struct mt_result *r,
			bool verbose, int width)
{
	struct mt_table *t;
	int ret = mt_phase_table(&t, rep, r, verbose);

	if (ret)
		return ret;
	ret = mt_table_print_fit(f, t, verbose ? 0 : width, 1);
	fputc('\n', f);
	if (!ret)
		ret = mt_table_print_notes_fit(f, t, MT_PROSE_WIDTH(width));
	if (!ret)
		print_fault_around(f, rep, r, MT_PROSE_WIDTH(width));
	mt_table_destroy(t);
	return ret;
}


/* One row of memtlb run's table: a summary over the runs. */
static void run_row(struct mt_table *t, const char *what, const struct mt_summary *s,
		    double scale, double running, bool count)
{
	char mean[MT_CELL_MAX], sd[MT_CELL_MAX] = "-", cv[16] = "-", sem[16] = "-";

	if (count)
		mt_cell_count(mean, sizeof(mean), s->mean);
	else
		mt_cell_time(mean, sizeof(mean), s->mean, scale);
	if (s->n > 1) {	/* one run has no spread */
		if (count)
			mt_cell_count(sd, sizeof(sd), s->stddev);
		else
			mt_cell_time(sd, sizeof(sd), s->stddev, scale);
		snprintf(cv, sizeof(cv), "%.2f", 100.0 * s->cv);
		snprintf(sem, sizeof(sem), "%.2f", 100.0 * s->cv / sqrt((double)s->n));
	}
	mt_table_add(t, "%s", what);
	mt_table_add(t, "%s", mean);
	mt_table_add(t, "%s", sd);
	mt_table_add(t, "%s", cv);
	mt_table_add(t, "%s", sem);
	if (t->ncols > 5 && running < 0.9999)
		mt_table_add(t, "%.1f%%", 100.0 * running);
	else if (t->ncols > 5)
		mt_table_add(t, "%s", "");
}

int mt_run_table(struct mt_table **out, const struct mt_report *rep, bool verbose)
{
	const struct mt_result *r = rep->n_results ? rep->results[0] : NULL;
	const struct mt_phase_stat *ps;
	struct mt_table *t;
	bool multiplexed = false, derived = false;
	double scale;
	const char *unit;
	char what[32];
	int ret;

	*out = NULL;
	if (!r || !r->n_phases)
		return -ENODATA;
	ps = &r->phases[0];
	for (unsigned int e = 0; e < r->n_events; e++)
		multiplexed |= ps->counters[e].state == MT_COUNTER_OK &&
			       ps->counters[e].running < 0.9999;
	ret = mt_table_create(&t, multiplexed ? 6 : 5);
	if (ret)
		return ret;
	mt_table_add(t, "%s", "");
	mt_table_add(t, "%s", "mean");
	mt_table_add(t, "%s", "stddev");
	mt_table_add(t, "%s", "cv (%)");
	mt_table_add(t, "%s", "sem (%)");
	if (multiplexed)
		mt_table_add(t, "%s", "running");
	unit = mt_time_unit(&ps->time_ns.mean, 1, &scale);
	snprintf(what, sizeof(what), "wall time (%s)", unit);
	run_row(t, what, &ps->time_ns, scale, 1.0, false);
	for (unsigned int e = 0; e < r->n_events; e++) {
		const struct mt_counter_stat *cs = &ps->counters[e];
		const char *tu = mt_event_time_unit(r->events[e].name);

		if (cs->state == MT_COUNTER_OK) {
			char name[sizeof(r->events[e].name) + 64];
			int n;

			/* a clock's nanoseconds as perf shows them, in msec */
			n = snprintf(name, sizeof(name), "%s%s%s%s", r->events[e].name,
				     tu ? " (" : "", tu ? tu : "", tu ? ")" : "");
			/* over the runs that counted it, and says so */
			if (cs->s.n < ps->time_ns.n && n > 0 && (size_t)n < sizeof(name))
				snprintf(name + n, sizeof(name) - (size_t)n, " n=%zu of %zu",
					 cs->s.n, ps->time_ns.n);
			run_row(t, name, &cs->s, tu ? MT_CLOCK_NS_PER_UNIT : 1.0, cs->running,
				!tu);
			continue;
		}
		if (!verbose)
			continue;
		mt_table_add(t, "%s", r->events[e].name);
		mt_table_add(t, "%s", mt_cell_state(cs->state));
		for (unsigned int c = 2; c < t->ncols; c++)
			mt_table_add(t, "%s", "");
	}
	for (int d = 0; d < MT_DERIVED_MAX; d++) {
		char cell[MT_CELL_MAX];

		if (!mt_phase_has(ps, d))
			continue;
		derived = true;
		mt_cell_derived(cell, sizeof(cell), ps, d);
		mt_table_add(t, "%s", mt_derived_label(d));
		mt_table_add(t, "%s", cell);
		for (unsigned int c = 2; c < t->ncols; c++)
			mt_table_add(t, "%s", "");
	}
	ret = t->err ? t->err : mt_table_notes(t, rep, r, verbose);
	/* a note each, so that a wrap never cuts a definition */
	mt_table_note(t, "mean over the runs; stddev: sample standard deviation (n-1); "
		      "cv = stddev/mean");
	mt_table_note(t, "sem = stddev/sqrt(runs)/mean, the standard error of the mean "
		      "(perf's \"+- x%%\")");
	if (multiplexed)
		mt_table_note(t, "running: share of time counted where multiplexed, values scaled");
	if (derived)
		mt_table_note(t, "derived metrics: from the means");
	ret = ret ? ret : t->err;
	if (ret) {
		mt_table_destroy(t);
		return ret;
	}
	*out = t;
	return 0;
}

/* memtlb run: its title, the system, and mt_run_table under them. */
static int print_run(FILE *f, const struct mt_report *rep, bool verbose, int width)
{
	struct mt_table *t;
	char cmd[MT_SAFE_MAX], set[MT_SAFE_MAX];
	int ret, prose = MT_PROSE_WIDTH(width);

	mt_text_wrapf(f, prose, "memtlb run: %s: %u run%s%s%s",
	      mt_cell_safe(cmd, sizeof(cmd), rep->command_line), rep->runs,
	      rep->runs == 1 ? "" : "s", rep->event_set[0] ? ", event set " : "",
	      rep->event_set[0] ? mt_cell_safe(set, sizeof(set), rep->event_set) : "");
	/* a line of its own: a long command line cannot wrap it away */
	if (rep->exit_status)
		fprintf(f, "FAILED: exit status %d; stopped after it\n", rep->exit_status);
	mt_report_print_system(f, rep, prose);
	fputc('\n', f);
	ret = mt_run_table(&t, rep, verbose);
	if (ret == -ENODATA)
		return ferror(f) ? -EIO : 0;
	if (ret)
		return ret;
	ret = mt_table_print_fit(f, t, verbose ? 0 : width, 1);
	fputc('\n', f);
	if (!ret)
		ret = mt_table_print_notes_fit(f, t, prose);
	mt_table_destroy(t);
	if (ret)
		return ret;
	return ferror(f) ? -EIO : 0;
}

/* Kernel-side evidence and task rates: a second table, its columns where measured. */
static int print_extras(FILE *f, const struct mt_result *r, int width)
{
	char from[64] = "one extra, untimed iteration";
	unsigned int ncols = 1;
	uint64_t show = 0;
	struct mt_table *t;
	int ret;

	for (unsigned int x = 0; x < r->n_extras && x < MT_EXTRA_MAX; x++) {
		bool nonzero = false, any = false;

		for (unsigned int p = 0; p < r->n_phases; p++) {
			if (!(r->phases[p].has_extra & (1ull << x)))
				continue;
			any = true;
			nonzero |= r->phases[p].extras[x].mean != 0.0;
		}
		/* vmstat counters that never moved would only widen the table. */
		if (any && (nonzero || (strncmp(r->extra_names[x], "vmstat.", 7) &&
					strncmp(r->extra_names[x], "irq.", 4)))) {
			show |= 1ull << x;
			ncols++;
		}
	}
	if (!show)
		return 0;
	ret = mt_table_create(&t, ncols);
	if (ret)
		return ret;
	t->width[0] = 10;
	mt_table_add(t, "%s", MT_HEAD_PHASE);
	for (unsigned int x = 0; x < r->n_extras; x++)
		if (show & (1ull << x))
			mt_table_add(t, "%s", r->extra_names[x]);
	for (unsigned int p = 0; p < r->n_phases; p++) {
		const struct mt_phase_stat *ps = &r->phases[p];
		char cell[MT_CELL_MAX];

		mt_table_add(t, "%s", ps->name);
		for (unsigned int x = 0; x < r->n_extras; x++) {
			if (!(show & (1ull << x)))
				continue;
			if (ps->extras && (ps->has_extra & (1ull << x)))
				mt_cell_count(cell, sizeof(cell), ps->extras[x].mean);
			else
				snprintf(cell, sizeof(cell), "-");
			mt_table_add(t, "%s", cell);
		}
	}
	ret = t->err ? t->err : mt_table_print_fit(f, t, width, 1);
	mt_table_destroy(t);
	if (r->evidence_iter)
		snprintf(from, sizeof(from), "timed iteration %u, read between its phases",
			 r->evidence_iter);
	mt_text_wrapf(f, MT_PROSE_WIDTH(width), "kernel: rusage, vmstat and irq from %s "
	      "(vmstat and irq are system-wide, rusage counts memtlb and its tasks; "
	      "counters that stayed 0 are in the JSON report); blocks/s: mean per timed "
	      "iteration", from);
	return ret;
}

/* "64 KiB": a folio's size, exact. */
static void folio_size(uint64_t v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned int u = 0;

	while (u < 3 && v >= 1024 && !(v % 1024)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)v, unit[u]);
}

/*
 * Each folio size with its bytes and share of the region, largest share
 * first: "pages: 64.0 MiB in 64 KiB folios (100.0%) (kpageflags)". A
 * folio of one base page is a base page; every larger one is named by its
 * size (issue 26).
 */
static void print_folios(FILE *f, const struct mt_mapinfo *m, int width)
{
	const struct mt_pagescan *s = &m->scan;
	/* The smallest size is the base page when base pages hold it all. */
	uint64_t page = s->base && s->base == s->folios[0].bytes ? s->folios[0].size : 0;
	char line[MT_FOLIO_SIZES * 64 + 256], b[32], z[32];
	bool done[MT_FOLIO_SIZES] = { false };
	const char *src = mt_mapinfo_source_label(s->folio_source);
	size_t off = 0;

	for (unsigned int k = 0; k < s->n_folios; k++) {
		unsigned int best = MT_FOLIO_SIZES;

		for (unsigned int i = 0; i < s->n_folios; i++)
			if (!done[i] && (best == MT_FOLIO_SIZES ||
					 s->folios[i].bytes > s->folios[best].bytes))
				best = i;
		done[best] = true;
		mt_size_format(s->folios[best].bytes, b, sizeof(b));
		folio_size(s->folios[best].size, z, sizeof(z));
		off += (size_t)snprintf(line + off, sizeof(line) - off, "%s%s in %s %s (%.1f%%)",
					k ? ", " : "", b, z,
					s->folios[best].size == page ? "base pages" : "folios",
					s->len ? 100.0 * (double)s->folios[best].bytes /
						 (double)s->len : 0.0);
	}
	if (s->absent) {
		mt_size_format(s->absent, b, sizeof(b));
		off += (size_t)snprintf(line + off, sizeof(line) - off, ", %s not mapped", b);
	}
	if (!src[0])
		src = s->smaps ? "smaps, per mapping" : "PAGEMAP_SCAN, page by page";
	mt_text_wrapf(f, width, "pages: %s (%s)%s", line, src,
		      m->page_check > 0 ? ", as requested" : "");
}

static void print_mapping(FILE *f, const struct mt_result *r, int width)
{
	const struct mt_mapinfo *m = &r->map;
	char a[32], k[32], u[32], v[sizeof(m->verdict)];

	/* First, and loud: a result whose pages are not the ones asked for. */
	if (m->page_check < 0) {
		const char *why = m->verdict;

		if (!strncmp(why, "not as requested: ", 18))
			why += 18;
		mt_text_wrapf(f, width, "PAGE SIZE NOT AS REQUESTED: %s", mt_cell_safe(v, sizeof(v), why));
	}
	if (m->scanned && m->scan.n_folios) {
		print_folios(f, m, width);
	} else if (m->scanned) {
		char h[32], b[32];

		/* A report from before folio sizes: its base may hold mTHP folios. */
		mt_size_format(m->scan.huge, h, sizeof(h));
		mt_size_format(m->scan.base, b, sizeof(b));
		mt_text_wrapf(f, width, "pages: %s in huge pages, %s in base pages (%s)%s", h, b,
		      m->scan.smaps ? "smaps, per mapping" : "PAGEMAP_SCAN, page by page",
		      m->page_check > 0 ? ", as requested" : "");
	}
	if (m->folios_counted) {
		mt_text_wrapf(f, width, "folio stats: %llu faults got %llu KiB folios, %llu fell "
			      "back (the kernel's per-size counts, %u iterations with warm-up)",
			      (unsigned long long)m->folio_alloc,
			      (unsigned long long)m->folio_size >> 10,
			      (unsigned long long)m->folio_fallback, m->folio_iters);
	}
	if (m->valid) {
		mt_size_format_short(m->align, a, sizeof(a));
		mt_size_format_short(m->kernel_page, k, sizeof(k));
		mt_size_format_short(m->mmu_page, u, sizeof(u));
		mt_text_wrapf(f, width, "mapping: 0x%llx (aligned to %s), KernelPageSize %s, "
		      "MMUPageSize %s, huge pages %.1f%% (AnonHugePages %llu kB, ShmemPmdMapped "
		      "%llu kB, FilePmdMapped %llu kB, Hugetlb %llu kB)",
		      (unsigned long long)m->addr, a, k, u, 100.0 * m->huge_coverage,
		      (unsigned long long)m->anon_huge >> 10,
		      (unsigned long long)m->shmem_pmd >> 10,
		      (unsigned long long)m->file_pmd >> 10, (unsigned long long)m->hugetlb >> 10);
	}
	if (m->cache_checked)
		mt_text_wrapf(f, width, "file cache: dropped before each iteration; the kernel kept up to "
		      "%llu of %llu pages%s", (unsigned long long)m->cache_resident,
		      (unsigned long long)m->cache_pages,
		      m->cache_resident ? " (the drop was not complete)" : "");
}

/*
 * One part of the region mapped with pages of one size: the page tables
 * that translate it against the caches, and it as a multiple of each data
 * TLB level's reach for that page, appended to line at *k. what names the
 * part after sep: "" for the whole region, else "; 40.0 MiB in 4.0 KiB
 * pages: ".
 */
static void pressure_part(char *line, size_t len, size_t *k, const struct mt_report *rep,
			  const struct mt_reach *lv, size_t n, uint64_t bytes, uint64_t page,
			  const char *sep)
{
	uint64_t pt_bytes = mt_reach_pt_bytes(bytes, page);
	char pt[32], pg[32], caches[128];

	mt_size_format(pt_bytes, pt, sizeof(pt));
	mt_size_format(page, pg, sizeof(pg));
	mt_reach_pt_caches(&rep->system, pt_bytes, caches, sizeof(caches));
	if (*k < len)
		*k += (size_t)snprintf(line + *k, len - *k, "%spage tables %s for %s pages%s%s",
				       sep, pt, pg, caches[0] ? ", " : "", caches);
	for (size_t i = 0; i < n && *k < len; i++) {
		char p[160];

		if (lv[i].page_size != page)
			continue;
		mt_reach_pressure(&lv[i], bytes, p, sizeof(p));
		*k += (size_t)snprintf(line + *k, len - *k, "; %s = %s",
				       strcmp(sep, "") ? "those" : "region", p);
	}
}

/*
 * The region's TLB pressure: a multiple of each data TLB level's reach for
 * the page size it was mapped with, and the page-table entries a walk of it
 * touches, to set against the caches. A region mapped with one page size
 * (more than 99% of it) is that size's; a mixed one (THP that covered part of it) is
 * each part's, with its own page tables and reach: the base-page part of
 * a mostly huge region would otherwise be left out.
 */
static void print_pressure(FILE *f, const struct mt_report *rep, const struct mt_result *r,
			   int width)
{
	const struct mt_pagescan *s = &r->map.scan;
	uint64_t base = rep->system.page_size > 0 ? (uint64_t)rep->system.page_size : 4096;
	uint64_t huge = rep->config.huge_size ? rep->config.huge_size : 2u << 20;
	uint64_t pte = s->base + s->large;
	struct mt_reach lv[2 * MT_REACH_MAX];
	size_t n = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX), k = 0;
	char line[1536];

	if (r->map.scanned && s->len && s->huge * 100 > s->len && pte * 100 > s->len) {
		char a[32], b[32], pg[32], sep[96];

		mt_size_format(pte, a, sizeof(a));
		mt_size_format(s->huge, b, sizeof(b));
		k = (size_t)snprintf(line, sizeof(line), "pressure: a mixed mapping, %s in base "
				     "pages and %s in huge pages", a, b);
		mt_size_format(base, pg, sizeof(pg));
		snprintf(sep, sizeof(sep), "; %s in %s pages: ", a, pg);
		pressure_part(line, sizeof(line), &k, rep, lv, n, pte, base, sep);
		mt_size_format(huge, pg, sizeof(pg));
		snprintf(sep, sizeof(sep), "; %s in %s pages: ", b, pg);
		pressure_part(line, sizeof(line), &k, rep, lv, n, s->huge, huge, sep);
	} else {
		k = (size_t)snprintf(line, sizeof(line), "pressure: ");
		pressure_part(line, sizeof(line), &k, rep, lv, n, r->region,
			      mt_reach_page(rep, r), "");
	}
	if (!n && k < sizeof(line))
		snprintf(line + k, sizeof(line) - k, "; TLB reach unknown (cpuid reports no TLB "
			 "sizes here: memtlb probe measures them)");
	mt_text_wrapf(f, width, "%s", line);
}

/*
 * How the iterations went, when there is more to say than -i: why they
 * stopped (--ci-target), the warm-up left out, the outliers flagged.
 */
static void print_iterations(FILE *f, const struct mt_report *rep, const struct mt_result *r,
			     int width)
{
	char line[1024], ph[MT_SAFE_MAX], why[MT_SAFE_MAX];
	size_t n = 0, shown = 8;

	if (mt_stop_name(r->stop) && (rep->config.ci_target > 0 || r->warmup)) {
		n = (size_t)snprintf(line, sizeof(line), "iterations: %zu summarised, stopped: %s",
				     r->n_phases ? r->phases[0].time_ns.n : 0,
				     mt_stop_name(r->stop));
		if (rep->config.ci_target > 0 && n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n,
					      " (target: 95%% CI within %g%% of the mean of %s)",
					      rep->config.ci_target,
					      rep->config.ci_phases ?
					      mt_cell_safe(ph, sizeof(ph), rep->config.ci_phases) :
					      "every phase");
		if (r->warmup && n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, "; %u warm-up not summarised",
				 r->warmup);
		mt_text_wrap(f, line, width, 2);
	}
	if (!r->n_outliers)
		return;
	n = (size_t)snprintf(line, sizeof(line), "outliers (beyond 1.5 IQR): %u%s:",
			     r->n_outliers, r->n_outliers == MT_OUTLIER_MAX ? " or more" : "");
	for (unsigned int i = 0; i < r->n_outliers && i < shown && n < sizeof(line); i++) {
		const struct mt_outlier *o = &r->outliers[i];

		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s #%u%s%s%s",
				      i ? "," : "",
				      mt_cell_safe(ph, sizeof(ph), o->phase < r->n_phases ?
						   r->phases[o->phase].name : "?"),
				      o->iter + 1, o->cause[0] ? " (" : "",
				      o->cause[0] ? mt_cell_safe(why, sizeof(why), o->cause) : "",
				      o->cause[0] ? ")" : "");
	}
	if (r->n_outliers > shown && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, ", ... (the report lists them)");
	mt_text_wrap(f, line, width, 2);
}


/* --runs: the steady phases' spread between the fresh processes. */
static void print_between(FILE *f, const struct mt_result *r, int width)
{
	char line[2048], ph[MT_SAFE_MAX];
	size_t n;
	bool first = true;

	if (!r->n_runs || !r->blocks)
		return;
	n = (size_t)snprintf(line, sizeof(line), "between runs: %u run%s", r->n_runs,
			     r->n_runs == 1 ? "" : "s");
	for (unsigned int p = 0; p < r->n_phases && n < sizeof(line); p++) {
		const struct mt_phase_stat *ps = &r->phases[p];
		double b = (double)r->blocks;

		if (!mt_phase_steady(ps->name) || !ps->runs)
			continue;
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", %s %.1f ns/block",
				      mt_cell_safe(ph, sizeof(ph), ps->name),
				      ps->between.mean / b);
		if (ps->between.n > 1 && n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, " +- %.1f%s",
					      ps->between_half / b,
					      first ? " (95% CI over runs)" : "");
		first &= ps->between.n < 2;
	}
	mt_text_wrap(f, line, width, 2);
}

/*
 * Where the region stands against the TLB levels of the page it was
 * translated with, into buf: "within L1 dTLB reach", "beyond L1 dTLB,
 * within L2 dTLB reach", "beyond every level's reach (x128 L2 dTLB)";
 * *past gets the largest level the region is beyond (-1: none), for its
 * measured cost.
 */
static void reach_verdict(const struct mt_reach *lv, size_t n, uint64_t page, uint64_t region,
			  char *buf, size_t len, int *past)
{
	int within = -1;

	*past = -1;
	for (size_t i = 0; i < n; i++) {
		if (lv[i].page_size != page)
			continue;
		if (region <= mt_reach_min(&lv[i])) {
			if (within < 0 || mt_reach_min(&lv[i]) < mt_reach_min(&lv[within]))
				within = (int)i;
		} else if (*past < 0 || mt_reach_max(&lv[i]) > mt_reach_max(&lv[*past])) {
			*past = (int)i;
		}
	}
	if (within >= 0 && *past >= 0)
		snprintf(buf, len, "beyond %s, within %s reach", lv[*past].name, lv[within].name);
	else if (within >= 0)
		snprintf(buf, len, "within %s reach", lv[within].name);
	else if (*past >= 0)
		snprintf(buf, len, "beyond every level's reach (x%.3g %s)",
			 (double)region / (double)mt_reach_max(&lv[*past]), lv[*past].name);
	else
		snprintf(buf, len, "TLB reach unknown (memtlb probe measures it)");
}

/*
 * stat's last line, one a perf user can quote: the steady cost per block
 * with its 95% interval, the first touch's faults per block and cost per
 * fault, the dTLB miss ratio where counted, where the region stands
 * against TLB reach, and the translation cost per block where a probe
 * measured it (--tlb: the plateau past the largest level the region is
 * beyond, base pages only). What was not measured is said, never filled.
 */
static void print_verdict(FILE *f, const struct mt_report *rep, const struct mt_result *r,
			  int width)
{
	const char *name = mt_report_default_phase(rep);
	const struct mt_phase_stat *st = name ? mt_result_phase(r, name) : NULL;
	const struct mt_phase_stat *w0 = mt_result_phase(r, "write_0");
	uint64_t base = rep->system.page_size > 0 ? (uint64_t)rep->system.page_size : 4096;
	uint64_t page = mt_reach_page(rep, r);
	struct mt_reach lv[2 * MT_REACH_MAX];
	size_t n = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX), k = 0;
	char line[1024], where[160], ph[MT_SAFE_MAX];
	int past, costed;

	if (!st || !r->blocks)
		return;
	k = (size_t)snprintf(line, sizeof(line), "verdict: %s %.3f ns/block",
			     mt_cell_safe(ph, sizeof(ph), name),
			     st->time_ns.mean / (double)r->blocks);
	if (st->time_ns.n > 1)
		k += (size_t)snprintf(line + k, sizeof(line) - k, " +-%.3f",
				      mt_ci_half95(&st->time_ns) / (double)r->blocks);
	if (w0 && mt_phase_has(w0, MT_DERIVED_FAULTS_PER_BLOCK) && k < sizeof(line)) {
		double fpb = w0->derived[MT_DERIVED_FAULTS_PER_BLOCK];

		k += (size_t)snprintf(line + k, sizeof(line) - k, "; first touch %.3f faults/block",
				      fpb);
		if (fpb > 0 && k < sizeof(line))
			k += (size_t)snprintf(line + k, sizeof(line) - k, ", %.0f ns/fault",
					      w0->time_ns.mean / (fpb * (double)r->blocks));
	}
	if (k < sizeof(line))
		k += mt_phase_has(st, MT_DERIVED_DTLB_MISS_RATIO) ?
		     (size_t)snprintf(line + k, sizeof(line) - k, "; dTLB miss ratio %.4f",
				      st->derived[MT_DERIVED_DTLB_MISS_RATIO]) :
		     (size_t)snprintf(line + k, sizeof(line) - k, "; dTLB miss ratio not counted");
	reach_verdict(lv, n, page, r->region, where, sizeof(where), &past);
	if (k < sizeof(line))
		k += (size_t)snprintf(line + k, sizeof(line) - k, "; region %s", where);
	if (k >= sizeof(line))
		k = sizeof(line) - 1;
	costed = -1;
	for (size_t i = 0; i < n; i++)
		if (lv[i].cost_known && lv[i].page_size == page && r->region > mt_reach_min(&lv[i]) &&
		    (costed < 0 || mt_reach_max(&lv[i]) > mt_reach_max(&lv[costed])))
			costed = (int)i;
	/* a larger level the region is beyond too, whose plateau no probe measured */
	if (page == base && costed >= 0 && mt_reach_max(&lv[past]) > mt_reach_max(&lv[costed]))
		snprintf(line + k, sizeof(line) - k, "; translation at least %.3f ns/block (probe: "
			 "past %s; past %s not measured)", lv[costed].to_ns, lv[costed].name,
			 lv[past].name);
	else if (page == base && costed >= 0)
		snprintf(line + k, sizeof(line) - k, "; translation %.3f ns/block (probe: past %s)",
			 lv[costed].to_ns, lv[costed].name);
	else if (page == base)
		snprintf(line + k, sizeof(line) - k, "; translation cost not measured (memtlb "
			 "probe, then --tlb)");
	mt_text_wrapf(f, width, "%s", line);
}

int mt_report_print_table(FILE *f, const struct mt_report *rep, bool verbose)
{
	const struct mt_config *c = &rep->config;
	char region[32], block[32];
	char cmd[MT_SAFE_MAX], line[512];
	int ret = 0, width = mt_report_width(f, rep), prose = MT_PROSE_WIDTH(width);
	unsigned long iters;
	size_t n;

	if (!strcmp(rep->command, "run") && rep->grid)
		return mt_rungrid_print_table(f, rep, verbose);
	if (!strcmp(rep->command, "run"))
		return print_run(f, rep, verbose, width);
	if (rep->flush)
		return mt_flush_print_table(f, rep, verbose);

	mt_size_format(c->region, region, sizeof(region));
	mt_size_format(c->block, block, sizeof(block));
	/* --ci-target: the count is a limit, print_iterations says what ran */
	iters = c->ci_target > 0 ? c->max_iterations : c->iterations;
	snprintf(line, sizeof(line), "%lu runs x ", c->runs);
	mt_text_wrapf(f, prose,
	      "memtlb %s: region %s (%s), block %s, %s%s%lu iteration%s x %lu pass%s",
	      mt_cell_safe(cmd, sizeof(cmd), rep->command), region, mt_backing_name(c->backing),
	      block, c->runs > 1 ? line : "", c->ci_target > 0 ? "up to " : "", iters,
	      iters == 1 ? "" : "s", c->passes, c->passes == 1 ? "" : "es");
	n = (size_t)snprintf(line, sizeof(line), "pages %s", mt_pages_name(c->pages));
	if (c->pages == MT_PAGES_MTHP) {
		mt_size_format_short(c->huge_size, block, sizeof(block));
		n += (size_t)snprintf(line + n, sizeof(line) - n, ":%s", block);
	}
	n += (size_t)snprintf(line + n, sizeof(line) - n, ", access %s", mt_access_name(c->access));
	if (c->access == MT_ACCESS_STRIDE) {
		mt_size_format_short(c->stride, block, sizeof(block));
		n += (size_t)snprintf(line + n, sizeof(line) - n, ":%s", block);
	} else if (c->access == MT_ACCESS_RANDOM) {
		n += (size_t)snprintf(line + n, sizeof(line) - n, " (seed %llu)",
				      (unsigned long long)c->seed);
	}
	if (c->populate && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", populate");
	if (c->read_first && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", read-first");
	if (c->file_cold && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", file cache cold");
	if (c->cpu >= 0 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", on CPU %d alone", c->cpu);
	if (c->tasks && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, ", %lu %s%s, %s region%s", c->tasks,
			 mt_task_mode_name(c->task_mode), c->tasks > 1 ? "s" : "",
			 mt_task_region_name(c->task_region),
			 c->task_region == MT_TASK_REGION_PRIVATE ? "s" : "");
	mt_text_wrap(f, line, prose, 2);
	mt_report_print_system(f, rep, prose);
	for (size_t i = 0; i < rep->n_results; i++) {
		print_mapping(f, rep->results[i], prose);
		print_pressure(f, rep, rep->results[i], prose);
		print_iterations(f, rep, rep->results[i], prose);
		print_between(f, rep->results[i], prose);
	}
	fputc('\n', f);
	for (size_t i = 0; !ret && i < rep->n_results; i++)
		ret = print_result(f, rep, rep->results[i], verbose, width);
	if (ret)
		return ret;
	mt_text_wrapf(f, prose, "counts: mean per iteration of each phase; (x%%) = share of time "
	      "counted, values scaled");
	for (size_t i = 0; !ret && i < rep->n_results; i++) {
		fputc('\n', f);
		ret = print_extras(f, rep->results[i], verbose ? 0 : width);
	}
	if (ret)
		return ret;
	if (rep->n_results == 1)
		print_verdict(f, rep, rep->results[0], prose);
	return ferror(f) ? -EIO : 0;
}

/* phases and event names come from report files: RFC 4180 fields */
static void csv_summary(FILE *f, const char *phase, const char *metric, const char *unit,
			const struct mt_summary *s, double running, const char *status)
{
	char qp[2 * MT_SAFE_MAX + 3], qm[2 * MT_SAFE_MAX + 3];
	char mean[40], sd[40] = "", cv[40] = "", run[40];

	phase = mt_cell_csv(qp, sizeof(qp), phase, false);
	metric = mt_cell_csv(qm, sizeof(qm), metric, false);
	mt_cell_csv_number(mean, sizeof(mean), s->mean);
	mt_cell_csv_number(run, sizeof(run), running);
	if (s->n > 1) {
		mt_cell_csv_number(sd, sizeof(sd), s->stddev);
		mt_cell_csv_number(cv, sizeof(cv), s->cv);
	}
	/* one sample: no spread, empty fields */
	fprintf(f, "%s,%s,%s,%s,%s,%s,%s,%s\n", phase, metric, unit, mean, sd, cv, run, status);
}

int mt_report_print_csv(FILE *f, const struct mt_report *rep)
{
	if (rep->grid)
		return mt_rungrid_print_csv(f, rep);
	fprintf(f, "point,phase,metric,unit,mean,stddev,cv,running,status\n");
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct mt_result *r = rep->results[i];
		const struct mt_mapinfo *m = &r->map;
		char num[40];

		/* The proof of mapping: no phase, status "mapping". */
		if (m->valid) {
			mt_cell_csv_number(num, sizeof(num), m->huge_coverage);
			fprintf(f, "%zu,,huge_coverage,fraction,%s,,,,mapping\n", i, num);
			fprintf(f, "%zu,,align,bytes,%llu,,,,mapping\n", i,
				(unsigned long long)m->align);
			fprintf(f, "%zu,,kernel_page_size,bytes,%llu,,,,mapping\n", i,
				(unsigned long long)m->kernel_page);
			fprintf(f, "%zu,,mmu_page_size,bytes,%llu,,,,mapping\n", i,
				(unsigned long long)m->mmu_page);
		}
		if (m->cache_checked)
			fprintf(f, "%zu,,file_cache_kept_after_drop,pages,%llu,,,,mapping\n", i,
				(unsigned long long)m->cache_resident);
		for (unsigned int p = 0; p < r->n_phases; p++) {
			const struct mt_phase_stat *ps = &r->phases[p];
			char qp[2 * MT_SAFE_MAX + 3], qe[2 * MT_SAFE_MAX + 3];

			mt_cell_csv(qp, sizeof(qp), ps->name, false);
			fprintf(f, "%zu,", i);
			csv_summary(f, ps->name, "time", "ns", &ps->time_ns, 1.0, "ok");
			for (unsigned int e = 0; e < r->n_events; e++) {
				const struct mt_counter_stat *cs = &ps->counters[e];

				fprintf(f, "%zu,", i);
				/* a clock event counts nanoseconds: its unit says so */
				const char *unit = mt_event_time_unit(r->events[e].name) ?
						   "ns" : "count";

				if (cs->state == MT_COUNTER_OK)
					csv_summary(f, ps->name, r->events[e].name, unit, &cs->s,
						    cs->running, "ok");
				else
					fprintf(f, "%s,%s,%s,,,,,%s\n", qp,
						mt_cell_csv(qe, sizeof(qe), r->events[e].name,
							    false), unit,
						mt_cell_state(cs->state));
			}
			for (int d = 0; d < MT_DERIVED_MAX; d++) {
				if (!mt_phase_has(ps, d))
					continue;
				mt_cell_csv_number(num, sizeof(num), ps->derived[d]);
				fprintf(f, "%zu,%s,%s,%s,%s,,,,derived\n", i, qp,
					mt_derived_name(d), mt_derived_unit(d), num);
			}
			for (unsigned int x = 0; x < r->n_extras; x++) {
				if (!(ps->has_extra & (1ull << x)))
					continue;
				fprintf(f, "%zu,", i);
				csv_summary(f, ps->name, r->extra_names[x],
					    strncmp(r->extra_names[x], "blocks_per_s", 12) ? "count"
											    : "blocks/s",
					    &ps->extras[x], 1.0, "kernel");
			}
		}
	}
	return ferror(f) ? -EIO : 0;
}
