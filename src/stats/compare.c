// SPDX-License-Identifier: MIT
/*
 * Comparison of reports: points matched by their parameters, metrics by
 * phase and name, each later input against the first. lkp-tests' layout,
 * with a Welch test instead of range overlap, and an absolute change where
 * a percentage of a near-zero baseline would be meaningless.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/compare.h"
#include "stats/mwu.h"
#include "stats/stats.h"
#include "stats/welch.h"

/* Below 1% of the new value, a base turns a change into +9900% and more. */
#define NEAR_ZERO_FRACTION 0.01

const char *mt_family_name(enum mt_family f)
{
	static const char *const names[MT_FAMILY_MAX] = {
		[MT_FAMILY_TIME] = "times",
		[MT_FAMILY_PER_BLOCK] = "per-block costs",
		[MT_FAMILY_COUNTER] = "counters",
	};

	return f < MT_FAMILY_MAX ? names[f] : "?";
}

static int push_str(char ***list, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int push_str(char ***list, size_t *n, const char *fmt, ...)
{
	char **grown, *s;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown) {
		free(s);
		return -ENOMEM;
	}
	*list = grown;
	(*list)[(*n)++] = s;
	return 0;
}

void mt_compare_escape(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	if (!len)
		return;
	for (; *p; p++) {
		/* C0, DEL and UTF-8's C1 (U+0080..U+009F): a terminal acts on them. */
		bool esc = *p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
		unsigned int w = esc ? (*p == 0xc2 ? 8 : 4) : 1;

		if (n + w >= len)
			break;
		if (!esc)
			buf[n] = (char)*p;
		else if (*p == 0xc2)
			snprintf(buf + n, len - n, "\\xc2\\x%02x", *++p);
		else
			snprintf(buf + n, len - n, "\\x%02x", *p);
		n += w;
	}
	buf[n] = '\0';
}

/* Values from the files (CPU, events, ...) are escaped; an empty one is unknown. */
static int warn_str(struct mt_comparison *cmp, unsigned int i, const char *what,
		    const char *base, const char *other)
{
	char file[1024], a[512], b[512];

	if (!strcmp(base, other))
		return 0;
	mt_compare_escape(file, sizeof(file), cmp->files[i]);
	mt_compare_escape(a, sizeof(a), base[0] ? base : "(unknown)");
	mt_compare_escape(b, sizeof(b), other[0] ? other : "(unknown)");
	return push_str(&cmp->warnings, &cmp->n_warnings, "%s: %s differs: %s (base) vs %s",
			file, what, a, b);
}

static int warn_num(struct mt_comparison *cmp, unsigned int i, const char *what,
		    unsigned long long base, unsigned long long other)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%llu", base);
	snprintf(b, sizeof(b), "%llu", other);
	return warn_str(cmp, i, what, a, b);
}

static int warn_bool(struct mt_comparison *cmp, unsigned int i, const char *what,
		     bool base, bool other)
{
	return warn_str(cmp, i, what, base ? "yes" : "no", other ? "yes" : "no");
}

/*
 * The events counted, from the first result: config.events stays at the
 * default under --events SET, and a set resolves per PMU. Comma-joined,
 * malloc'ed; NULL for -ENOMEM.
 */
static char *events_counted(const struct mt_report *rep)
{
	const struct mt_result *r = rep->n_results ? rep->results[0] : NULL;
	size_t len = 1, n = 0;
	char *s;

	if (!r)
		return strdup(rep->events[0] ? rep->events : "(none)");
	for (unsigned int e = 0; e < r->n_events; e++)
		len += strlen(r->events[e].name) + 1;
	if (!r->n_events)
		return strdup("(none)");
	s = malloc(len);
	if (!s)
		return NULL;
	for (unsigned int e = 0; e < r->n_events; e++)
		n += (size_t)snprintf(s + n, len - n, "%s%s", e ? "," : "", r->events[e].name);
	return s;
}

static int check_events(struct mt_comparison *cmp, unsigned int i)
{
	char *a = events_counted(cmp->reps[0]), *b = events_counted(cmp->reps[i]);
	int ret = a && b ? warn_str(cmp, i, "events", a, b) : -ENOMEM;

	free(a);
	free(b);
	return ret;
}

static bool huge_pages(const struct mt_config *c)
{
	return c->pages == MT_PAGES_THP || c->pages == MT_PAGES_HUGETLB;
}

/*
 * Every option that changes what is measured. One that only applies with
 * another (the seed to random access, the task mode to tasks) is compared
 * where it applies on both sides: elsewhere it was not used, and where only
 * one side uses it the other option's warning says so already. Not here:
 * --reserve (the pool grown, the same pages), the file's path (not in the
 * report), and what only shapes the output.
 */
static int check_config(struct mt_comparison *cmp, unsigned int i)
{
	const struct mt_config *ca = &cmp->reps[0]->config, *cb = &cmp->reps[i]->config;
	int ret = 0;

	ret |= warn_num(cmp, i, "region", ca->region, cb->region);
	ret |= warn_num(cmp, i, "block", ca->block, cb->block);
	ret |= warn_num(cmp, i, "iterations", ca->iterations, cb->iterations);
	ret |= warn_num(cmp, i, "passes", ca->passes, cb->passes);
	ret |= warn_str(cmp, i, "backing", mt_backing_name(ca->backing),
			mt_backing_name(cb->backing));
	if (ca->backing == MT_BACKING_FILE && cb->backing == MT_BACKING_FILE)
		ret |= warn_str(cmp, i, "file cache", ca->file_cold ? "cold" : "warm",
				cb->file_cold ? "cold" : "warm");
	ret |= warn_str(cmp, i, "pages", mt_pages_name(ca->pages), mt_pages_name(cb->pages));
	if (huge_pages(ca) && huge_pages(cb))
		ret |= warn_num(cmp, i, "huge page size", ca->huge_size, cb->huge_size);
	ret |= warn_str(cmp, i, "access", mt_access_name(ca->access),
			mt_access_name(cb->access));
	if (ca->access == MT_ACCESS_STRIDE && cb->access == MT_ACCESS_STRIDE)
		ret |= warn_num(cmp, i, "stride", ca->stride, cb->stride);
	if (ca->access == MT_ACCESS_RANDOM && cb->access == MT_ACCESS_RANDOM)
		ret |= warn_num(cmp, i, "seed", ca->seed, cb->seed);
	ret |= warn_bool(cmp, i, "populate", ca->populate, cb->populate);
	ret |= warn_bool(cmp, i, "read first", ca->read_first, cb->read_first);
	ret |= warn_num(cmp, i, "tasks", ca->tasks, cb->tasks);
	if (ca->tasks && cb->tasks) {
		ret |= warn_str(cmp, i, "task mode", mt_task_mode_name(ca->task_mode),
				mt_task_mode_name(cb->task_mode));
		ret |= warn_str(cmp, i, "task region", mt_task_region_name(ca->task_region),
				mt_task_region_name(cb->task_region));
	}
	ret |= check_events(cmp, i);
	return ret;
}

/*
 * What decides whether numbers from two machines can be compared, as the
 * reports' system section records it: one line per field, so that a new
 * field is one more line. key is the JSON key (memtlb-json(5)). A field
 * either side does not know (an older report) is not compared. The kernel
 * is not here: it is what compare compares, named in the header.
 */
enum env_kind {
	ENV_STR,	/* char[], "" unknown */
	ENV_LONG,	/* long, < 0 unknown */
	ENV_INT,	/* int, < 0 unknown */
	ENV_TRI,	/* int 1 yes, 0 no, -1 unknown */
};

static const struct env_field {
	const char *key;
	const char *label;
	enum env_kind kind;
	size_t off;
} env_fields[] = {
#define ENV(key, label, kind, field) { key, label, kind, offsetof(struct mt_sysinfo, field) }
	ENV("cpu", "CPU", ENV_STR, cpu),
	ENV("cpu_vendor", "CPU vendor", ENV_STR, cpu_vendor),
	ENV("machine", "machine", ENV_STR, machine),
	ENV("pmu", "PMU", ENV_STR, pmu),
	ENV("hw_counters", "hardware counters", ENV_TRI, hw_counters),
	ENV("hypervisor", "hypervisor", ENV_TRI, hypervisor),
	ENV("page_size", "page size", ENV_LONG, page_size),
	ENV("thp_enabled", "THP", ENV_STR, thp_enabled),
	ENV("thp_defrag", "THP defrag", ENV_STR, thp_defrag),
	ENV("thp_shmem_enabled", "THP shmem", ENV_STR, thp_shmem_enabled),
	ENV("khugepaged.defrag", "khugepaged defrag", ENV_STR, thp_khugepaged_defrag),
	ENV("khugepaged.pages_to_scan", "khugepaged pages to scan", ENV_LONG,
	    khugepaged_pages_to_scan),
	ENV("khugepaged.scan_sleep_millisecs", "khugepaged scan sleep", ENV_LONG,
	    khugepaged_scan_sleep_ms),
	ENV("tunables.fault_around_bytes", "fault around bytes", ENV_LONG, fault_around_bytes),
	ENV("tunables.percpu_pagelist_high_fraction", "percpu pagelist high fraction",
	    ENV_LONG, percpu_pagelist_high_fraction),
	ENV("numa_nodes", "NUMA nodes", ENV_INT, numa_nodes),
	ENV("pv_tlb_flush", "paravirtual TLB flush", ENV_TRI, pv_tlb_flush),
	ENV("hypervisor_cpuid.vendor", "hypervisor vendor", ENV_STR, env.hv_vendor),
	ENV("cpufreq.governor", "CPU frequency governor", ENV_STR, env.governor),
	ENV("cpufreq.boost", "CPU boost", ENV_TRI, env.boost),
	ENV("smt_active", "SMT", ENV_TRI, env.smt_active),
	ENV("randomize_va_space", "ASLR", ENV_INT, env.aslr),
	ENV("cmdline_translation", "kernel command line (translation)", ENV_STR, env.cmdline),
	ENV("lockdown", "lockdown", ENV_STR, env.lockdown),
	ENV("cpu_emulated", "emulated CPU", ENV_TRI, emulation.emulated),
#undef ENV
};

/* The field as text; false when unknown. */
static bool env_value(const struct mt_sysinfo *si, const struct env_field *e, char *buf,
		      size_t len)
{
	const char *p = (const char *)si + e->off;
	long l;
	int i;

	switch (e->kind) {
	case ENV_STR:
		snprintf(buf, len, "%s", p);
		return p[0];
	case ENV_LONG:
		memcpy(&l, p, sizeof(l));
		snprintf(buf, len, "%ld", l);
		return l >= 0;
	case ENV_INT:
	case ENV_TRI:
		memcpy(&i, p, sizeof(i));
		if (e->kind == ENV_TRI)
			snprintf(buf, len, "%s", i ? "yes" : "no");
		else
			snprintf(buf, len, "%d", i);
		return i >= 0;
	}
	return false;
}

static int check_system(struct mt_comparison *cmp, unsigned int i)
{
	const struct mt_sysinfo *a = &cmp->reps[0]->system, *b = &cmp->reps[i]->system;
	int ret = 0;

	for (size_t k = 0; k < sizeof(env_fields) / sizeof(env_fields[0]); k++) {
		char va[256], vb[256];

		if (env_value(a, &env_fields[k], va, sizeof(va)) &&
		    env_value(b, &env_fields[k], vb, sizeof(vb)))
			ret |= warn_str(cmp, i, env_fields[k].label, va, vb);
	}
	return ret;
}

static const struct mt_env_mthp *mthp_size(const struct mt_env *e, unsigned int kb)
{
	for (unsigned int i = 0; i < e->n_mthp; i++)
		if (e->mthp[i].size_kb == kb)
			return &e->mthp[i];
	return NULL;
}

/* A report that read the sizes' directories knows shmem_enabled somewhere. */
static bool mthp_whole(const struct mt_env *e)
{
	for (unsigned int i = 0; i < e->n_mthp; i++)
		if (e->mthp[i].shmem_enabled[0])
			return true;
	return false;
}

static void mthp_list(const struct mt_env *e, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < e->n_mthp && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%ukB", i ? " " : "",
					e->mthp[i].size_kb);
}

/*
 * Each mTHP size's settings, as THP's: a size set to always changes what
 * backs a region with the default pages (the kernel picks the largest
 * allowed size that fits). A setting either side lacks (an older report,
 * a size without shmem) is not compared; the list of sizes is compared
 * where both reports read every directory (older ones missed some).
 */
static int check_mthp(struct mt_comparison *cmp, unsigned int i)
{
	const struct mt_env *a = &cmp->reps[0]->system.env, *b = &cmp->reps[i]->system.env;
	char what[48], la[MT_ENV_MTHP_MAX * 12], lb[MT_ENV_MTHP_MAX * 12];
	int ret = 0;

	for (unsigned int k = 0; k < a->n_mthp; k++) {
		const struct mt_env_mthp *x = &a->mthp[k], *y = mthp_size(b, x->size_kb);

		if (!y)
			continue;
		snprintf(what, sizeof(what), "mTHP %ukB", x->size_kb);
		if (x->enabled[0] && y->enabled[0])
			ret |= warn_str(cmp, i, what, x->enabled, y->enabled);
		snprintf(what, sizeof(what), "mTHP %ukB shmem", x->size_kb);
		if (x->shmem_enabled[0] && y->shmem_enabled[0])
			ret |= warn_str(cmp, i, what, x->shmem_enabled, y->shmem_enabled);
	}
	if (mthp_whole(a) && mthp_whole(b)) {
		mthp_list(a, la, sizeof(la));
		mthp_list(b, lb, sizeof(lb));
		ret |= warn_str(cmp, i, "mTHP sizes", la, lb);
	}
	return ret;
}

/*
 * An emulated CPU's PMU is qemu's model (sys/emulation): its counts and a
 * TCG guest's times are no evidence about a TLB, on either side.
 */
static int check_emulated(struct mt_comparison *cmp, unsigned int i)
{
	const struct mt_emulation *em = &cmp->reps[i]->system.emulation;
	char file[1024], why[256];

	if (!mt_emulation_maybe(em))
		return 0;
	mt_compare_escape(file, sizeof(file), cmp->files[i]);
	mt_compare_escape(why, sizeof(why), em->evidence);
	return push_str(&cmp->warnings, &cmp->n_warnings,
			"%s: %s CPU (%s): its counts and times are qemu's, not hardware's: "
			"no TLB conclusion from them; its times are not compared",
			file, em->emulated > 0 ? "emulated" : "perhaps emulated", why);
}

/* Comparing unlike things must be visible: everything but the kernel. */
static int check_alike(struct mt_comparison *cmp, unsigned int i)
{
	const struct mt_report *a = cmp->reps[0], *b = cmp->reps[i];
	const char *ua = a->user_only ? "user space only" : "user and kernel";
	const char *ub = b->user_only ? "user space only" : "user and kernel";
	int ret = 0;

	ret |= check_config(cmp, i);
	ret |= warn_str(cmp, i, "counter backend", a->backend, b->backend);
	ret |= warn_str(cmp, i, "counting", ua, ub);
	ret |= check_system(cmp, i);
	ret |= check_mthp(cmp, i);
	ret |= warn_str(cmp, i, "memtlb version", a->version, b->version);
	return ret ? -ENOMEM : 0;
}

/* A point whose pages were not the ones asked for measured something else: say so. */
static int check_pages(struct mt_comparison *cmp, unsigned int i)
{
	const struct mt_report *rep = cmp->reps[i];
	char file[1024], point[512], why[512];

	for (size_t k = 0; k < rep->n_results; k++) {
		const struct mt_result *r = rep->results[k];

		if (r->map.page_check >= 0)
			continue;
		mt_compare_escape(file, sizeof(file), cmp->files[i]);
		mt_compare_escape(point, sizeof(point), r->params);
		mt_compare_escape(why, sizeof(why), r->map.verdict);
		if (push_str(&cmp->warnings, &cmp->n_warnings, "%s: %s: page size %s", file,
			     point, why))
			return -ENOMEM;
	}
	return 0;
}

const struct mt_result *mt_compare_find_point(const struct mt_report *rep, const char *key)
{
	for (size_t i = 0; i < rep->n_results; i++)
		if (!strcmp(rep->results[i]->params, key))
			return rep->results[i];
	return NULL;
}

static struct mt_cmp_row *new_row(struct mt_comparison *cmp, const char *point,
				  const char *phase, const char *metric, enum mt_family fam)
{
	struct mt_cmp_row *grown, *row;

	grown = realloc(cmp->rows, (cmp->n_rows + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	cmp->rows = grown;
	row = &cmp->rows[cmp->n_rows++];
	memset(row, 0, sizeof(*row));
	row->point = point;
	snprintf(row->phase, sizeof(row->phase), "%s", phase);
	snprintf(row->metric, sizeof(row->metric), "%s", metric);
	row->family = fam;
	row->worse = 1;	/* times, faults, misses, ratios of misses: all costs */
	return row;
}

static void scaled(struct mt_summary *s, const struct mt_summary *from, double div)
{
	*s = *from;
	s->mean /= div;
	s->stddev /= div;
	s->min /= div;
	s->median /= div;
	s->max /= div;
}

/*
 * --runs on every side: the spread between the fresh processes, the one
 * that samples placement (a run's iterations share one layout and one set
 * of pages). The run means stand as the samples: Welch's test on them.
 */
static bool use_runs(const struct mt_comparison *cmp, const struct mt_result *const *res)
{
	for (unsigned int i = 0; i < cmp->n_inputs; i++)
		if (!res[i] || res[i]->n_runs < 2)
			return false;
	return true;
}

/* A counter's summary over the runs' means; false when a run has none. */
static bool counter_between(const struct mt_result *r, const struct mt_phase_stat *ps, int e,
			    struct mt_summary *s)
{
	double means[64];
	unsigned int k;

	for (k = 0; k < r->n_runs && k < 64; k++) {
		means[k] = ps->runs[k].counter_means[e];
		if (!isfinite(means[k]))
			return false;
	}
	return !mt_stats_summarize(means, k, s);
}

/* Each side's value for a row; kind: 0 time, 1 derived, 2 counter. */
static void fill_side(struct mt_cmp_side *sd, const struct mt_result *r,
		      const struct mt_phase_stat *ps, int kind, const char *metric, int d,
		      bool runs)
{
	const struct mt_summary *time;
	struct mt_summary between;
	int e;

	sd->state = MT_SIDE_ABSENT;
	if (!ps)
		return;
	runs = runs && ps->runs;
	time = runs ? &ps->between : &ps->time_ns;
	switch (kind) {
	case 0:
		scaled(&sd->s, time, 1000.0);
		sd->samples = runs ? NULL : ps->time_samples;
		sd->scale = 1000.0;
		sd->state = MT_SIDE_OK;
		break;
	case 1:
		if (!mt_phase_has(ps, d))
			return;
		/* ns per block is the phase time scaled: it keeps the samples' spread. */
		if (d == MT_DERIVED_NS_PER_BLOCK && r->blocks) {
			scaled(&sd->s, time, (double)r->blocks);
			sd->samples = runs ? NULL : ps->time_samples;
			sd->scale = (double)r->blocks;
		} else {
			sd->s = (struct mt_summary){ .mean = ps->derived[d] };
		}
		sd->state = MT_SIDE_OK;
		break;
	case 2:
		e = mt_result_event_index(r, metric);
		if (e < 0)
			return;
		switch (ps->counters[e].state) {
		case MT_COUNTER_OK:
			sd->state = MT_SIDE_OK;
			sd->s = ps->counters[e].s;
			/* A run without a mean (a hand-made report): the pooled one. */
			if (runs && counter_between(r, ps, e, &between))
				sd->s = between;
			break;
		case MT_COUNTER_UNSUPPORTED:
			sd->state = MT_SIDE_UNSUPPORTED;
			break;
		case MT_COUNTER_NOT_COUNTED:
			sd->state = MT_SIDE_NOT_COUNTED;
			break;
		}
		break;
	}
}

const char *mt_compare_test_name(enum mt_compare_test t)
{
	static const char *const names[MT_COMPARE_TEST_MAX] = {
		[MT_COMPARE_WELCH] = "welch",
		[MT_COMPARE_MWU] = "mwu",
	};

	return t < MT_COMPARE_TEST_MAX ? names[t] : NULL;
}

/*
 * R = mb / ma; to first order Var(R) = (vb + R^2 va) / ma^2 with va, vb the
 * squared standard errors of the means (Welch's, not pooled). The degrees
 * of freedom are Welch-Satterthwaite's for b - R a, whose variance that is.
 * Symmetric about the change, so a text cell can print it as +-half. Where
 * the base's mean is not itself clear of 0 (Fieller's g = t^2 va / ma^2 >= 1)
 * the ratio has no bounded interval, and a first-order one would pretend
 * (a base with cv 171% gave +-5% here): none is given.
 */
int mt_compare_ci_pct(const struct mt_summary *a, const struct mt_summary *b,
		      double *low, double *high)
{
	double va, vb, r, w, df, t, half;

	if (a->n < 2 || b->n < 2 || a->mean == 0.0)
		return -EDOM;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	r = b->mean / a->mean;
	w = vb + r * r * va;
	if (w > 0.0) {
		df = w * w / (vb * vb / (double)(b->n - 1) +
			      r * r * r * r * va * va / (double)(a->n - 1));
		t = mt_stats_t_quantile(MT_COMPARE_ALPHA, df);
		if (va > 0.0 && t * t * va / (a->mean * a->mean) >= 1.0)
			return -ERANGE;
		half = t * sqrt(w) / fabs(a->mean);
	} else {
		half = 0.0;	/* no spread on either side: the change is exact */
	}
	*low = 100.0 * (r - 1.0 - half);
	*high = 100.0 * (r - 1.0 + half);
	return 0;
}

/* The difference's interval, for a near-zero base: Welch's, on b - a. */
static int ci_abs(const struct mt_summary *a, const struct mt_summary *b, double *low,
		  double *high)
{
	struct mt_welch w;
	double se, half;

	if (mt_stats_welch(a, b, &w))
		return -EDOM;
	se = sqrt(a->stddev * a->stddev / (double)a->n + b->stddev * b->stddev / (double)b->n);
	half = se > 0.0 ? mt_stats_t_quantile(MT_COMPARE_ALPHA, w.df) * se : 0.0;
	*low = b->mean - a->mean - half;
	*high = b->mean - a->mean + half;
	return 0;
}

/* Mann-Whitney on the samples in the row's unit; -EDOM when a side has none. */
static int mwu_p(const struct mt_cmp_side *a, const struct mt_cmp_side *b, double *p)
{
	double *x, *y;
	struct mt_mwu m;
	int ret;

	if (!a->samples || !b->samples || a->s.n < 2 || b->s.n < 2)
		return -EDOM;
	x = malloc((a->s.n + b->s.n) * sizeof(*x));
	if (!x)
		return -ENOMEM;
	y = x + a->s.n;
	for (size_t k = 0; k < a->s.n; k++)
		x[k] = a->samples[k] / a->scale;
	for (size_t k = 0; k < b->s.n; k++)
		y[k] = b->samples[k] / b->scale;
	ret = mt_stats_mwu(x, a->s.n, y, b->s.n, &m);
	free(x);
	if (!ret)
		*p = m.p;
	return ret;
}

/* Whether a row's values are times (the phase's, per block, a clock event's). */
static bool row_is_time(const struct mt_cmp_row *row)
{
	return row->family == MT_FAMILY_TIME ||
	       (row->family == MT_FAMILY_PER_BLOCK &&
		!strcmp(row->metric, mt_derived_name(MT_DERIVED_NS_PER_BLOCK))) ||
	       (row->family == MT_FAMILY_COUNTER &&
		mt_event_time_unit(row->metric));
}

void mt_compare_judge(const struct mt_summary *a, const struct mt_summary *b, bool counter,
		      double noise_pct, struct mt_cmp_side *n)
{
	double base = a->mean, val = b->mean;
	struct mt_welch w;

	n->have_change = true;
	n->absolute = base == 0.0 || fabs(base) < NEAR_ZERO_FRACTION * fabs(val) ||
		      (counter && fabs(base) < 1.0);
	n->change = n->absolute ? val - base : 100.0 * (val - base) / fabs(base);
	if (mt_stats_welch(a, b, &w) || isnan(w.p))
		return;
	n->tested = true;
	n->test = MT_COMPARE_WELCH;
	n->p = w.p;
	n->significant = n->p < MT_COMPARE_ALPHA;
	if (n->absolute)
		n->have_ci = !ci_abs(a, b, &n->ci_low, &n->ci_high);
	else
		n->have_ci = !mt_compare_ci_pct(a, b, &n->ci_low, &n->ci_high);
	/* A percentage of a near-zero base has no scale to hold a threshold to. */
	n->changed = n->significant && (n->absolute || fabs(n->change) > noise_pct);
}

static int judge(struct mt_comparison *cmp, struct mt_cmp_row *row, unsigned int i)
{
	const struct mt_cmp_side *b = &row->side[0];
	struct mt_cmp_side *n = &row->side[i];
	int ret;

	if (b->state != MT_SIDE_OK || n->state != MT_SIDE_OK)
		return 0;
	/* qemu's times are its translator's: +1217% between two TCG runs is no finding */
	if (row_is_time(row) && (mt_emulation_maybe(&cmp->reps[0]->system.emulation) ||
				 mt_emulation_maybe(&cmp->reps[i]->system.emulation))) {
		n->emulated = true;
		return 0;
	}
	mt_compare_judge(&b->s, &n->s, row->family == MT_FAMILY_COUNTER, cmp->opts.noise_pct, n);
	if (!n->tested)
		return 0;
	if (cmp->opts.test == MT_COMPARE_MWU) {
		/* Counters keep no samples in a report: Welch's there, and said so. */
		ret = mwu_p(b, n, &n->p);
		if (ret == -ENOMEM)
			return ret;
		if (!ret)
			n->test = MT_COMPARE_MWU;
		n->significant = n->p < MT_COMPARE_ALPHA;
		n->changed = n->significant && (n->absolute ||
						fabs(n->change) > cmp->opts.noise_pct);
	}
	n->regression = n->changed && row->worse * (n->s.mean - b->s.mean) > 0;
	return 0;
}

static int add_row(struct mt_comparison *cmp, const struct mt_result *const *res,
		   const char *phase, int kind, const char *metric, int d, enum mt_family fam)
{
	struct mt_cmp_row row = { 0 }, *r;
	unsigned int present = 0;
	bool runs = use_runs(cmp, res);

	for (unsigned int i = 0; i < cmp->n_inputs; i++) {
		fill_side(&row.side[i], res[i], mt_result_phase(res[i], phase), kind, metric, d,
			  runs);
		present += row.side[i].state != MT_SIDE_ABSENT;
	}
	/* A metric that is zero wherever it was measured says nothing: left out. */
	for (unsigned int i = 0, zero = 0; i < cmp->n_inputs; i++) {
		const struct mt_cmp_side *s = &row.side[i];

		zero += s->state == MT_SIDE_ABSENT ||
			(s->state == MT_SIDE_OK && s->s.mean == 0.0 && s->s.stddev == 0.0);
		if (zero == cmp->n_inputs)
			return 0;
	}
	if (!present)
		return 0;
	r = new_row(cmp, res[0]->params, phase, metric, fam);
	if (!r)
		return -ENOMEM;
	memcpy(r->side, row.side, sizeof(row.side));
	cmp->between_runs += runs;
	for (unsigned int i = 1; i < cmp->n_inputs; i++) {
		int ret = judge(cmp, r, i);

		if (ret)
			return ret;
	}
	return 0;
}

static int compare_point(struct mt_comparison *cmp, const struct mt_result *const *res)
{
	const struct mt_result *base = res[0];
	int ret = 0;

	for (unsigned int p = 0; !ret && p < base->n_phases; p++) {
		const char *phase = base->phases[p].name;

		ret = add_row(cmp, res, phase, 0, MT_COMPARE_TIME_METRIC, 0, MT_FAMILY_TIME);
		for (int d = 0; !ret && d < MT_DERIVED_MAX; d++)
			ret = add_row(cmp, res, phase, 1, mt_derived_name(d), d,
				      MT_FAMILY_PER_BLOCK);
		/* Every event of any input, in the first order it appears. */
		for (unsigned int i = 0; !ret && i < cmp->n_inputs; i++) {
			for (unsigned int e = 0; !ret && res[i] && e < res[i]->n_events; e++) {
				const char *name = res[i]->events[e].name;
				unsigned int j;

				for (j = 0; j < i; j++)
					if (res[j] && mt_result_event_index(res[j], name) >= 0)
						break;
				if (j == i)
					ret = add_row(cmp, res, phase, 2, name, 0,
						      MT_FAMILY_COUNTER);
			}
		}
	}
	return ret;
}

/* Points listed by every input that has them; those not in all are reported. */
static int match_points(struct mt_comparison *cmp)
{
	for (unsigned int i = 0; i < cmp->n_inputs; i++) {
		for (size_t k = 0; k < cmp->reps[i]->n_results; k++) {
			const char *key = cmp->reps[i]->results[k]->params;
			const struct mt_result *res[MT_COMPARE_MAX_INPUTS];
			unsigned int j, seen = 0;
			char missing[512] = "";
			size_t len = 0;
			int ret;

			for (j = 0; j < i; j++)
				if (mt_compare_find_point(cmp->reps[j], key))
					break;
			/* handled with an earlier input, or an earlier result of this one */
			if (j < i ||
			    mt_compare_find_point(cmp->reps[i], key) != cmp->reps[i]->results[k])
				continue;
			for (j = 0; j < cmp->n_inputs; j++) {
				res[j] = mt_compare_find_point(cmp->reps[j], key);
				seen += !!res[j];
				if (!res[j] && len < sizeof(missing))
					len += snprintf(missing + len, sizeof(missing) - len,
							"%s%s", len ? ", " : "", cmp->files[j]);
			}
			if (seen < cmp->n_inputs &&
			    push_str(&cmp->lonely, &cmp->n_lonely, "%s: not in %s",
				     key[0] ? key : "(no parameters)", missing))
				return -ENOMEM;
			if (!res[0] || seen < 2)
				continue;
			ret = compare_point(cmp, res);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static void geomeans(struct mt_comparison *cmp)
{
	for (unsigned int i = 1; i < cmp->n_inputs; i++) {
		double sum[MT_FAMILY_MAX] = { 0 };

		for (size_t k = 0; k < cmp->n_rows; k++) {
			const struct mt_cmp_row *r = &cmp->rows[k];
			double b = r->side[0].s.mean, n = r->side[i].s.mean;

			if (!r->side[i].have_change || r->side[i].absolute || b <= 0 || n <= 0)
				continue;
			sum[r->family] += log(n / b);
			cmp->geomean_n[i][r->family]++;
		}
		for (int f = 0; f < MT_FAMILY_MAX; f++)
			if (cmp->geomean_n[i][f])
				cmp->geomean[i][f] =
					100.0 * (exp(sum[f] / cmp->geomean_n[i][f]) - 1.0);
	}
}

int mt_compare_create(struct mt_comparison **out, const struct mt_report *const *reps,
		      const char *const *files, unsigned int n)
{
	return mt_compare_create_opts(out, reps, files, n, NULL);
}

int mt_compare_create_opts(struct mt_comparison **out, const struct mt_report *const *reps,
			   const char *const *files, unsigned int n,
			   const struct mt_compare_opts *opts)
{
	struct mt_comparison *cmp;
	int ret = 0;

	if (n < 2 || n > MT_COMPARE_MAX_INPUTS ||
	    (opts && (!(opts->noise_pct >= 0.0) || opts->test >= MT_COMPARE_TEST_MAX)))
		return -EINVAL;
	cmp = calloc(1, sizeof(*cmp));
	if (!cmp)
		return -ENOMEM;
	cmp->opts = opts ? *opts : (struct mt_compare_opts){ .noise_pct = MT_COMPARE_NOISE_PCT };
	cmp->n_inputs = n;
	for (unsigned int i = 0; i < n; i++) {
		cmp->reps[i] = reps[i];
		cmp->files[i] = files[i];
	}
	for (unsigned int i = 1; !ret && i < n; i++)
		ret = check_alike(cmp, i);
	for (unsigned int i = 0; !ret && i < n; i++)
		ret = check_pages(cmp, i);
	for (unsigned int i = 0; !ret && i < n; i++)
		ret = check_emulated(cmp, i);
	if (!ret)
		ret = match_points(cmp);
	if (ret) {
		mt_compare_destroy(cmp);
		return ret;
	}
	geomeans(cmp);
	*out = cmp;
	return 0;
}

void mt_compare_destroy(struct mt_comparison *cmp)
{
	if (!cmp)
		return;
	for (size_t i = 0; i < cmp->n_warnings; i++)
		free(cmp->warnings[i]);
	for (size_t i = 0; i < cmp->n_lonely; i++)
		free(cmp->lonely[i]);
	free(cmp->warnings);
	free(cmp->lonely);
	free(cmp->rows);
	free(cmp);
}

double mt_compare_gated(const struct mt_cmp_row *r, unsigned int i)
{
	const struct mt_cmp_side *s = &r->side[i];
	double c = r->worse * s->change;

	/* A near-zero base has no meaningful percentage: not gated. */
	return s->regression && !s->absolute && c > 0 ? c : 0.0;
}

double mt_compare_worst(const struct mt_comparison *cmp)
{
	double worst = 0.0;

	for (size_t k = 0; k < cmp->n_rows; k++)
		for (unsigned int i = 1; i < cmp->n_inputs; i++)
			worst = fmax(worst, mt_compare_gated(&cmp->rows[k], i));
	return worst;
}
