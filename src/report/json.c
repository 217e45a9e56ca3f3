// SPDX-License-Identifier: MIT
/* The report file: written and read with jansson; schema in memtlb-json(5). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "model/size.h"
#include "report/json.h"
#include "sys/file.h"

/*
 * The document is built whole before a byte is written, and a value that
 * could not be made (memory) fails the whole build: a report never lacks
 * an object silently. Every setter below records the first error in *err.
 */
struct jb {
	int err;
};

static json_t *keep(struct jb *b, json_t *v)
{
	if (!v && !b->err)
		b->err = -ENOMEM;
	return v;
}

/* Length of the valid UTF-8 sequence at s, or 0 (overlong, surrogate, > U+10FFFF). */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int c = s[0], cp, n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (unsigned int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A byte string as JSON text: valid UTF-8 as is; else each byte that is not
 * part of a valid sequence becomes the four characters \xHH (memtlb-json(5)),
 * so a command argument or a file name in another encoding is kept, never
 * dropped (jansson refuses strings that are not UTF-8). Returns a string
 * for json_string, s itself or a copy to free in *copy; NULL: no memory.
 */
static const char *utf8_text(const char *s, char **copy)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, len;
	char *out, *o;

	*copy = NULL;
	for (size_t i = 0; p[i]; i += len ? len : 1) {
		len = utf8_len(p + i);
		if (!len)
			n++;
	}
	if (!n)
		return s;
	out = malloc(strlen(s) + 3 * n + 1);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; p[i]; ) {
		len = utf8_len(p + i);
		if (!len) {
			o += sprintf(o, "\\x%02X", p[i]);
			i++;
			continue;
		}
		memcpy(o, p + i, len);
		o += len;
		i += len;
	}
	*o = '\0';
	*copy = out;
	return out;
}

json_t *mt_json_string(const char *s)
{
	json_t *v;
	char *copy;
	const char *t = utf8_text(s ? s : "", &copy);

	v = t ? json_string(t) : NULL;
	free(copy);
	return v;
}

size_t mt_json_utf8_len(const char *s)
{
	return utf8_len((const unsigned char *)s);
}

static json_t *str(struct jb *b, const char *s)
{
	const char *t;
	json_t *v;
	char *copy;

	t = utf8_text(s ? s : "", &copy);
	v = t ? json_string(t) : NULL;
	free(copy);
	return keep(b, v);
}

/* obj[key] = v; v is stolen, even on failure (jansson's rule). */
static void put(struct jb *b, json_t *obj, const char *key, json_t *v)
{
	const char *k;
	char *copy;

	k = utf8_text(key, &copy);
	if (!k || !obj || !v) {
		json_decref(v);
		if (!b->err)
			b->err = -ENOMEM;
	} else if (json_object_set_new(obj, k, v) && !b->err) {
		b->err = -ENOMEM;
	}
	free(copy);
}

static void push(struct jb *b, json_t *arr, json_t *v)
{
	if (!arr || !v) {
		json_decref(v);
		if (!b->err)
			b->err = -ENOMEM;
	} else if (json_array_append_new(arr, v) && !b->err) {
		b->err = -ENOMEM;
	}
}

static void put_str(struct jb *b, json_t *obj, const char *key, const char *s)
{
	put(b, obj, key, str(b, s));
}

static void put_int(struct jb *b, json_t *obj, const char *key, json_int_t v)
{
	put(b, obj, key, keep(b, json_integer(v)));
}

static void put_bool(struct jb *b, json_t *obj, const char *key, bool v)
{
	put(b, obj, key, json_boolean(v));
}

/* jansson refuses NaN and infinities: a value we do not have is absent. */
static void set_real(struct jb *b, json_t *obj, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		return;
	put(b, obj, key, keep(b, json_real(v)));
}

static json_t *object(struct jb *b)
{
	return keep(b, json_object());
}

static json_t *array(struct jb *b)
{
	return keep(b, json_array());
}

static json_t *summary_json(struct jb *b, const struct mt_summary *s)
{
	json_t *o = object(b);

	if (!o)
		return NULL;
	set_real(b, o, "mean", s->mean);
	if (s->n > 1) {	/* one sample has no spread: absent, not 0 */
		set_real(b, o, "stddev", s->stddev);
		set_real(b, o, "cv", s->cv);
	}
	set_real(b, o, "min", s->min);
	set_real(b, o, "median", s->median);
	set_real(b, o, "max", s->max);
	put_int(b, o, "n", (json_int_t)s->n);
	return o;
}

static json_t *long_or_null(struct jb *b, long v)
{
	return v < 0 ? json_null() : keep(b, json_integer(v));
}

static json_t *system_json(struct jb *b, const struct mt_sysinfo *si)
{
	json_t *o = object(b), *pools = object(b), *tlbs = array(b), *thp, *tun;

	for (unsigned int i = 0; i < si->n_hugepools; i++) {
		json_t *pool = object(b);
		char key[32];

		snprintf(key, sizeof(key), "%llukB", (unsigned long long)si->hugepools[i].size_kb);
		put_int(b, pool, "total", (json_int_t)si->hugepools[i].total);
		put_int(b, pool, "free", (json_int_t)si->hugepools[i].free);
		put(b, pools, key, pool);
	}
	for (unsigned int i = 0; i < si->n_tlbs; i++) {
		const struct mt_tlb *t = &si->tlbs[i];
		json_t *jt = object(b);

		put_int(b, jt, "level", (json_int_t)t->level);
		put_str(b, jt, "type", t->type);
		put_str(b, jt, "pages", t->pages);
		put_int(b, jt, "entries", (json_int_t)t->entries);
		put_int(b, jt, "ways", (json_int_t)t->ways);
		push(b, tlbs, jt);
	}
	put_str(b, o, "kernel", si->kernel);
	put_str(b, o, "kernel_version", si->kernel_version);
	put_str(b, o, "machine", si->machine);
	put_str(b, o, "host", si->host);
	put_str(b, o, "cpu", si->cpu);
	put_str(b, o, "cpu_vendor", si->cpu_vendor);
	put(b, o, "hypervisor", si->hypervisor < 0 ? json_null() : json_boolean(si->hypervisor));
	put(b, o, "cpu_emulated", si->emulation.emulated < 0 ? json_null() :
	    json_boolean(si->emulation.emulated));
	put_str(b, o, "cpu_emulated_evidence", si->emulation.evidence);
	put(b, o, "pmu", si->pmu[0] ? str(b, si->pmu) : json_null());
	put_str(b, o, "pmus", si->pmus);
	put_int(b, o, "page_size", si->page_size);
	put_str(b, o, "thp_enabled", si->thp_enabled);
	put_str(b, o, "thp_defrag", si->thp_defrag);
	put_str(b, o, "thp_shmem_enabled", si->thp_shmem_enabled);
	thp = object(b);
	put_str(b, thp, "defrag", si->thp_khugepaged_defrag);
	put(b, thp, "pages_to_scan", long_or_null(b, si->khugepaged_pages_to_scan));
	put(b, thp, "scan_sleep_millisecs", long_or_null(b, si->khugepaged_scan_sleep_ms));
	put(b, o, "khugepaged", thp);
	put(b, o, "hugepages", pools);
	tun = object(b);
	put_int(b, tun, "perf_event_paranoid", si->perf_event_paranoid);
	put(b, tun, "fault_around_bytes", long_or_null(b, si->fault_around_bytes));
	put(b, tun, "percpu_pagelist_high_fraction",
	    long_or_null(b, si->percpu_pagelist_high_fraction));
	put(b, o, "tunables", tun);
	put(b, o, "numa_nodes", si->numa_nodes < 0 ? json_null()
					    : keep(b, json_integer(si->numa_nodes)));
	put(b, o, "tlb", tlbs);
	put_str(b, o, "tlb_source", si->tlb_source);
	put(b, o, "hw_counters", si->hw_counters < 0 ? json_null()
					     : json_boolean(si->hw_counters));
	return o;
}

int mt_sysinfo_write_json(const struct mt_sysinfo *si, FILE *f)
{
	struct jb b = { 0 };
	json_t *o = system_json(&b, si);
	int ret;

	if (b.err) {
		json_decref(o);
		return b.err;
	}
	ret = json_dumpf(o, f, JSON_INDENT(2)) ? -EIO : 0;
	fputc('\n', f);
	json_decref(o);
	return ret;
}

static json_t *config_json(struct jb *b, const struct mt_report *rep)
{
	const struct mt_config *c = &rep->config;
	json_t *o = object(b);

	put_int(b, o, "region", (json_int_t)c->region);
	put_int(b, o, "block", (json_int_t)c->block);
	put_int(b, o, "iterations", (json_int_t)c->iterations);
	put_int(b, o, "passes", (json_int_t)c->passes);
	put_str(b, o, "backing", mt_backing_name(c->backing));
	put_str(b, o, "events", c->events ? c->events : "");
	put_str(b, o, "backend", rep->backend);
	put_bool(b, o, "user_only", rep->user_only);
	put_str(b, o, "file_cache", c->file_cold ? "cold" : "warm");
	put_str(b, o, "pages", mt_pages_name(c->pages));
	put_int(b, o, "huge_page_size", (json_int_t)c->huge_size);
	put_bool(b, o, "reserve", c->reserve);
	put_str(b, o, "access", mt_access_name(c->access));
	put_int(b, o, "stride", (json_int_t)c->stride);
	put_int(b, o, "seed", (json_int_t)c->seed);
	put_bool(b, o, "populate", c->populate);
	put_bool(b, o, "read_first", c->read_first);
	put_int(b, o, "tasks", (json_int_t)c->tasks);
	put_str(b, o, "task_mode", mt_task_mode_name(c->task_mode));
	put_str(b, o, "task_region", mt_task_region_name(c->task_region));
	if (rep->event_set[0])
		put_str(b, o, "event_set", rep->event_set);
	return o;
}

static json_t *counter_json(struct jb *b, const struct mt_result_event *ev,
			    const struct mt_counter_stat *cs)
{
	json_t *o;

	if (cs->state == MT_COUNTER_UNSUPPORTED) {
		o = object(b);
		put_bool(b, o, "supported", false);
		put_str(b, o, "error", strerrorname_np(ev->err) ? strerrorname_np(ev->err) : "?");
		put_str(b, o, "reason", ev->reason);
		return o;
	}
	if (cs->state == MT_COUNTER_NOT_COUNTED) {
		o = object(b);
		put_bool(b, o, "supported", true);
		put_bool(b, o, "counted", false);
		return o;
	}
	o = summary_json(b, &cs->s);
	put_bool(b, o, "supported", true);
	put_bool(b, o, "counted", true);
	set_real(b, o, "running", cs->running);
	return o;
}

static json_t *mapping_json(struct jb *b, const struct mt_mapinfo *m)
{
	json_t *o, *fc;

	if (!m->valid)
		return json_null();
	o = object(b);
	put_int(b, o, "addr", (json_int_t)m->addr);
	put_int(b, o, "align", (json_int_t)m->align);
	put_int(b, o, "size", (json_int_t)m->size);
	put_int(b, o, "kernel_page_size", (json_int_t)m->kernel_page);
	put_int(b, o, "mmu_page_size", (json_int_t)m->mmu_page);
	put_int(b, o, "rss", (json_int_t)m->rss);
	put_int(b, o, "anon_huge", (json_int_t)m->anon_huge);
	put_int(b, o, "shmem_pmd", (json_int_t)m->shmem_pmd);
	put_int(b, o, "file_pmd", (json_int_t)m->file_pmd);
	put_int(b, o, "hugetlb", (json_int_t)m->hugetlb);
	set_real(b, o, "huge_coverage", m->huge_coverage);
	if (m->cache_checked) {
		fc = object(b);
		put_int(b, fc, "pages", (json_int_t)m->cache_pages);
		put_int(b, fc, "kept_after_drop", (json_int_t)m->cache_resident);
		put(b, o, "file_cache", fc);
	}
	return o;
}

static json_t *phase_json(struct jb *b, const struct mt_result *r, const struct mt_phase_stat *ps)
{
	json_t *ph = object(b), *t, *samples, *counters, *derived, *cross;

	put_str(b, ph, "name", ps->name);
	t = summary_json(b, &ps->time_ns);
	samples = array(b);
	for (size_t i = 0; ps->time_samples && i < ps->time_ns.n && !b->err; i++)
		push(b, samples, keep(b, json_integer((json_int_t)ps->time_samples[i])));
	put(b, t, "samples", samples);
	put(b, ph, "time_ns", t);
	counters = object(b);
	for (unsigned int e = 0; e < r->n_events; e++)
		put(b, counters, r->events[e].name,
		    counter_json(b, &r->events[e], &ps->counters[e]));
	put(b, ph, "counters", counters);
	derived = object(b);
	cross = array(b);
	for (int d = 0; d < MT_DERIVED_MAX; d++) {
		if (!mt_phase_has(ps, d))
			continue;
		set_real(b, derived, mt_derived_name(d), ps->derived[d]);
		if (mt_phase_cross_group(ps, d))
			push(b, cross, str(b, mt_derived_name(d)));
	}
	put(b, ph, "derived", derived);
	put(b, ph, "derived_across_groups", cross);
	if (r->n_extras) {
		json_t *kern = object(b);

		for (unsigned int x = 0; x < r->n_extras; x++)
			if (ps->has_extra & (1ull << x))
				put(b, kern, r->extra_names[x], summary_json(b, &ps->extras[x]));
		put(b, ph, "kernel", kern);
	}
	return ph;
}

static json_t *result_json(struct jb *b, const struct mt_result *r)
{
	json_t *res = object(b), *params = object(b), *events = array(b), *phases = array(b);

	put_int(b, params, "region", (json_int_t)r->region);
	put_int(b, params, "block", (json_int_t)r->block);
	put_int(b, params, "blocks", (json_int_t)r->blocks);
	/* Swept parameters: strings, as given (a tunable's value is text). */
	for (unsigned int i = 0; i < r->n_vary; i++)
		put_str(b, params, r->vary[i].key, r->vary[i].value);
	put(b, res, "params", params);
	for (unsigned int e = 0; e < r->n_events; e++) {
		json_t *je = object(b);

		put_str(b, je, "name", r->events[e].name);
		put_bool(b, je, "supported", !r->events[e].err);
		put_bool(b, je, "user_only", r->events[e].user_only);
		put(b, je, "group", r->events[e].group < 0 ? json_null()
			: keep(b, json_integer(r->events[e].group)));
		if (r->events[e].meaning[0])
			put_str(b, je, "meaning", r->events[e].meaning);
		push(b, events, je);
	}
	put(b, res, "events", events);
	for (unsigned int p = 0; p < r->n_phases && !b->err; p++)
		push(b, phases, phase_json(b, r, &r->phases[p]));
	put(b, res, "phases", phases);
	put(b, res, "mapping", mapping_json(b, &r->map));
	return res;
}

/* The report document, or NULL with *err (-ENOMEM) when any part of it could not be made. */
static json_t *report_json(const struct mt_report *rep, int *err)
{
	struct jb b = { 0 };
	json_t *root = object(&b), *meta = object(&b), *results = array(&b);

	put_str(&b, meta, "version", rep->version);
	put_int(&b, meta, "schema", MT_REPORT_SCHEMA);
	put(&b, root, "memtlb", meta);
	put(&b, root, "system", system_json(&b, &rep->system));
	put_str(&b, root, "command", rep->command);
	put(&b, root, "config", config_json(&b, rep));
	for (size_t i = 0; i < rep->n_results && !b.err; i++)
		push(&b, results, result_json(&b, rep->results[i]));
	put(&b, root, "results", results);
	if (!strcmp(rep->command, "run")) {
		json_t *run = object(&b);

		put_str(&b, run, "command_line", rep->command_line);
		put_int(&b, run, "runs", (json_int_t)rep->runs);
		put_int(&b, run, "repeats", (json_int_t)rep->repeats);
		put_int(&b, run, "exit_status", rep->exit_status);
		put_bool(&b, run, "failed", rep->exit_status != 0);
		put(&b, root, "run", run);
	}
	if (b.err) {
		json_decref(root);
		*err = b.err;
		return NULL;
	}
	return root;
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(10))

struct text {
	char *buf;
	size_t len;
};

static int fill_text(FILE *f, void *arg)
{
	const struct text *t = arg;

	errno = 0;
	if (fwrite(t->buf, 1, t->len, f) != t->len)
		return errno ? -errno : -EIO;
	return 0;
}

/*
 * The text is made in memory before a byte is written: jansson's dump
 * allocates too (its loop check), and a dump that failed halfway would
 * leave half a report on a pipe or a device.
 */
/* The report as its file's text, newline included: 0, -EFBIG, -ENOMEM. */
static int report_text(const struct mt_report *rep, struct text *t)
{
	json_t *root;
	size_t size;
	int ret = 0;

	t->buf = NULL;
	t->len = 0;
	root = report_json(rep, &ret);
	if (!root)
		return ret;
	size = json_dumpb(root, NULL, 0, DUMP_FLAGS);
	/* What the loader would refuse is not written (the text and its newline). */
	if (size + 1 > MT_REPORT_MAX_SIZE) {
		json_decref(root);
		return -EFBIG;
	}
	t->buf = size ? malloc(size + 1) : NULL;
	if (t->buf && json_dumpb(root, t->buf, size, DUMP_FLAGS) == size) {
		t->buf[size] = '\n';
		t->len = size + 1;
	} else {
		free(t->buf);
		t->buf = NULL;
		ret = -ENOMEM;
	}
	json_decref(root);
	return ret;
}

int mt_report_write(const struct mt_report *rep, const char *path)
{
	struct text t;
	int ret = report_text(rep, &t);

	if (!ret)
		ret = mt_file_write_atomic(path, 0600, fill_text, &t);
	free(t.buf);
	return ret;
}

int mt_report_print_json(FILE *f, const struct mt_report *rep)
{
	struct text t;
	int ret = report_text(rep, &t);

	if (!ret) {
		errno = 0;
		if (fwrite(t.buf, 1, t.len, f) != t.len || fflush(f))
			ret = errno ? -errno : -EIO;
	}
	free(t.buf);
	return ret;
}

/*
 * A report's size from its config, an upper bound: a time sample is a line
 * of 14 spaces, at most 12 digits (a phase of 1000 s) and ",\n"; a phase,
 * a point and the system have fixed parts, counters a few hundred bytes an
 * event. Measured: 20 bytes a sample, 12 KiB for one point of 2 events.
 */
static uint64_t size_estimate(const struct mt_config *cfg, size_t points)
{
	uint64_t phases = 2 + 2 * (uint64_t)cfg->passes + (cfg->read_first ? 1 : 0);
	uint64_t events = 16, per_phase, per_point;

	if (cfg->events && !cfg->event_set) {
		events = 1;
		for (const char *c = cfg->events; *c; c++)
			events += *c == ',';
	}
	per_phase = 2048 + events * 512 + (uint64_t)cfg->iterations * 28;
	per_point = 4096 + events * 256 + phases * per_phase;
	return 16384 + (uint64_t)points * per_point;
}

int mt_report_size_check(const struct mt_config *cfg, size_t points, char *msg, size_t len)
{
	uint64_t size = size_estimate(cfg, points ? points : 1);

	if (size <= MT_REPORT_MAX_SIZE)
		return 0;
	snprintf(msg, len, "%llu iterations of %lu passes%s make a report of up to %llu MiB; "
		 "memtlb reads reports of %d MiB at most",
		 (unsigned long long)cfg->iterations, cfg->passes, points > 1 ? " per point" : "",
		 (unsigned long long)(size >> 20), MT_REPORT_MAX_SIZE >> 20);
	return -EFBIG;
}

/* Loading: every key checked for its type; a bad file is an error, not a crash. */

struct loader {
	char *msg;
	size_t len;
};

static int bad(struct loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct loader *ld, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ld->msg, ld->len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int get_num(json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		return -EINVAL;
	*out = json_number_value(v);
	return 0;
}

static int get_u64(json_t *o, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -EINVAL;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static void get_str(json_t *o, const char *key, char *out, size_t len)
{
	const char *s = json_string_value(json_object_get(o, key));

	snprintf(out, len, "%s", s ? s : "");
}

static long get_long(json_t *o, const char *key, long dfl)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : dfl;
}

static int load_summary(json_t *o, struct mt_summary *s)
{
	uint64_t n = 0;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(o) || get_num(o, "mean", &s->mean))
		return -EINVAL;
	get_num(o, "stddev", &s->stddev);
	get_num(o, "cv", &s->cv);
	get_num(o, "min", &s->min);
	get_num(o, "median", &s->median);
	get_num(o, "max", &s->max);
	get_u64(o, "n", &n);
	s->n = (size_t)n;
	return 0;
}

static int load_phase(struct loader *ld, json_t *jp, struct mt_result *r, unsigned int p)
{
	struct mt_phase_stat *ps = &r->phases[p];
	json_t *t, *samples, *counters, *derived, *cross;
	const char *name;

	name = json_string_value(json_object_get(jp, "name"));
	t = json_object_get(jp, "time_ns");
	if (!name || load_summary(t, &ps->time_ns))
		return bad(ld, "phase %u: missing name or time_ns", p);
	snprintf(ps->name, sizeof(ps->name), "%s", name);
	samples = json_object_get(t, "samples");
	if (json_is_array(samples) && json_array_size(samples)) {
		size_t n = json_array_size(samples);

		ps->time_samples = calloc(n, sizeof(double));
		if (!ps->time_samples)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			json_t *v = json_array_get(samples, i);

			if (!json_is_number(v))
				return bad(ld, "phase %s: time_ns.samples: not a number", name);
			ps->time_samples[i] = json_number_value(v);
		}
		ps->time_ns.n = n;
	}
	counters = json_object_get(jp, "counters");
	if (!json_is_object(counters))
		return bad(ld, "phase %s: counters: not an object", name);
	for (unsigned int e = 0; e < r->n_events; e++) {
		struct mt_counter_stat *cs = &ps->counters[e];
		json_t *c = json_object_get(counters, r->events[e].name);

		if (!json_is_object(c))
			return bad(ld, "phase %s: counter %s missing", name, r->events[e].name);
		if (!json_is_true(json_object_get(c, "supported"))) {
			cs->state = MT_COUNTER_UNSUPPORTED;
			get_str(c, "reason", r->events[e].reason, sizeof(r->events[e].reason));
		} else if (!json_is_true(json_object_get(c, "counted"))) {
			cs->state = MT_COUNTER_NOT_COUNTED;
		} else {
			cs->state = MT_COUNTER_OK;
			if (load_summary(c, &cs->s) || get_num(c, "running", &cs->running))
				return bad(ld, "phase %s: counter %s: bad values", name,
					   r->events[e].name);
		}
	}
	derived = json_object_get(jp, "derived");
	for (int d = 0; json_is_object(derived) && d < MT_DERIVED_MAX; d++) {
		if (!get_num(derived, mt_derived_name(d), &ps->derived[d]))
			ps->has_derived |= 1u << d;
	}
	cross = json_object_get(jp, "derived_across_groups");
	for (size_t i = 0; json_is_array(cross) && i < json_array_size(cross); i++) {
		const char *dn = json_string_value(json_array_get(cross, i));

		for (int d = 0; dn && d < MT_DERIVED_MAX; d++)
			if (!strcmp(dn, mt_derived_name(d)))
				ps->cross_group |= 1u << d;
	}
	return 0;
}

/*
 * The point's parameters as one key, in file order: sizes in the parser's
 * short form, "blocks" left out (it follows from region and block).
 */
static void params_label(json_t *params, char *buf, size_t len)
{
	const char *key;
	json_t *v;
	size_t n = 0;

	buf[0] = '\0';
	json_object_foreach(params, key, v) {
		char val[64];

		if (!strcmp(key, "blocks"))
			continue;
		if (json_is_integer(v) && (!strcmp(key, "region") || !strcmp(key, "block")))
			mt_size_format_short((uint64_t)json_integer_value(v), val, sizeof(val));
		else if (json_is_integer(v))
			snprintf(val, sizeof(val), "%lld", (long long)json_integer_value(v));
		else if (json_is_string(v))
			snprintf(val, sizeof(val), "%s", json_string_value(v));
		else if (json_is_number(v))
			snprintf(val, sizeof(val), "%g", json_number_value(v));
		else
			continue;
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s=%s", n ? " " : "", key, val);
		if (n >= len)
			break;
	}
}

/* The "kernel" objects of the phases and the "mapping": optional. */
static int load_extras(struct mt_result *r, json_t *phases, json_t *jm)
{
	const char *key;
	unsigned int n = 0;
	json_t *v;
	int ret;

	/* Every name that appears in any phase, in order of appearance. */
	char (*names)[MT_EXTRA_NAME_MAX] = calloc(MT_EXTRA_MAX, sizeof(*names));

	if (!names)
		return -ENOMEM;
	for (unsigned int p = 0; p < r->n_phases; p++) {
		json_object_foreach(json_object_get(json_array_get(phases, p), "kernel"), key, v) {
			unsigned int i;

			for (i = 0; i < n && strcmp(names[i], key); i++)
				;
			if (i == n && n < MT_EXTRA_MAX && strlen(key) < MT_EXTRA_NAME_MAX)
				snprintf(names[n++], MT_EXTRA_NAME_MAX, "%s", key);
		}
	}
	ret = n ? mt_result_set_extras(r, n) : 0;
	for (unsigned int i = 0; !ret && i < n; i++)
		memcpy(r->extra_names[i], names[i], MT_EXTRA_NAME_MAX);
	free(names);
	for (unsigned int p = 0; !ret && n && p < r->n_phases; p++) {
		json_t *k = json_object_get(json_array_get(phases, p), "kernel");

		for (unsigned int x = 0; x < n; x++)
			if (!load_summary(json_object_get(k, r->extra_names[x]),
					  &r->phases[p].extras[x]))
				r->phases[p].has_extra |= 1ull << x;
	}
	if (!ret && json_is_object(jm)) {
		struct mt_mapinfo *m = &r->map;
		json_t *fc = json_object_get(jm, "file_cache");

		m->valid = true;
		get_u64(jm, "addr", &m->addr);
		get_u64(jm, "align", &m->align);
		get_u64(jm, "size", &m->size);
		get_u64(jm, "kernel_page_size", &m->kernel_page);
		get_u64(jm, "mmu_page_size", &m->mmu_page);
		get_u64(jm, "rss", &m->rss);
		get_u64(jm, "anon_huge", &m->anon_huge);
		get_u64(jm, "shmem_pmd", &m->shmem_pmd);
		get_u64(jm, "file_pmd", &m->file_pmd);
		get_u64(jm, "hugetlb", &m->hugetlb);
		get_num(jm, "huge_coverage", &m->huge_coverage);
		if (json_is_object(fc)) {
			m->cache_checked = true;
			get_u64(fc, "pages", &m->cache_pages);
			get_u64(fc, "kept_after_drop", &m->cache_resident);
		}
	}
	return ret;
}

static int load_result(struct loader *ld, json_t *jr, struct mt_result **out)
{
	json_t *params, *events, *phases;
	struct mt_result *r;
	int ret;

	params = json_object_get(jr, "params");
	events = json_object_get(jr, "events");
	phases = json_object_get(jr, "phases");
	if (!json_is_object(params) || !json_is_array(events) || !json_is_array(phases))
		return bad(ld, "result: params, events or phases missing");
	if (json_array_size(events) > 4096 || json_array_size(phases) > 4096)
		return bad(ld, "result: too many events or phases");
	ret = mt_result_create(&r, json_array_size(phases), json_array_size(events));
	if (ret)
		return ret;
	if (get_u64(params, "region", &r->region) || get_u64(params, "block", &r->block) ||
	    get_u64(params, "blocks", &r->blocks)) {
		ret = bad(ld, "result: params: region, block and blocks must be integers");
		goto fail;
	}
	params_label(params, r->params, sizeof(r->params));
	{
		const char *key;
		json_t *v;

		/*
		 * Every other parameter, as text, so that the points of one
		 * series can be told from another's (knees are per series).
		 */
		json_object_foreach(params, key, v) {
			char val[64];

			if (!strcmp(key, "region") || !strcmp(key, "block") ||
			    !strcmp(key, "blocks"))
				continue;
			if (json_is_string(v))
				snprintf(val, sizeof(val), "%s", json_string_value(v));
			else if (json_is_integer(v))
				snprintf(val, sizeof(val), "%lld", (long long)json_integer_value(v));
			else if (json_is_number(v))
				snprintf(val, sizeof(val), "%g", json_number_value(v));
			else
				continue;
			if (mt_result_set_param(r, key, val)) {
				ret = bad(ld, "result: params: %s: too long, or too many", key);
				goto fail;
			}
		}
	}
	for (unsigned int e = 0; e < r->n_events; e++) {
		json_t *je = json_array_get(events, e);
		const char *name = json_string_value(json_object_get(je, "name"));

		if (!name || strlen(name) >= MT_EVENT_NAME_MAX) {
			ret = bad(ld, "result: event %u: no valid name", e);
			goto fail;
		}
		snprintf(r->events[e].name, sizeof(r->events[e].name), "%s", name);
		r->events[e].user_only = json_is_true(json_object_get(je, "user_only"));
		r->events[e].group = (int)get_long(je, "group", -1);
		get_str(je, "meaning", r->events[e].meaning, sizeof(r->events[e].meaning));
	}
	for (unsigned int p = 0; p < r->n_phases; p++) {
		ret = load_phase(ld, json_array_get(phases, p), r, p);
		if (ret)
			goto fail;
	}
	ret = load_extras(r, phases, json_object_get(jr, "mapping"));
	if (ret)
		goto fail;
	*out = r;
	return 0;
fail:
	mt_result_destroy(r);
	return ret;
}

static void load_system(json_t *js, struct mt_sysinfo *si)
{
	json_t *v, *tun, *thp, *tlbs, *pools;
	const char *key;

	get_str(js, "kernel", si->kernel, sizeof(si->kernel));
	get_str(js, "kernel_version", si->kernel_version, sizeof(si->kernel_version));
	get_str(js, "machine", si->machine, sizeof(si->machine));
	get_str(js, "host", si->host, sizeof(si->host));
	get_str(js, "cpu", si->cpu, sizeof(si->cpu));
	get_str(js, "cpu_vendor", si->cpu_vendor, sizeof(si->cpu_vendor));
	get_str(js, "pmu", si->pmu, sizeof(si->pmu));
	get_str(js, "pmus", si->pmus, sizeof(si->pmus));
	get_str(js, "thp_enabled", si->thp_enabled, sizeof(si->thp_enabled));
	get_str(js, "thp_defrag", si->thp_defrag, sizeof(si->thp_defrag));
	get_str(js, "thp_shmem_enabled", si->thp_shmem_enabled, sizeof(si->thp_shmem_enabled));
	get_str(js, "tlb_source", si->tlb_source, sizeof(si->tlb_source));
	si->page_size = get_long(js, "page_size", -1);
	v = json_object_get(js, "hw_counters");
	si->hw_counters = json_is_boolean(v) ? json_is_true(v) : -1;
	v = json_object_get(js, "hypervisor");
	si->hypervisor = json_is_boolean(v) ? json_is_true(v) : -1;
	v = json_object_get(js, "cpu_emulated");
	si->emulation.emulated = json_is_boolean(v) ? json_is_true(v) : -1;
	get_str(js, "cpu_emulated_evidence", si->emulation.evidence,
		sizeof(si->emulation.evidence));
	tun = json_object_get(js, "tunables");
	si->perf_event_paranoid = (int)get_long(tun, "perf_event_paranoid", -99);
	si->fault_around_bytes = get_long(tun, "fault_around_bytes", -1);
	si->percpu_pagelist_high_fraction = get_long(tun, "percpu_pagelist_high_fraction", -1);
	thp = json_object_get(js, "khugepaged");
	get_str(thp, "defrag", si->thp_khugepaged_defrag, sizeof(si->thp_khugepaged_defrag));
	si->khugepaged_pages_to_scan = get_long(thp, "pages_to_scan", -1);
	si->khugepaged_scan_sleep_ms = get_long(thp, "scan_sleep_millisecs", -1);
	si->numa_nodes = (int)get_long(js, "numa_nodes", -1);
	pools = json_object_get(js, "hugepages");
	json_object_foreach(pools, key, v) {
		struct mt_hugepool *hp;
		unsigned long long kb;

		if (si->n_hugepools >= MT_HUGEPAGE_SIZES || sscanf(key, "%llukB", &kb) != 1)
			continue;
		hp = &si->hugepools[si->n_hugepools++];
		hp->size_kb = kb;
		hp->total = get_long(v, "total", -1);
		hp->free = get_long(v, "free", -1);
	}
	tlbs = json_object_get(js, "tlb");
	for (size_t i = 0; json_is_array(tlbs) && i < json_array_size(tlbs) &&
			   si->n_tlbs < MT_TLB_MAX; i++) {
		json_t *t = json_array_get(tlbs, i);
		struct mt_tlb *tl = &si->tlbs[si->n_tlbs];

		if (!json_is_object(t))
			continue;
		tl->level = (unsigned int)get_long(t, "level", 0);
		get_str(t, "type", tl->type, sizeof(tl->type));
		get_str(t, "pages", tl->pages, sizeof(tl->pages));
		tl->entries = (unsigned int)get_long(t, "entries", 0);
		tl->ways = (unsigned int)get_long(t, "ways", 0);
		si->n_tlbs++;
	}
}

/* A choice by its name (model/config.c's vocabulary); unknown or absent: the first. */
static int choice(json_t *o, const char *key, int (*parse)(const char *))
{
	int v = parse(json_string_value(json_object_get(o, key)));

	return v < 0 ? 0 : v;
}

/* The workload options: absent in older reports, so all optional. */
static void load_workload_config(json_t *jc, struct mt_config *c)
{
	uint64_t v;

	c->pages = choice(jc, "pages", mt_pages_parse);
	c->access = choice(jc, "access", mt_access_parse);
	c->task_mode = choice(jc, "task_mode", mt_task_mode_parse);
	c->task_region = choice(jc, "task_region", mt_task_region_parse);
	c->file_cold = !strcmp(json_string_value(json_object_get(jc, "file_cache")) ?: "", "cold");
	if (!get_u64(jc, "huge_page_size", &v))
		c->huge_size = v;
	if (!get_u64(jc, "stride", &v))
		c->stride = v;
	if (!get_u64(jc, "seed", &v))
		c->seed = v;
	if (!get_u64(jc, "tasks", &v))
		c->tasks = (unsigned long)v;
	c->reserve = json_is_true(json_object_get(jc, "reserve"));
	c->populate = json_is_true(json_object_get(jc, "populate"));
	c->read_first = json_is_true(json_object_get(jc, "read_first"));
}

static int load_config(struct loader *ld, json_t *jc, struct mt_report *rep)
{
	struct mt_config *c = &rep->config;

	if (!json_is_object(jc) || get_u64(jc, "region", &c->region) ||
	    get_u64(jc, "block", &c->block) || get_u64(jc, "iterations", (uint64_t *)&c->iterations) ||
	    get_u64(jc, "passes", (uint64_t *)&c->passes))
		return bad(ld, "config: region, block, iterations and passes must be integers");
	c->backing = choice(jc, "backing", mt_backing_parse);
	load_workload_config(jc, c);
	get_str(jc, "events", rep->events, sizeof(rep->events));
	c->events = rep->events;
	get_str(jc, "backend", rep->backend, sizeof(rep->backend));
	get_str(jc, "event_set", rep->event_set, sizeof(rep->event_set));
	rep->user_only = json_is_true(json_object_get(jc, "user_only"));
	return 0;
}

static int load_run(struct loader *ld, json_t *jr, struct mt_report *rep)
{
	uint64_t runs = 0, repeats = 0;
	json_t *st;

	if (strcmp(rep->command, "run"))
		return 0;
	st = json_object_get(jr, "exit_status");
	if (!json_is_object(jr) || get_u64(jr, "runs", &runs) ||
	    get_u64(jr, "repeats", &repeats) || !json_is_integer(st))
		return bad(ld, "run: command_line, runs, repeats and exit_status expected");
	get_str(jr, "command_line", rep->command_line, sizeof(rep->command_line));
	rep->runs = (unsigned int)runs;
	rep->repeats = (unsigned int)repeats;
	rep->exit_status = (int)json_integer_value(st);
	return 0;
}

/* The whole of path, at most MT_REPORT_MAX_SIZE bytes (-EFBIG past it). */
static int read_capped(const char *path, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL, *nb;
	ssize_t got;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (!buf || n == cap) {
			if (buf)
				cap *= 2;
			if (cap > (size_t)MT_REPORT_MAX_SIZE + 1)
				cap = (size_t)MT_REPORT_MAX_SIZE + 1;
			nb = realloc(buf, cap);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			break;
		}
		if (!got)
			break;
		n += (size_t)got;
		if (n > MT_REPORT_MAX_SIZE) {
			ret = -EFBIG;
			break;
		}
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*len = n;
	return 0;
}

int mt_report_load(const char *path, struct mt_report **out, char *msg, size_t msg_len)
{
	struct loader ld = { msg, msg_len };
	struct mt_report *rep = NULL;
	json_t *root, *meta, *results, *schema;
	json_error_t jerr;
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	int ret;

	msg[0] = '\0';
	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	/* A 4096-point sweep is a few tens of MiB: anything larger is not ours. */
	if (S_ISREG(st.st_mode) && st.st_size > MT_REPORT_MAX_SIZE)
		return bad(&ld, "%lld bytes: larger than a report can be (%d MiB)",
			   (long long)st.st_size, MT_REPORT_MAX_SIZE >> 20);
	/* A pipe or a device has no size to check: read at most the cap, then refuse. */
	ret = read_capped(path, &text, &len);
	if (ret == -EFBIG)
		return bad(&ld, "more than %d MiB: larger than a report can be",
			   MT_REPORT_MAX_SIZE >> 20);
	if (ret)
		return ret;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!root)
		return bad(&ld, "not JSON (line %d: %s)", jerr.line, jerr.text);
	meta = json_object_get(root, "memtlb");
	schema = json_object_get(meta, "schema");
	if (!json_is_object(root) || !json_is_object(meta) || !json_is_integer(schema)) {
		ret = bad(&ld, "not a memtlb report (no memtlb.schema)");
		goto out;
	}
	if (json_integer_value(schema) != MT_REPORT_SCHEMA) {
		snprintf(msg, msg_len, "schema %lld, this memtlb reads schema %d",
			 (long long)json_integer_value(schema), MT_REPORT_SCHEMA);
		ret = -EPROTO;
		goto out;
	}
	results = json_object_get(root, "results");
	if (!json_is_array(results)) {
		ret = bad(&ld, "results: not an array");
		goto out;
	}
	ret = mt_report_create(&rep, "");
	if (ret)
		goto out;
	get_str(root, "command", rep->command, sizeof(rep->command));
	get_str(meta, "version", rep->version, sizeof(rep->version));
	load_system(json_object_get(root, "system"), &rep->system);
	ret = load_config(&ld, json_object_get(root, "config"), rep);
	if (!ret)
		ret = load_run(&ld, json_object_get(root, "run"), rep);
	for (size_t i = 0; !ret && i < json_array_size(results); i++) {
		struct mt_result *r = NULL;

		ret = load_result(&ld, json_array_get(results, i), &r);
		if (!ret) {
			r->tasks = rep->config.tasks;
			ret = mt_report_add(rep, r);
			if (ret)
				mt_result_destroy(r);
		}
	}
out:
	json_decref(root);
	if (ret) {
		mt_report_destroy(rep);
		return ret;
	}
	*out = rep;
	return 0;
}
