/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_SYSINFO_H
#define MEMTLB_SYS_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "sys/env.h"
#include "sys/emulation.h"
#include "sys/sys.h"

#define MT_HUGEPAGE_SIZES 4
#define MT_TLB_MAX 24

/* One TLB the CPU describes through cpuid. */
struct mt_tlb {
	unsigned int level;	/* 1, 2 */
	char type[12];		/* "data", "instruction", "unified", "load", "store" */
	char pages[24];		/* "4K", "2M/4M", "1G", "4K/2M/4M/1G" */
	unsigned int entries;
	unsigned int ways;	/* 0: fully associative */
};

/* One cache of CPU 0, as the kernel describes it (sysfs cpu0/cache/index*). */
#define MT_CACHE_MAX 8

struct mt_cache {
	unsigned int level;	/* 1, 2, 3 */
	char type[12];		/* "data", "instruction", "unified" */
	uint64_t size;		/* bytes */
	unsigned int ways;	/* 0: unknown */
};

/* Whether t is a cache type memtlb knows: "data", "instruction", "unified". */
bool mt_sysinfo_cache_type_known(const char *t);

/* The cache's short name: "L1d", "L1i", "L2" (unified). */
void mt_sysinfo_cache_name(const struct mt_cache *c, char *buf, size_t len);

struct mt_hugepool {
	uint64_t size_kb;
	long total;
	long free;
};

/*
 * How a debugfs value was read. Under kernel lockdown (integrity or
 * confidentiality) debugfs refuses even root (EPERM): the value is then
 * unknown, neither an error nor a guess.
 */
enum mt_sysinfo_state {
	MT_SYSINFO_READ,
	MT_SYSINFO_ABSENT,		/* no such file: debugfs not mounted, or no knob */
	MT_SYSINFO_LOCKDOWN,		/* EPERM, and lockdown shows a mode other than none */
	MT_SYSINFO_UNREADABLE,		/* any other error (EACCES: not root) */
};

/* "read", "absent", "unknown (lockdown)", "unreadable". */
const char *mt_sysinfo_state_name(int state);
/* The state so named, or MT_SYSINFO_UNREADABLE. */
int mt_sysinfo_state_parse(const char *name);

/*
 * The state of a read that returned err (0 or -errno), given the first
 * line of /sys/kernel/security/lockdown ("none [integrity] confidentiality",
 * NULL where unreadable).
 */
int mt_sysinfo_debugfs_state(int err, const char *lockdown);

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
	char cpu_vendor[16];	/* cpuinfo vendor_id */
	char pmus[256];		/* libpfm4's present PMUs, space-separated */
	int hypervisor;		/* cpuinfo flags has "hypervisor": 1/0, -1 unknown */
	int pv_tlb_flush;	/* KVM's paravirtual TLB flush (sys/env): 1/0, -1 unknown */
	char thp_khugepaged_defrag[8];
	long khugepaged_pages_to_scan;		/* -1 unreadable */
	long khugepaged_scan_sleep_ms;		/* -1 unreadable */
	long fault_around_bytes;		/* debugfs; -1 unreadable */
	int fault_around_state;			/* enum mt_sysinfo_state */
	long tlb_flush_ceiling;			/* debugfs x86/tlb_single_page_flush_ceiling; -1 */
	int tlb_flush_ceiling_state;		/* enum mt_sysinfo_state */
	char lockdown[16];			/* securityfs's mode in brackets, "" unknown */
	long percpu_pagelist_high_fraction;	/* vm sysctl; -1 unreadable */
	int numa_nodes;				/* online nodes; -1 unknown */
	unsigned int n_tlbs;
	struct mt_tlb tlbs[MT_TLB_MAX];
	char tlb_source[24];	/* "cpuid 0x80000005/6", "cpuid 0x18", "" */
	unsigned int n_caches;
	struct mt_cache caches[MT_CACHE_MAX];
	struct mt_env env;	/* comparability: hypervisor, cpufreq, SMT, ... */
	struct mt_emulation emulation;	/* qemu TCG or not (sys/emulation) */
};

/* TLBs from raw cpuid registers (pure, for tests): appended to si->tlbs. */
void mt_sysinfo_tlb_amd(struct mt_sysinfo *si, const unsigned int l1[4],
			const unsigned int l2[4], const unsigned int gb[4]);
/* One subleaf of Intel's leaf 0x18 (eax..edx): 0, or -ENOENT for no TLB. */
int mt_sysinfo_tlb_intel(struct mt_sysinfo *si, const unsigned int r[4]);

int mt_sysinfo_read(struct mt_sysinfo *si);

/*
 * The warnings for si (its env and THP), at most max into w. Returns how
 * many were found (may exceed max: the rest are dropped).
 */
unsigned int mt_sysinfo_check(const struct mt_sysinfo *si, const struct mt_env_check *c,
			      struct mt_env_warning *w, unsigned int max);


/* MemAvailable from /proc/meminfo in bytes, or -errno. */
int64_t mt_sys_mem_available(void);

/* What this process's cgroup (v2 or v1) still lets it use, from the tightest level. */
struct mt_mem_limit {
	int64_t available;	/* the limit - usage, bytes (0 when at or over) */
	int64_t max;		/* that level's limit */
	int64_t current;	/* its usage */
	char knob[48];		/* the limit's file: "memory.max", "memory.high", ... */
	char path[512];		/* its directory: "/sys/fs/cgroup/user.slice/..." */
};

/*
 * The cgroup's memory limit: /proc/self/cgroup's v2 path, then memory.max
 * and memory.high against memory.current, of it and every ancestor under
 * /sys/fs/cgroup; its v1
 * memory controller's path, then memory.limit_in_bytes and
 * memory.usage_in_bytes up /sys/fs/cgroup/memory (all under
 * MEMTLB_SYSROOT). 0 with lim (the tightest level of either), -ENOENT where
 * nothing limits ("max" or v1's "no limit" all the way up), or -errno.
 */
int mt_sys_mem_limit(struct mt_mem_limit *lim);

/*
 * The hugetlb controller's limit for huge pages of size_kb, as
 * mt_sys_mem_limit: hugetlb.<SIZE>.max against .current (v2), or
 * .limit_in_bytes against .usage_in_bytes (v1), up every ancestor. A
 * fault past it is SIGBUS. 0 with lim, -ENOENT where nothing limits.
 */
int mt_sys_hugetlb_limit(uint64_t size_kb, struct mt_mem_limit *lim);

/*
 * The memory a run may use now: the tighter of MemAvailable and
 * mt_sys_mem_limit's headroom, bytes, or -errno when neither is known.
 * *by_cgroup: the cgroup's is the tighter (then lim, when not NULL, has it).
 */
int64_t mt_sys_mem_headroom(struct mt_mem_limit *lim, bool *by_cgroup);




#endif
