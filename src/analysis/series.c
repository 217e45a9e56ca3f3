// SPDX-License-Identifier: MIT
/*
 * A report's curves and their knees, each with the TLB level that explains
 * it: computed from the results whenever a printer asks, so a report read
 * back is analysed again (at the knee ratio asked, on the phase asked)
 * without rerunning, and every printer says the same.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/series.h"
#include "model/reach.h"
#include "stats/knee.h"

/*
 * The level whose reach lies between knee i's regions, for the page size
 * its points were mapped with: cpuid's levels, then the measured ones.
 */
static void explain(struct mt_series *it, int i)
{
	const struct mt_knee *k = &it->knees[i];
	struct mt_series_level *l = &it->level[i];

	memset(l, 0, sizeof(*l));
	l->found = mt_reach_knee(it->rep, it->rep->results[it->idx[k->after]],
				 (uint64_t)it->x[k->before], (uint64_t)it->x[k->after], &l->lv,
				 &l->page);
}

int mt_series_begin(struct mt_series *it, const struct mt_report *rep, const char *phase,
		    const struct mt_knee_opts *ko)
{
	size_t n = rep->n_results ? rep->n_results : 1;

	memset(it, 0, sizeof(*it));
	it->rep = rep;
	it->phase = phase;
	if (ko) {
		it->ko = *ko;
	} else {
		mt_knee_opts_init(&it->ko);
		if (rep->knee_ratio > 1.0)
			it->ko.ratio = rep->knee_ratio;
	}
	it->ids = calloc(n, sizeof(*it->ids));
	it->idx = calloc(n, sizeof(*it->idx));
	it->x = calloc(n, sizeof(*it->x));
	it->y = calloc(n, sizeof(*it->y));
	it->cv = calloc(n, sizeof(*it->cv));
	if (!it->ids || !it->idx || !it->x || !it->y || !it->cv) {
		mt_series_end(it);
		return -ENOMEM;
	}
	it->n_series = mt_knee_series(rep->results, rep->n_results, it->ids);
	return 0;
}

int mt_series_next(struct mt_series *it)
{
	while (it->phase && it->next < it->n_series) {
		int ret = mt_knee_curve(it->rep->results, it->rep->n_results, it->ids, it->next,
					it->phase, it->idx, it->x, it->y, &it->n);

		it->s = it->next++;
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		it->n_knees = it->n < 3 ? 0 : mt_knee_find(it->x, it->y, it->n, &it->ko,
							   it->knees, MT_KNEE_MAX);
		mt_knee_curve_cv(it->rep->results, it->idx, it->n, it->phase, it->cv);
		if (it->n_knees > 0)
			mt_knee_judge(it->knees, it->n_knees, it->cv);
		for (int i = 0; i < it->n_knees; i++)
			explain(it, i);
		return 1;
	}
	return 0;
}

void mt_series_end(struct mt_series *it)
{
	free(it->ids);
	free(it->idx);
	free(it->x);
	free(it->y);
	free(it->cv);
	/* a failed begin ends it already: a second end frees nothing */
	it->ids = NULL;
	it->idx = NULL;
	it->x = it->y = it->cv = NULL;
}

int mt_series_knees(const struct mt_series *c)
{
	int n = 0;

	for (int i = 0; i < c->n_knees; i++)
		n += !c->knees[i].uncertain;
	return n;
}

enum mt_knee_why mt_series_why(const struct mt_series *c, size_t at)
{
	struct mt_knee_step *steps;
	enum mt_knee_why why;

	if (at + 1 >= c->n)
		return MT_KNEE_WHY_TREND;
	for (int i = 0; i < c->n_knees; i++)
		if (c->knees[i].after == at + 1)
			return c->knees[i].uncertain ? MT_KNEE_WHY_UNCERTAIN : MT_KNEE_WHY_KNEE;
	steps = calloc(c->n, sizeof(*steps));
	if (!steps || mt_knee_explain(c->x, c->y, c->n, &c->ko, steps) < 0) {
		free(steps);
		return MT_KNEE_WHY_TREND;
	}
	why = steps[at + 1].why;
	/* a rise back out of a dip is the dip's doing, not the point's */
	if (steps[at].why == MT_KNEE_WHY_DIP && why == MT_KNEE_WHY_TREND)
		why = MT_KNEE_WHY_DIP;
	free(steps);
	return why;
}

void mt_series_key(const struct mt_result *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < r->n_vary && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "", r->vary[i].key,
				      r->vary[i].value);
}
