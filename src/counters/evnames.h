/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_COUNTERS_EVNAMES_H
#define MEMTLB_COUNTERS_EVNAMES_H

#include <stddef.h>

/*
 * Did-you-mean for an event name -e refused as not found: the nearest of
 * perf's generic names and of libpfm4's events (EVENT and EVENT:UMASK) on
 * the PMUs it detects (mt_suggest), else the names holding each of its
 * parts (dTLB-misses: dTLB-load-misses or dTLB-store-misses). Writes "A",
 * "A or B" or "A, B or C" into buf; 0, or -ENOENT when nothing is near
 * (buf ""), -ENOMEM.
 */
int mt_evnames_suggest(const char *name, char *buf, size_t len);

#endif
