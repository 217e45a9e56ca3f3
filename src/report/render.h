/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_RENDER_H
#define MEMTLB_REPORT_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "model/report.h"


/*
 * A human report of one or more report files: system, configuration, the
 * phase tables, counters per block, and for HTML the plots (gnuplot); fmt
 * one of MT_FORMATS_DOCUMENT.
 * Returns 0 or -errno.
 */
int mt_render(FILE *f, const struct mt_report *const *reps, const char *const *files,
	      unsigned int n, enum mt_format fmt);

/*
 * The report's plots (as the HTML report has them: a sweep's two curves
 * with knees and reaches, else the phases) as the pages of a PDF, through
 * gnuplot's pdfcairo terminal. *pdf is malloc'ed, *len its size. 0,
 * -ENODATA (nothing to plot), -ENOENT (no gnuplot), -EIO, -ENOMEM.
 */
int mt_render_pdf(const struct mt_report *const *reps, const char *const *files,
		  unsigned int n, char **pdf, size_t *len);

#endif
