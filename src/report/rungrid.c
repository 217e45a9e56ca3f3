// SPDX-License-Identifier: MIT
/* memtlb run --vary: the study's table and CSV, a column per combination. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/metrics.h"
#include "report/cells.h"
#include "report/rungrid.h"
#include "sys/tunable.h"

#define TIME_ROW "seconds time elapsed"
#define NS_PER_S 1e9

/* The change of s against base, as compare judges it; none where either lacks runs. */
static bool change_of(const struct mt_summary *base, const struct mt_summary *s, bool counter,
		      struct mt_cmp_side *out)
{
	memset(out, 0, sizeof(*out));
	if (!base->n || !s->n)
		return false;
	out->state = MT_SIDE_OK;
	out->s = *s;
	mt_compare_judge(base, s, counter, MT_COMPARE_NOISE_PCT, out);
	return true;
}

void mt_rungrid_cell(char *buf, size_t len, const struct mt_summary *s, double scale,
		     int digits, const struct mt_cmp_side *chg)
{
	char mean[MT_CELL_MAX], sd[24] = "", ch[32] = "";

	if (digits < 0)
		mt_cell_count(mean, sizeof(mean), s->mean);
	else
		snprintf(mean, sizeof(mean), "%.*f", digits, s->mean / scale);
	/* one run has no spread: the place kept, so that the columns align */
	if (s->n > 1 && s->mean != 0.0)
		snprintf(sd, sizeof(sd), " +-%5.2f%%", 100.0 * s->stddev / fabs(s->mean));
	else
		snprintf(sd, sizeof(sd), "%9s", "");
	if (chg && chg->have_change && chg->absolute)
		snprintf(ch, sizeof(ch), " %+9.4g%c", chg->change / scale,
			 chg->changed && !chg->emulated ? '*' : ' ');
	else if (chg && chg->have_change)
		snprintf(ch, sizeof(ch), " %+8.1f%%%c", chg->change,
			 chg->changed && !chg->emulated ? '*' : ' ');
	else if (chg)
		snprintf(ch, sizeof(ch), " %10s", "");
	snprintf(buf, len, "%s%s%s", mean, sd, ch);
}

/*
 * The phase a grid shows: a run's one phase (its whole command), or a
 * sweep's named one; NULL where a point lacks it.
 */
static const struct mt_phase_stat *grid_phase(const struct mt_result *r, const char *phase)
{
	if (!phase)
		return r->n_phases ? &r->phases[0] : NULL;
	return mt_result_phase(r, phase);
}

const struct mt_summary *mt_rungrid_value(const struct mt_result *r,
					  const struct mt_rungrid_row *rw,
					  enum mt_counter_state *state, const double **samples)
{
	static const struct mt_summary none;
	const struct mt_phase_stat *ps = grid_phase(r, rw->phase);
	int e;

	*state = MT_COUNTER_OK;
	*samples = NULL;
	if (ps && !rw->name) {
		*samples = ps->time_samples;
		return &ps->time_ns;
	}
	/* by name: a report read back need not list the events alike */
	e = ps ? mt_result_event_index(r, rw->name) : -1;
	if (e < 0) {
		*state = MT_COUNTER_UNSUPPORTED;
		return &none;
	}
	*state = ps->counters[e].state;
	*samples = ps->counters[e].samples;
	return &ps->counters[e].s;
}

static const struct mt_summary *row_summary(const struct mt_result *r,
					    const struct mt_rungrid_row *rw,
					    enum mt_counter_state *state)
{
	const double *samples;

	return mt_rungrid_value(r, rw, state, &samples);
}

/* mt_rungrid_row of a phase: a run's (NULL) or a sweep's. */
static bool row_at(const struct mt_report *rep, const char *phase, unsigned int slot, bool wide,
		   struct mt_rungrid_row *rw)
{
	const struct mt_result *base = rep->n_results ? rep->results[0] : NULL;
	const struct mt_phase_stat *ps = base ? grid_phase(base, phase) : NULL;
	double mean;

	memset(rw, 0, sizeof(*rw));
	rw->phase = phase;
	if (!ps || slot > base->n_events)
		return false;
	if (slot == base->n_events) {
		mean = ps->time_ns.mean;
		rw->event = -1;
		rw->scale = NS_PER_S;
		rw->unit = "s";
		rw->digits = mean >= 10 * NS_PER_S ? 2 : mean >= 0.01 * NS_PER_S ? 4 : 6;
		return true;
	}
	rw->event = (int)slot;
	rw->name = base->events[slot].name;
	rw->tu = mt_event_time_unit(rw->name);
	rw->scale = rw->tu ? MT_CLOCK_NS_PER_UNIT : 1.0;
	rw->unit = rw->tu ? rw->tu : "count";
	rw->digits = rw->tu ? 2 : -1;
	/* an event the first column could not open: the wide table's alone */
	return wide || ps->counters[slot].state != MT_COUNTER_UNSUPPORTED;
}

bool mt_rungrid_row(const struct mt_report *rep, unsigned int slot, bool wide,
		    struct mt_rungrid_row *rw)
{
	return row_at(rep, NULL, slot, wide, rw);
}

/* A column's cell of a row: the numbers, or why there are none. */
static void row_cell(const struct mt_report *rep, size_t c, const struct mt_rungrid_row *rw,
		     char *buf, size_t len)
{
	const struct mt_result *r = rep->results[c];
	enum mt_counter_state st, bst;
	const struct mt_summary *s = row_summary(r, rw, &st);
	const struct mt_summary *b = row_summary(rep->results[0], rw, &bst);
	const struct mt_phase_stat *ps = grid_phase(r, rw->phase);
	struct mt_cmp_side chg;
	bool have;

	if (!ps || !ps->time_ns.n) {
		snprintf(buf, len, "%s", rw->phase ? "none" : "no run");
		return;
	}
	if (st != MT_COUNTER_OK) {
		snprintf(buf, len, "%s", mt_cell_state(st));
		return;
	}
	have = c && bst == MT_COUNTER_OK && change_of(b, s, rw->event >= 0 && !rw->tu, &chg);
	/* qemu's times are its translator's: no change judged there, counts hold */
	if (have && (rw->event < 0 || rw->tu) && mt_emulation_maybe(&rep->system.emulation))
		chg.emulated = true;
	if (c && !have)
		memset(&chg, 0, sizeof(chg));
	mt_rungrid_cell(buf, len, s, rw->scale, rw->digits, c ? &chg : NULL);
}

void mt_rungrid_row_name(const struct mt_rungrid_row *rw, char *buf, size_t len)
{
	if (rw->event < 0 && rw->phase)
		snprintf(buf, len, "%s seconds", rw->phase);
	else if (rw->event < 0)
		snprintf(buf, len, "%s", TIME_ROW);
	else
		snprintf(buf, len, "%s%s%s%s", rw->name, rw->tu ? " (" : "", rw->tu ? rw->tu : "",
			 rw->tu ? ")" : "");
}

/* The header lines of the study: the command, the order, each tunable and its restore. */
static void print_head(FILE *f, const struct mt_report *rep, int prose)
{
	const struct mt_run_grid *g = rep->grid;
	char cmd[MT_SAFE_MAX], a[MT_SAFE_MAX], b[MT_SAFE_MAX], c[MT_SAFE_MAX];
	char seed[48] = "";

	if (g->order == MT_ORDER_RANDOM)
		snprintf(seed, sizeof(seed), " (seed %llu)", (unsigned long long)g->seed);
	mt_text_wrapf(f, prose, "memtlb run: %s: %zu column%s x %u run%s, %s%s; %u run%s done",
		      mt_cell_safe(cmd, sizeof(cmd), rep->command_line), rep->n_results,
		      rep->n_results == 1 ? "" : "s", g->repeat, g->repeat == 1 ? "" : "s",
		      mt_order_name(g->order), seed, rep->runs, rep->runs == 1 ? "" : "s");
	for (size_t t = 0; t < g->n_tunables; t++)
		mt_text_wrapf(f, prose, "%s: %s, was %s, restored",
			      mt_cell_safe(a, sizeof(a), g->tunables[t].key),
			      mt_cell_safe(b, sizeof(b), g->tunables[t].path),
			      mt_cell_safe(c, sizeof(c), g->tunables[t].original));
	for (size_t i = 0; i < rep->n_results; i++) {
		char vals[MT_SAFE_MAX] = "";
		size_t n = 0;

		if (i >= g->n_columns || !g->columns[i].failed)
			continue;
		for (unsigned int v = 0; v < rep->results[i]->n_vary && n < sizeof(vals); v++)
			n += (size_t)snprintf(vals + n, sizeof(vals) - n, "%s%s=%s", v ? " " : "",
					      rep->results[i]->vary[v].key,
					      rep->results[i]->vary[v].value);
		mt_text_wrapf(f, prose, "FAILED: %s: %u of %u runs exited non-zero (last: exit "
			      "status %d), left out of its column",
			      mt_cell_safe(a, sizeof(a), vals), g->columns[i].failed,
			      g->columns[i].failed + (unsigned int)rep->results[i]->phases[0].time_ns.n,
			      g->columns[i].exit_status);
	}
	mt_report_print_system(f, rep, prose);
	fputc('\n', f);
}

/*
 * The grid of phase (NULL: a run's), a column per result, and what its
 * cells mean; repeat: the runs a column was given (a run's), 0 for a sweep.
 */
static int print_grid(FILE *f, const struct mt_report *rep, const char *phase,
		      unsigned int repeat, bool wide, int prose)
{
	const struct mt_result *base = rep->results[0];
	size_t cols = rep->n_results, axes = base->n_vary ? base->n_vary : 1;
	bool emulated = mt_emulation_maybe(&rep->system.emulation), short_col = false;
	struct mt_table *t;
	char cell[2 * MT_CELL_MAX];
	int ret;

	ret = mt_table_create(&t, (unsigned int)cols + 1);
	if (ret)
		return ret;
	/* a header line per varied key: "thp=always" over its columns */
	for (size_t a = 0; a < axes; a++) {
		mt_table_add(t, "%s", "");
		for (size_t c = 0; c < cols; c++) {
			const struct mt_result *r = rep->results[c];

			if (a < r->n_vary)
				mt_table_add(t, "%s=%s", r->vary[a].key, r->vary[a].value);
			else
				mt_table_add(t, "%s", "");
		}
	}
	for (int e = 0; e <= (int)base->n_events; e++) {
		struct mt_rungrid_row rw;
		char name[MT_EVENT_NAME_MAX + MT_PHASE_NAME_MAX + 16];

		if (!row_at(rep, phase, (unsigned int)e, wide, &rw))
			continue;
		mt_rungrid_row_name(&rw, name, sizeof(name));
		mt_table_add(t, "%s", name);
		for (size_t c = 0; c < cols; c++) {
			row_cell(rep, c, &rw, cell, sizeof(cell));
			mt_table_add(t, "%s", cell);
		}
	}
	for (size_t c = 0; repeat && c < cols; c++)
		short_col |= rep->results[c]->phases[0].time_ns.n < repeat;
	if (short_col) {
		mt_table_add(t, "%s", "runs counted");
		for (size_t c = 0; c < cols; c++)
			mt_table_add(t, "%zu of %u", rep->results[c]->phases[0].time_ns.n, repeat);
	}
	ret = t->err;
	if (!ret)
		ret = mt_table_print_fit(f, t, wide ? 0 : prose, 1);
	mt_table_destroy(t);
	if (ret)
		return ret;
	fputc('\n', f);
	mt_text_wrapf(f, prose, "mean over a column's %s, +- its stddev in %% of the mean; then "
		      "the change to the first column, * where Welch's test gives p < %.2f and "
		      "the change is beyond the %.0f%% noise threshold",
		      phase ? "iterations" : "runs that exited 0", MT_COMPARE_ALPHA,
		      MT_COMPARE_NOISE_PCT);
	if (emulated)
		mt_text_wrapf(f, prose, "times are an emulated CPU's: no change of a time is "
			      "marked; counts hold");
	return ferror(f) ? -EIO : 0;
}

int mt_rungrid_print_table(FILE *f, const struct mt_report *rep, bool wide)
{
	int prose = MT_PROSE_WIDTH(mt_report_width(f, rep));

	print_head(f, rep, prose);
	if (!rep->n_results || !rep->results[0]->n_phases)
		return ferror(f) ? -EIO : 0;
	return print_grid(f, rep, NULL, rep->grid->repeat, wide, prose);
}

bool mt_rungrid_is_study(const struct mt_report *rep)
{
	const struct mt_result *base = rep->n_results > 1 ? rep->results[0] : NULL;
	bool tunable = false;

	if (!base || rep->grid)
		return false;
	for (unsigned int v = 0; v < base->n_vary; v++)
		tunable |= mt_tunable_is_key(base->vary[v].key);
	for (size_t i = 1; tunable && i < rep->n_results; i++)
		if (rep->results[i]->region != base->region)
			return false;
	return tunable;
}

int mt_rungrid_print_study(FILE *f, const struct mt_report *rep, const char *phase, bool wide)
{
	int prose = MT_PROSE_WIDTH(mt_report_width(f, rep));
	char ph[MT_SAFE_MAX];

	if (!mt_rungrid_is_study(rep) || !phase || !grid_phase(rep->results[0], phase))
		return 0;
	fputc('\n', f);
	mt_text_wrapf(f, prose, "study: %s of each point, a column per value (memtlb run's "
		      "layout)", mt_cell_safe(ph, sizeof(ph), phase));
	return print_grid(f, rep, phase, 0, wide, prose);
}

int mt_rungrid_print_csv(FILE *f, const struct mt_report *rep)
{
	const struct mt_result *base = rep->n_results ? rep->results[0] : NULL;

	fprintf(f, "column,values,metric,unit,mean,stddev,cv,n,failed,change,change_unit,p,"
		"changed\n");
	/* a first column without its phase has no rows to name */
	for (size_t c = 0; base && base->n_phases && c < rep->n_results; c++) {
		const struct mt_result *r = rep->results[c];
		char vals[MT_SAFE_MAX] = "", q[2 * MT_SAFE_MAX + 3], qm[2 * MT_SAFE_MAX + 3];
		size_t n = 0;

		for (unsigned int v = 0; v < r->n_vary && n < sizeof(vals); v++)
			n += (size_t)snprintf(vals + n, sizeof(vals) - n, "%s%s=%s", v ? " " : "",
					      r->vary[v].key, r->vary[v].value);
		mt_cell_csv(q, sizeof(q), vals, false);
		for (int e = 0; e <= (int)base->n_events; e++) {
			enum mt_counter_state st, bst;
			const struct mt_summary *s, *b;
			char mean[40] = "", sd[40] = "", cv[40] = "", ch[40] = "", p[40] = "";
			struct mt_cmp_side chg = { 0 };
			struct mt_rungrid_row rw;
			const char *unit;

			/* every row, wide: a CSV is read by a program */
			mt_rungrid_row(rep, (unsigned int)e, true, &rw);
			s = row_summary(r, &rw, &st);
			b = row_summary(base, &rw, &bst);
			unit = rw.event < 0 || rw.tu ? "ns" : rw.unit;
			if (st == MT_COUNTER_OK && s->n) {
				mt_cell_csv_number(mean, sizeof(mean), s->mean);
				if (s->n > 1) {
					mt_cell_csv_number(sd, sizeof(sd), s->stddev);
					mt_cell_csv_number(cv, sizeof(cv), s->cv);
				}
			}
			if (c && st == MT_COUNTER_OK && bst == MT_COUNTER_OK &&
			    change_of(b, s, rw.event >= 0 && !rw.tu, &chg)) {
				mt_cell_csv_number(ch, sizeof(ch), chg.change);
				if (chg.tested)
					mt_cell_csv_number(p, sizeof(p), chg.p);
			}
			fprintf(f, "%zu,%s,%s,%s,%s,%s,%s,%zu,%u,%s,%s,%s,%s\n", c, q,
				rw.event < 0 ? "time" : mt_cell_csv(qm, sizeof(qm),
								    base->events[rw.event].name,
								    false),
				unit, mean, sd, cv, st == MT_COUNTER_OK ? s->n : 0,
				c < rep->grid->n_columns ? rep->grid->columns[c].failed : 0, ch,
				!chg.have_change ? "" : chg.absolute ? unit : "%", p,
				!chg.have_change ? "" : chg.changed ? "yes" : "no");
		}
	}
	return ferror(f) ? -EIO : 0;
}
