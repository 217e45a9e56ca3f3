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
 * back is an outlier and leaves the trend alone: straight back, judged by
 * its neighbours on both sides (a spike), or within the next points. A step
 * down that stays starts a level, from which the next rise is measured.
 * Knees are found on the means; mt_knee_judge then calls a knee whose
 * points vary too much between iterations uncertain.
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

/*
 * Whether the point at j, off the trend by over (up: above it by the ratio,
 * else below), is a lone outlier judged by its neighbours on both sides: the
 * point after it is straight back on the level, and the curve does not go on
 * at the point's height (the median of the points after that one lies
 * sqrt(ratio) or more from it, or there are none). A spike just before a
 * knee is then a spike, not the knee: the median of the points after it
 * alone would be up, on the knee's level. A knee followed by one low point
 * stays a knee: the curve goes on at its height.
 */
static bool lone(const double *x, const double *y, size_t j, size_t n, double over, bool up,
		 const struct mt_knee_opts *o, const struct trend *t)
{
	double next = y[j + 1] / predict(t, x[j + 1]), s = sqrt(o->ratio), later;

	if (up ? next >= s : next <= 1.0 / s)
		return false;
	if (j + 2 >= n)
		return true;
	later = later_over_trend(x, y, j + 2, n, o->confirm ? o->confirm : 1, t);
	return over / later >= s || later / over >= s;
}

static int find(const double *x, const double *y, size_t n, const struct mt_knee_opts *o,
		struct mt_knee *out, size_t max, struct mt_knee_step *steps)
{
	struct mt_knee_opts def;
	size_t start = 0, found = 0, prev_from = 0, prev_to = 0;
	unsigned int on_level = 1, levels = 0;
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
	if (steps)
		steps[0] = (struct mt_knee_step){ MT_KNEE_WHY_TREND, 1.0 };
	for (size_t i = 0; i + 1 < n; i++) {
		/*
		 * The first level needs min_base points to be one; the point
		 * above a knee (or below a drop) is a level of its own, so a
		 * second rise right after it (a data cache, then a TLB) is a
		 * knee too.
		 */
		unsigned int need = levels ? 1 : (o->min_base < 2 ? 2 : o->min_base);
		enum mt_knee_why why;
		struct trend t;
		double over;
		bool up, down;

		if (levels && on_level == 1) {
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
		up = over >= o->ratio;
		down = over <= 1.0 / o->ratio;
		if (steps)
			steps[i + 1].over_trend = over;
		/*
		 * A jump either way (ratio above the trend, or below it) that
		 * comes back is an outlier: it neither makes a knee nor enters
		 * the trend, where a low one would pull the level down and make
		 * the next point a false knee. Back: straight back (a lone
		 * spike or dip), or the median of the next points back.
		 */
		if ((up || down) && i + 2 < n) {
			unsigned int k = o->confirm ? o->confirm : 1;
			double later = later_over_trend(x, y, i + 2, n, k, &t);
			bool back = up ? later < sqrt(o->ratio) : later > 1.0 / sqrt(o->ratio);
			bool spike = lone(x, y, i + 1, n, over, up, o, &t);

			if (back || spike) {
				why = !up ? MT_KNEE_WHY_DIP : spike ? MT_KNEE_WHY_SPIKE :
				      MT_KNEE_WHY_BRIEF;
				if (steps)
					steps[i + 1].why = why;
				use[i + 1] = false;
				continue;
			}
		}
		if (on_level < need || !(up || down)) {
			why = up ? MT_KNEE_WHY_SHORT : MT_KNEE_WHY_TREND;
			use[i + 1] = true;
			on_level++;
		} else if (down) {
			/*
			 * A step down that stays is a level of its own: a rise
			 * after it is measured from it, not from the higher
			 * points before it, which would hide a x2.5 step up
			 * from a level a third as high.
			 */
			why = MT_KNEE_WHY_DROP;
		} else {
			if (found < max) {
				size_t before = i;

				while (before > start && !use[before])
					before--;
				out[found].before = before;
				out[found].after = i + 1;
				out[found].step = y[i + 1] / y[before];
				out[found].over_trend = over;
				out[found].confirmed = i + 2 < n;
				out[found].cv = NAN;
				out[found].uncertain = false;
			}
			why = MT_KNEE_WHY_KNEE;
			found++;
		}
		if (why == MT_KNEE_WHY_DROP || why == MT_KNEE_WHY_KNEE) {
			/* the point after the step starts the next level */
			levels++;
			prev_from = start;
			prev_to = i;
			start = i + 1;
			use[i + 1] = true;
			on_level = 1;
		}
		if (steps)
			steps[i + 1].why = why;
	}
	free(lg);
	free(use);
	return (int)(found < max ? found : max);
}

int mt_knee_find(const double *x, const double *y, size_t n, const struct mt_knee_opts *o,
		 struct mt_knee *out, size_t max)
{
	return find(x, y, n, o, out, max, NULL);
}

int mt_knee_explain(const double *x, const double *y, size_t n, const struct mt_knee_opts *o,
		    struct mt_knee_step *steps)
{
	struct mt_knee k[MT_KNEE_MAX];

	return find(x, y, n, o, k, MT_KNEE_MAX, steps);
}

int mt_knee_judge(struct mt_knee *k, int n, const double *cv)
{
	int uncertain = 0;

	for (int i = 0; i < n; i++) {
		double a = cv ? cv[k[i].before] : NAN, b = cv ? cv[k[i].after] : NAN;

		/* the step is a ratio of both points: either one's noise is its noise */
		k[i].cv = isnan(a) ? b : isnan(b) ? a : fmax(a, b);
		k[i].uncertain = k[i].cv > MT_KNEE_CV_MAX;
		uncertain += k[i].uncertain;
	}
	return uncertain;
}

/* The verdicts' words, the one place each is defined (memtlb-sweep(1), KNEES). */
static const struct {
	const char *name, *text;
} whys[MT_KNEE_WHY_N] = {
	[MT_KNEE_WHY_TREND] = { "trend", "it is less than the ratio over the trend of the "
				"points before it, which rises too" },
	[MT_KNEE_WHY_SHORT] = { "short", "it comes before the first level has enough points "
				"to have a trend" },
	[MT_KNEE_WHY_SPIKE] = { "spike", "it is a one-point spike, the next point back on "
				"the level" },
	[MT_KNEE_WHY_BRIEF] = { "not_sustained", "it is not sustained, the next points fall back "
				"toward the level" },
	[MT_KNEE_WHY_DIP] = { "dip", "it starts from a one-point dip below the level" },
	[MT_KNEE_WHY_DROP] = { "drop", "it is a step down" },
	[MT_KNEE_WHY_KNEE] = { "knee", "it is a knee" },
	[MT_KNEE_WHY_UNCERTAIN] = { "uncertain", "it is uncertain, a point's CV above 50% "
				    "(the rise may be noise)" },
};

const char *mt_knee_why_name(enum mt_knee_why why)
{
	return why < MT_KNEE_WHY_N ? whys[why].name : "";
}

const char *mt_knee_why_text(enum mt_knee_why why)
{
	return why < MT_KNEE_WHY_N ? whys[why].text : "";
}

enum mt_knee_why mt_knee_why_parse(const char *name)
{
	for (int i = 0; name && i < MT_KNEE_WHY_N; i++)
		if (!strcmp(whys[i].name, name))
			return (enum mt_knee_why)i;
	return MT_KNEE_WHY_N;
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

void mt_knee_curve_cv(struct mt_result *const *res, const size_t *idx, size_t n,
		      const char *phase, double *cv)
{
	for (size_t k = 0; k < n; k++) {
		const struct mt_phase_stat *ps = mt_result_phase(res[idx[k]], phase);

		/* one sample has no spread to judge by */
		cv[k] = ps && ps->time_ns.n >= 2 ? ps->time_ns.cv : NAN;
	}
}
