// SPDX-License-Identifier: MIT
/*
 * memtlb report's document: the same tables as text, markdown or XHTML, and
 * in XHTML the plots, drawn by gnuplot and inlined as SVG so that the file
 * needs nothing else (no network, no side files).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/flush.h"
#include "model/reach.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/compare.h"
#include "report/flush.h"
#include "report/probe.h"
#include "report/render.h"
#include "report/rungrid.h"
#include "report/sweep.h"
#include "report/table.h"
#include "stats/compare.h"

/* Markdown cells: a pipe would split the cell. */
static void md_esc(FILE *f, const char *raw)
{
	char safe[MT_SAFE_MAX];
	const char *s = mt_cell_safe(safe, sizeof(safe), raw);

	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* Markdown prose: nothing in a note may start a list or emphasis. */
static void md_text(FILE *f, const char *raw)
{
	char safe[MT_SAFE_MAX];
	const char *s = mt_cell_safe(safe, sizeof(safe), raw);

	for (; *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void heading(FILE *f, enum mt_format fmt, int level, const char *title)
{
	char safe[MT_SAFE_MAX];

	switch (fmt) {
	case MT_FORMAT_TEXT:
		fprintf(f, "\n%s %s\n", level == 1 ? "==" : "--",
			mt_cell_safe(safe, sizeof(safe), title));
		break;
	case MT_FORMAT_MARKDOWN:
		fprintf(f, "\n%s ", level == 1 ? "##" : "###");
		md_esc(f, title);
		fputs("\n\n", f);
		break;
	case MT_FORMAT_HTML:
		fprintf(f, "<h%d>", level + 1);
		mt_cell_html(f, title);
		fprintf(f, "</h%d>\n", level + 1);
		break;
	default:
		break;	/* a document is text, markdown or HTML */
	}
}

static void note(FILE *f, enum mt_format fmt, const char *text)
{
	char safe[MT_SAFE_MAX];

	if (fmt == MT_FORMAT_HTML) {
		fputs("<p>", f);
		mt_cell_html(f, text);
		fputs("</p>\n", f);
	} else {
		fprintf(f, "%s%s\n", fmt == MT_FORMAT_MARKDOWN ? "\n" : "",
			mt_cell_safe(safe, sizeof(safe), text));
	}
}

/* Text as aligned columns (cells.c's), markdown pipe tables, XHTML tables. */
static int tbl_print(FILE *f, const struct mt_table *t, enum mt_format fmt)
{
	size_t rows = mt_table_rows(t);

	if (fmt == MT_FORMAT_TEXT)
		return mt_table_print_text(f, t);
	if (fmt == MT_FORMAT_HTML)
		fputs("<table>\n", f);
	for (size_t r = 0; r < rows; r++) {
		const char *td = r ? "td" : "th";

		if (fmt == MT_FORMAT_HTML)
			fputs("<tr>", f);
		for (unsigned int c = 0; c < t->ncols; c++) {
			const char *s = mt_table_cell(t, r, c);

			if (fmt == MT_FORMAT_MARKDOWN) {
				fputs("| ", f);
				md_esc(f, s);
				fputc(' ', f);
			} else {
				fprintf(f, "<%s>", td);
				mt_cell_html(f, s);
				fprintf(f, "</%s>", td);
			}
		}
		fputs(fmt == MT_FORMAT_MARKDOWN ? "|\n" : "</tr>\n", f);
		if (!r && fmt == MT_FORMAT_MARKDOWN) {
			for (unsigned int c = 0; c < t->ncols; c++)
				fputs(c ? "|---:" : "|:---", f);
			fputs("|\n", f);
		}
	}
	if (fmt == MT_FORMAT_HTML)
		fputs("</table>\n", f);
	return ferror(f) ? -EIO : 0;
}

/*
 * A table's notes: in text the lines as memtlb stat prints them, in markdown
 * and XHTML a list, a note starting with two spaces an item of the one before.
 */
static int notes_print(FILE *f, const struct mt_table *t, enum mt_format fmt)
{
	bool sub = false;

	if (!t->n_notes)
		return 0;
	if (fmt == MT_FORMAT_TEXT) {
		fputc('\n', f);
		/* wrapped as memtlb stat wraps them: the same lines in both */
		return mt_table_print_notes_fit(f, t, MT_PROSE_WIDTH(mt_text_width(f)));
	}
	fputs(fmt == MT_FORMAT_HTML ? "<ul>\n" : "\n", f);
	for (size_t i = 0; i < t->n_notes; i++) {
		const char *s = t->notes[i];
		bool item = i && !strncmp(s, "  ", 2);

		if (item)
			s += 2;
		if (fmt == MT_FORMAT_MARKDOWN) {
			fputs(item ? "  - " : "- ", f);
			md_text(f, s);
			fputc('\n', f);
			continue;
		}
		if (!item) {
			if (sub)
				fputs("</ul>", f);
			if (i)
				fputs("</li>\n", f);
			fputs("<li>", f);
			mt_cell_html(f, s);
		} else {
			if (!sub)
				fputs("\n<ul>", f);
			fputs("<li>", f);
			mt_cell_html(f, s);
			fputs("</li>", f);
		}
		sub = item;
	}
	if (fmt == MT_FORMAT_HTML)
		fputs(sub ? "</ul></li>\n</ul>\n" : "</li>\n</ul>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* "L1d 48k, L1i 32k, L2 1m, L3 32m", or "unknown". */
static const char *cache_list(const struct mt_sysinfo *si, char *buf, size_t len)
{
	size_t k = 0;

	snprintf(buf, len, "unknown");
	for (unsigned int i = 0; i < si->n_caches && k < len; i++) {
		char name[16], sz[32];

		mt_sysinfo_cache_name(&si->caches[i], name, sizeof(name));
		mt_size_format_short(si->caches[i].size, sz, sizeof(sz));
		k += (size_t)snprintf(buf + k, len - k, "%s%s %s", k ? ", " : "", name, sz);
	}
	return buf;
}

/*
 * The rows of the system and configuration tables: every row a kind may
 * show, named once here; the table of kinds says which rows each kind has.
 */
enum fact {
	/* the system, of every kind */
	F_KERNEL, F_HOST, F_MACHINE, F_CPU, F_PMU, F_HW_COUNTERS, F_EMULATED, F_CACHES,
	F_PAGE_SIZE, F_THP_ENABLED, F_THP_DEFRAG, F_PARANOID, F_VERSION,
	/* the configuration, each kind its own */
	F_COMMAND, F_COMMAND_LINE, F_RUNS, F_EXIT, F_OP, F_TASKS, F_OPS, F_REGION, F_BLOCK,
	F_ITERATIONS, F_PASSES, F_BACKING, F_PAGES, F_PROBE_PAGES, F_PROBE_MAX, F_REPS,
	F_RATIO, F_MAPPING, F_EVENTS, F_COUNTERS, F_POINTS, F_LEVELS,
	F_MAX,
};

#define FACT(f) (UINT64_C(1) << (f))
#define SYSTEM_FACTS (FACT(F_VERSION) - 1)

static const char *const fact_names[F_MAX] = {
	[F_KERNEL] = "kernel", [F_HOST] = "host", [F_MACHINE] = "machine", [F_CPU] = "CPU",
	[F_PMU] = "PMU (libpfm4)", [F_HW_COUNTERS] = "hardware counters",
	[F_EMULATED] = "CPU emulated", [F_CACHES] = "caches (CPU 0)",
	[F_PAGE_SIZE] = "page size", [F_THP_ENABLED] = "THP enabled",
	[F_THP_DEFRAG] = "THP defrag", [F_PARANOID] = "perf_event_paranoid",
	[F_VERSION] = "memtlb", [F_COMMAND] = "command", [F_COMMAND_LINE] = "command line",
	[F_RUNS] = "runs", [F_EXIT] = "exit status", [F_OP] = "op",
	[F_TASKS] = "tasks of the mm", [F_OPS] = "ops per point", [F_REGION] = "region",
	[F_BLOCK] = "block", [F_ITERATIONS] = "iterations", [F_PASSES] = "passes",
	[F_BACKING] = "backing", [F_PAGES] = "pages", [F_PROBE_PAGES] = "pages against",
	[F_PROBE_MAX] = "largest size", [F_REPS] = "repetitions", [F_RATIO] = "step ratio",
	[F_MAPPING] = "each variant's mapping", [F_EVENTS] = "events",
	[F_COUNTERS] = "counters", [F_POINTS] = "points", [F_LEVELS] = "levels found",
};

/* The sections of a document, in its order; a kind has those its table names. */
enum section {
	S_PLOTS,	/* the plots (XHTML), or where they are */
	S_SWEEP,	/* per-block cost against region, knees, page sizes, TLB levels */
	S_COMPARE,	/* the inputs against the first, as memtlb compare says */
	S_RESULTS,	/* each point's phase table and counts per block */
	S_RUN,		/* memtlb run's table of each input */
	S_FLUSH,	/* memtlb flush's tables of each input */
	S_PROBE,	/* memtlb probe's table and levels of each input */
	S_MAX,
};

#define SEC(s) (1u << (s))
#define PLOT(p) (1u << (p))

/* What each kind's document holds: the one table of them. */
static const struct kind {
	const char *commands[2];	/* the commands whose reports are of this kind */
	uint64_t facts;			/* bit per enum fact */
	unsigned int sections;		/* bit per enum section */
	unsigned int plots;		/* bit per enum mt_render_plot */
	const char *footer;		/* the last line, NULL: none */
} kinds[MT_RENDER_KINDS] = {
	[MT_RENDER_WORKLOAD] = {
		{ "stat", "sweep" },
		SYSTEM_FACTS | FACT(F_VERSION) | FACT(F_COMMAND) | FACT(F_REGION) |
		FACT(F_BLOCK) | FACT(F_ITERATIONS) | FACT(F_PASSES) | FACT(F_BACKING) |
		FACT(F_PAGES) | FACT(F_EVENTS) | FACT(F_COUNTERS) | FACT(F_POINTS),
		SEC(S_PLOTS) | SEC(S_SWEEP) | SEC(S_COMPARE) | SEC(S_RESULTS),
		PLOT(MT_PLOT_PHASES) | PLOT(MT_PLOT_SWEEP_WRITE) | PLOT(MT_PLOT_SWEEP_READ) |
		PLOT(MT_PLOT_MATRIX_TOUCH) | PLOT(MT_PLOT_MATRIX_STEADY),
		"Times are means over iterations; counts are means per iteration of each "
		"phase, (x%) the share of time counted where multiplexed and scaled.",
	},
	[MT_RENDER_RUN] = {
		{ "run" },
		SYSTEM_FACTS | FACT(F_VERSION) | FACT(F_COMMAND_LINE) | FACT(F_RUNS) |
		FACT(F_EXIT) | FACT(F_EVENTS) | FACT(F_COUNTERS),
		SEC(S_PLOTS) | SEC(S_RUN),
		PLOT(MT_PLOT_PHASES) | PLOT(MT_PLOT_GRID),
		NULL,
	},
	[MT_RENDER_FLUSH] = {
		{ "flush" },
		SYSTEM_FACTS | FACT(F_VERSION) | FACT(F_OP) | FACT(F_TASKS) | FACT(F_OPS) |
		FACT(F_ITERATIONS) | FACT(F_EVENTS) | FACT(F_COUNTERS) | FACT(F_POINTS),
		SEC(S_PLOTS) | SEC(S_FLUSH),
		PLOT(MT_PLOT_FLUSH),
		NULL,
	},
	[MT_RENDER_PROBE] = {
		{ "probe" },
		SYSTEM_FACTS | FACT(F_PROBE_PAGES) | FACT(F_PROBE_MAX) | FACT(F_REPS) |
		FACT(F_RATIO) | FACT(F_MAPPING) | FACT(F_POINTS) | FACT(F_LEVELS),
		SEC(S_PLOTS) | SEC(S_PROBE),
		PLOT(MT_PLOT_PROBE),
		NULL,
	},
};

int mt_render_kind(const char *command)
{
	for (int k = 0; k < MT_RENDER_KINDS; k++)
		for (int c = 0; c < 2; c++)
			if (kinds[k].commands[c] && !strcmp(command, kinds[k].commands[c]))
				return k;
	return -EINVAL;
}

/*
 * The kind of a loaded input: its command's, a report of another command
 * (none is written, a crafted file may say anything) read as a workload's,
 * and a flush's only with the flush's own data.
 */
static enum mt_render_kind kind_of(const struct mt_render_input *in)
{
	int k;

	if (!in->rep)
		return MT_RENDER_PROBE;
	k = mt_render_kind(in->rep->command);
	if (k < 0 || k == MT_RENDER_PROBE || (k == MT_RENDER_FLUSH && !in->rep->flush))
		return MT_RENDER_WORKLOAD;
	return (enum mt_render_kind)k;
}

int mt_render_doc_init(struct mt_render_doc *d, const struct mt_render_input *in, unsigned int n)
{
	if (!n)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if ((!in[i].rep && (!in[i].probe || !in[i].si)) || kind_of(&in[i]) != kind_of(in))
			return -EINVAL;
	d->in = in;
	d->n = n;
	d->kind = kind_of(in);
	d->plots = kinds[d->kind].plots;
	return 0;
}

const struct mt_sysinfo *mt_render_system(const struct mt_render_input *in)
{
	return in->si ? in->si : &in->rep->system;
}

/* A document being written. */
struct doc {
	FILE *f;
	enum mt_format fmt;
	struct mt_render_doc rd;
	const struct mt_report **reps;	/* the inputs' reports, for the workload's tables */
	const char **files;
	bool missing;			/* gnuplot is not installed */
};

/* "2 of 2", "1 of 5 (stopped at the failing one)". */
static const char *runs_cell(const struct mt_report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%u of %u%s", r->runs, r->repeats,
		 r->exit_status && r->runs < r->repeats ? " (stopped at the failing one)" : "");
	return buf;
}

/* Row f's cell of input in, into buf; returns what to show. */
static const char *fact_cell(enum fact f, const struct mt_render_input *in, char *buf,
			     size_t len)
{
	const struct mt_sysinfo *si = mt_render_system(in);
	const struct mt_report *r = in->rep;
	const struct mt_probe_result *p = in->probe;
	const struct mt_config *c = r ? &r->config : NULL;

	buf[0] = '\0';
	switch (f) {
	case F_KERNEL:
		return si->kernel;
	case F_HOST:
		return si->host[0] ? si->host : "(unknown)";
	case F_MACHINE:
		return si->machine;
	case F_CPU:
		return si->cpu;
	case F_PMU:
		return si->pmu[0] ? si->pmu : "none";
	case F_HW_COUNTERS:
		return si->hw_counters < 0 ? "unknown" : si->hw_counters ? "yes" : "no";
	case F_EMULATED:
		/* qemu TCG (sys/emulation): no TLB conclusion from its counts */
		return si->emulation.emulated > 0 ? "yes: no TLB conclusion" :
			!si->emulation.emulated ? "no" : mt_emulation_maybe(&si->emulation) ?
			"perhaps (qemu's board): under TCG no TLB conclusion" : "unknown";
	case F_CACHES:
		return cache_list(si, buf, len);
	case F_PAGE_SIZE:
		snprintf(buf, len, "%ld", si->page_size);
		return buf;
	case F_THP_ENABLED:
		return si->thp_enabled;
	case F_THP_DEFRAG:
		return si->thp_defrag;
	case F_PARANOID:
		snprintf(buf, len, "%d", si->perf_event_paranoid);
		return buf;
	case F_VERSION:
		return r ? r->version : "";
	case F_COMMAND:
		return r ? r->command : "probe";
	case F_COMMAND_LINE:
		return r ? r->command_line : "";
	case F_RUNS:
		return r ? runs_cell(r, buf, len) : "";
	case F_EXIT:
		if (r)
			snprintf(buf, len, "%d%s", r->exit_status,
				 r->exit_status ? " (failed)" : "");
		return buf;
	case F_OP:
		return r && r->flush && mt_flush_op_name(r->flush->op)
			? mt_flush_op_name(r->flush->op) : "";
	case F_TASKS:
		if (r && r->flush)
			snprintf(buf, len, "%lu", r->flush->tasks);
		return buf;
	case F_OPS:
		if (r && r->flush)
			snprintf(buf, len, "%lu", r->flush->ops);
		return buf;
	case F_REGION:
		if (c)
			mt_size_format(c->region, buf, len);
		return buf;
	case F_BLOCK:
		if (c)
			mt_size_format(c->block, buf, len);
		return buf;
	case F_ITERATIONS:
		if (c)
			snprintf(buf, len, "%lu", c->iterations);
		return buf;
	case F_PASSES:
		if (c)
			snprintf(buf, len, "%lu", c->passes);
		return buf;
	case F_BACKING:
		return c ? mt_backing_name(c->backing) : "";
	case F_PAGES:
		return c ? mt_pages_name(c->pages) : "";
	case F_PROBE_PAGES:
		if (p)
			snprintf(buf, len, "%s%s", mt_probe_pages_name(p->kind) ?: "?",
				 p->vs_packed ? " (the packed control from the step)" : "");
		return buf;
	case F_PROBE_MAX:
		if (p)
			mt_size_format(p->max, buf, len);
		return buf;
	case F_REPS:
		if (p)
			snprintf(buf, len, "%u", p->reps);
		return buf;
	case F_RATIO:
		if (p)
			snprintf(buf, len, "%g", p->ratio);
		return buf;
	case F_MAPPING:
		if (p)
			mt_size_format(p->map_bytes, buf, len);
		return buf;
	case F_EVENTS:
		return r && r->events[0] ? r->events : "(none)";
	case F_COUNTERS:
		if (r)
			snprintf(buf, len, "%s%s", r->backend,
				 r->user_only ? " (user space only)" : "");
		return buf;
	case F_POINTS:
		snprintf(buf, len, "%zu", r ? r->n_results : p->n_points);
		return buf;
	case F_LEVELS:
		snprintf(buf, len, "%zu", p ? p->n_levels : 0);
		return buf;
	default:
		return buf;
	}
}

/*
 * A long value (an event list, a command line) on lines of TEXT_CELL_MAX
 * columns in text, so that the table fits 80 columns beside its names:
 * the part of s for line k, broken after a comma or at a space. Returns
 * false past the last line.
 */
#define TEXT_CELL_MAX 52

static bool cell_line(const char *s, unsigned int k, char *buf, size_t len)
{
	size_t n = strlen(s);

	for (unsigned int i = 0;; i++) {
		size_t take = n;

		if (n > TEXT_CELL_MAX) {
			take = TEXT_CELL_MAX;
			while (take > 1 && s[take - 1] != ',' && s[take] != ' ')
				take--;
			if (take <= 1)
				take = TEXT_CELL_MAX;
		}
		if (i == k) {
			snprintf(buf, len, "%.*s", (int)take, s);
			return n > 0 || !k;
		}
		s += take;
		n -= take;
		while (*s == ' ') {
			s++;
			n--;
		}
		if (!n)
			return false;
	}
}

/* The rows of facts the kind has, system or configuration, a column per input. */
static int facts(struct doc *d, bool system)
{
	uint64_t rows = kinds[d->rd.kind].facts & (system ? SYSTEM_FACTS | FACT(F_VERSION)
							    : ~(SYSTEM_FACTS | FACT(F_VERSION)));
	struct mt_table *t;
	char buf[160], part[160];
	int ret = mt_table_create(&t, d->rd.n + 1);

	if (ret)
		return ret;
	t->gap = 2;
	mt_table_add(t, "%s", system ? "system" : "configuration");
	for (unsigned int i = 0; i < d->rd.n; i++)
		mt_table_add(t, "%s", d->rd.in[i].file);
	for (int f = 0; f < F_MAX; f++) {
		bool more = true;

		if (!(rows & FACT(f)))
			continue;
		/* in text a long value goes on, a line after another, under its name */
		for (unsigned int k = 0; more; k++) {
			more = false;
			for (unsigned int i = 0; i < d->rd.n; i++) {
				const char *v = fact_cell((enum fact)f, &d->rd.in[i], buf,
							  sizeof(buf));

				if (d->fmt == MT_FORMAT_TEXT)
					more |= cell_line(v, k, part, sizeof(part));
				else
					more |= !k;
			}
			if (!more)
				break;
			mt_table_add(t, "%s", k ? "" : fact_names[f]);
			for (unsigned int i = 0; i < d->rd.n; i++) {
				const char *v = fact_cell((enum fact)f, &d->rd.in[i], buf,
							  sizeof(buf));

				if (d->fmt != MT_FORMAT_TEXT)
					mt_table_add(t, "%s", v);
				else if (cell_line(v, k, part, sizeof(part)))
					mt_table_add(t, "%s", part);
				else
					mt_table_add(t, "%s", "");
			}
			if (d->fmt != MT_FORMAT_TEXT)
				break;
		}
	}
	ret = t->err ? t->err : tbl_print(d->f, t, d->fmt);
	mt_table_destroy(t);
	return ret;
}

/*
 * The phase table, memtlb stat's (cells.c): time, cv, counts per iteration,
 * derived metrics with their marks; under it the notes, reasons included.
 */
static int phase_table(FILE *f, enum mt_format fmt, const struct mt_report *rep,
		       const struct mt_result *r)
{
	struct mt_table *t;
	int ret = mt_phase_table(&t, rep, r, true);

	if (ret)
		return ret;
	ret = tbl_print(f, t, fmt);
	if (!ret)
		ret = notes_print(f, t, fmt);
	mt_table_destroy(t);
	return ret;
}

static int per_block_table(FILE *f, enum mt_format fmt, const struct mt_result *r)
{
	char buf[MT_CELL_MAX];
	struct mt_table *t;
	int ret;

	if (!r->n_events || !r->blocks)
		return 0;
	ret = mt_table_create(&t, 1 + r->n_events);
	if (ret)
		return ret;
	t->gap = 2;
	mt_table_add(t, "%s", MT_HEAD_PHASE);
	for (unsigned int e = 0; e < r->n_events; e++)
		mt_table_add(t, "%s", r->events[e].name);
	for (unsigned int p = 0; p < r->n_phases; p++) {
		mt_table_add(t, "%s", r->phases[p].name);
		for (unsigned int e = 0; e < r->n_events; e++) {
			mt_cell_counter_per(buf, sizeof(buf), &r->phases[p].counters[e],
					    (double)r->blocks);
			mt_table_add(t, "%s", buf);
		}
	}
	ret = t->err ? t->err : tbl_print(f, t, fmt);
	mt_table_destroy(t);
	return ret;
}

/* A document table whose head is the NULL-ended list head. */
static int head_table(struct mt_table **t, const char *const *head)
{
	size_t n = 0;
	int ret;

	while (head[n])
		n++;
	ret = mt_table_create(t, n);
	if (ret)
		return ret;
	(*t)->gap = 2;
	for (size_t i = 0; i < n; i++)
		mt_table_add(*t, "%s", head[i]);
	return 0;
}

/* For sweeps: the per-block costs of every point of every input. */
static int sweep_table(FILE *f, enum mt_format fmt, const struct mt_report *const *reps,
		       const char *const *files, unsigned int n)
{
	static const char *const head[] = { "input", "point", "write_0 ns/block",
					    "read ns/block", "write_0 faults/block", NULL };
	struct mt_table *t;
	int ret = head_table(&t, head);

	if (ret)
		return ret;
	for (unsigned int i = 0; i < n; i++) {
		for (size_t k = 0; k < reps[i]->n_results; k++) {
			const struct mt_result *r = reps[i]->results[k];
			const struct mt_phase_stat *w = mt_result_phase(r, mt_render_first_write());
			const struct mt_phase_stat *rd = mt_result_phase(r, mt_render_read_phase(reps[i]));
			char a[32] = "-", b[32] = "-", c[32] = "-";

			if (w && mt_phase_has(w, MT_DERIVED_NS_PER_BLOCK))
				mt_report_number(a, sizeof(a), w->derived[MT_DERIVED_NS_PER_BLOCK]);
			if (rd && mt_phase_has(rd, MT_DERIVED_NS_PER_BLOCK))
				mt_report_number(b, sizeof(b), rd->derived[MT_DERIVED_NS_PER_BLOCK]);
			if (w && mt_phase_has(w, MT_DERIVED_FAULTS_PER_BLOCK))
				mt_report_number(c, sizeof(c), w->derived[MT_DERIVED_FAULTS_PER_BLOCK]);
			mt_table_add(t, "%s", files[i]);
			mt_table_add(t, "%s", r->params);
			mt_table_add(t, "%s", a);
			mt_table_add(t, "%s", b);
			mt_table_add(t, "%s", c);
		}
	}
	ret = t->err ? t->err : tbl_print(f, t, fmt);
	mt_table_destroy(t);
	return ret;
}

/* Preformatted lines (knees, the comparison's text) in the document's form. */
static void pre(FILE *f, enum mt_format fmt, const char *text)
{
	if (fmt == MT_FORMAT_HTML) {
		fputs("<pre>", f);
		mt_cell_html(f, text);
		fputs("</pre>\n", f);
	} else if (fmt == MT_FORMAT_MARKDOWN) {
		/* An indented block: nothing in it is markup, no fence can end it. */
		for (const char *l = text; *l;) {
			const char *e = strchr(l, '\n');
			size_t len = e ? (size_t)(e - l) : strlen(l);

			fprintf(f, "    %.*s\n", (int)len, l);
			l += len + (e ? 1 : 0);
		}
	} else {
		fputs(text, f);
	}
}

/*
 * The knees of each input's sweep, with memtlb sweep's explanation lines
 * and fits, for the read pass the tables show.
 */
static int knees_section(FILE *f, enum mt_format fmt, const struct mt_report *const *reps,
			 const char *const *files, unsigned int n)
{
	int ret = 0;

	heading(f, fmt, 1, "Knees");
	for (unsigned int i = 0; !ret && i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m;

		if (reps[i]->n_results < 2)
			continue;
		m = open_memstream(&buf, &len);
		if (!m)
			return -ENOMEM;
		ret = mt_report_print_knees(m, reps[i], mt_render_read_phase(reps[i]), NULL, 80);
		if (fclose(m) && !ret)
			ret = -ENOMEM;
		if (!ret) {
			heading(f, fmt, 2, files[i]);
			pre(f, fmt, buf);
		}
		free(buf);
	}
	if (!ret) {
		note(f, fmt, "A knee: the cost per block steps up over the trend before it; its");
		note(f, fmt, "line names the TLB level whose reach lies between the two, as cpuid");
		note(f, fmt, "reports it or as memtlb probe measured it (--tlb, a range).");
	}
	return ret;
}

/* Each input's page-size matrix (sweep --vary pages), as memtlb sweep prints it. */
static int matrix_section(FILE *f, enum mt_format fmt, const struct mt_report *const *reps,
			  const char *const *files, unsigned int n)
{
	bool headed = false;
	int ret = 0;

	for (unsigned int i = 0; !ret && i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			return -ENOMEM;
		ret = mt_report_print_matrix(m, reps[i], mt_render_read_phase(reps[i]), 80);
		if (fclose(m) && !ret)
			ret = -ENOMEM;
		if (!ret && len) {
			if (!headed)
				heading(f, fmt, 1, "Page sizes");
			headed = true;
			heading(f, fmt, 2, files[i]);
			/* the matrix starts with a blank line, as under sweep's tables */
			pre(f, fmt, buf[0] == '\n' ? buf + 1 : buf);
		}
		free(buf);
	}
	return ret;
}

/*
 * The TLB levels the knees are explained by, each input's: cpuid's and the
 * probe's (--tlb), whose entries are the range the measured step lies in.
 */
static int levels_section(FILE *f, enum mt_format fmt,
			  const struct mt_report *const *reps, const char *const *files,
			  unsigned int n)
{
	static const char *const head[] = { "input", "level", "pages", "entries", "reach",
					    "source", NULL };
	struct mt_reach lv[2 * MT_REACH_MAX];
	struct mt_table *t;
	int ret = head_table(&t, head);

	if (ret)
		return ret;
	for (unsigned int i = 0; i < n; i++) {
		size_t nl = mt_reach_levels(reps[i], lv, 2 * MT_REACH_MAX);

		for (size_t l = 0; l < nl; l++) {
			char pg[32], a[32], b[32];

			mt_size_format_short(lv[l].page_size, pg, sizeof(pg));
			mt_size_format_short(mt_reach_min(&lv[l]), a, sizeof(a));
			mt_size_format_short(mt_reach_max(&lv[l]), b, sizeof(b));
			mt_table_add(t, "%s", files[i]);
			mt_table_add(t, "%s", lv[l].name);
			mt_table_add(t, "%s", pg);
			if (lv[l].entries_min == lv[l].entries_max) {
				mt_table_add(t, "%llu", (unsigned long long)lv[l].entries_max);
				mt_table_add(t, "%s", b);
			} else {
				mt_table_add(t, "%llu..%llu", (unsigned long long)lv[l].entries_min,
					     (unsigned long long)lv[l].entries_max);
				mt_table_add(t, "%s..%s", a, b);
			}
			mt_table_add(t, "%s", lv[l].source);
		}
	}
	if (mt_table_rows(t) > 1) {
		heading(f, fmt, 1, "TLB levels");
		ret = t->err ? t->err : tbl_print(f, t, fmt);
	}
	mt_table_destroy(t);
	return ret;
}

/* The inputs against the first, as memtlb compare prints them. */
static int compare_section(FILE *f, enum mt_format fmt, const struct mt_report *const *reps,
			   const char *const *files, unsigned int n)
{
	struct mt_comparison *cmp;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int ret;

	heading(f, fmt, 1, "Comparison");
	if (n > MT_COMPARE_MAX_INPUTS)
		n = MT_COMPARE_MAX_INPUTS;
	ret = mt_compare_create(&cmp, reps, files, n);
	if (ret)
		return ret;
	if (fmt == MT_FORMAT_HTML) {
		mt_compare_print_html_body(f, cmp, false);
		mt_compare_destroy(cmp);
		return 0;
	}
	m = open_memstream(&buf, &len);
	if (!m) {
		mt_compare_destroy(cmp);
		return -ENOMEM;
	}
	ret = mt_compare_print(m, cmp, fmt == MT_FORMAT_MARKDOWN ? MT_FORMAT_MARKDOWN
								 : MT_FORMAT_TEXT);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (!ret)
		fputs(buf, f);
	free(buf);
	mt_compare_destroy(cmp);
	return ret;
}

/* The plots (XHTML), or where they are. */
static int sec_plots(struct doc *d)
{
	int ret = 0;

	heading(d->f, d->fmt, 1, "Plots");
	if (d->fmt != MT_FORMAT_HTML)
		note(d->f, d->fmt, "Plots are in the HTML report (--format html).");
	else
		ret = mt_render_plots_html(d->f, &d->rd, &d->missing);
	if (d->missing)
		note(d->f, d->fmt, "gnuplot is not installed: plots left out, tables below "
				   "(apt-get install gnuplot-nox).");
	return ret;
}

/* Sweeps: the per-block costs, the knees, the page sizes, the TLB levels. */
static int sec_sweep(struct doc *d)
{
	bool sweep = false;
	int ret;

	for (unsigned int i = 0; i < d->rd.n; i++)
		sweep |= d->reps[i]->n_results > 1;
	if (!sweep)
		return 0;
	heading(d->f, d->fmt, 1, "Per-block cost against region size");
	ret = sweep_table(d->f, d->fmt, d->reps, d->files, d->rd.n);
	ret = ret ? ret : knees_section(d->f, d->fmt, d->reps, d->files, d->rd.n);
	ret = ret ? ret : matrix_section(d->f, d->fmt, d->reps, d->files, d->rd.n);
	return ret ? ret : levels_section(d->f, d->fmt, d->reps, d->files, d->rd.n);
}

static int sec_compare(struct doc *d)
{
	return d->rd.n > 1 ? compare_section(d->f, d->fmt, d->reps, d->files, d->rd.n) : 0;
}

/* Each point of each input: its parameters, its phase table, counts per block. */
static int sec_results(struct doc *d)
{
	int ret = 0;

	for (unsigned int i = 0; !ret && i < d->rd.n; i++) {
		for (size_t k = 0; !ret && k < d->reps[i]->n_results; k++) {
			const struct mt_result *r = d->reps[i]->results[k];
			char h[600];

			snprintf(h, sizeof(h), "%s: %s", d->files[i], r->params);
			heading(d->f, d->fmt, 1, h);
			ret = phase_table(d->f, d->fmt, d->reps[i], r);
			if (!ret && r->n_events) {
				heading(d->f, d->fmt, 2, "Counts per block");
				ret = per_block_table(d->f, d->fmt, r);
			}
		}
	}
	return ret;
}

/*
 * memtlb run's table of each input under its command: a run has no
 * region or block (its point's parameters are zeros), the command is
 * what it measured.
 */
/* A printer's text (memtlb flush's, memtlb probe's) as preformatted lines. */
static int pre_of(struct doc *d, const char *title, int (*print)(FILE *, const void *),
		  const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = print(m, arg);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (!ret) {
		heading(d->f, d->fmt, 1, title);
		pre(d->f, d->fmt, buf);
	}
	free(buf);
	return ret;
}

static int print_grid(FILE *f, const void *rep)
{
	return mt_rungrid_print_table(f, rep, false);
}

static int sec_run(struct doc *d)
{
	int ret = 0;

	for (unsigned int i = 0; !ret && i < d->rd.n; i++) {
		struct mt_table *t;
		char h[sizeof(d->reps[i]->command_line) + 600];

		snprintf(h, sizeof(h), "%s: %s", d->files[i], d->reps[i]->command_line);
		/*
		 * A study (run --vary): its grid as memtlb run printed it, a
		 * column per value, so that several reports, one a workload,
		 * read as the seeds' studies do: a block each.
		 */
		if (d->reps[i]->grid) {
			ret = pre_of(d, h, print_grid, d->reps[i]);
			continue;
		}
		heading(d->f, d->fmt, 1, h);
		if (d->reps[i]->exit_status)
			note(d->f, d->fmt, "FAILED: the command's exit status is not 0; the "
					   "runs stopped after it.");
		ret = mt_run_table(&t, d->reps[i], false);
		if (ret == -ENODATA) {
			note(d->f, d->fmt, "No run completed: nothing was measured.");
			ret = 0;
			continue;
		}
		if (ret)
			break;
		t->gap = 2;
		ret = tbl_print(d->f, t, d->fmt);
		if (!ret)
			ret = notes_print(d->f, t, d->fmt);
		mt_table_destroy(t);
	}
	return ret;
}

static int print_flush(FILE *f, const void *rep)
{
	return mt_flush_print_table(f, rep, false);
}

/* memtlb flush's tables of each input, as it prints them (80 columns). */
static int sec_flush(struct doc *d)
{
	int ret = 0;

	for (unsigned int i = 0; !ret && i < d->rd.n; i++) {
		char h[600];

		snprintf(h, sizeof(h), "%s: memtlb flush", d->files[i]);
		ret = pre_of(d, h, print_flush, d->reps[i]);
	}
	return ret;
}

static int print_probe(FILE *f, const void *arg)
{
	const struct mt_render_input *in = arg;

	return mt_report_print_probe(f, in->probe, in->si);
}

/* memtlb probe's table, levels and cpuid's word on them, of each input. */
static int sec_probe(struct doc *d)
{
	int ret = 0;

	for (unsigned int i = 0; !ret && i < d->rd.n; i++) {
		char h[600];

		snprintf(h, sizeof(h), "%s: memtlb probe", d->files[i]);
		ret = pre_of(d, h, print_probe, &d->rd.in[i]);
	}
	return ret;
}

static int (*const sections[S_MAX])(struct doc *d) = {
	[S_PLOTS] = sec_plots, [S_SWEEP] = sec_sweep, [S_COMPARE] = sec_compare,
	[S_RESULTS] = sec_results, [S_RUN] = sec_run, [S_FLUSH] = sec_flush,
	[S_PROBE] = sec_probe,
};

static const char html_head[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
	"<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	"<meta charset=\"UTF-8\"/>\n<title>memtlb report</title>\n<style>\n"
	"body { font-family: sans-serif; margin: 2em; }\n"
	"table { border-collapse: collapse; margin: 0.5em 0 1.5em; }\n"
	"th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: right; }\n"
	"th:first-child, td:first-child { text-align: left; }\n"
	"td.metric { text-align: left; }\n.changed { font-weight: bold; }\n"
	"figure { margin: 1em 0; }\n</style>\n</head>\n<body>\n";

static void title(struct doc *d)
{
	char title[1024], safe[MT_SAFE_MAX];
	size_t len = 0;

	title[0] = '\0';
	for (unsigned int i = 0; i < d->rd.n && len < sizeof(title); i++)
		len += (size_t)snprintf(title + len, sizeof(title) - len, "%s%s", i ? ", " : "",
					d->files[i]);
	if (d->fmt == MT_FORMAT_HTML) {
		fputs(html_head, d->f);
		fputs("<h1>memtlb report: ", d->f);
		mt_cell_html(d->f, title);
		fputs("</h1>\n", d->f);
	} else {
		fprintf(d->f, "%smemtlb report: %s\n", d->fmt == MT_FORMAT_MARKDOWN ? "# " : "",
			mt_cell_safe(safe, sizeof(safe), title));
	}
}

int mt_render(FILE *f, const struct mt_render_input *in, unsigned int n, enum mt_format fmt)
{
	struct doc d = { .f = f, .fmt = fmt };
	const struct kind *k;
	int ret;

	if (!(MT_FORMAT_BIT(fmt) & MT_FORMATS_DOCUMENT))
		return -EINVAL;
	ret = mt_render_doc_init(&d.rd, in, n);
	if (ret)
		return ret;
	d.reps = calloc(n, sizeof(*d.reps));
	d.files = calloc(n, sizeof(*d.files));
	if (!d.reps || !d.files) {
		free(d.reps);
		free(d.files);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < n; i++) {
		d.reps[i] = in[i].rep;
		d.files[i] = in[i].file;
	}
	k = &kinds[d.rd.kind];
	title(&d);
	heading(f, fmt, 1, "System");
	ret = facts(&d, true);
	heading(f, fmt, 1, "Configuration");
	ret = ret ? ret : facts(&d, false);
	for (int s = 0; s < S_MAX && !ret; s++)
		if (k->sections & SEC(s))
			ret = sections[s](&d);
	if (k->footer)
		note(f, fmt, k->footer);
	if (fmt == MT_FORMAT_HTML)
		fputs("</body>\n</html>\n", f);
	free(d.reps);
	free(d.files);
	return ret;
}
