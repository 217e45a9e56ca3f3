// SPDX-License-Identifier: MIT
/* memtlb run: count a command, perf stat's way, with memtlb's reports. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "measure/command.h"
#include "model/report.h"

enum {
	OPT_REPEAT = 'r',
};

static const char cmdopts_s[] = "+:r:e:o:vh";
static const struct option cmdopts[] = {
	{ "repeat", required_argument, NULL, 'r' },
	{ "event", required_argument, NULL, 'e' },
	{ "events", required_argument, NULL, MT_OPT_EVENTS },
	{ "events-dir", required_argument, NULL, MT_OPT_EVENTS_DIR },
	{ "format", required_argument, NULL, MT_OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb run [options] [--] COMMAND [ARGS...]\n"
	       "Run COMMAND (no shell) under a counter group, counting from its exec,\n"
	       "its children included; report the counts and the wall time.\n\n"
	       "  -r, --repeat N           run the command N times (default 1): mean,\n"
	       "                           stddev, cv and the standard error of the mean\n"
	       "  -e, --event LIST         events, comma-separated (default:\n"
	       "                           " MT_DEFAULT_EVENTS ")\n"
	       "      --events SET         a named event set (memtlb list shows them)\n"
	       "      --events-dir DIR     read event sets from DIR\n"
	       "      --format FMT         table (default), csv or json, on stderr\n"
	       "  -o, --output FILE        also write the JSON report to FILE (atomically;\n"
	       "                           - for stdout)\n"
	       "  -v, --verbose            say why events are not supported\n"
	       "  -h, --help               this text\n"
	       "memtlb's own output goes to stderr, as perf stat's: stdout is the command's.\n"
	       "The exit status is the command's; 2 when it cannot be run.\n");
}

static void join(char *buf, size_t len, char *const argv[], int argc)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

static int cmd_run(int argc, char *argv[])
{
	struct mt_event *ev = NULL, *used = NULL;
	struct mt_report *rep = NULL;
	struct mt_result *res = NULL;
	struct mt_run_outcome oc;
	unsigned long repeats = 1;
	struct mt_config cfg;
	size_t n_ev = 0;
	int c, ret;

	mt_config_init(&cfg);
	cfg.region = cfg.block = 0;
	cfg.passes = 0;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, cmdopts_s, cmdopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case OPT_REPEAT:
			ret = mt_cli_count_opt("--repeat", optarg, &repeats);
			if (ret)
				return ret;
			continue;
		}
		if (!mt_cli_is_workload_opt(c))
			return mt_cli_getopt_error("run", c, argv);
		ret = mt_cli_workload_opt(c, optarg, &cfg);
		if (ret)
			return ret;
	}
	if (optind >= argc) {
		mt_err("run: no command to run");
		mt_hint("memtlb run [options] -- COMMAND [ARGS...]");
		return MT_EXIT_USAGE;
	}
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
	join(rep->command_line, sizeof(rep->command_line), argv + optind, argc - optind);
	rep->repeats = (unsigned int)repeats;
	ret = mt_measure_run(argv + optind, (unsigned int)repeats, ev, n_ev,
			     rep->system.hw_counters, &res, &oc, used);
	if (!ret && oc.exec_errno) {
		if (oc.exec_errno == ENOENT) {
			mt_err("run: %s: command not found", argv[optind]);
		} else if (oc.exec_errno == ENOEXEC) {
			/* execvp would have run it under /bin/sh: no shell is used. */
			mt_err("run: %s: exec format error", argv[optind]);
			mt_hint("not a binary for this machine, or a script without a #! line");
		} else {
			mt_err("run: %s: %s", argv[optind], strerror(oc.exec_errno));
		}
		ret = MT_EXIT_USAGE;
		goto out;
	}
	if (ret == -ECHILD && oc.signal) {
		mt_err("run: interrupted by %s before %s ran", strsignal(oc.signal), argv[optind]);
		ret = 128 + oc.signal;
		goto out;
	}
	if (ret == -ECHILD) {
		/* A signal (^C to the group) ended it: its status, as a command's. */
		mt_err("run: %s: ended before it could exec (status %d)", argv[optind], oc.status);
		ret = oc.status > 128 ? oc.status : MT_EXIT_FAILURE;
		goto out;
	}
	if (ret)
		goto fail;
	rep->runs = oc.runs;
	rep->exit_status = oc.status;
	/* The command is the user's: memtlb does not run it again on its own. */
	if (mt_measure_unscheduled(res)) {
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
		       oc.runs, repeats, argv[optind]);
		ret = 128 + oc.signal;
	} else if (oc.status) {
		mt_err("run: %s: exit status %d (run %u of %lu)", argv[optind], oc.status, oc.runs,
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

const struct mt_cmd mt_cmd_run = {
	.name = "run",
	.fn = cmd_run,
	.help = "run a command under a counter group, perf stat's way",
};
