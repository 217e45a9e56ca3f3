// SPDX-License-Identifier: MIT
/* Summaries, scaling of multiplexed counts, and the derived metrics. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of n sorted samples, interpolated between the two around it. */
static double quantile(const double *sorted, size_t n, double q)
{
	double h = q * (double)(n - 1);
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

/* x[0..n) sorted into a new array (free it); NULL: no memory. */
static double *sorted_copy(const double *x, size_t n)
{
	double *sorted = malloc(n * sizeof(*sorted));

	if (!sorted)
		return NULL;
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	return sorted;
}

int mt_stats_quartiles(const double *x, size_t n, double q[3])
{
	double *sorted;

	if (!n)
		return -EINVAL;
	sorted = sorted_copy(x, n);
	if (!sorted)
		return -ENOMEM;
	for (int i = 0; i < 3; i++)
		q[i] = quantile(sorted, n, 0.25 * (i + 1));
	free(sorted);
	return 0;
}

int mt_stats_summarize(const double *x, size_t n, struct mt_summary *s)
{
	double sum = 0.0, ss = 0.0, *sorted;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	sorted = sorted_copy(x, n);
	if (!sorted)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	s->n = n;
	s->mean = sum / (double)n;
	/* Two passes: no cancellation from sum-of-squares on large counts. */
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
	s->cv = s->mean != 0.0 ? s->stddev / fabs(s->mean) : 0.0;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = n & 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
	free(sorted);
	return 0;
}

/*
 * One event in one phase: each iteration's delta scaled by enabled/running
 * time, as perf_counts_values__scale does; iterations that never ran are
 * left out, and a phase where none ran is "not counted", never 0.
 */
static int counter_stat(const struct mt_samples *s, unsigned int phase, unsigned int ev,
			double *buf, struct mt_counter_stat *cs)
{
	uint64_t ena = 0, run = 0;
	size_t n = 0;

	cs->samples = malloc((s->n_iter ? s->n_iter : 1) * sizeof(*cs->samples));
	if (!cs->samples)
		return -ENOMEM;
	for (unsigned int i = 0; i < s->n_iter; i++) {
		const struct mt_counts *c = mt_samples_counts((struct mt_samples *)s, phase, ev, i);

		cs->samples[i] = NAN;
		/* The share is of the iterations summarised, as the mean is. */
		if (!c->run)
			continue;
		ena += c->ena;
		run += c->run;
		buf[n] = c->run < c->ena ? (double)c->val * ((double)c->ena / (double)c->run)
					 : (double)c->val;
		cs->samples[i] = buf[n++];
	}
	if (!n) {
		cs->state = MT_COUNTER_NOT_COUNTED;
		return 0;
	}
	cs->state = MT_COUNTER_OK;
	cs->running = ena ? (double)run / (double)ena : 1.0;
	cs->run_ns = (double)run / (double)n;
	return mt_stats_summarize(buf, n, &cs->s);
}

int mt_result_from_samples(struct mt_result **out, const struct mt_samples *s,
			   const struct mt_event *ev, uint64_t region, uint64_t block,
			   uint64_t blocks)
{
	struct mt_result *r;
	double *buf;
	int ret;

	ret = mt_result_create(&r, s->n_phases, s->n_events);
	if (ret)
		return ret;
	r->region = region;
	r->block = block;
	r->blocks = blocks;
	for (unsigned int e = 0; e < s->n_events; e++) {
		snprintf(r->events[e].name, sizeof(r->events[e].name), "%s", ev[e].name);
		r->events[e].role = mt_event_role(&ev[e]);
		r->events[e].err = -ev[e].err;
		r->events[e].user_only = ev[e].user_only;
		r->events[e].rusage = ev[e].rusage;
		r->events[e].group = ev[e].err ? -1 : (int)ev[e].group;
		snprintf(r->events[e].meaning, sizeof(r->events[e].meaning), "%s", ev[e].meaning);
	}
	buf = malloc((s->n_iter ? s->n_iter : 1) * sizeof(*buf));
	if (!buf) {
		mt_result_destroy(r);
		return -ENOMEM;
	}
	for (unsigned int p = 0; !ret && p < s->n_phases; p++) {
		struct mt_phase_stat *ps = &r->phases[p];

		snprintf(ps->name, sizeof(ps->name), "%s", s->phase_names[p]);
		ps->time_samples = malloc((s->n_iter ? s->n_iter : 1) * sizeof(double));
		if (!ps->time_samples) {
			ret = -ENOMEM;
			break;
		}
		for (unsigned int i = 0; i < s->n_iter; i++)
			ps->time_samples[i] = (double)*mt_samples_time((struct mt_samples *)s, p, i);
		/* no iteration (run --vary: a column whose runs all failed): n 0 */
		if (s->n_iter)
			ret = mt_stats_summarize(ps->time_samples, s->n_iter, &ps->time_ns);
		for (unsigned int e = 0; !ret && e < s->n_events; e++) {
			if (ev[e].err)
				ps->counters[e].state = MT_COUNTER_UNSUPPORTED;
			else
				ret = counter_stat(s, p, e, buf, &ps->counters[e]);
		}
	}
	free(buf);
	if (ret) {
		mt_result_destroy(r);
		return ret;
	}
	mt_result_derive(r);
	*out = r;
	return 0;
}

/*
 * One input of a derived metric: the mean of the first event with this
 * role. NAN when it was asked for but not counted, the dfl given when it
 * was not asked for; *group is its counter group (-1: none).
 */
static double role_mean(const struct mt_result *r, const struct mt_phase_stat *ps,
			enum mt_role role, double dfl, int *group)
{
	*group = -1;
	for (unsigned int e = 0; e < r->n_events; e++) {
		if (r->events[e].role != role)
			continue;
		*group = r->events[e].group;
		return ps->counters[e].state == MT_COUNTER_OK ? ps->counters[e].s.mean : NAN;
	}
	return dfl;
}

/* Set d when v is a number; groups a and b differ: mark it. */
static void set(struct mt_phase_stat *ps, enum mt_derived d, double v, int ga, int gb)
{
	if (isnan(v) || isinf(v))
		return;
	ps->derived[d] = v;
	ps->has_derived |= 1u << d;
	if (ga >= 0 && gb >= 0 && ga != gb)
		ps->cross_group |= 1u << d;
}

void mt_result_derive(struct mt_result *r)
{
	double blocks = (double)r->blocks;

	for (unsigned int p = 0; p < r->n_phases; p++) {
		struct mt_phase_stat *ps = &r->phases[p];
		int gf, gmaj, gl, gm, gi, gc, gw, git;
		double faults = role_mean(r, ps, MT_ROLE_PAGE_FAULTS, INFINITY, &gf);
		double loads = role_mean(r, ps, MT_ROLE_DTLB_LOADS, NAN, &gl);
		double misses = role_mean(r, ps, MT_ROLE_DTLB_MISSES, NAN, &gm);
		double instr = role_mean(r, ps, MT_ROLE_INSTRUCTIONS, NAN, &gi);
		double cycles = role_mean(r, ps, MT_ROLE_CYCLES, NAN, &gc);
		double walk = role_mean(r, ps, MT_ROLE_WALK_CYCLES, NAN, &gw);
		double itlb = role_mean(r, ps, MT_ROLE_ITLB_MISSES, NAN, &git);

		ps->has_derived = 0;
		ps->cross_group = 0;
		if (isinf(faults)) {
			/*
			 * page-faults = minor + major. Without major-faults in the
			 * set, minor faults are all the faults we know of; a major
			 * count that was asked for and missing leaves it absent.
			 * Software events are exact: their groups do not matter.
			 */
			faults = role_mean(r, ps, MT_ROLE_MINOR_FAULTS, NAN, &gf) +
				 role_mean(r, ps, MT_ROLE_MAJOR_FAULTS, 0.0, &gmaj);
		}
		/* Ratios of counts: the same time slices only if the same group. */
		if (loads > 0)
			set(ps, MT_DERIVED_DTLB_MISS_RATIO, misses / loads, gm, gl);
		if (instr > 0) {
			set(ps, MT_DERIVED_DTLB_MISS_RATE, misses / instr, gm, gi);
			set(ps, MT_DERIVED_DTLB_MPKI, 1000.0 * misses / instr, gm, gi);
			set(ps, MT_DERIVED_ITLB_MPKI, 1000.0 * itlb / instr, git, gi);
		}
		if (cycles > 0)
			set(ps, MT_DERIVED_WALK_CYCLES_SHARE, walk / cycles, gw, gc);
		/* Per block: the workload's blocks (memtlb run has none). */
		if (!r->blocks)
			continue;
		set(ps, MT_DERIVED_NS_PER_BLOCK, ps->time_ns.mean / blocks, -1, -1);
		set(ps, MT_DERIVED_FAULTS_PER_BLOCK, faults / blocks, -1, -1);
		set(ps, MT_DERIVED_MISSES_PER_BLOCK, misses / blocks, -1, -1);
	}
}
