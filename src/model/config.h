/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_CONFIG_H
#define MEMTLB_MODEL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/msg.h"

enum mt_backing {
	MT_BACKING_SHARED,	/* MAP_SHARED|MAP_ANONYMOUS, as test_with_mmap */
	MT_BACKING_ANON,	/* MAP_PRIVATE|MAP_ANONYMOUS */
	MT_BACKING_SHM,		/* a POSIX shm object (tmpfs under /dev/shm), MAP_SHARED */
	MT_BACKING_MEMFD,	/* memfd_create, MAP_SHARED */
	MT_BACKING_FILE,	/* a regular file made for the run, MAP_SHARED */
	MT_BACKING_MAX,
};

enum mt_pages {
	MT_PAGES_DEFAULT,	/* no madvise: the kernel's THP policy decides */
	MT_PAGES_BASE,		/* MADV_NOHUGEPAGE */
	MT_PAGES_THP,		/* MADV_HUGEPAGE on a huge-page-aligned region */
	MT_PAGES_HUGETLB,	/* MAP_HUGETLB / MFD_HUGETLB with a size flag */
	MT_PAGES_MTHP,		/* one mTHP folio size (huge_size) alone, MADV_HUGEPAGE */
	MT_PAGES_MAX,
};

enum mt_access {
	MT_ACCESS_SEQ,
	MT_ACCESS_RANDOM,	/* every block once, order fixed before the timed phases */
	MT_ACCESS_STRIDE,	/* one block every cfg->stride bytes */
	MT_ACCESS_MAX,
};

enum mt_task_mode {
	MT_TASK_THREAD,
	MT_TASK_PROCESS,
	MT_TASK_MODE_MAX,
};

enum mt_task_region {
	MT_TASK_REGION_SHARED,	/* one mapping, tasks touch disjoint slices */
	MT_TASK_REGION_PRIVATE,	/* every task maps its own region */
	MT_TASK_REGION_MAX,
};

/*
 * Every format memtlb writes, once: --format's names are mt_format_name's.
 * Each command takes a set of them (MT_FORMATS_*), in this order.
 */
enum mt_format {
	MT_FORMAT_TABLE,	/* the measuring commands' table */
	MT_FORMAT_TEXT,		/* report and compare: a document for a terminal */
	MT_FORMAT_MARKDOWN,
	MT_FORMAT_CSV,
	MT_FORMAT_JSON,
	MT_FORMAT_HTML,		/* XHTML, self-contained: every string escaped */
	MT_FORMAT_LKP,		/* the exports (report/export.h) */
	MT_FORMAT_LAVA,
	MT_FORMAT_KCIDB,
	MT_FORMAT_MAX,
};

#define MT_FORMAT_BIT(f) (1u << (f))
/* stat, sweep, run, flush, probe */
#define MT_FORMATS_MEASURE (MT_FORMAT_BIT(MT_FORMAT_TABLE) | MT_FORMAT_BIT(MT_FORMAT_CSV) | \
			    MT_FORMAT_BIT(MT_FORMAT_JSON))
#define MT_FORMATS_COMPARE (MT_FORMAT_BIT(MT_FORMAT_TEXT) | MT_FORMAT_BIT(MT_FORMAT_MARKDOWN) | \
			    MT_FORMAT_BIT(MT_FORMAT_CSV) | MT_FORMAT_BIT(MT_FORMAT_JSON) | \
			    MT_FORMAT_BIT(MT_FORMAT_HTML))
/* memtlb report: its documents, then the exports */
#define MT_FORMATS_DOCUMENT (MT_FORMAT_BIT(MT_FORMAT_TEXT) | MT_FORMAT_BIT(MT_FORMAT_MARKDOWN) | \
			     MT_FORMAT_BIT(MT_FORMAT_HTML))
#define MT_FORMATS_EXPORT (MT_FORMAT_BIT(MT_FORMAT_LKP) | MT_FORMAT_BIT(MT_FORMAT_LAVA) | \
			   MT_FORMAT_BIT(MT_FORMAT_KCIDB))

/*
 * Without -e and --events: the event set "default" (events/default.events),
 * resolved to this CPU's events, so that no column is one of perf's generic
 * names, which mean other events on other CPUs. MT_DEFAULT_EVENTS is its
 * generic section, counted where no event set can be read.
 */
#define MT_DEFAULT_EVENT_SET "default"
#define MT_DEFAULT_EVENTS \
	"cycles,instructions,dTLB-loads,dTLB-load-misses,minor-faults,major-faults"

/* The order of a sweep's iterations: point by point, ABAB, or shuffled. */
enum mt_order {
	MT_ORDER_SEQUENTIAL,
	MT_ORDER_INTERLEAVED,
	MT_ORDER_RANDOM,
	MT_ORDER_MAX,
};

/*
 * What the user asked for: filled by the options, by a sweep's --vary
 * values and by the report loader through the same names and setter, read
 * by every later stage.
 */
struct mt_config {
	uint64_t region;
	uint64_t block;
	unsigned long iterations;
	unsigned long passes;
	enum mt_backing backing;
	const char *file_path;	/* --backing file:PATH, or NULL ($TMPDIR or /tmp) */
	bool file_cold;		/* --file-cache cold */
	enum mt_pages pages;
	uint64_t huge_size;	/* hugetlb/thp page size in bytes; 0 = default */
	bool reserve;		/* --reserve: grow the hugetlb pool for the run */
	enum mt_access access;
	uint64_t stride;	/* --access stride:SIZE */
	uint64_t seed;		/* --seed, for random */
	bool populate;		/* MAP_POPULATE */
	bool read_first;	/* a read pass before write_0 */
	unsigned long tasks;	/* 0: run inline in this thread (no --tasks) */
	enum mt_task_mode task_mode;
	enum mt_task_region task_region;
	int cpu;		/* --cpu N: the one CPU the workload runs on; -1 any */
	const char *events;	/* comma-separated, as given to -e */
	const char *event_set;	/* --events SET, or NULL */
	const char *events_dir;	/* --events-dir DIR, or NULL */
	bool events_given;	/* -e was given */
	enum mt_format format;
	char csv_sep;		/* -x SEP: between CSV fields; 0 is ',' */
	bool perf_lines;	/* -x or -j: perf stat's own lines where it has them (run) */
	const char *output;	/* -o FILE: the JSON report, or NULL */
	bool force;
	bool verbose;
	bool wide;		/* --wide: every column of the tables, whatever the width */
	/*
	 * Repetition: warm-up iterations first (run, not summarised); with
	 * ci_target > 0, iterate from min to max iterations until every
	 * phase's 95% CI is within ci_target % of its mean, or max_time_s.
	 */
	unsigned long warmup;
	double ci_target;	/* percent; 0: the fixed --iterations */
	unsigned long min_iterations;
	unsigned long max_iterations;
	double max_time_s;	/* 0: no limit */
	const char *ci_phases;	/* comma-separated phases --ci-target waits for; NULL: all */
	enum mt_order order;	/* sweep: the order of the points' iterations */
	unsigned long runs;	/* stat --runs: fresh processes; 0 or 1: this one */
};

/* The defaults: a 1 GiB shared region, page-size blocks, 10 x 5 passes. */
void mt_config_init(struct mt_config *cfg);

/* Whether cfg counts the default set because nothing else was asked for. */
bool mt_config_events_default(const struct mt_config *cfg);

/* How a key's value is read (mt_config_set) and into what kind of field. */
enum mt_key_type {
	MT_KEY_FLAG,	/* bool: set by its name alone */
	MT_KEY_SIZE,	/* uint64_t bytes, above 0 (mt_size_parse) */
	MT_KEY_COUNT,	/* unsigned long from 1 (0 with MT_KEY_ZERO) to max */
	MT_KEY_REAL,	/* double above 0, up to max */
	MT_KEY_CHOICE,	/* an enum: the index of one of choices */
	MT_KEY_STRING,	/* const char *, kept by pointer */
	MT_KEY_CUSTOM,	/* set() parses it (backing's file:PATH, hugetlb:1g, ...) */
};

enum {
	MT_KEY_VARY = 1 << 0,	/* takes a value a sweep can --vary */
	MT_KEY_REPEAT = 1 << 1,	/* repetition: one run's own, never --vary'd */
	MT_KEY_ZERO = 1 << 2,	/* a count that can be 0 */
	MT_KEY_REQUIRED = 1 << 3, /* every report's config has it */
	MT_KEY_CI = 1 << 4,	/* saved only with --ci-target */
	MT_KEY_IF_SET = 1 << 5,	/* saved only when set (not 0, not NULL) */
	MT_KEY_SWEEP = 1 << 6,	/* saved only in a sweep's report */
	MT_KEY_INT = 1 << 7,	/* MT_KEY_CUSTOM saved as an integer (seed, cpu) */
};

/* The keys, in the table's order (model/config.c): an index, not a name. */
enum mt_cfg_key {
	MT_CFG_REGION, MT_CFG_BLOCK, MT_CFG_ITERATIONS, MT_CFG_PASSES, MT_CFG_BACKING,
	MT_CFG_FILE_CACHE, MT_CFG_PAGES, MT_CFG_RESERVE, MT_CFG_ACCESS, MT_CFG_SEED,
	MT_CFG_POPULATE, MT_CFG_READ_FIRST, MT_CFG_TASKS, MT_CFG_TASK_MODE, MT_CFG_TASK_REGION,
	MT_CFG_CPU, MT_CFG_FORCE, MT_CFG_EVENT, MT_CFG_EVENTS, MT_CFG_EVENTS_DIR, MT_CFG_FORMAT,
	MT_CFG_OUTPUT, MT_CFG_VERBOSE, MT_CFG_WIDE, MT_CFG_WARMUP, MT_CFG_CI_TARGET,
	MT_CFG_MIN_ITERATIONS, MT_CFG_MAX_ITERATIONS, MT_CFG_MAX_TIME, MT_CFG_CI_PHASES,
	MT_CFG_ORDER, MT_CFG_RUNS,
	MT_CFG_MAX,
};

/* The --help section of a key that stat and sweep share (0: a command's own). */
enum mt_key_group {
	MT_GROUP_NONE,
	MT_GROUP_WORKLOAD,
	MT_GROUP_COUNTING,
	MT_GROUP_OUTPUT,
	MT_GROUP_REPETITION,
	MT_GROUP_MAX,
};

/*
 * One key of the configuration (model/config.c's table): the long option,
 * which mt_config_set and --vary take; its name in a report's config
 * (memtlb-json(5)), NULL where it is not saved; the field and the range.
 */
struct mt_config_key {
	const char *name;
	const char *json;
	enum mt_key_type type;
	size_t offset;		/* of the field in struct mt_config */
	double max;		/* MT_KEY_COUNT, MT_KEY_REAL */
	const char *const *choices;
	int n_choices;
	int (*set)(struct mt_config *cfg, const char *value, struct mt_msg *msg);
	unsigned int flags;
	/* --help: the short option (0: none), the value's name, the text */
	char letter;
	const char *arg;
	const char *help;	/* lines after the first start with '\n' */
	enum mt_key_group group;
};

/* The table, n keys (MT_CFG_MAX), indexed by enum mt_cfg_key. */
const struct mt_config_key *mt_config_keys(size_t *n);

/* The key of that option name; NULL if none. */
const struct mt_config_key *mt_config_key(const char *name);

/*
 * Set the option named key (the long option: "region", "backing",
 * "task-mode", ...) from value (NULL for a flag such as "populate"). String
 * values are kept by pointer: value must outlive cfg. Returns 0, -ENOENT for
 * a key that is not an option, -EINVAL (msg says why) for a bad value.
 */
int mt_config_set(struct mt_config *cfg, const char *key, const char *value,
		  struct mt_msg *msg);

/* Whether key is an option that takes a value (and so can be --vary'd). */
bool mt_config_has_value(const char *key);

/* A key's value as a report saves it. */
struct mt_config_value {
	enum { MT_VALUE_STRING, MT_VALUE_INT, MT_VALUE_REAL, MT_VALUE_BOOL } kind;
	const char *s;		/* NULL: none */
	uint64_t u;
	double d;
	bool b;
};

/* Key k of cfg, as a report's config holds it: 0, or -ENOENT (not saved). */
int mt_config_value(const struct mt_config *cfg, const struct mt_config_key *k,
		    struct mt_config_value *out);

/* The names of the choices, as options, reports and tables spell them. */
const char *mt_backing_name(enum mt_backing b);
const char *mt_pages_name(enum mt_pages p);
const char *mt_access_name(enum mt_access a);
const char *mt_task_mode_name(enum mt_task_mode m);
const char *mt_task_region_name(enum mt_task_region r);
const char *mt_format_name(enum mt_format f);
const char *mt_order_name(enum mt_order o);

/* The choice of that name: its value, or -1. */
int mt_backing_parse(const char *s);
int mt_pages_parse(const char *s);
int mt_access_parse(const char *s);
int mt_task_mode_parse(const char *s);
int mt_task_region_parse(const char *s);
int mt_format_parse(const char *s);

/*
 * --format's value s, one of the set allowed (MT_FORMATS_*): 0 with *out,
 * or -EINVAL with msg, whose hint lists the set in order.
 */
int mt_format_choose(const char *s, unsigned int allowed, enum mt_format *out,
		     struct mt_msg *msg);
int mt_order_parse(const char *s);

/* Whether phase is one that --ci-target waits for (ci_phases, or all). */
bool mt_config_ci_phase(const struct mt_config *cfg, const char *phase);

/* Regions the run maps at once: one, or one per task with private regions. */
uint64_t mt_config_regions(const struct mt_config *cfg);

/*
 * The folio size a --pages value asks for, bytes, read by the option's own
 * setter (page: the base page's size); 0: the kernel's policy decides
 * (default), or a value not known. The matrix's rows and the roofline's
 * chunk sizes both come from it.
 */
uint64_t mt_config_folio(const char *pages, uint64_t page);

#endif
