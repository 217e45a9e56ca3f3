// SPDX-License-Identifier: MIT
/* memtlb run: count a command, perf stat's way, with memtlb's reports. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "measure/command.h"
#include "measure/rungrid.h"
#include "model/grid.h"
#include "model/size.h"
#include "model/report.h"
#include "sys/tunable.h"

enum {
	OPT_REPEAT = 'r',
	OPT_INTERVAL = 'I',
	OPT_PID = 'p',
	OPT_DURATION = MT_OPT_FIRST_FREE,
	OPT_FROM,
	OPT_VARY,
	OPT_ORDER,
};

static const struct option own_opts[] = {
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "interval-print", required_argument, NULL, OPT_INTERVAL },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "vary", required_argument, NULL, OPT_VARY },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The shared options run takes, model/config.c's; its output is on stderr. */
static const struct mt_cli_key keys[] = {
	{ .id = MT_CFG_EVENT }, { .id = MT_CFG_EVENTS }, { .id = MT_CFG_EVENTS_DIR },
	{ .id = MT_CFG_FORMAT }, { .id = MT_CLI_FIELD_SEP }, { .id = MT_CLI_JSON },
	{ .id = MT_CFG_OUTPUT }, { .id = MT_CFG_VERBOSE },
	{ .id = MT_CFG_SEED, .help = "--order random's shuffle (default 1)" },
	/* run's table has a row per event, not per phase */
	{ .id = MT_CFG_WIDE, .help = "every row, the events not counted too" },
	{ .id = MT_CLI_END },
};

static void help(void)
{
	printf("Usage: memtlb run [options] [--] COMMAND [ARGS...]\n"
	       "       memtlb run [options] -p PID [--duration S]\n"
	       "Run COMMAND (no shell) under a counter group, counting from its exec,\n"
	       "its children included; report the counts and the wall time.\n\n"
	       "  -r, --repeat N           run the command N times (default 1): mean,\n"
	       "                           stddev, cv and the standard error of the mean\n"
	       "  -I, --interval-print MS  also print the counts every MS ms while it\n"
	       "                           runs (10 to 3600000), perf stat -I's lines\n"
	       "  -p, --pid PID            count the running process PID (its threads and\n"
	       "                           what they start from now on) until it ends or\n"
	       "                           Ctrl-C\n"
	       "      --duration S         with -p: stop counting after S seconds\n"
	       "      --vary KEY=V1,V2,... run the command under each value of a kernel\n"
	       "                           tunable, -r times each: KEY is sysfs:/sys/PATH,\n"
	       "                           sysctl:NAME, debugfs:PATH or a shorthand (below);\n"
	       "                           repeat for a grid, a column per combination, the\n"
	       "                           first the baseline; restored however memtlb ends\n"
	       "      --order HOW          with --vary: interleaved (default: run 1 of every\n"
	       "                           column, then run 2, ...), random (each round\n"
	       "                           shuffled by --seed) or sequential\n");
	mt_cli_help_of(keys, MT_GROUP_NONE);
	printf("      --from FILE          print a saved run report again, as its run\n"
	       "                           printed it (--format, -x, -v, --wide apply)\n"
	       "  -h, --help               this text\n"
	       "memtlb's own output goes to stderr, as perf stat's: stdout is the command's.\n"
	       "The exit status is the command's; 2 when it cannot be run.\n"
	       "--vary's shorthands:\n");
	for (size_t i = 0; mt_tunable_shorthand(i, NULL); i++) {
		const char *spec, *name = mt_tunable_shorthand(i, &spec);

		printf("  %-24s %s\n", name, spec);
	}
}

/* The command could not be exec'd: why, said once for run and run --vary. */
static int exec_error(const char *what, int err)
{
	if (err == ENOENT) {
		mt_err("run: %s: command not found", what);
	} else if (err == ENOEXEC) {
		/* execvp would have run it under /bin/sh: no shell is used. */
		mt_err("run: %s: exec format error", what);
		mt_hint("not a binary for this machine, or a script without a #! line");
	} else {
		mt_err("run: %s: %s", what, strerror(err));
	}
	return MT_EXIT_USAGE;
}

static void join(char *buf, size_t len, char *const argv[], int argc)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

/* 1234567 as "1,234,567": perf stat's counts. */
static void grouped(char *buf, size_t len, uint64_t v)
{
	char digits[32];
	size_t n, o = 0;

	n = (size_t)snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

struct interval_out {
	bool header;
	char sep;	/* -x: CSV lines, perf stat -I -x's fields */
};

/*
 * -I: perf stat -I's layout, "time counts unit event", on stderr; with -x,
 * time, count, unit, event and the share of time counted (%), SEP between.
 */
static void print_interval(void *arg, double t_s, const struct mt_event *ev,
			   const struct mt_counts *d, size_t n_ev)
{
	struct interval_out *io = arg;
	char count[40], share[16], running[16];
	char sep = io->sep;

	if (!io->header && !sep)
		fprintf(stderr, "#%15s %18s %-5s %s\n", "time", "counts", "unit", "events");
	io->header = true;
	for (size_t i = 0; i < n_ev; i++) {
		bool clock = mt_event_time_unit(ev[i].name) != NULL;
		double v = (double)d[i].val, run = 100.0;

		share[0] = '\0';
		if (ev[i].err) {
			snprintf(count, sizeof(count), "<not supported>");
		} else if (!d[i].run && d[i].ena) {
			/* enabled, never scheduled; a task that did not run has ena 0 too */
			snprintf(count, sizeof(count), "<not counted>");
			run = 0;
		} else {
			if (d[i].run && d[i].run < d[i].ena) {
				/* multiplexed: scaled, as perf does, and the share said */
				run = 100.0 * (double)d[i].run / (double)d[i].ena;
				v = v * (double)d[i].ena / (double)d[i].run;
				snprintf(share, sizeof(share), "  (%.2f%%)", run);
			}
			if (clock)
				snprintf(count, sizeof(count), "%.2f", v / 1e6);
			else if (sep)
				snprintf(count, sizeof(count), "%.0f", v);
			else
				grouped(count, sizeof(count), (uint64_t)(v + 0.5));
		}
		/* not supported: no share of time either */
		if (ev[i].err)
			running[0] = '\0';
		else
			snprintf(running, sizeof(running), "%.2f", run);
		if (sep)
			fprintf(stderr, "%.9f%c%s%c%s%c%s%c%s\n", t_s, sep, count, sep,
				clock ? "msec" : "", sep, ev[i].name, sep, running);
		else
			fprintf(stderr, "%16.9f %18s %-5s %s%s\n", t_s, count, clock ? "msec" : "",
				ev[i].name, share);
	}
	fflush(stderr);
}

/* -p's process: a pid that exists now (the attach checks again). */
static int pid_opt(const char *arg, pid_t *out)
{
	unsigned long v;

	if (mt_count_parse(arg, 4194304, &v)) {	/* PID_MAX_LIMIT */
		mt_err("-p: %s: not a process id", arg);
		return MT_EXIT_USAGE;
	}
	if (kill((pid_t)v, 0) && errno == ESRCH) {
		mt_err("-p: %s: no such process", arg);
		return MT_EXIT_USAGE;
	}
	*out = (pid_t)v;
	return 0;
}

static int duration_opt(const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || !(v <= 1e6) || arg[0] == ' ') {
		mt_err("--duration: %s: not a number of seconds from 0 to 1000000", arg);
		mt_hint("--duration 10, --duration 0.5");
		return MT_EXIT_USAGE;
	}
	*out = v;
	return 0;
}

/* "pid 1234 (comm)": comm is the process's, untrusted: printable bytes only. */
static void attach_line(char *buf, size_t len, pid_t pid)
{
	char path[64], comm[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	for (char *c = comm; *c; c++)
		if (*c == '\n' || !isprint((unsigned char)*c))
			*c = *c == '\n' ? '\0' : '?';
	snprintf(buf, len, "pid %ld (%s)", (long)pid, comm);
}

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/*
 * run --vary: the tunables checked (exit 2, nothing changed), then the
 * grid's runs under the machine lock, the tunables restored, the study
 * printed. A signal between runs stops it after the run; the runs done
 * are reported.
 */
static int run_grid(const struct mt_grid *g, struct mt_config *cfg, unsigned long repeats,
		    char *argv[])
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop }, old[3];
	struct mt_rungrid_opts go = { .repeat = (unsigned int)repeats, .order = cfg->order,
				      .seed = cfg->seed, .stop = &stop_sig };
	struct mt_rungrid_outcome oc = { 0 };
	struct mt_rungrid *rg = NULL;
	struct mt_report *rep = NULL;
	struct mt_event *ev = NULL;
	struct mt_msg msg = { 0 };
	size_t n_ev = 0;
	int ret, rret, n;

	ret = mt_rungrid_create(&rg, g, &msg);
	if (ret)
		return ret == -ENOMEM ? mt_cli_fail("run", ret) : mt_cli_usage(&msg);
	if ((cfg->output && mt_cli_output_check(cfg->output)) ||
	    mt_cli_report_size_check(cfg, mt_grid_columns(g))) {
		ret = MT_EXIT_USAGE;
		goto out;
	}
	ret = mt_cli_machine_lock();
	if (ret)
		goto out;
	ret = mt_rungrid_check(rg, &msg);
	if (ret) {
		ret = ret == -ENOMEM ? mt_cli_fail("run", ret) : mt_cli_usage(&msg);
		goto out;
	}
	ret = mt_cli_resolve_events(cfg, &ev, &n_ev);
	if (ret)
		goto out;
	ret = mt_measure_report_create(&rep, "run", cfg);
	if (ret) {
		ret = mt_cli_fail("run", ret);
		goto out;
	}
	for (n = 0; argv[n]; n++)
		;
	join(rep->command_line, sizeof(rep->command_line), argv, n);
	go.hw_counters = rep->system.hw_counters;
	/* handled before the registry's: it keeps them, and restores at exit */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	ret = mt_rungrid_run(rg, argv, ev, n_ev, &go, rep, &oc, &msg);
	rret = mt_rungrid_restore(rg, &msg);
	for (size_t i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (rret)
		mt_err("run: %s", msg.text);
	if (!ret && oc.exec_errno) {
		ret = exec_error(argv[0], oc.exec_errno);
		goto out;
	}
	if (ret) {
		if (msg.text[0] && ret != -ENOMEM)
			mt_err("run: %s", msg.text);
		ret = msg.text[0] && ret != -ENOMEM ? MT_EXIT_FAILURE : mt_cli_fail("run", ret);
		goto out;
	}
	ret = mt_cli_report_emit(rep, cfg, stderr);
	if (!ret && rret)
		ret = MT_EXIT_FAILURE;
	if (!ret && oc.signal) {
		mt_err("run: interrupted by %s after %u of %u runs; the tunables are restored",
		       strsignal(oc.signal), oc.runs, rep->repeats);
		ret = 128 + oc.signal;
	} else if (!ret && rep->exit_status) {
		mt_err("run: %s: some runs exited non-zero (the last: %d): their columns say so",
		       argv[0], rep->exit_status);
		ret = rep->exit_status;
	}
out:
	mt_report_destroy(rep);
	mt_rungrid_destroy(rg);
	free(ev);
	return ret;
}

static int run_main(int argc, char *argv[], struct mt_grid **gridp)
{
	struct mt_run_opts ro = { 0 };
	struct interval_out io = { 0 };
	struct mt_event *ev = NULL, *used = NULL;
	struct mt_report *rep = NULL;
	struct mt_result *res = NULL;
	struct mt_run_outcome oc;
	unsigned long repeats = 1, interval = 0;
	const char *what, *from = NULL;
	struct mt_config cfg, base;
	size_t n_ev = 0;
	const struct option *cmdopts;
	struct mt_grid *grid = NULL;
	bool order_given = false;
	struct mt_msg msg;
	int c, ret;

	mt_config_init(&cfg);
	cfg.region = cfg.block = 0;
	cfg.passes = 0;
	memcpy(&base, &cfg, sizeof(base));
	opterr = 0;
	optind = 1;
	cmdopts = mt_cli_longopts_of(keys, own_opts);
	while ((c = getopt_long(argc, argv, mt_cli_shortopts_of(keys, "r:I:p:h"), cmdopts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case OPT_REPEAT:
			ret = mt_cli_count_opt("--repeat", optarg, &repeats);
			if (ret)
				return ret;
			continue;
		case OPT_INTERVAL:
			if (mt_count_parse(optarg, 3600000, &interval) || interval < 10) {
				mt_err("-I: %s: not a number of milliseconds from 10 to 3600000",
				       optarg);
				return MT_EXIT_USAGE;
			}
			continue;
		case OPT_PID:
			ret = pid_opt(optarg, &ro.attach);
			if (ret)
				return ret;
			continue;
		case OPT_DURATION:
			ret = duration_opt(optarg, &ro.duration_s);
			if (ret)
				return ret;
			continue;
		case OPT_FROM:
			from = optarg;
			continue;
		case OPT_VARY:
			ret = grid ? 0 : mt_grid_create(&grid);
			*gridp = grid;
			if (!ret)
				ret = mt_grid_add(grid, optarg, &msg);
			if (ret)
				return ret == -ENOMEM ? mt_cli_fail("run", ret) : mt_cli_usage(&msg);
			continue;
		case OPT_ORDER:
			if (mt_config_set(&base, "order", optarg, &msg) ||
			    mt_config_set(&cfg, "order", optarg, &msg)) {
				mt_err("--order: %s", msg.text);
				mt_hint("%s", msg.hint);
				return MT_EXIT_USAGE;
			}
			order_given = true;
			continue;
		}
		if (!mt_cli_is_workload_opt(c))
			return mt_cli_getopt_fail("run", c, argc, argv, cmdopts);
		ret = mt_cli_workload_opt(c, optarg, &cfg);
		if (ret)
			return ret;
	}
	if (from)
		return mt_cli_report_from("run", from, &base, &cfg, repeats != 1 || interval ||
					  ro.attach || ro.duration_s > 0 || optind < argc || grid,
					  stderr, NULL);
	if (!grid && (order_given || cfg.seed != base.seed)) {
		mt_err("run: --order and --seed order the runs of --vary's columns");
		mt_hint("memtlb run --vary thp=always,never -r 5 --order random -- COMMAND");
		return MT_EXIT_USAGE;
	}
	if (grid && (ro.attach || interval)) {
		mt_err("--vary: runs a command under each value: not with %s",
		       ro.attach ? "-p" : "-I");
		return MT_EXIT_USAGE;
	}
	if (grid && optind >= argc) {
		mt_err("run: no command to run");
		mt_hint("memtlb run --vary KEY=V1,V2 -r N -- COMMAND [ARGS...]");
		return MT_EXIT_USAGE;
	}
	if (grid) {
		if (!order_given)
			cfg.order = MT_ORDER_INTERLEAVED;
		return run_grid(grid, &cfg, repeats, argv + optind);
	}
	if (ro.attach && optind < argc) {
		mt_err("run: -p %ld and a command: count one or the other", (long)ro.attach);
		mt_hint("memtlb run -p PID, or memtlb run -- COMMAND");
		return MT_EXIT_USAGE;
	}
	if (ro.attach && repeats > 1) {
		mt_err("--repeat: %lu: a running process (-p) is counted once", repeats);
		return MT_EXIT_USAGE;
	}
	if (ro.duration_s > 0 && !ro.attach) {
		mt_err("--duration: counts a running process: give -p PID");
		mt_hint("a command is counted until it exits");
		return MT_EXIT_USAGE;
	}
	if (optind >= argc && !ro.attach) {
		mt_err("run: no command to run");
		mt_hint("memtlb run [options] -- COMMAND [ARGS...]");
		return MT_EXIT_USAGE;
	}
	ro.interval_ms = (unsigned int)interval;
	ro.interval = print_interval;
	io.sep = cfg.format == MT_FORMAT_CSV ? (cfg.csv_sep ? cfg.csv_sep : ',') : 0;
	ro.interval_arg = &io;
	cfg.iterations = repeats;
	if (cfg.output && mt_cli_output_check(cfg.output))
		return MT_EXIT_USAGE;
	if (mt_cli_report_size_check(&cfg, 1))
		return MT_EXIT_USAGE;
	mt_cli_machine_recover();
	ret = mt_cli_resolve_events(&cfg, &ev, &n_ev);
	if (ret)
		return ret;
	used = calloc(n_ev + 1, sizeof(*used));
	ret = used ? mt_measure_report_create(&rep, "run", &cfg) : -ENOMEM;
	if (ret)
		goto fail;
	if (ro.attach)
		attach_line(rep->command_line, sizeof(rep->command_line), ro.attach);
	else
		join(rep->command_line, sizeof(rep->command_line), argv + optind, argc - optind);
	/* the command's name in the messages below */
	what = ro.attach ? rep->command_line : argv[optind];
	rep->repeats = (unsigned int)repeats;
	ret = mt_measure_run(argv + optind, (unsigned int)repeats, ev, n_ev,
			     rep->system.hw_counters, &ro, &res, &oc, used);
	if (ret == -ESRCH && ro.attach) {
		mt_err("-p: %ld: no such process", (long)ro.attach);
		ret = MT_EXIT_USAGE;
		goto out;
	}
	if (!ret && oc.exec_errno) {
		ret = exec_error(what, oc.exec_errno);
		goto out;
	}
	if (ret == -ECHILD && oc.signal) {
		mt_err("run: interrupted by %s before %s ran", strsignal(oc.signal), what);
		ret = 128 + oc.signal;
		goto out;
	}
	if (ret)
		goto fail;
	rep->runs = oc.runs;
	rep->exit_status = oc.status;
	/* The command is the user's: memtlb does not run it again on its own. */
	if (oc.idle) {
		mt_warn("run: %s did not run while it was counted: its events are not counted",
			what);
	} else if (mt_measure_unscheduled(res)) {
		mt_warn("run: a counter group was never scheduled (not enough free counters): "
			"its events are not counted");
		mt_hint("fewer events with -e, or memtlb stat, which splits such a group");
	}
	for (size_t e = 0; e < n_ev; e++)
		rep->user_only |= used[e].user_only;
	ret = mt_report_add(rep, res);
	if (ret) {
		mt_result_destroy(res);
		goto fail;
	}
	ret = mt_cli_report_emit(rep, &cfg, stderr);
	if (oc.signal) {
		/* memtlb's own SIGTERM/SIGHUP, passed on: the runs done are reported. */
		mt_err("run: interrupted by %s after %u of %lu runs; %s got it too", strsignal(oc.signal),
		       oc.runs, repeats, what);
		ret = 128 + oc.signal;
	} else if (oc.status) {
		mt_err("run: %s: exit status %d (run %u of %lu)", what, oc.status, oc.runs,
		       repeats);
		ret = oc.status;
	}
	goto out;
fail:
	ret = mt_cli_fail("run", ret);
out:
	mt_report_destroy(rep);
	free(ev);
	free(used);
	return ret;
}

static int cmd_run(int argc, char *argv[])
{
	struct mt_grid *grid = NULL;
	int ret = run_main(argc, argv, &grid);

	mt_grid_destroy(grid);
	return ret;
}

const struct mt_cmd mt_cmd_run = {
	.name = "run",
	.fn = cmd_run,
	.help = "run a command under a counter group, perf stat's way",
};
