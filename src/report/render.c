// SPDX-License-Identifier: MIT
/*
 * memtlb report's document: the same tables as text, markdown or XHTML, and
 * in XHTML the plots, drawn by gnuplot and inlined as SVG so that the file
 * needs nothing else (no network, no side files).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/matrix.h"
#include "model/reach.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/compare.h"
#include "report/json.h"
#include "report/plot.h"
#include "report/render.h"
#include "report/sweep.h"
#include "stats/compare.h"

#define MAX_KNEES 32
#define MAX_ROWS 64	/* a matrix's rows: every page size, at every region */
#define MAX_MATS 16

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

/* Rows of facts, a column per input. */
static int facts(FILE *f, enum mt_format fmt, const struct mt_report *const *reps,
		 const char *const *files, unsigned int n, bool system)
{
	struct mt_table *t;
	char cl[160];
	int ret = mt_table_create(&t, n + 1);

	if (ret)
		return ret;
	t->gap = 2;
	mt_table_add(t, "%s", system ? "system" : "configuration");
	for (unsigned int i = 0; i < n; i++)
		mt_table_add(t, "%s", files[i]);
#define ROW(name, ...)							\
	do {								\
		mt_table_add(t, "%s", name);				\
		for (unsigned int i = 0; i < n; i++) {			\
			const struct mt_report *r = reps[i];		\
			const struct mt_sysinfo *si = &r->system;	\
			const struct mt_config *c = &r->config;		\
			char sz[32];					\
			(void)si; (void)c; (void)sz;			\
			mt_table_add(t, __VA_ARGS__);			\
		}							\
	} while (0)
	if (system) {
		ROW("kernel", "%s", si->kernel);
		ROW("host", "%s", si->host[0] ? si->host : "(unknown)");
		ROW("machine", "%s", si->machine);
		ROW("CPU", "%s", si->cpu);
		ROW("PMU (libpfm4)", "%s", si->pmu[0] ? si->pmu : "none");
		ROW("hardware counters", "%s", si->hw_counters < 0 ? "unknown"
					       : si->hw_counters ? "yes" : "no");
		/* qemu TCG (sys/emulation): no TLB conclusion from its counts */
		ROW("CPU emulated", "%s", si->emulation.emulated > 0 ? "yes: no TLB conclusion" :
			!si->emulation.emulated ? "no" : mt_emulation_maybe(&si->emulation) ?
			"perhaps (qemu's board): under TCG no TLB conclusion" : "unknown");
		ROW("caches (CPU 0)", "%s", cache_list(si, cl, sizeof(cl)));
		ROW("page size", "%ld", si->page_size);
		ROW("THP enabled", "%s", si->thp_enabled);
		ROW("THP defrag", "%s", si->thp_defrag);
		ROW("perf_event_paranoid", "%d", si->perf_event_paranoid);
		ROW("memtlb", "%s", r->version);
	} else {
		ROW("command", "%s", r->command);
		ROW("region", "%s", (mt_size_format(c->region, sz, sizeof(sz)), sz));
		ROW("block", "%s", (mt_size_format(c->block, sz, sizeof(sz)), sz));
		ROW("iterations", "%lu", c->iterations);
		ROW("passes", "%lu", c->passes);
		ROW("backing", "%s", mt_backing_name(c->backing));
		ROW("events", "%s", r->events[0] ? r->events : "(none)");
		ROW("counters", "%s%s", r->backend, r->user_only ? " (user space only)" : "");
		ROW("points", "%zu", r->n_results);
	}
#undef ROW
	ret = t->err ? t->err : tbl_print(f, t, fmt);
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

/*
 * The read pass of the curves and tables: the report's one policy
 * (read_4, seed 000's column, else the last read pass), as sweep uses.
 */
static const char *read_phase(const struct mt_report *rep)
{
	static char read_0[MT_PHASE_NAME_MAX];
	const char *ph = mt_report_default_phase(rep);

	return ph ? ph : mt_phase_name(read_0, sizeof(read_0), MT_PHASE_READ, 0);
}

/* The first touch: write_0, as the workload names it. */
static const char *first_write(void)
{
	static char write_0[MT_PHASE_NAME_MAX];

	return mt_phase_name(write_0, sizeof(write_0), MT_PHASE_WRITE, 0);
}

/*
 * A gnuplot single-quoted string: nothing in it is interpreted but '' (a
 * quote), so a title from a file name or a report is text, never code.
 * Control bytes are escaped (mt_cell_safe): the SVG goes into XHTML.
 */
static void gp_str(FILE *f, const char *raw)
{
	char safe[MT_SAFE_MAX];
	const char *s = mt_cell_safe(safe, sizeof(safe), raw);

	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/*
 * A label in the datablock: a double-quoted gnuplot datum of letters,
 * digits and ._- only, so a line is never "EOD" and no quote ends it.
 */
static void gp_datum(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(isalnum((unsigned char)*s) || strchr("._-", *s) ? *s : '_', f);
	fputc('"', f);
}

/* reset: in a PDF the plots share one gnuplot, and none inherits the last's labels. */
static const char gp_head[] = "reset\nset key below\nset grid ytics\n";
static const char gp_svg[] = "set terminal svg size 760,400 font 'sans,11' noenhanced\n";

/* Per-phase bars, mean +/- stddev, one bar per input (its first point). */
static void plot_phases(FILE *script, FILE *data, const struct mt_report *const *reps,
		       const char *const *files, unsigned int n)
{
	const struct mt_result *r0 = reps[0]->results[0];

	fputs("set title 'Time per phase (mean +/- stddev over iterations)'\n"
	      "set ylabel 'us (log scale)'\nset logscale y\nset style data histograms\n"
	      "set style histogram errorbars gap 1 lw 1\nset style fill solid 0.6 border -1\n"
	      "plot ", script);
	for (unsigned int i = 0; i < n; i++) {
		fprintf(script, "%s%s using %u:%u%s title ", i ? ", " : "", i ? "''" : "$data",
			2 * i + 2, 2 * i + 3, i ? "" : ":xtic(1)");
		gp_str(script, files[i]);
	}
	fputc('\n', script);
	for (unsigned int p = 0; p < r0->n_phases; p++) {
		gp_datum(data, r0->phases[p].name);
		for (unsigned int i = 0; i < n; i++) {
			const struct mt_phase_stat *ps = reps[i]->n_results
				? mt_result_phase(reps[i]->results[0], r0->phases[p].name) : NULL;

			if (ps)
				fprintf(data, " %.6g %.6g", ps->time_ns.mean / 1000.0,
					ps->time_ns.stddev / 1000.0);
			else
				fprintf(data, " NaN NaN");
		}
		fputc('\n', data);
	}
}

/*
 * Each TLB level's reach where it falls within the data, labelled with its
 * source: where a knee is expected. The levels are those the knees' lines
 * name (mt_reach_levels: cpuid's, then the probe's of --tlb). A probe level
 * is a range of entries, so its reach is a band between two dashed lines.
 */
static void plot_reach(FILE *script, const struct mt_report *rep, double xmin, double xmax)
{
	struct mt_reach lv[2 * MT_REACH_MAX];
	size_t n = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX);

	for (size_t i = 0; i < n; i++) {
		double lo = (double)mt_reach_min(&lv[i]), hi = (double)mt_reach_max(&lv[i]);
		char pg[32], a[32], b[32], *label;
		int len;

		if (hi < xmin || lo > xmax)
			continue;
		mt_size_format_short(lv[i].page_size, pg, sizeof(pg));
		mt_size_format_short(mt_reach_min(&lv[i]), a, sizeof(a));
		mt_size_format_short(mt_reach_max(&lv[i]), b, sizeof(b));
		if (lo == hi)
			len = asprintf(&label, "%s %s reach %s (%s)", lv[i].name, pg, b,
				       lv[i].source);
		else
			len = asprintf(&label, "%s %s reach %s..%s (%s)", lv[i].name, pg, a, b,
				       lv[i].source);
		if (len < 0)
			return;
		/* a range is drawn where it meets the data, as a line is */
		lo = lo < xmin ? xmin : lo;
		hi = hi > xmax ? xmax : hi;
		if (lo < hi)
			fprintf(script, "set object rect from %.17g, graph 0 to %.17g, graph 1 "
				"behind fc rgb '#eeeeee' fs solid noborder\n", lo, hi);
		for (int e = 0; e < (lo < hi ? 2 : 1); e++)
			fprintf(script, "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead "
				"dt 2 lc rgb '#777777'\n", e ? hi : lo, e ? hi : lo);
		fputs("set label ", script);
		gp_str(script, label);
		free(label);
		fprintf(script, " at %.17g, graph 0.97 rotate by 90 right offset -0.7,0 "
			"font ',8' textcolor rgb '#555555'\n", lo);
	}
}

/*
 * Per-block cost against region size, one line per input; each knee
 * marked (memtlb sweep's, on the same phase) and the TLB reaches drawn.
 */
static void plot_sweep(FILE *script, FILE *data, const struct mt_report *const *reps,
		      const char *const *files, unsigned int n, bool first)
{
	double xmin = 0, xmax = 0;

	for (unsigned int i = 0; i < n; i++) {
		const char *ph = first ? first_write() : read_phase(reps[i]);
		double kx[MAX_KNEES], ky[MAX_KNEES];
		int nk;

		for (size_t k = 0; k < reps[i]->n_results; k++) {
			const struct mt_result *r = reps[i]->results[k];
			const struct mt_phase_stat *ps = mt_result_phase(r, ph);
			double x = (double)r->region;

			if (!ps || !r->blocks)
				continue;
			fprintf(data, "%llu %.6g %.6g\n", (unsigned long long)r->region,
				ps->time_ns.mean / (double)r->blocks,
				ps->time_ns.stddev / (double)r->blocks);
			if (xmax == 0 || x < xmin)
				xmin = x;
			if (x > xmax)
				xmax = x;
		}
		fputs("\n\n", data);
		nk = mt_report_knee_points(reps[i], ph, NULL, kx, ky, MAX_KNEES);
		for (int k = 0; k < nk; k++)
			fprintf(script, "set label 'knee' at %.17g, %.6g point pt 6 ps 2 "
				"offset 1,1\n", kx[k], ky[k]);
	}
	if (xmax > 0)
		plot_reach(script, reps[0], xmin, xmax);
	/* x ends at the data: no offsets and no rounding out to the next tic. */
	fprintf(script, "set title '%s: time per block against region size'\n"
		"set xlabel 'region'\nset ylabel 'ns per block'\nset logscale x 2\n"
		"set format x '%%.0b%%BB'\nset autoscale xfix\n"
		"set offsets 0, 0, graph 0.1, graph 0.1\nplot ",
		first ? "first write (write_0)" : "read pass");
	for (unsigned int i = 0; i < n; i++) {
		const char *ph = first ? first_write() : read_phase(reps[i]);
		char title[512];

		snprintf(title, sizeof(title), "%s (%s)", files[i], ph);
		fprintf(script, "%s$data index %u using 1:2:3 with yerrorlines pt 7 title ",
			i ? ", " : "", i);
		gp_str(script, title);
	}
	fputc('\n', script);
}

/*
 * The page-size matrix: cost against folio size, one line per input and
 * region, each point with its 95% interval. Only the sizes measured are
 * drawn (a row whose size the kernel's policy chose has no x: left out),
 * and a row not proven as asked is drawn hollow, as it has no verdict.
 */
static void plot_matrix(FILE *script, FILE *data, const struct mt_report *const *reps,
			const char *const *files, unsigned int n, bool first)
{
	unsigned int lines = 0;

	fprintf(script, "set title '%s against page size (95%% CI)'\n"
		"set xlabel 'folio size'\nset ylabel '%s'\nset logscale x 2\n"
		"set format x '%%.0b%%BB'\nset offsets graph 0.05, graph 0.05, graph 0.1, "
		"graph 0.1\nplot ",
		first ? "First touch (write_0)" : "Steady access",
		first ? "ns per 4 KiB" : "ns per block");
	for (unsigned int i = 0; i < n; i++) {
		struct mt_matrix_row rows[MAX_ROWS];
		struct mt_matrix mats[MAX_MATS];
		size_t nr;
		int nm = mt_matrix_build(reps[i], read_phase(reps[i]), rows, MAX_ROWS, &nr, mats,
					 MAX_MATS);

		for (int g = 0; g < nm; g++) {
			char reg[32], title[512];
			bool unproven = false;

			for (int proven = 1; proven >= 0; proven--) {
				for (size_t k = mats[g].first; k < mats[g].first + mats[g].n; k++) {
					double y = first ? rows[k].touch_ns_4k : rows[k].steady_ns;
					double ci = first ? rows[k].touch_ci95_4k
							  : rows[k].steady_ci95;

					if (!rows[k].folio || !isfinite(y) ||
					    rows[k].proven != proven)
						continue;
					fprintf(data, "%llu %.6g %.6g\n",
						(unsigned long long)rows[k].folio, y,
						isfinite(ci) ? ci : 0.0);
					unproven |= !proven;
				}
				/* an empty block still needs its place: NaN draws nothing */
				fputs("NaN NaN NaN\n\n\n", data);
			}
			mt_size_format_short(mats[g].region, reg, sizeof(reg));
			snprintf(title, sizeof(title), "%s, region %s", files[i], reg);
			fprintf(script, "%s$data index %u using 1:2:3 with yerrorlines pt 7 lc %u "
				"title ", lines ? ", " : "", 2 * lines, lines + 1);
			gp_str(script, title);
			if (unproven)
				fprintf(script, ", $data index %u using 1:2:3 with yerrorbars pt 6 "
					"lc %u title 'not proven as asked'", 2 * lines + 1,
					lines + 1);
			lines++;
		}
	}
	fputc('\n', script);
}

enum plot_kind {
	PLOT_PHASES,
	PLOT_SWEEP_WRITE,
	PLOT_SWEEP_READ,
	PLOT_MATRIX_TOUCH,
	PLOT_MATRIX_STEADY,
	PLOT_KINDS_MAX = 4,	/* at most this many in one document */
};

static void plot_script(FILE *script, FILE *data, enum plot_kind kind,
			const struct mt_report *const *reps, const char *const *files,
			unsigned int n)
{
	fputs(gp_head, script);
	if (kind == PLOT_PHASES)
		plot_phases(script, data, reps, files, n);
	else if (kind == PLOT_SWEEP_WRITE || kind == PLOT_SWEEP_READ)
		plot_sweep(script, data, reps, files, n, kind == PLOT_SWEEP_WRITE);
	else
		plot_matrix(script, data, reps, files, n, kind == PLOT_MATRIX_TOUCH);
}

/*
 * The plots the inputs call for, into kinds: against region size where a
 * region varied, against page size where the pages did (both when both),
 * else the phases of each input's point. Returns how many.
 */
static size_t plot_kinds(const struct mt_report *const *reps, unsigned int n,
			 enum plot_kind kinds[PLOT_KINDS_MAX])
{
	bool regions = false, matrix = false;
	size_t k = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct mt_matrix_row rows[MAX_ROWS];
		struct mt_matrix mats[MAX_MATS];
		size_t nr;

		for (size_t j = 1; j < reps[i]->n_results; j++)
			regions |= reps[i]->results[j]->region != reps[i]->results[0]->region;
		matrix |= mt_matrix_build(reps[i], read_phase(reps[i]), rows, MAX_ROWS, &nr, mats,
					  MAX_MATS) > 0;
	}
	if (regions) {
		kinds[k++] = PLOT_SWEEP_WRITE;
		kinds[k++] = PLOT_SWEEP_READ;
	}
	if (matrix) {
		kinds[k++] = PLOT_MATRIX_TOUCH;
		kinds[k++] = PLOT_MATRIX_STEADY;
	}
	if (!k && n && reps[0]->n_results)
		kinds[k++] = PLOT_PHASES;
	return k;
}

/* One plot inline; without gnuplot, *missing is set and the tables carry on. */
static int plot(FILE *f, enum plot_kind kind, const struct mt_report *const *reps,
		const char *const *files, unsigned int n, bool *missing)
{
	char *sbuf = NULL, *dbuf = NULL, *svg = NULL, *elem;
	size_t slen, dlen;
	FILE *script, *data;
	int ret;

	if (*missing)
		return 0;
	script = open_memstream(&sbuf, &slen);
	data = open_memstream(&dbuf, &dlen);
	if (!script || !data) {
		if (script)
			fclose(script);
		free(sbuf);
		return -ENOMEM;
	}
	fputs(gp_svg, script);
	plot_script(script, data, kind, reps, files, n);
	ret = fclose(script) | fclose(data) ? -ENOMEM : 0;
	if (!ret)
		ret = mt_plot_svg(sbuf, dbuf, &svg);
	free(sbuf);
	free(dbuf);
	if (ret == -ENOENT) {
		*missing = true;
		return 0;
	}
	/* Inline: the SVG element itself, without its XML prolog; no element is a failure. */
	elem = ret ? NULL : strstr(svg, "<svg");
	if (!elem) {
		free(svg);
		note(f, MT_FORMAT_HTML, "gnuplot failed on this plot: left out.");
		return 0;
	}
	fprintf(f, "<figure>\n%s</figure>\n", elem);
	free(svg);
	return 0;
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
			const struct mt_phase_stat *w = mt_result_phase(r, first_write());
			const struct mt_phase_stat *rd = mt_result_phase(r, read_phase(reps[i]));
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
		ret = mt_report_print_knees(m, reps[i], read_phase(reps[i]), NULL, 80);
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
		ret = mt_report_print_matrix(m, reps[i], read_phase(reps[i]), 80);
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

int mt_render(FILE *f, const struct mt_report *const *reps, const char *const *files,
	      unsigned int n, enum mt_format fmt)
{
	bool sweep = false, missing = false;
	char title[1024];
	size_t len = 0;
	int ret;

	if (!(MT_FORMAT_BIT(fmt) & MT_FORMATS_DOCUMENT))
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		sweep |= reps[i]->n_results > 1;
		if (len < sizeof(title))
			len += snprintf(title + len, sizeof(title) - len, "%s%s", i ? ", " : "",
					files[i]);
	}
	if (fmt == MT_FORMAT_HTML)
		fputs(html_head, f);
	if (fmt == MT_FORMAT_HTML) {
		fputs("<h1>memtlb report: ", f);
		mt_cell_html(f, title);
		fputs("</h1>\n", f);
	} else {
		char safe[MT_SAFE_MAX];

		fprintf(f, "%smemtlb report: %s\n", fmt == MT_FORMAT_MARKDOWN ? "# " : "",
			mt_cell_safe(safe, sizeof(safe), title));
	}
	heading(f, fmt, 1, "System");
	ret = facts(f, fmt, reps, files, n, true);
	heading(f, fmt, 1, "Configuration");
	ret = ret ? ret : facts(f, fmt, reps, files, n, false);

	heading(f, fmt, 1, "Plots");
	if (fmt != MT_FORMAT_HTML) {
		note(f, fmt, "Plots are in the HTML report (--format html).");
	} else {
		enum plot_kind kinds[PLOT_KINDS_MAX];
		size_t nk = plot_kinds(reps, n, kinds);

		for (size_t k = 0; k < nk && !ret; k++)
			ret = plot(f, kinds[k], reps, files, n, &missing);
	}
	if (missing)
		note(f, fmt, "gnuplot is not installed: plots left out, tables below "
			     "(apt-get install gnuplot-nox).");

	if (sweep && !ret) {
		heading(f, fmt, 1, "Per-block cost against region size");
		ret = sweep_table(f, fmt, reps, files, n);
		ret = ret ? ret : knees_section(f, fmt, reps, files, n);
		ret = ret ? ret : matrix_section(f, fmt, reps, files, n);
		ret = ret ? ret : levels_section(f, fmt, reps, files, n);
	}
	if (n > 1 && !ret)
		ret = compare_section(f, fmt, reps, files, n);

	for (unsigned int i = 0; !ret && i < n; i++) {
		for (size_t k = 0; !ret && k < reps[i]->n_results; k++) {
			const struct mt_result *r = reps[i]->results[k];
			char h[600];

			snprintf(h, sizeof(h), "%s: %s", files[i], r->params);
			heading(f, fmt, 1, h);
			ret = phase_table(f, fmt, reps[i], r);
			if (!ret && r->n_events) {
				heading(f, fmt, 2, "Counts per block");
				ret = per_block_table(f, fmt, r);
			}
		}
	}
	note(f, fmt, "Times are means over iterations; counts are means per iteration of each "
		     "phase, (x%) the share of time counted where multiplexed and scaled.");
	if (fmt == MT_FORMAT_HTML)
		fputs("</body>\n</html>\n", f);
	return ret;
}

int mt_render_pdf(const struct mt_report *const *reps, const char *const *files,
		  unsigned int n, char **pdf, size_t *len)
{
	enum plot_kind kinds[PLOT_KINDS_MAX];
	char *sbuf[PLOT_KINDS_MAX] = { 0 }, *dbuf[PLOT_KINDS_MAX] = { 0 };
	size_t k = plot_kinds(reps, n, kinds), slen, dlen;
	int ret = 0;

	*pdf = NULL;
	*len = 0;
	if (!k)
		return -ENODATA;
	for (size_t i = 0; i < k && !ret; i++) {
		FILE *script = open_memstream(&sbuf[i], &slen);
		FILE *data = open_memstream(&dbuf[i], &dlen);

		if (script && data)
			plot_script(script, data, kinds[i], reps, files, n);
		if (!script || !data)
			ret = -ENOMEM;
		/* both closed whatever the first says: | on purpose, not || */
		if ((script && fclose(script)) | (data && fclose(data)))
			ret = -ENOMEM;
	}
	if (!ret)
		ret = mt_plot_pdf((const char *const *)sbuf, (const char *const *)dbuf, k, pdf, len);
	for (size_t i = 0; i < PLOT_KINDS_MAX; i++) {
		free(sbuf[i]);
		free(dbuf[i]);
	}
	return ret;
}
