// SPDX-License-Identifier: MIT
/* Text table (test_with_mmap's, widened with counters) and CSV output. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/report.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/table.h"

/*
 * The phase table, from the cells every report shares, and under it what
 * explains it: events not supported, counter groups, the '*' mark, meanings.
 */
static int print_result(FILE *f, const struct mt_report *rep, const struct mt_result *r,
			bool verbose)
{
	struct mt_table *t;
	int ret = mt_phase_table(&t, rep, r, verbose);

	if (ret)
		return ret;
	ret = mt_table_print_text(f, t);
	fputc('\n', f);
	if (!ret)
		ret = mt_table_print_notes(f, t);
	mt_table_destroy(t);
	return ret;
}

/* One row of memtlb run's table: a summary over the runs. */
static void run_row(FILE *f, const char *what, const struct mt_summary *s, double scale,
		    double running)
{
	char mean[32], sd[32] = "-", cv[16] = "-", sem[16] = "-", run[16] = "";

	snprintf(mean, sizeof(mean), "%.2f", s->mean / scale);
	if (s->n > 1) {	/* one run has no spread */
		snprintf(sd, sizeof(sd), "%.2f", s->stddev / scale);
		snprintf(cv, sizeof(cv), "%.2f", 100.0 * s->cv);
		snprintf(sem, sizeof(sem), "%.2f", 100.0 * s->cv / sqrt((double)s->n));
	}
	if (running < 0.9999)
		snprintf(run, sizeof(run), "%.1f%%", 100.0 * running);
	fprintf(f, "%-32s %16s %14s %8s %8s %8s\n", what, mean, sd, cv, sem, run);
}

/*
 * memtlb run: one row per event, perf stat's shape, with the spread
 * spelt out: sample stddev and cv over the runs, and the standard error
 * of the mean (what perf prints as "+- x%") in its own labelled column.
 */
void mt_report_print_emulated(FILE *f, const struct mt_report *rep)
{
	char why[MT_SAFE_MAX];

	mt_cell_safe(why, sizeof(why), rep->system.emulation.evidence);
	/* An emulated PMU counts what qemu's translator models, not a TLB. */
	if (rep->system.emulation.emulated == 1) {
		fprintf(f, "emulated CPU: %s\n", why);
		fprintf(f, "these counts and times are qemu's, not hardware's: no TLB conclusion\n");
	} else if (rep->system.emulation.emulated < 0 && why[0]) {
		fprintf(f, "CPU perhaps emulated: %s\n", why);
		fprintf(f, "under TCG these counts and times are qemu's: no TLB conclusion\n");
	}
}

static int print_run(FILE *f, const struct mt_report *rep, bool verbose)
{
	const struct mt_result *r = rep->n_results ? rep->results[0] : NULL;
	const struct mt_phase_stat *ps;
	struct mt_table *notes;
	int ret;

	char kern[MT_SAFE_MAX], cpu[MT_SAFE_MAX], be[MT_SAFE_MAX], cmd[MT_SAFE_MAX];

	fprintf(f, "memtlb run: %s: %u run%s", mt_cell_safe(cmd, sizeof(cmd), rep->command_line),
		rep->runs, rep->runs == 1 ? "" : "s");
	if (rep->exit_status)
		fprintf(f, " (FAILED: exit status %d; stopped after it)", rep->exit_status);
	if (rep->event_set[0])
		fprintf(f, ", event set %s", mt_cell_safe(cmd, sizeof(cmd), rep->event_set));
	fprintf(f, "\nkernel %s on %s, counters: %s%s\n\n",
		mt_cell_safe(kern, sizeof(kern), rep->system.kernel),
		mt_cell_safe(cpu, sizeof(cpu), rep->system.cpu[0] ? rep->system.cpu :
			     rep->system.machine),
		mt_cell_safe(be, sizeof(be), rep->backend),
		rep->user_only ? " (user space only)" : "");
	mt_report_print_emulated(f, rep);
	if (!r || !r->n_phases)
		return ferror(f) ? -EIO : 0;
	ps = &r->phases[0];
	fprintf(f, "%-32s %16s %14s %8s %8s %8s\n", "", "mean", "stddev", "cv (%)",
		"sem (%)", "running");
	run_row(f, "wall time (ms)", &ps->time_ns, 1e6, 1.0);
	for (unsigned int e = 0; e < r->n_events; e++) {
		const struct mt_counter_stat *cs = &ps->counters[e];

		if (cs->state == MT_COUNTER_OK)
			run_row(f, r->events[e].name, &cs->s, 1.0, cs->running);
		else
			fprintf(f, "%-32s %16s\n", r->events[e].name, mt_cell_state(cs->state));
	}
	for (int d = 0; d < MT_DERIVED_MAX; d++) {
		char cell[MT_CELL_MAX];

		if (!mt_phase_has(ps, d))
			continue;
		mt_cell_derived(cell, sizeof(cell), ps, d);
		fprintf(f, "%-32s %16s   (from the means)\n", mt_derived_label(d), cell);
	}
	fputc('\n', f);
	ret = mt_table_create(&notes, 1);
	if (!ret)
		ret = mt_table_notes(notes, rep, r, verbose);
	if (!ret)
		ret = mt_table_print_notes(f, notes);
	mt_table_destroy(notes);
	if (ret)
		return ret;
	fprintf(f, "mean over the runs; stddev: sample standard deviation (n-1); "
		   "cv = stddev/mean;\nsem = stddev/sqrt(runs)/mean, the standard error of the "
		   "mean (perf stat's \"+- x%%\");\nrunning: share of time counted where "
		   "multiplexed, values scaled\n");
	return ferror(f) ? -EIO : 0;
}

/* Kernel-side evidence and task rates: a second table, its columns where measured. */
static void print_extras(FILE *f, const struct mt_result *r)
{
	uint64_t show = 0;
	int w[MT_EXTRA_MAX];

	for (unsigned int x = 0; x < r->n_extras && x < MT_EXTRA_MAX; x++) {
		bool nonzero = false, any = false;

		for (unsigned int p = 0; p < r->n_phases; p++) {
			if (!(r->phases[p].has_extra & (1ull << x)))
				continue;
			any = true;
			nonzero |= r->phases[p].extras[x].mean != 0.0;
		}
		/* vmstat counters that never moved would only widen the table. */
		if (any && (nonzero || strncmp(r->extra_names[x], "vmstat.", 7)))
			show |= 1ull << x;
	}
	if (!show)
		return;
	fprintf(f, "%-10s", "phase");
	for (unsigned int x = 0; x < r->n_extras; x++) {
		if (!(show & (1ull << x)))
			continue;
		w[x] = (int)strlen(r->extra_names[x]);
		if (w[x] < 12)
			w[x] = 12;
		fprintf(f, " %*s", w[x], r->extra_names[x]);
	}
	fputc('\n', f);
	for (unsigned int p = 0; p < r->n_phases; p++) {
		const struct mt_phase_stat *ps = &r->phases[p];

		fprintf(f, "%-10s", ps->name);
		for (unsigned int x = 0; x < r->n_extras; x++) {
			double v = ps->extras ? ps->extras[x].mean : 0.0;

			if (!(show & (1ull << x)))
				continue;
			if (!(ps->has_extra & (1ull << x)))
				fprintf(f, " %*s", w[x], "-");
			else
				fprintf(f, " %*.*f", w[x], v >= 100.0 || v == (double)(int64_t)v ? 0 : 2,
					v);
		}
		fputc('\n', f);
	}
	fprintf(f, "kernel: rusage and vmstat from one extra, untimed iteration (vmstat is "
		   "system-wide, rusage counts memtlb and its tasks; counters that stayed 0 are "
		   "in the JSON report); blocks/s: mean per timed iteration\n");
}

static void print_mapping(FILE *f, const struct mt_result *r)
{
	const struct mt_mapinfo *m = &r->map;
	char a[32], k[32], u[32];

	if (m->valid) {
		mt_size_format_short(m->align, a, sizeof(a));
		mt_size_format_short(m->kernel_page, k, sizeof(k));
		mt_size_format_short(m->mmu_page, u, sizeof(u));
		fprintf(f, "mapping: 0x%llx (aligned to %s), KernelPageSize %s, MMUPageSize %s, "
			"huge pages %.1f%% (AnonHugePages %llu kB, ShmemPmdMapped %llu kB, "
			"FilePmdMapped %llu kB, Hugetlb %llu kB)\n",
			(unsigned long long)m->addr, a, k, u, 100.0 * m->huge_coverage,
			(unsigned long long)m->anon_huge >> 10, (unsigned long long)m->shmem_pmd >> 10,
			(unsigned long long)m->file_pmd >> 10, (unsigned long long)m->hugetlb >> 10);
	}
	if (m->cache_checked)
		fprintf(f, "file cache: dropped before each iteration; the kernel kept up to "
			"%llu of %llu pages%s\n", (unsigned long long)m->cache_resident,
			(unsigned long long)m->cache_pages,
			m->cache_resident ? " (the drop was not complete)" : "");
}

int mt_report_print_table(FILE *f, const struct mt_report *rep, bool verbose)
{
	const struct mt_config *c = &rep->config;
	char region[32], block[32], kern[MT_SAFE_MAX], cpu[MT_SAFE_MAX], be[MT_SAFE_MAX];
	char cmd[MT_SAFE_MAX];
	int ret = 0;

	if (!strcmp(rep->command, "run"))
		return print_run(f, rep, verbose);

	mt_size_format(c->region, region, sizeof(region));
	mt_size_format(c->block, block, sizeof(block));
	fprintf(f, "memtlb %s: region %s (%s), block %s, %lu iteration%s x %lu pass%s\n",
		mt_cell_safe(cmd, sizeof(cmd), rep->command), region, mt_backing_name(c->backing),
		block, c->iterations,
		c->iterations == 1 ? "" : "s", c->passes, c->passes == 1 ? "" : "es");
	fprintf(f, "pages %s, access %s", mt_pages_name(c->pages), mt_access_name(c->access));
	if (c->access == MT_ACCESS_STRIDE) {
		mt_size_format_short(c->stride, block, sizeof(block));
		fprintf(f, ":%s", block);
	} else if (c->access == MT_ACCESS_RANDOM) {
		fprintf(f, " (seed %llu)", (unsigned long long)c->seed);
	}
	if (c->populate)
		fprintf(f, ", populate");
	if (c->read_first)
		fprintf(f, ", read-first");
	if (c->file_cold)
		fprintf(f, ", file cache cold");
	if (c->tasks)
		fprintf(f, ", %lu %s%s, %s region%s", c->tasks, mt_task_mode_name(c->task_mode),
			c->tasks > 1 ? "s" : "", mt_task_region_name(c->task_region),
			c->task_region == MT_TASK_REGION_PRIVATE ? "s" : "");
	fputc('\n', f);
	fprintf(f, "kernel %s on %s, counters: %s%s\n",
		mt_cell_safe(kern, sizeof(kern), rep->system.kernel),
		mt_cell_safe(cpu, sizeof(cpu), rep->system.cpu[0] ? rep->system.cpu :
			     rep->system.machine),
		mt_cell_safe(be, sizeof(be), rep->backend),
		rep->user_only ? " (user space only)" : "");
	mt_report_print_emulated(f, rep);
	for (size_t i = 0; i < rep->n_results; i++)
		print_mapping(f, rep->results[i]);
	fputc('\n', f);
	for (size_t i = 0; !ret && i < rep->n_results; i++)
		ret = print_result(f, rep, rep->results[i], verbose);
	if (ret)
		return ret;
	fprintf(f, "counts: mean per iteration of each phase; (x%%) = share of time counted, "
		   "values scaled\n");
	for (size_t i = 0; i < rep->n_results; i++) {
		fputc('\n', f);
		print_extras(f, rep->results[i]);
	}
	return ferror(f) ? -EIO : 0;
}

/* phases and event names come from report files: RFC 4180 fields */
static void csv_summary(FILE *f, const char *phase, const char *metric, const char *unit,
			const struct mt_summary *s, double running, const char *status)
{
	char qp[2 * MT_SAFE_MAX + 3], qm[2 * MT_SAFE_MAX + 3];

	phase = mt_cell_csv(qp, sizeof(qp), phase, false);
	metric = mt_cell_csv(qm, sizeof(qm), metric, false);
	if (s->n > 1)
		fprintf(f, "%s,%s,%s,%.6g,%.6g,%.6g,%.4f,%s\n", phase, metric, unit, s->mean,
			s->stddev, s->cv, running, status);
	else	/* one sample: no spread */
		fprintf(f, "%s,%s,%s,%.6g,,,%.4f,%s\n", phase, metric, unit, s->mean, running,
			status);
}

int mt_report_print_csv(FILE *f, const struct mt_report *rep)
{
	fprintf(f, "point,phase,metric,unit,mean,stddev,cv,running,status\n");
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct mt_result *r = rep->results[i];
		const struct mt_mapinfo *m = &r->map;

		/* The proof of mapping: no phase, status "mapping". */
		if (m->valid) {
			fprintf(f, "%zu,,huge_coverage,fraction,%.6g,,,,mapping\n", i, m->huge_coverage);
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
				if (cs->state == MT_COUNTER_OK)
					csv_summary(f, ps->name, r->events[e].name, "count", &cs->s,
						    cs->running, "ok");
				else
					fprintf(f, "%s,%s,count,,,,,%s\n", qp,
						mt_cell_csv(qe, sizeof(qe), r->events[e].name,
							    false),
						mt_cell_state(cs->state));
			}
			for (int d = 0; d < MT_DERIVED_MAX; d++) {
				if (!mt_phase_has(ps, d))
					continue;
				fprintf(f, "%zu,%s,%s,%s,%.6g,,,,derived\n", i, qp,
					mt_derived_name(d), mt_derived_unit(d), ps->derived[d]);
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
