/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_REPORT_H
#define MEMTLB_MODEL_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "model/config.h"
#include "model/flush.h"
#include "model/grid.h"
#include "model/reach.h"
#include "model/result.h"
#include "model/roofline.h"
#include "sys/sysinfo.h"

#define MT_REPORT_SCHEMA 3
/* Schema 1 is a subset of 2 (2 named every key that 1 wrote): still read. */
#define MT_REPORT_SCHEMA_MIN 1
#define MT_REPORT_MAX_SIZE (64 << 20)

/* A tunable memtlb run --vary set: its key as given, its file, what it was. */
struct mt_run_tunable {
	char key[MT_GRID_KEY_MAX];
	char path[256];
	char original[128];
};

/* A column's runs that exited non-zero, left out of its samples. */
struct mt_run_column {
	unsigned int failed;
	int exit_status;	/* the last failed run's, 0 when none failed */
};

/*
 * memtlb run --vary: a result per column, in column order, its tunables'
 * values its parameters (mt_result.vary, the first column the baseline);
 * how the runs were ordered, and per column the runs that failed.
 */
struct mt_run_grid {
	enum mt_order order;
	uint64_t seed;
	unsigned int repeat;		/* runs asked for per column */
	unsigned int n_tunables;
	struct mt_run_tunable tunables[MT_GRID_AXES_MAX];
	unsigned int n_columns;		/* = the report's results */
	struct mt_run_column columns[MT_GRID_COLUMNS_MAX];
};

/* Everything a report file holds; output code reads only this. */
struct mt_report {
	char command[16];
	char version[32];
	/*
	 * This measurement's identity, 32 hex digits drawn at random when it
	 * starts: two runs of one kernel on one host are told apart (KCIDB's
	 * test ids). "" in a report from before it.
	 */
	char run_id[33];
	struct mt_sysinfo system;
	struct mt_config config;
	char events[512];	/* backs config.events in a loaded report */
	bool user_only;		/* some event counted user space only */
	char backend[16];	/* counter backend: "perf" or "replay" */
	bool interrupted;	/* a signal stopped stat: the iterations done */
	/* memtlb run only (command "run"): what ran and how it ended. */
	char command_line[512];	/* argv joined by spaces, for humans */
	unsigned int runs;	/* runs done (the failing one included) */
	unsigned int repeats;	/* runs asked for */
	int exit_status;	/* the command's: exit code or 128 + signal */
	struct mt_run_grid *grid;	/* run --vary only, else NULL */
	char event_set[32];	/* --events SET, "" when -e or the default */
	size_t n_results;
	struct mt_result **results;
	struct mt_flush_info *flush;	/* memtlb flush only, else NULL */
	/* Measured TLB levels (--tlb: a probe report's), source "probe". */
	size_t n_levels;
	struct mt_reach levels[MT_REACH_MAX];
	/*
	 * The curves' phase and knee ratio of this run (sweep's --phase and
	 * --knee-ratio): the table, the CSV and the JSON all show these, so
	 * that every output of one run carries the same knees. "" and 0:
	 * the defaults (mt_report_default_phase, MT_KNEE_RATIO_DEFAULT).
	 * In the file as knee_ratio and knee_phase, read back with it; a
	 * command's own --phase and --knee-ratio replace them.
	 */
	char curve_phase[MT_PHASE_NAME_MAX];
	double knee_ratio;
	/*
	 * sweep --vary pages: the first-touch roofline's calibration, made
	 * before the points (measure/roofline); in the file as roofline and
	 * read back, so sweep --from splits the matrix's first touch again.
	 */
	struct mt_roofline roofline;
};

int mt_report_create(struct mt_report **out, const char *command);
void mt_report_destroy(struct mt_report *rep);	/* also destroys its results */
int mt_report_add(struct mt_report *rep, struct mt_result *res);

/*
 * The phase a report's curves and tables show when none is named, the one
 * policy for sweep, sweep --from and report: curve_phase when set, else
 * read_4 (seed 000's column), or the last read pass of a shorter run; NULL
 * when it has no read pass.
 */
const char *mt_report_default_phase(const struct mt_report *rep);
bool mt_report_has_phase(const struct mt_report *rep, const char *phase);

#endif
