// SPDX-License-Identifier: MIT
/*
 * Cells: how one number is shown, the same in every table; and the phase
 * table as rows of those cells, which memtlb stat and memtlb report print.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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
	bool quote, formula;

	if (!len)
		return buf;
	mt_cell_safe(safe, sizeof(safe), s);
	/*
	 * A text field a spreadsheet would take for a formula (=, +, -, @;
	 * tab and CR are escaped by mt_cell_safe already) is prefixed with a
	 * quote mark and quoted, as OWASP's CSV injection advice has it: the
	 * names in a report are untrusted. Numbers never come this way.
	 */
	formula = safe[0] && strchr("=+-@", safe[0]);
	/* RFC 4180: a field with a quote, comma or line end is quoted, "" inside */
	quote = always || formula || strpbrk(safe, "\",\r\n") || safe[0] == ' ' ||
		(safe[0] && safe[strlen(safe) - 1] == ' ');
	if (quote && n + 1 < len)
		buf[n++] = '"';
	if (formula && n + 1 < len)
		buf[n++] = '\'';
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

void mt_cell_count(char *buf, size_t len, double v)
{
	char digits[64], *d = digits;
	size_t n = 0, nd;

	if (!len)
		return;
	/* perf's style: whole counts with thousands separators, small fractions kept */
	if (!isfinite(v) || fabs(v) >= 1e18 || (fabs(v) < 100.0 && v != floor(v))) {
		snprintf(buf, len, isfinite(v) && fabs(v) < 1e18 ? "%.2f" : "%g", v);
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", v);
	if (*d == '-' && n + 1 < len)
		buf[n++] = *d++;
	nd = strlen(d);
	for (size_t i = 0; i < nd && n + 1 < len; i++) {
		if (i && (nd - i) % 3 == 0 && n + 2 < len)
			buf[n++] = ',';
		buf[n++] = d[i];
	}
	buf[n] = '\0';
}

void mt_cell_counter(char *buf, size_t len, const char *event,
		     const struct mt_counter_stat *cs)
{
	const char *state = mt_cell_state(cs->state);

	if (state) {
		snprintf(buf, len, "%s", state);
		return;
	}
	/* a clock event's nanoseconds in its unit, as perf prints them */
	if (mt_event_time_unit(event))
		mt_cell_time(buf, len, cs->s.mean, MT_CLOCK_NS_PER_UNIT);
	else
		mt_cell_count(buf, len, cs->s.mean);
	running_share(buf, len, (int)strlen(buf), cs->running);
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

const char *mt_time_unit(const double *ns, size_t n, double *scale)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
	};
	double *v, med = 0.0;

	*scale = 1.0;
	v = n ? malloc(n * sizeof(*v)) : NULL;
	if (v) {
		memcpy(v, ns, n * sizeof(*v));
		qsort(v, n, sizeof(*v), cmp_double);
		med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
		free(v);
	}
	/* the largest unit that keeps the median at 1 or more: 1..999 */
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (fabs(med) >= units[i].ns) {
			*scale = units[i].ns;
			return units[i].name;
		}
	}
	return "ns";
}

void mt_cell_time(char *buf, size_t len, double ns, double scale)
{
	double v = ns / scale, a = fabs(v);

	/* three significant digits or more, never a bare 0 for a short phase */
	snprintf(buf, len, a >= 100.0 ? "%.1f" : a >= 1.0 || a == 0.0 ? "%.2f" : "%.3g", v);
}

void mt_cell_csv_number(char *buf, size_t len, double v)
{
	/* whole numbers as integers, the rest in the fewest digits that read back */
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
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

int mt_text_width(FILE *f)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long v;
	int fd = fileno(f);

	/* COLUMNS first, as perf and less take it; below 20 no table is readable */
	if (env && *env) {
		v = strtol(env, &end, 10);
		if (!*end && v >= 20 && v <= 10000)
			return (int)v;
	}
	if (fd >= 0 && isatty(fd) && !ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return 100;
}

static bool pmu_role(enum mt_role role)
{
	return role == MT_ROLE_DTLB_LOADS || role == MT_ROLE_DTLB_MISSES ||
	       role == MT_ROLE_CYCLES || role == MT_ROLE_INSTRUCTIONS ||
	       role == MT_ROLE_WALK_CYCLES || role == MT_ROLE_ITLB_MISSES;
}

int mt_report_width(FILE *f, const struct mt_report *rep)
{
	int width = mt_text_width(f);

	if (rep->system.hw_counters > 0 || width <= 80)
		return width;
	/* a replayed PMU counts too: what decides is what was counted */
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct mt_result *r = rep->results[i];

		for (unsigned int e = 0; e < r->n_events; e++)
			if (pmu_role(r->events[e].role) && !mt_event_hidden(r, e))
				return width;
	}
	return 80;
}

/* Columns [0, keep) then [from, to) of every row, without trailing spaces. */
static int print_columns(FILE *f, const struct mt_table *t, const int *w, unsigned int keep,
			 unsigned int from, unsigned int to)
{
	size_t rows = mt_table_rows(t), len = 0;
	char *line = NULL;

	for (size_t r = 0; r < rows; r++) {
		FILE *m = open_memstream(&line, &len);
		bool first = true;

		if (!m)
			return -ENOMEM;
		for (unsigned int c = 0; c < to; c++) {
			if (c >= keep && c < from)
				continue;
			if (!first)
				fprintf(m, "%*s%*s", t->gap, "", w[c], mt_table_cell(t, r, c));
			else
				fprintf(m, "%-*s", keep + to - from > 1 ? w[c] : 0,
					mt_table_cell(t, r, c));
			first = false;
		}
		if (fclose(m)) {
			free(line);
			return -ENOMEM;
		}
		while (len && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(f, "%s\n", line);
		free(line);
		line = NULL;
	}
	return 0;
}

int mt_table_print_fit(FILE *f, const struct mt_table *t, int width, unsigned int keep)
{
	size_t rows = mt_table_rows(t);
	int *w = calloc(t->ncols, sizeof(*w)), lead = 0, ret = 0;
	unsigned int from;

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
	if (keep >= t->ncols)
		keep = t->ncols - 1;
	for (unsigned int c = 0; c < keep; c++)
		lead += (c ? t->gap : 0) + w[c];
	/*
	 * perf's way when the counts do not fit: stacked tables that share
	 * the leading columns, never a wrapped row, never a dropped value.
	 */
	for (from = keep; from < t->ncols || from == keep;) {
		unsigned int to = from;
		int used = lead;

		while (to < t->ncols &&
		       (to == from || width <= 0 || used + t->gap + w[to] <= width))
			used += (used ? t->gap : 0) + w[to++];
		if (from > keep)
			fputc('\n', f);
		ret = print_columns(f, t, w, keep, from, to);
		if (ret || to == from)
			break;
		from = to;
	}
	free(w);
	if (ret)
		return ret;
	return ferror(f) ? -EIO : 0;
}

int mt_table_print_text(FILE *f, const struct mt_table *t)
{
	return mt_table_print_fit(f, t, 0, 1);
}

void mt_text_wrapf(FILE *f, int width, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/*
	 * The last guard of the terminal: a string from a report that a
	 * caller forgot to pass through mt_cell_safe still sends no control
	 * byte (C0 but the line end, DEL, C1 as UTF-8 or raw) to it.
	 */
	for (unsigned char *p = (unsigned char *)s; *p; p++) {
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			p[0] = p[1] = '?';
		else if (*p >= 0x80 && *p <= 0x9f && (p == (unsigned char *)s || p[-1] < 0xc0))
			*p = '?';
	}
	mt_text_wrap(f, s, width, 2);
	free(s);
}

void mt_report_print_system(FILE *f, const struct mt_report *rep, int width)
{
	char kern[MT_SAFE_MAX], cpu[MT_SAFE_MAX], be[MT_SAFE_MAX];

	mt_text_wrapf(f, width, "kernel %s on %s, counters: %s%s",
		      mt_cell_safe(kern, sizeof(kern), rep->system.kernel),
		      mt_cell_safe(cpu, sizeof(cpu), rep->system.cpu[0] ? rep->system.cpu :
				   rep->system.machine),
		      mt_cell_safe(be, sizeof(be), rep->backend),
		      rep->user_only ? " (user space only)" : "");
	mt_report_print_emulation(f, &rep->system.emulation);
}

void mt_report_print_emulation(FILE *f, const struct mt_emulation *em)
{
	char why[MT_SAFE_MAX];

	mt_cell_safe(why, sizeof(why), em->evidence);
	/* An emulated PMU counts what qemu's translator models, not a TLB. */
	if (em->emulated == 1) {
		fprintf(f, "emulated CPU: %s\n", why);
		fprintf(f, "these counts and times are qemu's, not hardware's: "
			"no TLB conclusion\n");
	} else if (em->emulated < 0 && why[0]) {
		fprintf(f, "CPU perhaps emulated: %s\n", why);
		fprintf(f, "under TCG these counts and times are qemu's: no TLB conclusion\n");
	}
}

/* Whether u starts with a unit, a whole word ("MiB", "MiB,", not "Bytes"). */
static bool unit_at(const char *u)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "ns", "us", "ms" };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strncmp(u, units[i], strlen(units[i])) &&
		    !isalnum((unsigned char)u[strlen(units[i])]))
			return true;
	return false;
}

/*
 * The word at s, n bytes, with what must stay on its line: the unit after
 * a number ("30.0 MiB", "2.5 ms"), both sides of an " = " ("region =
 * 42.7") and of a product ("128 x 4.0 KiB").
 */
static int word_len(const char *s, int n)
{
	while (n && s[n] == ' ') {
		const char *u = s + n + 1;

		if ((u[0] == '=' || (u[0] == 'x' && isdigit((unsigned char)s[n - 1]))) &&
		    u[1] == ' ' && u[2] && u[2] != ' ')
			n += 3 + (int)strcspn(u + 2, " ");	/* "a = b", "128 x 4.0" */
		else if (isdigit((unsigned char)s[n - 1]) && unit_at(u))
			n += 1 + (int)strcspn(u, " ");	/* "7.5 MiB..30.0", then " MiB" */
		else
			break;
	}
	return n;
}

int mt_text_wrap(FILE *f, const char *s, int width, int indent)
{
	int col = 0, lead = (int)strspn(s, " ");

	if (width <= 0 || (int)strlen(s) <= width) {
		fprintf(f, "%s\n", s);
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, "%*s", lead, "");
	col = lead;
	s += lead;
	while (*s) {
		int n = word_len(s, (int)strcspn(s, " "));

		/* a word longer than the line is not cut: it keeps a name whole */
		if (col > lead && col + 1 + n > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > lead) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", n, s);
		col += n;
		s += n;
		s += strspn(s, " ");
	}
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

int mt_table_print_notes_fit(FILE *f, const struct mt_table *t, int width)
{
	for (size_t i = 0; i < t->n_notes; i++)
		mt_text_wrap(f, t->notes[i], width, (int)strspn(t->notes[i], " ") + 2);
	return ferror(f) ? -EIO : 0;
}

bool mt_event_hidden(const struct mt_result *r, unsigned int e)
{
	for (unsigned int p = 0; p < r->n_phases; p++)
		if (r->phases[p].counters[e].state == MT_COUNTER_OK)
			return false;
	return r->n_phases > 0;
}

static bool unsupported(const struct mt_result *r, unsigned int e)
{
	return r->n_phases && r->phases[0].counters[e].state == MT_COUNTER_UNSUPPORTED;
}

/* The reason of event e with its errno's name: "no PMU driver in this kernel: ENOENT". */
static void reason_of(char *buf, size_t len, const struct mt_result *r, unsigned int e)
{
	const struct mt_result_event *ev = &r->events[e];
	const char *name = ev->err > 0 ? strerrorname_np(ev->err) : NULL;

	snprintf(buf, len, "%s%s%s", ev->reason[0] ? ev->reason : "not supported",
		 name ? ": " : "", name ? name : "");
}

/*
 * Events the machine cannot count, named once: one line per reason,
 * "not supported here: a, b (reason)", rather than a column each of
 * "not supported"; with verbose (--wide) a line per event, as before.
 * Events whose group never ran in any phase likewise, "not counted".
 */
static void note_unsupported(struct mt_table *t, const struct mt_result *r, bool verbose)
{
	char why[160], other[160], list[512];
	uint64_t done = 0;
	size_t n = 0;

	if (!r->n_phases)
		return;
	for (unsigned int e = 0; e < r->n_events; e++) {
		char *line = NULL;
		size_t len = 0;
		FILE *m;

		if (!unsupported(r, e) || (e < 64 && (done & (1ull << e))))
			continue;
		reason_of(why, sizeof(why), r, e);
		if (verbose) {
			mt_table_note(t, "%s: not supported: %s", r->events[e].name,
				      r->events[e].reason[0] ? r->events[e].reason : why);
			continue;
		}
		m = open_memstream(&line, &len);
		if (!m) {
			t->err = -ENOMEM;
			return;
		}
		fprintf(m, "not supported here: %s", r->events[e].name);
		for (unsigned int o = e + 1; o < r->n_events; o++) {
			if (!unsupported(r, o) || (o < 64 && (done & (1ull << o))))
				continue;
			reason_of(other, sizeof(other), r, o);
			if (strcmp(why, other))
				continue;
			fprintf(m, ", %s", r->events[o].name);
			if (o < 64)
				done |= 1ull << o;
		}
		fprintf(m, " (%s)", why);
		if (fclose(m)) {
			free(line);
			t->err = -ENOMEM;
			return;
		}
		mt_table_note(t, "%s", line);
		free(line);
	}
	if (verbose)
		return;
	for (unsigned int e = 0; e < r->n_events; e++) {
		if (unsupported(r, e) || !mt_event_hidden(r, e) || n >= sizeof(list))
			continue;
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
			      n ? ", " : "", r->events[e].name);
	}
	if (n)
		mt_table_note(t, "not counted (the counter never ran): %.*s", (int)sizeof(list),
			      list);
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

/* The name of r's first event in role, or NULL. */
static const char *role_event(const struct mt_result *r, enum mt_role role)
{
	for (unsigned int e = 0; e < r->n_events; e++)
		if (r->events[e].role == role)
			return r->events[e].name;
	return NULL;
}

/*
 * Each ratio the table shows, by the events it divides: a set's events
 * differ by CPU, so "dTLB miss ratio" is said in this CPU's terms (walks
 * per load on Intel and AMD Zen, not perf's generic names).
 */
static void note_ratios(struct mt_table *t, const struct mt_result *r)
{
	static const struct {
		enum mt_derived d;
		enum mt_role num, den;
		const char *scale;
	} ratios[] = {
		{ MT_DERIVED_DTLB_MISS_RATIO, MT_ROLE_DTLB_MISSES, MT_ROLE_DTLB_LOADS, "" },
		{ MT_DERIVED_DTLB_MISS_RATE, MT_ROLE_DTLB_MISSES, MT_ROLE_INSTRUCTIONS, "" },
		{ MT_DERIVED_DTLB_MPKI, MT_ROLE_DTLB_MISSES, MT_ROLE_INSTRUCTIONS, "1000 x " },
		{ MT_DERIVED_ITLB_MPKI, MT_ROLE_ITLB_MISSES, MT_ROLE_INSTRUCTIONS, "1000 x " },
		{ MT_DERIVED_WALK_CYCLES_SHARE, MT_ROLE_WALK_CYCLES, MT_ROLE_CYCLES, "" },
	};

	for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		const char *num = role_event(r, ratios[i].num), *den = role_event(r, ratios[i].den);
		bool shown = false;

		for (unsigned int p = 0; p < r->n_phases && !shown; p++)
			shown = mt_phase_has(&r->phases[p], ratios[i].d);
		if (shown && num && den)
			mt_table_note(t, "  %s = %s%s / %s", mt_derived_label(ratios[i].d),
				      ratios[i].scale, num, den);
	}
}

/* What each event measures on this CPU, when an event set said so. */
/*
 * What each event measures on this machine, with -v: a perf user knows the
 * generic events and wants the table and its verdict first. The ratios'
 * formulas stay, as a ratio shown is read by them.
 */
static void note_meanings(struct mt_table *t, const struct mt_report *rep,
			  const struct mt_result *r, bool verbose)
{
	bool any = false;

	for (unsigned int e = 0; e < r->n_events; e++)
		any |= r->events[e].meaning[0] != '\0';
	if (!any || !verbose) {
		note_ratios(t, r);
		return;
	}
	mt_table_note(t, "what the events%s%s measure on %s:", rep->event_set[0] ? " of set " : "",
		      rep->event_set, rep->system.pmu[0] ? rep->system.pmu : "this machine");
	for (unsigned int e = 0; e < r->n_events; e++)
		if (r->events[e].meaning[0])
			mt_table_note(t, "  %s: %s", r->events[e].name, r->events[e].meaning);
	note_ratios(t, r);
}

/*
 * An event counted in fewer iterations (runs) than the phase has: its
 * figures are over those alone, and the note says how many, so that a
 * run whose counters never ran is not passed over in silence.
 */
static void note_partial(struct mt_table *t, const struct mt_result *r)
{
	for (unsigned int e = 0; e < r->n_events; e++) {
		char phases[256] = "";
		size_t off = 0, n = 0, of = 0, shown = 0;
		bool run = false, same = true;

		for (unsigned int p = 0; p < r->n_phases; p++) {
			const struct mt_phase_stat *ps = &r->phases[p];
			const struct mt_counter_stat *cs = &ps->counters[e];

			if (cs->state != MT_COUNTER_OK || cs->s.n >= ps->time_ns.n)
				continue;
			same &= !shown || (cs->s.n == n && ps->time_ns.n == of);
			n = cs->s.n;
			of = ps->time_ns.n;
			run = !strcmp(ps->name, "command");
			if (off < sizeof(phases))
				off += (size_t)snprintf(phases + off, sizeof(phases) - off, "%s%s",
							shown ? ", " : "", ps->name);
			shown++;
		}
		if (!shown)
			continue;
		if (run)
			mt_table_note(t, "%s: n=%zu of %zu runs counted (the others' samples "
				      "are null in the JSON)", r->events[e].name, n, of);
		else if (same)
			mt_table_note(t, "%s: n=%zu of %zu iterations counted in %s",
				      r->events[e].name, n, of, phases);
		else
			mt_table_note(t, "%s: not counted in every iteration of %s",
				      r->events[e].name, phases);
	}
}

int mt_table_notes(struct mt_table *t, const struct mt_report *rep, const struct mt_result *r,
		   bool verbose)
{
	note_unsupported(t, r, verbose);
	note_partial(t, r);
	note_groups(t, r);
	note_meanings(t, rep, r, verbose);
	return t->err;
}

int mt_phase_table(struct mt_table **out, const struct mt_report *rep,
		   const struct mt_result *r, bool verbose)
{
	unsigned int any = 0, ncols = 3, c = 0;
	bool nspb, *show = calloc(r->n_events ? r->n_events : 1, sizeof(*show));
	double *times = calloc(r->n_phases ? r->n_phases : 1, sizeof(*times)), scale;
	char cell[MT_CELL_MAX];
	const char *unit;
	struct mt_table *t = NULL;
	int ret = -ENOMEM;

	if (!show || !times)
		goto out;
	for (unsigned int p = 0; p < r->n_phases; p++) {
		any |= r->phases[p].has_derived;
		times[p] = r->phases[p].time_ns.mean;
	}
	nspb = any & (1u << MT_DERIVED_NS_PER_BLOCK);
	ncols += nspb;
	/* what cannot be counted is named once in the notes, not a column of it */
	for (unsigned int e = 0; e < r->n_events; e++) {
		show[e] = verbose || !mt_event_hidden(r, e);
		ncols += show[e];
	}
	for (int d = 0; d < MT_DERIVED_MAX; d++)
		ncols += d != MT_DERIVED_NS_PER_BLOCK && (any & (1u << d));
	ret = mt_table_create(&t, ncols);
	if (ret)
		goto out;
	unit = mt_time_unit(times, r->n_phases, &scale);

	/* The cost per block first, beside the phase: what a reader looks at first. */
	t->width[c++] = 10;
	mt_table_add(t, "%s", MT_HEAD_PHASE);
	if (nspb) {
		t->width[c++] = 9;
		mt_table_add(t, "%s", mt_derived_label(MT_DERIVED_NS_PER_BLOCK));
	}
	t->width[c++] = 10;
	mt_table_add(t, "mean (%s)", unit);
	t->width[c++] = 6;
	mt_table_add(t, "%s", MT_HEAD_CV);
	for (unsigned int e = 0; e < r->n_events; e++) {
		if (!show[e])
			continue;
		t->width[c++] = 8;
		if (mt_event_time_unit(r->events[e].name))
			mt_table_add(t, "%s (%s)", r->events[e].name,
				     mt_event_time_unit(r->events[e].name));
		else
			mt_table_add(t, "%s", r->events[e].name);
	}
	for (int d = MT_DERIVED_NS_PER_BLOCK + 1; d < MT_DERIVED_MAX; d++) {
		if (!(any & (1u << d)))
			continue;
		t->width[c++] = 8;
		mt_table_add(t, "%s", mt_derived_label(d));
	}

	for (unsigned int p = 0; p < r->n_phases; p++) {
		const struct mt_phase_stat *ps = &r->phases[p];

		mt_table_add(t, "%s", ps->name);
		if (nspb) {
			mt_cell_derived(cell, sizeof(cell), ps, MT_DERIVED_NS_PER_BLOCK);
			mt_table_add(t, "%s", cell);
		}
		mt_cell_time(cell, sizeof(cell), ps->time_ns.mean, scale);
		mt_table_add(t, "%s", cell);
		mt_cell_cv(cell, sizeof(cell), &ps->time_ns);
		mt_table_add(t, "%s", cell);
		for (unsigned int e = 0; e < r->n_events; e++) {
			if (!show[e])
				continue;
			mt_cell_counter(cell, sizeof(cell), r->events[e].name, &ps->counters[e]);
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
out:
	free(show);
	free(times);
	*out = t;
	return ret;
}

size_t mt_cell_utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int c = s[0], cp, n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (unsigned int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void mt_cell_html(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/*
			 * XML 1.0 has no control characters but tab and line ends,
			 * and a document is UTF-8: anything else as \xHH.
			 */
			if (((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n') || *s == 0x7f) {
				fprintf(f, "\\x%02x", (unsigned char)*s);
			} else if ((unsigned char)*s >= 0x80) {
				size_t n = mt_cell_utf8_len(s);

				if (!n) {
					fprintf(f, "\\x%02x", (unsigned char)*s);
				} else {
					fwrite(s, 1, n, f);
					s += n - 1;
				}
			} else {
				fputc(*s, f);
			}
		}
	}
}
