// SPDX-License-Identifier: MIT
/*
 * memtlb report's plots: gnuplot scripts and data of each kind's curves,
 * inlined as SVG in the XHTML document or as the pages of a PDF. Every
 * string from a report is untrusted here: a title is a gnuplot
 * single-quoted string (gp_str), a datum a word of safe letters (gp_datum).
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
#include "report/plot.h"
#include "report/render.h"
#include "report/rungrid.h"
#include "report/sweep.h"
#include "stats/stats.h"

#define MAX_KNEES 32
#define MAX_ROWS 64	/* a matrix's rows: every page size, at every region */
#define MAX_MATS 16
#define LEGEND_MAX 640

/* The words of the intervals, in every title that draws them. */
#define IQR_WORDS "median, IQR"
#define CI_WORDS "95% CI"
/* What a run's plots call its time, and the interval over its runs. */
#define WALL_WORDS "Wall time of the command"
#define OVER_RUNS "(" IQR_WORDS " over runs)"

const char *mt_render_read_phase(const struct mt_report *rep)
{
	static char read_0[MT_PHASE_NAME_MAX];
	const char *ph = mt_report_default_phase(rep);

	return ph ? ph : mt_phase_name(read_0, sizeof(read_0), MT_PHASE_READ, 0);
}

const char *mt_render_first_write(void)
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

/* reset: in a PDF the plots share one gnuplot, and none inherits the last's labels. */
static const char gp_head[] = "reset\nset key below\nset grid ytics\n";
static const char gp_svg[] = "set terminal svg size 760,400 font 'sans,11' noenhanced\n";

/*
 * What tells the inputs apart in a legend: the first of these whose value
 * differs between them, else the file names. A system's first (the kernel
 * is what a fleet compares), then what the command was given.
 */
enum legend_by {
	BY_KERNEL,
	BY_HOST,
	BY_COMMAND_LINE,	/* run */
	BY_PROBE_PAGES,		/* probe: its --pages */
	BY_PROBE_MAX,		/* probe: its --max */
	BY_KEY,			/* a configuration key: legend_keys[] */
	BY_FILE,
};

/* The configuration keys a legend may name, in the order they are tried. */
static const enum mt_cfg_key legend_keys[] = {
	MT_CFG_PAGES, MT_CFG_BACKING, MT_CFG_REGION, MT_CFG_BLOCK, MT_CFG_ACCESS,
	MT_CFG_PASSES, MT_CFG_TASKS, MT_CFG_TASK_MODE, MT_CFG_FILE_CACHE, MT_CFG_ITERATIONS,
	MT_CFG_EVENTS,
};

static const struct mt_config_key *key_of(enum mt_cfg_key k)
{
	size_t n;

	return &mt_config_keys(&n)[k];
}

/* Configuration key k of in as its report holds it; "" when it has none. */
static void key_value(const struct mt_render_input *in, enum mt_cfg_key k, char *buf, size_t len)
{
	const struct mt_config_key *key = key_of(k);
	struct mt_config_value v;

	buf[0] = '\0';
	if (!in->rep || mt_config_value(&in->rep->config, key, &v))
		return;
	if (v.kind == MT_VALUE_STRING)
		snprintf(buf, len, "%s", v.s ? v.s : "");
	else if (v.kind == MT_VALUE_INT && key->type == MT_KEY_SIZE)
		mt_size_format_short(v.u, buf, len);
	else if (v.kind == MT_VALUE_INT)
		snprintf(buf, len, "%llu", (unsigned long long)v.u);
	else if (v.kind == MT_VALUE_REAL)
		snprintf(buf, len, "%g", v.d);
	else
		snprintf(buf, len, "%s", v.b ? "yes" : "no");
}

/* The value of what by tells of input in, into buf; its name is returned. */
static const char *legend_value(const struct mt_render_input *in, enum legend_by by,
				enum mt_cfg_key k, char *buf, size_t len)
{
	const struct mt_sysinfo *si = mt_render_system(in);

	buf[0] = '\0';
	switch (by) {
	case BY_KERNEL:
		snprintf(buf, len, "%s", si->kernel);
		return "kernel";
	case BY_HOST:
		snprintf(buf, len, "%s", si->host);
		return "host";
	case BY_COMMAND_LINE:
		snprintf(buf, len, "%s", in->rep ? in->rep->command_line : "");
		return "command";
	case BY_PROBE_PAGES:
		snprintf(buf, len, "%s", in->probe ? mt_probe_pages_name(in->probe->kind) : "");
		return "pages";
	case BY_PROBE_MAX:
		if (in->probe)
			mt_size_format_short(in->probe->max, buf, len);
		return "max";
	case BY_KEY:
		key_value(in, k, buf, len);
		return key_of(k)->name;
	default:
		snprintf(buf, len, "%s", in->file);
		return NULL;
	}
}

/* Whether what by tells differs between the inputs. */
static bool differs(const struct mt_render_doc *d, enum legend_by by, enum mt_cfg_key k)
{
	char a[LEGEND_MAX], b[LEGEND_MAX];

	legend_value(&d->in[0], by, k, a, sizeof(a));
	for (unsigned int i = 1; i < d->n; i++) {
		legend_value(&d->in[i], by, k, b, sizeof(b));
		if (strcmp(a, b))
			return true;
	}
	return false;
}

/*
 * Input i's name in a legend: "kernel 6.1.0", "pages thp"; the file name
 * when nothing named differs, the kernel for one input (nothing differs,
 * and the kernel is what it was measured on).
 */
static void legend(const struct mt_render_doc *d, unsigned int i, char *buf, size_t len)
{
	char v[LEGEND_MAX];
	enum legend_by by = BY_FILE;
	enum mt_cfg_key k = MT_CFG_MAX;
	const char *name;

	if (d->n == 1) {
		by = BY_KERNEL;
	} else {
		for (int b = BY_KERNEL; b < BY_KEY && by == BY_FILE; b++)
			if (differs(d, (enum legend_by)b, MT_CFG_MAX))
				by = (enum legend_by)b;
		for (size_t j = 0; by == BY_FILE && j < sizeof(legend_keys) / sizeof(*legend_keys);
		     j++) {
			if (differs(d, BY_KEY, legend_keys[j])) {
				by = BY_KEY;
				k = legend_keys[j];
			}
		}
	}
	name = legend_value(&d->in[i], by, k, v, sizeof(v));
	/* a legend cut short still names its line */
	if (snprintf(buf, len, "%s%s%s", name ? name : "", name ? " " : "", v) >= (int)len)
		buf[len - 1] = '\0';
}

/*
 * A cost as the plots show it, over div: the median of its n samples and
 * their quartiles (the bar, never below the least sample); a NAN sample,
 * a run a counter missed, is left out as its summary left it. Without
 * samples, the summary's median, or its mean, and no bar (the quartiles
 * equal to it). false: nothing to show.
 */
static bool iqr_of(const struct mt_summary *s, const double *samples, size_t n, double div,
		   double y[3])
{
	double q[3], *x = samples && n ? malloc(n * sizeof(*x)) : NULL;
	size_t k = 0;
	bool quartiles;

	if (!(div > 0)) {
		free(x);
		return false;
	}
	for (size_t i = 0; x && i < n; i++)
		if (isfinite(samples[i]))
			x[k++] = samples[i];
	quartiles = k && !mt_stats_quartiles(x, k, q);
	free(x);
	if (quartiles) {
		for (int i = 0; i < 3; i++)
			y[i] = q[i] / div;
	} else {
		y[1] = (s->median > 0 ? s->median : s->mean) / div;
		y[0] = y[2] = y[1];
	}
	return isfinite(y[1]);
}

/* A phase's time as the plots show it (iqr_of); false: no phase, nothing to show. */
static bool iqr_point(const struct mt_phase_stat *ps, double div, double y[3])
{
	return ps && iqr_of(&ps->time_ns, ps->time_samples, ps->time_ns.n, div, y);
}

/* A datablock row: x, the median, its quartiles (gnuplot's x:y:ylow:yhigh). */
static void iqr_row(FILE *data, double x, const double y[3])
{
	fprintf(data, "%.17g %.6g %.6g %.6g\n", x, y[1], y[0], y[2]);
}

/* Input i's x at category x: the inputs side by side across 0.6 of it. */
static double beside(const struct mt_render_doc *d, unsigned int i, size_t x)
{
	return (double)x + (d->n > 1 ? 0.6 / (d->n - 1) * i - 0.3 : 0);
}

/* The plot's series, one per input, index i of $data drawn with what, named by legend(). */
static void plot_inputs(FILE *script, const struct mt_render_doc *d, const char *with)
{
	for (unsigned int i = 0; i < d->n; i++) {
		char name[LEGEND_MAX];

		legend(d, i, name, sizeof(name));
		fprintf(script, "%s$data index %u %s title ", i ? ", " : "", i, with);
		gp_str(script, name);
	}
	fputc('\n', script);
}

/*
 * The columns of a study on x, as the first input has them: the
 * tunables' values. A run has no region: its key's "region=0 block=0"
 * says nothing there.
 */
static void grid_xtics(FILE *script, const struct mt_report *r0)
{
	fputs("set xtics (", script);
	for (size_t k = 0; k < r0->n_results; k++) {
		const char *label = r0->results[k]->params;

		if (!strncmp(label, "region=0 block=0 ", 17))
			label += 17;
		fputs(k ? ", " : "", script);
		gp_str(script, label);
		fprintf(script, " %zu", k);
	}
	fprintf(script, ")\nset xrange [-0.5:%zu.5]\n", r0->n_results ? r0->n_results - 1 : 0);
}

/*
 * A study (run --vary): row slot of of's grid (an event, or the command's
 * wall time) in each column, in the unit its table shows, one series per
 * input (a workload each) with the IQR over the runs. A column where an
 * input has no number (no run, the event not supported, not counted or
 * absent) has no point: a 0 there would read as a count.
 */
static void plot_grid(FILE *script, FILE *data, const struct mt_render_doc *d,
		      const struct mt_report *of, unsigned int slot)
{
	const struct mt_report *r0 = d->in[0].rep;
	char name[MT_EVENT_NAME_MAX + 16], title[MT_SAFE_MAX];
	struct mt_rungrid_row rw;

	mt_rungrid_row(of, slot, false, &rw);
	mt_rungrid_row_name(&rw, name, sizeof(name));
	snprintf(title, sizeof(title), "%s per value " OVER_RUNS,
		 rw.event < 0 ? WALL_WORDS : name);
	fputs("set title ", script);
	gp_str(script, title);
	fputs("\nset ylabel ", script);
	gp_str(script, rw.unit);
	/* a count, a time: from 0, with room above the highest bar for its point */
	fputs("\nset yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n", script);
	grid_xtics(script, r0);
	fputs("plot ", script);
	for (unsigned int i = 0; i < d->n; i++) {
		const struct mt_report *rep = d->in[i].rep;

		for (size_t k = 0; k < rep->n_results && k < r0->n_results; k++) {
			const struct mt_result *r = rep->results[k];
			enum mt_counter_state st;
			const double *x;
			const struct mt_summary *s = mt_rungrid_value(r, &rw, &st, &x);
			double y[3];

			if (st == MT_COUNTER_OK && s->n &&
			    iqr_of(s, x, r->phases[0].time_ns.n, rw.scale, y))
				iqr_row(data, beside(d, i, k), y);
		}
		fputs("NaN NaN NaN NaN\n\n\n", data);
	}
	plot_inputs(script, d, "using 1:2:3:4 with yerrorbars pt 7");
}

/*
 * Per-phase points with their IQR, one series per input (its first point),
 * side by side at each phase. Points, not bars: the axis is logarithmic
 * (phases differ by orders of magnitude), where a bar's base means nothing.
 */
static void plot_phases(FILE *script, FILE *data, const struct mt_render_doc *d)
{
	const struct mt_result *r0 = d->in[0].rep->results[0];

	/* memtlb run's one phase is the command, its samples the runs */
	fputs(d->kind == MT_RENDER_RUN
	      ? "set title '" WALL_WORDS " " OVER_RUNS "'\n"
	      : "set title 'Time per phase (" IQR_WORDS " over iterations)'\n", script);
	fputs("set ylabel 'us (log scale)'\nset logscale y\nset xtics (", script);
	for (unsigned int p = 0; p < r0->n_phases; p++) {
		fputs(p ? ", " : "", script);
		gp_str(script, r0->phases[p].name);
		fprintf(script, " %u", p);
	}
	fprintf(script, ")\nset xrange [-0.5:%u.5]\nplot ", r0->n_phases ? r0->n_phases - 1 : 0);
	for (unsigned int i = 0; i < d->n; i++) {
		const struct mt_report *rep = d->in[i].rep;

		for (unsigned int p = 0; p < r0->n_phases; p++) {
			const struct mt_phase_stat *ps = rep->n_results
				? mt_result_phase(rep->results[0], r0->phases[p].name) : NULL;
			double y[3];

			if (iqr_point(ps, 1000.0, y))
				iqr_row(data, beside(d, i, p), y);
		}
		fputs("NaN NaN NaN NaN\n\n\n", data);
	}
	plot_inputs(script, d, "using 1:2:3:4 with yerrorbars pt 7");
}

/*
 * The page sizes rep's results were translated with (mt_reach_page), at
 * most max into pages: the TLB levels of other sizes explain none of its
 * knees and are not drawn. Returns how many.
 */
static size_t pages_measured(const struct mt_report *rep, uint64_t *pages, size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < rep->n_results; k++) {
		uint64_t pg = mt_reach_page(rep, rep->results[k]);
		size_t j = 0;

		while (j < n && pages[j] != pg)
			j++;
		if (j == n && n < max)
			pages[n++] = pg;
	}
	return n;
}

/*
 * A reach drawn where it meets [xmin, xmax]: a line, or a band between two
 * dashed lines for a measured range, labelled at its start.
 */
static void plot_band(FILE *script, double lo, double hi, double xmin, double xmax,
		      const char *label)
{
	if (hi < xmin || lo > xmax)
		return;
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
	fprintf(script, " at %.17g, graph 0.97 rotate by 90 right offset -0.7,0 "
		"font ',8' textcolor rgb '#555555'\n", lo);
}

/*
 * Each TLB level's reach where it falls within the data, labelled with its
 * source: where a knee is expected. The levels are those the knees' lines
 * name (mt_reach_levels: cpuid's, then the probe's of --tlb), of the page
 * sizes the report measured only. A probe level is a range of entries, so
 * its reach is a band between two dashed lines.
 */
static void plot_reach(FILE *script, const struct mt_report *rep, double xmin, double xmax)
{
	struct mt_reach lv[2 * MT_REACH_MAX];
	uint64_t pages[MT_REACH_MAX];
	size_t n = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX);
	size_t np = pages_measured(rep, pages, MT_REACH_MAX);

	for (size_t i = 0; i < n; i++) {
		char pg[32], a[32], b[32], *label;
		bool measured = false;
		int len;

		for (size_t j = 0; j < np; j++)
			measured |= pages[j] == lv[i].page_size;
		if (!measured)
			continue;
		mt_size_format_short(lv[i].page_size, pg, sizeof(pg));
		mt_size_format_short(mt_reach_min(&lv[i]), a, sizeof(a));
		mt_size_format_short(mt_reach_max(&lv[i]), b, sizeof(b));
		if (mt_reach_min(&lv[i]) == mt_reach_max(&lv[i]))
			len = asprintf(&label, "%s %s reach %s (%s)", lv[i].name, pg, b,
				       lv[i].source);
		else
			len = asprintf(&label, "%s %s reach %s..%s (%s)", lv[i].name, pg, a, b,
				       lv[i].source);
		if (len < 0)
			return;
		plot_band(script, (double)mt_reach_min(&lv[i]), (double)mt_reach_max(&lv[i]),
			  xmin, xmax, label);
		free(label);
	}
}

/* Widen [*xmin, *xmax] to x. */
static void span(double x, double *xmin, double *xmax)
{
	if (*xmax == 0 || x < *xmin)
		*xmin = x;
	if (x > *xmax)
		*xmax = x;
}

/* An axis of sizes: log 2, ending at the data (no rounding out to a tic). */
static const char gp_size_axis[] = "set logscale x 2\nset format x '%.0b%BB'\n"
	"set autoscale xfix\nset offsets 0, 0, graph 0.1, graph 0.1\n";

/*
 * Per-block cost against region size, one line per input; each knee
 * marked (memtlb sweep's, on the same phase) and the TLB reaches drawn.
 */
static void plot_sweep(FILE *script, FILE *data, const struct mt_render_doc *d, bool first)
{
	double xmin = 0, xmax = 0;

	for (unsigned int i = 0; i < d->n; i++) {
		const struct mt_report *rep = d->in[i].rep;
		const char *ph = first ? mt_render_first_write() : mt_render_read_phase(rep);
		double kx[MAX_KNEES], ky[MAX_KNEES], y[3];
		int nk;

		for (size_t k = 0; k < rep->n_results; k++) {
			const struct mt_result *r = rep->results[k];

			if (!iqr_point(mt_result_phase(r, ph), (double)r->blocks, y))
				continue;
			iqr_row(data, (double)r->region, y);
			span((double)r->region, &xmin, &xmax);
		}
		fputs("\n\n", data);
		nk = mt_report_knee_points(rep, ph, NULL, kx, ky, MAX_KNEES);
		for (int k = 0; k < nk; k++)
			fprintf(script, "set label 'knee' at %.17g, %.6g point pt 6 ps 2 "
				"offset 1,1\n", kx[k], ky[k]);
	}
	if (xmax > 0)
		plot_reach(script, d->in[0].rep, xmin, xmax);
	fprintf(script, "set title '%s: time per block against region size (" IQR_WORDS ")'\n"
		"set ylabel 'ns per block'\nset xlabel 'region'\n%splot ",
		first ? "first write (write_0)" : "read pass", gp_size_axis);
	for (unsigned int i = 0; i < d->n; i++) {
		const char *ph = first ? mt_render_first_write()
				       : mt_render_read_phase(d->in[i].rep);
		char name[LEGEND_MAX], title[LEGEND_MAX + MT_PHASE_NAME_MAX + 4];

		legend(d, i, name, sizeof(name));
		snprintf(title, sizeof(title), "%s (%s)", name, ph);
		fprintf(script, "%s$data index %u using 1:2:3:4 with yerrorlines pt 7 title ",
			i ? ", " : "", i);
		gp_str(script, title);
	}
	fputc('\n', script);
}

/*
 * memtlb flush: its op's time per page flushed against the region flushed,
 * one line per input, each point the median with its IQR.
 */
static void plot_flush(FILE *script, FILE *data, const struct mt_render_doc *d)
{
	const struct mt_report *rep0 = d->in[0].rep;
	const char *op = rep0->n_results && rep0->results[0]->n_phases
		? rep0->results[0]->phases[0].name : "flush";

	for (unsigned int i = 0; i < d->n; i++) {
		const struct mt_report *rep = d->in[i].rep;
		double y[3];

		for (size_t k = 0; k < rep->n_results; k++) {
			const struct mt_result *r = rep->results[k];

			if (r->n_phases && iqr_point(&r->phases[0], (double)r->blocks, y))
				iqr_row(data, (double)r->region, y);
		}
		fputs("NaN NaN NaN NaN\n\n\n", data);
	}
	fputs("set title ", script);
	{
		char title[MT_SAFE_MAX];

		snprintf(title, sizeof(title), "flush (%s): time per page against region size "
			 "(" IQR_WORDS ")", op);
		gp_str(script, title);
	}
	/* a time: the axis starts at 0, as no interval goes below it */
	fprintf(script, "\nset ylabel 'ns per page'\nset xlabel 'region'\nset yrange [0:*]\n"
		"%splot ", gp_size_axis);
	plot_inputs(script, d, "using 1:2:3:4 with yerrorlines pt 7");
}

/*
 * memtlb probe: the translation cost per access (base pages less the
 * control) against the size chased, with its 95% intervals (a difference:
 * it may go below zero, as the probe's table says), and each level found
 * as the band of its reach.
 */
static void plot_probe(FILE *script, FILE *data, const struct mt_render_doc *d)
{
	double xmin = 0, xmax = 0;

	for (unsigned int i = 0; i < d->n; i++) {
		const struct mt_probe_result *p = d->in[i].probe;

		for (size_t k = 0; k < p->n_points; k++) {
			const struct mt_probe_point *pt = &p->points[k];

			if (!isfinite(pt->translation_ns))
				continue;
			fprintf(data, "%llu %.6g %.6g\n", (unsigned long long)pt->bytes,
				pt->translation_ns, isfinite(pt->ci95_ns) ? pt->ci95_ns : 0.0);
			span((double)pt->bytes, &xmin, &xmax);
		}
		fputs("NaN NaN NaN\n\n\n", data);
	}
	for (unsigned int i = 0; xmax > 0 && i < d->n; i++) {
		const struct mt_probe_result *p = d->in[i].probe;

		for (size_t l = 0; l < p->n_levels; l++) {
			const struct mt_probe_level *lv = &p->levels[l];
			char pg[32], label[160];

			mt_size_format_short(lv->page_size, pg, sizeof(pg));
			snprintf(label, sizeof(label), "%s %llu..%llu x %s (probe)", lv->name,
				 (unsigned long long)lv->entries_min,
				 (unsigned long long)lv->entries_max, pg);
			plot_band(script, (double)(lv->entries_min * lv->page_size),
				  (double)(lv->entries_max * lv->page_size), xmin, xmax, label);
		}
	}
	fputs("set title 'Translation cost per access against size (" CI_WORDS ")'\n", script);
	fprintf(script, "set xlabel 'size chased'\nset ylabel 'ns per access'\n%splot ",
		gp_size_axis);
	plot_inputs(script, d, "using 1:2:3 with yerrorlines pt 7");
}

/*
 * The page-size matrix: cost against folio size, one line per input and
 * region, each point the median with its IQR. Only the sizes measured are
 * drawn (a row whose size the kernel's policy chose has no x: left out),
 * and a row not proven as asked is drawn hollow, as it has no verdict.
 */
static void plot_matrix(FILE *script, FILE *data, const struct mt_render_doc *d, bool first)
{
	unsigned int lines = 0;

	fprintf(script, "set title '%s against page size (" IQR_WORDS ")'\n"
		"set xlabel 'folio size'\nset ylabel '%s'\nset logscale x 2\n"
		"set format x '%%.0b%%BB'\nset offsets graph 0.05, graph 0.05, graph 0.1, "
		"graph 0.1\nplot ",
		first ? "First touch (write_0)" : "Steady access",
		first ? "ns per 4 KiB" : "ns per block");
	for (unsigned int i = 0; i < d->n; i++) {
		const struct mt_report *rep = d->in[i].rep;
		const char *ph = first ? mt_render_first_write() : mt_render_read_phase(rep);
		struct mt_matrix_row rows[MAX_ROWS];
		struct mt_matrix mats[MAX_MATS];
		size_t nr;
		int nm = mt_matrix_build(rep, mt_render_read_phase(rep), rows, MAX_ROWS, &nr,
					 mats, MAX_MATS);

		for (int g = 0; g < nm; g++) {
			char reg[32], name[LEGEND_MAX], title[LEGEND_MAX + 48];
			bool unproven = false;

			for (int proven = 1; proven >= 0; proven--) {
				for (size_t k = mats[g].first; k < mats[g].first + mats[g].n; k++) {
					const struct mt_result *r = rows[k].r;
					double y[3];
					/* the units of analysis/matrix: per 4 KiB, per block */
					double div = first ? (double)r->region / 4096.0
							   : (double)r->blocks;

					if (!rows[k].folio || rows[k].proven != proven ||
					    !iqr_point(mt_result_phase(r, ph), div, y))
						continue;
					iqr_row(data, (double)rows[k].folio, y);
					unproven |= !proven;
				}
				/* an empty block still needs its place: NaN draws nothing */
				fputs("NaN NaN NaN NaN\n\n\n", data);
			}
			mt_size_format_short(mats[g].region, reg, sizeof(reg));
			legend(d, i, name, sizeof(name));
			snprintf(title, sizeof(title), "%s, region %s", name, reg);
			fprintf(script, "%s$data index %u using 1:2:3:4 with yerrorlines "
				"pt 7 lc %u title ", lines ? ", " : "", 2 * lines, lines + 1);
			gp_str(script, title);
			if (unproven)
				fprintf(script, ", $data index %u using 1:2:3:4 with "
					"yerrorbars pt 6 lc %u title 'not proven as asked'",
					2 * lines + 1, lines + 1);
			lines++;
		}
	}
	fputc('\n', script);
}

/* One plot of a document: its kind, and the row of a study's grid it draws. */
struct plot {
	enum mt_render_plot kind;
	unsigned int input;	/* MT_PLOT_GRID: the input whose grid has the row */
	unsigned int slot;	/* and the row's slot there (mt_rungrid_row) */
};

static void plot_script(FILE *script, FILE *data, const struct plot *p,
			const struct mt_render_doc *d)
{
	enum mt_render_plot kind = p->kind;

	fputs(gp_head, script);
	switch (kind) {
	case MT_PLOT_PHASES:
		plot_phases(script, data, d);
		break;
	case MT_PLOT_GRID:
		plot_grid(script, data, d, d->in[p->input].rep, p->slot);
		break;
	case MT_PLOT_SWEEP_WRITE:
	case MT_PLOT_SWEEP_READ:
		plot_sweep(script, data, d, kind == MT_PLOT_SWEEP_WRITE);
		break;
	case MT_PLOT_MATRIX_TOUCH:
	case MT_PLOT_MATRIX_STEADY:
		plot_matrix(script, data, d, kind == MT_PLOT_MATRIX_TOUCH);
		break;
	case MT_PLOT_FLUSH:
		plot_flush(script, data, d);
		break;
	default:
		plot_probe(script, data, d);
		break;
	}
}

/* The row slots of rep's grid (mt_rungrid_row): its events, then the time; 0: no study. */
static unsigned int grid_slots(const struct mt_report *rep)
{
	return rep && rep->grid && rep->n_results ? rep->results[0]->n_events + 1 : 0;
}

/* Whether an input before i shows event row rw: its plot draws i's series too. */
static bool row_seen(const struct mt_render_doc *d, unsigned int i,
		     const struct mt_rungrid_row *rw)
{
	struct mt_rungrid_row o;

	for (unsigned int j = 0; j < i; j++)
		for (unsigned int slot = 0; slot + 1 < grid_slots(d->in[j].rep); slot++)
			if (mt_rungrid_row(d->in[j].rep, slot, false, &o) &&
			    !strcmp(o.name, rw->name))
				return true;
	return false;
}

/* p into out at *k (NULL: counted only). */
static void plot_put(struct plot *out, size_t *k, struct plot p)
{
	if (out)
		out[*k] = p;
	(*k)++;
}

/*
 * Add kind's plots to out (NULL: count them) at *k: one, or a study's one
 * per row its grids show: each event a table has a row of, once whichever
 * inputs count it (a workload may count one the first does not), then the
 * wall time, last as in the table.
 */
static void plot_add(const struct mt_render_doc *d, enum mt_render_plot kind, struct plot *out,
		     size_t *k)
{
	unsigned int n0 = grid_slots(d->in[0].rep);
	struct mt_rungrid_row rw;

	if (kind != MT_PLOT_GRID) {
		plot_put(out, k, (struct plot){ .kind = kind });
		return;
	}
	for (unsigned int i = 0; i < d->n; i++)
		for (unsigned int slot = 0; slot + 1 < grid_slots(d->in[i].rep); slot++)
			if (mt_rungrid_row(d->in[i].rep, slot, false, &rw) &&
			    !row_seen(d, i, &rw))
				plot_put(out, k, (struct plot){ kind, i, slot });
	if (n0)
		plot_put(out, k, (struct plot){ kind, 0, n0 - 1 });
}

/*
 * The plots the inputs call for, of those their kind draws, into out
 * (NULL: count them): against region size where a region varied, against
 * page size where the pages did (both when both), else the phases of each
 * input's point, or a study's rows against its values; a flush's and a
 * probe's curve whenever there are points. Returns how many.
 */
static size_t plot_list(const struct mt_render_doc *d, struct plot *out)
{
	bool regions = false, matrix = false, points = false;
	bool study = d->in[0].rep && d->in[0].rep->grid;
	size_t k = 0;

	for (unsigned int i = 0; i < d->n; i++) {
		const struct mt_report *rep = d->in[i].rep;
		struct mt_matrix_row rows[MAX_ROWS];
		struct mt_matrix mats[MAX_MATS];
		size_t nr;

		if (!rep) {
			points |= d->in[i].probe && d->in[i].probe->n_points;
			continue;
		}
		points |= rep->n_results > 0 && rep->results[0]->n_phases > 0;
		for (size_t j = 1; j < rep->n_results; j++)
			regions |= rep->results[j]->region != rep->results[0]->region;
		if (d->plots & (1u << MT_PLOT_MATRIX_STEADY))
			matrix |= mt_matrix_build(rep, mt_render_read_phase(rep), rows, MAX_ROWS,
						  &nr, mats, MAX_MATS) > 0;
	}
	for (int p = 0; p < MT_PLOT_MAX && points; p++) {
		bool want;

		if (!(d->plots & (1u << p)))
			continue;
		switch (p) {
		case MT_PLOT_SWEEP_WRITE:
		case MT_PLOT_SWEEP_READ:
			want = regions;
			break;
		case MT_PLOT_MATRIX_TOUCH:
		case MT_PLOT_MATRIX_STEADY:
			want = matrix;
			break;
		case MT_PLOT_PHASES:
			/* what a workload with one region and one page size has */
			want = !study && (!(regions || matrix) || d->kind != MT_RENDER_WORKLOAD);
			break;
		case MT_PLOT_GRID:
			want = study;
			break;
		default:
			want = true;
			break;
		}
		if (want)
			plot_add(d, (enum mt_render_plot)p, out, &k);
	}
	return k;
}

/* The plots of d (plot_list), malloc'ed in *out, *n of them. 0 or -ENOMEM. */
static int plots_of(const struct mt_render_doc *d, struct plot **out, size_t *n)
{
	*n = plot_list(d, NULL);
	*out = calloc(*n ? *n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	plot_list(d, *out);
	return 0;
}

/* One plot's script and data, malloc'ed in *sbuf and *dbuf. 0 or -ENOMEM. */
static int script_of(const struct plot *p, const struct mt_render_doc *d, bool svg,
		     char **sbuf, char **dbuf)
{
	size_t slen, dlen;
	FILE *script = open_memstream(sbuf, &slen);
	FILE *data = open_memstream(dbuf, &dlen);
	int ret = 0;

	if (script && data) {
		if (svg)
			fputs(gp_svg, script);
		plot_script(script, data, p, d);
	}
	if (!script || !data)
		ret = -ENOMEM;
	/* both closed whatever the first says: | on purpose, not || */
	if ((script && fclose(script)) | (data && fclose(data)))
		ret = -ENOMEM;
	return ret;
}

/* "gnuplot failed on this plot: WHY: left out.", WHY escaped for XHTML. */
static void plot_failed(FILE *f, const char *why)
{
	fputs("<p>gnuplot failed on this plot", f);
	if (why[0]) {
		fputs(": ", f);
		mt_cell_html(f, why);
	}
	fputs(": left out.</p>\n", f);
}

int mt_render_plots_html(FILE *f, const struct mt_render_doc *d, bool *missing)
{
	struct plot *plots;
	size_t np;
	int ret = plots_of(d, &plots, &np);

	if (ret)
		return ret;
	for (size_t k = 0; k < np && !ret && !*missing; k++) {
		char *sbuf = NULL, *dbuf = NULL, *svg = NULL, why[MT_PLOT_WHY_MAX] = "", *elem;

		ret = script_of(&plots[k], d, true, &sbuf, &dbuf);
		if (!ret)
			ret = mt_plot_svg(sbuf, dbuf, &svg, why, sizeof(why));
		free(sbuf);
		free(dbuf);
		if (ret == -ENOENT) {
			*missing = true;
			ret = 0;
			break;
		}
		if (ret == -ENOMEM)
			break;
		/* Inline: the SVG element itself, without its XML prolog. */
		elem = ret ? NULL : strstr(svg, "<svg");
		if (elem)
			fprintf(f, "<figure>\n%s</figure>\n", elem);
		else
			plot_failed(f, why);
		free(svg);
		ret = 0;
	}
	free(plots);
	if (ret)
		return ret;
	return ferror(f) ? -EIO : 0;
}

int mt_render_pdf(const struct mt_render_input *in, unsigned int n, char **pdf, size_t *len,
		  char *why, size_t why_len)
{
	struct plot *plots = NULL;
	char **sbuf = NULL, **dbuf = NULL;
	struct mt_render_doc d;
	size_t k;
	int ret = mt_render_doc_init(&d, in, n);

	*pdf = NULL;
	*len = 0;
	if (!ret)
		ret = plots_of(&d, &plots, &k);
	if (!ret && !k)
		ret = -ENODATA;
	if (ret) {
		free(plots);
		return ret;
	}
	/* a page per plot: a study has one per row of its grid */
	sbuf = calloc(k, sizeof(*sbuf));
	dbuf = calloc(k, sizeof(*dbuf));
	if (!sbuf || !dbuf)
		ret = -ENOMEM;
	for (size_t i = 0; i < k && !ret; i++)
		ret = script_of(&plots[i], &d, false, &sbuf[i], &dbuf[i]);
	if (!ret)
		ret = mt_plot_pdf((const char *const *)sbuf, (const char *const *)dbuf, k, pdf, len,
				  why, why_len);
	for (size_t i = 0; sbuf && dbuf && i < k; i++) {
		free(sbuf[i]);
		free(dbuf[i]);
	}
	free(sbuf);
	free(dbuf);
	free(plots);
	return ret;
}
