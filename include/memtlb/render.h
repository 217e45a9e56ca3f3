/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_RENDER_H
#define MEMTLB_RENDER_H

#include <stdio.h>

#include <memtlb/report.h>

enum mt_render_format {
	MT_RENDER_TEXT,
	MT_RENDER_MARKDOWN,
	MT_RENDER_HTML,		/* XHTML, self-contained: plots inline as SVG */
};

/*
 * A human report of one or more report files: system, configuration, the
 * phase tables, counters per block, and for HTML the plots (gnuplot).
 * Returns 0 or -errno.
 */
int mt_render(FILE *f, const struct mt_report *const *reps, const char *const *files,
	      unsigned int n, enum mt_render_format fmt);

/*
 * Run gnuplot (MEMTLB_GNUPLOT, else "gnuplot" on PATH) by fork/exec, the
 * script on its stdin, data in a private temp file that the script names
 * as DATAFILE and that is removed afterwards. *svg gets its standard output
 * (malloc'ed). Returns 0, -ENOENT when gnuplot is not installed, -EIO when
 * it failed.
 */
int mt_plot_svg(const char *script, const char *data, char **svg);

#endif
