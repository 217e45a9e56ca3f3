// SPDX-License-Identifier: MIT
/*
 * Cells: how one number is shown, the same in every table; and the phase
 * table as rows of those cells, which memtlb stat and memtlb report print.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cells.h"
#include "stats/compare.h"

const char *mt_cell_safe(char *buf, size_t len, const char *s)
{
	/* one escaper for warnings and cells: stats' (C0, DEL, C1 as \xNN) */
	mt_compare_escape(buf, len, s ? s : "");
	return buf;
}

const char *mt_cell_csv(char *buf, size_t len, const char *s, bool always)
{
	char safe[MT_SAFE_MAX];
	size_t n = 0;
	bool quote;

	if (!len)
		return buf;
	mt_cell_safe(safe, sizeof(safe), s);
	/* RFC 4180: a field with a quote, comma or line end is quoted, "" inside */
	quote = always || strpbrk(safe, "\",\r\n") || safe[0] == ' ' ||
		(safe[0] && safe[strlen(safe) - 1] == ' ');
	if (quote && n + 1 < len)
		buf[n++] = '"';
	for (const char *p = safe; *p && n + 3 < len; p++) {
		if (*p == '"')
			buf[n++] = '"';
		buf[n++] = *p;
	}
	if (quote && n + 1 < len)
		buf[n++] = '"';
	buf[n] = '\0';
	return buf;
}

void mt_csv_field(FILE *f, const char *s, bool always)
{
	char buf[2 * MT_SAFE_MAX + 3];

	fputs(mt_cell_csv(buf, sizeof(buf), s, always), f);
}

void mt_report_number(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a != 0.0 && (a >= 1e7 || a < 1e-3))
		snprintf(buf, len, "%.3g", v);
	else if (a >= 100.0 || v == (double)(long long)v)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

const char *mt_cell_state(enum mt_counter_state state)
{
	switch (state) {
	case MT_COUNTER_UNSUPPORTED:
		return "not supported";
	case MT_COUNTER_NOT_COUNTED:
		return "not counted";
	case MT_COUNTER_OK:
		break;
	}
	return NULL;
}

/* perf's convention: the running share only when it was multiplexed. */
static void running_share(char *buf, size_t len, int n, double running)
{
	if (running < 0.9999 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " (%.1f%%)", 100.0 * running);
}

void mt_cell_counter(char *buf, size_t len, const struct mt_counter_stat *cs)
{
	const char *state = mt_cell_state(cs->state);
	double v = cs->s.mean;

	if (state) {
		snprintf(buf, len, "%s", state);
		return;
	}
	running_share(buf, len, snprintf(buf, len, v >= 100.0 || v == floor(v) ? "%.0f" : "%.2f",
					 v), cs->running);
}

void mt_cell_counter_per(char *buf, size_t len, const struct mt_counter_stat *cs, double div)
{
	const char *state = mt_cell_state(cs->state);
	char v[32];

	if (state) {
		snprintf(buf, len, "%s", state);
		return;
	}
	mt_report_number(v, sizeof(v), cs->s.mean / div);
	running_share(buf, len, snprintf(buf, len, "%s", v), cs->running);
}

void mt_cell_derived(char *buf, size_t len, const struct mt_phase_stat *ps, enum mt_derived d)
{
	double v = ps->derived[d];
	const char *mark = mt_phase_cross_group(ps, d) ? "*" : "";

	if (!mt_phase_has(ps, d))
		snprintf(buf, len, "-");
	else if (d == MT_DERIVED_DTLB_MISS_RATIO || d == MT_DERIVED_WALK_CYCLES_SHARE)
		snprintf(buf, len, "%.2f%%%s", 100.0 * v, mark);
	else if (d == MT_DERIVED_DTLB_MISS_RATE)
		snprintf(buf, len, "%.3g%s", v, mark);
	else
		snprintf(buf, len, v >= 100.0 ? "%.1f%s" : "%.3f%s", v, mark);
}

void mt_cell_time_us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%.2f", ns / 1000.0);
}

void mt_cell_cv(char *buf, size_t len, const struct mt_summary *s)
{
	if (s->n > 1)
		snprintf(buf, len, "%.2f", 100.0 * s->cv);
	else
		snprintf(buf, len, "-");
}

int mt_table_create(struct mt_table **out, unsigned int ncols)
{
	struct mt_table *t;

	*out = NULL;
	if (!ncols)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->width = calloc(ncols, sizeof(*t->width));
	if (!t->width) {
		free(t);
		return -ENOMEM;
	}
	t->ncols = ncols;
	t->gap = 1;
	*out = t;
	return 0;
}

void mt_table_destroy(struct mt_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->cells[i]);
	for (size_t i = 0; i < t->n_notes; i++)
		free(t->notes[i]);
	free(t->cells);
	free(t->notes);
	free(t->width);
	free(t);
}

static int append(struct mt_table *t, char ***list, size_t *n, const char *fmt, va_list ap)
{
	char **grown, *s, *safe;

	if (t->err)
		return t->err;
	if (vasprintf(&s, fmt, ap) < 0)
		return t->err = -ENOMEM;
	/*
	 * Every cell and note is shown as text somewhere: a control byte
	 * from a shared report (an event, a phase, a host) is escaped here,
	 * once, for the terminal, markdown and XHTML alike (at most 4 bytes
	 * for one).
	 */
	safe = malloc(4 * strlen(s) + 1);
	if (!safe) {
		free(s);
		return t->err = -ENOMEM;
	}
	mt_cell_safe(safe, 4 * strlen(s) + 1, s);
	free(s);
	s = safe;
	grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown) {
		free(s);
		return t->err = -ENOMEM;
	}
	*list = grown;
	grown[(*n)++] = s;
	return 0;
}

int mt_table_add(struct mt_table *t, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = append(t, &t->cells, &t->n, fmt, ap);
	va_end(ap);
	return ret;
}

int mt_table_note(struct mt_table *t, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = append(t, &t->notes, &t->n_notes, fmt, ap);
	va_end(ap);
	return ret;
}

size_t mt_table_rows(const struct mt_table *t)
{
	return t->n / t->ncols;
}

const char *mt_table_cell(const struct mt_table *t, size_t row, unsigned int col)
{
	if (col >= t->ncols || row >= mt_table_rows(t))
		return NULL;
	return t->cells[row * t->ncols + col];
}

int mt_table_print_text(FILE *f, const struct mt_table *t)
{
	size_t rows = mt_table_rows(t);
	int *w = calloc(t->ncols, sizeof(*w));

	if (!w)
		return -ENOMEM;
	for (unsigned int c = 0; c < t->ncols; c++) {
		w[c] = t->width[c];
		for (size_t r = 0; r < rows; r++) {
			int len = (int)strlen(mt_table_cell(t, r, c));

			if (len > w[c])
				w[c] = len;
		}
	}
	for (size_t r = 0; r < rows; r++) {
		for (unsigned int c = 0; c < t->ncols; c++) {
			if (c)
				fprintf(f, "%*s%*s", t->gap, "", w[c], mt_table_cell(t, r, c));
			else
				fprintf(f, "%-*s", t->ncols > 1 ? w[c] : 0, mt_table_cell(t, r, c));
		}
		fputc('\n', f);
	}
	free(w);
	return ferror(f) ? -EIO : 0;
}

int mt_table_print_notes(FILE *f, const struct mt_table *t)
{
	for (size_t i = 0; i < t->n_notes; i++)
		fprintf(f, "%s\n", t->notes[i]);
	return ferror(f) ? -EIO : 0;
}

/* Events not supported: each with its reason when verbose, else how many. */
static void note_unsupported(struct mt_table *t, const struct mt_result *r, bool verbose)
{
	unsigned int n = 0;

	if (!r->n_phases)
		return;
	for (unsigned int e = 0; e < r->n_events; e++) {
		if (!r->events[e].err && !r->events[e].reason[0])
			continue;
		if (r->phases[0].counters[e].state != MT_COUNTER_UNSUPPORTED)
			continue;
		if (verbose)
			mt_table_note(t, "%s: not supported: %s", r->events[e].name,
				      r->events[e].reason);
		n++;
	}
	if (n && !verbose)
		mt_table_note(t, "%u event%s not supported on this machine (--verbose says why)", n,
			      n > 1 ? "s" : "");
}

/* Groups, when the events did not fit one; and what '*' means. */
static void note_groups(struct mt_table *t, const struct mt_result *r)
{
	unsigned int cross = 0;
	int groups = mt_result_groups(r);

	for (unsigned int p = 0; p < r->n_phases; p++)
		cross |= r->phases[p].cross_group & r->phases[p].has_derived;
	if (groups > 1) {
		mt_table_note(t, "the events did not fit one counter group; they were counted in %d:",
			      groups);
		for (int g = 0; g < groups; g++) {
			char line[1024];
			size_t len = 0;

			for (unsigned int e = 0; e < r->n_events; e++)
				if (r->events[e].group == g && len < sizeof(line))
					len += snprintf(line + len, sizeof(line) - len, " %s",
							r->events[e].name);
			line[len < sizeof(line) ? len : sizeof(line) - 1] = '\0';
			mt_table_note(t, "  group %d:%s", g, line);
		}
	}
	if (cross)
		mt_table_note(t, "* inputs counted in different groups, so not over the same time "
				 "slices: compare with care");
}

/* What each event measures on this CPU, when an event set said so. */
static void note_meanings(struct mt_table *t, const struct mt_report *rep,
			  const struct mt_result *r)
{
	bool any = false;

	for (unsigned int e = 0; e < r->n_events; e++)
		any |= r->events[e].meaning[0] != '\0';
	if (!any)
		return;
	mt_table_note(t, "what the events%s%s measure on %s:", rep->event_set[0] ? " of set " : "",
		      rep->event_set, rep->system.pmu[0] ? rep->system.pmu : "this machine");
	for (unsigned int e = 0; e < r->n_events; e++)
		if (r->events[e].meaning[0])
			mt_table_note(t, "  %s: %s", r->events[e].name, r->events[e].meaning);
}

int mt_table_notes(struct mt_table *t, const struct mt_report *rep, const struct mt_result *r,
		   bool verbose)
{
	note_unsupported(t, r, verbose);
	note_groups(t, r);
	note_meanings(t, rep, r);
	return t->err;
}

int mt_phase_table(struct mt_table **out, const struct mt_report *rep,
		   const struct mt_result *r, bool verbose)
{
	unsigned int any = 0, ncols = 3 + r->n_events, c = 0;
	struct mt_table *t;
	char cell[MT_CELL_MAX];
	int ret;

	for (unsigned int p = 0; p < r->n_phases; p++)
		any |= r->phases[p].has_derived;
	for (int d = 0; d < MT_DERIVED_MAX; d++)
		ncols += !!(any & (1u << d));
	ret = mt_table_create(&t, ncols);
	if (ret) {
		*out = NULL;
		return ret;
	}

	/* The seed's columns, ns/block beside the time, the counts, the other metrics. */
	t->width[c++] = 10;
	t->width[c++] = 14;
	t->width[c++] = 8;
	mt_table_add(t, "%s", MT_HEAD_PHASE);
	mt_table_add(t, "%s", MT_HEAD_MEAN_US);
	mt_table_add(t, "%s", MT_HEAD_CV);
	if (any & (1u << MT_DERIVED_NS_PER_BLOCK)) {
		t->width[c++] = 10;
		mt_table_add(t, "%s", mt_derived_label(MT_DERIVED_NS_PER_BLOCK));
	}
	for (unsigned int e = 0; e < r->n_events; e++) {
		t->width[c++] = 14;
		mt_table_add(t, "%s", r->events[e].name);
	}
	for (int d = MT_DERIVED_NS_PER_BLOCK + 1; d < MT_DERIVED_MAX; d++) {
		if (!(any & (1u << d)))
			continue;
		t->width[c++] = 15;
		mt_table_add(t, "%s", mt_derived_label(d));
	}

	for (unsigned int p = 0; p < r->n_phases; p++) {
		const struct mt_phase_stat *ps = &r->phases[p];

		mt_table_add(t, "%s", ps->name);
		mt_cell_time_us(cell, sizeof(cell), ps->time_ns.mean);
		mt_table_add(t, "%s", cell);
		mt_cell_cv(cell, sizeof(cell), &ps->time_ns);
		mt_table_add(t, "%s", cell);
		if (any & (1u << MT_DERIVED_NS_PER_BLOCK)) {
			mt_cell_derived(cell, sizeof(cell), ps, MT_DERIVED_NS_PER_BLOCK);
			mt_table_add(t, "%s", cell);
		}
		for (unsigned int e = 0; e < r->n_events; e++) {
			mt_cell_counter(cell, sizeof(cell), &ps->counters[e]);
			mt_table_add(t, "%s", cell);
		}
		for (int d = MT_DERIVED_NS_PER_BLOCK + 1; d < MT_DERIVED_MAX; d++) {
			if (!(any & (1u << d)))
				continue;
			mt_cell_derived(cell, sizeof(cell), ps, d);
			mt_table_add(t, "%s", cell);
		}
	}

	ret = mt_table_notes(t, rep, r, verbose);
	if (ret) {
		mt_table_destroy(t);
		t = NULL;
	}
	*out = t;
	return ret;
}
