// SPDX-License-Identifier: MIT
/* Plateaus and the steps between them, on a rising curve. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/steps.h"

#define MAXN 256

void mt_step_opts_init(struct mt_step_opts *o)
{
	o->ratio = 1.5;
	o->min_rise = 0.4;
}

bool mt_steps_rises(double p, double cp, double y, double cy, const struct mt_step_opts *o)
{
	double d = y - p;

	return d >= o->min_rise && d >= (o->ratio - 1.0) * fabs(p) && y - cy > p + cp;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of y[s..e) without the spikes: one outlier does not move a plateau. */
static double plateau(const double *y, const bool *spike, size_t s, size_t e, double *cp,
		      const double *ci)
{
	double v[MAXN];
	size_t k = 0;

	*cp = ci[e - 1];
	for (size_t i = s; i < e; i++)
		if (!spike[i])
			v[k++] = y[i];
	if (!k)
		return y[e - 1];
	qsort(v, k, sizeof(v[0]), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/*
 * Two rises with a plateau of one or two points between them are one ramp
 * that paused (a noisy point, a partial miss), not two levels. A rise at
 * the largest size, with nothing after it to show it stays, is not joined
 * to a step that did stay up: a burst there must not unconfirm it.
 */
static size_t merge(struct mt_step *st, size_t k)
{
	size_t w = 0;

	for (size_t r = 0; r < k; r++) {
		if (w && st[r].before <= st[w - 1].top + 1 &&
		    (st[r].confirmed || !st[w - 1].confirmed)) {
			st[w - 1].top = st[r].top;
			st[w - 1].to = st[r].to;
			st[w - 1].confirmed = st[r].confirmed;
			continue;
		}
		st[w++] = st[r];
	}
	return w;
}

size_t mt_steps_find(const double *y, const double *ci, size_t n, const struct mt_step_opts *o,
		     struct mt_step *out, size_t max)
{
	struct mt_step_opts cont = { .ratio = sqrt(o->ratio), .min_rise = o->min_rise };
	bool spike[MAXN];
	size_t s = 0, k = 0, ramp_end = 0;

	if (n > MAXN)
		n = MAXN;
	memset(spike, 0, sizeof(spike));
	for (size_t j = 1; j < n; j++) {
		double cp, p = plateau(y, spike, s, j, &cp, ci);
		/*
		 * A ramp goes on while each point rises over the one before by
		 * the ratio's square root and min_rise, the intervals apart: a
		 * TLB whose misses grow as 1 - entries / size rises by less
		 * than the ratio per point, but a walk cost that keeps growing
		 * slowly past the level is no part of its step.
		 */
		bool more = k && ramp_end == j - 1 &&
			    mt_steps_rises(y[j - 1], ci[j - 1], y[j], ci[j], &cont);

		if (!more && !mt_steps_rises(p, cp, y[j], ci[j], o))
			continue;
		if (j + 1 < n && y[j + 1] < (p + y[j]) / 2) {
			spike[j] = true;
			continue;
		}
		if (k && ramp_end == j - 1) {
			/* Still rising: the same step, its top moves up (and it stayed up). */
			out[k - 1].to = y[j];
			out[k - 1].top = j;
			out[k - 1].confirmed = true;
		} else if (k < max) {
			out[k].before = j - 1;
			out[k].after = j;
			out[k].top = j;
			out[k].from = p;
			out[k].to = y[j];
			out[k].confirmed = j + 1 < n;
			k++;
		}
		ramp_end = j;
		s = j;
	}
	return merge(out, k);
}
