/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_RENDER_H
#define MEMTLB_REPORT_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "measure/probe.h"
#include "model/report.h"
#include "sys/sysinfo.h"

/*
 * What a document is of. Each kind has its own facts, sections and plots
 * (render.c's table of kinds); one document holds one kind.
 */
enum mt_render_kind {
	MT_RENDER_WORKLOAD,	/* stat, sweep: the workload's phases */
	MT_RENDER_RUN,		/* run: a command under the counters */
	MT_RENDER_FLUSH,	/* flush: time per op over the pages flushed */
	MT_RENDER_PROBE,	/* probe: translation cost per access against size */
	MT_RENDER_KINDS,
};

/*
 * The kind of a document of command's report ("stat", "sweep", "run",
 * "flush", "probe": what mt_report_load_command reads), or -EINVAL for a
 * command whose report memtlb report does not render.
 */
int mt_render_kind(const char *command);

/* One input: a report (mt_report_load), or a probe's (mt_report_load_probe). */
struct mt_render_input {
	const char *file;
	const struct mt_report *rep;		/* NULL for a probe */
	const struct mt_probe_result *probe;	/* a probe's result, else NULL */
	const struct mt_sysinfo *si;		/* a probe's system, else NULL */
};

/*
 * A human report of n inputs of one kind: system, configuration, the
 * kind's tables and for HTML its plots (gnuplot); fmt one of
 * MT_FORMATS_DOCUMENT. Returns 0, -EINVAL (a format that is not a
 * document, inputs of kinds that differ) or -errno.
 */
int mt_render(FILE *f, const struct mt_render_input *in, unsigned int n, enum mt_format fmt);

/*
 * The document's plots (as the HTML report has them) as the pages of a
 * PDF, through gnuplot's pdfcairo terminal. *pdf is malloc'ed, *len its
 * size; why (why_len bytes) gets gnuplot's words when it failed. 0,
 * -ENODATA (nothing to plot), -ENOENT (no gnuplot), -EIO, -ENOMEM.
 */
int mt_render_pdf(const struct mt_render_input *in, unsigned int n, char **pdf, size_t *len,
		  char *why, size_t why_len);

/*
 * Between render.c (the document) and render-plot.c (its plots) alone.
 */

/* The plots a document may have; the table of kinds says which of them a kind draws. */
enum mt_render_plot {
	MT_PLOT_PHASES,		/* time per phase of each input's first point */
	MT_PLOT_GRID,		/* a study's row against its values: one per row */
	MT_PLOT_SWEEP_WRITE,	/* the first touch against region size */
	MT_PLOT_SWEEP_READ,	/* the read pass against region size */
	MT_PLOT_MATRIX_TOUCH,	/* the first touch against page size */
	MT_PLOT_MATRIX_STEADY,	/* steady access against page size */
	MT_PLOT_FLUSH,		/* time per page flushed against region size */
	MT_PLOT_PROBE,		/* translation cost per access against size */
	MT_PLOT_MAX,
};

struct mt_render_doc {
	const struct mt_render_input *in;
	unsigned int n;
	enum mt_render_kind kind;
	unsigned int plots;	/* bit per enum mt_render_plot the kind may draw */
};

/* d for the n inputs: their kind, its plots. 0, -EINVAL (none, kinds that differ). */
int mt_render_doc_init(struct mt_render_doc *d, const struct mt_render_input *in, unsigned int n);

/* Each plot the inputs call for, inline as SVG; *missing set without gnuplot. 0 or -errno. */
int mt_render_plots_html(FILE *f, const struct mt_render_doc *d, bool *missing);

/* The system in was measured on: a probe's own, else its report's. */
const struct mt_sysinfo *mt_render_system(const struct mt_render_input *in);

/*
 * The read pass of the curves and tables: the report's one policy
 * (read_4, seed 000's column, else the last read pass), as sweep uses.
 */
const char *mt_render_read_phase(const struct mt_report *rep);
/* The first touch: write_0, as the workload names it. */
const char *mt_render_first_write(void);

#endif
