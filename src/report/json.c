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

/* jansson refuses NaN and infinities: a value we do not have is absent. */
static int set_real(json_t *obj, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		return 0;
	return json_object_set_new(obj, key, json_real(v));
}

static json_t *summary_json(const struct mt_summary *s)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	set_real(o, "mean", s->mean);
	if (s->n > 1) {	/* one sample has no spread: absent, not 0 */
		set_real(o, "stddev", s->stddev);
		set_real(o, "cv", s->cv);
	}
	set_real(o, "min", s->min);
	set_real(o, "median", s->median);
	set_real(o, "max", s->max);
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	return o;
}

static json_t *long_or_null(long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *system_json(const struct mt_sysinfo *si)
{
	json_t *o = json_object(), *pools = json_object(), *tlbs = json_array(), *thp;

	for (unsigned int i = 0; i < si->n_hugepools; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%llukB", (unsigned long long)si->hugepools[i].size_kb);
		json_object_set_new(pools, key, json_pack("{s:I,s:I}",
			"total", (json_int_t)si->hugepools[i].total,
			"free", (json_int_t)si->hugepools[i].free));
	}
	for (unsigned int i = 0; i < si->n_tlbs; i++) {
		const struct mt_tlb *t = &si->tlbs[i];

		json_array_append_new(tlbs, json_pack("{s:I,s:s,s:s,s:I,s:I}",
			"level", (json_int_t)t->level, "type", t->type, "pages", t->pages,
			"entries", (json_int_t)t->entries, "ways", (json_int_t)t->ways));
	}
	json_object_set_new(o, "kernel", json_string(si->kernel));
	json_object_set_new(o, "kernel_version", json_string(si->kernel_version));
	json_object_set_new(o, "machine", json_string(si->machine));
	json_object_set_new(o, "host", json_string(si->host));
	json_object_set_new(o, "cpu", json_string(si->cpu));
	json_object_set_new(o, "cpu_vendor", json_string(si->cpu_vendor));
	json_object_set_new(o, "hypervisor", si->hypervisor < 0 ? json_null()
					     : json_boolean(si->hypervisor));
	json_object_set_new(o, "pmu", si->pmu[0] ? json_string(si->pmu) : json_null());
	json_object_set_new(o, "pmus", json_string(si->pmus));
	json_object_set_new(o, "page_size", json_integer(si->page_size));
	json_object_set_new(o, "thp_enabled", json_string(si->thp_enabled));
	json_object_set_new(o, "thp_defrag", json_string(si->thp_defrag));
	json_object_set_new(o, "thp_shmem_enabled", json_string(si->thp_shmem_enabled));
	thp = json_object();
	json_object_set_new(thp, "defrag", json_string(si->thp_khugepaged_defrag));
	json_object_set_new(thp, "pages_to_scan", long_or_null(si->khugepaged_pages_to_scan));
	json_object_set_new(thp, "scan_sleep_millisecs",
			    long_or_null(si->khugepaged_scan_sleep_ms));
	json_object_set_new(o, "khugepaged", thp);
	json_object_set_new(o, "hugepages", pools);
	json_object_set_new(o, "tunables", json_pack("{s:i,s:o,s:o}", "perf_event_paranoid",
		si->perf_event_paranoid, "fault_around_bytes", long_or_null(si->fault_around_bytes),
		"percpu_pagelist_high_fraction", long_or_null(si->percpu_pagelist_high_fraction)));
	json_object_set_new(o, "numa_nodes", si->numa_nodes < 0 ? json_null()
					     : json_integer(si->numa_nodes));
	json_object_set_new(o, "tlb", tlbs);
	json_object_set_new(o, "tlb_source", json_string(si->tlb_source));
	json_object_set_new(o, "hw_counters", si->hw_counters < 0 ? json_null()
					      : json_boolean(si->hw_counters));
	return o;
}

int mt_sysinfo_write_json(const struct mt_sysinfo *si, FILE *f)
{
	json_t *o = system_json(si);
	int ret;

	if (!o)
		return -ENOMEM;
	ret = json_dumpf(o, f, JSON_INDENT(2)) ? -EIO : 0;
	fputc('\n', f);
	json_decref(o);
	return ret;
}

static json_t *config_json(const struct mt_report *rep)
{
	const struct mt_config *c = &rep->config;

	json_t *o;

	o = json_pack("{s:I,s:I,s:I,s:I,s:s,s:s,s:s,s:b}",
		      "region", (json_int_t)c->region, "block", (json_int_t)c->block,
		      "iterations", (json_int_t)c->iterations,
		      "passes", (json_int_t)c->passes,
		      "backing", mt_backing_name(c->backing),
		      "events", c->events ? c->events : "",
		      "backend", rep->backend, "user_only", rep->user_only);
	if (!o)
		return NULL;
	json_object_set_new(o, "file_cache", json_string(c->file_cold ? "cold" : "warm"));
	json_object_set_new(o, "pages", json_string(mt_pages_name(c->pages)));
	json_object_set_new(o, "huge_page_size", json_integer((json_int_t)c->huge_size));
	json_object_set_new(o, "reserve", json_boolean(c->reserve));
	json_object_set_new(o, "access", json_string(mt_access_name(c->access)));
	json_object_set_new(o, "stride", json_integer((json_int_t)c->stride));
	json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
	json_object_set_new(o, "populate", json_boolean(c->populate));
	json_object_set_new(o, "read_first", json_boolean(c->read_first));
	json_object_set_new(o, "tasks", json_integer((json_int_t)c->tasks));
	json_object_set_new(o, "task_mode", json_string(mt_task_mode_name(c->task_mode)));
	json_object_set_new(o, "task_region", json_string(mt_task_region_name(c->task_region)));
	return o;
}

static json_t *counter_json(const struct mt_result_event *ev, const struct mt_counter_stat *cs)
{
	json_t *o;

	if (cs->state == MT_COUNTER_UNSUPPORTED)
		return json_pack("{s:b,s:s,s:s}", "supported", 0,
				 "error", strerrorname_np(ev->err) ? strerrorname_np(ev->err) : "?",
				 "reason", ev->reason);
	if (cs->state == MT_COUNTER_NOT_COUNTED)
		return json_pack("{s:b,s:b}", "supported", 1, "counted", 0);
	o = summary_json(&cs->s);
	json_object_set_new(o, "supported", json_true());
	json_object_set_new(o, "counted", json_true());
	set_real(o, "running", cs->running);
	return o;
}

static json_t *mapping_json(const struct mt_mapinfo *m)
{
	json_t *o;

	if (!m->valid)
		return json_null();
	o = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
		      "addr", (json_int_t)m->addr, "align", (json_int_t)m->align,
		      "size", (json_int_t)m->size, "kernel_page_size", (json_int_t)m->kernel_page,
		      "mmu_page_size", (json_int_t)m->mmu_page, "rss", (json_int_t)m->rss,
		      "anon_huge", (json_int_t)m->anon_huge, "shmem_pmd", (json_int_t)m->shmem_pmd,
		      "file_pmd", (json_int_t)m->file_pmd, "hugetlb", (json_int_t)m->hugetlb);
	set_real(o, "huge_coverage", m->huge_coverage);
	if (m->cache_checked)
		json_object_set_new(o, "file_cache", json_pack("{s:I,s:I}",
			"pages", (json_int_t)m->cache_pages,
			"kept_after_drop", (json_int_t)m->cache_resident));
	return o;
}

static json_t *result_json(const struct mt_result *r)
{
	json_t *res, *phases, *events;

	events = json_array();
	for (unsigned int e = 0; e < r->n_events; e++) {
		json_t *je = json_pack("{s:s,s:b,s:b,s:o}",
			"name", r->events[e].name, "supported", !r->events[e].err,
			"user_only", r->events[e].user_only,
			"group", r->events[e].group < 0 ? json_null()
							: json_integer(r->events[e].group));

		if (je && r->events[e].meaning[0])
			json_object_set_new(je, "meaning", json_string(r->events[e].meaning));
		json_array_append_new(events, je);
	}
	phases = json_array();
	for (unsigned int p = 0; p < r->n_phases; p++) {
		const struct mt_phase_stat *ps = &r->phases[p];
		json_t *ph, *t, *samples, *counters, *derived, *cross;

		t = summary_json(&ps->time_ns);
		samples = json_array();
		for (size_t i = 0; ps->time_samples && i < ps->time_ns.n; i++)
			json_array_append_new(samples, json_integer((json_int_t)ps->time_samples[i]));
		json_object_set_new(t, "samples", samples);
		counters = json_object();
		for (unsigned int e = 0; e < r->n_events; e++)
			json_object_set_new(counters, r->events[e].name,
					    counter_json(&r->events[e], &ps->counters[e]));
		derived = json_object();
		cross = json_array();
		for (int d = 0; d < MT_DERIVED_MAX; d++) {
			if (!mt_phase_has(ps, d))
				continue;
			set_real(derived, mt_derived_name(d), ps->derived[d]);
			if (mt_phase_cross_group(ps, d))
				json_array_append_new(cross, json_string(mt_derived_name(d)));
		}
		ph = json_pack("{s:s,s:o,s:o,s:o,s:o}", "name", ps->name, "time_ns", t,
			       "counters", counters, "derived", derived,
			       "derived_across_groups", cross);
		if (r->n_extras) {
			json_t *kern = json_object();

			for (unsigned int x = 0; x < r->n_extras; x++)
				if (ps->has_extra & (1ull << x))
					json_object_set_new(kern, r->extra_names[x],
							    summary_json(&ps->extras[x]));
			json_object_set_new(ph, "kernel", kern);
		}
		json_array_append_new(phases, ph);
	}
	res = json_pack("{s:{s:I,s:I,s:I},s:o,s:o}",
			"params", "region", (json_int_t)r->region, "block", (json_int_t)r->block,
			"blocks", (json_int_t)r->blocks, "events", events, "phases", phases);
	if (res)
		json_object_set_new(res, "mapping", mapping_json(&r->map));
	/* Swept parameters: strings, as given (a tunable's value is text). */
	for (unsigned int i = 0; res && i < r->n_vary; i++)
		json_object_set_new(json_object_get(res, "params"), r->vary[i].key,
				    json_string(r->vary[i].value));
	return res;
}

static json_t *report_json(const struct mt_report *rep)
{
	json_t *root, *results = json_array();

	for (size_t i = 0; i < rep->n_results; i++)
		json_array_append_new(results, result_json(rep->results[i]));
	root = json_pack("{s:{s:s,s:i},s:o,s:s,s:o,s:o}",
			 "memtlb", "version", rep->version, "schema", MT_REPORT_SCHEMA,
			 "system", system_json(&rep->system), "command", rep->command,
			 "config", config_json(rep), "results", results);
	if (root && !strcmp(rep->command, "run"))
		json_object_set_new(root, "run", json_pack("{s:s,s:I,s:I,s:i,s:b}",
			"command_line", rep->command_line, "runs", (json_int_t)rep->runs,
			"repeats", (json_int_t)rep->repeats, "exit_status", rep->exit_status,
			"failed", rep->exit_status != 0));
	if (root && rep->event_set[0])
		json_object_set_new(json_object_get(root, "config"), "event_set",
				    json_string(rep->event_set));
	return root;
}

static int dump_json(FILE *f, void *root)
{
	errno = 0;
	if (json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) || fputc('\n', f) == EOF)
		return errno ? -errno : -EIO;
	return 0;
}

int mt_report_write(const struct mt_report *rep, const char *path)
{
	json_t *root;
	int ret;

	root = report_json(rep);
	if (!root)
		return -ENOMEM;
	if (!strcmp(path, "-")) {
		ret = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) ? -EIO : 0;
		fputc('\n', stdout);
		json_decref(root);
		return ret;
	}
	ret = mt_file_write_atomic(path, 0600, dump_json, root);
	json_decref(root);
	return ret;
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

int mt_report_load(const char *path, struct mt_report **out, char *msg, size_t msg_len)
{
	struct loader ld = { msg, msg_len };
	struct mt_report *rep = NULL;
	json_t *root, *meta, *results, *schema;
	json_error_t jerr;
	struct stat st;
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
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (access(path, R_OK))
			return -errno;
		return bad(&ld, "not JSON (line %d: %s)", jerr.line, jerr.text);
	}
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
