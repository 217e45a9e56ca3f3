// SPDX-License-Identifier: MIT
/*
 * The configuration vocabulary, defined once: defaults, the names of every
 * choice, and one setter by option name. The command line, a sweep's --vary
 * values and the report loader all go through it, so a value means the same
 * thing wherever it comes from.
 */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/config.h"
#include "model/size.h"
#include "sys/sysinfo.h"

static const char *const backings[MT_BACKING_MAX] = {
	[MT_BACKING_SHARED] = "shared", [MT_BACKING_ANON] = "anon", [MT_BACKING_SHM] = "shm",
	[MT_BACKING_MEMFD] = "memfd", [MT_BACKING_FILE] = "file",
};
static const char *const pages[MT_PAGES_MAX] = {
	[MT_PAGES_DEFAULT] = "default", [MT_PAGES_BASE] = "base", [MT_PAGES_THP] = "thp",
	[MT_PAGES_HUGETLB] = "hugetlb", [MT_PAGES_MTHP] = "mthp",
};
static const char *const accesses[MT_ACCESS_MAX] = {
	[MT_ACCESS_SEQ] = "seq", [MT_ACCESS_RANDOM] = "random", [MT_ACCESS_STRIDE] = "stride",
};
static const char *const task_modes[MT_TASK_MODE_MAX] = {
	[MT_TASK_THREAD] = "thread", [MT_TASK_PROCESS] = "process",
};
static const char *const task_regions[MT_TASK_REGION_MAX] = {
	[MT_TASK_REGION_SHARED] = "shared", [MT_TASK_REGION_PRIVATE] = "private",
};
static const char *const formats[MT_FORMAT_MAX] = {
	[MT_FORMAT_TABLE] = "table", [MT_FORMAT_TEXT] = "text", [MT_FORMAT_MARKDOWN] = "markdown",
	[MT_FORMAT_CSV] = "csv", [MT_FORMAT_JSON] = "json", [MT_FORMAT_HTML] = "html",
	[MT_FORMAT_LKP] = "lkp", [MT_FORMAT_LAVA] = "lava", [MT_FORMAT_KCIDB] = "kcidb",
};
static const char *const file_caches[] = { "warm", "cold" };
static const char *const orders[MT_ORDER_MAX] = {
	[MT_ORDER_SEQUENTIAL] = "sequential", [MT_ORDER_INTERLEAVED] = "interleaved",
	[MT_ORDER_RANDOM] = "random",
};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *name_of(const char *const *names, int n, int i)
{
	return i >= 0 && i < n ? names[i] : "?";
}

static int parse_of(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

const char *mt_backing_name(enum mt_backing b) { return name_of(backings, N(backings), b); }
const char *mt_pages_name(enum mt_pages p) { return name_of(pages, N(pages), p); }
const char *mt_access_name(enum mt_access a) { return name_of(accesses, N(accesses), a); }
const char *mt_task_mode_name(enum mt_task_mode m) { return name_of(task_modes, N(task_modes), m); }
const char *mt_task_region_name(enum mt_task_region r)
{
	return name_of(task_regions, N(task_regions), r);
}
const char *mt_format_name(enum mt_format f) { return name_of(formats, N(formats), f); }

int mt_backing_parse(const char *s) { return parse_of(backings, N(backings), s); }
int mt_pages_parse(const char *s) { return parse_of(pages, N(pages), s); }
int mt_access_parse(const char *s) { return parse_of(accesses, N(accesses), s); }
int mt_task_mode_parse(const char *s) { return parse_of(task_modes, N(task_modes), s); }
int mt_task_region_parse(const char *s) { return parse_of(task_regions, N(task_regions), s); }
int mt_format_parse(const char *s) { return parse_of(formats, N(formats), s); }
const char *mt_order_name(enum mt_order o) { return name_of(orders, N(orders), o); }
int mt_order_parse(const char *s) { return parse_of(orders, N(orders), s); }

/* Compared by address: an explicit --events default is asked for, not implied. */
static const char default_set[] = MT_DEFAULT_EVENT_SET;

bool mt_config_events_default(const struct mt_config *cfg)
{
	return cfg->event_set == default_set;
}

void mt_config_init(struct mt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->region = 1ull << 30;
	cfg->block = (uint64_t)sysconf(_SC_PAGESIZE);
	cfg->iterations = 10;
	cfg->passes = 5;
	cfg->backing = MT_BACKING_SHARED;
	cfg->pages = MT_PAGES_DEFAULT;
	cfg->access = MT_ACCESS_SEQ;
	cfg->seed = 1;
	cfg->task_mode = MT_TASK_THREAD;
	cfg->task_region = MT_TASK_REGION_SHARED;
	cfg->cpu = -1;
	cfg->events = MT_DEFAULT_EVENTS;
	cfg->event_set = default_set;
	cfg->format = MT_FORMAT_TABLE;
	cfg->min_iterations = 3;
	cfg->max_iterations = 100;
}

bool mt_config_ci_phase(const struct mt_config *cfg, const char *phase)
{
	size_t len = strlen(phase);
	const char *s = cfg->ci_phases;

	if (!s || !*s)
		return true;
	while (*s) {
		size_t n = strcspn(s, ",");

		if (n == len && !strncmp(s, phase, n))
			return true;
		s += n;
		s += *s == ',';
	}
	return false;
}

uint64_t mt_config_regions(const struct mt_config *cfg)
{
	return cfg->tasks && cfg->task_region == MT_TASK_REGION_PRIVATE ? cfg->tasks : 1;
}

uint64_t mt_config_folio(const char *pages, uint64_t page)
{
	struct mt_config c;
	struct mt_msg msg;

	mt_config_init(&c);
	if (!pages || mt_config_set(&c, "pages", pages, &msg) || c.pages == MT_PAGES_DEFAULT)
		return 0;
	return c.pages == MT_PAGES_BASE ? page : c.huge_size;
}

static int size_value(const char *value, uint64_t *out, struct mt_msg *msg)
{
	const char *what, *hint;

	if (!mt_size_parse(value, out) && *out)
		return 0;
	mt_size_explain(value, &what, &hint);
	return mt_msg_set(msg, -EINVAL, hint, "%s: %s", value, what);
}

static int count_value(const char *value, unsigned long max, unsigned long *out,
		       struct mt_msg *msg)
{
	if (!mt_count_parse(value, max, out))
		return 0;
	snprintf(msg->text, sizeof(msg->text), "%s: not a count from 1 to %lu", value, max);
	msg->hint[0] = '\0';
	return -EINVAL;
}

/* Not one of names: the hint lists them, "--key takes a, b or c". */
static int choice(const char *key, const char *value, const char *const *names, int n,
		  const char *extra, int *out, struct mt_msg *msg)
{
	size_t len;

	*out = parse_of(names, n, value);
	if (*out >= 0)
		return 0;
	snprintf(msg->text, sizeof(msg->text), "%s: not one of the choices", value);
	len = (size_t)snprintf(msg->hint, sizeof(msg->hint), "--%s takes ", key);
	for (int i = 0; i < n && len < sizeof(msg->hint); i++)
		len += (size_t)snprintf(msg->hint + len, sizeof(msg->hint) - len, "%s%s",
					!i ? "" : i == n - 1 && !extra ? " or " : ", ", names[i]);
	if (extra && len < sizeof(msg->hint))
		snprintf(msg->hint + len, sizeof(msg->hint) - len, "%s%s",
			 strstr(extra, " or ") ? ", " : " or ", extra);
	return -EINVAL;
}

/* The PMD size THP uses, from the kernel; 2 MiB when it does not say. */
static uint64_t thp_size(void)
{
	char line[64];

	if (!mt_sys_read_line("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", line,
			      sizeof(line)))
		return strtoull(line, NULL, 10);
	return 2ull << 20;
}

static int set_backing(struct mt_config *cfg, const char *value, struct mt_msg *msg)
{
	int v;

	cfg->file_path = NULL;
	if (!strncmp(value, "file:", 5)) {
		if (!value[5])
			return mt_msg_set(msg, -EINVAL, NULL, "%s: no path after file:", value);
		cfg->backing = MT_BACKING_FILE;
		cfg->file_path = value + 5;
		return 0;
	}
	if (choice("backing", value, backings, MT_BACKING_MAX, "file:PATH", &v, msg))
		return -EINVAL;
	cfg->backing = v;
	return 0;
}

static int set_pages(struct mt_config *cfg, const char *value, struct mt_msg *msg)
{
	int v;

	cfg->huge_size = 0;
	if (!strncmp(value, "mthp", 4)) {
		uint64_t size;

		/* a power of two above the base page; which the kernel offers: check.c */
		if (value[4] != ':' || mt_size_parse(value + 5, &size) || size & (size - 1) ||
		    size <= (uint64_t)sysconf(_SC_PAGESIZE))
			return mt_msg_set(msg, -EINVAL, "an mTHP size the kernel offers, mthp:64k "
					  "(memtlb sysinfo lists them)",
					  "%s: not mthp:SIZE, a power of two above the page size",
					  value);
		cfg->pages = MT_PAGES_MTHP;
		cfg->huge_size = size;
		return 0;
	}
	if (!strcmp(value, "hugetlb:2m") || !strcmp(value, "hugetlb:1g")) {
		cfg->pages = MT_PAGES_HUGETLB;
		cfg->huge_size = value[8] == '2' ? 2ull << 20 : 1ull << 30;
		return 0;
	}
	if (choice("pages", value, pages, MT_PAGES_MAX, "hugetlb:2m or hugetlb:1g", &v, msg))
		return -EINVAL;
	cfg->pages = v;
	if (v == MT_PAGES_HUGETLB)
		cfg->huge_size = 2ull << 20;
	else if (v == MT_PAGES_THP)
		cfg->huge_size = thp_size();
	return 0;
}

static int set_access(struct mt_config *cfg, const char *value, struct mt_msg *msg)
{
	if (!strncmp(value, "stride:", 7)) {
		cfg->access = MT_ACCESS_STRIDE;
		return size_value(value + 7, &cfg->stride, msg);
	}
	if (!strcmp(value, "seq") || !strcmp(value, "random")) {
		cfg->access = mt_access_parse(value);
		return 0;
	}
	return mt_msg_set(msg, -EINVAL, "--access takes seq, random or stride:SIZE (stride:16m)",
		    "%s: not one of the choices", value);
}

static int set_seed(struct mt_config *cfg, const char *value, struct mt_msg *msg)
{
	unsigned long long v;
	char *end;

	/* strtoull skips spaces and takes a sign: " -1" was 2^64-1 */
	if (!isdigit((unsigned char)value[0]))
		return mt_msg_set(msg, -EINVAL, NULL, "%s: not a whole number", value);
	errno = 0;
	v = strtoull(value, &end, 0);
	if (errno || end == value || *end)
		return mt_msg_set(msg, -EINVAL, NULL, "%s: not a whole number", value);
	/* the report stores a JSON integer, a signed 64-bit number */
	if (v > INT64_MAX)
		return mt_msg_set(msg, -EINVAL, NULL, "%s: larger than 2^63-1 (9223372036854775807)", value);
	cfg->seed = v;
	return 0;
}

/* A CPU's number, as taskset -c and /sys/devices/system/cpu name it. */
static int set_cpu(struct mt_config *cfg, const char *value, struct mt_msg *msg)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)value[0]))
		return mt_msg_set(msg, -EINVAL, NULL, "%s: not a CPU number", value);
	errno = 0;
	v = strtoul(value, &end, 10);
	if (errno || *end || v >= CPU_SETSIZE)
		return mt_msg_set(msg, -EINVAL, NULL, "%s: not a CPU number from 0 to %d", value,
				  CPU_SETSIZE - 1);
	cfg->cpu = (int)v;
	return 0;
}

/* A positive number up to max, as --ci-target and --max-time take it. */
static int real_value(const char *value, double max, double *out, struct mt_msg *msg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !(v > 0) || v > max)
		return mt_msg_set(msg, -EINVAL, NULL, "%s: not a number above 0 and up to %g",
				  value, max);
	*out = v;
	return 0;
}

int mt_format_choose(const char *s, unsigned int allowed, enum mt_format *out,
		     struct mt_msg *msg)
{
	const char *names[MT_FORMAT_MAX];
	int n = 0, v;

	for (int f = 0; f < MT_FORMAT_MAX; f++)
		if (allowed & MT_FORMAT_BIT(f))
			names[n++] = formats[f];
	if (choice("format", s, names, n, NULL, &v, msg))
		return -EINVAL;
	*out = (enum mt_format)mt_format_parse(names[v]);
	return 0;
}

static int set_format(struct mt_config *cfg, const char *value, struct mt_msg *msg)
{
	return mt_format_choose(value, MT_FORMATS_MEASURE, &cfg->format, msg);
}

static int set_file_cache(struct mt_config *cfg, const char *value, struct mt_msg *msg)
{
	int v, ret = choice("file-cache", value, file_caches, N(file_caches), NULL, &v, msg);

	if (!ret)
		cfg->file_cold = v == 1;
	return ret;
}

static int set_event(struct mt_config *cfg, const char *value, struct mt_msg *msg)
{
	(void)msg;
	cfg->events = value;
	cfg->events_given = true;
	/* -e replaces the default set; beside an --events SET it is an error */
	if (cfg->event_set == default_set)
		cfg->event_set = NULL;
	return 0;
}

#define AT(field) offsetof(struct mt_config, field)
#define KEY(n, j, t, f) .name = n, .json = j, .type = t, .offset = AT(f)
#define CHOICES(names) .choices = names, .n_choices = N(names)

/*
 * Every key of the configuration, once: the long option (mt_config_set's,
 * --vary's), its name in a report's config (NULL: not saved), how its
 * value is read and into which field, its range, and flags. The command
 * line, --vary, the report writer and the loader all go through it, so a
 * value a report carries is one the option would take.
 */
static const struct mt_config_key keys[MT_CFG_MAX] = {
	[MT_CFG_REGION] = { KEY("region", "region", MT_KEY_SIZE, region),
		.flags = MT_KEY_VARY | MT_KEY_REQUIRED, .arg = "SIZE",
		.help = "region to map (default 1g; k/m/g/t, 0x hex)", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_BLOCK] = { KEY("block", "block", MT_KEY_SIZE, block),
		.flags = MT_KEY_VARY | MT_KEY_REQUIRED, .letter = 'b', .arg = "SIZE",
		.help = "one word touched per block (default: page size)",
		.group = MT_GROUP_WORKLOAD },
	[MT_CFG_ITERATIONS] = { KEY("iterations", "iterations", MT_KEY_COUNT, iterations),
		.max = 1000000, .flags = MT_KEY_VARY | MT_KEY_REQUIRED, .letter = 'i', .arg = "N",
		.help = "mmap/touch/munmap cycles (default 10);", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_PASSES] = { KEY("passes", "passes", MT_KEY_COUNT, passes), .max = 1000000,
		.flags = MT_KEY_VARY | MT_KEY_REQUIRED, .arg = "N",
		.help = "write+read passes per iteration (default 5)", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_BACKING] = { KEY("backing", "backing", MT_KEY_CUSTOM, backing),
		.set = set_backing, CHOICES(backings), .flags = MT_KEY_VARY, .arg = "KIND",
		.help = "shared (MAP_SHARED|MAP_ANONYMOUS, default), anon,\n"
			"shm, memfd, file or file:PATH", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_FILE_CACHE] = { KEY("file-cache", "file_cache", MT_KEY_CUSTOM, file_cold),
		.set = set_file_cache, CHOICES(file_caches), .flags = MT_KEY_VARY, .arg = "MODE",
		.help = "warm (default) or cold: drop the file's cache\nbefore each iteration",
		.group = MT_GROUP_WORKLOAD },
	[MT_CFG_PAGES] = { KEY("pages", "pages", MT_KEY_CUSTOM, pages), .set = set_pages,
		CHOICES(pages), .flags = MT_KEY_VARY, .arg = "KIND",
		.help = "default, base, thp, mthp:SIZE, hugetlb, hugetlb:2m, hugetlb:1g",
		.group = MT_GROUP_WORKLOAD },
	[MT_CFG_RESERVE] = { KEY("reserve", "reserve", MT_KEY_FLAG, reserve),
		.help = "grow the hugetlb pool for the run (root), restore it",
		.group = MT_GROUP_WORKLOAD },
	[MT_CFG_ACCESS] = { KEY("access", "access", MT_KEY_CUSTOM, access), .set = set_access,
		CHOICES(accesses), .flags = MT_KEY_VARY, .arg = "ORDER",
		.help = "seq (default), random or stride:SIZE", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_SEED] = { KEY("seed", "seed", MT_KEY_CUSTOM, seed), .set = set_seed,
		.flags = MT_KEY_VARY | MT_KEY_INT, .arg = "N", .help = "seed of the random order (default 1)",
		.group = MT_GROUP_WORKLOAD },
	[MT_CFG_POPULATE] = { KEY("populate", "populate", MT_KEY_FLAG, populate),
		.help = "map with MAP_POPULATE (faults in the mmap phase)",
		.group = MT_GROUP_WORKLOAD },
	[MT_CFG_READ_FIRST] = { KEY("read-first", "read_first", MT_KEY_FLAG, read_first),
		.help = "a read pass (read_first) before write_0", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_TASKS] = { KEY("tasks", "tasks", MT_KEY_COUNT, tasks), .max = 4096,
		.flags = MT_KEY_VARY, .arg = "N",
		.help = "run the phases in N tasks behind a barrier", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_TASK_MODE] = { KEY("task-mode", "task_mode", MT_KEY_CHOICE, task_mode),
		CHOICES(task_modes), .flags = MT_KEY_VARY, .arg = "MODE",
		.help = "thread (default) or process", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_TASK_REGION] = { KEY("task-region", "task_region", MT_KEY_CHOICE, task_region),
		CHOICES(task_regions), .flags = MT_KEY_VARY, .arg = "KIND",
		.help = "shared (default: slices of one mapping) or private",
		.group = MT_GROUP_WORKLOAD },
	/* saved only when given: mt_config_value has no value for "any CPU" */
	[MT_CFG_CPU] = { KEY("cpu", "cpu", MT_KEY_CUSTOM, cpu), .set = set_cpu,
		.flags = MT_KEY_INT, .arg = "N",
		.help = "run the workload on CPU N alone (as taskset -c N)",
		.group = MT_GROUP_WORKLOAD },
	[MT_CFG_FORCE] = { KEY("force", NULL, MT_KEY_FLAG, force),
		.help = "run even if the region exceeds MemAvailable", .group = MT_GROUP_WORKLOAD },
	[MT_CFG_EVENT] = { KEY("event", NULL, MT_KEY_CUSTOM, events), .set = set_event,
		.flags = MT_KEY_VARY, .letter = 'e', .arg = "LIST",
		.help = "events, comma-separated, -e again adds (default:\n"
			"this CPU's events of the set " MT_DEFAULT_EVENT_SET ")",
		.group = MT_GROUP_COUNTING },
	[MT_CFG_EVENTS] = { KEY("events", NULL, MT_KEY_STRING, event_set), .flags = MT_KEY_VARY,
		.arg = "SET", .help = "a named event set for this CPU (memtlb list)",
		.group = MT_GROUP_COUNTING },
	[MT_CFG_EVENTS_DIR] = { KEY("events-dir", NULL, MT_KEY_STRING, events_dir),
		.flags = MT_KEY_VARY, .arg = "DIR", .help = "read event sets from DIR",
		.group = MT_GROUP_COUNTING },
	[MT_CFG_FORMAT] = { KEY("format", NULL, MT_KEY_CUSTOM, format), .set = set_format,
		.flags = MT_KEY_VARY, .arg = "FMT", .help = "table (default), csv or json",
		.group = MT_GROUP_OUTPUT },
	[MT_CFG_OUTPUT] = { KEY("output", NULL, MT_KEY_STRING, output), .flags = MT_KEY_VARY,
		.letter = 'o', .arg = "FILE",
		.help = "also write the JSON report to FILE (atomically;\n- for stdout)",
		.group = MT_GROUP_OUTPUT },
	[MT_CFG_VERBOSE] = { KEY("verbose", NULL, MT_KEY_FLAG, verbose), .letter = 'v',
		.help = "say why events are not supported", .group = MT_GROUP_OUTPUT },
	[MT_CFG_WIDE] = { KEY("wide", NULL, MT_KEY_FLAG, wide),
		.help = "every column, one row per phase, whatever the width",
		.group = MT_GROUP_OUTPUT },
	/* Repetition: never --vary'd (one run decides its own count). */
	[MT_CFG_WARMUP] = { KEY("warmup", "warmup", MT_KEY_COUNT, warmup), .max = 1000000,
		.flags = MT_KEY_REPEAT | MT_KEY_ZERO, .arg = "N",
		.help = "N iterations first, recorded, not summarised",
		.group = MT_GROUP_REPETITION },
	[MT_CFG_CI_TARGET] = { KEY("ci-target", "ci_target", MT_KEY_REAL, ci_target), .max = 100,
		.flags = MT_KEY_REPEAT | MT_KEY_CI, .arg = "PCT",
		.help = "iterate until every phase's 95% CI is within\n"
			"PCT % of its mean (instead of -i)", .group = MT_GROUP_REPETITION },
	[MT_CFG_MIN_ITERATIONS] = { KEY("min-iterations", "min_iterations", MT_KEY_COUNT,
					 min_iterations), .max = 1000000,
		.flags = MT_KEY_REPEAT | MT_KEY_CI, .arg = "N",
		.help = "with --ci-target: at least N (default 3)", .group = MT_GROUP_REPETITION },
	[MT_CFG_MAX_ITERATIONS] = { KEY("max-iterations", "max_iterations", MT_KEY_COUNT,
					 max_iterations), .max = 1000000,
		.flags = MT_KEY_REPEAT | MT_KEY_CI, .arg = "N",
		.help = "with --ci-target: at most N (default 100)", .group = MT_GROUP_REPETITION },
	[MT_CFG_MAX_TIME] = { KEY("max-time", "max_time", MT_KEY_REAL, max_time_s), .max = 1e6,
		.flags = MT_KEY_REPEAT | MT_KEY_CI | MT_KEY_IF_SET, .arg = "S",
		.help = "with --ci-target: stop after S seconds", .group = MT_GROUP_REPETITION },
	/* a command's own options: stat's --phase and --runs, sweep's --order */
	[MT_CFG_CI_PHASES] = { KEY("ci-phases", "ci_phases", MT_KEY_STRING, ci_phases),
		.flags = MT_KEY_REPEAT | MT_KEY_CI | MT_KEY_IF_SET },
	[MT_CFG_ORDER] = { KEY("order", "order", MT_KEY_CHOICE, order), CHOICES(orders),
		.flags = MT_KEY_REPEAT | MT_KEY_SWEEP },
	[MT_CFG_RUNS] = { KEY("runs", "runs", MT_KEY_COUNT, runs), .max = 64,
		.flags = MT_KEY_REPEAT | MT_KEY_IF_SET },
};

const struct mt_config_key *mt_config_keys(size_t *n)
{
	*n = N(keys);
	return keys;
}

const struct mt_config_key *mt_config_key(const char *name)
{
	for (size_t i = 0; name && i < N(keys); i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

int mt_config_set(struct mt_config *cfg, const char *key, const char *value,
		  struct mt_msg *msg)
{
	const struct mt_config_key *k = mt_config_key(key);
	char *field = (char *)cfg + (k ? k->offset : 0);
	int v, ret;

	msg->text[0] = msg->hint[0] = '\0';
	if (!k)
		return -ENOENT;
	if (k->type == MT_KEY_FLAG) {
		*(bool *)field = true;
		return 0;
	}
	if (!value)
		return mt_msg_set(msg, -EINVAL, NULL, "%s", "a value is needed");
	switch (k->type) {
	case MT_KEY_SIZE:
		return size_value(value, (uint64_t *)field, msg);
	case MT_KEY_COUNT:
		if ((k->flags & MT_KEY_ZERO) && !strcmp(value, "0")) {
			*(unsigned long *)field = 0;
			return 0;
		}
		return count_value(value, (unsigned long)k->max, (unsigned long *)field, msg);
	case MT_KEY_REAL:
		return real_value(value, k->max, (double *)field, msg);
	case MT_KEY_CHOICE:
		ret = choice(k->name, value, k->choices, k->n_choices, NULL, &v, msg);
		if (!ret)
			*(int *)field = v;	/* every choice field is an enum */
		return ret;
	case MT_KEY_STRING:
		*(const char **)field = value;
		return 0;
	case MT_KEY_CUSTOM:
	default:
		return k->set(cfg, value, msg);
	}
}

bool mt_config_has_value(const char *key)
{
	const struct mt_config_key *k = mt_config_key(key);

	return k && (k->flags & MT_KEY_VARY);
}

/* A key read by its type alone (not a parsed one), as a report saves it. */
static int typed_value(const struct mt_config_key *k, const char *field,
		       struct mt_config_value *out)
{
	switch (k->type) {
	case MT_KEY_FLAG:
		out->kind = MT_VALUE_BOOL;
		out->b = *(const bool *)field;
		return 0;
	case MT_KEY_SIZE:
		out->kind = MT_VALUE_INT;
		out->u = *(const uint64_t *)field;
		return 0;
	case MT_KEY_COUNT:
		out->kind = MT_VALUE_INT;
		out->u = *(const unsigned long *)field;
		return 0;
	case MT_KEY_REAL:
		out->kind = MT_VALUE_REAL;
		out->d = *(const double *)field;
		return 0;
	case MT_KEY_CHOICE:
		out->s = name_of(k->choices, k->n_choices, *(const int *)field);
		return 0;
	case MT_KEY_STRING:
		out->s = *(const char *const *)field;
		return 0;
	default:
		return -ENOENT;
	}
}

int mt_config_value(const struct mt_config *cfg, const struct mt_config_key *k,
		    struct mt_config_value *out)
{
	memset(out, 0, sizeof(*out));	/* MT_VALUE_STRING */
	/* the parsed keys: their fields say what the option's text named */
	switch ((enum mt_cfg_key)(k - keys)) {
	case MT_CFG_BACKING:
		out->s = mt_backing_name(cfg->backing);	/* a file's path is the run's own */
		return 0;
	case MT_CFG_FILE_CACHE:
		out->s = file_caches[cfg->file_cold];
		return 0;
	case MT_CFG_PAGES:
		out->s = mt_pages_name(cfg->pages);
		return 0;
	case MT_CFG_ACCESS:
		out->s = mt_access_name(cfg->access);
		return 0;
	case MT_CFG_SEED:
		out->kind = MT_VALUE_INT;
		out->u = cfg->seed;
		return 0;
	case MT_CFG_CPU:
		if (cfg->cpu < 0)
			return -ENOENT;	/* any CPU: not saved */
		out->kind = MT_VALUE_INT;
		out->u = (uint64_t)cfg->cpu;
		return 0;
	default:
		return typed_value(k, (const char *)cfg + k->offset, out);
	}
}
