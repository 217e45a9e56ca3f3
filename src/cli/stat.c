// SPDX-License-Identifier: MIT
/* memtlb stat: the mmap touch workload under a counter group. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "cli/sysinfo.h"
#include "measure/measure.h"
#include "model/report.h"
#include "report/cells.h"
#include "report/sweep.h"

enum { OPT_PHASE = MT_OPT_FIRST_FREE + 0x20 };

static const char cmdopts_s[] = "+:" MT_WORKLOAD_SHORTOPTS "h";
static const struct option cmdopts[] = {
	MT_WORKLOAD_LONGOPTS,
	MT_REPEAT_LONGOPTS,
	MT_TLB_LONGOPT,
	{ "phase", required_argument, NULL, OPT_PHASE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb stat [options]\n"
	       "Run the mmap touch workload (test_with_mmap) under a counter group.\n\n"
	       MT_WORKLOAD_HELP
	       MT_REPEAT_HELP
	       "      --phase LIST         with --ci-target: the phases it waits for,\n"
	       "                           comma-separated (default: every phase)\n"
	       MT_TLB_HELP
	       "  -h, --help               this text\n");
}

/* --phase: every name one of this run's phases, before it runs. */
static int phases_check(const struct mt_config *cfg)
{
	const char *s = cfg->ci_phases;
	struct mt_workload *w;
	char name[MT_PHASE_NAME_MAX];

	if (!s)
		return 0;
	if (mt_workload_create(&w, cfg))
		return 0;	/* the run says why */
	for (;;) {
		size_t n = strcspn(s, ",");
		bool found = false;

		snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1),
			 s);
		for (unsigned int i = 0; n && n < sizeof(name) && i < mt_workload_phases(w); i++)
			found |= !strcmp(mt_workload_phase_name(w, i), name);
		if (!found) {
			mt_err("--phase: '%.*s': not a phase of this run",
			       (int)(n < 40 ? n : 40), s);
			mt_hint("phases are mmap, write_N, read_N (N below --passes), munmap%s",
				cfg->read_first ? ", read_first" : "");
			mt_workload_destroy(w);
			return MT_EXIT_USAGE;
		}
		if (!s[n])
			break;
		s += n + 1;
	}
	mt_workload_destroy(w);
	return 0;
}

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static int cmd_stat(int argc, char *argv[])
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct mt_cli_progress shown;
	struct mt_measure_opts mopts = { .progress = mt_cli_progress, .progress_arg = &shown,
					 .stop = &stop_sig, .keep_partial = true };
	struct mt_report *rep = NULL;
	struct mt_result *res = NULL;
	struct mt_event *ev = NULL;
	struct mt_mismatch bad = { 0 };
	struct mt_config cfg;
	struct mt_reach tlb[MT_REACH_MAX];
	size_t n_ev = 0, n_tlb = 0;
	bool limits = false;
	int c, ret;

	mt_config_init(&cfg);
	mt_cli_progress_init(&shown, "stat");
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, cmdopts_s, cmdopts, NULL)) != -1) {
		if (c == 'h') {
			help();
			return MT_EXIT_OK;
		}
		if (c == OPT_PHASE) {
			cfg.ci_phases = optarg;
			limits = true;
			continue;
		}
		if (c == MT_OPT_TLB) {
			ret = mt_cli_tlb_opt(optarg, tlb, &n_tlb);
			if (ret)
				return ret;
			continue;
		}
		if (mt_cli_is_repeat_opt(c)) {
			ret = mt_cli_repeat_opt(c, optarg, &cfg, &limits);
			if (ret)
				return ret;
			continue;
		}
		if (!mt_cli_is_workload_opt(c))
			return mt_cli_getopt_fail("stat", c, argc, argv, cmdopts);
		ret = mt_cli_workload_opt(c, optarg, &cfg);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		mt_err("stat: unexpected argument '%s'", argv[optind]);
		mt_hint("memtlb stat --help lists the options");
		return MT_EXIT_USAGE;
	}
	ret = mt_cli_config_check(&cfg);
	if (!ret)
		ret = mt_cli_repeat_check("stat", &cfg, limits, 1);
	if (!ret)
		ret = phases_check(&cfg);
	if (ret)
		return ret;
	ret = mt_cli_resolve_events(&cfg, &ev, &n_ev);
	if (ret)
		return ret;

	ret = mt_measure_report_create(&rep, "stat", &cfg);
	if (ret)
		goto fail;
	memcpy(rep->levels, tlb, n_tlb * sizeof(*tlb));
	rep->n_levels = n_tlb;
	mopts.hw_counters = rep->system.hw_counters;
	mopts.env_run = &rep->system.env.run;
	mt_sysinfo_precheck(&rep->system, &cfg);
	shown.tty = isatty(STDERR_FILENO);
	/*
	 * Ctrl-C as in sweep: between iterations, the ones done are reported
	 * and -o written, marked interrupted; SA_RESTART: a report being
	 * written is never cut short by EINTR.
	 */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	ret = mt_measure_stat(&cfg, ev, n_ev, &mopts, &res, &bad);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (ret == -EINTR && !res) {
		mt_err("stat: interrupted by %s before the first iteration ended",
		       strsignal(stop_sig));
		ret = 128 + stop_sig;
		goto out;
	}
	if (ret && ret != -EINTR) {
		ret = mt_cli_measure_error("stat", ret, &bad);
		goto out;
	}
	rep->interrupted = ret == -EINTR;
	for (size_t e = 0; e < n_ev; e++)
		rep->user_only |= ev[e].user_only;
	ret = mt_report_add(rep, res);
	if (ret) {
		mt_result_destroy(res);
		goto fail;
	}
	ret = mt_cli_report_emit(rep, &cfg, stdout);
	if (!ret && cfg.format == MT_FORMAT_TABLE && !(cfg.output && !strcmp(cfg.output, "-")))
		mt_report_print_tlb_agreement(stdout, rep,
					      MT_PROSE_WIDTH(mt_report_width(stdout, rep)));
	if (!ret && rep->interrupted) {
		size_t done = res->n_phases ? res->phases[0].time_ns.n : 0;

		mt_err("stat: interrupted by %s after %zu of %lu iterations%s%s",
		       strsignal(stop_sig), done,
		       cfg.ci_target > 0 ? cfg.max_iterations : cfg.iterations,
		       cfg.output ? "; report kept in " : "", cfg.output ? cfg.output : "");
		ret = 128 + stop_sig;
	}
	goto out;
fail:
	ret = mt_cli_fail("stat", ret);
out:
	mt_report_destroy(rep);
	free(ev);
	return ret;
}

const struct mt_cmd mt_cmd_stat = {
	.name = "stat",
	.fn = cmd_stat,
	.help = "run the mmap touch workload under a counter group",
};
