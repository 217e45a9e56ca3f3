// SPDX-License-Identifier: MIT
/* Summaries, scaling of multiplexed counts, and the derived metrics. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <memtlb/stats.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int mt_stats_summarize(const double *x, size_t n, struct mt_summary *s)
{
	double sum = 0.0, ss = 0.0, *sorted;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
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

const char *mt_derived_name(enum mt_derived d)
{
	static const char *const names[MT_DERIVED_MAX] = {
		[MT_DERIVED_NS_PER_BLOCK] = "ns_per_block",
		[MT_DERIVED_FAULTS_PER_BLOCK] = "faults_per_block",
		[MT_DERIVED_DTLB_MISS_RATIO] = "dtlb_miss_ratio",
		[MT_DERIVED_MISSES_PER_BLOCK] = "misses_per_block",
		[MT_DERIVED_DTLB_MISS_RATE] = "dtlb_miss_rate",
		[MT_DERIVED_DTLB_MPKI] = "dtlb_mpki",
		[MT_DERIVED_ITLB_MPKI] = "itlb_mpki",
		[MT_DERIVED_WALK_CYCLES_SHARE] = "walk_cycles_share",
	};

	return d < MT_DERIVED_MAX ? names[d] : NULL;
}

const char *mt_derived_unit(enum mt_derived d)
{
	static const char *const units[MT_DERIVED_MAX] = {
		[MT_DERIVED_NS_PER_BLOCK] = "ns/block",
		[MT_DERIVED_FAULTS_PER_BLOCK] = "faults/block",
		[MT_DERIVED_DTLB_MISS_RATIO] = "fraction",
		[MT_DERIVED_MISSES_PER_BLOCK] = "misses/block",
		[MT_DERIVED_DTLB_MISS_RATE] = "per instruction",
		[MT_DERIVED_DTLB_MPKI] = "per 1000 instructions",
		[MT_DERIVED_ITLB_MPKI] = "per 1000 instructions",
		[MT_DERIVED_WALK_CYCLES_SHARE] = "fraction",
	};

	return d < MT_DERIVED_MAX ? units[d] : NULL;
}

enum mt_role mt_event_role(const struct mt_event *ev)
{
	const struct perf_event_attr *a = &ev->attr;
	const __u64 dtlb_read = PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_OP_READ << 8);

	if (ev->role > MT_ROLE_NONE && ev->role < MT_ROLE_MAX)
		return (enum mt_role)ev->role;
	if (a->type == PERF_TYPE_HARDWARE) {
		switch (a->config) {
		case PERF_COUNT_HW_CPU_CYCLES: return MT_ROLE_CYCLES;
		case PERF_COUNT_HW_INSTRUCTIONS: return MT_ROLE_INSTRUCTIONS;
		}
	} else if (a->type == PERF_TYPE_SOFTWARE) {
		switch (a->config) {
		case PERF_COUNT_SW_PAGE_FAULTS: return MT_ROLE_PAGE_FAULTS;
		case PERF_COUNT_SW_PAGE_FAULTS_MIN: return MT_ROLE_MINOR_FAULTS;
		case PERF_COUNT_SW_PAGE_FAULTS_MAJ: return MT_ROLE_MAJOR_FAULTS;
		}
	} else if (a->type == PERF_TYPE_HW_CACHE) {
		if (a->config == (dtlb_read | (PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16)))
			return MT_ROLE_DTLB_LOADS;
		if (a->config == (dtlb_read | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16)))
			return MT_ROLE_DTLB_MISSES;
	}
	return MT_ROLE_NONE;
}

int mt_result_create(struct mt_result **out, unsigned int n_phases, unsigned int n_events)
{
	struct mt_result *r;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->n_phases = n_phases;
	r->n_events = n_events;
	r->phases = calloc(n_phases, sizeof(*r->phases));
	r->events = calloc(n_events ? n_events : 1, sizeof(*r->events));
	if (!r->phases || !r->events) {
		mt_result_destroy(r);
		return -ENOMEM;
	}
	for (unsigned int p = 0; p < n_phases; p++) {
		r->phases[p].counters = calloc(n_events ? n_events : 1,
					       sizeof(*r->phases[p].counters));
		if (!r->phases[p].counters) {
			mt_result_destroy(r);
			return -ENOMEM;
		}
	}
	*out = r;
	return 0;
}

void mt_result_destroy(struct mt_result *r)
{
	if (!r)
		return;
	for (unsigned int p = 0; r->phases && p < r->n_phases; p++) {
		free(r->phases[p].extras);
		free(r->phases[p].counters);
		free(r->phases[p].time_samples);
	}
	free(r->phases);
	free(r->events);
	free(r->extra_names);
	free(r);
}

int mt_result_set_extras(struct mt_result *r, unsigned int n)
{
	if (n > MT_EXTRA_MAX)
		return -EINVAL;
	r->extra_names = calloc(n ? n : 1, sizeof(*r->extra_names));
	if (!r->extra_names)
		return -ENOMEM;
	r->n_extras = n;
	for (unsigned int p = 0; p < r->n_phases; p++) {
		r->phases[p].extras = calloc(n ? n : 1, sizeof(*r->phases[p].extras));
		if (!r->phases[p].extras)
			return -ENOMEM;
	}
	return 0;
}

const struct mt_phase_stat *mt_result_phase(const struct mt_result *r, const char *name)
{
	for (unsigned int p = 0; p < r->n_phases; p++)
		if (!strcmp(r->phases[p].name, name))
			return &r->phases[p];
	return NULL;
}

int mt_result_event_index(const struct mt_result *r, const char *name)
{
	for (unsigned int i = 0; i < r->n_events; i++)
		if (!strcmp(r->events[i].name, name))
			return (int)i;
	return -1;
}

int mt_result_set_param(struct mt_result *r, const char *key, const char *value)
{
	unsigned int i;

	if (strlen(key) >= sizeof(r->vary[0].key) || strlen(value) >= sizeof(r->vary[0].value))
		return -ENAMETOOLONG;
	for (i = 0; i < r->n_vary; i++)
		if (!strcmp(r->vary[i].key, key))
			break;
	if (i == MT_PARAM_MAX)
		return -E2BIG;
	snprintf(r->vary[i].key, sizeof(r->vary[i].key), "%s", key);
	snprintf(r->vary[i].value, sizeof(r->vary[i].value), "%s", value);
	if (i == r->n_vary)
		r->n_vary++;
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

	for (unsigned int i = 0; i < s->n_iter; i++) {
		const struct mt_counts *c = mt_samples_counts((struct mt_samples *)s, phase, ev, i);

		ena += c->ena;
		run += c->run;
		if (!c->run)
			continue;
		buf[n++] = c->run < c->ena ? (double)c->val * ((double)c->ena / (double)c->run)
					   : (double)c->val;
	}
	if (!n) {
		cs->state = MT_COUNTER_NOT_COUNTED;
		return 0;
	}
	cs->state = MT_COUNTER_OK;
	cs->running = ena ? (double)run / (double)ena : 1.0;
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
		r->events[e].group = ev[e].err ? -1 : (int)ev[e].group;
		snprintf(r->events[e].meaning, sizeof(r->events[e].meaning), "%s", ev[e].meaning);
	}
	buf = malloc(s->n_iter * sizeof(*buf));
	if (!buf) {
		mt_result_destroy(r);
		return -ENOMEM;
	}
	for (unsigned int p = 0; !ret && p < s->n_phases; p++) {
		struct mt_phase_stat *ps = &r->phases[p];

		snprintf(ps->name, sizeof(ps->name), "%s", s->phase_names[p]);
		ps->time_samples = malloc(s->n_iter * sizeof(double));
		if (!ps->time_samples) {
			ret = -ENOMEM;
			break;
		}
		for (unsigned int i = 0; i < s->n_iter; i++)
			ps->time_samples[i] = (double)*mt_samples_time((struct mt_samples *)s, p, i);
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

int mt_result_never_scheduled(const struct mt_result *r, struct mt_event *ev, size_t n)
{
	int marked = 0, groups = mt_result_groups(r);

	for (int g = 0; g < groups; g++) {
		unsigned int members = 0, counted = 0;

		for (unsigned int e = 0; e < r->n_events && e < n; e++) {
			if (r->events[e].group != g)
				continue;
			members++;
			for (unsigned int p = 0; p < r->n_phases; p++)
				if (r->phases[p].counters[e].state == MT_COUNTER_OK)
					counted++;
		}
		if (members < 2 || counted)
			continue;
		for (unsigned int e = 0; e < r->n_events && e < n; e++) {
			if (r->events[e].group == g && !ev[e].alone) {
				ev[e].alone = true;
				marked++;
			}
		}
	}
	return marked;
}

int mt_result_groups(const struct mt_result *r)
{
	int g = 0;

	for (unsigned int e = 0; e < r->n_events; e++)
		if (r->events[e].group + 1 > g)
			g = r->events[e].group + 1;
	return g;
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
