// SPDX-License-Identifier: MIT
/*
 * Seed 000's sweep table: one row per region with one phase's mean, ns per
 * block, faults and misses per block where counted, and the knees of each
 * series. Works on any report (a sweep's, or one loaded back), so knees are
 * recomputed without rerunning.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/report.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/table.h"
#include "stats/knee.h"

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

struct curve {
	size_t n;
	size_t *idx;
	double *x, *y;
	struct mt_knee knees[MT_KNEE_MAX];
	int n_knees;		/* < 0: not computed (-EINVAL: repeated regions) */
};

static void curve_free(struct curve *c)
{
	free(c->idx);
	free(c->x);
	free(c->y);
}

/* A series' curve: 0, -ENOENT (no point has the phase), -ENOMEM; freed on error. */
static int curve_get(const struct mt_report *rep, const unsigned int *series, unsigned int s,
		     const char *phase, const struct mt_knee_opts *ko, struct curve *c)
{
	size_t n = rep->n_results;
	int ret = -ENOMEM;

	memset(c, 0, sizeof(*c));
	c->idx = calloc(n, sizeof(*c->idx));
	c->x = calloc(n, sizeof(*c->x));
	c->y = calloc(n, sizeof(*c->y));
	if (c->idx && c->x && c->y)
		ret = mt_knee_curve(rep->results, n, series, s, phase, c->idx, c->x, c->y, &c->n);
	if (ret) {
		curve_free(c);
		return ret;
	}
	c->n_knees = c->n < 3 ? 0 : mt_knee_find(c->x, c->y, c->n, ko, c->knees, MT_KNEE_MAX);
	return 0;
}

static const struct mt_knee *knee_at(const struct curve *c, size_t k)
{
	for (int i = 0; i < c->n_knees; i++)
		if (c->knees[i].after == k)
			return &c->knees[i];
	return NULL;
}

static void print_knees(FILE *f, const struct curve *c, const struct mt_knee_opts *ko)
{
	char a[32], b[32];
	size_t at = 0;
	double worst;

	if (c->n_knees < 0) {
		fprintf(f, "knee: not computed (%s)\n",
			c->n_knees == -EINVAL ? "a region measured twice, or a zero cost" :
						"out of memory");
		return;
	}
	if (c->n < 3) {
		fprintf(f, "knee: none (3 points or more are needed)\n");
		return;
	}
	for (int i = 0; i < c->n_knees; i++) {
		const struct mt_knee *k = &c->knees[i];

		mt_size_format_short((uint64_t)c->x[k->before], a, sizeof(a));
		mt_size_format_short((uint64_t)c->x[k->after], b, sizeof(b));
		fprintf(f, "knee: %s -> %s, ns/block x%.1f%s\n", a, b, k->step,
			k->confirmed ? "" : " (at the last point: not confirmed)");
	}
	if (c->n_knees)
		return;
	worst = mt_knee_largest_step(c->y, c->n, &at);
	mt_size_format_short((uint64_t)c->x[at], a, sizeof(a));
	mt_size_format_short((uint64_t)c->x[at + 1], b, sizeof(b));
	fprintf(f, "knee: none (largest one-step rise x%.2f, %s -> %s; a knee is x%.1f over "
		   "the trend)\n", worst, a, b, ko->ratio);
}

/* A note once per report: misses per block needs dTLB events the machine lacks. */
static void print_missing(FILE *f, const struct mt_report *rep)
{
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct mt_result *r = rep->results[i];

		for (unsigned int e = 0; e < r->n_events; e++) {
			const char *name = r->events[e].name;

			if (r->n_phases && r->phases[0].counters[e].state == MT_COUNTER_UNSUPPORTED &&
			    (r->events[e].role == MT_ROLE_DTLB_MISSES ||
			     (strcasestr(name, "tlb") && strcasestr(name, "miss")))) {
				fprintf(f, "misses/block: absent, %s is not supported%s%s\n",
					r->events[e].name, r->events[e].reason[0] ? ": " : "",
					r->events[e].reason);
				return;
			}
		}
	}
}

int mt_report_print_sweep(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko)
{
	const struct mt_config *cfg = &rep->config;
	struct mt_knee_opts def;
	unsigned int *series;
	size_t n_series;
	char kern[MT_SAFE_MAX], cpu[MT_SAFE_MAX], be[MT_SAFE_MAX], cmd[MT_SAFE_MAX];
	char ph[MT_SAFE_MAX];
	int ret = 0;

	/* A report without a read pass has no default phase: nothing to show. */
	if (!phase)
		return -EINVAL;
	if (!ko) {
		mt_knee_opts_init(&def);
		ko = &def;
	}

	series = calloc(rep->n_results ? rep->n_results : 1, sizeof(*series));
	if (!series)
		return -ENOMEM;
	n_series = mt_knee_series(rep->results, rep->n_results, series);
	/* What --vary changes is in each series' title, not in this header. */
	if (varied(rep, "iterations") || varied(rep, "passes") || varied(rep, "backing"))
		fprintf(f, "memtlb %s: %s per region, %zu point%s\n",
			mt_cell_safe(cmd, sizeof(cmd), rep->command),
			mt_cell_safe(ph, sizeof(ph), phase), rep->n_results,
			rep->n_results == 1 ? "" : "s");
	else
		fprintf(f, "memtlb %s: %s per region, %lu iteration%s x %lu pass%s (%s), "
			"%zu point%s\n", mt_cell_safe(cmd, sizeof(cmd), rep->command),
			mt_cell_safe(ph, sizeof(ph), phase), cfg->iterations,
			cfg->iterations == 1 ? "" : "s", cfg->passes, cfg->passes == 1 ? "" : "es",
			mt_backing_name(cfg->backing), rep->n_results,
			rep->n_results == 1 ? "" : "s");
	fprintf(f, "kernel %s on %s, counters: %s%s\n",
		mt_cell_safe(kern, sizeof(kern), rep->system.kernel),
		mt_cell_safe(cpu, sizeof(cpu), rep->system.cpu[0] ? rep->system.cpu :
			     rep->system.machine),
		mt_cell_safe(be, sizeof(be), rep->backend),
		rep->user_only ? " (user space only)" : "");
	mt_report_print_emulated(f, rep);
	for (unsigned int s = 0; s < n_series; s++) {
		bool faults = false, misses = false;
		char title[512];
		struct curve c;

		ret = curve_get(rep, series, s, phase, ko, &c);
		if (ret == -ENOENT) {	/* no point of this series has the phase */
			ret = 0;
			continue;
		}
		if (ret)
			break;
		for (size_t k = 0; k < c.n; k++) {
			const struct mt_phase_stat *ps = mt_result_phase(rep->results[c.idx[k]], phase);

			faults |= mt_phase_has(ps, MT_DERIVED_FAULTS_PER_BLOCK);
			misses |= mt_phase_has(ps, MT_DERIVED_MISSES_PER_BLOCK);
		}
		series_title(title, sizeof(title), rep->results[c.idx[0]]);
		fprintf(f, "\n%s\n%-10s %14s %8s %10s", title, "region", "mean (us)", "cv (%)",
			"ns/block");
		if (faults)
			fprintf(f, " %13s", "faults/block");
		if (misses)
			fprintf(f, " %13s", "misses/block");
		fprintf(f, "  knee\n");
		for (size_t k = 0; k < c.n; k++) {
			const struct mt_result *r = rep->results[c.idx[k]];
			const struct mt_phase_stat *ps = mt_result_phase(r, phase);
			const struct mt_knee *kn = knee_at(&c, k);
			char reg[32];

			mt_size_format_short(r->region, reg, sizeof(reg));
			fprintf(f, "%-10s %14.2f %8.2f %10.3f", reg, ps->time_ns.mean / 1000.0,
				100.0 * ps->time_ns.cv, c.y[k]);
			if (faults) {
				if (mt_phase_has(ps, MT_DERIVED_FAULTS_PER_BLOCK))
					fprintf(f, " %13.3f", ps->derived[MT_DERIVED_FAULTS_PER_BLOCK]);
				else
					fprintf(f, " %13s", "-");
			}
			if (misses) {
				if (mt_phase_has(ps, MT_DERIVED_MISSES_PER_BLOCK))
					fprintf(f, " %13.3f", ps->derived[MT_DERIVED_MISSES_PER_BLOCK]);
				else
					fprintf(f, " %13s", "-");
			}
			if (kn)
				fprintf(f, "  <- x%.1f%s", kn->step, kn->confirmed ? "" : "?");
			fputc('\n', f);
		}
		print_knees(f, &c, ko);
		curve_free(&c);
	}
	if (!ret)
		print_missing(f, rep);
	free(series);
	return ret;
}

int mt_report_print_sweep_csv(FILE *f, const struct mt_report *rep, const char *phase,
			      const struct mt_knee_opts *ko)
{
	unsigned int *series;
	size_t n_series;
	int ret = 0;

	if (!phase)
		return -EINVAL;
	series = calloc(rep->n_results ? rep->n_results : 1, sizeof(*series));
	if (!series)
		return -ENOMEM;
	n_series = mt_knee_series(rep->results, rep->n_results, series);
	fprintf(f, "series,params,region,phase,mean_ns,cv,ns_per_block,faults_per_block,"
		   "misses_per_block,knee_step\n");
	for (unsigned int s = 0; s < n_series; s++) {
		char title[512], qt[2 * MT_SAFE_MAX + 3], qp[2 * MT_SAFE_MAX + 3];
		struct curve c;

		ret = curve_get(rep, series, s, phase, ko, &c);
		if (ret == -ENOENT) {	/* no point of this series has the phase */
			ret = 0;
			continue;
		}
		if (ret)
			break;
		series_title(title, sizeof(title), rep->results[c.idx[0]]);
		for (size_t k = 0; k < c.n; k++) {
			const struct mt_result *r = rep->results[c.idx[k]];
			const struct mt_phase_stat *ps = mt_result_phase(r, phase);
			const struct mt_knee *kn = knee_at(&c, k);

			fprintf(f, "%u,%s,%llu,%s,%.6g,%.6g,%.6g,", s,
				mt_cell_csv(qt, sizeof(qt), title, true),
				(unsigned long long)r->region,
				mt_cell_csv(qp, sizeof(qp), phase, false), ps->time_ns.mean,
				ps->time_ns.cv, c.y[k]);
			if (mt_phase_has(ps, MT_DERIVED_FAULTS_PER_BLOCK))
				fprintf(f, "%.6g", ps->derived[MT_DERIVED_FAULTS_PER_BLOCK]);
			fputc(',', f);
			if (mt_phase_has(ps, MT_DERIVED_MISSES_PER_BLOCK))
				fprintf(f, "%.6g", ps->derived[MT_DERIVED_MISSES_PER_BLOCK]);
			fputc(',', f);
			if (kn)
				fprintf(f, "%.4g", kn->step);
			fputc('\n', f);
		}
		curve_free(&c);
	}
	free(series);
	return ret;
}
