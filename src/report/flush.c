// SPDX-License-Identifier: MIT
/* memtlb flush's text: the curve over K, counts per op, knee and ceiling. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/metrics.h"
#include "report/cells.h"
#include "report/flush.h"
#include "stats/compare.h"
#include "stats/knee.h"

#define EV_COLS 5

/*
 * A clock event (task-clock) counts nanoseconds: per op it is shown in us,
 * the unit of the times above it, never as a count of ns.
 */
#define CLOCK_NS_PER_US 1e3

static const char *count(const char *event, const struct mt_counter_stat *cs, char *buf,
			 size_t len)
{
	if (cs->state == MT_COUNTER_NOT_COUNTED)
		return "not counted";
	snprintf(buf, len, "%.2f", cs->s.mean / (mt_event_time_unit(event) ? CLOCK_NS_PER_US : 1));
	return buf;
}

static void times(FILE *f, const struct mt_report *rep)
{
	const struct mt_flush_info *fi = rep->flush;

	fprintf(f, "%6s %9s %6s %9s %9s %9s %8s %10s\n", "pages", "us/op", "cv", "median us",
		"mean us", "ns/page", "ops", "refault/op");
	for (size_t i = 0; i < rep->n_results && i < fi->n_points; i++) {
		const struct mt_phase_stat *ps = &rep->results[i]->phases[0];
		const struct mt_flush_point *fp = &fi->points[i];
		char cv[16] = "-";

		if (ps->time_ns.n > 1)
			snprintf(cv, sizeof(cv), "%.1f%%", 100.0 * ps->time_ns.cv);
		fprintf(f, "%6llu %9.3f %6s %9.3f %9.3f %9.1f %8llu %10.2f\n",
			(unsigned long long)fp->pages, ps->time_ns.mean / 1e3, cv,
			fp->op_median_ns / 1e3, fp->op_mean_ns / 1e3,
			ps->time_ns.mean / (double)fp->pages,
			(unsigned long long)fp->ops,
			fp->ops ? (double)fp->refaults / (double)fp->ops : 0.0);
	}
}

static void events(FILE *f, const struct mt_report *rep, bool verbose)
{
	const struct mt_result *r0 = rep->results[0];
	unsigned int cols[256], n = 0;
	char name[160], buf[32];

	if (r0->n_events)
		fprintf(f, "\nCounts per op:\n");
	for (unsigned int e = 0; e < r0->n_events && n < sizeof(cols) / sizeof(cols[0]); e++) {
		mt_compare_escape(name, sizeof(name), r0->events[e].name);
		if (r0->phases[0].counters[e].state == MT_COUNTER_UNSUPPORTED) {
			mt_compare_escape(buf, sizeof(buf), r0->events[e].reason);
			fprintf(f, "  %s: not supported%s%s\n", name,
				verbose && buf[0] ? ": " : "", verbose ? buf : "");
			continue;
		}
		cols[n++] = e;
	}
	for (unsigned int c0 = 0; c0 < n; c0 += EV_COLS) {
		unsigned int c1 = c0 + EV_COLS < n ? c0 + EV_COLS : n;

		if (c0)
			fputc('\n', f);
		for (unsigned int c = c0; c < c1; c++) {
			mt_compare_escape(name, sizeof(name), r0->events[cols[c]].name);
			fprintf(f, "  [%u] %s%s\n", c + 1, name,
				mt_event_time_unit(r0->events[cols[c]].name) ? " (us)" : "");
		}
		fprintf(f, "%6s", "pages");
		for (unsigned int c = c0; c < c1; c++) {
			snprintf(buf, sizeof(buf), "[%u]", c + 1);
			fprintf(f, " %12s", buf);
		}
		fputc('\n', f);
		for (size_t i = 0; i < rep->n_results; i++) {
			const struct mt_result *r = rep->results[i];

			fprintf(f, "%6llu", (unsigned long long)r->blocks);
			for (unsigned int c = c0; c < c1; c++)
				fprintf(f, " %12s", cols[c] < r->n_events ?
					count(r->events[cols[c]].name,
					      &r->phases[0].counters[cols[c]], buf, sizeof(buf))
					: "-");
			fputc('\n', f);
		}
	}
}

/*
 * Flush IPIs per op, system-wide (/proc/interrupts): absent rows say so.
 * The median over the iterations: another task's burst of IPIs (a shared
 * machine) lands in one iteration and moves a mean, hardly the median.
 */
static void irqs(FILE *f, const struct mt_report *rep)
{
	const struct mt_flush_info *fi = rep->flush;
	const struct mt_result *r0 = rep->results[0];
	bool any = false, own = false;

	for (unsigned int x = 0; x < r0->n_extras; x++)
		any |= !strncmp(r0->extra_names[x], "irq.", 4) &&
		       (r0->phases[0].has_extra & (1ull << x));
	if (!any) {
		fprintf(f, "\nFlush IPIs: /proc/interrupts has no TLB or CAL row here\n");
		return;
	}
	for (size_t i = 0; i < fi->n_points; i++)
		for (unsigned int j = 0; j < MT_FLUSH_IRQS; j++)
			own |= !isnan(fi->points[i].own_irq[j]);
	fprintf(f, "\nIPIs per op, system-wide (/proc/interrupts, every CPU and task):\n");
	fprintf(f, "%6s %14s %14s", "pages", "TLB shootdown", "function call");
	if (own)
		fprintf(f, " %14s", "memtlb's own");
	fputc('\n', f);
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct mt_result *r = rep->results[i];
		const struct mt_phase_stat *ps = &r->phases[0];
		double sum = NAN;
		char cell[MT_FLUSH_IRQS + 1][32];

		for (unsigned int j = 0; j < MT_FLUSH_IRQS; j++) {
			snprintf(cell[j], sizeof(cell[j]), "-");
			for (unsigned int x = 0; x < r->n_extras; x++)
				if (!strcmp(r->extra_names[x], mt_flush_irq_names[j]) &&
				    (ps->has_extra & (1ull << x)))
					snprintf(cell[j], sizeof(cell[j]), "%.2f",
						 ps->extras[x].median);
			/* Over the rows this kernel has: one without a TLB row still has CAL. */
			if (i < fi->n_points && !isnan(fi->points[i].own_irq[j]))
				sum = (isnan(sum) ? 0 : sum) + fi->points[i].own_irq[j];
		}
		snprintf(cell[MT_FLUSH_IRQS], sizeof(cell[0]), isnan(sum) ? "-" : "%.2f", sum);
		fprintf(f, "%6llu %14s %14s", (unsigned long long)r->blocks, cell[0], cell[1]);
		if (own)
			fprintf(f, " %14s", cell[MT_FLUSH_IRQS]);
		fputc('\n', f);
	}
	if (!own) {
		fprintf(f, "Medians over the iterations.\n");
		return;
	}
	fprintf(f, "Medians over the iterations, of a second pass of the ops, counters off.\n"
		   "memtlb's own: the IPIs per op its enable and disable of the counters\n"
		   "  added to the counted pass (both rows), left out of the figures.\n");
}

/*
 * The largest step, and why it is no knee: a size alone beside "none"
 * reads as a contradiction when it is above the ratio. A drop is found as
 * a rise of ops per second: a spike or a dip there is the other way round
 * in time, and is not said.
 */
static void largest(FILE *f, const char *what, const struct mt_flush_knee *k)
{
	enum mt_knee_why why = mt_knee_why_parse(k->why);
	char line[256];
	int n;

	n = snprintf(line, sizeof(line), "  largest %s x%.2f from %llu to %llu pages", what,
		     k->step, (unsigned long long)k->before, (unsigned long long)k->after);
	if (why != MT_KNEE_WHY_N && why != MT_KNEE_WHY_KNEE &&
	    !(k->down && (why == MT_KNEE_WHY_SPIKE || why == MT_KNEE_WHY_DIP)) &&
	    n > 0 && (size_t)n < sizeof(line))
		snprintf(line + n, sizeof(line) - (size_t)n, ", no knee: %s",
			 mt_knee_why_text(why));
	mt_text_wrap(f, line, 80, 4);
}

static void notes(FILE *f, const struct mt_report *rep)
{
	const struct mt_flush_info *fi = rep->flush;
	char note[sizeof(fi->ceiling_note)];

	fputc('\n', f);
	if (fi->n_knees < 0)
		fprintf(f, "Knee: not looked for (one point)\n");
	for (int i = 0; i < fi->n_knees; i++)
		fprintf(f, "Knee: median time per op %s x%.2f from %llu to %llu pages\n",
			fi->knees[i].down ? "drops" : "rises", fi->knees[i].step,
			(unsigned long long)fi->knees[i].before,
			(unsigned long long)fi->knees[i].after);
	if (!fi->n_knees)
		fprintf(f, "Knee: none seen (a step of x%.1f over the trend makes one)\n",
			fi->knee_ratio);
	if (fi->n_knees >= 0 && fi->largest.step > 0)
		largest(f, "rise", &fi->largest);
	if (fi->n_knees >= 0 && fi->largest_drop.step > 0)
		largest(f, "drop", &fi->largest_drop);
	mt_compare_escape(note, sizeof(note), fi->ceiling_note);
	if (fi->ceiling >= 0)
		fprintf(f, "Flush ceiling: %ld pages (tlb_single_page_flush_ceiling, %s)\n",
			fi->ceiling, note);
	else
		fprintf(f, "Flush ceiling: %s; x86's default is %d pages\n", note,
			MT_FLUSH_CEILING_DEFAULT);
	if (rep->system.pv_tlb_flush > 0)
		fprintf(f, "Paravirtual TLB flush (KVM): flushes of preempted vCPUs are left to\n"
			   "  the host, without an IPI: IPI counts depend on the host's load.\n");
	else if (rep->system.pv_tlb_flush < 0)
		fprintf(f, "Paravirtual TLB flush: unknown\n");
	if (fi->tasks < 2)
		fprintf(f, "One task: every flush is local.\n");
}

int mt_flush_print_table(FILE *f, const struct mt_report *rep, bool verbose)
{
	const struct mt_flush_info *fi = rep->flush;

	if (!fi || !rep->n_results || fi->n_points < rep->n_results)
		return -EINVAL;
	fprintf(f, "memtlb flush: %s, %lu task%s (%u pinned), %lu ops x %lu iterations\n",
		mt_flush_op_name(fi->op) ? mt_flush_op_name(fi->op) : "?", fi->tasks,
		fi->tasks == 1 ? "" : "s", fi->pinned, fi->ops, rep->config.iterations);
	mt_report_print_emulation(f, &rep->system.emulation);
	fputc('\n', f);
	times(f, rep);
	events(f, rep, verbose);
	irqs(f, rep);
	notes(f, rep);
	return ferror(f) ? -EIO : 0;
}
