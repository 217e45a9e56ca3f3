// SPDX-License-Identifier: MIT
/*
 * memtlb selftest: kselftest's KTAP from this machine's own geometry:
 * fault counts, the probe against cpuid, a sweep's knees; or a saved
 * sweep's knees (--from). Parses, calls measure/ and analysis/, prints
 * through report/ktap; memtlb-selftest(1).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/selftest.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "cli/sink.h"
#include "measure/measure.h"
#include "measure/selftest.h"
#include "model/reach.h"
#include "report/json.h"
#include "report/ktap.h"
#include "sys/sysinfo.h"
#include "workload/check.h"

enum {
	OPT_FROM = MT_OPT_FIRST_FREE + 0x10,
	OPT_KNEE_RATIO,
};

static const struct option opts[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "knee-ratio", required_argument, NULL, OPT_KNEE_RATIO },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb selftest [--from SWEEP.json] [--knee-ratio R]\n"
	       "Check this machine's page faults, TLB levels and knees against its own\n"
	       "geometry (cpuid, the probe, the caches) and print KTAP, as kselftest does;\n"
	       "exit 0 (all passed), 1 (a check failed) or 4 (every check skipped).\n\n"
	       "      --from FILE          judge a saved sweep's knees instead of measuring\n"
	       "      --knee-ratio R       rise over the trend that makes a knee (default: the\n"
	       "                           report's, else 2.0)\n"
	       "  -h, --help               this text\n");
}

struct selftest {
	struct mt_selftest_result res[MT_SELFTEST_N];
	bool run[MT_SELFTEST_N];	/* in the plan */
	char head[2][200];		/* diagnostic lines before the first test */
	struct mt_knee_opts ko;
	bool ratio_given;
	int exit_code;
};

static int print_ktap(FILE *f, const void *arg)
{
	struct selftest *st = (struct selftest *)arg;
	unsigned int plan = 0;
	struct mt_ktap k;
	int ret;

	for (int i = 0; i < MT_SELFTEST_N; i++)
		plan += st->run[i];
	mt_ktap_begin(&k, f, plan);
	for (size_t i = 0; i < 2; i++)
		if (st->head[i][0])
			mt_ktap_diag(&k, "%s", st->head[i]);
	for (int i = 0; i < MT_SELFTEST_N; i++)
		if (st->run[i])
			mt_ktap_result(&k, mt_selftest_desc(i)->name, &st->res[i]);
	ret = mt_ktap_end(&k);
	st->exit_code = mt_ktap_exit_code(&k);
	return ret;
}

static int emit(struct selftest *st)
{
	struct mt_sink sink = { .stream = stdout, .view = { print_ktap, st } };
	int ret = mt_sink_emit(&sink);

	return ret ? ret : st->exit_code;
}

static void skip_all(struct selftest *st, enum mt_selftest_kind kind, const char *why)
{
	for (int i = 0; i < MT_SELFTEST_N; i++) {
		if (mt_selftest_desc(i)->kind != kind)
			continue;
		mt_selftest_init(&st->res[i]);
		mt_selftest_set(&st->res[i], MT_SELFTEST_SKIP, "%s", why);
	}
}

static void knees_failed(struct selftest *st, enum mt_selftest_verdict v, const char *why)
{
	mt_selftest_init(&st->res[MT_SELFTEST_KNEES_EXPLAINED]);
	mt_selftest_init(&st->res[MT_SELFTEST_KNEES_AT_REACH]);
	mt_selftest_set(&st->res[MT_SELFTEST_KNEES_EXPLAINED], v, "%s", why);
	mt_selftest_set(&st->res[MT_SELFTEST_KNEES_AT_REACH], v, "%s", why);
}

static int judge_report(struct selftest *st, const struct mt_report *rep)
{
	int ret = mt_selftest_judge_knees(rep, NULL, st->ratio_given ? &st->ko : NULL,
					  &st->res[MT_SELFTEST_KNEES_EXPLAINED],
					  &st->res[MT_SELFTEST_KNEES_AT_REACH]);

	return ret ? mt_cli_fail("selftest", ret) : 0;
}

static int from_file(struct selftest *st, const char *path)
{
	struct mt_report *rep;
	struct mt_msg msg;
	int ret;

	ret = mt_report_load(path, &rep, &msg);
	if (ret) {
		mt_err("--from: %s: %s", path, msg.text[0] ? msg.text : strerror(-ret));
		return MT_EXIT_USAGE;
	}
	if (strcmp(rep->command, "sweep")) {
		mt_err("--from: %s: a memtlb %s report, not a sweep's", path, rep->command);
		mt_report_destroy(rep);
		return MT_EXIT_USAGE;
	}
	st->run[MT_SELFTEST_KNEES_EXPLAINED] = st->run[MT_SELFTEST_KNEES_AT_REACH] = true;
	snprintf(st->head[0], sizeof(st->head[0]), "memtlb selftest --from: %.60s, %.40s on %.60s",
		 path, rep->system.kernel, rep->system.cpu);
	ret = judge_report(st, rep);
	mt_report_destroy(rep);
	return ret ? ret : emit(st);
}

/* (1): one stat run per backing and page size, each judged apart. */
static void run_faults(struct selftest *st, const struct mt_sysinfo *si, struct mt_event *ev,
		       size_t n_ev)
{
	uint64_t base = si->page_size > 0 ? (uint64_t)si->page_size : 4096;

	for (int i = 0; i < MT_SELFTEST_N; i++) {
		const struct mt_selftest_desc *d = mt_selftest_desc(i);
		struct mt_selftest_result *res = &st->res[i];
		struct mt_mismatch bad = { 0 };
		struct mt_result *r = NULL;
		struct mt_config cfg;
		struct mt_msg msg;
		int ret;

		if (d->kind != MT_SELFTEST_KIND_FAULTS)
			continue;
		mt_selftest_init(res);
		ret = mt_selftest_fault_config(&cfg, d->backing, d->pages, &msg);
		/* what the machine cannot give (a backing, the pages): skipped, said why */
		if (!ret)
			ret = mt_workload_check(&cfg, &msg);
		if (ret) {
			mt_selftest_set(res, MT_SELFTEST_SKIP, "%s", msg.text);
			continue;
		}
		ret = mt_selftest_faults(&cfg, ev, n_ev, &r, &bad);
		if (ret) {
			mt_selftest_set(res, MT_SELFTEST_FAIL, "the run failed: %s",
					bad.why[0] ? bad.why : strerror(-ret));
			continue;
		}
		mt_selftest_judge_faults(r, base, cfg.huge_size ? cfg.huge_size : 2ull << 20,
					 d->pages == MT_PAGES_THP, res);
		mt_result_destroy(r);
	}
}

/* (2): the probe, its levels against cpuid's; they join the sweep's levels. */
static void run_probe(struct selftest *st, const struct mt_sysinfo *si,
		      const struct mt_reach *cpuid, size_t n_cpuid, struct mt_reach *lv,
		      size_t *n_lv)
{
	struct mt_selftest_result *res = &st->res[MT_SELFTEST_TLB_LEVELS];
	uint64_t base = si->page_size > 0 ? (uint64_t)si->page_size : 4096, max;
	struct mt_reach got[MT_REACH_MAX];
	struct mt_probe_result *pr = NULL;
	struct mt_probe_opts po;
	struct mt_msg msg;
	char why[200];
	size_t n;

	mt_selftest_init(res);
	mt_selftest_probe_opts(&po, cpuid, n_cpuid, base);
	if (mt_probe_check(&po, &max, &msg) || mt_selftest_probe(&po, &pr, &msg)) {
		/* no huge page to pair with, no memory: the probe cannot run here */
		mt_selftest_set(res, MT_SELFTEST_SKIP, "probe: %s", msg.text[0] ? msg.text :
				"the mappings could not be made");
		return;
	}
	n = mt_selftest_probe_levels(pr, got, MT_REACH_MAX);
	mt_selftest_probe_why(pr, why, sizeof(why));
	mt_selftest_judge_levels(got, n, cpuid, n_cpuid, base, why, res);
	for (size_t i = 0; i < n && *n_lv < 2 * MT_REACH_MAX; i++)
		lv[(*n_lv)++] = got[i];
	mt_probe_result_destroy(pr);
}

/* (3), (4): a sweep around the reaches known, THP-backed where THP can be had. */
static int run_sweep(struct selftest *st, const struct mt_sysinfo *si, const struct mt_reach *lv,
		     size_t n_lv, struct mt_event *ev, size_t n_ev)
{
	bool thp = si->thp_enabled[0] && strcmp(si->thp_enabled, "never");
	struct mt_report *rep = NULL;
	struct mt_config cfg;
	struct mt_msg msg;
	int ret;

	ret = mt_selftest_sweep_config(&cfg, thp, &msg);
	if (!ret)
		ret = mt_selftest_sweep(&cfg, lv, n_lv, ev, n_ev, &rep, &msg);
	if (ret == -ENOMEM)
		return mt_cli_fail("selftest", ret);
	if (ret) {
		/* a point that failed is a failure; no level or no memory, a skip */
		knees_failed(st, ret == -ENOENT || ret == -EINVAL || ret == -E2BIG ?
			     MT_SELFTEST_SKIP : MT_SELFTEST_FAIL,
			     msg.text[0] ? msg.text : strerror(-ret));
		return 0;
	}
	snprintf(st->head[1], sizeof(st->head[1]), "sweep: %zu points, %s anon memory, %s", rep->n_results,
		 thp ? "THP" : "base-page", mt_report_default_phase(rep));
	ret = judge_report(st, rep);
	mt_report_destroy(rep);
	return ret;
}

static int run_live(struct selftest *st)
{
	struct mt_sysinfo *si = calloc(1, sizeof(*si));
	struct mt_reach cpuid[MT_REACH_MAX], lv[2 * MT_REACH_MAX];
	struct mt_event *ev = NULL;
	size_t n_cpuid, n_lv, n_ev = 0;
	struct mt_config cfg;
	struct mt_msg msg;
	int ret;

	if (!si)
		return mt_cli_fail("selftest", -ENOMEM);
	for (int i = 0; i < MT_SELFTEST_N; i++)
		st->run[i] = true;
	mt_cli_machine_recover();
	mt_measure_sysinfo(si);
	snprintf(st->head[0], sizeof(st->head[0]), "memtlb %s selftest: %.40s on %.60s",
		 MEMTLB_VERSION, si->kernel, si->cpu);
	n_cpuid = mt_reach_from_sysinfo(si, cpuid, MT_REACH_MAX);
	memcpy(lv, cpuid, n_cpuid * sizeof(*cpuid));
	n_lv = n_cpuid;
	/* the page-fault events every run counts: resolved once */
	mt_selftest_fault_config(&cfg, MT_BACKING_ANON, MT_PAGES_BASE, &msg);
	ret = mt_cli_resolve_events(&cfg, &ev, &n_ev);
	if (ret) {
		skip_all(st, MT_SELFTEST_KIND_FAULTS, "the faults event set cannot be counted");
		skip_all(st, MT_SELFTEST_KIND_KNEES, "the faults event set cannot be counted");
	} else {
		run_faults(st, si, ev, n_ev);
	}
	run_probe(st, si, cpuid, n_cpuid, lv, &n_lv);
	ret = ev ? run_sweep(st, si, lv, n_lv, ev, n_ev) : 0;
	free(ev);
	free(si);
	return ret ? ret : emit(st);
}

static int cmd_selftest(int argc, char *argv[])
{
	struct selftest *st = calloc(1, sizeof(*st));
	const char *from = NULL;
	int c, ret;

	if (!st)
		return mt_cli_fail("selftest", -ENOMEM);
	mt_knee_opts_init(&st->ko);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			ret = MT_EXIT_OK;
			goto out;
		case OPT_FROM:
			from = optarg;
			continue;
		case OPT_KNEE_RATIO:
			ret = mt_cli_knee_ratio_opt("--knee-ratio", optarg, &st->ko.ratio);
			if (ret)
				goto out;
			st->ratio_given = true;
			continue;
		default:
			ret = mt_cli_getopt_fail("selftest", c, argc, argv, opts);
			goto out;
		}
	}
	if (optind < argc) {
		mt_err("selftest: unexpected argument '%s'", argv[optind]);
		mt_hint("memtlb selftest --help lists the options");
		ret = MT_EXIT_USAGE;
		goto out;
	}
	ret = from ? from_file(st, from) : run_live(st);
out:
	free(st);
	return ret;
}

const struct mt_cmd mt_cmd_selftest = {
	.name = "selftest",
	.fn = cmd_selftest,
	.help = "check faults, TLB levels and knees; KTAP as kselftest prints it",
};
