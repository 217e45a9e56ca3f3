// SPDX-License-Identifier: MIT
/* Least squares of time on a count (stats/fit.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/result.h"
#include "stats/fit.h"
#include "stats/knee.h"

int mt_fit_linear(const double *x, const double *y, size_t n, struct mt_fit *out)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, ssr = 0;

	if (n < 3)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			return -EINVAL;
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	/* Centred sums: counts of 10^9 squared would lose the slope otherwise. */
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - mx, dy = y[i] - my;

		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	if (!(sxx > 0))
		return -EINVAL;
	out->slope = sxy / sxx;
	out->intercept = my - out->slope * mx;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - (out->intercept + out->slope * x[i]);

		ssr += e * e;
	}
	out->r2 = syy > 0 ? 1.0 - ssr / syy : 1.0;
	out->n = n;
	return 0;
}

/* The counts worth a slope: faults and TLB misses (ns per fault, per miss). */
static bool fit_role(enum mt_role role)
{
	switch (role) {
	case MT_ROLE_PAGE_FAULTS:
	case MT_ROLE_MINOR_FAULTS:
	case MT_ROLE_MAJOR_FAULTS:
	case MT_ROLE_DTLB_MISSES:
	case MT_ROLE_ITLB_MISSES:
		return true;
	default:
		return false;
	}
}

/* The mean count of x in a result's phase: an event's, else an extra's. */
static bool count_of(const struct mt_result *r, const struct mt_phase_stat *ps, const char *x,
		     double *v)
{
	int e = mt_result_event_index(r, x);

	if (e >= 0) {
		if (ps->counters[e].state != MT_COUNTER_OK)
			return false;
		*v = ps->counters[e].s.mean;
		return true;
	}
	for (unsigned int i = 0; i < r->n_extras; i++) {
		if (!strcmp(r->extra_names[i], x) && (ps->has_extra & (1ull << i))) {
			*v = ps->extras[i].mean;
			return true;
		}
	}
	return false;
}

static int fit_one(struct mt_result *const *res, size_t n, const unsigned int *series,
		   unsigned int s, const char *phase, const char *x, struct mt_fit_row *row,
		   double *xs, double *ys)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		const struct mt_phase_stat *ps;

		if (series[i] != s || !(ps = mt_result_phase(res[i], phase)))
			continue;
		if (!count_of(res[i], ps, x, &xs[m]))
			return -ENOENT;
		ys[m++] = ps->time_ns.mean;
	}
	if (mt_fit_linear(xs, ys, m, &row->fit))
		return -EINVAL;
	row->series = s;
	snprintf(row->phase, sizeof(row->phase), "%s", phase);
	snprintf(row->x, sizeof(row->x), "%s", x);
	return 0;
}

int mt_fit_results(struct mt_result *const *res, size_t n, struct mt_fit_row *out, size_t max)
{
	unsigned int *series;
	double *xs, *ys;
	size_t n_series, k = 0;

	if (!n)
		return 0;
	series = calloc(n, sizeof(*series));
	xs = calloc(n, sizeof(*xs));
	ys = calloc(n, sizeof(*ys));
	if (!series || !xs || !ys) {
		free(series);
		free(xs);
		free(ys);
		return -ENOMEM;
	}
	n_series = mt_knee_series(res, n, series);
	for (unsigned int s = 0; s < n_series; s++) {
		const struct mt_result *first = NULL;

		for (size_t i = 0; i < n && !first; i++)
			if (series[i] == s)
				first = res[i];
		for (unsigned int p = 0; p < first->n_phases; p++) {
			const char *phase = first->phases[p].name;
			bool faults = false;

			for (unsigned int e = 0; e < first->n_events && k < max; e++) {
				const struct mt_result_event *ev = &first->events[e];

				if (!fit_role(ev->role))
					continue;
				if (!fit_one(res, n, series, s, phase, ev->name, &out[k], xs, ys))
					k++;
				faults |= ev->role != MT_ROLE_DTLB_MISSES &&
					  ev->role != MT_ROLE_ITLB_MISSES && !ev->err;
			}
			/* Without a fault event, the kernel's own per-task count. */
			if (!faults && k < max &&
			    !fit_one(res, n, series, s, phase, "rusage.minflt", &out[k], xs, ys))
				k++;
		}
	}
	free(series);
	free(xs);
	free(ys);
	return (int)k;
}
