// SPDX-License-Identifier: MIT
/* memtlb sysinfo: the machine, as every report records it under "system". */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "counters/counters.h"
#include "measure/measure.h"
#include "model/report.h"
#include "model/size.h"
#include "cli/sysinfo.h"
#include "report/cells.h"
#include "report/json.h"
#include "sys/env.h"
#include "sys/sysinfo.h"

static const char cmdopts_s[] = "+:h";
static const struct option cmdopts[] = {
	{ "json", no_argument, NULL, MT_OPT_FIRST_FREE },
	{ "check", no_argument, NULL, MT_OPT_FIRST_FREE + 1 },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb sysinfo [--json | --check]\n"
	       "Show what memtlb records of this machine in every report (\"system\").\n\n"
	       "      --json               the same object as a report's \"system\"\n"
	       "      --check              warn about what makes numbers noisy, with the\n"
	       "                           fix; exit 1 when it warns (takes 1 s)\n"
	       "  -h, --help               this text\n");
}

static void print_long(const char *what, long v, const char *unit)
{
	if (v < 0)
		printf("%-30s unreadable\n", what);
	else
		printf("%-30s %ld%s\n", what, v, unit);
}

/* What lockdown hides is unknown, not unreadable; never a guessed default. */
static void print_debugfs(const char *what, long v, int state)
{
	if (state == MT_SYSINFO_READ && v >= 0)
		printf("%-30s %ld\n", what, v);
	else if (state == MT_SYSINFO_LOCKDOWN)
		printf("%-30s unknown (lockdown)\n", what);
	else if (state == MT_SYSINFO_ABSENT)
		printf("%-30s unreadable (absent: debugfs not mounted?)\n", what);
	else
		printf("%-30s unreadable\n", what);
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static const char *tri(int v, const char *yes, const char *no, const char *unknown)
{
	return v < 0 ? unknown : v ? yes : no;
}

/* Space-separated words from column 32, wrapped at 80 columns. */
/*
 * One "what  value" line. The value comes from /proc/cpuinfo, sysfs or a
 * fixture tree: untrusted, every control byte escaped on its way out.
 */
static void row(const char *what, const char *value)
{
	char safe[MT_SAFE_MAX];

	printf("%-30s %s\n", what, mt_cell_safe(safe, sizeof(safe), value));
}

static void print_words(const char *what, const char *words)
{
	char buf[512], *tok, *save;
	int col = 0;

	mt_cell_safe(buf, sizeof(buf), words);
	printf("%-30s", what);
	col = 30;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int n = (int)strlen(tok);

		if (col > 30 && col + 1 + n > 80) {
			printf("\n%-30s", "");
			col = 30;
		}
		printf(" %s", tok);
		col += 1 + n;
	}
	printf("\n");
}

static void print_env(const struct mt_env *e)
{
	const char *nofreq = e->cpufreq == 0 ? "unknown (no cpufreq)" : "unknown";
	char boost[64];

	if (e->hv_cpuid < 0)
		row("hypervisor (cpuid)", "not read (fixture or not x86)");
	else if (!e->hv_cpuid)
		row("hypervisor (cpuid)", "none");
	else
		/* Quoted: a signature's spaces are its own ("bhyve bhyve "). */
		printf("%-30s %s (signature \"%s\")\n", "hypervisor (cpuid)",
		       e->hv_vendor[0] ? e->hv_vendor : "unknown", e->hv_signature);
	row("PV TLB flush",
	       tri(mt_env_kvm_feature(e, "pv_tlb_flush"), "yes", "no", "unknown"));
	row("PV steal time",
	       tri(mt_env_kvm_feature(e, "steal_time"), "yes", "no", "unknown"));
	row("cpufreq governor", e->governor[0] ? e->governor : nofreq);
	if (e->boost < 0)
		snprintf(boost, sizeof(boost), "%s", nofreq);
	else
		snprintf(boost, sizeof(boost), "%s (%s)", e->boost ? "on" : "off", e->boost_source);
	row("boost/turbo", boost);
	row("SMT", tri(e->smt_active, "on", "off", "unknown"));
	row("isolated CPUs", !e->isolated_known ? "unknown"
					   : e->isolated[0] ? e->isolated : "none");
	row("nohz_full CPUs", !e->nohz_full_known ? "unknown"
					    : e->nohz_full[0] ? e->nohz_full : "none");
	print_long("ASLR (randomize_va_space)", e->aslr, "");
	if (!e->cmdline_known)
		printf("%-30s unreadable\n", "cmdline (translation)");
	else
		print_words("cmdline (translation)", e->cmdline[0] ? e->cmdline : "none");
	if (e->n_mthp) {
		char sizes[MT_ENV_MTHP_MAX * 40];
		size_t off = 0;

		/* SIZE:ANON/SHMEM, "-" for a setting the size does not have. */
		for (unsigned int i = 0; i < e->n_mthp; i++) {
			const struct mt_env_mthp *m = &e->mthp[i];

			off += (size_t)snprintf(sizes + off, sizeof(sizes) - off, "%s%ukB:%s/%s",
						i ? " " : "", m->size_kb,
						m->enabled[0] ? m->enabled : "-",
						m->shmem_enabled[0] ? m->shmem_enabled : "-");
		}
		print_words("THP sizes (anon/shmem)", sizes);
	}
	row("THP use_zero_page", tri(e->thp_use_zero_page, "yes", "no",
							"unknown"));
	print_long("khugepaged max_ptes_none", e->max_ptes_none, "");
	print_long("khugepaged max_ptes_swap", e->max_ptes_swap, "");
	print_long("khugepaged max_ptes_shared", e->max_ptes_shared, "");
	print_long("khugepaged alloc_sleep", e->alloc_sleep_ms, " ms");
	row("lockdown", e->lockdown[0] ? e->lockdown : "unknown");
	if (e->loadavg < 0)
		printf("%-30s unknown\n", "load average (1 min)");
	else if (e->online_cpus > 0)
		printf("%-30s %.2f on %d CPUs\n", "load average (1 min)", e->loadavg,
		       e->online_cpus);
	else
		printf("%-30s %.2f\n", "load average (1 min)", e->loadavg);
}

/* The warnings, a fix line under each that has one; 1 when any. */
static int print_check(const struct mt_sysinfo *si)
{
	struct mt_env_check c = { .steal_ms = -1, .sample_s = 1.0, .thp_matters = true };
	struct timespec one = { .tv_sec = 1 };
	struct mt_env_warning w[MT_ENV_WARN_MAX];
	struct mt_env_mark m;
	unsigned int n;

	/* Steal that rises while memtlb only sleeps is the host's other work. */
	mt_env_mark(&m);
	while (nanosleep(&one, &one) && errno == EINTR)
		;
	c.steal_ms = mt_env_steal_since(&m);
	n = mt_sysinfo_check(si, &c, w, MT_ENV_WARN_MAX);
	for (unsigned int i = 0; i < n && i < MT_ENV_WARN_MAX; i++) {
		char text[MT_SAFE_MAX], fix[MT_SAFE_MAX];

		/* the warnings quote sysfs (a governor's name): escaped */
		printf("%s: %s\n", w[i].id, mt_cell_safe(text, sizeof(text), w[i].text));
		if (w[i].fix[0])
			printf("  fix: %s\n", mt_cell_safe(fix, sizeof(fix), w[i].fix));
	}
	if (!n) {
		printf("no warnings: nothing seen that makes numbers noisy\n");
		return MT_EXIT_OK;
	}
	printf("%u warning%s\n", n, n == 1 ? "" : "s");
	return MT_EXIT_FAILURE;
}

static void print_text(const struct mt_sysinfo *si)
{
	char line[2 * MT_SAFE_MAX];

	row("kernel", or_unknown(si->kernel));
	row("kernel version", or_unknown(si->kernel_version));
	row("host", or_unknown(si->host));
	row("machine", or_unknown(si->machine));
	snprintf(line, sizeof(line), "%s (%s)", or_unknown(si->cpu), or_unknown(si->cpu_vendor));
	row("cpu", line);
	row("hypervisor", si->hypervisor < 0 ? "unknown"
					  : si->hypervisor ? "yes (cpuinfo flag)" : "no");
	snprintf(line, sizeof(line), "%s%s%s%s", si->emulation.emulated < 0 ? "unknown" :
		 si->emulation.emulated ? "yes" : "no", si->emulation.evidence[0] ? " (" : "",
		 si->emulation.evidence, si->emulation.evidence[0] ? ")" : "");
	row("cpu emulated", line);
	row("libpfm4 core PMU", si->pmu[0] ? si->pmu : "none");
	row("libpfm4 PMUs present", or_unknown(si->pmus));
	row("kernel PMU driver", si->hw_counters < 0 ? "unknown"
				 : si->hw_counters ? "yes" : "no (hardware events cannot count)");
	printf("%-30s %d\n", "kernel.perf_event_paranoid", si->perf_event_paranoid);
	print_long("page size", si->page_size, " bytes");
	row("THP enabled", or_unknown(si->thp_enabled));
	row("THP defrag", or_unknown(si->thp_defrag));
	row("THP shmem_enabled", or_unknown(si->thp_shmem_enabled));
	row("khugepaged defrag", or_unknown(si->thp_khugepaged_defrag));
	print_long("khugepaged pages_to_scan", si->khugepaged_pages_to_scan, "");
	print_long("khugepaged scan_sleep", si->khugepaged_scan_sleep_ms, " ms");
	for (unsigned int i = 0; i < si->n_hugepools; i++) {
		char what[40];

		snprintf(what, sizeof(what), "hugetlb %llu kB pages",
			 (unsigned long long)si->hugepools[i].size_kb);
		printf("%-30s %ld total, %ld free\n", what, si->hugepools[i].total,
		       si->hugepools[i].free);
	}
	row("kernel lockdown", si->lockdown[0] ? si->lockdown : "unknown");
	print_debugfs("fault_around_bytes", si->fault_around_bytes, si->fault_around_state);
	print_debugfs("tlb_single_page_flush_ceiling", si->tlb_flush_ceiling,
		      si->tlb_flush_ceiling_state);
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
	if (!si->n_caches)
		printf("%-30s not described by sysfs\n", "caches");
	for (unsigned int i = 0; i < si->n_caches; i++) {
		const struct mt_cache *c = &si->caches[i];
		char what[40], size[32];

		snprintf(what, sizeof(what), "cache L%u %s", c->level, c->type);
		mt_size_format(c->size, size, sizeof(size));
		if (c->ways)
			printf("%-30s %s, %u-way (sysfs)\n", what, size, c->ways);
		else
			printf("%-30s %s (sysfs)\n", what, size);
	}
	print_env(&si->env);
}

unsigned int mt_sysinfo_precheck(const struct mt_sysinfo *si, const struct mt_config *cfg)
{
	struct mt_env_check c = { .steal_ms = -1, .thp_matters = cfg->pages == MT_PAGES_DEFAULT };
	struct mt_env_warning w[MT_ENV_WARN_MAX];
	char ids[128] = "";
	size_t off = 0;
	unsigned int n;

	n = mt_sysinfo_check(si, &c, w, MT_ENV_WARN_MAX);
	if (!n)
		return 0;
	for (unsigned int i = 0; i < n && i < MT_ENV_WARN_MAX; i++)
		off += (size_t)snprintf(ids + off, off < sizeof(ids) ? sizeof(ids) - off : 0,
					"%s%s", i ? " " : "", w[i].id);
	/* The ids name what to look at, as long as the line fits 80 columns. */
	if (strlen(ids) > 30)
		fprintf(stderr, "memtlb: system check: %u noisy settings "
			"(memtlb sysinfo --check)\n", n);
	else
		fprintf(stderr, "memtlb: system check: %u noisy: %s (memtlb sysinfo --check)\n",
			n, ids);
	return n;
}

static int cmd_sysinfo(int argc, char *argv[])
{
	struct mt_sysinfo si;
	bool json = false, check = false;
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
		case MT_OPT_FIRST_FREE + 1:
			check = true;
			break;
		default:
			return mt_cli_getopt_error("sysinfo", c, argv);
		}
	}
	if (optind < argc) {
		mt_err("sysinfo: unexpected argument '%s'", argv[optind]);
		return MT_EXIT_USAGE;
	}
	if (json && check) {
		mt_err("sysinfo: --json and --check: choose one");
		mt_hint("--json shows the record, --check judges it");
		return MT_EXIT_USAGE;
	}
	mt_measure_sysinfo(&si);
	if (check)
		return print_check(&si);
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
