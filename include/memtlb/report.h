/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_REPORT_H
#define MEMTLB_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include <memtlb/config.h>
#include <memtlb/stats.h>
#include <memtlb/sysinfo.h>

#define MT_REPORT_SCHEMA 1
#define MT_REPORT_MAX_SIZE (64 << 20)

/* Everything a report file holds; output code reads only this. */
struct mt_report {
	char command[16];
	char version[32];
	struct mt_sysinfo system;
	struct mt_config config;
	char events[512];	/* backs config.events in a loaded report */
	bool user_only;		/* some event counted user space only */
	char backend[16];	/* counter backend: "perf" or "replay" */
	/* memtlb run only (command "run"): what ran and how it ended. */
	char command_line[512];	/* argv joined by spaces, for humans */
	unsigned int runs;	/* runs done (the failing one included) */
	unsigned int repeats;	/* runs asked for */
	int exit_status;	/* the command's: exit code or 128 + signal */
	char event_set[32];	/* --events SET, "" when -e or the default */
	size_t n_results;
	struct mt_result **results;
};

int mt_report_create(struct mt_report **out, const char *command);
void mt_report_destroy(struct mt_report *rep);	/* also destroys its results */
int mt_report_add(struct mt_report *rep, struct mt_result *res);

/*
 * Write the JSON report to path atomically: a 0600 temp file created with
 * O_EXCL in the same directory, fsync'ed, renamed over path. path "-" is
 * stdout. Returns 0 or -errno; nothing is left behind on failure.
 */
int mt_report_write(const struct mt_report *rep, const char *path);

/*
 * Write path atomically: fill(f, arg) writes into a temp file created with
 * O_EXCL (mode 0600) in path's directory; it is flushed, given mode, fsync'ed
 * and renamed over path, with SIGINT/SIGTERM/SIGHUP held from its creation
 * to the rename. fill returns 0 or -errno. Returns 0 or -errno; on failure
 * the temp file is unlinked and path is untouched.
 */
int mt_file_write_atomic(const char *path, mode_t mode, int (*fill)(FILE *f, void *arg),
			 void *arg);

/*
 * Load a report file. Returns 0, -errno for I/O, -EINVAL for a file that
 * is not a memtlb report (msg says why), -EPROTO for another schema.
 */
int mt_report_load(const char *path, struct mt_report **out, char *msg, size_t msg_len);

/* The "system" object of a report, alone, indented, to f (memtlb sysinfo --json). */
int mt_sysinfo_write_json(const struct mt_sysinfo *si, FILE *f);

/* The seed's table: phase, mean (us), cv (%), a column per event, derived. */
void mt_report_print_table(FILE *f, const struct mt_report *rep, bool verbose);
void mt_report_print_csv(FILE *f, const struct mt_report *rep);

/* A value for humans: whole above 100, 3 decimals below, %g at the extremes. */
void mt_report_number(char *buf, size_t len, double v);

/*
 * Sweeps (report/sweep.c): seed 000's table, one row per region of each
 * series with the phase's mean, ns per block, faults and misses per block
 * where counted, and the knees (NULL ko: defaults). 0 or -ENOMEM.
 */
struct mt_knee_opts;
int mt_report_print_sweep(FILE *f, const struct mt_report *rep, const char *phase,
			  const struct mt_knee_opts *ko);
int mt_report_print_sweep_csv(FILE *f, const struct mt_report *rep, const char *phase,
			      const struct mt_knee_opts *ko);

/* read_4 (seed 000's column), or the last read pass of a shorter run. */
const char *mt_report_default_phase(const struct mt_report *rep);
bool mt_report_has_phase(const struct mt_report *rep, const char *phase);

#endif
