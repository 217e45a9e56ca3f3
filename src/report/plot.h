/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_PLOT_H
#define MEMTLB_REPORT_PLOT_H

#include <stddef.h>

/*
 * Run gnuplot (MEMTLB_GNUPLOT, else "gnuplot" on PATH) by fork/exec, on its
 * stdin the data as the datablock $data, then the script, which plots
 * '$data'; no file is written. *svg gets its standard output (malloc'ed).
 * Returns 0, -ENOENT when gnuplot is not installed, -EIO when it failed,
 * with why (why_len bytes; NULL: not wanted) its first two lines on stderr
 * ("" when it said nothing), raw: untrusted text, for the printer to
 * escape; -EINVAL for data with a line "EOD" (it would end the block),
 * -ENOMEM.
 */
#define MT_PLOT_WHY_MAX 256
int mt_plot_svg(const char *script, const char *data, char **svg, char *why, size_t why_len);

/*
 * n plots as the pages of one PDF (gnuplot's pdfcairo terminal): scripts[i]
 * plots '$data', datas[i] is its datablock; the scripts set no terminal.
 * *pdf gets the document (malloc'ed), *len its size. Returns as
 * mt_plot_svg does.
 */
int mt_plot_pdf(const char *const *scripts, const char *const *datas, size_t n, char **pdf,
		size_t *len, char *why, size_t why_len);

/* 0 when gnuplot has the pdfcairo terminal, -ENOTSUP when it lacks it, -ENOENT without gnuplot. */
int mt_plot_has_pdf(void);

#endif
