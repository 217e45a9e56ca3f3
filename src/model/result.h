/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_RESULT_H
#define MEMTLB_MODEL_RESULT_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/metrics.h"
#include "sys/mapinfo.h"

/*
 * One measured point as every later stage sees it: per phase, the time and
 * each event's summary, the derived metrics and the kernel's evidence. The
 * measurement fills it (stats.c), the report loader fills it from a file.
 */

#define MT_EVENT_NAME_MAX 192
#define MT_PHASE_NAME_MAX 16

/*
 * The phases of test_with_mmap's iteration, and the one spelling of their
 * names: "mmap", "read_first", "write_N", "read_N" (pass N), "munmap".
 */
enum mt_phase_kind {
	MT_PHASE_MMAP,
	MT_PHASE_READ_FIRST,
	MT_PHASE_WRITE,
	MT_PHASE_READ,
	MT_PHASE_MUNMAP,
	MT_PHASE_UNKNOWN,	/* a name that is none of these (from a file) */
};

/* The name of kind (pass for a write or read pass) into buf; returns buf. */
const char *mt_phase_name(char *buf, size_t len, enum mt_phase_kind kind, unsigned int pass);

/* The kind of a phase's name, and its pass (0 for the others). */
enum mt_phase_kind mt_phase_kind(const char *name, unsigned int *pass);

/* Past the first touch: a read pass, or a write pass after the first. */
bool mt_phase_steady(const char *name);

/* Summary of n samples; stddev is the sample (n - 1) one, cv = stddev/mean. */
struct mt_summary {
	size_t n;
	double mean;
	double stddev;
	double cv;	/* a fraction; 0 when n < 2 or mean == 0 */
	double min;
	double median;
	double max;
};

enum mt_counter_state {
	MT_COUNTER_OK,
	MT_COUNTER_UNSUPPORTED,	/* the event could not be opened */
	MT_COUNTER_NOT_COUNTED,	/* opened, never scheduled in this phase */
};

struct mt_counter_stat {
	enum mt_counter_state state;
	struct mt_summary s;	/* of scaled per-iteration deltas */
	double running;		/* time running / time enabled, over the iterations summarised */
	double run_ns;		/* mean time running per iteration counted, ns; 0: not known
				   (a report read back keeps the share alone) */
	/*
	 * Each iteration's (run's) scaled count, NAN where it was not
	 * counted: which ones s.n left out. NULL where not kept (a report
	 * read back); n = the phase's time_ns.n.
	 */
	double *samples;
};

/*
 * One of --runs' fresh processes, in one phase: its iterations' mean time
 * and each event's mean (NAN where not counted), and its mapping's start.
 */
struct mt_run_stat {
	size_t n;
	double time_mean;
	double *counter_means;	/* one per event of the result */
	uint64_t map_addr;	/* 0: not known */
};

struct mt_phase_stat {
	char name[MT_PHASE_NAME_MAX];
	struct mt_summary time_ns;
	double *time_samples;		/* n = time_ns.n */
	double *warmup_samples;		/* n = the result's warmup: not summarised */
	struct mt_counter_stat *counters;	/* one per event of the result */
	double derived[MT_DERIVED_MAX];
	unsigned int has_derived;	/* bit per enum mt_derived */
	unsigned int cross_group;	/* bit per derived: inputs from different groups */
	struct mt_summary *extras;	/* one per result extra; valid where has_extra */
	uint64_t has_extra;		/* bit per extra */
	/* --runs: n_runs of the result; between: of the runs' mean times. */
	struct mt_run_stat *runs;
	struct mt_summary between;
	double between_half;		/* 95% CI half-width over the runs; 0: n < 2 */
};

struct mt_result_event {
	char name[MT_EVENT_NAME_MAX];
	enum mt_role role;
	int err;		/* errno of the failed open, 0 when it counted */
	int user_only;		/* kernel counting was refused: user space only */
	bool rusage;		/* counted by getrusage, not the report's backend */
	int group;		/* counter group it was opened in; -1 when not opened */
	char reason[64];	/* why it is not counted, for humans */
	char meaning[128];	/* what it measures on this CPU (event sets), or "" */
};

/*
 * A parameter of a point besides region and block: a swept workload option
 * ("backing" = "anon") or kernel tunable ("sysfs:/sys/..." = "always").
 */
#define MT_PARAM_MAX 8

struct mt_param {
	char key[128];
	char value[64];
};

#define MT_EXTRA_NAME_MAX 40
#define MT_EXTRA_MAX 64

/*
 * Why a run stopped iterating: the fixed -i count, --ci-target met, or a
 * limit (--max-iterations, --max-time, a signal). NONE: not recorded
 * (a report of an older memtlb).
 */
enum mt_stop {
	MT_STOP_NONE,
	MT_STOP_ITERATIONS,
	MT_STOP_TARGET,
	MT_STOP_MAX_ITERATIONS,
	MT_STOP_MAX_TIME,
	MT_STOP_INTERRUPTED,
	MT_STOP_MAX,
};

/* The names reports and tables use ("target", "max-time"); NULL for NONE. */
const char *mt_stop_name(enum mt_stop s);
int mt_stop_parse(const char *s);

/* An iteration far from the rest in one phase, and what was seen in it. */
#define MT_OUTLIER_MAX 32
#define MT_CAUSE_MAX 48

struct mt_outlier {
	unsigned int iter;	/* 0-based, among the summarised iterations */
	unsigned int phase;
	double time_ns;
	char cause[MT_CAUSE_MAX];	/* "steal", "context-switches", ...; "" unseen */
};

/* One measured point: a stat run, or one point of a sweep. */
struct mt_result {
	uint64_t region;
	uint64_t block;
	uint64_t blocks;
	char params[160];	/* loaded reports: "region=256m block=4k ...", the point's key */
	unsigned int n_events;
	struct mt_result_event *events;
	unsigned int n_phases;
	struct mt_phase_stat *phases;
	unsigned int n_vary;
	struct mt_param vary[MT_PARAM_MAX];	/* swept parameters, also in params */
	/*
	 * Kernel-side evidence and task rates, per phase: rusage.minflt,
	 * vmstat.pgfault, ..., blocks_per_s. Named, so new ones need no schema.
	 */
	unsigned int n_extras;
	char (*extra_names)[MT_EXTRA_NAME_MAX];
	struct mt_mapinfo map;		/* proof of mapping (map.valid) */
	unsigned long tasks;		/* 0: inline */
	/* How the iterations went: all empty (0, NULL) in older reports. */
	enum mt_stop stop;
	unsigned int warmup;		/* iterations run first, not summarised */
	unsigned int evidence_iter;	/* the timed one (from 1) that read the kernel
					   evidence too; 0: one extra, untimed */
	uint64_t *iter_start_ns;	/* [iter]: CLOCK_MONOTONIC at its start, from the run's */
	double *iter_steal_ms;		/* [iter]: steal of all CPUs in it; < 0 unreadable */
	unsigned int n_iter_marks;	/* entries of the two above */
	unsigned int n_outliers;
	struct mt_outlier outliers[MT_OUTLIER_MAX];
	unsigned int n_runs;		/* --runs: entries of each phase's runs; 0: one process */
};

/* Give every phase room for n runs (mt_run_stat, counter means NAN); 0 or -errno. */
int mt_result_set_runs(struct mt_result *r, unsigned int n);

/* Allocate an empty result of this shape; destroy accepts NULL. */
int mt_result_create(struct mt_result **out, unsigned int n_phases, unsigned int n_events);
void mt_result_destroy(struct mt_result *r);

/* Give every phase room for n named extras; 0 or -ENOMEM. */
int mt_result_set_extras(struct mt_result *r, unsigned int n);

static inline bool mt_phase_has(const struct mt_phase_stat *p, enum mt_derived d)
{
	return p->has_derived & (1u << d);
}

/* The derived metric's inputs were counted in different groups (time slices). */
static inline bool mt_phase_cross_group(const struct mt_phase_stat *p, enum mt_derived d)
{
	return p->cross_group & (1u << d);
}

/* How many counter groups the result's events were opened in. */
int mt_result_groups(const struct mt_result *r);

/* The phase of that name, or NULL. */
const struct mt_phase_stat *mt_result_phase(const struct mt_result *r, const char *name);

/* The event of that name: its index, or -1. */
int mt_result_event_index(const struct mt_result *r, const char *name);

/* Add or replace a swept parameter (vary): 0, -E2BIG when full, -ENAMETOOLONG. */
int mt_result_set_param(struct mt_result *r, const char *key, const char *value);

/* The value of swept parameter key, NULL when r has none. */
const char *mt_result_param(const struct mt_result *r, const char *key);

/*
 * Whether a and b are the same point but for parameter key: the region,
 * the block and every other swept parameter alike (a pair of a
 * translation series, a row of the page-size matrix).
 */
bool mt_result_paired(const struct mt_result *a, const struct mt_result *b, const char *key);

#endif
