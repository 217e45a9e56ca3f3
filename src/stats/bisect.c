// SPDX-License-Identifier: MIT
/*
 * bisect-run's sequential test. Each look takes the change of the
 * candidate from the baseline as the Hodges-Lehmann shift with the
 * interval that inverts the Mann-Whitney test, in percent of the base's
 * median, and calls it only when the whole interval is on one side of the
 * threshold; looks grow by half, so a clear kernel costs three repetitions
 * and a close one up to the budget.
 *
 * Why not the mean's interval (compare's delta method on Welch's errors),
 * which it was: per-iteration times on a loaded machine are heavy-tailed
 * (one iteration in ten several times the rest), and the mean of three to
 * twelve of them swings with whether an outlier was drawn while Student's
 * t assumes it does not; the replayed bisections gave dozens of wrong
 * verdicts. The shift's interval is distribution-free (its level holds
 * whatever the noise, given that the candidate is the base shifted), an
 * outlier moves it by one rank, and it is exact and deterministic: no
 * resampling, no seed, the same samples always give the same verdict. A
 * percentile bootstrap of the ratio of medians would be robust too, but
 * it is an approximation that is worst just where bisect-run starts (three
 * samples have three medians to resample) and a verdict would hang on the
 * seed.
 *
 * Why Bonferroni: every look is a chance to err, so a 95% interval at
 * each of 6 looks errs more often than 5% over the kernel's test. The
 * looks' levels are split so that they add up to 5%, which holds whatever
 * the looks' dependence and spacing (Pocock's constant boundary is a
 * little narrower but assumes a normal statistic at equally spaced looks,
 * and these are neither). The split is in proportion to each look's
 * repetitions: a look of 3 decides only a change far from the threshold,
 * where a strict level costs nothing, and the looks of 18 and 30, where
 * a close kernel is decided, keep most of it. And it is one-sided: a
 * verdict rests on one end of the interval, bad on the low end above the
 * threshold, good on the high end at or below it, and for any true change
 * only one of the two can be wrong. So each end is a 95% bound over all
 * the looks, a wrong verdict has a chance of 5% at most, and the interval
 * between the ends is a 90% one (as a two one-sided tests procedure's).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/bisect.h"
#include "stats/compare.h"
#include "stats/mwu.h"
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

	/*
	 * A last look of less than half a step (27 then 30) would cost a
	 * look's share of the level for a few repetitions: take the budget.
	 */
	if (n >= MT_BISECT_FIRST_LOOK && next < max && max - next < (next + 1) / 2)
		next = max;
	return next < max ? next : max;
}

double mt_bisect_look_alpha(size_t n, size_t max)
{
	size_t sum = 0;

	for (size_t k = 0; k < max; k = mt_bisect_next_look(k, max))
		sum += mt_bisect_next_look(k, max);
	return sum ? MT_COMPARE_ALPHA * (double)(n < max ? n : max) / (double)sum : 0.0;
}

int mt_bisect_judge(const struct mt_bisect_rule *rule, const struct mt_bisect_array *base,
		    const double *cand, size_t n, struct mt_bisect_decision *out)
{
	double alpha, scale, lo, hi;
	struct mt_summary b;
	struct mt_hl hl;
	int ret;

	if (!rule->max_runs || base->n < 2 || mt_stats_summarize(base->x, base->n, &b) ||
	    b.median == 0.0 || !(rule->worse == 1 || rule->worse == -1))
		return -EDOM;
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->verdict = n < rule->max_runs ? MT_BISECT_MORE : MT_BISECT_UNDECIDED;
	if (!n)
		return 0;
	alpha = 2.0 * mt_bisect_look_alpha(n, rule->max_runs);
	ret = mt_stats_hl(cand, n, base->x, base->n, alpha, &hl);
	if (ret)
		return ret;
	/* In the worse direction: a drop of a cost is an improvement, never bad. */
	scale = rule->worse * 100.0 / fabs(b.median);
	out->change = scale * hl.shift;
	if (isinf(hl.low))
		return 0;	/* too few repetitions yet for any interval at alpha */
	lo = scale * hl.low;
	hi = scale * hl.high;
	out->have_ci = true;
	out->ci_low = fmin(lo, hi);
	out->ci_high = fmax(lo, hi);
	if (out->ci_low > rule->threshold_pct)
		out->verdict = MT_BISECT_BAD;
	else if (out->ci_high <= rule->threshold_pct)
		out->verdict = MT_BISECT_GOOD;
	return 0;
}

int mt_bisect_decide(const struct mt_bisect_rule *rule, const struct mt_bisect_array *base,
		     mt_bisect_more_fn more, void *arg, struct mt_bisect_decision *out)
{
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
		if (n > want)
			n = want;
		/* The level stays the budget's, so a short source judges no looser. */
		ret = mt_bisect_judge(rule, base, x, n, out);
		if (ret)
			return ret;
		out->looks = ++looks;
		/* A source that has no more spends the budget where it ends. */
		if (out->verdict == MT_BISECT_MORE && n < want)
			out->verdict = MT_BISECT_UNDECIDED;
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
