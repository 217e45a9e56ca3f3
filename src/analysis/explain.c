// SPDX-License-Identifier: MIT
/*
 * compare --explain: a changed ns per block cut into named terms that sum
 * to it, each priced by what the reports measured (analysis/explain.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/explain.h"
#include "model/config.h"
#include "model/metrics.h"
#include "model/size.h"
#include "stats/fit.h"
#include "stats/welch.h"

/* The one spelling of each term: its JSON key and its label for people. */
static const struct {
	const char *key;
	const char *label;
} terms[MT_EXPLAIN_TERMS] = {
	[MT_EXPLAIN_MIX] = { "page_size_mix", "page size mix" },
	[MT_EXPLAIN_FAULTS] = { "faults", "faults" },
	[MT_EXPLAIN_FAULT_COST] = { "fault_cost", "cost per fault" },
	[MT_EXPLAIN_WALKS] = { "walks", "TLB walks" },
	[MT_EXPLAIN_FLUSHES] = { "flushes", "TLB flushes" },
	[MT_EXPLAIN_RESIDUAL] = { "residual", "residual" },
};

/* The flush set's event of every TLB flush, all reasons (events/flush.events). */
#define FLUSH_EVENT "tlb_flush"
/* Beyond this many degrees of freedom Student's t is the normal's. */
#define DF_NORMAL 1e6

const char *mt_explain_term_key(enum mt_explain_term t)
{
	return t < MT_EXPLAIN_TERMS ? terms[t].key : NULL;
}

const char *mt_explain_term_label(enum mt_explain_term t)
{
	return t < MT_EXPLAIN_TERMS ? terms[t].label : NULL;
}

double mt_explain_half(const double *var, const double *df, size_t n, double *df_out)
{
	double v = 0.0, den = 0.0, d;

	for (size_t i = 0; i < n; i++) {
		if (isnan(var[i]) || isnan(df[i]) || (var[i] > 0.0 && df[i] <= 0.0))
			return *df_out = NAN;
		v += var[i];
		if (var[i] > 0.0 && isfinite(df[i]))
			den += var[i] * var[i] / df[i];
	}
	*df_out = den > 0.0 ? v * v / den : INFINITY;
	if (v == 0.0)
		return 0.0;
	d = *df_out > DF_NORMAL ? DF_NORMAL : *df_out;
	return mt_stats_t_quantile(0.05, d) * sqrt(v);
}

static bool known(const struct mt_explain_qty *q)
{
	return isfinite(q->mean);
}

/*
 * A term's value and the delta method's parts: coefficient k of each
 * quantity's var (the square of the partial derivative) with its df.
 */
struct parts {
	size_t n;
	double var[2 * MT_EXPLAIN_SIZES + 4];
	double df[2 * MT_EXPLAIN_SIZES + 4];
};

static void part(struct parts *p, double k, const struct mt_explain_qty *q)
{
	if (p->n >= sizeof(p->var) / sizeof(p->var[0]))
		return;
	/* a part that does not move the term adds nothing, whatever its spread */
	p->var[p->n] = k == 0.0 ? 0.0 : k * k * q->var;
	p->df[p->n] = k == 0.0 ? INFINITY : q->df;
	p->n++;
}

static void set(struct mt_explain_val *v, double ns, const struct parts *p)
{
	double half;

	v->present = true;
	v->ns = ns;
	v->var = 0.0;
	for (size_t i = 0; i < p->n; i++)
		v->var += p->var[i];
	half = mt_explain_half(p->var, p->df, p->n, &v->df);
	if (isnan(half))
		v->var = NAN;
	v->low = ns - half;
	v->high = ns + half;
}

static void absent(struct mt_explain_val *v, const char *given, const char *why)
{
	v->present = false;
	snprintf(v->why, sizeof(v->why), "%s", given && given[0] ? given : why);
}

/* "base", "THP", "mTHP 64k": a folio size as the verdict names it. */
static void size_label(const struct mt_explain_in *in, uint64_t size, char *buf, size_t len)
{
	char s[32];

	if (size == in->page) {
		snprintf(buf, len, "base");
	} else if (size == in->pmd) {
		snprintf(buf, len, "THP");
	} else {
		mt_size_format_short(size, s, sizeof(s));
		snprintf(buf, len, "%s %s", size < in->pmd ? "mTHP" : "huge", s);
	}
}

static double share_of(const struct mt_explain_side *s, uint64_t size)
{
	for (unsigned int i = 0; i < s->n_sizes; i++)
		if (s->size[i] == size)
			return s->share[i];
	return 0.0;
}

static const struct mt_explain_qty *cost_of(const struct mt_explain_in *in, uint64_t size)
{
	for (unsigned int i = 0; i < in->n_costs; i++)
		if (in->cost_size[i] == size && known(&in->cost[i]))
			return &in->cost[i];
	return NULL;
}

/*
 * The page size mix: sum over sizes of the share's change times the size's
 * cost above base pages, both costs measured in one report's rows (the
 * matrix, the translation series). Shares are the page scan's: exact.
 * Returns the largest share moved, 0 when the term is absent.
 */
static double mix(const struct mt_explain_in *in, struct mt_explain_val *v)
{
	const struct mt_explain_qty *cp = cost_of(in, in->page), *c;
	uint64_t sizes[2 * MT_EXPLAIN_SIZES];
	unsigned int n = 0;
	double moved = 0.0, ns = 0.0, sum = 0.0, sa, sb;
	struct parts p = { 0 };
	uint64_t top = 0;
	char label[40], s[80];

	if (!in->a.scanned || !in->b.scanned) {
		absent(v, in->why[MT_EXPLAIN_MIX], "no page scan in a report's proof of mapping");
		return 0.0;
	}
	for (unsigned int i = 0; i < in->a.n_sizes; i++)
		sizes[n++] = in->a.size[i];
	for (unsigned int i = 0; i < in->b.n_sizes; i++) {
		unsigned int j;

		for (j = 0; j < n && sizes[j] != in->b.size[i]; j++)
			;
		if (j == n)
			sizes[n++] = in->b.size[i];
	}
	for (unsigned int i = 0; i < n; i++) {
		double d = share_of(&in->b, sizes[i]) - share_of(&in->a, sizes[i]);

		if (fabs(d) > moved) {
			moved = fabs(d);
			top = sizes[i];
		}
	}
	if (moved < MT_EXPLAIN_MIX_EPS) {
		size_label(in, top ? top : in->page, label, sizeof(label));
		absent(v, NULL, "unchanged");
		snprintf(v->detail, sizeof(v->detail), "%s %.0f%%", label,
			 100.0 * share_of(&in->a, top ? top : in->page));
		return 0.0;
	}
	/* the base page is the reference: the largest move names the other size */
	if (top == in->page) {
		moved = 0.0;
		for (unsigned int i = 0; i < n; i++) {
			double d = share_of(&in->b, sizes[i]) - share_of(&in->a, sizes[i]);

			if (sizes[i] != in->page && fabs(d) > moved) {
				moved = fabs(d);
				top = sizes[i];
			}
		}
		moved = fabs(share_of(&in->b, in->page) - share_of(&in->a, in->page));
	}
	for (unsigned int i = 0; i < n; i++) {
		double d = share_of(&in->b, sizes[i]) - share_of(&in->a, sizes[i]);

		if (sizes[i] == in->page || fabs(d) < MT_EXPLAIN_MIX_EPS)
			continue;
		c = cost_of(in, sizes[i]);
		if (!c || !cp) {
			size_label(in, c ? in->page : sizes[i], label, sizeof(label));
			snprintf(s, sizeof(s), "no cost measured for %s pages", label);
			absent(v, in->why[MT_EXPLAIN_MIX], s);
			return 0.0;
		}
		ns += d * (c->mean - cp->mean);
		sum += d;
		part(&p, d, c);
	}
	part(&p, sum, cp);
	set(v, ns, &p);
	size_label(in, top, label, sizeof(label));
	sa = share_of(&in->a, top);
	sb = share_of(&in->b, top);
	snprintf(v->detail, sizeof(v->detail), "%s %.0f%% -> %.0f%%", label, 100.0 * sa,
		 100.0 * sb);
	return moved;
}

/* dx at the mean cost, and dc at the mean count: together d(x c), exactly. */
static void product(const struct mt_explain_qty *xa, const struct mt_explain_qty *xb,
		    const struct mt_explain_qty *ca, const struct mt_explain_qty *cb,
		    struct mt_explain_val *count, struct mt_explain_val *cost)
{
	double dx = xb->mean - xa->mean, dc = cb->mean - ca->mean;
	double xm = (xa->mean + xb->mean) / 2.0, cm = (ca->mean + cb->mean) / 2.0;
	struct parts p = { 0 };

	part(&p, cm, xa);
	part(&p, cm, xb);
	part(&p, dx / 2.0, ca);
	part(&p, dx / 2.0, cb);
	set(count, dx * cm, &p);
	if (!cost)
		return;
	memset(&p, 0, sizeof(p));
	part(&p, xm, ca);
	part(&p, xm, cb);
	part(&p, dc / 2.0, xa);
	part(&p, dc / 2.0, xb);
	set(cost, dc * xm, &p);
}

static void faults(const struct mt_explain_in *in, struct mt_explain *out)
{
	const struct mt_explain_side *a = &in->a, *b = &in->b;
	struct mt_explain_val *f = &out->term[MT_EXPLAIN_FAULTS];
	struct mt_explain_val *c = &out->term[MT_EXPLAIN_FAULT_COST];
	const struct mt_explain_qty *ca, *cb;

	if (!known(&a->faults_per_block) || !known(&b->faults_per_block)) {
		absent(f, in->why[MT_EXPLAIN_FAULTS], "no fault count in a report");
		absent(c, in->why[MT_EXPLAIN_FAULTS], "no fault count in a report");
		return;
	}
	/*
	 * A side without a fault in the phase (--populate's write_0) needs no
	 * cost per fault: 0 x any cost is 0, so the other side's stands for it
	 * (the product's change exact still, and all of it the count's), and
	 * a report with no fault anywhere needs none at all.
	 */
	ca = a->faults_per_block.mean == 0.0 ? &b->ns_per_fault : &a->ns_per_fault;
	cb = b->faults_per_block.mean == 0.0 ? &a->ns_per_fault : &b->ns_per_fault;
	if (!known(ca) || !known(cb)) {
		absent(f, in->why[MT_EXPLAIN_FAULTS], "no cost per fault: no first touch with faults");
		absent(c, in->why[MT_EXPLAIN_FAULTS], "no cost per fault: no first touch with faults");
		return;
	}
	product(&a->faults_per_block, &b->faults_per_block, ca, cb, f, c);
	snprintf(f->detail, sizeof(f->detail), "%.4g -> %.4g faults/block",
		 a->faults_per_block.mean, b->faults_per_block.mean);
	snprintf(c->detail, sizeof(c->detail), "%.0f -> %.0f ns/fault", ca->mean, cb->mean);
}

static void walks(const struct mt_explain_in *in, struct mt_explain_val *v)
{
	const struct mt_explain_side *a = &in->a, *b = &in->b;
	struct parts p = { 0 };

	if (!known(&a->walk_ns) || !known(&b->walk_ns)) {
		absent(v, in->why[MT_EXPLAIN_WALKS],
		       known(&a->misses_per_block) && known(&b->misses_per_block)
			       ? "dTLB misses counted, no walk cycles to price them"
			       : "no PMU counted walks (no-PMU translation: page size mix)");
		return;
	}
	part(&p, -1.0, &a->walk_ns);
	part(&p, 1.0, &b->walk_ns);
	set(v, b->walk_ns.mean - a->walk_ns.mean, &p);
	if (known(&a->misses_per_block) && known(&b->misses_per_block))
		snprintf(v->detail, sizeof(v->detail), "%.3g -> %.3g misses/block",
			 a->misses_per_block.mean, b->misses_per_block.mean);
	else
		snprintf(v->detail, sizeof(v->detail), "%.3g -> %.3g walk ns/block",
			 a->walk_ns.mean, b->walk_ns.mean);
}

static void flushes(const struct mt_explain_in *in, struct mt_explain_val *v)
{
	const struct mt_explain_side *a = &in->a, *b = &in->b;
	const struct mt_explain_qty *c = known(&a->ns_per_flush) ? &a->ns_per_flush
								  : &b->ns_per_flush;

	if (!known(&a->flushes_per_block) || !known(&b->flushes_per_block)) {
		absent(v, in->why[MT_EXPLAIN_FLUSHES],
		       "no TLB flush counted (stat --events flush)");
		return;
	}
	if (!known(c)) {
		absent(v, in->why[MT_EXPLAIN_FLUSHES],
		       "no cost per flush: no 3 points with varying flushes");
		return;
	}
	/* one cost for both sides: the count's term is the whole product's */
	product(&a->flushes_per_block, &b->flushes_per_block, c, c, v, NULL);
	snprintf(v->detail, sizeof(v->detail), "%.3g -> %.3g per block x %.0f ns",
		 a->flushes_per_block.mean, b->flushes_per_block.mean, c->mean);
}

static void rank(struct mt_explain *out)
{
	int n = 0;

	for (int t = 0; t < MT_EXPLAIN_TERMS; t++)
		if (out->term[t].present)
			out->rank[n++] = t;
	for (int i = n; i < MT_EXPLAIN_TERMS; i++)
		out->rank[i] = -1;
	/* insertion sort by |share|, the residual last among equals */
	for (int i = 1; i < n; i++) {
		int t = out->rank[i], j = i;

		while (j > 0 && fabs(out->term[out->rank[j - 1]].share) < fabs(out->term[t].share)) {
			out->rank[j] = out->rank[j - 1];
			j--;
		}
		out->rank[j] = t;
	}
}

int mt_explain_terms(const struct mt_explain_in *in, struct mt_explain *out)
{
	const struct mt_explain_qty *na = &in->a.ns_per_block, *nb = &in->b.ns_per_block;
	struct mt_explain_val *res = &out->term[MT_EXPLAIN_RESIDUAL];
	double rest, half, moved, vars[MT_EXPLAIN_TERMS + 1], dfs[MT_EXPLAIN_TERMS + 1];
	struct mt_explain_val change = { 0 };
	struct parts p = { 0 };
	size_t nv = 0;

	if (!known(na) || !known(nb))
		return -EINVAL;
	memset(out->term, 0, sizeof(out->term));
	out->base_ns = na->mean;
	out->new_ns = nb->mean;
	out->change_ns = nb->mean - na->mean;
	out->change_pct = na->mean != 0.0 ? 100.0 * out->change_ns / fabs(na->mean) : NAN;
	part(&p, -1.0, na);
	part(&p, 1.0, nb);
	set(&change, out->change_ns, &p);
	out->low_ns = change.low;
	out->high_ns = change.high;

	moved = mix(in, &out->term[MT_EXPLAIN_MIX]);
	if (out->term[MT_EXPLAIN_MIX].present && moved >= MT_EXPLAIN_MIX_DOMINANT) {
		static const char in_mix[] = "in the page size mix (one time counted once)";

		absent(&out->term[MT_EXPLAIN_FAULTS], NULL, in_mix);
		absent(&out->term[MT_EXPLAIN_FAULT_COST], NULL, in_mix);
		absent(&out->term[MT_EXPLAIN_WALKS], NULL, in_mix);
	} else {
		faults(in, out);
		walks(in, &out->term[MT_EXPLAIN_WALKS]);
	}
	flushes(in, &out->term[MT_EXPLAIN_FLUSHES]);

	/* the residual closes the sum; its interval the change's and every term's */
	rest = out->change_ns;
	vars[nv] = change.var;
	dfs[nv++] = change.df;
	for (int t = 0; t < MT_EXPLAIN_RESIDUAL; t++) {
		if (!out->term[t].present)
			continue;
		rest -= out->term[t].ns;
		vars[nv] = out->term[t].var;
		dfs[nv++] = out->term[t].df;
	}
	res->present = true;
	res->ns = rest;
	half = mt_explain_half(vars, dfs, nv, &res->df);
	res->low = rest - half;
	res->high = rest + half;
	for (int t = 0; t < MT_EXPLAIN_TERMS; t++)
		out->term[t].share = out->term[t].present && out->change_ns != 0.0
					     ? out->term[t].ns / out->change_ns : NAN;
	rank(out);
	return 0;
}

/* ---- the inputs, from the reports ---- */

/* A time's mean per div with its standard error; below 2 samples, unknown spread. */
static struct mt_explain_qty time_qty(const struct mt_summary *s, double div)
{
	struct mt_explain_qty q = { .mean = s->mean / div, .var = NAN, .df = NAN };

	if (s->n >= 2) {
		q.var = s->stddev * s->stddev / (double)s->n / (div * div);
		q.df = (double)(s->n - 1);
	}
	return q;
}

/* A count the kernel or the PMU made: exact per iteration as far as the model goes. */
static struct mt_explain_qty count_qty(double mean)
{
	return (struct mt_explain_qty){ .mean = mean, .var = 0.0, .df = INFINITY };
}

static const struct mt_explain_qty unknown = { .mean = NAN, .var = NAN, .df = NAN };

static double extra_mean(const struct mt_result *r, const struct mt_phase_stat *ps,
			 const char *name)
{
	for (unsigned int x = 0; x < r->n_extras; x++)
		if (!strcmp(r->extra_names[x], name) && (ps->has_extra & (1ull << x)))
			return ps->extras[x].mean;
	return NAN;
}

/* Faults per block: the counted events' derived metric, else getrusage's. */
static double faults_of(const struct mt_result *r, const struct mt_phase_stat *ps)
{
	double mi, ma;

	if (!r->blocks)
		return NAN;
	if (mt_phase_has(ps, MT_DERIVED_FAULTS_PER_BLOCK))
		return ps->derived[MT_DERIVED_FAULTS_PER_BLOCK];
	mi = extra_mean(r, ps, "rusage.minflt");
	ma = extra_mean(r, ps, "rusage.majflt");
	return isfinite(mi) ? (mi + (isfinite(ma) ? ma : 0.0)) / (double)r->blocks : NAN;
}

/* A counted event's mean in the phase by role or name; NAN when not counted. */
static double event_mean(const struct mt_result *r, const struct mt_phase_stat *ps, int role,
			 const char *name)
{
	for (unsigned int e = 0; e < r->n_events; e++) {
		if (role >= 0 ? r->events[e].role != (enum mt_role)role
			      : strcmp(r->events[e].name, name))
			continue;
		if (ps->counters[e].state == MT_COUNTER_OK)
			return ps->counters[e].s.mean;
	}
	return NAN;
}

/*
 * The same work without the faults: a first write pass's is the next write
 * pass (write_1); mmap (--populate) and munmap do no work of the
 * workload's own, and a read_first has no later pass that reads zero pages.
 */
static const struct mt_phase_stat *fault_free(const struct mt_result *r,
					      const struct mt_phase_stat *ps)
{
	unsigned int pass;
	char name[MT_PHASE_NAME_MAX];

	if (mt_phase_kind(ps->name, &pass) != MT_PHASE_WRITE || pass != 0)
		return NULL;
	return mt_result_phase(r, mt_phase_name(name, sizeof(name), MT_PHASE_WRITE, 1));
}

/*
 * What one fault costs: the first touch (the phase with the most faults per
 * block) less the same work without faults, over its faults.
 */
static struct mt_explain_qty fault_cost(const struct mt_result *r)
{
	const struct mt_phase_stat *best = NULL, *free_of;
	struct mt_explain_qty q, w;
	double most = 0.0;

	for (unsigned int p = 0; p < r->n_phases; p++) {
		double f = faults_of(r, &r->phases[p]);

		if (isfinite(f) && f > most) {
			most = f;
			best = &r->phases[p];
		}
	}
	if (!best)
		return unknown;
	q = time_qty(&best->time_ns, most * (double)r->blocks);
	free_of = fault_free(r, best);
	if (free_of) {
		w = time_qty(&free_of->time_ns, most * (double)r->blocks);
		q.mean -= w.mean;
		/* two independent times: their vars add, df Welch-Satterthwaite's */
		mt_explain_half((double[]){ q.var, w.var }, (double[]){ q.df, w.df }, 2, &q.df);
		q.var += w.var;
	}
	return q.mean > 0.0 ? q : unknown;
}

static double flushes_of(const struct mt_result *r, const struct mt_phase_stat *ps)
{
	double n = event_mean(r, ps, -1, FLUSH_EVENT);

	return r->blocks && isfinite(n) ? n / (double)r->blocks : NAN;
}

/*
 * ns per flush: the slope of ns per block on flushes per block over the
 * report's points at the phase (a flush sweep, a sweep of tasks); its
 * standard error from the fit's residuals.
 */
static struct mt_explain_qty flush_cost(const struct mt_report *rep, const char *phase)
{
	size_t n = 0, cap = rep->n_results;
	double *x = calloc(cap + 1, sizeof(*x)), *y = calloc(cap + 1, sizeof(*y));
	struct mt_explain_qty q = unknown;
	double mx = 0.0, my = 0.0, sxx = 0.0, syy = 0.0;
	struct mt_fit fit;

	for (size_t i = 0; x && y && i < rep->n_results; i++) {
		const struct mt_result *r = rep->results[i];
		const struct mt_phase_stat *ps = mt_result_phase(r, phase);
		double f = ps ? flushes_of(r, ps) : NAN;

		if (isfinite(f)) {
			x[n] = f;
			y[n++] = ps->time_ns.mean / (double)r->blocks;
		}
	}
	if (n >= 3 && !mt_fit_linear(x, y, n, &fit) && fit.slope > 0.0) {
		for (size_t i = 0; i < n; i++) {
			mx += x[i] / (double)n;
			my += y[i] / (double)n;
		}
		for (size_t i = 0; i < n; i++) {
			sxx += (x[i] - mx) * (x[i] - mx);
			syy += (y[i] - my) * (y[i] - my);
		}
		q.mean = fit.slope;
		q.var = (1.0 - fit.r2) * syy / (double)(n - 2) / sxx;
		q.df = (double)(n - 2);
	}
	free(x);
	free(y);
	return q;
}

/* Walk cycles per block in ns: the phase's time per cycle prices them. */
static struct mt_explain_qty walk_time(const struct mt_result *r, const struct mt_phase_stat *ps)
{
	double wc = event_mean(r, ps, MT_ROLE_WALK_CYCLES, NULL);
	double cyc = event_mean(r, ps, MT_ROLE_CYCLES, NULL);
	struct mt_explain_qty t = time_qty(&ps->time_ns, (double)r->blocks);

	if (!isfinite(wc) || !isfinite(cyc) || cyc <= 0.0 || !r->blocks)
		return unknown;
	/* the counts as exact: the interval is the time's, scaled */
	t.mean *= wc / cyc;
	t.var *= (wc / cyc) * (wc / cyc);
	return t;
}

static void shares(const struct mt_result *r, uint64_t page, uint64_t pmd,
		   struct mt_explain_side *s)
{
	const struct mt_pagescan *sc = &r->map.scan;

	s->scanned = false;
	s->n_sizes = 0;
	if (!r->map.scanned || !sc->len)
		return;
	if (sc->n_folios) {
		for (unsigned int i = 0; i < sc->n_folios && s->n_sizes < MT_EXPLAIN_SIZES; i++) {
			s->size[s->n_sizes] = sc->folios[i].size;
			s->share[s->n_sizes++] = (double)sc->folios[i].bytes / (double)sc->len;
		}
	} else {
		/* PTE-mapped large folios of a size not read: no mix to price */
		if (sc->large)
			return;
		s->size[0] = page;
		s->share[0] = (double)sc->base / (double)sc->len;
		s->size[1] = pmd;
		s->share[1] = (double)sc->huge / (double)sc->len;
		s->n_sizes = 2;
	}
	s->scanned = true;
}

static void side(const struct mt_report *rep, const struct mt_result *r, const char *phase,
		 const struct mt_cmp_side *cs, uint64_t page, uint64_t pmd,
		 struct mt_explain_side *s)
{
	const struct mt_phase_stat *ps = mt_result_phase(r, phase);
	double m;

	/* compare's own numbers: the spread it tested (within the run, or between runs) */
	s->ns_per_block = time_qty(&cs->s, 1.0);
	s->faults_per_block = s->ns_per_fault = s->misses_per_block = unknown;
	s->walk_ns = s->flushes_per_block = s->ns_per_flush = unknown;
	if (ps) {
		m = faults_of(r, ps);
		if (isfinite(m))
			s->faults_per_block = count_qty(m);
		s->ns_per_fault = fault_cost(r);
		if (mt_phase_has(ps, MT_DERIVED_MISSES_PER_BLOCK))
			s->misses_per_block = count_qty(ps->derived[MT_DERIVED_MISSES_PER_BLOCK]);
		s->walk_ns = walk_time(r, ps);
		m = flushes_of(r, ps);
		if (isfinite(m))
			s->flushes_per_block = count_qty(m);
		s->ns_per_flush = flush_cost(rep, phase);
	}
	shares(r, page, pmd, s);
}

/*
 * ns per block at each folio size: the proven rows of rep paired with r but
 * for --pages (a page-size matrix, a translation series), the base report's
 * first.
 */
static void costs(const struct mt_report *rep, const struct mt_result *r, const char *phase,
		  struct mt_explain_in *in)
{
	for (size_t i = 0; i < rep->n_results && in->n_costs < MT_EXPLAIN_SIZES; i++) {
		const struct mt_result *q = rep->results[i];
		const struct mt_phase_stat *ps = mt_result_phase(q, phase);
		uint64_t size = mt_config_folio(mt_result_param(q, "pages"), in->page);
		bool have = false;

		if (!size || !ps || !q->blocks || q->map.page_check <= 0 ||
		    !mt_result_paired(r, q, "pages"))
			continue;
		for (unsigned int k = 0; k < in->n_costs; k++)
			have |= in->cost_size[k] == size;
		if (have)
			continue;
		in->cost_size[in->n_costs] = size;
		in->cost[in->n_costs++] = time_qty(&ps->time_ns, (double)q->blocks);
	}
}

static int push(struct mt_explanation *ex, const struct mt_explain *e)
{
	struct mt_explain *grown = realloc(ex->items, (ex->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	ex->items = grown;
	ex->items[ex->n++] = *e;
	return 0;
}

static int cmp_p(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Holm's step-down over the ns per block of every phase and point input i
 * was tested on: the verdict is one decision over them all, and a dozen
 * phases tested at 5% each raise a FAIL in a third of same-kernel pairs
 * (bench/explain.sh). *cut: the largest p that survives, -1 when none
 * does. 0 or -ENOMEM.
 */
static int holm_cut(const struct mt_comparison *cmp, unsigned int i, const char *metric,
		    double *cut)
{
	double *p = malloc((cmp->n_rows + 1) * sizeof(*p));
	size_t m = 0;

	*cut = -1.0;
	if (!p)
		return -ENOMEM;
	for (size_t k = 0; k < cmp->n_rows; k++)
		if (!strcmp(cmp->rows[k].metric, metric) && cmp->rows[k].side[i].tested)
			p[m++] = cmp->rows[k].side[i].p;
	qsort(p, m, sizeof(*p), cmp_p);
	for (size_t k = 0; k < m && p[k] < MT_COMPARE_ALPHA / (double)(m - k); k++)
		*cut = p[k];
	free(p);
	return 0;
}

static int explain_row(struct mt_explanation *ex, const struct mt_comparison *cmp,
		       const struct mt_cmp_row *row, unsigned int i, double fail_above,
		       double cut)
{
	const struct mt_report *ra = cmp->reps[0], *rb = cmp->reps[i];
	const struct mt_result *a = mt_compare_find_point(ra, row->point);
	const struct mt_result *b = mt_compare_find_point(rb, row->point);
	uint64_t page = ra->system.page_size > 0 ? (uint64_t)ra->system.page_size : 4096;
	struct mt_explain_in *in = calloc(1, sizeof(*in));
	struct mt_explain e = { 0 };
	int ret;

	if (!in)
		return -ENOMEM;
	if (!a || !b) {
		free(in);
		return 0;
	}
	in->page = page;
	in->pmd = mt_config_folio(mt_pages_name(MT_PAGES_THP), page);
	side(ra, a, row->phase, &row->side[0], page, in->pmd, &in->a);
	side(rb, b, row->phase, &row->side[i], page, in->pmd, &in->b);
	costs(ra, a, row->phase, in);
	costs(rb, b, row->phase, in);
	ret = mt_explain_terms(in, &e);
	free(in);
	if (ret)
		return 0;	/* no ns per block on a side: nothing to explain */
	e.point = row->point;
	snprintf(e.phase, sizeof(e.phase), "%s", row->phase);
	e.input = i;
	e.fail = mt_compare_gated(row, i) > (fail_above > 0.0 ? fail_above : 0.0) &&
		 row->side[i].p <= cut;
	return push(ex, &e);
}

int mt_explain_create(struct mt_explanation **out, const struct mt_comparison *cmp,
		      double fail_above)
{
	const char *metric = mt_derived_name(MT_DERIVED_NS_PER_BLOCK);
	struct mt_explanation *ex = calloc(1, sizeof(*ex));
	int ret = 0;

	if (!ex)
		return -ENOMEM;
	for (unsigned int i = 1; !ret && i < cmp->n_inputs; i++) {
		double cut;

		ret = holm_cut(cmp, i, metric, &cut);
		for (size_t k = 0; !ret && k < cmp->n_rows; k++) {
			const struct mt_cmp_row *row = &cmp->rows[k];

			if (!strcmp(row->metric, metric) && row->side[i].changed &&
			    !row->side[i].absolute)
				ret = explain_row(ex, cmp, row, i, fail_above, cut);
		}
	}
	if (ret) {
		mt_explain_destroy(ex);
		return ret;
	}
	*out = ex;
	return 0;
}

void mt_explain_destroy(struct mt_explanation *ex)
{
	if (!ex)
		return;
	free(ex->items);
	free(ex);
}
