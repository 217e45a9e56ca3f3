// SPDX-License-Identifier: MIT
/* memtlb sysinfo: the machine, as every report records it under "system". */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "counters/counters.h"
#include "measure/measure.h"
#include "model/report.h"
#include "report/json.h"
#include "sys/sysinfo.h"

static const char cmdopts_s[] = "+:h";
static const struct option cmdopts[] = {
	{ "json", no_argument, NULL, MT_OPT_FIRST_FREE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb sysinfo [--json]\n"
	       "Show what memtlb records of this machine in every report (\"system\").\n\n"
	       "      --json               the same object as a report's \"system\"\n"
	       "  -h, --help               this text\n");
}

static void print_long(const char *what, long v, const char *unit)
{
	if (v < 0)
		printf("%-30s unreadable\n", what);
	else
		printf("%-30s %ld%s\n", what, v, unit);
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static void print_text(const struct mt_sysinfo *si)
{
	printf("%-30s %s\n", "kernel", or_unknown(si->kernel));
	printf("%-30s %s\n", "kernel version", or_unknown(si->kernel_version));
	printf("%-30s %s\n", "host", or_unknown(si->host));
	printf("%-30s %s\n", "machine", or_unknown(si->machine));
	printf("%-30s %s (%s)\n", "cpu", or_unknown(si->cpu), or_unknown(si->cpu_vendor));
	printf("%-30s %s\n", "hypervisor", si->hypervisor < 0 ? "unknown"
					  : si->hypervisor ? "yes (cpuinfo flag)" : "no");
	printf("%-30s %s%s%s%s\n", "cpu emulated", si->emulation.emulated < 0 ? "unknown" :
	       si->emulation.emulated ? "yes" : "no", si->emulation.evidence[0] ? " (" : "",
	       si->emulation.evidence, si->emulation.evidence[0] ? ")" : "");
	printf("%-30s %s\n", "libpfm4 core PMU", si->pmu[0] ? si->pmu : "none");
	printf("%-30s %s\n", "libpfm4 PMUs present", or_unknown(si->pmus));
	printf("%-30s %s\n", "kernel PMU driver", si->hw_counters < 0 ? "unknown"
				 : si->hw_counters ? "yes" : "no (hardware events cannot count)");
	printf("%-30s %d\n", "kernel.perf_event_paranoid", si->perf_event_paranoid);
	print_long("page size", si->page_size, " bytes");
	printf("%-30s %s\n", "THP enabled", or_unknown(si->thp_enabled));
	printf("%-30s %s\n", "THP defrag", or_unknown(si->thp_defrag));
	printf("%-30s %s\n", "THP shmem_enabled", or_unknown(si->thp_shmem_enabled));
	printf("%-30s %s\n", "khugepaged defrag", or_unknown(si->thp_khugepaged_defrag));
	print_long("khugepaged pages_to_scan", si->khugepaged_pages_to_scan, "");
	print_long("khugepaged scan_sleep", si->khugepaged_scan_sleep_ms, " ms");
	for (unsigned int i = 0; i < si->n_hugepools; i++) {
		char what[40];

		snprintf(what, sizeof(what), "hugetlb %llu kB pages",
			 (unsigned long long)si->hugepools[i].size_kb);
		printf("%-30s %ld total, %ld free\n", what, si->hugepools[i].total,
		       si->hugepools[i].free);
	}
	print_long("fault_around_bytes", si->fault_around_bytes, "");
	print_long("vm.percpu_pagelist_high_fraction", si->percpu_pagelist_high_fraction, "");
	if (si->numa_nodes < 0)
		printf("%-30s unknown\n", "NUMA nodes");
	else
		printf("%-30s %d\n", "NUMA nodes", si->numa_nodes);
	if (!si->n_tlbs)
		printf("%-30s not reported by this CPU\n", "TLBs (cpuid)");
	for (unsigned int i = 0; i < si->n_tlbs; i++) {
		const struct mt_tlb *t = &si->tlbs[i];
		char what[40], ways[16];

		snprintf(what, sizeof(what), "TLB L%u %s %s", t->level, t->type, t->pages);
		if (t->ways)
			snprintf(ways, sizeof(ways), "%u-way", t->ways);
		else
			snprintf(ways, sizeof(ways), "fully assoc.");
		printf("%-30s %u entries, %s (%s)\n", what, t->entries, ways, si->tlb_source);
	}
}

static int cmd_sysinfo(int argc, char *argv[])
{
	struct mt_sysinfo si;
	bool json = false;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, cmdopts_s, cmdopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case MT_OPT_FIRST_FREE:
			json = true;
			break;
		default:
			return mt_cli_getopt_error("sysinfo", c, argv);
		}
	}
	if (optind < argc) {
		mt_err("sysinfo: unexpected argument '%s'", argv[optind]);
		return MT_EXIT_USAGE;
	}
	mt_measure_sysinfo(&si);
	if (json) {
		if (mt_sysinfo_write_json(&si, stdout)) {
			mt_err("sysinfo: cannot write JSON");
			return MT_EXIT_FAILURE;
		}
		return MT_EXIT_OK;
	}
	print_text(&si);
	return MT_EXIT_OK;
}

const struct mt_cmd mt_cmd_sysinfo = {
	.name = "sysinfo",
	.fn = cmd_sysinfo,
	.help = "show the machine as reports record it",
};
