// SPDX-License-Identifier: MIT
/*
 * The configuration vocabulary, defined once: defaults, the names of every
 * choice, and one setter by option name. The command line, a sweep's --vary
 * values and the report loader all go through it, so a value means the same
 * thing wherever it comes from.
 */
#include <ctype.h>
#include <errno.h>
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
	[MT_PAGES_HUGETLB] = "hugetlb",
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
	[MT_FORMAT_TABLE] = "table", [MT_FORMAT_CSV] = "csv", [MT_FORMAT_JSON] = "json",
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

int mt_msg_set(struct mt_msg *msg, int err, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg->text, sizeof(msg->text), fmt, ap);
	va_end(ap);
	snprintf(msg->hint, sizeof(msg->hint), "%s", hint ? hint : "");
	return err;
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

/* The repetition options: not --vary'd (one run decides its own count). */
static int set_repetition(struct mt_config *cfg, const char *key, const char *value,
			  struct mt_msg *msg)
{
	int v;

	if (!value)
		return mt_msg_set(msg, -EINVAL, NULL, "%s", "a value is needed");
	if (!strcmp(key, "warmup")) {
		if (!strcmp(value, "0")) {
			cfg->warmup = 0;
			return 0;
		}
		return count_value(value, 1000000, &cfg->warmup, msg);
	}
	if (!strcmp(key, "ci-target"))
		return real_value(value, 100, &cfg->ci_target, msg);
	if (!strcmp(key, "min-iterations"))
		return count_value(value, 1000000, &cfg->min_iterations, msg);
	if (!strcmp(key, "max-iterations"))
		return count_value(value, 1000000, &cfg->max_iterations, msg);
	if (!strcmp(key, "max-time"))
		return real_value(value, 1e6, &cfg->max_time_s, msg);
	if (!strcmp(key, "ci-phases")) {
		cfg->ci_phases = value;
		return 0;
	}
	if (!strcmp(key, "runs"))
		return count_value(value, 64, &cfg->runs, msg);
	v = mt_order_parse(value);
	if (v < 0)
		return mt_msg_set(msg, -EINVAL, "--order takes sequential, interleaved or random",
				  "%s: not one of the choices", value);
	cfg->order = v;
	return 0;
}

static bool is_repetition(const char *key)
{
	static const char *const keys[] = {
		"warmup", "ci-target", "min-iterations", "max-iterations", "max-time", "order",
		"ci-phases", "runs",
	};

	return parse_of(keys, N(keys), key) >= 0;
}

int mt_config_set(struct mt_config *cfg, const char *key, const char *value,
		  struct mt_msg *msg)
{
	int v, ret;

	msg->text[0] = msg->hint[0] = '\0';
	/* Flags first: they take no value. */
	if (!strcmp(key, "reserve"))
		cfg->reserve = true;
	else if (!strcmp(key, "populate"))
		cfg->populate = true;
	else if (!strcmp(key, "read-first"))
		cfg->read_first = true;
	else if (!strcmp(key, "force"))
		cfg->force = true;
	else if (!strcmp(key, "verbose"))
		cfg->verbose = true;
	else if (!strcmp(key, "wide"))
		cfg->wide = true;
	else if (is_repetition(key))
		return set_repetition(cfg, key, value, msg);
	else if (!mt_config_has_value(key))
		return -ENOENT;
	else if (!value)
		return mt_msg_set(msg, -EINVAL, NULL, "%s", "a value is needed");
	else if (!strcmp(key, "region"))
		return size_value(value, &cfg->region, msg);
	else if (!strcmp(key, "block"))
		return size_value(value, &cfg->block, msg);
	else if (!strcmp(key, "iterations"))
		return count_value(value, 1000000, &cfg->iterations, msg);
	else if (!strcmp(key, "passes"))
		return count_value(value, 1000000, &cfg->passes, msg);
	else if (!strcmp(key, "tasks"))
		return count_value(value, 4096, &cfg->tasks, msg);
	else if (!strcmp(key, "backing"))
		return set_backing(cfg, value, msg);
	else if (!strcmp(key, "pages"))
		return set_pages(cfg, value, msg);
	else if (!strcmp(key, "access"))
		return set_access(cfg, value, msg);
	else if (!strcmp(key, "seed"))
		return set_seed(cfg, value, msg);
	else if (!strcmp(key, "file-cache")) {
		ret = choice(key, value, file_caches, N(file_caches), NULL, &v, msg);
		if (!ret)
			cfg->file_cold = v == 1;
		return ret;
	} else if (!strcmp(key, "task-mode")) {
		ret = choice(key, value, task_modes, MT_TASK_MODE_MAX, NULL, &v, msg);
		if (!ret)
			cfg->task_mode = v;
		return ret;
	} else if (!strcmp(key, "task-region")) {
		ret = choice(key, value, task_regions, MT_TASK_REGION_MAX, NULL, &v, msg);
		if (!ret)
			cfg->task_region = v;
		return ret;
	} else if (!strcmp(key, "format")) {
		ret = choice(key, value, formats, MT_FORMAT_MAX, NULL, &v, msg);
		if (!ret)
			cfg->format = v;
		return ret;
	} else if (!strcmp(key, "event")) {
		cfg->events = value;
		cfg->events_given = true;
		/* -e replaces the default set; beside an --events SET it is an error */
		if (cfg->event_set == default_set)
			cfg->event_set = NULL;
	} else if (!strcmp(key, "events")) {
		cfg->event_set = value;
	} else if (!strcmp(key, "events-dir")) {
		cfg->events_dir = value;
	} else if (!strcmp(key, "output")) {
		cfg->output = value;
	}
	return 0;
}

bool mt_config_has_value(const char *key)
{
	static const char *const keys[] = {
		"region", "block", "iterations", "passes", "backing", "file-cache", "pages",
		"access", "seed", "tasks", "task-mode", "task-region", "event", "events",
		"events-dir", "format", "output",
	};

	return parse_of(keys, N(keys), key) >= 0;
}
