// SPDX-License-Identifier: MIT
/*
 * memtlb sweep: the stat measurement at every point of a region range,
 * times a grid of --vary values (workload options and kernel tunables),
 * the report rewritten after every point, knees found on the way out.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <memtlb/cleanup.h>
#include <memtlb/cli.h>
#include <memtlb/cmd.h>
#include <memtlb/knee.h>
#include <memtlb/log.h>
#include <memtlb/measure.h>
#include <memtlb/range.h>
#include <memtlb/report.h>
#include <memtlb/size.h>
#include <memtlb/sysinfo.h>
#include <memtlb/tunable.h>
#include <memtlb/workload.h>

enum {
	OPT_VARY = MT_OPT_FIRST_FREE + 0x10,
	OPT_PHASE,
	OPT_KNEE_RATIO,
	OPT_FROM,
};

#define MAX_AXES (MT_PARAM_MAX - 1)

static const char cmdopts_s[] = "+:" MT_WORKLOAD_SHORTOPTS "h";
static const struct option cmdopts[] = {
	MT_WORKLOAD_LONGOPTS,
	{ "vary", required_argument, NULL, OPT_VARY },
	{ "phase", required_argument, NULL, OPT_PHASE },
	{ "knee-ratio", required_argument, NULL, OPT_KNEE_RATIO },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The workload options, to find a --vary KEY by its long name. */
static const struct option workload_opts[] = {
	MT_WORKLOAD_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* Workload options that are not a parameter of a point. */
static const char *const not_sweepable[] = { "region", "event", "events", "events-dir", "format",
						   "output" };

static void help(void)
{
	printf("Usage: memtlb sweep --region A..B[:STEP|xF] [--vary KEY=V1,V2,...]... [options]\n"
	       "       memtlb sweep --from FILE.json [--phase NAME] [--knee-ratio R]\n"
	       "Run the stat measurement at every point of a region range (and of a grid of\n"
	       "--vary values), print one row per region and the knees of the cost curve.\n\n"
	       "Sweep:\n"
	       "  -r, --region RANGE       A..B (doubling), A..B:STEP or A..B:xF, e.g. 256m..16g:64m\n"
	       "      --vary KEY=V1,V2,... also sweep KEY: a workload option (block, backing,\n"
	       "                           iterations, passes, ...), sysfs:/sys/PATH or\n"
	       "                           sysctl:NAME (written before each point, restored at\n"
	       "                           the end); repeat for a grid\n"
	       "      --phase NAME         the phase of the table and knees (default read_4,\n"
	       "                           or the last read pass when --passes is below 5)\n"
	       "      --knee-ratio R       rise over the trend that makes a knee (default 2.0)\n"
	       "      --from FILE          print a sweep's report again, knees recomputed\n"
	       MT_WORKLOAD_HELP
	       "  -h, --help               this text\n");
}

struct axis {
	char key[128];
	int opt;			/* getopt code of a workload option, 0: tunable */
	struct mt_tunable tun;
	int cleanup;			/* the registered restore of tun */
	char *buf;			/* the value list, split in place */
	char *values[64];
	size_t n;
};

struct sweep {
	struct mt_config base;
	uint64_t *regions;
	size_t n_regions;
	char *range;
	struct axis axes[MAX_AXES];
	size_t n_axes;
	const char *phase;
	const char *from;
	struct mt_knee_opts ko;
};

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static int parse_vary(struct sweep *sw, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct axis *ax;
	char msg[256];
	size_t klen;

	if (sw->n_axes == MAX_AXES) {
		mt_err("--vary: at most %d parameters", MAX_AXES);
		return MT_EXIT_USAGE;
	}
	if (!eq || eq == arg || !eq[1]) {
		mt_err("--vary: %s: not KEY=V1,V2,...", arg);
		mt_hint("--vary backing=shared,anon or --vary "
			"sysfs:/sys/kernel/mm/transparent_hugepage/enabled=always,madvise");
		return MT_EXIT_USAGE;
	}
	ax = &sw->axes[sw->n_axes];
	klen = (size_t)(eq - arg);
	if (klen >= sizeof(ax->key)) {
		mt_err("--vary: %.40s...: key too long", arg);
		return MT_EXIT_USAGE;
	}
	memcpy(ax->key, arg, klen);
	ax->key[klen] = '\0';
	for (size_t i = 0; i < sw->n_axes; i++) {
		if (!strcmp(sw->axes[i].key, ax->key)) {
			mt_err("--vary: %s: given twice", ax->key);
			return MT_EXIT_USAGE;
		}
	}
	if (!strncmp(ax->key, "sysfs:", 6) || !strncmp(ax->key, "sysctl:", 7)) {
		if (mt_tunable_init(&ax->tun, ax->key, msg, sizeof(msg))) {
			mt_err("--vary: %s", msg);
			return MT_EXIT_USAGE;
		}
	} else {
		for (size_t i = 0; i < sizeof(not_sweepable) / sizeof(*not_sweepable); i++) {
			if (!strcmp(ax->key, not_sweepable[i])) {
				mt_err("--vary: %s: not a parameter of a point", ax->key);
				mt_hint("--region A..B sweeps the region; --vary takes workload "
					"options such as block, backing, iterations");
				return MT_EXIT_USAGE;
			}
		}
		for (const struct option *o = workload_opts; o->name; o++) {
			if (!strcmp(o->name, ax->key) && o->has_arg == required_argument)
				ax->opt = o->val;
		}
		if (!ax->opt) {
			mt_err("--vary: %s: not a workload option, sysfs:PATH or sysctl:NAME",
			       ax->key);
			mt_hint("memtlb sweep --help lists the workload options");
			return MT_EXIT_USAGE;
		}
	}
	ax->buf = strdup(eq + 1);
	if (!ax->buf)
		return MT_EXIT_FAILURE;
	for (char *save = NULL, *v = strtok_r(ax->buf, ",", &save); v;
	     v = strtok_r(NULL, ",", &save)) {
		if (ax->n == sizeof(ax->values) / sizeof(*ax->values)) {
			mt_err("--vary: %s: more than %zu values", ax->key,
			       sizeof(ax->values) / sizeof(*ax->values));
			return MT_EXIT_USAGE;
		}
		if (strlen(v) >= sizeof(((struct mt_param *)0)->value)) {
			mt_err("--vary: %s: value too long", ax->key);
			return MT_EXIT_USAGE;
		}
		ax->values[ax->n++] = v;
	}
	if (!ax->n) {
		mt_err("--vary: %s: no values", ax->key);
		return MT_EXIT_USAGE;
	}
	/* Workload values are checked now, by the option's own parser. */
	for (size_t i = 0; ax->opt && i < ax->n; i++) {
		struct mt_config scratch = sw->base;
		int ret = mt_cli_workload_opt(ax->opt, ax->values[i], &scratch);

		if (ret)
			return ret > 0 ? ret : MT_EXIT_USAGE;
	}
	sw->n_axes++;
	return 0;
}

static size_t n_points(const struct sweep *sw)
{
	size_t n = sw->n_regions;

	for (size_t a = 0; a < sw->n_axes; a++)
		n *= sw->axes[a].n;
	return n;
}

/* Point p: the first --vary outermost, the region innermost. */
static void point_values(const struct sweep *sw, size_t p, size_t *region, size_t *vi)
{
	*region = p % sw->n_regions;
	p /= sw->n_regions;
	for (size_t a = sw->n_axes; a-- > 0;) {
		vi[a] = p % sw->axes[a].n;
		p /= sw->axes[a].n;
	}
}

static void point_config(const struct sweep *sw, size_t p, struct mt_config *cfg)
{
	size_t ri, vi[MAX_AXES];

	point_values(sw, p, &ri, vi);
	*cfg = sw->base;
	cfg->region = sw->regions[ri];
	for (size_t a = 0; a < sw->n_axes; a++)
		if (sw->axes[a].opt)
			mt_cli_workload_opt(sw->axes[a].opt, sw->axes[a].values[vi[a]], cfg);
}

static int restore_all(struct sweep *sw)
{
	int failed = 0;

	for (size_t a = 0; a < sw->n_axes; a++) {
		struct axis *ax = &sw->axes[a];
		int ret;

		if (ax->opt || !ax->tun.have_saved || ax->cleanup < 0)
			continue;
		ret = mt_cleanup_run(ax->cleanup);
		if (ret) {
			mt_err("%s: could not restore '%s': %s", ax->key, ax->tun.saved,
			       strerror(-ret));
			failed = 1;
		}
	}
	return failed;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Checks of every point before the first runs: sizes, memory, phase. */
static int check_points(struct sweep *sw, size_t n, uint64_t *largest)
{
	bool phase_ok = !sw->phase;

	*largest = 0;
	for (size_t p = 0; p < n; p++) {
		struct mt_workload *w;
		struct mt_config cfg;
		int ret;

		point_config(sw, p, &cfg);
		ret = mt_cli_config_check(&cfg);
		if (ret)
			return ret;
		if (cfg.region > *largest)
			*largest = cfg.region;
		if (phase_ok || mt_workload_create(&w, &cfg))
			continue;
		for (unsigned int i = 0; i < mt_workload_phases(w); i++)
			phase_ok |= !strcmp(mt_workload_phase_name(w, i), sw->phase);
		mt_workload_destroy(w);
	}
	if (!phase_ok) {
		mt_err("--phase: %s: no such phase in this sweep", sw->phase);
		mt_hint("phases are mmap, write_N, read_N (N below --passes) and munmap");
		return MT_EXIT_USAGE;
	}
	return 0;
}

static int save_tunables(struct sweep *sw)
{
	for (size_t a = 0; a < sw->n_axes; a++) {
		struct axis *ax = &sw->axes[a];
		int ret;

		if (ax->opt)
			continue;
		ret = mt_tunable_save(&ax->tun);
		if (ret == -EACCES || ret == -EPERM || ret == -EROFS) {
			mt_err("--vary: %s: cannot write %s: %s", ax->key, ax->tun.path,
			       geteuid() ? "permission denied" : "read-only");
			mt_hint("kernel tunables are swept as root, on a writable /sys and /proc/sys");
			return MT_EXIT_USAGE;
		}
		if (ret) {
			mt_err("--vary: %s: %s: %s", ax->key, ax->tun.path, strerror(-ret));
			return MT_EXIT_USAGE;
		}
		/*
		 * The registry restores it whatever ends memtlb: SIGHUP from a
		 * dropped ssh session as much as the end of the sweep.
		 */
		ax->cleanup = mt_cleanup_init();
		if (!ax->cleanup)
			ax->cleanup = mt_cleanup_add_restore(ax->tun.path, ax->tun.saved);
		if (ax->cleanup < 0) {
			mt_err("--vary: %s: %s", ax->key, strerror(-ax->cleanup));
			return MT_EXIT_FAILURE;
		}
	}
	return 0;
}

static int set_tunables(struct sweep *sw, const size_t *vi)
{
	for (size_t a = 0; a < sw->n_axes; a++) {
		struct axis *ax = &sw->axes[a];
		int ret;

		if (ax->opt)
			continue;
		ret = mt_tunable_set(&ax->tun, ax->values[vi[a]]);
		if (ret) {
			mt_err("%s: cannot write '%s': %s", ax->key, ax->values[vi[a]],
			       strerror(-ret));
			return MT_EXIT_FAILURE;
		}
	}
	return 0;
}

static int print_result(const struct mt_report *rep, const struct sweep *sw, const char *phase)
{
	int ret = 0;

	switch (sw->base.format) {
	case MT_FORMAT_TABLE:
		ret = mt_report_print_sweep(stdout, rep, phase, &sw->ko);
		break;
	case MT_FORMAT_CSV:
		ret = mt_report_print_sweep_csv(stdout, rep, phase, &sw->ko);
		break;
	case MT_FORMAT_JSON:
		ret = mt_report_write(rep, "-");
		break;
	}
	if (ret) {
		mt_err("stdout: %s", strerror(-ret));
		return MT_EXIT_FAILURE;
	}
	return 0;
}

static int from_file(struct sweep *sw)
{
	struct mt_report *rep;
	const char *phase;
	char msg[256];
	int ret;

	ret = mt_report_load(sw->from, &rep, msg, sizeof(msg));
	if (ret) {
		mt_err("--from: %s: %s", sw->from, msg[0] ? msg : strerror(-ret));
		return MT_EXIT_USAGE;
	}
	phase = sw->phase ? sw->phase : mt_report_default_phase(rep);
	if (!mt_report_has_phase(rep, phase)) {
		mt_err("--phase: %s: not in %s", phase, sw->from);
		mt_report_destroy(rep);
		return MT_EXIT_USAGE;
	}
	ret = print_result(rep, sw, phase);
	mt_report_destroy(rep);
	return ret;
}

static int run_sweep(struct sweep *sw)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct mt_measure_opts mopts = { 0 };
	struct mt_report *rep = NULL;
	struct mt_event *ev = NULL;
	uint64_t largest, done_work = 0, total_work = 0;
	size_t n = n_points(sw), n_ev = 0, p = 0;
	bool tty = isatty(STDERR_FILENO), shown = false;
	char big[32], avail[32];
	struct timespec t0;
	const char *phase;
	int64_t mem;
	int ret;

	ret = check_points(sw, n, &largest);
	if (ret)
		return ret;
	ret = mt_cli_resolve_events(&sw->base, &ev, &n_ev);
	if (ret)
		return ret;
	ret = mt_cli_report_create(&rep, "sweep", &sw->base);
	if (ret) {
		free(ev);
		mt_err("sweep: %s", strerror(-ret));
		return MT_EXIT_FAILURE;
	}
	rep->config.region = largest;
	ret = save_tunables(sw);
	if (ret)
		goto out;

	for (size_t i = 0; i < n; i++) {
		struct mt_config cfg;

		point_config(sw, i, &cfg);
		total_work += cfg.region / cfg.block * cfg.iterations * (cfg.passes + 1);
	}
	mem = mt_sys_mem_available();
	mt_size_format(largest, big, sizeof(big));
	mt_size_format(mem > 0 ? (uint64_t)mem : 0, avail, sizeof(avail));
	fprintf(stderr, "memtlb: sweep: %zu point%s, largest region %s; memory guard: each "
		"point's region within MemAvailable (%s now)%s\n", n, n == 1 ? "" : "s", big,
		mem > 0 ? avail : "unknown", sw->base.force ? ", off (--force)" : "");

	/*
	 * Handled, not fatal: every tunable is restored and the report kept.
	 * SA_RESTART: a report being written is never cut short by EINTR.
	 */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	mopts.hw_counters = rep->system.hw_counters;
	mopts.stop = &stop_sig;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (p = 0; p < n && !stop_sig; p++) {
		size_t ri, vi[MAX_AXES];
		struct mt_result *res = NULL;
		struct mt_mismatch bad = { 0 };
		struct mt_config cfg;

		point_values(sw, p, &ri, vi);
		point_config(sw, p, &cfg);
		if (tty) {
			double el = seconds_since(&t0);
			char reg[32];

			mt_size_format_short(cfg.region, reg, sizeof(reg));
			fprintf(stderr, "\r\033[Kmemtlb: point %zu of %zu (region %s), %.1f s elapsed",
				p + 1, n, reg, el);
			if (done_work)
				fprintf(stderr, ", ETA %.0f s",
					el * (double)(total_work - done_work) / (double)done_work);
			shown = true;
		}
		ret = set_tunables(sw, vi);
		if (ret)
			goto restore;
		ret = mt_measure_stat(&cfg, ev, n_ev, &mopts, &res, &bad);
		if (ret == -EINTR)
			break;
		if (ret) {
			char what[48];

			snprintf(what, sizeof(what), "sweep: point %zu", p + 1);
			ret = mt_cli_measure_error(what, ret, &bad);
			goto restore;
		}
		for (size_t a = 0; a < sw->n_axes && !ret; a++)
			ret = mt_result_set_param(res, sw->axes[a].key,
						  sw->axes[a].values[vi[a]]);
		if (!ret)
			ret = mt_report_add(rep, res);
		if (ret) {
			mt_result_destroy(res);
			mt_err("sweep: %s", strerror(-ret));
			ret = MT_EXIT_FAILURE;
			goto restore;
		}
		for (size_t e = 0; e < n_ev; e++)
			rep->user_only |= ev[e].user_only;
		done_work += cfg.region / cfg.block * cfg.iterations * (cfg.passes + 1);
		/* After every point: an interrupted sweep keeps what it finished. */
		if (sw->base.output) {
			ret = mt_report_write(rep, sw->base.output);
			if (ret) {
				mt_err("-o: %s: %s", sw->base.output, strerror(-ret));
				ret = MT_EXIT_FAILURE;
				goto restore;
			}
		}
	}
	ret = 0;
restore:
	if (shown)
		fprintf(stderr, "\r\033[K");
	if (restore_all(sw) && !ret)
		ret = MT_EXIT_FAILURE;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (ret)
		goto out;
	if (rep->user_only)
		mt_warn("counting user space only: kernel.perf_event_paranoid=%d forbids kernel "
			"counting for this user", rep->system.perf_event_paranoid);
	phase = sw->phase ? sw->phase : mt_report_default_phase(rep);
	ret = print_result(rep, sw, phase);
	if (!ret && stop_sig) {
		mt_err("sweep: interrupted by %s after %zu of %zu points%s%s", strsignal(stop_sig),
		       rep->n_results, n, sw->base.output ? "; report kept in " : "",
		       sw->base.output ? sw->base.output : "");
		ret = 128 + stop_sig;
	}
out:
	mt_report_destroy(rep);
	free(ev);
	return ret;
}

static int cmd_sweep(int argc, char *argv[])
{
	struct sweep sw = { 0 };
	char msg[256];
	int c, ret;

	mt_cli_config_init(&sw.base);
	mt_knee_opts_init(&sw.ko);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, cmdopts_s, cmdopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			ret = MT_EXIT_OK;
			goto out;
		case 'r':
			free(sw.regions);
			ret = mt_range_parse(optarg, &sw.regions, &sw.n_regions, msg, sizeof(msg));
			if (ret) {
				mt_err("--region: %s: %s", optarg, msg);
				mt_hint("a range is A..B, A..B:STEP or A..B:xF, e.g. 256m..768m:64m "
					"or 16m..16g:x2");
				ret = MT_EXIT_USAGE;
				goto out;
			}
			continue;
		case OPT_VARY:
			ret = parse_vary(&sw, optarg);
			if (ret)
				goto out;
			continue;
		case OPT_PHASE:
			sw.phase = optarg;
			continue;
		case OPT_FROM:
			sw.from = optarg;
			continue;
		case OPT_KNEE_RATIO:
			ret = mt_cli_knee_ratio_opt("--knee-ratio", optarg, &sw.ko.ratio);
			if (ret)
				goto out;
			continue;
		}
		ret = mt_cli_workload_opt(c, optarg, &sw.base);
		if (ret == -ENOENT) {
			ret = mt_cli_getopt_error("sweep", c, argv);
			goto out;
		}
		if (ret)
			goto out;
	}
	if (optind < argc) {
		mt_err("sweep: unexpected argument '%s'", argv[optind]);
		mt_hint("memtlb sweep --help lists the options");
		ret = MT_EXIT_USAGE;
		goto out;
	}
	if (sw.from) {
		if (sw.regions || sw.n_axes || sw.base.output) {
			mt_err("--from: prints a report again: no --region, --vary or -o with it");
			ret = MT_EXIT_USAGE;
			goto out;
		}
		ret = from_file(&sw);
		goto out;
	}
	if (!sw.regions) {
		if (!sw.n_axes) {
			mt_err("sweep: nothing to sweep");
			mt_hint("--region A..B[:STEP|xF] and/or --vary KEY=V1,V2,...");
			ret = MT_EXIT_USAGE;
			goto out;
		}
		sw.regions = malloc(sizeof(*sw.regions));
		if (!sw.regions) {
			ret = MT_EXIT_FAILURE;
			goto out;
		}
		sw.regions[0] = sw.base.region;
		sw.n_regions = 1;
	}
	ret = run_sweep(&sw);
out:
	free(sw.regions);
	for (size_t a = 0; a < sw.n_axes; a++)
		free(sw.axes[a].buf);
	if (sw.n_axes < MAX_AXES)
		free(sw.axes[sw.n_axes].buf);	/* one that failed its checks */
	return ret;
}

const struct mt_cmd mt_cmd_sweep = {
	.name = "sweep",
	.fn = cmd_sweep,
	.help = "run stat over a range of regions (and --vary values), find knees",
};
