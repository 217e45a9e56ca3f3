// SPDX-License-Identifier: MIT
/*
 * bisect-run's sequential test. Each look takes the change of the
 * candidate's mean from the baseline's with compare's 95% interval (the
 * delta method on Welch's errors) and calls it only when the whole
 * interval is on one side of the threshold; looks grow by half, so a
 * clear kernel costs three repetitions and a close one up to the budget.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/bisect.h"
#include "stats/compare.h"
#include "stats/stats.h"

const char *mt_bisect_verdict_name(enum mt_bisect_verdict v)
{
	static const char *const names[MT_BISECT_VERDICT_MAX] = {
		[MT_BISECT_GOOD] = "good",
		[MT_BISECT_BAD] = "bad",
		[MT_BISECT_UNDECIDED] = "undecided",
		[MT_BISECT_MORE] = "more",
	};

	return v < MT_BISECT_VERDICT_MAX ? names[v] : "?";
}

size_t mt_bisect_next_look(size_t n, size_t max)
{
	size_t next = n < MT_BISECT_FIRST_LOOK ? MT_BISECT_FIRST_LOOK : n + (n + 1) / 2;

	return next < max ? next : max;
}

int mt_bisect_judge(const struct mt_bisect_rule *rule, const struct mt_summary *base,
		    const double *cand, size_t n, struct mt_bisect_decision *out)
{
	struct mt_summary s;
	double lo, hi;
	int ret;

	if (!rule->max_runs || base->n < 2 || base->mean == 0.0 || !(rule->worse == 1 ||
								  rule->worse == -1))
		return -EDOM;
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->verdict = n < rule->max_runs ? MT_BISECT_MORE : MT_BISECT_UNDECIDED;
	if (n < 2 || mt_stats_summarize(cand, n, &s))
		return 0;
	/* In the worse direction: a drop of a cost is an improvement, never bad. */
	out->change = rule->worse * 100.0 * (s.mean - base->mean) / fabs(base->mean);
	ret = mt_compare_ci_pct(base, &s, &lo, &hi);
	if (ret == -ERANGE)
		return 0;	/* the base not clear of 0: no bounded interval, no verdict */
	if (ret)
		return ret;
	out->have_ci = true;
	out->ci_low = rule->worse > 0 ? lo : -hi;
	out->ci_high = rule->worse > 0 ? hi : -lo;
	if (out->ci_low > rule->threshold_pct)
		out->verdict = MT_BISECT_BAD;
	else if (out->ci_high <= rule->threshold_pct)
		out->verdict = MT_BISECT_GOOD;
	return 0;
}

int mt_bisect_decide(const struct mt_bisect_rule *rule, const struct mt_summary *base,
		     mt_bisect_more_fn more, void *arg, struct mt_bisect_decision *out)
{
	struct mt_bisect_rule last = *rule;
	unsigned int looks = 0;
	size_t want = 0;

	do {
		const double *x;
		size_t n;
		int ret;

		want = mt_bisect_next_look(want, rule->max_runs);
		ret = more(arg, want, &x, &n);
		if (ret)
			return ret;
		/* A source that has no more spends the budget where it ends. */
		if (n < want)
			last.max_runs = n ? n : 1;
		else
			n = want;
		ret = mt_bisect_judge(&last, base, x, n, out);
		if (ret)
			return ret;
		out->looks = ++looks;
	} while (out->verdict == MT_BISECT_MORE);
	return 0;
}

int mt_bisect_array_more(void *arg, size_t want, const double **x, size_t *n)
{
	const struct mt_bisect_array *a = arg;

	*x = a->x;
	*n = want < a->n ? want : a->n;
	return 0;
}

bool mt_bisect_is_time(const char *field)
{
	return !strcmp(field, MT_COMPARE_TIME_METRIC) ||
	       !strcmp(field, mt_derived_name(MT_DERIVED_NS_PER_BLOCK)) ||
	       mt_event_time_unit(field);
}

static bool is_derived(const char *field)
{
	for (int d = 0; d < MT_DERIVED_MAX; d++)
		if (!strcmp(field, mt_derived_name(d)))
			return true;
	return false;
}

int mt_bisect_samples(const struct mt_result *r, const char *phase, const char *field,
		      double **out, size_t *n)
{
	const struct mt_phase_stat *ps = mt_result_phase(r, phase);
	const double *src;
	double div = 1.0, *x;
	size_t k = 0, len;
	int e = -1;

	if (!ps)
		return -ENOENT;
	len = ps->time_ns.n;
	if (!strcmp(field, MT_COMPARE_TIME_METRIC)) {
		src = ps->time_samples;
		div = 1000.0;
	} else if (!strcmp(field, mt_derived_name(MT_DERIVED_NS_PER_BLOCK))) {
		src = ps->time_samples;
		div = (double)r->blocks;
		if (!r->blocks)
			return -ENODATA;
	} else if (is_derived(field)) {
		return -ENODATA;	/* a derived metric is one value, of the means */
	} else {
		e = mt_result_event_index(r, field);
		if (e < 0)
			return -ENOENT;
		if (ps->counters[e].state != MT_COUNTER_OK)
			return -ENODATA;
		src = ps->counters[e].samples;
	}
	if (!src || !len)
		return -ENODATA;
	x = malloc(len * sizeof(*x));
	if (!x)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++)
		if (isfinite(src[i]))
			x[k++] = src[i] / div;
	*out = x;
	*n = k;
	return 0;
}

/* An event of phase that counted, kept its samples and is not 0 on the whole. */
static const char *count_of(const struct mt_result *r, const struct mt_phase_stat *ps)
{
	for (unsigned int e = 0; e < r->n_events; e++) {
		const struct mt_counter_stat *cs = &ps->counters[e];

		if (cs->state == MT_COUNTER_OK && cs->samples && cs->s.n >= 2 &&
		    cs->s.mean != 0.0 && !mt_event_time_unit(r->events[e].name))
			return r->events[e].name;
	}
	return NULL;
}

int mt_bisect_default_metric(const struct mt_report *rep, bool emulated, char *phase,
			     size_t phase_len, char *field, size_t field_len)
{
	const char *def = mt_report_default_phase(rep);
	const struct mt_result *r = rep->n_results ? rep->results[0] : NULL;
	const struct mt_phase_stat *ps;
	const char *name;

	if (!r || !def)
		return -ENOENT;
	if (!emulated) {
		snprintf(phase, phase_len, "%s", def);
		snprintf(field, field_len, "%s", mt_derived_name(MT_DERIVED_NS_PER_BLOCK));
		return 0;
	}
	ps = mt_result_phase(r, def);
	name = ps ? count_of(r, ps) : NULL;
	for (unsigned int p = 0; !name && p < r->n_phases; p++) {
		ps = &r->phases[p];
		name = count_of(r, ps);
	}
	if (!name)
		return -ENOENT;
	snprintf(phase, phase_len, "%s", ps->name);
	snprintf(field, field_len, "%s", name);
	return 0;
}
