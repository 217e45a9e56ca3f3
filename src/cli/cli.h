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
 * Options shared by the commands (stat, sweep, run, flush, probe): built
 * from model/config.c's key table (its names, letters, values and help),
 * so an option is spelled once and the commands cannot drift apart. A
 * key's getopt code is its letter, or MT_OPT_KEY(its id).
 */
#define MT_OPT_KEY(id) (0x100 + (id))

/*
 * perf stat's spellings beside a key (--repeat N for -i, -x SEP and -j for
 * --format), numbered after the keys: a command's list names them as it
 * names a key. MT_CLI_END ends a list.
 */
enum {
	MT_CLI_REPEAT = MT_CFG_MAX,
	MT_CLI_FIELD_SEP,
	MT_CLI_JSON,
	MT_CLI_END,
};

enum {
	MT_OPT_REPEAT = MT_OPT_KEY(MT_CLI_REPEAT),
	MT_OPT_TLB = MT_OPT_KEY(MT_CLI_END),
	MT_OPT_FIRST_FREE = 0x180,	/* commands number their own from here */
};

#define MT_GROUPS_SHARED ((1u << MT_GROUP_WORKLOAD) | (1u << MT_GROUP_COUNTING) | \
			  (1u << MT_GROUP_OUTPUT) | (1u << MT_GROUP_REPETITION))

/*
 * One shared option a command takes: id, a key (enum mt_cfg_key) or an
 * alias (MT_CLI_REPEAT...); help, its --help text where the command's
 * meaning differs from the table's (NULL: the table's).
 */
struct mt_cli_key {
	int id;
	const char *help;
};

/*
 * getopt_long's table: the keys of list (up to MT_CLI_END), then own, which
 * ends with a NULL name. One table per process (a command is one call).
 */
const struct option *mt_cli_longopts_of(const struct mt_cli_key *list,
					const struct option *own);

/* getopt's short options for them: "+:", the keys' letters, then own. */
const char *mt_cli_shortopts_of(const struct mt_cli_key *list, const char *own);

/* The --help lines of list's keys in group, in the list's order (MT_GROUP_NONE: all). */
void mt_cli_help_of(const struct mt_cli_key *list, enum mt_key_group group);

/*
 * The same for the keys of the groups (bits of enum mt_key_group), each
 * followed by its aliases (--repeat, -x, -j).
 */
const struct option *mt_cli_longopts(unsigned int groups, const struct option *own);
const char *mt_cli_shortopts(unsigned int groups, const char *own);

/* Their --help lines, by group under its heading; region false: without -r. */
void mt_cli_help_keys(unsigned int groups, bool region);

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

/* "5", "5%", "2.5": a percentage, finite and not negative; 0 or -EINVAL. */
int mt_cli_pct_parse(const char *s, double *out);

/*
 * A report file read for a command that only reads reports (compare,
 * bisect-run): 0, or MT_EXIT_USAGE with why (and for another schema, a
 * hint) printed.
 */
struct mt_report;
int mt_cli_report_load(const char *path, struct mt_report **out);

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

/* A report's JSON on f, as a sink part prints (cli/sink.h): rep is the report. */
int mt_cli_report_json(FILE *f, const void *rep);

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
