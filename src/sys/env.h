/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_ENV_H
#define MEMTLB_SYS_ENV_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What decides whether two numbers can be compared: the hypervisor and its
 * paravirtual features, frequency scaling, SMT, isolation, ASLR, the
 * kernel command line entries that change translation, lockdown, the load.
 * Every field is read (under MEMTLB_SYSROOT) or empty/-1: never guessed.
 */

#define MT_ENV_KVM_FEATURES 18

/* KVM's paravirtual feature bits, cpuid 0x40000001 EAX (Linux's kvm_para.h). */
struct mt_env_kvm_feature {
	const char *name;	/* "pv_tlb_flush" */
	unsigned int bit;
};

extern const struct mt_env_kvm_feature mt_env_kvm_features[MT_ENV_KVM_FEATURES];

/* What happened to the measuring task and its CPUs over a run. */
struct mt_env_run {
	bool measured;		/* false: no run yet (sysinfo) */
	double steal_ms;	/* /proc/stat cpu line, all CPUs; < 0 unreadable */
	long nvcsw, nivcsw;	/* getrusage: this process, threads included */
	long migrations;	/* /proc/self/sched se.nr_migrations; -1 unreadable */
};

/* A point in time for mt_env_run_add: the counters above, read. */
struct mt_env_mark {
	long long steal_ticks;	/* -1 unreadable */
	long nvcsw, nivcsw;
	long migrations;
};

#define MT_ENV_MTHP_MAX 24

/*
 * One multi-size THP (mTHP) size the kernel offers: a hugepages-<kb>kB
 * directory. A size may have one setting and not the other: 6.18 offers
 * 8 kB to shmem only (anon folios start at order 2), so its directory has
 * shmem_enabled and no enabled. "" where the file is absent or unreadable.
 */
struct mt_env_mthp {
	unsigned int size_kb;
	char enabled[12];	/* anon: "always", "inherit", "madvise", "never" */
	char shmem_enabled[12];	/* shmem: those, "within_size", "advise" */
};

struct mt_env {
	int hv_cpuid;		/* cpuid's hypervisor leaf: 1 read, 0 none, -1 not read */
	char hv_signature[13];	/* cpuid 0x40000000 EBX ECX EDX, "KVMKVMKVM" */
	char hv_vendor[16];	/* "KVM", "Hyper-V", ... or "" */
	int kvm_features_known;	/* 1: hv_features is KVM's 0x40000001 EAX */
	unsigned int kvm_features;
	int cpufreq;		/* a cpufreq policy exists: 1/0, -1 unreadable */
	char governor[32];	/* "performance", "mixed", "" unknown */
	int boost;		/* 1 on, 0 off, -1 unknown */
	char boost_source[32];	/* "cpufreq/boost", "intel_pstate/no_turbo", "" */
	int smt_active;		/* -1 unknown */
	int isolated_known;	/* 1 read */
	char isolated[64];	/* cpu list, "" none */
	int nohz_full_known;
	char nohz_full[64];
	int aslr;		/* kernel.randomize_va_space; -1 unknown */
	int cmdline_known;
	char cmdline[512];	/* translation entries of /proc/cmdline, space-separated */
	char lockdown[24];	/* "none", "integrity", "confidentiality", "" unknown */
	double loadavg;		/* 1-minute load average at start; < 0 unknown */
	int online_cpus;	/* -1 unknown */
	/* khugepaged's collapse limits and THP's zero page; -1 unreadable. */
	long max_ptes_none, max_ptes_swap, max_ptes_shared, alloc_sleep_ms;
	int thp_use_zero_page;
	unsigned int n_mthp;
	struct mt_env_mthp mthp[MT_ENV_MTHP_MAX];	/* by size, smallest first */
	struct mt_env_run run;
};

/*
 * Hypervisor leaf from raw cpuid registers (pure, for tests): sig is
 * 0x40000000's EAX EBX ECX EDX; kvm, when not NULL, is 0x40000001's EAX
 * of the KVM leaf.
 */
void mt_env_hv_decode(struct mt_env *e, const unsigned int sig[4], const unsigned int *kvm);

/* KVM feature named name (mt_env_kvm_features): 1, 0, or -1 unknown. */
int mt_env_kvm_feature(const struct mt_env *e, const char *name);

/* Every field of e read from this machine; always 0. */
int mt_env_read(struct mt_env *e);

/* Steal, context switches and migrations now: 0 (fields -1 when unreadable). */
int mt_env_mark(struct mt_env_mark *m);

/* The change from m to now added to run (a run made of several parts). */
void mt_env_run_add(struct mt_env_run *run, const struct mt_env_mark *m);

/* Steal time of all CPUs since m, in ms: >= 0, or -1 unreadable. */
double mt_env_steal_since(const struct mt_env_mark *m);

#define MT_ENV_WARN_MAX 16

/* One thing that makes numbers noisy, and the command that fixes it. */
struct mt_env_warning {
	char id[16];		/* "aslr", "smt", ...: short, stable */
	char text[96];		/* what was seen */
	char fix[96];		/* a command or a boot option, "" none */
};

struct mt_env_check {
	double steal_ms;	/* steal over a sample; < 0 not sampled */
	double sample_s;	/* its length */
	bool thp_matters;	/* the run lets THP policy decide its pages */
};


#endif
