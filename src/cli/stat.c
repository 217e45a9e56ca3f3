// SPDX-License-Identifier: MIT
/* memtlb stat: the mmap touch workload under a counter group. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "cli/sysinfo.h"
#include "counters/backend.h"
#include "measure/measure.h"
#include "model/report.h"
#include "report/json.h"
#include "report/cells.h"
#include "report/sweep.h"
#include "sys/journal.h"

enum { OPT_PHASE = MT_OPT_FIRST_FREE + 0x20, OPT_RUNS, OPT_FROM };

static const struct option own_opts[] = {
	MT_TLB_LONGOPT,
	{ "phase", required_argument, NULL, OPT_PHASE },
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb stat [options]\n"
	       "Run the mmap touch workload (test_with_mmap) under a counter group.\n\n");
	mt_cli_help_keys(MT_GROUPS_SHARED, true);
	printf("      --phase LIST         with --ci-target: the phases it waits for,\n"
	       "                           comma-separated (default: every phase)\n"
	       "      --runs N             N fresh processes, each doing the iterations:\n"
	       "                           the report keeps the spread between runs\n"
	       "      --from FILE          print a saved stat report again, as its run\n"
	       "                           printed it (--format, -x, -v, --wide apply)\n"
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
static volatile sig_atomic_t run_pid;	/* --runs: the run now going, or 0 */

static void on_signal(int sig)
{
	stop_sig = sig;
	/* The run stops between iterations as this process would. */
	if (run_pid > 0)
		kill((pid_t)run_pid, sig);
}

/*
 * The environment variable a --runs child finds its pipe in: the child is
 * memtlb itself, re-executed with the same options, so that it gets a new
 * address-space layout and new pages. It writes its report to the pipe
 * through the JSON writer, never -o or stdout.
 */
#define RUN_CHILD_ENV "MEMTLB_RUN_CHILD"

/* The child's pipe: a FIFO fd this process was handed, or -1. */
static int run_child_fd(void)
{
	const char *s = getenv(RUN_CHILD_ENV);
	struct stat st;
	char *end;
	long fd;

	if (!s)
		return -1;
	errno = 0;
	fd = strtol(s, &end, 10);
	if (errno || end == s || *end || fd < 3 || fd > 1023)
		return -2;
	/* Not trusted: only a pipe is written to. */
	if (fstat((int)fd, &st) || !S_ISFIFO(st.st_mode))
		return -2;
	return (int)fd;
}

/* Run k of --runs: memtlb stat ARGS again, its report loaded from a pipe. */
/* The runs' steal, switches and migrations added up: the report's whole run. */
static void env_add(struct mt_env_run *acc, const struct mt_env_run *r)
{
	if (!r->measured)
		return;
	if (!acc->measured) {
		*acc = *r;
		return;
	}
	acc->steal_ms = acc->steal_ms < 0 || r->steal_ms < 0 ? -1 : acc->steal_ms + r->steal_ms;
	acc->nvcsw += r->nvcsw;
	acc->nivcsw += r->nivcsw;
	acc->migrations = acc->migrations < 0 || r->migrations < 0 ? -1 :
			  acc->migrations + r->migrations;
}

static int run_one(int argc, char *argv[], unsigned int k, struct mt_result **out,
		   struct mt_env_run *acc)
{
	char path[64], env[32];
	struct mt_msg msg;
	struct mt_report *rep = NULL;
	char **cargv;
	int fds[2], status, ret;
	pid_t pid, parent = getpid();

	cargv = calloc((size_t)argc + 2, sizeof(*cargv));
	if (!cargv)
		return -ENOMEM;
	cargv[0] = "memtlb";
	for (int i = 0; i < argc; i++)
		cargv[i + 1] = argv[i];
	if (pipe2(fds, O_CLOEXEC)) {
		ret = -errno;
		free(cargv);
		return ret;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		free(cargv);
		return ret;
	}
	if (!pid) {
		/* A killed parent stops its child: SIGTERM, so its cleanup runs. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(MT_EXIT_FAILURE);
		/* the run takes the machine lock its parent holds, never waits on it */
		if (fcntl(fds[1], F_SETFD, 0) || mt_journal_lock_pass())
			_exit(MT_EXIT_FAILURE);
		snprintf(env, sizeof(env), "%d", fds[1]);
		if (setenv(RUN_CHILD_ENV, env, 1))
			_exit(MT_EXIT_FAILURE);
		execv("/proc/self/exe", cargv);
		mt_err("stat: run %u: cannot run memtlb again: %s", k + 1, strerror(errno));
		_exit(MT_EXIT_FAILURE);
	}
	run_pid = pid;
	if (stop_sig)	/* a signal came before run_pid was set */
		kill(pid, stop_sig);
	close(fds[1]);
	free(cargv);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	ret = mt_report_load(path, &rep, &msg);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	run_pid = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		/* The child said why on stderr; an interrupted run is no run. */
		mt_report_destroy(rep);
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
		return WEXITSTATUS(status) ? WEXITSTATUS(status) : MT_EXIT_FAILURE;
	}
	if (ret || rep->n_results != 1 || !rep->results[0]) {
		mt_err("stat: run %u: its report could not be read%s%s", k + 1,
		       msg.text[0] ? ": " : "", msg.text);
		mt_report_destroy(rep);
		return MT_EXIT_FAILURE;
	}
	*out = rep->results[0];
	rep->results[0] = NULL;
	env_add(acc, &rep->system.env.run);
	mt_report_destroy(rep);
	return 0;
}

/* --runs N: N children, their results merged; 0 or an exit status. */
static int stat_runs(int argc, char *argv[], const struct mt_config *cfg,
		     struct mt_result **out, struct mt_env_run *env)
{
	struct mt_result *runs[MT_RUNS_MAX] = { 0 };
	unsigned int n = (unsigned int)cfg->runs, k;
	int ret = 0;

	for (k = 0; k < n && !ret; k++) {
		ret = run_one(argc, argv, k, &runs[k], env);
		if (ret < 0)
			ret = mt_cli_fail("stat", ret);
		if (stop_sig) {
			/* Runs are the unit: a partial one would bias the spread. */
			mt_err("stat: interrupted by %s in run %u of %u; no report written",
			       strsignal(stop_sig), k + 1, n);
			ret = 128 + stop_sig;
		}
	}
	if (!ret) {
		ret = mt_measure_runs_merge(runs, n, out);
		if (ret) {
			mt_err("stat: the runs could not be merged: %s", strerror(-ret));
			ret = MT_EXIT_FAILURE;
		}
	}
	for (k = 0; k < n; k++)
		mt_result_destroy(runs[k]);
	return ret;
}

/* After the table: whether the TLB sizes agree with the curve (--from too). */
static int tlb_agreement(FILE *out, const struct mt_report *rep, const struct mt_config *cfg)
{
	if (cfg->format == MT_FORMAT_TABLE && !(cfg->output && !strcmp(cfg->output, "-")))
		mt_report_print_tlb_agreement(out, rep,
					      MT_PROSE_WIDTH(mt_report_width(out, rep)));
	return 0;
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
	struct mt_config cfg, base;
	struct mt_reach tlb[MT_REACH_MAX];
	size_t n_ev = 0, n_tlb = 0;
	bool limits = false;
	const char *tlb_path = NULL, *from = NULL;
	const struct option *cmdopts;
	int c, ret, child = run_child_fd();

	mt_config_init(&cfg);
	memcpy(&base, &cfg, sizeof(base));
	mt_cli_progress_init(&shown, "stat");
	opterr = 0;
	optind = 1;
	cmdopts = mt_cli_longopts(MT_GROUPS_SHARED, own_opts);
	while ((c = getopt_long(argc, argv, mt_cli_shortopts(MT_GROUPS_SHARED, "h"), cmdopts,
				NULL)) != -1) {
		if (c == 'h') {
			help();
			return MT_EXIT_OK;
		}
		if (c == OPT_RUNS) {
			struct mt_msg msg;

			if (mt_config_set(&cfg, "runs", optarg, &msg)) {
				mt_err("--runs: %s", msg.text);
				mt_hint("--runs 3: three fresh processes of -i iterations each");
				return MT_EXIT_USAGE;
			}
			continue;
		}
		if (c == OPT_FROM) {
			from = optarg;
			continue;
		}
		if (c == OPT_PHASE) {
			cfg.ci_phases = optarg;
			limits = true;
			continue;
		}
		if (c == MT_OPT_TLB) {
			tlb_path = optarg;
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
	if (from)
		return mt_cli_report_from("stat", from, &base, &cfg, tlb_path || limits, stdout,
					  tlb_agreement);
	if (child == -2) {
		mt_err("stat: %s: not a pipe this memtlb was handed", RUN_CHILD_ENV);
		mt_hint("unset %s", RUN_CHILD_ENV);
		return MT_EXIT_USAGE;
	}
	if (child >= 0) {
		cfg.runs = 0;	/* a child is one run, and never writes -o */
		cfg.output = NULL;
	}
	if (mt_cli_output_not_input(cfg.output,
				      (const char *[]){ tlb_path, mt_backend_replay_file() }, 2))
		return MT_EXIT_USAGE;
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
	if (child < 0)
		mt_sysinfo_precheck(&rep->system, &cfg);	/* once, not per run */
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
	if (cfg.runs) {
		ret = stat_runs(argc, argv, &cfg, &res, &rep->system.env.run);
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		if (ret)
			goto out;
		goto add;
	}
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
add:
	for (size_t e = 0; e < n_ev; e++)
		rep->user_only |= ev[e].user_only;
	ret = mt_report_add(rep, res);
	if (ret) {
		mt_result_destroy(res);
		goto fail;
	}
	if (child >= 0) {
		FILE *f;

		/* To the parent, whole or not at all: a closed pipe is EPIPE, not a signal. */
		signal(SIGPIPE, SIG_IGN);
		f = fdopen(child, "w");
		ret = f ? mt_report_print_json(f, rep) : -errno;
		if (f && fclose(f) && !ret)
			ret = -errno;
		if (ret)
			goto fail;
		ret = rep->interrupted ? 128 + stop_sig : MT_EXIT_OK;
		goto out;
	}
	ret = mt_cli_report_emit(rep, &cfg, stdout);
	if (!ret)
		tlb_agreement(stdout, rep, &cfg);
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
