// SPDX-License-Identifier: MIT
/* The flush engine: a sweep over K of timed ops, counters around each op. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters/counters.h"
#include "measure/flush.h"
#include "model/sample.h"
#include "stats/knee.h"
#include "stats/stats.h"
#include "sys/interrupts.h"
#include "workload/flush.h"

/* What each other task reads while it spins: enough to stay in its dTLB. */
#define SPIN_PAGES 16

struct point {
	struct mt_counters *counters;
	bool counting;
};

/* Outside the op's clock reads: the counters run for the op alone. */
static int hook(void *arg, bool end)
{
	struct point *pt = arg;

	if (!pt->counting)
		return 0;
	return end ? mt_counters_disable(pt->counters) : mt_counters_enable(pt->counters);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v: the median of n > 0 values. */
static double median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

/*
 * The phase's counts were of M ops an iteration: made per op. Its time
 * samples become each iteration's median op: on a shared or virtual
 * machine one preempted op (milliseconds) moves the mean of a hundred
 * ops of microseconds many times over, the median hardly.
 */
static int per_op(struct mt_result *r, unsigned long m, const double *med)
{
	struct mt_phase_stat *ps = &r->phases[0];
	double d = (double)m;
	int ret;

	for (unsigned int e = 0; e < r->n_events; e++) {
		struct mt_summary *s = &ps->counters[e].s;

		if (ps->counters[e].state != MT_COUNTER_OK)
			continue;
		s->mean /= d;
		s->stddev /= d;
		s->min /= d;
		s->median /= d;
		s->max /= d;
	}
	for (size_t i = 0; ps->time_samples && i < ps->time_ns.n; i++)
		ps->time_samples[i] = med[i];
	ret = mt_stats_summarize(ps->time_samples, ps->time_ns.n, &ps->time_ns);
	if (!ret)
		mt_result_derive(r);
	return ret;
}

/*
 * Flush IPIs from /proc/interrupts, system-wide: TLB shootdowns and
 * function calls, per op over the iterations, as extras
 * "irq.TLB", "irq.CAL"; absent rows stay absent.
 */
static int irq_extras(struct mt_result *r, const double *per_op, const bool *ok,
		      unsigned int n_iter)
{
	struct mt_phase_stat *ps = &r->phases[0];
	int ret = mt_result_set_extras(r, MT_FLUSH_IRQS);

	for (unsigned int j = 0; !ret && j < MT_FLUSH_IRQS; j++) {
		snprintf(r->extra_names[j], MT_EXTRA_NAME_MAX, "%s", mt_flush_irq_names[j]);
		if (!ok[j])
			continue;
		ret = mt_stats_summarize(per_op + (size_t)j * n_iter, n_iter, &ps->extras[j]);
		ps->has_extra |= 1ull << j;
	}
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Of a copy: v stays in iteration order for its summary. */
static double median_d(const double *v, size_t n)
{
	double *c = malloc(n * sizeof(*c)), m;

	if (!c || !n) {
		free(c);
		return NAN;
	}
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

/*
 * The IPIs the counted pass had above the uncounted one, per op: medians
 * over the iterations, so a burst of another task's IPIs (a shared
 * machine) in one iteration does not move it. NaN where a row is absent.
 */
static void own_irqs(struct mt_flush_point *fp, const double *counted, const double *bare,
		     const bool *ok, unsigned int n_iter, bool counting)
{
	for (unsigned int j = 0; j < MT_FLUSH_IRQS; j++)
		fp->own_irq[j] = ok[j] && counting ?
				 median_d(counted + (size_t)j * n_iter, n_iter) -
				 median_d(bare + (size_t)j * n_iter, n_iter) : NAN;
}

/* The deltas of the rows over a pass, per op; a row absent either side is not ok. */
static void irq_delta(const uint64_t *a, const uint64_t *b, uint64_t ops, double *out,
		      unsigned int n_iter, unsigned int it, bool *ok)
{
	for (unsigned int j = 0; j < MT_FLUSH_IRQS; j++) {
		if (a[j] == MT_INTERRUPTS_ABSENT || b[j] == MT_INTERRUPTS_ABSENT)
			ok[j] = false;
		else if (ok[j])
			out[(size_t)j * n_iter + it] = (double)(b[j] - a[j]) /
						       (double)(ops ? ops : 1);
	}
}

/*
 * The same ops again, untimed and with the counters off, between two reads
 * of /proc/interrupts: the IPIs of the point. The counted pass cannot give
 * them: enabling and disabling counters that the other tasks inherited is
 * a cross-CPU call to each of their CPUs (the kernel's task_function_call),
 * two function-call IPIs per op and other task, which are memtlb's and not
 * the op's (measured: 2.00 per op with 2 tasks where the op itself sends
 * none, a PVM guest whose flushes are hypercalls).
 */
static int bare_pass(struct mt_flush *w, uint64_t k, unsigned long m, uint64_t *irq0,
		     uint64_t *irq1, struct mt_flush_run *run)
{
	int ret;

	if (mt_interrupts_read(mt_flush_irq_rows, MT_FLUSH_IRQS, irq0))
		irq0[0] = irq0[1] = MT_INTERRUPTS_ABSENT;
	ret = mt_flush_ops(w, k, m, NULL, NULL, NULL, run);
	if (mt_interrupts_read(mt_flush_irq_rows, MT_FLUSH_IRQS, irq1))
		irq1[0] = irq1[1] = MT_INTERRUPTS_ABSENT;
	return ret;
}

static int one_point(struct mt_flush *w, struct point *pt, const struct mt_config *cfg,
		     const struct mt_flush_params *p, uint64_t k, struct mt_event *ev,
		     size_t n_ev, const struct mt_measure_opts *opts, struct mt_result **out,
		     struct mt_flush_point *fp)
{
	unsigned int n_iter = (unsigned int)cfg->iterations;
	struct mt_counts *before, *after;
	struct mt_samples *smp = NULL;
	struct mt_flush_run run, bare;
	uint64_t *op_ns, total_ns = 0, irq0[MT_FLUSH_IRQS], irq1[MT_FLUSH_IRQS];
	uint64_t b0[MT_FLUSH_IRQS], b1[MT_FLUSH_IRQS];
	bool irq_ok[MT_FLUSH_IRQS] = { true, true };
	double *med, *irq, *counted;
	long psz = sysconf(_SC_PAGESIZE);
	int ret;

	irq = calloc((size_t)MT_FLUSH_IRQS * n_iter, sizeof(*irq));
	counted = calloc((size_t)MT_FLUSH_IRQS * n_iter, sizeof(*counted));
	op_ns = malloc((size_t)p->ops * n_iter * sizeof(*op_ns));
	before = calloc(n_ev + 1, sizeof(*before));
	after = calloc(n_ev + 1, sizeof(*after));
	med = calloc(n_iter, sizeof(*med));
	ret = irq && counted && op_ns && before && after && med ?
	      mt_samples_create(&smp, 1, n_iter, (unsigned int)n_ev) : -ENOMEM;
	if (ret)
		goto out;
	snprintf(smp->phase_names[0], sizeof(smp->phase_names[0]), "%s", mt_flush_op_name(p->op));
	memset(fp, 0, sizeof(*fp));
	fp->pages = k;
	for (unsigned int it = 0; it < n_iter; it++) {
		if (opts->stop && *opts->stop) {
			ret = -EINTR;
			goto out;
		}
		/* Read at the point's boundaries: the counters are stopped there. */
		if (pt->counting && (ret = mt_counters_read(pt->counters, before)))
			goto out;
		if (mt_interrupts_read(mt_flush_irq_rows, MT_FLUSH_IRQS, irq0))
			irq0[0] = irq0[1] = MT_INTERRUPTS_ABSENT;
		ret = mt_flush_ops(w, k, p->ops, hook, pt, op_ns + (size_t)it * p->ops, &run);
		if (ret)
			goto out;
		if (mt_interrupts_read(mt_flush_irq_rows, MT_FLUSH_IRQS, irq1))
			irq1[0] = irq1[1] = MT_INTERRUPTS_ABSENT;
		if (pt->counting && (ret = mt_counters_read(pt->counters, after)))
			goto out;
		irq_delta(irq0, irq1, run.ops, counted, n_iter, it, irq_ok);
		/* Without counters the counted pass has no toggles: its IPIs are the point's. */
		if (pt->counting) {
			ret = bare_pass(w, k, p->ops, b0, b1, &bare);
			if (ret)
				goto out;
			irq_delta(b0, b1, bare.ops, irq, n_iter, it, irq_ok);
		} else {
			irq_delta(irq0, irq1, run.ops, irq, n_iter, it, irq_ok);
		}
		for (size_t e = 0; e < n_ev; e++) {
			struct mt_counts *d = mt_samples_counts(smp, 0, (unsigned int)e, it);

			d->val = after[e].val - before[e].val;
			d->ena = after[e].ena - before[e].ena;
			d->run = after[e].run - before[e].run;
		}
		*mt_samples_time(smp, 0, it) = run.time_ns;
		med[it] = median(op_ns + (size_t)it * p->ops, p->ops);
		total_ns += run.time_ns;
		fp->ops += run.ops;
		fp->refaults += run.refaults;
	}
	fp->op_median_ns = median(op_ns, (size_t)p->ops * n_iter);
	fp->op_mean_ns = fp->ops ? (double)total_ns / (double)fp->ops : 0;
	own_irqs(fp, counted, irq, irq_ok, n_iter, pt->counting);
	ret = mt_result_from_samples(out, smp, ev, k * (uint64_t)psz, (uint64_t)psz, k);
	if (!ret)
		ret = per_op(*out, p->ops, med);
	if (!ret)
		ret = irq_extras(*out, irq, irq_ok, n_iter);
	if (!ret)
		ret = mt_result_set_param(*out, "op", mt_flush_op_name(p->op));
	for (size_t e = 0; !ret && e < n_ev; e++)
		snprintf((*out)->events[e].reason, sizeof((*out)->events[e].reason), "%s",
			 ev[e].err ? mt_event_reason(&ev[e], opts->hw_counters) : "");
	(*out)->tasks = p->tasks;
out:
	mt_samples_destroy(smp);
	free(irq);
	free(counted);
	free(op_ns);
	free(med);
	free(before);
	free(after);
	return ret;
}

/* Knees of y over K into fi->knees; down: y is ops per second. */
static void find(struct mt_flush_info *fi, const double *x, const double *y, size_t n,
		 double ratio, bool down)
{
	struct mt_knee found[MT_FLUSH_KNEE_MAX];
	struct mt_knee_opts ko;
	int nk;

	mt_knee_opts_init(&ko);
	if (ratio > 1)
		ko.ratio = ratio;
	nk = mt_knee_find(x, y, n, &ko, found, MT_FLUSH_KNEE_MAX);
	for (int i = 0; i < nk && fi->n_knees < MT_FLUSH_KNEE_MAX; i++) {
		struct mt_flush_knee *k = &fi->knees[fi->n_knees++];

		k->before = fi->points[found[i].before].pages;
		k->after = fi->points[found[i].after].pages;
		k->step = down ? 1 / found[i].step : found[i].step;
		k->down = down;
	}
}

/*
 * The largest one-step rise of y, and what the finder made of it: a rise
 * the size of a knee that is none says why (a spike, not sustained...).
 */
static void largest(struct mt_flush_info *fi, const double *x, const double *y, size_t n,
		    double ratio, bool down, struct mt_flush_knee *k)
{
	struct mt_knee_step *steps;
	struct mt_knee_opts ko;
	size_t at;
	double step = mt_knee_largest_step(y, n, &at);

	if (!(step > 1))
		return;
	k->before = fi->points[at].pages;
	k->after = fi->points[at + 1].pages;
	k->step = down ? 1 / step : step;
	k->down = down;
	mt_knee_opts_init(&ko);
	if (ratio > 1)
		ko.ratio = ratio;
	steps = calloc(n, sizeof(*steps));
	if (steps && mt_knee_explain(x, y, n, &ko, steps) >= 0) {
		enum mt_knee_why why = steps[at + 1].why;

		/* a rise back out of a dip is the dip's doing */
		if (steps[at].why == MT_KNEE_WHY_DIP && why == MT_KNEE_WHY_TREND)
			why = MT_KNEE_WHY_DIP;
		snprintf(k->why, sizeof(k->why), "%s", mt_knee_why_name(why));
	}
	free(steps);
}

/*
 * Knees of the time per op over K where there are 2 points: rises (a
 * costlier way to flush), and drops found as rises of ops per second
 * (above the ceiling one full flush replaces K single ones and can be
 * cheaper). On the median of the single ops, which a preempted op (a
 * shared or virtual machine) moves far less than the mean.
 */
static void knees(struct mt_report *rep, double ratio)
{
	struct mt_flush_info *fi = rep->flush;
	size_t n = rep->n_results;
	double *x, *y, *rate;

	if (n < 2)
		return;
	x = calloc(n, sizeof(*x));
	y = calloc(n, sizeof(*y));
	rate = calloc(n, sizeof(*rate));
	if (!x || !y || !rate)
		goto out;
	for (size_t i = 0; i < n; i++) {
		x[i] = (double)fi->points[i].pages;
		y[i] = fi->points[i].op_median_ns;
		if (!(y[i] > 0))
			goto out;
		rate[i] = 1e9 / y[i];
	}
	fi->n_knees = 0;
	find(fi, x, y, n, ratio, false);
	find(fi, x, rate, n, ratio, true);
	largest(fi, x, y, n, ratio, false, &fi->largest);
	largest(fi, x, rate, n, ratio, true, &fi->largest_drop);
out:
	free(x);
	free(y);
	free(rate);
}

int mt_flush_measure(const struct mt_config *cfg, const struct mt_flush_params *p,
		     struct mt_event *ev, size_t n_ev, const struct mt_measure_opts *opts,
		     struct mt_report *rep)
{
	struct mt_flush_opts wo = {
		.op = p->op, .tasks = p->tasks, .pages = p->region_pages,
		.spin_pages = SPIN_PAGES,
	};
	struct point pt = { 0 };
	struct mt_flush *w = NULL;
	struct mt_flush_info *fi;
	int ret;

	if (!p->n_pages || !p->ops || !cfg->iterations)
		return -EINVAL;
	for (size_t i = 0; i < p->n_pages; i++)
		if (!p->pages[i] || p->pages[i] > p->region_pages ||
		    (i && p->pages[i] <= p->pages[i - 1]))
			return -EINVAL;
	ret = mt_flush_info_create(&fi, p->n_pages);
	if (ret)
		return ret;
	mt_flush_info_destroy(rep->flush);
	rep->flush = fi;
	fi->n_points = 0;	/* the points measured so far */
	fi->op = p->op;
	fi->tasks = p->tasks;
	fi->ops = p->ops;
	fi->knee_ratio = p->knee_ratio > 1 ? p->knee_ratio : MT_KNEE_RATIO_DEFAULT;
	fi->spin_pages = p->tasks > 1 ? SPIN_PAGES : 0;
	/* The ceiling sysinfo read (debugfs), or why it is unknown. */
	fi->ceiling = rep->system.tlb_flush_ceiling_state == MT_SYSINFO_READ ?
		      rep->system.tlb_flush_ceiling : -1;
	snprintf(fi->ceiling_note, sizeof(fi->ceiling_note), "%s",
		 rep->system.tlb_flush_ceiling_state == MT_SYSINFO_READ ? "debugfs" :
		 rep->system.tlb_flush_ceiling_state == MT_SYSINFO_ABSENT ?
		 "unknown (debugfs not mounted)" :
		 mt_sysinfo_state_name(rep->system.tlb_flush_ceiling_state));
	/* Before the tasks start: counters opened on this process are inherited by them. */
	if (n_ev) {
		ret = mt_counters_create(&pt.counters, ev, n_ev, 0);
		if (ret)
			return ret;
		pt.counting = true;
	}
	ret = mt_flush_create(&w, &wo);
	if (ret)
		goto out;
	fi->pinned = mt_flush_pinned(w);
	/*
	 * One op under the hook first, its counts in no point (each iteration
	 * takes its own deltas): the first pass through the enable and disable
	 * and the op faults memtlb's code in while the counters run (2 minor
	 * faults in the first op, measured on 6.18), memtlb's, not the op's.
	 */
	if (pt.counting) {
		struct mt_flush_run warm;

		ret = mt_flush_ops(w, 1, 1, hook, &pt, NULL, &warm);
		if (ret)
			goto out;
	}
	for (size_t i = 0; i < p->n_pages; i++) {
		struct mt_result *res = NULL;

		if (opts->progress) {
			struct mt_progress pr = {
				.kind = MT_PROGRESS_POINT, .point = i + 1, .n_points = p->n_pages,
				.region = p->pages[i] * (uint64_t)sysconf(_SC_PAGESIZE),
				.eta_s = -1,
			};

			opts->progress(opts->progress_arg, &pr);
		}
		ret = one_point(w, &pt, cfg, p, p->pages[i], ev, n_ev, opts, &res,
				&fi->points[i]);
		if (!ret)
			ret = mt_report_add(rep, res);
		if (ret) {
			mt_result_destroy(res);
			break;
		}
		fi->n_points = i + 1;
	}
	knees(rep, p->knee_ratio);
out:
	mt_flush_destroy(w);
	mt_counters_destroy(pt.counters);
	if (opts->progress) {
		struct mt_progress pr = { .kind = MT_PROGRESS_DONE, .eta_s = -1 };

		opts->progress(opts->progress_arg, &pr);
	}
	return ret;
}
