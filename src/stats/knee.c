// SPDX-License-Identifier: MIT
/*
 * Knee detection on cost-per-block curves.
 *
 * lmbench's tlb compares each size with the smallest (ratio > 1.15) and
 * Calibrator looks for a rise of log10 latency > 0.3 between plateaus;
 * both assume a flat curve and evenly spaced points, and a single noisy
 * point makes a knee. Here, per level (the points since the previous knee,
 * minus rejected outliers), a power law y = a x^b (b >= 0, least squares in
 * log-log space) and an affine y = a + b x (a, b >= 0) are fitted and the
 * better one is the trend, so a curve that rises smoothly (cost per block
 * that grows with the region, as a power or as a fixed cost plus a linear
 * one) is a trend, not a knee, whatever the spacing. A step is a knee when
 * the next point lies opts.ratio or more above that trend there, and the
 * median of the following points stays at least sqrt(ratio) above the trend
 * (it "stays there"); a point that jumps either way by the ratio and comes
 * back is an outlier and leaves the trend alone.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/stats.h"

void mt_knee_opts_init(struct mt_knee_opts *o)
{
	o->ratio = MT_KNEE_RATIO_DEFAULT;
	o->min_base = 2;
	o->confirm = 3;
}

struct trend {
	bool affine;	/* y = a + b x; else log y = a + b log x */
	double a, b;
};

/* A level's points: from..to where use[i], with their logarithms. */
struct level {
	const double *x, *y, *lx, *ly;
	const bool *use;
	size_t from, to;
};

static double predict(const struct trend *t, double x)
{
	return t->affine ? t->a + t->b * x : exp(t->a + t->b * log(x));
}

/* Least squares on the logarithms, b >= 0. */
static void fit_power(const struct level *l, struct trend *t)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;

	for (size_t i = l->from; i <= l->to; i++) {
		if (!l->use[i])
			continue;
		sx += l->lx[i];
		sy += l->ly[i];
		sxx += l->lx[i] * l->lx[i];
		sxy += l->lx[i] * l->ly[i];
		m++;
	}
	t->affine = false;
	t->b = 0.0;
	if (m >= 2 && m * sxx - sx * sx > 1e-12)
		t->b = (m * sxy - sx * sy) / (m * sxx - sx * sx);
	if (t->b < 0.0)
		t->b = 0.0;
	t->a = (sy - t->b * sx) / m;
}

/*
 * y = a + b x with a, b >= 0, least squares on relative errors (weights
 * 1/y^2, as the logarithms weigh the power law), x scaled by the level's
 * last region so that the sums stay near 1. The optimum is the unconstrained
 * one when it is feasible, else the better of b = 0 and a = 0.
 */
static void fit_affine(const struct level *l, struct trend *t)
{
	double sw = 0, swx = 0, swxx = 0, swy = 0, swxy = 0;
	double sc = l->x[l->to], det, cand[3][2];
	double best = INFINITY;

	for (size_t i = l->from; i <= l->to; i++) {
		double w, u;

		if (!l->use[i])
			continue;
		w = 1.0 / (l->y[i] * l->y[i]);
		u = l->x[i] / sc;
		sw += w;
		swx += w * u;
		swxx += w * u * u;
		swy += w * l->y[i];
		swxy += w * u * l->y[i];
	}
	cand[0][0] = swy / sw;
	cand[0][1] = 0.0;
	cand[1][0] = 0.0;
	cand[1][1] = swxy / swxx;
	cand[2][0] = -1.0;
	det = sw * swxx - swx * swx;
	if (det > 1e-12 * sw * swxx) {
		cand[2][0] = (swy * swxx - swx * swxy) / det;
		cand[2][1] = (sw * swxy - swx * swy) / det;
	}
	t->affine = true;
	for (int c = 0; c < 3; c++) {
		double ca = cand[c][0], cb = cand[c][1], s = 0.0;

		if (ca < 0.0 || cb < 0.0)
			continue;
		for (size_t i = l->from; i <= l->to; i++) {
			double d;

			if (!l->use[i])
				continue;
			d = (l->y[i] - ca - cb * l->x[i] / sc) / l->y[i];
			s += d * d;
		}
		/* Flat (b = 0) comes first and stays unless another is clearly closer. */
		if (s < best - 1e-12) {
			best = s;
			t->a = ca;
			t->b = cb / sc;
		}
	}
}

static double log_residual(const struct level *l, const struct trend *t)
{
	double r = 0.0;

	for (size_t i = l->from; i <= l->to; i++) {
		double d;

		if (!l->use[i])
			continue;
		if (t->affine)
			d = l->ly[i] - log(t->a + t->b * l->x[i]);
		else
			d = l->ly[i] - (t->a + t->b * l->lx[i]);
		r += d * d;
	}
	return r;
}

/*
 * The level's trend: a power law follows a cost that grows as a power of
 * the region, an affine one a fixed cost plus one that grows with it (flat,
 * then linear: no power law bends like that). The power law is kept unless
 * the affine fit leaves at most half its squared residual: on a geometric
 * grid the next point is far out in x, and a line fitted to noise alone
 * would climb there and hide a step. Two points fit both exactly: power law.
 */
static void fit(const struct level *l, struct trend *t)
{
	struct trend lin;

	fit_power(l, t);
	fit_affine(l, &lin);
	if (2.0 * log_residual(l, &lin) + 1e-12 < log_residual(l, t))
		*t = lin;
}

/* The same trend times s. */
static void rescale(struct trend *t, double s)
{
	if (t->affine) {
		t->a *= s;
		t->b *= s;
	} else {
		t->a += log(s);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double p = *(const double *)a, q = *(const double *)b;

	return (p > q) - (p < q);
}

/* Median over the next k points of y / trend. */
static double later_over_trend(const double *x, const double *y, size_t from, size_t n,
			       unsigned int k, const struct trend *t)
{
	double r[16];
	size_t m = 0;

	for (size_t j = from; j < n && m < k && m < 16; j++)
		r[m++] = y[j] / predict(t, x[j]);
	qsort(r, m, sizeof(*r), cmp_double);
	return m & 1 ? r[m / 2] : (r[m / 2 - 1] + r[m / 2]) / 2.0;
}

int mt_knee_find(const double *x, const double *y, size_t n, const struct mt_knee_opts *o,
		 struct mt_knee *out, size_t max)
{
	struct mt_knee_opts def;
	size_t start = 0, found = 0, prev_from = 0, prev_to = 0;
	unsigned int on_level = 1;
	struct level l = { .x = x, .y = y };
	double *lg;
	bool *use;

	if (!o) {
		mt_knee_opts_init(&def);
		o = &def;
	}
	if (n < 2 || !(o->ratio > 1.0))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!(y[i] > 0.0) || !isfinite(y[i]) || !(x[i] > 0.0) || (i && !(x[i] > x[i - 1])))
			return -EINVAL;
	}
	lg = calloc(2 * n, sizeof(*lg));
	use = calloc(n, sizeof(*use));
	if (!lg || !use) {
		free(lg);
		free(use);
		return -ENOMEM;
	}
	/* The fits run over every level prefix: the logarithms once. */
	for (size_t i = 0; i < n; i++) {
		lg[i] = log(x[i]);
		lg[n + i] = log(y[i]);
	}
	l.lx = lg;
	l.ly = lg + n;
	l.use = use;
	use[0] = true;
	for (size_t i = 0; i + 1 < n; i++) {
		/*
		 * The first level needs min_base points to be one; the point
		 * above a knee is a level of its own, so a second rise right
		 * after it (a data cache, then a TLB) is a knee too.
		 */
		unsigned int need = found ? 1 : (o->min_base < 2 ? 2 : o->min_base);
		struct trend t;
		double over;

		if (found && on_level == 1) {
			/*
			 * One point has no trend of its own: the level below's,
			 * through it (the point above the knee, not an outlier
			 * left out since), so a cost that grows with the region
			 * is no knee at each point after a step.
			 */
			l.from = prev_from;
			l.to = prev_to;
			fit(&l, &t);
			rescale(&t, y[start] / predict(&t, x[start]));
		} else {
			l.from = start;
			l.to = i;
			fit(&l, &t);
		}
		over = y[i + 1] / predict(&t, x[i + 1]);
		/*
		 * A jump either way (ratio above the trend, or below it) that
		 * comes back is an outlier: it neither makes a knee nor enters
		 * the trend, where a low one would pull the level down and make
		 * the next point a false knee.
		 */
		if ((over >= o->ratio || over <= 1.0 / o->ratio) && i + 2 < n) {
			unsigned int k = o->confirm ? o->confirm : 1;
			double later = later_over_trend(x, y, i + 2, n, k, &t);
			bool back = over >= o->ratio ? later < sqrt(o->ratio) :
						       later > 1.0 / sqrt(o->ratio);

			if (back) {
				use[i + 1] = false;
				continue;
			}
		}
		if (on_level < need || over < o->ratio) {
			use[i + 1] = true;
			on_level++;
			continue;
		}
		if (found < max) {
			size_t before = i;

			while (before > start && !use[before])
				before--;
			out[found].before = before;
			out[found].after = i + 1;
			out[found].step = y[i + 1] / y[before];
			out[found].over_trend = over;
			out[found].confirmed = i + 2 < n;
		}
		found++;
		prev_from = start;
		prev_to = i;
		start = i + 1;
		use[i + 1] = true;
		on_level = 1;
	}
	free(lg);
	free(use);
	return (int)(found < max ? found : max);
}

int mt_knee_levels(const double *x, const double *y, const double *y_ctl, size_t n,
		   const struct mt_knee_opts *o, struct mt_level *out, size_t max)
{
	struct mt_knee k[MT_KNEE_MAX];
	int nk;

	nk = mt_knee_find(x, y, n, o, k, MT_KNEE_MAX);
	if (nk < 0)
		return nk;
	for (int i = 0; i < nk && (size_t)i < max; i++) {
		out[i].knee = k[i];
		out[i].kind = MT_LEVEL_TLB;
		out[i].ctl_step = 0.0;
		if (!y_ctl || !(y_ctl[k[i].before] > 0.0))
			continue;
		out[i].ctl_step = y_ctl[k[i].after] / y_ctl[k[i].before];
		if (out[i].ctl_step >= sqrt(k[i].step))
			out[i].kind = MT_LEVEL_CACHE;
	}
	return (size_t)nk < max ? nk : (int)max;
}

double mt_knee_largest_step(const double *y, size_t n, size_t *at)
{
	double best = 0.0;

	for (size_t i = 0; i + 1 < n; i++) {
		if (y[i] > 0.0 && y[i + 1] / y[i] > best) {
			best = y[i + 1] / y[i];
			if (at)
				*at = i;
		}
	}
	return best;
}

/* Same series: every parameter but the region (and so the block count). */
static bool same_series(const struct mt_result *a, const struct mt_result *b)
{
	if (a->block != b->block || a->n_vary != b->n_vary)
		return false;
	for (unsigned int i = 0; i < a->n_vary; i++) {
		unsigned int j;

		for (j = 0; j < b->n_vary; j++)
			if (!strcmp(a->vary[i].key, b->vary[j].key))
				break;
		if (j == b->n_vary || strcmp(a->vary[i].value, b->vary[j].value))
			return false;
	}
	return true;
}

size_t mt_knee_series(struct mt_result *const *res, size_t n, unsigned int *series)
{
	size_t n_series = 0;

	for (size_t i = 0; i < n; i++) {
		series[i] = (unsigned int)n_series;
		for (size_t j = 0; j < i; j++) {
			if (same_series(res[i], res[j])) {
				series[i] = series[j];
				break;
			}
		}
		if (series[i] == n_series)
			n_series++;
	}
	return n_series;
}

/*
 * ns per block from the phase's mean time, as compare does: a stored derived
 * value may be stale or absent (a report that lacks it), the time is not.
 */
static bool phase_cost(const struct mt_result *r, const char *phase, double *y)
{
	const struct mt_phase_stat *ps = mt_result_phase(r, phase);

	if (!ps || !r->blocks)
		return false;
	*y = ps->time_ns.mean / (double)r->blocks;
	return true;
}

int mt_knee_curve(struct mt_result *const *res, size_t n, const unsigned int *series,
		  unsigned int s, const char *phase, size_t *idx, double *x, double *y,
		  size_t *n_out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		double v;
		size_t k;

		if (series[i] != s || !phase_cost(res[i], phase, &v))
			continue;
		/* Insertion by region: a report's points may come in any order. */
		for (k = m; k > 0 && x[k - 1] > (double)res[i]->region; k--) {
			x[k] = x[k - 1];
			y[k] = y[k - 1];
			idx[k] = idx[k - 1];
		}
		x[k] = (double)res[i]->region;
		y[k] = v;
		idx[k] = i;
		m++;
	}
	*n_out = m;
	return m ? 0 : -ENOENT;
}
