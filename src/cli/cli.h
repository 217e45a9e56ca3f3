/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CLI_CLI_H
#define MEMTLB_CLI_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "counters/resolve.h"
#include "measure/measure.h"
#include "model/config.h"
#include "workload/workload.h"

/*
 * Options shared by every command that runs the workload (stat, sweep):
 * one table fragment, one parser, one help fragment (bpftool's
 * HELP_SPEC_OPTIONS idea), so the commands cannot drift apart.
 */
enum {
	MT_OPT_BACKING = 0x100,
	MT_OPT_FORMAT,
	MT_OPT_FORCE,
	MT_OPT_EVENTS,
	MT_OPT_EVENTS_DIR,
	MT_OPT_FILE_CACHE,
	MT_OPT_PAGES,
	MT_OPT_RESERVE,
	MT_OPT_ACCESS,
	MT_OPT_SEED,
	MT_OPT_POPULATE,
	MT_OPT_READ_FIRST,
	MT_OPT_TASKS,
	MT_OPT_TASK_MODE,
	MT_OPT_TASK_REGION,
	MT_OPT_WIDE,
	MT_OPT_REPEAT,
	MT_OPT_WARMUP,
	MT_OPT_CI_TARGET,
	MT_OPT_MIN_ITER,
	MT_OPT_MAX_ITER,
	MT_OPT_MAX_TIME,
	MT_OPT_TLB,
	MT_OPT_FIRST_FREE = 0x180,	/* commands number their own from here */
};

#define MT_WORKLOAD_SHORTOPTS "r:b:i:p:e:o:x:jv"

#define MT_WORKLOAD_LONGOPTS \
	{ "region", required_argument, NULL, 'r' }, \
	{ "block", required_argument, NULL, 'b' }, \
	{ "iterations", required_argument, NULL, 'i' }, \
	{ "repeat", required_argument, NULL, MT_OPT_REPEAT }, \
	{ "passes", required_argument, NULL, 'p' }, \
	{ "backing", required_argument, NULL, MT_OPT_BACKING }, \
	{ "file-cache", required_argument, NULL, MT_OPT_FILE_CACHE }, \
	{ "pages", required_argument, NULL, MT_OPT_PAGES }, \
	{ "reserve", no_argument, NULL, MT_OPT_RESERVE }, \
	{ "access", required_argument, NULL, MT_OPT_ACCESS }, \
	{ "seed", required_argument, NULL, MT_OPT_SEED }, \
	{ "populate", no_argument, NULL, MT_OPT_POPULATE }, \
	{ "read-first", no_argument, NULL, MT_OPT_READ_FIRST }, \
	{ "tasks", required_argument, NULL, MT_OPT_TASKS }, \
	{ "task-mode", required_argument, NULL, MT_OPT_TASK_MODE }, \
	{ "task-region", required_argument, NULL, MT_OPT_TASK_REGION }, \
	{ "force", no_argument, NULL, MT_OPT_FORCE }, \
	{ "event", required_argument, NULL, 'e' }, \
	{ "events", required_argument, NULL, MT_OPT_EVENTS }, \
	{ "events-dir", required_argument, NULL, MT_OPT_EVENTS_DIR }, \
	{ "format", required_argument, NULL, MT_OPT_FORMAT }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "field-separator", required_argument, NULL, 'x' }, \
	{ "json", no_argument, NULL, 'j' }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "wide", no_argument, NULL, MT_OPT_WIDE }

#define MT_WORKLOAD_HELP \
	"Workload:\n" \
	"  -r, --region SIZE        region to map (default 1g; k/m/g/t, 0x hex)\n" \
	MT_WORKLOAD_HELP_NO_REGION

/* The same without -r: sweep lists its own -r RANGE, once. */
#define MT_WORKLOAD_HELP_NO_REGION \
	"  -b, --block SIZE         one word touched per block (default: page size)\n" \
	"  -i, --iterations N       mmap/touch/munmap cycles (default 10);\n" \
	"      --repeat N           the same, perf stat's name\n" \
	"  -p, --passes N           write+read passes per iteration (default 5)\n" \
	"      --backing KIND       shared (MAP_SHARED|MAP_ANONYMOUS, default), anon,\n" \
	"                           shm, memfd, file or file:PATH\n" \
	"      --file-cache MODE    warm (default) or cold: drop the file's cache\n" \
	"                           before each iteration\n" \
	"      --pages KIND         default, base, thp, hugetlb, hugetlb:2m, hugetlb:1g\n" \
	"      --reserve            grow the hugetlb pool for the run (root), restore it\n" \
	"      --access ORDER       seq (default), random or stride:SIZE\n" \
	"      --seed N             seed of the random order (default 1)\n" \
	"      --populate           map with MAP_POPULATE (faults in the mmap phase)\n" \
	"      --read-first         a read pass (read_first) before write_0\n" \
	"      --tasks N            run the phases in N tasks behind a barrier\n" \
	"      --task-mode MODE     thread (default) or process\n" \
	"      --task-region KIND   shared (default: slices of one mapping) or private\n" \
	"      --force              run even if the region exceeds MemAvailable\n" \
	"Counting:\n" \
	"  -e, --event LIST         events, comma-separated, -e again adds (default:\n" \
	"                           this CPU's events of the set " MT_DEFAULT_EVENT_SET ")\n" \
	"      --events SET         a named event set for this CPU (memtlb list)\n" \
	"      --events-dir DIR     read event sets from DIR\n" \
	"Output:\n" \
	"      --format FMT         table (default), csv or json\n" \
	"  -x, --field-separator SEP  CSV with SEP between fields (perf stat -x)\n" \
	"  -j, --json               JSON (--format json)\n" \
	"  -o, --output FILE        also write the JSON report to FILE (atomically)\n" \
	"  -v, --verbose            say why events are not supported\n" \
	"      --wide               every column, one row per phase, whatever the width\n"

/*
 * The repetition options of stat and sweep: warm-up, and --ci-target's
 * adaptive count in place of -i.
 */
#define MT_REPEAT_LONGOPTS \
	{ "warmup", required_argument, NULL, MT_OPT_WARMUP }, \
	{ "ci-target", required_argument, NULL, MT_OPT_CI_TARGET }, \
	{ "min-iterations", required_argument, NULL, MT_OPT_MIN_ITER }, \
	{ "max-iterations", required_argument, NULL, MT_OPT_MAX_ITER }, \
	{ "max-time", required_argument, NULL, MT_OPT_MAX_TIME }

#define MT_REPEAT_HELP \
	"Repetition:\n" \
	"      --warmup N           N iterations first, recorded, not summarised\n" \
	"      --ci-target PCT      iterate until every phase's 95%% CI is within\n" \
	"                           PCT %% of its mean (instead of -i)\n" \
	"      --min-iterations N   with --ci-target: at least N (default 3)\n" \
	"      --max-iterations N   with --ci-target: at most N (default 100)\n" \
	"      --max-time S         with --ci-target: stop after S seconds\n"

/* Whether getopt's c is one of the repetition options. */
bool mt_cli_is_repeat_opt(int c);

/*
 * Set a repetition option; *limits set when it is one that needs
 * --ci-target. MT_EXIT_OK, or MT_EXIT_USAGE (printed).
 */
int mt_cli_repeat_opt(int c, const char *arg, struct mt_config *cfg, bool *limits);

/*
 * Checked before the run: the limits need --ci-target, min <= max, and
 * the report of points points holds the most iterations that may run.
 * 0, or MT_EXIT_USAGE (printed).
 */
int mt_cli_repeat_check(const char *cmd, const struct mt_config *cfg, bool limits,
			size_t points);

/* Whether getopt's c is one of the workload options. */
bool mt_cli_is_workload_opt(int c);

/*
 * Set a workload option (mt_config_set by its long name): MT_EXIT_OK, or
 * MT_EXIT_USAGE on a bad value (the message is printed).
 */
int mt_cli_workload_opt(int c, const char *arg, struct mt_config *cfg);

/* A config error from below the CLI, printed with its hint: MT_EXIT_USAGE. */
int mt_cli_usage(const struct mt_msg *msg);

/* Checks across options and the machine, before anything runs. */
int mt_cli_config_check(const struct mt_config *cfg);

/*
 * A command that changes the machine (tunables, --reserve) takes the
 * machine lock first: another memtlb changing it is waited for (said
 * once), and what a dead one left changed is restored and said before
 * anything is saved. A lock that cannot be had (no /run/memtlb for this
 * user) is left to the change itself, which says why it is impossible.
 * A wait has a bound (MT_JOURNAL_LOCK_TIMEOUT_S): past it, says who holds
 * the lock and returns MT_EXIT_FAILURE; otherwise 0.
 */
int mt_cli_machine_lock(void);

/*
 * Every command that measures, before it does: what a dead memtlb left
 * (tunables, pools, backing files) is restored or removed, and said, as by
 * mt_cli_machine_lock, without holding the lock for the run (a machine
 * lock held by a live memtlb is its own journal: nothing to restore).
 */
void mt_cli_machine_recover(void);

/* -o FILE checked as far as it can be before the run: 0, or MT_EXIT_USAGE (printed). */
int mt_cli_output_check(const char *output);

/*
 * -o must not replace one of the command's inputs (a report, --tlb's
 * probe, --from's sweep), by name, link or hard link: 0, or
 * MT_EXIT_USAGE said ("-o: F: is the input G"). NULL inputs are skipped.
 */
int mt_cli_output_not_input(const char *output, const char *const *inputs, size_t n);

/*
 * With -o or --format json: whether the report of POINTS points of cfg
 * stays within what memtlb reads back. 0, or MT_EXIT_USAGE (printed).
 */
int mt_cli_report_size_check(const struct mt_config *cfg, size_t points);

/*
 * getopt's '?' and ':' as one line on stderr, naming the option that
 * failed, with the nearest of opts' long names as a hint for a misspelt
 * one (opts NULL: none); returns MT_EXIT_USAGE. mt_cli_getopt_error is
 * the same without opts (argv NULL-terminated, as main's).
 */
int mt_cli_getopt_fail(const char *cmd, int c, int argc, char *argv[],
		       const struct option *opts);
int mt_cli_getopt_error(const char *cmd, int c, char *argv[]);

/* Size and count options: the message is printed; 0 or MT_EXIT_USAGE. */
int mt_cli_size_opt(const char *opt, const char *arg, uint64_t *out);
int mt_cli_count_opt(const char *opt, const char *arg, unsigned long *out);

/* --format ARG, one of the set allowed (MT_FORMATS_*): 0, or MT_EXIT_USAGE (printed). */
int mt_cli_format_opt(const char *arg, unsigned int allowed, enum mt_format *out);

/*
 * ARG as one of NAMES[0..N): *out is its index and 0 is returned; else the
 * message and a hint listing the choices are printed and MT_EXIT_USAGE returned.
 */
int mt_cli_choose(const char *opt, const char *arg, const char *const *names, int n, int *out);

/* --tlb FILE, stat's and sweep's: measured TLB levels from a probe report. */
#define MT_TLB_LONGOPT { "tlb", required_argument, NULL, MT_OPT_TLB }
#define MT_TLB_HELP \
	"      --tlb FILE           TLB levels measured by memtlb probe (its JSON\n" \
	"                           report), beside cpuid's, for pressure and knees\n"

/*
 * --tlb FILE read now, before any run: its probe.levels[] into out (at most
 * MT_REACH_MAX), *n of them. 0, or MT_EXIT_USAGE (printed).
 */
struct mt_reach;
int mt_cli_tlb_opt(const char *path, struct mt_reach *out, size_t *n);

/* A knee ratio: a number in (1, 1000]; 0 or MT_EXIT_USAGE (printed). */
int mt_cli_knee_ratio_opt(const char *opt, const char *arg, double *out);

/*
 * MEMTLB_BACKEND checked, then cfg->event_set resolved on the core PMU (or
 * its generic section) when given, else cfg->events; prints the error.
 * Returns 0, MT_EXIT_USAGE or MT_EXIT_FAILURE.
 */
int mt_cli_resolve_events(const struct mt_config *cfg, struct mt_event **ev, size_t *n);

/*
 * print(f, arg), a CSV writer, with sep between the fields (-x; 0 or ','
 * is print on out as it is). Returns print's result, or -errno.
 */
int mt_cli_print_csv(FILE *out, char sep, int (*print)(FILE *, const void *), const void *arg);

/*
 * Write cfg->output (-o: the JSON report; "-": on stdout, instead of what
 * follows when out is stdout), then the report in cfg->format on out
 * (stdout; memtlb run's is stderr, as perf stat's), once warnings about it
 * are out (user-only counting). Returns an exit code.
 */
int mt_cli_report_emit(const struct mt_report *rep, const struct mt_config *cfg, FILE *out);

/*
 * --from FILE: a saved report of cmd printed again, as mt_cli_report_emit
 * printed it for its run, on out; then after(out, rep, cfg) if not NULL.
 * Only the output options may differ from base (the command's config
 * before its options were read), and no other option given (other): the
 * rest was the saved run's. Returns an exit code.
 */
int mt_cli_report_from(const char *cmd, const char *path, const struct mt_config *base,
		       const struct mt_config *cfg, bool other, FILE *out,
		       int (*after)(FILE *out, const struct mt_report *rep,
				    const struct mt_config *cfg));

/*
 * A run-time failure of COMMAND as one line, with a hint naming the
 * resource limit behind ENOMEM (RLIMIT_AS) or EMFILE (RLIMIT_NOFILE).
 * Returns MT_EXIT_FAILURE.
 */
int mt_cli_fail(const char *cmd, int err);

/*
 * A failed measurement: a verification mismatch, what the engine said in
 * bad->why (a dead task, a tunable it could not write), or mt_cli_fail().
 */
int mt_cli_measure_error(const char *cmd, int err, const struct mt_mismatch *bad);

/*
 * What a measurement says while it runs, on stderr: from the first second
 * on, on a terminal, the iteration, the phase and the ETA (a sweep's point
 * before them), updated in place; with TERM=dumb (or none) plain lines, one
 * every 5 s, and no escape sequence or \r; and once per command the
 * recount of a group that was never scheduled.
 */
struct mt_cli_progress {
	const char *cmd;
	bool tty;
	bool plain;		/* TERM=dumb: lines, nothing in place */
	bool shown;		/* a progress line is on the terminal */
	bool recount_said;
	double plain_s;		/* when the last plain line was */
	char point[48];		/* a sweep's point, for the phase lines */
};

/* For cmd, on this stderr and TERM. */
void mt_cli_progress_init(struct mt_cli_progress *cp, const char *cmd);
void mt_cli_progress(void *arg, const struct mt_progress *p);

#endif
