// SPDX-License-Identifier: MIT
/*
 * sysinfo: cpuid TLB decoding from known register values; system JSON round
 * trip; tunables saved and set under a sysroot made here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "model/report.h"
#include "report/json.h"
#include "sys/env.h"
#include "sys/sysinfo.h"
#include "sys/tunable.h"

static const struct mt_tlb *find(const struct mt_sysinfo *si, unsigned int level,
				 const char *type, const char *pages)
{
	for (unsigned int i = 0; i < si->n_tlbs; i++)
		if (si->tlbs[i].level == level && !strcmp(si->tlbs[i].type, type) &&
		    !strcmp(si->tlbs[i].pages, pages))
			return &si->tlbs[i];
	return NULL;
}

static void test_amd(void **state)
{
	/* Zen 3 as a guest reports these (Fn8000_0005/6/19 EAX, EBX). */
	const unsigned int l1[4] = { 0xff40ff40, 0xff40ff40, 0, 0 };
	const unsigned int l2[4] = { 0x48002200, 0x68004200, 0, 0 };
	const unsigned int gb[4] = { 0xf040f040, 0xf0400000, 0, 0 };
	struct mt_sysinfo si;
	const struct mt_tlb *t;

	(void)state;
	memset(&si, 0, sizeof(si));
	mt_sysinfo_tlb_amd(&si, l1, l2, gb);
	t = find(&si, 1, "data", "4K");
	assert_non_null(t);
	assert_int_equal(t->entries, 64);
	assert_int_equal(t->ways, 0);	/* 0xff: fully associative */
	t = find(&si, 2, "data", "4K");
	assert_non_null(t);
	assert_int_equal(t->entries, 2048);
	assert_int_equal(t->ways, 8);	/* code 6 */
	t = find(&si, 2, "instruction", "4K");
	assert_non_null(t);
	assert_int_equal(t->entries, 512);
	assert_int_equal(t->ways, 4);
	t = find(&si, 2, "data", "2M/4M");
	assert_non_null(t);
	assert_int_equal(t->entries, 2048);
	assert_int_equal(t->ways, 4);
	t = find(&si, 2, "instruction", "2M/4M");
	assert_non_null(t);
	assert_int_equal(t->ways, 2);
	t = find(&si, 1, "data", "1G");
	assert_non_null(t);
	assert_int_equal(t->entries, 64);
	assert_int_equal(t->ways, 0);	/* code 0xf */
	/* no L2 iTLB for 1G pages: entries 0, not listed */
	assert_null(find(&si, 2, "instruction", "1G"));
}

static void test_intel(void **state)
{
	/* leaf 0x18 subleaves: EAX, EBX (ways | page bits), ECX (sets), EDX (type, level) */
	const unsigned int dtlb[4] = { 0, 0x00040001, 16, 0x21 };
	const unsigned int stlb[4] = { 0, 0x00080003, 128, 0x43 };
	const unsigned int full[4] = { 0, 0x00080008, 1, 0x121 };
	const unsigned int none[4] = { 0, 0, 0, 0 };
	struct mt_sysinfo si;
	const struct mt_tlb *t;

	(void)state;
	memset(&si, 0, sizeof(si));
	assert_int_equal(mt_sysinfo_tlb_intel(&si, dtlb), 0);
	assert_int_equal(mt_sysinfo_tlb_intel(&si, stlb), 0);
	assert_int_equal(mt_sysinfo_tlb_intel(&si, full), 0);
	assert_int_equal(mt_sysinfo_tlb_intel(&si, none), -ENOENT);
	t = find(&si, 1, "data", "4K");
	assert_non_null(t);
	assert_int_equal(t->entries, 64);
	assert_int_equal(t->ways, 4);
	t = find(&si, 2, "unified", "4K/2M");
	assert_non_null(t);
	assert_int_equal(t->entries, 1024);
	assert_int_equal(t->ways, 8);
	t = find(&si, 1, "data", "1G");
	assert_non_null(t);
	assert_int_equal(t->entries, 8);
	assert_int_equal(t->ways, 0);
}

static void test_json_round_trip(void **state)
{
	char path[] = "/tmp/memtlb-sysinfo-XXXXXX";
	struct mt_msg msg;
	struct mt_report *rep, *back;
	struct mt_sysinfo *si, *bs;
	int fd;

	(void)state;
	assert_int_equal(mt_report_create(&rep, "stat"), 0);
	si = &rep->system;
	snprintf(si->kernel, sizeof(si->kernel), "6.1.0");
	snprintf(si->cpu_vendor, sizeof(si->cpu_vendor), "AuthenticAMD");
	snprintf(si->pmus, sizeof(si->pmus), "perf amd64_fam19h_zen3");
	snprintf(si->thp_khugepaged_defrag, sizeof(si->thp_khugepaged_defrag), "1");
	si->hypervisor = 1;
	si->hw_counters = 0;
	si->page_size = 4096;
	si->perf_event_paranoid = 2;
	si->fault_around_bytes = -1;
	si->percpu_pagelist_high_fraction = 8;
	si->khugepaged_pages_to_scan = 4096;
	si->khugepaged_scan_sleep_ms = 10000;
	si->numa_nodes = 2;
	si->n_hugepools = 1;
	si->hugepools[0] = (struct mt_hugepool){ 2048, 16, 8 };
	si->n_tlbs = 1;
	si->tlbs[0] = (struct mt_tlb){ 2, "data", "4K", 2048, 8 };
	snprintf(si->tlb_source, sizeof(si->tlb_source), "cpuid 0x80000006");
	mt_env_hv_decode(&si->env, (const unsigned int[4]){ 0, 0x4b4d564b, 0x564b4d56, 0x4d },
			 &(unsigned int){ 1u << 9 });
	si->env.cpufreq = 1;
	/* A report is untrusted: what it says is shown, its control characters not. */
	snprintf(si->env.governor, sizeof(si->env.governor), "perf\x1b[2Jormance");
	si->env.boost = -1;
	si->env.smt_active = 1;
	si->env.isolated_known = 1;
	si->env.aslr = 2;
	si->env.cmdline_known = 1;
	snprintf(si->env.cmdline, sizeof(si->env.cmdline), "nopti mitigations=off");
	snprintf(si->env.lockdown, sizeof(si->env.lockdown), "integrity");
	si->env.loadavg = 0.25;
	si->env.online_cpus = 2;
	si->env.run = (struct mt_env_run){ true, 12.5, 3, 4, -1 };
	si->env.max_ptes_none = 511;
	si->env.max_ptes_swap = -1;
	si->env.max_ptes_shared = 256;
	si->env.alloc_sleep_ms = 60000;
	si->env.thp_use_zero_page = 1;
	si->env.n_mthp = 2;
	si->env.mthp[0] = (struct mt_env_mthp){ 64, "always", "never" };
	si->env.mthp[1] = (struct mt_env_mthp){ 2048, "inherit", "inherit" };
	rep->config.events = "minor-faults";
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mt_report_write(rep, path), 0);
	assert_int_equal(mt_report_load(path, &back, &msg), 0);
	unlink(path);
	bs = &back->system;
	assert_string_equal(bs->kernel, "6.1.0");
	assert_string_equal(bs->cpu_vendor, "AuthenticAMD");
	assert_string_equal(bs->pmus, "perf amd64_fam19h_zen3");
	assert_int_equal(bs->hypervisor, 1);
	assert_int_equal(bs->hw_counters, 0);
	assert_int_equal(bs->fault_around_bytes, -1);
	assert_int_equal(bs->percpu_pagelist_high_fraction, 8);
	assert_int_equal(bs->khugepaged_pages_to_scan, 4096);
	assert_int_equal(bs->khugepaged_scan_sleep_ms, 10000);
	assert_string_equal(bs->thp_khugepaged_defrag, "1");
	assert_int_equal(bs->numa_nodes, 2);
	assert_int_equal(bs->n_hugepools, 1);
	assert_int_equal(bs->hugepools[0].total, 16);
	assert_int_equal(bs->n_tlbs, 1);
	assert_int_equal(bs->tlbs[0].entries, 2048);
	assert_int_equal(bs->tlbs[0].ways, 8);
	assert_string_equal(bs->tlb_source, "cpuid 0x80000006");
	assert_int_equal(bs->env.hv_cpuid, 1);
	assert_string_equal(bs->env.hv_signature, "KVMKVMKVM");
	assert_string_equal(bs->env.hv_vendor, "KVM");
	assert_int_equal(mt_env_kvm_feature(&bs->env, "pv_tlb_flush"), 1);
	assert_int_equal(mt_env_kvm_feature(&bs->env, "steal_time"), 0);
	assert_int_equal(bs->env.cpufreq, 1);
	assert_int_equal(bs->env.boost, -1);
	assert_string_equal(bs->env.governor, "perf?[2Jormance");
	assert_int_equal(bs->env.smt_active, 1);
	assert_int_equal(bs->env.isolated_known, 1);
	assert_int_equal(bs->env.nohz_full_known, 0);
	assert_int_equal(bs->env.aslr, 2);
	assert_string_equal(bs->env.cmdline, "nopti mitigations=off");
	assert_string_equal(bs->env.lockdown, "integrity");
	assert_true(bs->env.loadavg == 0.25);
	assert_int_equal(bs->env.online_cpus, 2);
	assert_true(bs->env.run.measured);
	assert_true(bs->env.run.steal_ms == 12.5);
	assert_int_equal(bs->env.run.nvcsw, 3);
	assert_int_equal(bs->env.run.nivcsw, 4);
	assert_int_equal(bs->env.run.migrations, -1);
	assert_int_equal(bs->env.max_ptes_none, 511);
	assert_int_equal(bs->env.max_ptes_swap, -1);
	assert_int_equal(bs->env.max_ptes_shared, 256);
	assert_int_equal(bs->env.alloc_sleep_ms, 60000);
	assert_int_equal(bs->env.thp_use_zero_page, 1);
	assert_int_equal(bs->env.n_mthp, 2);
	assert_true(bs->env.mthp[0].size_kb == 64 || bs->env.mthp[1].size_kb == 64);
	mt_report_destroy(rep);
	mt_report_destroy(back);
}

/* A sysroot of our own: MEMTLB_SYSROOT=root, files written under it. */
static char root[64];

static void put(const char *rel, const char *data, size_t len)
{
	char path[PATH_MAX], dir[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(s - path), path);
		mkdir(dir, 0755);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static size_t get(const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, len - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
	return (size_t)n;
}

static int tun_setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/memtlb-tun-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	setenv("MEMTLB_SYSROOT", root, 1);
	return 0;
}

static int tun_teardown(void **state)
{
	char cmd[128];

	(void)state;
	unsetenv("MEMTLB_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

static void saved_of(const char *spec, const char *rel, const char *data, char *out)
{
	struct mt_tunable t;
	struct mt_msg msg;

	put(rel, data, strlen(data));
	assert_int_equal(mt_tunable_init(&t, spec, &msg), 0);
	assert_int_equal(mt_tunable_save(&t), 0);
	strcpy(out, t.saved);
}

/* Only a THP-style choice gives its bracketed word; core_pattern is kept whole. */
static void test_tunable_choice(void **state)
{
	static char v[MT_TUNABLE_MAX];

	(void)state;
	saved_of("sysfs:/sys/kernel/mm/transparent_hugepage/enabled",
		 "/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n", v);
	assert_string_equal(v, "madvise");
	saved_of("sysfs:/sys/kernel/mm/transparent_hugepage/defrag",
		 "/sys/kernel/mm/transparent_hugepage/defrag",
		 "always defer defer+madvise [madvise] never\n", v);
	assert_string_equal(v, "madvise");
	saved_of("sysctl:kernel.core_pattern", "/proc/sys/kernel/core_pattern",
		 "|/usr/lib/x [%p] %e\n", v);
	assert_string_equal(v, "|/usr/lib/x [%p] %e\n");
	saved_of("sysctl:kernel.a", "/proc/sys/kernel/a", "[a] [b]\n", v);
	assert_string_equal(v, "[a] [b]\n");
	saved_of("sysctl:kernel.b", "/proc/sys/kernel/b", "x [y\n", v);
	assert_string_equal(v, "x [y\n");
}

/* Exact bytes: a long value and a multi-line file are saved and set back whole. */
static void test_tunable_exact(void **state)
{
	static char big[MT_TUNABLE_MAX + 16], back[MT_TUNABLE_MAX + 16];
	static struct mt_tunable t;
	struct mt_msg msg;

	(void)state;
	memset(big, 'x', 3000);
	big[3000] = '\n';
	big[3001] = '\0';
	saved_of("sysctl:kernel.long", "/proc/sys/kernel/long", big, back);
	assert_string_equal(back, big);
	saved_of("sysctl:kernel.lines", "/proc/sys/kernel/lines", "one\ntwo [2]\n\nthree\n",
		 back);
	assert_string_equal(back, "one\ntwo [2]\n\nthree\n");
	/* set writes what it is given, so the saved value restores the file exactly */
	assert_int_equal(mt_tunable_init(&t, "sysctl:kernel.lines", &msg), 0);
	assert_int_equal(mt_tunable_save(&t), 0);
	assert_int_equal(mt_tunable_set(&t, "x"), 0);
	get("/proc/sys/kernel/lines", back, sizeof(back));
	assert_string_equal(back, "x");
	assert_int_equal(mt_tunable_set(&t, t.saved), 0);
	get("/proc/sys/kernel/lines", back, sizeof(back));
	assert_string_equal(back, "one\ntwo [2]\n\nthree\n");
	/* a page or more is refused, not cut */
	memset(big, 'y', MT_TUNABLE_MAX);
	put("/proc/sys/kernel/huge", big, MT_TUNABLE_MAX);
	assert_int_equal(mt_tunable_init(&t, "sysctl:kernel.huge", &msg), 0);
	assert_int_equal(mt_tunable_save(&t), -EFBIG);
	assert_false(t.have_saved);
}

/* sysctl's two spellings are one file; after a slash, dots belong to names. */
static void test_tunable_names(void **state)
{
	static struct mt_tunable a, b;
	char want[PATH_MAX];
	struct mt_msg msg;

	(void)state;
	assert_int_equal(mt_tunable_init(&a, "sysctl:vm.swappiness", &msg), 0);
	assert_int_equal(mt_tunable_init(&b, "sysctl:vm/swappiness", &msg), 0);
	assert_string_equal(a.path, b.path);
	snprintf(want, sizeof(want), "%s/proc/sys/vm/swappiness", root);
	assert_string_equal(a.path, want);
	assert_int_equal(mt_tunable_init(&a, "sysctl:net/ipv4/conf/eth0.100/rp_filter", &msg), 0);
	snprintf(want, sizeof(want), "%s/proc/sys/net/ipv4/conf/eth0.100/rp_filter", root);
	assert_string_equal(a.path, want);
	assert_int_equal(mt_tunable_init(&a, "sysctl:net.ipv4.conf.eth0.rp_filter", &msg), 0);
	snprintf(want, sizeof(want), "%s/proc/sys/net/ipv4/conf/eth0/rp_filter", root);
	assert_string_equal(a.path, want);
	assert_int_equal(mt_tunable_init(&a, "sysfs:/sys/kernel//mm/x/", &msg), 0);
	snprintf(want, sizeof(want), "%s/sys/kernel/mm/x", root);
	assert_string_equal(a.path, want);
}

/* The cgroup fixture: 300 MiB at memtlb.slice (10 in use), "max" below it. */
static void test_mem_limit(void **state)
{
	const char *data = getenv("MEMTLB_TEST_DATA");
	struct mt_mem_limit lim;
	char path[PATH_MAX];

	(void)state;
	if (!data)
		skip();
	snprintf(path, sizeof(path), "%s/sysroot-cgroup", data);
	setenv("MEMTLB_SYSROOT", path, 1);
	assert_int_equal(mt_sys_mem_limit(&lim), 0);
	assert_int_equal(lim.max, 300 << 20);
	assert_int_equal(lim.current, 10 << 20);
	assert_int_equal(lim.available, 290 << 20);
	assert_string_equal(lim.path, "/sys/fs/cgroup/memtlb.slice");
	assert_int_equal(mt_sys_mem_available(), 23068672ll * 1024);
	snprintf(path, sizeof(path), "%s/sysroot-pmu", data);
	setenv("MEMTLB_SYSROOT", path, 1);
	assert_int_equal(mt_sys_mem_limit(&lim), -ENOENT);	/* no /proc/self/cgroup */
	unsetenv("MEMTLB_SYSROOT");
}

/* cpuid 0x40000000 as KVM answers it: "KVMK" "VMKV" "M\0\0\0" in EBX ECX EDX. */
static void test_hv_kvm(void **state)
{
	const unsigned int sig[4] = { 0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d };
	/* This VM's 0x40000001 EAX: PV TLB flush (9) and steal time (5) among others. */
	const unsigned int feat = 0x01007efb;
	struct mt_env e;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(mt_env_kvm_feature(&e, "pv_tlb_flush"), -1);
	mt_env_hv_decode(&e, sig, &feat);
	assert_int_equal(e.hv_cpuid, 1);
	assert_string_equal(e.hv_signature, "KVMKVMKVM");
	assert_string_equal(e.hv_vendor, "KVM");
	assert_int_equal(mt_env_kvm_feature(&e, "pv_tlb_flush"), 1);
	assert_int_equal(mt_env_kvm_feature(&e, "steal_time"), 1);
	assert_int_equal(mt_env_kvm_feature(&e, "mmu_op"), 0);		/* bit 2 */
	assert_int_equal(mt_env_kvm_feature(&e, "clocksource_stable"), 1);	/* bit 24 */
	assert_int_equal(mt_env_kvm_feature(&e, "no_such_bit"), -1);
	/* Without PV TLB flush: bit 9 clear. */
	mt_env_hv_decode(&e, sig, &(unsigned int){ feat & ~(1u << 9) });
	assert_int_equal(mt_env_kvm_feature(&e, "pv_tlb_flush"), 0);
	assert_int_equal(mt_env_kvm_feature(&e, "steal_time"), 1);
}

static void test_hv_other(void **state)
{
	/* "Microsoft Hv": no KVM features read. */
	const unsigned int hv[4] = { 0x4000000b, 0x7263694d, 0x666f736f, 0x76482074 };
	/* Bytes a hypervisor chose: kept printable in reports and terminals. */
	const unsigned int odd[4] = { 0, 0x1b5b324a, 0x41414141, 0x7f414141 };
	struct mt_env e;

	(void)state;
	memset(&e, 0, sizeof(e));
	mt_env_hv_decode(&e, hv, NULL);
	assert_string_equal(e.hv_signature, "Microsoft Hv");
	assert_string_equal(e.hv_vendor, "Hyper-V");
	assert_int_equal(mt_env_kvm_feature(&e, "pv_tlb_flush"), -1);
	mt_env_hv_decode(&e, odd, NULL);
	assert_string_equal(e.hv_signature, "J2[?AAAAAAA?");
	assert_string_equal(e.hv_vendor, "");
}

static bool has_warning(const struct mt_env_warning *w, unsigned int n, const char *id)
{
	for (unsigned int i = 0; i < n && i < MT_ENV_WARN_MAX; i++)
		if (!strcmp(w[i].id, id))
			return true;
	return false;
}

/* The check on values set here: what it warns about, and that unknown is not a warning. */
static void test_check(void **state)
{
	struct mt_env_check c = { .steal_ms = -1, .sample_s = 1, .thp_matters = true };
	struct mt_env_warning w[MT_ENV_WARN_MAX];
	struct mt_sysinfo si;
	struct mt_env *e = &si.env;
	unsigned int n;

	(void)state;
	memset(&si, 0, sizeof(si));
	e->cpufreq = e->boost = e->smt_active = e->aslr = e->online_cpus = -1;
	e->loadavg = -1;
	assert_int_equal(mt_sysinfo_check(&si, &c, w, MT_ENV_WARN_MAX), 0);

	snprintf(e->governor, sizeof(e->governor), "powersave");
	e->boost = 1;
	snprintf(e->boost_source, sizeof(e->boost_source), "intel_pstate/no_turbo");
	e->aslr = 2;
	e->smt_active = 1;
	e->isolated_known = 1;
	e->loadavg = 1.01;
	e->online_cpus = 2;
	c.steal_ms = 30;
	snprintf(si.thp_enabled, sizeof(si.thp_enabled), "always");
	n = mt_sysinfo_check(&si, &c, w, MT_ENV_WARN_MAX);
	assert_int_equal(n, 8);
	assert_true(has_warning(w, n, "governor"));
	assert_true(has_warning(w, n, "boost"));
	assert_string_equal(w[1].fix, "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
	assert_string_equal(w[2].id, "aslr");
	assert_string_equal(w[2].fix, "echo 0 > /proc/sys/kernel/randomize_va_space");
	assert_true(has_warning(w, n, "smt"));
	assert_true(has_warning(w, n, "isolcpus"));
	assert_true(has_warning(w, n, "steal"));
	assert_true(has_warning(w, n, "load"));
	assert_true(has_warning(w, n, "thp"));
	for (unsigned int i = 0; i < n; i++)	/* "id: text" fits 80 columns */
		assert_true(strlen(w[i].id) + 2 + strlen(w[i].text) <= 80);
	/* An mTHP size set to always: its own warning, its own fix. */
	e->n_mthp = 2;
	e->mthp[0] = (struct mt_env_mthp){ 16, "never", "never" };
	e->mthp[1] = (struct mt_env_mthp){ 64, "always", "never" };
	n = mt_sysinfo_check(&si, &c, w, MT_ENV_WARN_MAX);
	assert_int_equal(n, 9);
	assert_string_equal(w[8].id, "mthp");
	assert_string_equal(w[8].fix,
			    "echo never > /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled");
	e->n_mthp = 0;
	/* max bounds what is written, not what is counted. */
	assert_int_equal(mt_sysinfo_check(&si, &c, w, 2), 8);

	snprintf(e->governor, sizeof(e->governor), "performance");
	e->boost = 0;
	e->aslr = 0;
	e->smt_active = 0;
	snprintf(e->isolated, sizeof(e->isolated), "1");
	e->loadavg = 1.0;	/* 0.5 per CPU: not above */
	c.steal_ms = 0;
	c.thp_matters = false;	/* --pages base: THP's policy does not decide */
	assert_int_equal(mt_sysinfo_check(&si, &c, w, MT_ENV_WARN_MAX), 0);
}

/* A fixture's counters are fixed: no steal, no migration; a directory instead: unreadable. */
static void test_run(void **state)
{
	const char *data = getenv("MEMTLB_TEST_DATA");
	struct mt_env_run run = { 0 };
	struct mt_env_mark m;
	char path[PATH_MAX];

	(void)state;
	if (!data)
		skip();
	snprintf(path, sizeof(path), "%s/sysroot-env-noisy", data);
	setenv("MEMTLB_SYSROOT", path, 1);
	mt_env_mark(&m);
	assert_int_equal(m.steal_ticks, 800);
	assert_int_equal(m.migrations, 5);
	assert_true(m.nvcsw >= 0);
	mt_env_run_add(&run, &m);
	assert_true(run.measured);
	assert_true(run.steal_ms == 0);
	assert_int_equal(run.migrations, 0);
	assert_true(run.nvcsw >= 0 && run.nivcsw >= 0);
	mt_env_run_add(&run, &m);	/* a second part adds up */
	assert_true(run.steal_ms == 0);

	snprintf(path, sizeof(path), "%s/sysroot-env-unreadable", data);
	setenv("MEMTLB_SYSROOT", path, 1);
	mt_env_mark(&m);
	assert_int_equal(m.steal_ticks, -1);
	assert_int_equal(m.migrations, -1);
	mt_env_run_add(&run, &m);	/* one unreadable part: the whole figure absent */
	assert_true(run.steal_ms < 0);
	assert_int_equal(run.migrations, -1);
	assert_true(mt_env_steal_since(&m) < 0);
	unsetenv("MEMTLB_SYSROOT");
}

/* Each source present (noisy, quiet), absent (pmu) and unreadable. */
static void test_env_fixtures(void **state)
{
	const char *data = getenv("MEMTLB_TEST_DATA");
	char path[PATH_MAX];
	struct mt_env e;

	(void)state;
	if (!data)
		skip();
	snprintf(path, sizeof(path), "%s/sysroot-env-noisy", data);
	setenv("MEMTLB_SYSROOT", path, 1);
	mt_env_read(&e);
	assert_int_equal(e.hv_cpuid, -1);	/* a fixture: cpuid not read */
	assert_int_equal(e.cpufreq, 1);
	assert_string_equal(e.governor, "mixed");
	assert_int_equal(e.boost, 1);
	assert_string_equal(e.boost_source, "cpufreq/boost");
	assert_int_equal(e.smt_active, 1);
	assert_int_equal(e.isolated_known, 1);
	assert_string_equal(e.isolated, "");
	assert_int_equal(e.nohz_full_known, 0);
	assert_int_equal(e.aslr, 2);
	assert_int_equal(e.cmdline_known, 1);
	/* After "--" the words are init's, not the kernel's. */
	assert_string_equal(e.cmdline, "nopti mitigations=off transparent_hugepage=always");
	assert_string_equal(e.lockdown, "integrity");
	assert_true(e.loadavg == 3.5);
	assert_int_equal(e.online_cpus, 4);
	/* Smallest first, whatever readdir's order; 8 kB is shmem's alone (6.18). */
	assert_int_equal(e.n_mthp, 4);
	assert_int_equal(e.mthp[0].size_kb, 8);
	assert_string_equal(e.mthp[0].enabled, "");
	assert_string_equal(e.mthp[0].shmem_enabled, "never");
	assert_int_equal(e.mthp[1].size_kb, 16);
	assert_string_equal(e.mthp[1].enabled, "never");
	assert_string_equal(e.mthp[1].shmem_enabled, "");
	assert_int_equal(e.mthp[2].size_kb, 64);
	assert_string_equal(e.mthp[2].enabled, "always");
	assert_string_equal(e.mthp[2].shmem_enabled, "within_size");
	assert_int_equal(e.mthp[3].size_kb, 2048);
	assert_string_equal(e.mthp[3].enabled, "inherit");
	assert_int_equal(e.max_ptes_none, 511);
	assert_int_equal(e.thp_use_zero_page, 1);

	snprintf(path, sizeof(path), "%s/sysroot-env-quiet", data);
	setenv("MEMTLB_SYSROOT", path, 1);
	mt_env_read(&e);
	assert_string_equal(e.governor, "performance");
	assert_int_equal(e.boost, 0);
	assert_string_equal(e.boost_source, "intel_pstate/no_turbo");
	assert_int_equal(e.smt_active, 0);
	assert_string_equal(e.isolated, "1-3");
	assert_string_equal(e.nohz_full, "1-3");
	assert_int_equal(e.aslr, 0);
	assert_string_equal(e.cmdline, "isolcpus=1-3 nohz_full=1-3 nopcid");
	assert_string_equal(e.lockdown, "none");

	snprintf(path, sizeof(path), "%s/sysroot-pmu", data);
	setenv("MEMTLB_SYSROOT", path, 1);
	mt_env_read(&e);
	assert_int_equal(e.cpufreq, 0);
	assert_string_equal(e.governor, "");
	assert_int_equal(e.boost, -1);
	assert_int_equal(e.smt_active, -1);
	assert_int_equal(e.isolated_known, 0);
	assert_int_equal(e.aslr, -1);
	assert_int_equal(e.cmdline_known, 0);
	assert_string_equal(e.lockdown, "");
	assert_true(e.loadavg < 0);

	snprintf(path, sizeof(path), "%s/sysroot-env-unreadable", data);
	setenv("MEMTLB_SYSROOT", path, 1);
	mt_env_read(&e);
	assert_int_equal(e.cpufreq, 1);		/* a policy, its governor unreadable */
	assert_string_equal(e.governor, "");
	assert_int_equal(e.boost, -1);
	assert_int_equal(e.smt_active, -1);
	assert_int_equal(e.isolated_known, 0);
	assert_int_equal(e.nohz_full_known, 0);
	assert_int_equal(e.aslr, -1);
	assert_int_equal(e.cmdline_known, 0);
	assert_string_equal(e.lockdown, "");
	assert_true(e.loadavg < 0);
	assert_int_equal(e.online_cpus, -1);
	unsetenv("MEMTLB_SYSROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd),
		cmocka_unit_test(test_intel),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test_setup_teardown(test_tunable_choice, tun_setup, tun_teardown),
		cmocka_unit_test_setup_teardown(test_tunable_exact, tun_setup, tun_teardown),
		cmocka_unit_test_setup_teardown(test_tunable_names, tun_setup, tun_teardown),
		cmocka_unit_test(test_mem_limit),
		cmocka_unit_test(test_hv_kvm),
		cmocka_unit_test(test_hv_other),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_env_fixtures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
