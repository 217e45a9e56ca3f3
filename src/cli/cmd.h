/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CLI_CMD_H
#define MEMTLB_CLI_CMD_H

/* Exit codes: the CLI contract (memtlb(1), docs/ARCHITECTURE.md). */
enum {
	MT_EXIT_OK = 0,
	MT_EXIT_FAILURE = 1,	/* the measurement or a system call failed */
	MT_EXIT_USAGE = 2,	/* bad option, size, event name or input file */
	/*
	 * bisect-run's, for git bisect run: 0 good, 1 bad, 125 skip this
	 * commit, and 128 (git's "abort" range, 128 and up) for bad input:
	 * a 2 would mark every commit bad and send the bisection astray.
	 */
	MT_EXIT_BISECT_BAD = 1,
	MT_EXIT_BISECT_SKIP = 125,
	MT_EXIT_BISECT_ABORT = 128,
};

/* kmod's command table entry: one file per command exports one of these. */
struct mt_cmd {
	const char *name;
	int (*fn)(int argc, char *argv[]);
	const char *help;
};

extern const struct mt_cmd mt_cmd_stat;
extern const struct mt_cmd mt_cmd_sweep;
extern const struct mt_cmd mt_cmd_probe;
extern const struct mt_cmd mt_cmd_compare;
extern const struct mt_cmd mt_cmd_report;
extern const struct mt_cmd mt_cmd_run;
extern const struct mt_cmd mt_cmd_list;
extern const struct mt_cmd mt_cmd_sysinfo;
extern const struct mt_cmd mt_cmd_flush;
extern const struct mt_cmd mt_cmd_bisect_run;
extern const struct mt_cmd mt_cmd_selftest;

#endif
