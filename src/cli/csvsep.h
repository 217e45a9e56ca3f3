/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CLI_CSVSEP_H
#define MEMTLB_CLI_CSVSEP_H

#include <stdio.h>

/*
 * -x SEP, perf stat's CSV separator, for every CSV writer at once: a stream
 * that reads the RFC 4180 CSV written to it and writes it to out with SEP
 * between fields. A field keeps its quotes, and one that holds SEP gets
 * them. The writers keep their commas (one format to test); fclose flushes
 * the last field and returns EOF when out failed. NULL and errno on failure.
 */
FILE *mt_csvsep_open(FILE *out, char sep);

/*
 * -x's value as *sep: one printable byte that cannot be part of a number or
 * a name (not a quote, letter, digit, '.' or '-'), a tab, or "\t" for one.
 * 0 or -EINVAL.
 */
int mt_csvsep_check(const char *arg, char *sep);

#endif
