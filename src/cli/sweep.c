// SPDX-License-Identifier: MIT
/*
 * memtlb sweep: the stat measurement at every point of a region range,
 * times a grid of --vary values (workload options and kernel tunables),
 * the report rewritten after every point, knees found on the way out.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "cli/sink.h"
#include "cli/sysinfo.h"
#include "counters/backend.h"
#include "measure/sweep.h"
#include "model/reach.h"
#include "model/size.h"
#include "report/json.h"
#include "report/sweep.h"
#include "stats/knee.h"
#include "sys/file.h"
#include "sys/sysinfo.h"
#include "workload/check.h"

enum {
	OPT_VARY = MT_OPT_FIRST_FREE + 0x10,
	OPT_PHASE,
	OPT_KNEE_RATIO,
	OPT_FROM,
	OPT_ORDER,
};

static const struct option own_opts[] = {
	{ "vary", required_argument, NULL, OPT_VARY },
	{ "phase", required_argument, NULL, OPT_PHASE },
	{ "knee-ratio", required_argument, NULL, OPT_KNEE_RATIO },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "order", required_argument, NULL, OPT_ORDER },
	MT_TLB_LONGOPT,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb sweep --region A..B[:STEP|xF] [--vary KEY=V1,V2,...]... [options]\n"
	       "       memtlb sweep --from FILE.json [--phase NAME] [--knee-ratio R]\n"
	       "                    [--tlb FILE]\n"
	       "Run the stat measurement at every point of a region range (and of a grid of\n"
	       "--vary values), print one row per region and the knees of the cost curve.\n\n"
	       "Sweep:\n"
	       "      --region RANGE       A..B (doubling), A..B:STEP or A..B:xF,\n"
	       "                           e.g. 256m..16g:64m\n"
	       "      --vary KEY=V1,V2,... also sweep KEY: a workload option (block, backing,\n"
	       "                           iterations, passes, ...) or a kernel tunable as\n"
	       "                           memtlb run's (sysfs:/sys/PATH, sysctl:NAME,\n"
	       "                           debugfs:PATH, thp, mthp:SIZE, fault_around_bytes,\n"
	       "                           pcp_high_fraction: written before each point,\n"
	       "                           restored at the end); repeat for a grid\n"
	       "      --phase NAME         the phase of the table and knees (default read_4,\n"
	       "                           or the last read pass when --passes is below 5)\n"
	       "      --knee-ratio R       rise over the trend that makes a knee (default 2.0)\n"
	       "      --from FILE          print a sweep's report again, knees recomputed\n"
	       "      --order HOW          sequential (default: point by point), interleaved\n"
	       "                           (iteration 1 of every point, then 2, ...) or\n"
	       "                           random (each round shuffled by --seed)\n"
	       MT_TLB_HELP);
	mt_cli_help_keys(MT_GROUPS_SHARED, false);
	printf("  -h, --help               this text\n");
}

struct sweep_cmd {
	struct mt_config base;
	bool limits;		/* a --ci-target limit was given */
	struct mt_sweep *sw;
	const char *phase;
	const char *from;
	struct mt_knee_opts ko;
	struct mt_reach tlb[MT_REACH_MAX];	/* --tlb FILE's levels */
	size_t n_tlb;
	bool tlb_given;
	bool region_auto;	/* --region auto: points around the known reaches */
	bool order_given;
	bool pages_varied;	/* --vary pages=...: a translation series */
	bool stream;		/* -o is written through: a FIFO, a device, a descriptor */
	bool ratio_given;	/* --knee-ratio: over what a report read back says */
};

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

struct sweep_csv {
	const struct mt_report *rep;
	const char *phase;
	const struct mt_knee_opts *ko;
};

static int print_sweep_csv(FILE *f, const void *arg)
{
	const struct sweep_csv *a = arg;

	return mt_report_print_sweep_csv(f, a->rep, a->phase, a->ko);
}

struct sweep_view {
	const struct mt_report *rep;
	const struct sweep_cmd *sc;
	const char *phase;
};

static int print_view(FILE *f, const void *arg)
{
	const struct sweep_view *v = arg;
	const struct sweep_cmd *sc = v->sc;

	switch (sc->base.format) {
	case MT_FORMAT_TABLE:
		return mt_report_print_sweep(f, v->rep, v->phase, &sc->ko,
					     sc->base.verbose || sc->base.wide);
	case MT_FORMAT_CSV:
		return mt_cli_print_csv(f, sc->base.csv_sep, print_sweep_csv,
					&(struct sweep_csv){ v->rep, v->phase, &sc->ko });
	case MT_FORMAT_JSON:
	default:
		return mt_report_print_json(f, v->rep);
	}
}

/*
 * The sweep's sink (cli/sink.h), for output: -o's path while the points
 * run (a file rewritten after each, a stream once at the end), "-" or
 * NULL for the view at the end (a file is written by then).
 */
static struct mt_sink sweep_sink(const char *output, const struct sweep_view *v)
{
	return (struct mt_sink){
		.output = output, .mode = MT_FILE_MODE_AS_SHELL, .doc = { mt_cli_report_json, v->rep },
		.stream = stdout, .view = { print_view, v },
	};
}

/* The view at the end; -o - is the report file on stdout instead. */
static int print_result(const struct mt_report *rep, const struct sweep_cmd *sc,
			const char *phase)
{
	const char *output = sc->base.output && !strcmp(sc->base.output, "-") ? "-" : NULL;
	struct sweep_view v = { rep, sc, phase };
	struct mt_sink sink = sweep_sink(output, &v);

	return mt_sink_emit(&sink);
}

/* The phase of the table and knees: --phase, else the report's one policy. */
static const char *table_phase(const struct mt_report *rep, const struct sweep_cmd *sc)
{
	return sc->phase ? sc->phase : mt_report_default_phase(rep);
}

/*
 * --phase and --knee-ratio into the report, which every output reads (the
 * table, the CSV, the JSON on stdout and -o's): one run, the same knees.
 */
static void curve_opts(struct mt_report *rep, const struct sweep_cmd *sc)
{
	if (sc->phase)
		snprintf(rep->curve_phase, sizeof(rep->curve_phase), "%s", sc->phase);
	/* a report read back keeps its run's ratio unless one is given now */
	if (sc->ratio_given || !sc->from)
		rep->knee_ratio = sc->ko.ratio;
}

static int from_file(struct sweep_cmd *sc)
{
	struct mt_report *rep;
	const char *phase;
	struct mt_msg msg;
	int ret;

	ret = mt_report_load(sc->from, &rep, &msg);
	if (ret) {
		mt_err("--from: %s: %s", sc->from, msg.text[0] ? msg.text : strerror(-ret));
		return MT_EXIT_USAGE;
	}
	/* --tlb again: the levels given now replace those the report carries */
	if (sc->tlb_given) {
		memcpy(rep->levels, sc->tlb, sc->n_tlb * sizeof(*sc->tlb));
		rep->n_levels = sc->n_tlb;
	}
	phase = table_phase(rep, sc);
	if (!mt_report_has_phase(rep, phase)) {
		mt_err("--phase: %s: not in %s", phase ? phase : "a read pass", sc->from);
		mt_report_destroy(rep);
		return MT_EXIT_USAGE;
	}
	curve_opts(rep, sc);
	/* the table's knees at the ratio the JSON's and the exports' use */
	if (!sc->ratio_given && rep->knee_ratio > 1.0)
		sc->ko.ratio = rep->knee_ratio;
	ret = print_result(rep, sc, phase);
	mt_report_destroy(rep);
	return ret;
}

/* Every point checked before the first runs: sizes, memory, phase. */
static int check_points(struct sweep_cmd *sc)
{
	size_t n = mt_sweep_points(sc->sw);
	struct mt_config *cfgs = calloc(n ? n : 1, sizeof(*cfgs));
	struct mt_msg msg;
	int ret = 0;

	if (!cfgs)
		return mt_cli_fail("sweep", -ENOMEM);
	for (size_t p = 0; p < n && !ret; p++) {
		mt_sweep_point_config(sc->sw, p, &cfgs[p]);
		ret = mt_cli_config_check(&cfgs[p]);
	}
	/* Interleaved, every point's run is open at once: what they hold together. */
	if (!ret && sc->base.order != MT_ORDER_SEQUENTIAL &&
	    mt_workload_check_together(cfgs, n, &msg))
		ret = mt_cli_usage(&msg);
	free(cfgs);
	if (ret)
		return ret;
	if (sc->phase && !mt_sweep_has_phase(sc->sw, sc->phase)) {
		mt_err("--phase: %s: no such phase in this sweep", sc->phase);
		mt_hint("phases are mmap, write_N, read_N (N below --passes) and munmap");
		return MT_EXIT_USAGE;
	}
	return 0;
}

static int write_output(void *arg, const struct mt_report *rep)
{
	const struct sweep_cmd *sc = arg;
	struct sweep_view v = { rep, sc, NULL };
	struct mt_sink sink = sweep_sink(sc->base.output, &v);

	/* a stream is not rewritten: it takes its one document at the end */
	if (!sc->base.output || sc->stream)
		return 0;
	return mt_sink_doc(&sink) ? -EIO : 0;
}

static int run_sweep(struct sweep_cmd *sc)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct mt_cli_progress shown;
	struct mt_measure_opts mopts = { .progress = mt_cli_progress, .progress_arg = &shown,
					 .stop = &stop_sig };
	size_t n = mt_sweep_points(sc->sw), n_ev = 0, failed = 0;
	uint64_t largest = mt_sweep_largest(sc->sw);
	struct mt_mismatch bad = { 0 };
	struct mt_report *rep = NULL;
	struct mt_event *ev = NULL;
	char big[32], avail[32], guard[64];
	struct mt_msg msg;
	bool by_cgroup;
	int64_t mem;
	bool streamed = false;
	int ret;

	mt_cli_progress_init(&shown, "sweep");
	if (mt_sweep_has_tunables(sc->sw) && (ret = mt_cli_machine_lock()))
		return ret;
	ret = check_points(sc);
	if (!ret)
		ret = mt_cli_report_size_check(&sc->base, n);
	if (!ret)
		ret = mt_cli_repeat_check("sweep", &sc->base, sc->limits, n);
	if (ret)
		return ret;
	sc->stream = sc->base.output && mt_file_is_stream(sc->base.output);
	ret = mt_cli_resolve_events(&sc->base, &ev, &n_ev);
	if (ret)
		return ret;
	ret = mt_measure_report_create(&rep, "sweep", &sc->base);
	if (ret) {
		free(ev);
		return mt_cli_fail("sweep", ret);
	}
	rep->config.region = largest;
	curve_opts(rep, sc);
	memcpy(rep->levels, sc->tlb, sc->n_tlb * sizeof(*sc->tlb));
	rep->n_levels = sc->n_tlb;
	ret = mt_sweep_save_tunables(sc->sw, &msg);
	if (ret) {
		ret = ret == -ENOMEM ? mt_cli_fail("sweep", ret) : mt_cli_usage(&msg);
		goto out;
	}
	/* The guard every point passed (mt_cli_config_check): the tighter limit. */
	mem = mt_sys_mem_headroom(NULL, &by_cgroup);
	mt_size_format(largest, big, sizeof(big));
	mt_size_format(mem > 0 ? (uint64_t)mem : 0, avail, sizeof(avail));
	if (by_cgroup)
		snprintf(guard, sizeof(guard), "what the cgroup leaves (%s now)", avail);
	else
		snprintf(guard, sizeof(guard), "MemAvailable (%s now)", mem > 0 ? avail : "unknown");
	/* two lines of 80 columns at most */
	fprintf(stderr, "memtlb: sweep: %zu point%s, largest region %s; memory guard:\n"
		"  each point's region within %s%s\n", n, n == 1 ? "" : "s", big, guard,
		sc->base.force ? ", off (--force)" : "");

	/*
	 * Handled, not fatal: every tunable is restored and the report kept.
	 * SA_RESTART: a report being written is never cut short by EINTR.
	 */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	mopts.hw_counters = rep->system.hw_counters;
	mopts.env_run = &rep->system.env.run;
	mt_sysinfo_precheck(&rep->system, &sc->base);
	ret = mt_sweep_run(sc->sw, ev, n_ev, &mopts, rep, write_output, sc, &failed, &bad);
	mt_cli_progress(&shown, &(struct mt_progress){ .kind = MT_PROGRESS_DONE });
	if (ret && failed) {
		char what[48];

		snprintf(what, sizeof(what), "sweep: point %zu", failed);
		ret = mt_cli_measure_error(what, ret, &bad);
	} else if (ret) {
		ret = sc->base.output && ret != -ENOMEM ? MT_EXIT_FAILURE : mt_cli_fail("sweep", ret);
	}
	if (mt_sweep_restore_tunables(sc->sw, &msg)) {
		mt_err("%s", msg.text);
		if (!ret)
			ret = MT_EXIT_FAILURE;
	}
	/*
	 * A stream's one document, the points measured, once the tunables are
	 * back. Without SA_RESTART now: a FIFO no reader opens blocks the
	 * write, and ^C must end that wait, not be held behind it.
	 */
	if (sc->stream && strcmp(sc->base.output, "-") && rep->n_results && !stop_sig) {
		sa.sa_flags = 0;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		struct sweep_view v = { rep, sc, NULL };
		struct mt_sink sink = sweep_sink(sc->base.output, &v);

		streamed = !mt_sink_doc(&sink);
		/* ^C in the wait for a reader: said below, 130, not a failure */
		if (!streamed && !ret && !stop_sig)
			ret = MT_EXIT_FAILURE;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (ret)
		goto out;
	if (rep->user_only)
		mt_warn("counting user space only: kernel.perf_event_paranoid=%d forbids kernel "
			"counting for this user", rep->system.perf_event_paranoid);
	if (stop_sig && !rep->n_results) {
		/* nothing measured: no empty table, and no write error for one */
		mt_err("sweep: interrupted by %s before the first point ended; nothing "
		       "measured", strsignal(stop_sig));
		ret = 128 + stop_sig;
		goto out;
	}
	ret = print_result(rep, sc, table_phase(rep, sc));
	if (!ret && stop_sig) {
		/* a stream interrupted (or never written: no second wait) has no report */
		bool kept = sc->base.output && (!sc->stream || streamed ||
						 !strcmp(sc->base.output, "-"));

		mt_err("sweep: interrupted by %s after %zu of %zu points%s%s", strsignal(stop_sig),
		       rep->n_results, n, kept ? "; report kept in " : "",
		       kept ? sc->base.output : (sc->stream ? "; -o not written" : ""));
		ret = 128 + stop_sig;
	}
out:
	mt_report_destroy(rep);
	free(ev);
	return ret;
}

/*
 * --region auto: cpuid's levels and --tlb's, of the page size the sweep
 * maps (huge with --pages thp or hugetlb), decide the points; said on
 * stderr, since the user did not list them.
 */
static int regions_auto(struct sweep_cmd *sc)
{
	struct mt_sysinfo *si = calloc(1, sizeof(*si));
	struct mt_reach lv[2 * MT_REACH_MAX];
	bool huge = sc->base.pages == MT_PAGES_THP || sc->base.pages == MT_PAGES_HUGETLB;
	long base = sysconf(_SC_PAGESIZE);
	uint64_t page = huge ? (sc->base.huge_size ? sc->base.huge_size : 2u << 20) :
			       (uint64_t)(base > 0 ? base : 4096);
	bool probe = false, cpuid = false;
	struct mt_msg msg;
	size_t n;
	int ret;

	if (!si)
		return mt_cli_fail("sweep", -ENOMEM);
	mt_sysinfo_read(si);
	n = mt_reach_from_sysinfo(si, lv, MT_REACH_MAX);
	free(si);
	for (size_t i = 0; i < sc->n_tlb && n < 2 * MT_REACH_MAX; i++)
		lv[n++] = sc->tlb[i];
	ret = mt_sweep_set_regions_auto(sc->sw, lv, n, page, &msg);
	if (ret)
		return ret == -ENOMEM ? mt_cli_fail("sweep", ret) : mt_cli_usage(&msg);
	for (size_t i = 0; i < n; i++) {
		if (lv[i].page_size != page)
			continue;
		probe |= !strcmp(lv[i].source, "probe");
		cpuid |= !strcmp(lv[i].source, "cpuid");
	}
	fprintf(stderr, "memtlb: sweep: --region auto: %zu point%s around the reaches of %s\n",
		mt_sweep_points(sc->sw), mt_sweep_points(sc->sw) == 1 ? "" : "s",
		probe && cpuid ? "cpuid's and the probe's levels" : probe ? "the probe's levels" :
		"cpuid's levels");
	return 0;
}

/* One --vary: an axis of the sweep, checked by the setter every point uses. */
static int add_vary(struct sweep_cmd *sc, const char *arg)
{
	struct mt_msg msg;
	int ret = mt_sweep_add_axis(sc->sw, arg, &msg);

	if (ret)
		return ret == -ENOMEM ? mt_cli_fail("sweep", ret) : mt_cli_usage(&msg);
	sc->pages_varied |= !strncmp(arg, "pages=", 6);
	return 0;
}

static int cmd_sweep(int argc, char *argv[])
{
	const char *vary[16];
	size_t n_vary = 0;
	struct sweep_cmd sc = { 0 };
	struct mt_msg msg;
	const char *tlb_path = NULL;
	const struct option *cmdopts;
	int c, ret;

	mt_config_init(&sc.base);
	mt_knee_opts_init(&sc.ko);
	if (mt_sweep_create(&sc.sw, &sc.base))
		return mt_cli_fail("sweep", -ENOMEM);
	opterr = 0;
	optind = 1;
	cmdopts = mt_cli_longopts(MT_GROUPS_SHARED, own_opts);
	while ((c = getopt_long(argc, argv, mt_cli_shortopts(MT_GROUPS_SHARED, "h"), cmdopts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			ret = MT_EXIT_OK;
			goto out;
		case MT_OPT_KEY(MT_CFG_REGION):
			sc.region_auto = !strcmp(optarg, "auto");
			if (sc.region_auto)
				continue;
			ret = mt_sweep_set_regions(sc.sw, optarg, &msg);
			if (ret) {
				ret = mt_cli_usage(&msg);
				goto out;
			}
			continue;
		case OPT_VARY:
			/* added after every option: pages=all needs the final --backing */
			if (n_vary < sizeof(vary) / sizeof(vary[0])) {
				vary[n_vary++] = optarg;
				continue;
			}
			ret = add_vary(&sc, optarg);
			if (ret)
				goto out;
			continue;
		case OPT_PHASE:
			sc.phase = optarg;
			continue;
		case OPT_FROM:
			sc.from = optarg;
			continue;
		case OPT_ORDER:
			if (mt_config_set(&sc.base, "order", optarg, &msg)) {
				mt_err("--order: %s", msg.text);
				mt_hint("%s", msg.hint);
				ret = MT_EXIT_USAGE;
				goto out;
			}
			sc.order_given = true;
			continue;
		case MT_OPT_TLB:
			tlb_path = optarg;
			ret = mt_cli_tlb_opt(optarg, sc.tlb, &sc.n_tlb);
			if (ret)
				goto out;
			sc.tlb_given = true;
			continue;
		case OPT_KNEE_RATIO:
			ret = mt_cli_knee_ratio_opt("--knee-ratio", optarg, &sc.ko.ratio);
			sc.ratio_given = true;
			if (ret)
				goto out;
			continue;
		}
		if (mt_cli_is_repeat_opt(c)) {
			ret = mt_cli_repeat_opt(c, optarg, &sc.base, &sc.limits);
			if (ret)
				goto out;
			continue;
		}
		if (!mt_cli_is_workload_opt(c)) {
			ret = mt_cli_getopt_fail("sweep", c, argc, argv, cmdopts);
			goto out;
		}
		ret = mt_cli_workload_opt(c, optarg, &sc.base);
		if (ret)
			goto out;
	}
	for (size_t i = 0; i < n_vary; i++) {
		ret = add_vary(&sc, vary[i]);
		if (ret)
			goto out;
	}
	if (optind < argc) {
		mt_err("sweep: unexpected argument '%s'", argv[optind]);
		mt_hint("memtlb sweep --help lists the options");
		ret = MT_EXIT_USAGE;
		goto out;
	}
	if (sc.from) {
		if (mt_sweep_has_regions(sc.sw) || sc.region_auto || mt_sweep_axes(sc.sw) ||
		    sc.base.output) {
			mt_err("--from: prints a report again: no --region, --vary or -o with it");
			ret = MT_EXIT_USAGE;
			goto out;
		}
		ret = from_file(&sc);
		goto out;
	}
	ret = mt_cli_output_not_input(sc.base.output,
				      (const char *[]){ tlb_path, mt_backend_replay_file() }, 2);
	if (ret)
		goto out;
	if (sc.region_auto) {
		ret = regions_auto(&sc);
		if (ret)
			goto out;
	}
	if (!mt_sweep_has_regions(sc.sw) && !mt_sweep_axes(sc.sw)) {
		mt_err("sweep: nothing to sweep");
		mt_hint("--region A..B[:STEP|xF] and/or --vary KEY=V1,V2,...");
		ret = MT_EXIT_USAGE;
		goto out;
	}
	/*
	 * The translation series subtracts a huge-page point from a base one:
	 * interleaved, drift over the sweep falls on both alike.
	 */
	if (sc.pages_varied && !sc.order_given) {
		sc.base.order = MT_ORDER_INTERLEAVED;
		fprintf(stderr, "memtlb: sweep: --vary pages: --order interleaved (the default "
			"when pages vary)\n");
	}
	ret = run_sweep(&sc);
out:
	mt_sweep_destroy(sc.sw);
	return ret;
}

const struct mt_cmd mt_cmd_sweep = {
	.name = "sweep",
	.fn = cmd_sweep,
	.help = "run stat over a range of regions (and --vary values), find knees",
};
