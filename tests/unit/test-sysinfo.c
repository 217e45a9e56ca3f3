// SPDX-License-Identifier: MIT
/* sysinfo: cpuid TLB decoding from known register values; system JSON round trip. */
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

#include "model/report.h"
#include "report/json.h"
#include "sys/sysinfo.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd),
		cmocka_unit_test(test_intel),
		cmocka_unit_test(test_json_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
