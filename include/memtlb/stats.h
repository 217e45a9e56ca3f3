/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_STATS_H
#define MEMTLB_STATS_H

#include <stddef.h>
#include <stdint.h>

#include <memtlb/counters.h>
#include <memtlb/mapinfo.h>
#include <memtlb/sample.h>

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

int mt_stats_summarize(const double *x, size_t n, struct mt_summary *s);

/* Regularized incomplete beta function I_x(a, b); NAN for bad arguments. */
double mt_stats_betai(double a, double b, double x);

/* Two-sided p-value of Student's t with df degrees of freedom. */
double mt_stats_t_pvalue(double t, double df);

/* Welch's unequal-variances t-test, from two summaries (mean, stddev, n). */
struct mt_welch {
	double t;	/* (mean_b - mean_a) / standard error */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided */
};

/* 0, or -EDOM when a side has fewer than 2 samples (no variance to test). */
int mt_stats_welch(const struct mt_summary *a, const struct mt_summary *b,
		   struct mt_welch *w);

enum mt_counter_state {
	MT_COUNTER_OK,
	MT_COUNTER_UNSUPPORTED,	/* the event could not be opened */
	MT_COUNTER_NOT_COUNTED,	/* opened, never scheduled in this phase */
};

struct mt_counter_stat {
	enum mt_counter_state state;
	struct mt_summary s;	/* of scaled per-iteration deltas */
	double running;		/* time running / time enabled, summed over iterations */
};

/* Definitions and formulas: memtlb-metrics(7). */
enum mt_derived {
	MT_DERIVED_NS_PER_BLOCK,
	MT_DERIVED_FAULTS_PER_BLOCK,
	MT_DERIVED_DTLB_MISS_RATIO,	/* misses / accesses (likwid: miss ratio) */
	MT_DERIVED_MISSES_PER_BLOCK,
	MT_DERIVED_DTLB_MISS_RATE,	/* misses / instructions (likwid: miss rate) */
	MT_DERIVED_DTLB_MPKI,		/* 1000 misses / instructions */
	MT_DERIVED_ITLB_MPKI,
	MT_DERIVED_WALK_CYCLES_SHARE,	/* walk cycles / cycles (toplev's DTLB_Load idea) */
	MT_DERIVED_MAX,
};

struct mt_phase_stat {
	char name[16];
	struct mt_summary time_ns;
	double *time_samples;		/* n = time_ns.n */
	struct mt_counter_stat *counters;	/* one per event of the result */
	double derived[MT_DERIVED_MAX];
	unsigned int has_derived;	/* bit per enum mt_derived */
	unsigned int cross_group;	/* bit per derived: inputs from different groups */
	struct mt_summary *extras;	/* one per result extra; valid where has_extra */
	uint64_t has_extra;		/* bit per extra */
};

/* What an event stands for in the derived metrics, from its encoding. */
enum mt_role {
	MT_ROLE_NONE,
	MT_ROLE_PAGE_FAULTS,
	MT_ROLE_MINOR_FAULTS,
	MT_ROLE_MAJOR_FAULTS,
	MT_ROLE_DTLB_LOADS,
	MT_ROLE_DTLB_MISSES,
	MT_ROLE_CYCLES,
	MT_ROLE_INSTRUCTIONS,
	MT_ROLE_WALK_CYCLES,	/* cycles with a page walk in progress */
	MT_ROLE_ITLB_MISSES,
	MT_ROLE_MAX,
};

/* The set entry's role when it has one, else one read from the encoding. */
enum mt_role mt_event_role(const struct mt_event *ev);

/* Role names of the event set files: "dtlb-miss", "-" (none); -1 unknown. */
int mt_role_parse(const char *s);
const char *mt_role_name(int role);

struct mt_result_event {
	char name[MT_EVENT_NAME_MAX];
	enum mt_role role;
	int err;		/* errno of the failed open, 0 when it counted */
	int user_only;		/* kernel counting was refused: user space only */
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
};

/* Give every phase room for n named extras; 0 or -ENOMEM. */
int mt_result_set_extras(struct mt_result *r, unsigned int n);

const char *mt_derived_name(enum mt_derived d);
const char *mt_derived_unit(enum mt_derived d);	/* "ns/block", "fraction", ... */

/* Scale and summarise the raw samples of a run into a result. */
int mt_result_from_samples(struct mt_result **out, const struct mt_samples *s,
			   const struct mt_event *ev, uint64_t region, uint64_t block,
			   uint64_t blocks);

/* Allocate an empty result of this shape (the report loader fills it). */
int mt_result_create(struct mt_result **out, unsigned int n_phases, unsigned int n_events);
void mt_result_destroy(struct mt_result *r);

/* Derived metrics from the means; absent (bit clear) when an input is missing. */
void mt_result_derive(struct mt_result *r);

static inline int mt_phase_has(const struct mt_phase_stat *p, enum mt_derived d)
{
	return !!(p->has_derived & (1u << d));
}

/* The derived metric's inputs were counted in different groups (time slices). */
static inline int mt_phase_cross_group(const struct mt_phase_stat *p, enum mt_derived d)
{
	return !!(p->cross_group & (1u << d));
}

/*
 * Groups of several events that were never scheduled (every member not
 * counted in every phase): their events get ev->alone, so that counting
 * again puts each in a group of its own. Returns how many were marked.
 */
int mt_result_never_scheduled(const struct mt_result *r, struct mt_event *ev, size_t n);

/* Whether the result's events were split across several counter groups. */
int mt_result_groups(const struct mt_result *r);

/* The phase of that name, or NULL. */
const struct mt_phase_stat *mt_result_phase(const struct mt_result *r, const char *name);

int mt_result_event_index(const struct mt_result *r, const char *name);

/* Add or replace a swept parameter (vary): 0, -E2BIG when full, -ENAMETOOLONG. */
int mt_result_set_param(struct mt_result *r, const char *key, const char *value);

#endif
