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
	char path[] = "/tmp/memtlb-sysinfo-XXXXXX", msg[256];
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
	rep->config.events = "minor-faults";
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mt_report_write(rep, path), 0);
	assert_int_equal(mt_report_load(path, &back, msg, sizeof(msg)), 0);
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
	char msg[256];

	put(rel, data, strlen(data));
	assert_int_equal(mt_tunable_init(&t, spec, msg, sizeof(msg)), 0);
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
	char msg[256];

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
	assert_int_equal(mt_tunable_init(&t, "sysctl:kernel.lines", msg, sizeof(msg)), 0);
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
	assert_int_equal(mt_tunable_init(&t, "sysctl:kernel.huge", msg, sizeof(msg)), 0);
	assert_int_equal(mt_tunable_save(&t), -EFBIG);
	assert_false(t.have_saved);
}

/* sysctl's two spellings are one file; after a slash, dots belong to names. */
static void test_tunable_names(void **state)
{
	static struct mt_tunable a, b;
	char msg[256], want[PATH_MAX];

	(void)state;
	assert_int_equal(mt_tunable_init(&a, "sysctl:vm.swappiness", msg, sizeof(msg)), 0);
	assert_int_equal(mt_tunable_init(&b, "sysctl:vm/swappiness", msg, sizeof(msg)), 0);
	assert_string_equal(a.path, b.path);
	snprintf(want, sizeof(want), "%s/proc/sys/vm/swappiness", root);
	assert_string_equal(a.path, want);
	assert_int_equal(mt_tunable_init(&a, "sysctl:net/ipv4/conf/eth0.100/rp_filter", msg,
					 sizeof(msg)), 0);
	snprintf(want, sizeof(want), "%s/proc/sys/net/ipv4/conf/eth0.100/rp_filter", root);
	assert_string_equal(a.path, want);
	assert_int_equal(mt_tunable_init(&a, "sysctl:net.ipv4.conf.eth0.rp_filter", msg,
					 sizeof(msg)), 0);
	snprintf(want, sizeof(want), "%s/proc/sys/net/ipv4/conf/eth0/rp_filter", root);
	assert_string_equal(a.path, want);
	assert_int_equal(mt_tunable_init(&a, "sysfs:/sys/kernel//mm/x/", msg, sizeof(msg)), 0);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
