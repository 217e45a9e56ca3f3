/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYSINFO_H
#define MEMTLB_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>

#define MT_HUGEPAGE_SIZES 4

struct mt_hugepool {
	uint64_t size_kb;
	long total;
	long free;
};

/*
 * The machine a report was measured on. Every field is read from the
 * running system; a field that could not be read is empty or -1, never
 * guessed. /proc and /sys are read under MEMTLB_SYSROOT when it is set, so
 * tests can point at a fixture tree.
 */
struct mt_sysinfo {
	char kernel[65];	/* uname release */
	char kernel_version[128];
	char machine[65];
	char host[65];		/* uname nodename: names the side in a comparison */
	char cpu[128];
	char pmu[32];		/* libpfm4's core PMU, "" when none */
	long page_size;
	char thp_enabled[32];
	char thp_defrag[32];
	char thp_shmem_enabled[32];
	int perf_event_paranoid;	/* -99 when unreadable */
	int hw_counters;		/* 1: a CPU PMU driver is registered, 0: none, -1: unknown */
	unsigned int n_hugepools;
	struct mt_hugepool hugepools[MT_HUGEPAGE_SIZES];
};

int mt_sysinfo_read(struct mt_sysinfo *si);

/* MemAvailable from /proc/meminfo in bytes, or -errno. */
int64_t mt_sys_mem_available(void);

/* Path under the sysroot; returns buf. */
const char *mt_sys_path(char *buf, size_t len, const char *path);

/* First line of a file, newline stripped: 0 or -errno. */
int mt_sys_read_line(const char *path, char *buf, size_t len);

#endif
