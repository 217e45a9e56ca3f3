/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_PLOT_H
#define MEMTLB_REPORT_PLOT_H

/*
 * Run gnuplot (MEMTLB_GNUPLOT, else "gnuplot" on PATH) by fork/exec, on its
 * stdin the data as the datablock $data, then the script, which plots
 * '$data'; no file is written. *svg gets its standard output (malloc'ed).
 * Returns 0, -ENOENT when gnuplot is not installed, -EIO when it failed,
 * -EINVAL for data with a line "EOD" (it would end the block), -ENOMEM.
 */
int mt_plot_svg(const char *script, const char *data, char **svg);

#endif
