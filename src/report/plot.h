/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_PLOT_H
#define MEMTLB_REPORT_PLOT_H

/*
 * Run gnuplot (MEMTLB_GNUPLOT, else "gnuplot" on PATH) by fork/exec, the
 * script on its stdin, data in a private temp file that the script names
 * as DATAFILE and that is removed afterwards. *svg gets its standard output
 * (malloc'ed). Returns 0, -ENOENT when gnuplot is not installed, -EIO when
 * it failed.
 */
int mt_plot_svg(const char *script, const char *data, char **svg);

#endif
