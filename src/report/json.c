// SPDX-License-Identifier: MIT
/*
 * The report file: written and read with jansson; schema in memtlb-json(5).
 *
 * An object of fixed keys (the system and its environment, a summary, a
 * mapping, an event, the flush section) is a field table, written and
 * loaded by report/codec.c's one walk. What stays written here by hand,
 * in a writer and a loader side by side, is what a table cannot hold:
 * objects whose keys are data (counters by event name, derived metrics
 * by name, --vary parameters by key, kernel counts by name), the config
 * (through model/config.c's key table and its setter), and the arrays
 * whose every element is bounded against the rest of an untrusted file
 * (phases, runs, iteration marks, outliers, TLB levels).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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

#include "analysis/matrix.h"
#include "analysis/series.h"
#include "analysis/translation.h"
#include "model/reach.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/codec.h"
#include "report/json.h"
#include "report/probe.h"
#include "stats/fit.h"
#include "stats/knee.h"
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

static json_t *str(struct jb *b, const char *s)
{
	return keep(b, mt_json_string(s));
}

/* obj[key] = v; v is stolen, even on failure (jansson's rule). */
static void put(struct jb *b, json_t *obj, const char *key, json_t *v)
{
	if (mt_json_set(obj, key, v) && !b->err)
		b->err = -ENOMEM;
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

/* An object of the fields of table f from base (report/codec.h). */
static json_t *fields_json(struct jb *b, const struct mt_field *f, const void *base)
{
	json_t *o = object(b);

	if (o && mt_codec_write(o, f, base) && !b->err)
		b->err = -ENOMEM;
	return o;
}

/* Loading: an absent or mistyped key is its default, never a crash. */
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

/* A summary of samples (stats/stats.h); one sample has no spread: absent, not 0. */
static bool spread(const void *base)
{
	return ((const struct mt_summary *)base)->n > 1;
}

#define SUM(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_summary, m), \
		       .size = MT_FIELD_SIZE(struct mt_summary, m) }
static const struct mt_field summary_fields[] = {
	SUM("mean", MT_FIELD_REAL, mean),
	{ .key = "stddev", .type = MT_FIELD_REAL, .when = spread,
	  .off = offsetof(struct mt_summary, stddev) },
	{ .key = "cv", .type = MT_FIELD_REAL, .when = spread,
	  .off = offsetof(struct mt_summary, cv) },
	SUM("min", MT_FIELD_REAL, min),
	SUM("median", MT_FIELD_REAL, median),
	SUM("max", MT_FIELD_REAL, max),
	SUM("n", MT_FIELD_UINT, n),
	{ 0 }
};

static json_t *summary_json(struct jb *b, const struct mt_summary *s)
{
	return fields_json(b, summary_fields, s);
}

/*
 * The system: what the machine was (sys/sysinfo.h) and what makes its
 * numbers comparable (sys/env.h), one table for the writer and the loader.
 * Unknown is null, never a guess. The env's keys sit in the same object.
 */
static int hv_write(const void *base, json_t **out)
{
	const struct mt_env *e = &((const struct mt_sysinfo *)base)->env;
	json_t *feat = NULL;

	if (e->hv_cpuid < 0) {
		*out = json_null();
		return 0;
	}
	if (e->kvm_features_known) {
		feat = json_object();
		for (size_t i = 0; feat && i < MT_ENV_KVM_FEATURES; i++)
			if (json_object_set_new(feat, mt_env_kvm_features[i].name, json_boolean(
				e->kvm_features & (1u << mt_env_kvm_features[i].bit)))) {
				json_decref(feat);
				return -ENOMEM;
			}
	}
	*out = json_pack("{s:o,s:o,s:o}",
			 "signature", e->hv_cpuid > 0 ? mt_json_string(e->hv_signature)
						      : json_null(),
			 "vendor", e->hv_vendor[0] ? mt_json_string(e->hv_vendor) : json_null(),
			 "kvm_features", e->kvm_features_known ? feat : json_null());
	return *out ? 0 : -ENOMEM;
}

static void hv_read(json_t *hv, void *base)
{
	struct mt_env *e = &((struct mt_sysinfo *)base)->env;
	json_t *v;

	e->hv_cpuid = -1;
	if (!json_is_object(hv))
		return;
	v = json_object_get(hv, "signature");
	e->hv_cpuid = json_is_string(v) ? 1 : 0;
	get_str(hv, "signature", e->hv_signature, sizeof(e->hv_signature));
	get_str(hv, "vendor", e->hv_vendor, sizeof(e->hv_vendor));
	mt_json_printable(e->hv_signature);
	mt_json_printable(e->hv_vendor);
	v = json_object_get(hv, "kvm_features");
	if (!json_is_object(v))
		return;
	e->kvm_features_known = 1;
	for (size_t i = 0; i < MT_ENV_KVM_FEATURES; i++)
		if (json_is_true(json_object_get(v, mt_env_kvm_features[i].name)))
			e->kvm_features |= 1u << mt_env_kvm_features[i].bit;
}

/* /proc/cmdline's translation entries, one string each. */
static int cmdline_write(const void *base, json_t **out)
{
	const struct mt_env *e = &((const struct mt_sysinfo *)base)->env;
	char buf[sizeof(e->cmdline)], *tok, *save;

	if (!e->cmdline_known) {
		*out = json_null();
		return 0;
	}
	*out = json_array();
	snprintf(buf, sizeof(buf), "%s", e->cmdline);
	for (tok = strtok_r(buf, " ", &save); *out && tok; tok = strtok_r(NULL, " ", &save))
		if (json_array_append_new(*out, mt_json_string(tok))) {
			json_decref(*out);
			*out = NULL;
		}
	return *out ? 0 : -ENOMEM;
}

static void cmdline_read(json_t *v, void *base)
{
	struct mt_env *e = &((struct mt_sysinfo *)base)->env;
	size_t off = 0;

	if (!json_is_array(v))
		return;
	e->cmdline_known = 1;
	for (size_t i = 0; i < json_array_size(v); i++) {
		const char *t = json_string_value(json_array_get(v, i));

		if (!t || off + strlen(t) + 2 > sizeof(e->cmdline))
			continue;
		off += (size_t)snprintf(e->cmdline + off, sizeof(e->cmdline) - off, "%s%s",
					off ? " " : "", t);
	}
	mt_json_printable(e->cmdline);
}

/* Each mTHP size's policies, keyed "64kB". */
static int mthp_write(const void *base, json_t **out)
{
	const struct mt_env *e = &((const struct mt_sysinfo *)base)->env;

	*out = json_object();
	for (unsigned int i = 0; *out && i < e->n_mthp; i++) {
		const struct mt_env_mthp *m = &e->mthp[i];
		char key[24];

		snprintf(key, sizeof(key), "%ukB", m->size_kb);
		if (json_object_set_new(*out, key, json_pack("{s:o,s:o}",
				"enabled", m->enabled[0] ? mt_json_string(m->enabled) : json_null(),
				"shmem_enabled", m->shmem_enabled[0] ?
				mt_json_string(m->shmem_enabled) : json_null()))) {
			json_decref(*out);
			*out = NULL;
		}
	}
	return *out ? 0 : -ENOMEM;
}

static void mthp_read(json_t *sizes, void *base)
{
	struct mt_env *e = &((struct mt_sysinfo *)base)->env;
	const char *key;
	json_t *v;

	json_object_foreach(sizes, key, v) {
		struct mt_env_mthp *m = &e->mthp[e->n_mthp];
		/* An older report has a size's enabled string alone: shmem unknown. */
		const char *t = json_is_string(v) ? json_string_value(v)
			      : json_string_value(json_object_get(v, "enabled"));
		const char *sh = json_string_value(json_object_get(v, "shmem_enabled"));

		if (e->n_mthp >= MT_ENV_MTHP_MAX || (!json_is_string(v) && !json_is_object(v)) ||
		    sscanf(key, "%ukB", &m->size_kb) != 1)
			continue;
		snprintf(m->enabled, sizeof(m->enabled), "%s", t ? t : "");
		snprintf(m->shmem_enabled, sizeof(m->shmem_enabled), "%s", sh ? sh : "");
		mt_json_printable(m->enabled);
		mt_json_printable(m->shmem_enabled);
		e->n_mthp++;
	}
}

#define RUN(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_env_run, m), \
		       .size = MT_FIELD_SIZE(struct mt_env_run, m) }
static const struct mt_field run_fields[] = {
	RUN("steal_ms", MT_FIELD_REAL_NULL, steal_ms),
	RUN("voluntary_switches", MT_FIELD_INT_NULL, nvcsw),
	RUN("involuntary_switches", MT_FIELD_INT_NULL, nivcsw),
	RUN("migrations", MT_FIELD_INT_NULL, migrations),
	{ 0 }
};

/* Only a report has a run; sysinfo --json has none. */
static int run_write(const void *base, json_t **out)
{
	const struct mt_env_run *run = &((const struct mt_sysinfo *)base)->env.run;

	if (!run->measured)
		return 0;
	*out = json_object();
	if (*out && mt_codec_write(*out, run_fields, run)) {
		json_decref(*out);
		*out = NULL;
	}
	return *out ? 0 : -ENOMEM;
}

static void run_read(json_t *v, void *base)
{
	struct mt_env_run *run = &((struct mt_sysinfo *)base)->env.run;

	mt_codec_read(v, run_fields, run);
	run->measured = json_is_object(v);
}

/* The hugetlb pools, keyed by page size ("2048kB"). */
static int pools_write(const void *base, json_t **out)
{
	const struct mt_sysinfo *si = base;

	*out = json_object();
	for (unsigned int i = 0; *out && i < si->n_hugepools; i++) {
		const struct mt_hugepool *hp = &si->hugepools[i];
		char key[32];

		snprintf(key, sizeof(key), "%llukB", (unsigned long long)hp->size_kb);
		if (json_object_set_new(*out, key, json_pack("{s:I,s:I}", "total",
				(json_int_t)hp->total, "free", (json_int_t)hp->free))) {
			json_decref(*out);
			*out = NULL;
		}
	}
	return *out ? 0 : -ENOMEM;
}

static void pools_read(json_t *pools, void *base)
{
	struct mt_sysinfo *si = base;
	const char *key;
	json_t *v;

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
}

#define TLB(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_tlb, m), \
		       .size = MT_FIELD_SIZE(struct mt_tlb, m) }
static const struct mt_field tlb_fields[] = {
	TLB("level", MT_FIELD_UINT, level),
	TLB("type", MT_FIELD_STR, type),
	TLB("pages", MT_FIELD_STR, pages),
	TLB("entries", MT_FIELD_UINT, entries),
	TLB("ways", MT_FIELD_UINT, ways),
	{ 0 }
};

#define CACHE(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_cache, m), \
			 .size = MT_FIELD_SIZE(struct mt_cache, m) }
static const struct mt_field cache_fields[] = {
	CACHE("level", MT_FIELD_UINT, level),
	CACHE("type", MT_FIELD_STR, type),
	CACHE("size_bytes", MT_FIELD_UINT, size),
	CACHE("ways", MT_FIELD_UINT, ways),
	{ 0 }
};

/* A cache a report records; one whose level, type or size is odd is left out. */
static bool cache_keep(void *elem)
{
	struct mt_cache *c = elem;

	if (c->ways >= 1024)
		c->ways = 0;
	return mt_sysinfo_cache_type_known(c->type) && c->level >= 1 && c->level <= 4 &&
	       c->size && c->size <= (1ull << 40);
}

#define SI(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_sysinfo, m), \
		      .size = MT_FIELD_SIZE(struct mt_sysinfo, m) }
#define SI_SHOWN(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_sysinfo, m), \
			    .size = MT_FIELD_SIZE(struct mt_sysinfo, m), .flags = MT_FIELD_SHOWN }
#define SI_STATE(k, m) { .key = k, .type = MT_FIELD_ENUM, .off = offsetof(struct mt_sysinfo, m), \
			 .name = mt_sysinfo_state_name, .parse = mt_sysinfo_state_parse }
#define SI_OBJECT(k, fields) { .key = k, .type = MT_FIELD_OBJECT, .sub = fields }
#define SI_CUSTOM(k, w, r) { .key = k, .type = MT_FIELD_CUSTOM, .write = w, .read = r }

static const struct mt_field khugepaged_fields[] = {
	SI("defrag", MT_FIELD_STR, thp_khugepaged_defrag),
	SI("pages_to_scan", MT_FIELD_INT_NULL, khugepaged_pages_to_scan),
	SI("scan_sleep_millisecs", MT_FIELD_INT_NULL, khugepaged_scan_sleep_ms),
	SI("max_ptes_none", MT_FIELD_INT_NULL, env.max_ptes_none),
	SI("max_ptes_swap", MT_FIELD_INT_NULL, env.max_ptes_swap),
	SI("max_ptes_shared", MT_FIELD_INT_NULL, env.max_ptes_shared),
	SI("alloc_sleep_millisecs", MT_FIELD_INT_NULL, env.alloc_sleep_ms),
	{ 0 }
};

static const struct mt_field tunables_fields[] = {
	{ .key = "perf_event_paranoid", .type = MT_FIELD_INT, .dfl = -99,
	  .off = offsetof(struct mt_sysinfo, perf_event_paranoid),
	  .size = MT_FIELD_SIZE(struct mt_sysinfo, perf_event_paranoid) },
	SI("fault_around_bytes", MT_FIELD_INT_NULL, fault_around_bytes),
	SI_STATE("fault_around_bytes_state", fault_around_state),
	SI("tlb_single_page_flush_ceiling", MT_FIELD_INT_NULL, tlb_flush_ceiling),
	SI_STATE("tlb_single_page_flush_ceiling_state", tlb_flush_ceiling_state),
	SI("percpu_pagelist_high_fraction", MT_FIELD_INT_NULL, percpu_pagelist_high_fraction),
	{ 0 }
};

static const struct mt_field cpufreq_fields[] = {
	SI("present", MT_FIELD_TRI, env.cpufreq),
	SI_SHOWN("governor", MT_FIELD_STR_NULL, env.governor),
	SI("boost", MT_FIELD_TRI, env.boost),
	SI_SHOWN("boost_source", MT_FIELD_STR_NULL, env.boost_source),
	{ 0 }
};

static const struct mt_field system_fields[] = {
	SI("kernel", MT_FIELD_STR, kernel),
	SI("kernel_version", MT_FIELD_STR, kernel_version),
	SI("machine", MT_FIELD_STR, machine),
	SI("host", MT_FIELD_STR, host),
	SI("cpu", MT_FIELD_STR, cpu),
	SI("cpu_vendor", MT_FIELD_STR, cpu_vendor),
	SI("hypervisor", MT_FIELD_TRI, hypervisor),
	SI("pv_tlb_flush", MT_FIELD_TRI, pv_tlb_flush),
	SI("cpu_emulated", MT_FIELD_TRI, emulation.emulated),
	SI("cpu_emulated_evidence", MT_FIELD_STR, emulation.evidence),
	SI("pmu", MT_FIELD_STR_NULL, pmu),
	SI("pmus", MT_FIELD_STR, pmus),
	{ .key = "page_size", .type = MT_FIELD_INT, .dfl = -1,
	  .off = offsetof(struct mt_sysinfo, page_size),
	  .size = MT_FIELD_SIZE(struct mt_sysinfo, page_size) },
	SI("thp_enabled", MT_FIELD_STR, thp_enabled),
	SI("thp_defrag", MT_FIELD_STR, thp_defrag),
	SI("thp_shmem_enabled", MT_FIELD_STR, thp_shmem_enabled),
	SI_OBJECT("khugepaged", khugepaged_fields),
	SI_CUSTOM("hugepages", pools_write, pools_read),
	/* sysinfo's; the env's, below, takes its value and keeps its place */
	SI("lockdown", MT_FIELD_STR, lockdown),
	SI_OBJECT("tunables", tunables_fields),
	SI("numa_nodes", MT_FIELD_INT_NULL, numa_nodes),
	{ .key = "tlb", .type = MT_FIELD_ARRAY, .sub = tlb_fields,
	  .off = offsetof(struct mt_sysinfo, tlbs), .elem = sizeof(struct mt_tlb),
	  .aux = offsetof(struct mt_sysinfo, n_tlbs), .max = MT_TLB_MAX },
	SI("tlb_source", MT_FIELD_STR, tlb_source),
	{ .key = "caches", .type = MT_FIELD_ARRAY, .sub = cache_fields, .keep = cache_keep,
	  .off = offsetof(struct mt_sysinfo, caches), .elem = sizeof(struct mt_cache),
	  .aux = offsetof(struct mt_sysinfo, n_caches), .max = MT_CACHE_MAX },
	SI("hw_counters", MT_FIELD_TRI, hw_counters),
	/* the environment (sys/env.h) */
	SI_CUSTOM("hypervisor_cpuid", hv_write, hv_read),
	SI_OBJECT("cpufreq", cpufreq_fields),
	SI("smt_active", MT_FIELD_TRI, env.smt_active),
	{ .key = "isolated_cpus", .type = MT_FIELD_STR_KNOWN, .flags = MT_FIELD_SHOWN,
	  .off = offsetof(struct mt_sysinfo, env.isolated),
	  .size = MT_FIELD_SIZE(struct mt_sysinfo, env.isolated),
	  .aux = offsetof(struct mt_sysinfo, env.isolated_known) },
	{ .key = "nohz_full", .type = MT_FIELD_STR_KNOWN, .flags = MT_FIELD_SHOWN,
	  .off = offsetof(struct mt_sysinfo, env.nohz_full),
	  .size = MT_FIELD_SIZE(struct mt_sysinfo, env.nohz_full),
	  .aux = offsetof(struct mt_sysinfo, env.nohz_full_known) },
	SI("randomize_va_space", MT_FIELD_INT_NULL, env.aslr),
	SI_CUSTOM("cmdline_translation", cmdline_write, cmdline_read),
	SI_SHOWN("lockdown", MT_FIELD_STR_NULL, env.lockdown),
	SI("loadavg_start", MT_FIELD_REAL_NULL, env.loadavg),
	SI("online_cpus", MT_FIELD_INT_NULL, env.online_cpus),
	SI("thp_use_zero_page", MT_FIELD_TRI, env.thp_use_zero_page),
	SI_CUSTOM("thp_sizes", mthp_write, mthp_read),
	SI_CUSTOM("run", run_write, run_read),
	{ 0 }
};

static json_t *system_json(struct jb *b, const struct mt_sysinfo *si)
{
	return fields_json(b, system_fields, si);
}

json_t *mt_sysinfo_json(const struct mt_sysinfo *si)
{
	struct jb b = { 0 };
	json_t *o = system_json(&b, si);

	if (b.err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int mt_sysinfo_write_json(const struct mt_sysinfo *si, FILE *f)
{
	json_t *o = mt_sysinfo_json(si);
	int ret;

	if (!o)
		return -ENOMEM;
	ret = json_dumpf(o, f, JSON_INDENT(2)) ? -EIO : 0;
	fputc('\n', f);
	json_decref(o);
	return ret;
}

/* Whether key k is in the config of rep (model/config.h's flags). */
static bool config_saved(const struct mt_config_key *k, const struct mt_config_value *v,
			 const struct mt_report *rep)
{
	if ((k->flags & MT_KEY_CI) && !(rep->config.ci_target > 0))
		return false;
	if ((k->flags & MT_KEY_SWEEP) && strcmp(rep->command, "sweep"))
		return false;
	if (!(k->flags & MT_KEY_IF_SET))
		return true;
	return v->kind == MT_VALUE_STRING ? v->s != NULL :
	       v->kind == MT_VALUE_REAL ? v->d > 0 : v->kind == MT_VALUE_INT ? v->u != 0 : v->b;
}

/*
 * The config: every key of model/config.c's table that a report saves, in
 * its order and by its name there, then what the keys imply (the huge
 * page size, the stride) and the run's own (events, backend).
 */
static json_t *config_json(struct jb *b, const struct mt_report *rep)
{
	const struct mt_config *c = &rep->config;
	const struct mt_config_key *keys;
	json_t *o = object(b);
	size_t n;

	keys = mt_config_keys(&n);
	for (size_t i = 0; i < n; i++) {
		struct mt_config_value v;

		if (!keys[i].json || mt_config_value(c, &keys[i], &v) ||
		    !config_saved(&keys[i], &v, rep))
			continue;
		switch (v.kind) {
		case MT_VALUE_INT:
			put_int(b, o, keys[i].json, (json_int_t)v.u);
			break;
		case MT_VALUE_REAL:
			set_real(b, o, keys[i].json, v.d);
			break;
		case MT_VALUE_BOOL:
			put_bool(b, o, keys[i].json, v.b);
			break;
		case MT_VALUE_STRING:
		default:
			put_str(b, o, keys[i].json, v.s ? v.s : "");
			break;
		}
	}
	put_int(b, o, "huge_page_size", (json_int_t)c->huge_size);
	put_int(b, o, "stride", (json_int_t)c->stride);
	put_str(b, o, "events", c->events ? c->events : "");
	if (rep->event_set[0])
		put_str(b, o, "event_set", rep->event_set);
	put_str(b, o, "backend", rep->backend);
	put_bool(b, o, "user_only", rep->user_only);
	return o;
}

/* Each run's (iteration's) count, null where it was not counted. */
static void counter_samples(struct jb *b, json_t *o, const struct mt_counter_stat *cs, size_t n)
{
	json_t *samples;

	/* none kept, or no run counted (run --vary: a column whose runs all failed) */
	if (!cs->samples || !n)
		return;
	samples = array(b);
	for (size_t i = 0; i < n && !b->err; i++)
		push(b, samples, isfinite(cs->samples[i]) ?
		     keep(b, json_integer((json_int_t)llround(cs->samples[i]))) : json_null());
	put(b, o, "samples", samples);
}

/*
 * The errno an "error" name stands for, so a report read back (a --runs
 * run's, merged) writes the same name again; 0 where none matches.
 */
static int errno_named(const char *name)
{
	for (int e = 1; name && e < 4096; e++)
		if (strerrorname_np(e) && !strcmp(strerrorname_np(e), name))
			return e;
	return 0;
}

/*
 * A counter's samples read back: one per time sample, a count or null
 * (not counted); absent in reports before them. -EINVAL on any other shape.
 */
static int load_counter_samples(json_t *c, struct mt_counter_stat *cs, size_t n)
{
	json_t *samples = json_object_get(c, "samples");

	if (!samples)
		return 0;
	if (!json_is_array(samples) || json_array_size(samples) != n || !n)
		return -EINVAL;
	cs->samples = malloc(n * sizeof(*cs->samples));
	if (!cs->samples)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array_get(samples, i);

		if (json_is_null(v))
			cs->samples[i] = NAN;
		else if (json_is_integer(v) && json_integer_value(v) >= 0)
			cs->samples[i] = (double)json_integer_value(v);
		else
			return -EINVAL;
	}
	return 0;
}

static json_t *counter_json(struct jb *b, const struct mt_result_event *ev,
			    const struct mt_counter_stat *cs, size_t n_samples)
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
		counter_samples(b, o, cs, n_samples);
		return o;
	}
	o = summary_json(b, &cs->s);
	put_bool(b, o, "supported", true);
	put_bool(b, o, "counted", true);
	set_real(b, o, "running", cs->running);
	counter_samples(b, o, cs, n_samples);
	return o;
}

/* What the kernel mapped (sys/mapinfo.h): one table for the writer and the loader. */
static int source_write(const void *base, json_t **out)
{
	*out = json_string(((const struct mt_mapinfo *)base)->scan.smaps ? "smaps"
									  : "pagemap_scan");
	return *out ? 0 : -ENOMEM;
}

static void source_read(json_t *v, void *base)
{
	((struct mt_mapinfo *)base)->scan.smaps = json_is_string(v) &&
						   !strcmp(json_string_value(v), "smaps");
}

/* The folio sizes a scan saw, with their share of the range. */
static int folios_write(const void *base, json_t **out)
{
	const struct mt_pagescan *ps = &((const struct mt_mapinfo *)base)->scan;

	*out = json_array();
	for (unsigned int i = 0; *out && i < ps->n_folios; i++) {
		const struct mt_folio_share *fs = &ps->folios[i];
		json_t *one = json_pack("{s:I,s:I}", "size", (json_int_t)fs->size, "bytes",
					(json_int_t)fs->bytes);

		if (one && mt_json_set_real(one, "share", ps->len ? (double)fs->bytes /
					    (double)ps->len : 0.0)) {
			json_decref(one);
			one = NULL;
		}
		/* json_array_append_new takes one, and refuses NULL */
		if (json_array_append_new(*out, one)) {
			json_decref(*out);
			*out = NULL;
		}
	}
	return *out ? 0 : -ENOMEM;
}

static void folios_read(json_t *fl, void *base)
{
	struct mt_pagescan *ps = &((struct mt_mapinfo *)base)->scan;
	json_t *one;
	size_t i;

	json_array_foreach(fl, i, one) {
		uint64_t size = 0, bytes = 0;

		if (!get_u64(one, "size", &size) && !get_u64(one, "bytes", &bytes))
			mt_mapinfo_add_folio(ps, size, bytes);
	}
}

static bool folios_read_from(const void *base)
{
	return ((const struct mt_mapinfo *)base)->scan.folio_source != MT_FOLIO_NONE;
}

static int checked_write(const void *base, json_t **out)
{
	int check = ((const struct mt_mapinfo *)base)->page_check;

	*out = check ? json_boolean(check > 0) : json_null();
	return 0;
}

static void checked_read(json_t *v, void *base)
{
	((struct mt_mapinfo *)base)->page_check = json_is_boolean(v) ?
						  (json_is_true(v) ? 1 : -1) : 0;
}

static bool checked(const void *base)
{
	return ((const struct mt_mapinfo *)base)->page_check;
}

#define MAP(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_mapinfo, m), \
		       .size = MT_FIELD_SIZE(struct mt_mapinfo, m) }

static const struct mt_field pages_fields[] = {
	MAP("huge", MT_FIELD_UINT, scan.huge),
	MAP("large", MT_FIELD_UINT, scan.large),
	MAP("base", MT_FIELD_UINT, scan.base),
	MAP("absent", MT_FIELD_UINT, scan.absent),
	{ .key = "source", .type = MT_FIELD_CUSTOM, .write = source_write, .read = source_read },
	{ .key = "folios", .type = MT_FIELD_CUSTOM, .write = folios_write, .read = folios_read,
	  .when = folios_read_from },
	{ .key = "folio_source", .type = MT_FIELD_ENUM, .when = folios_read_from,
	  .off = offsetof(struct mt_mapinfo, scan.folio_source),
	  .name = mt_mapinfo_source_name, .parse = mt_mapinfo_source_parse },
	{ 0 }
};

static const struct mt_field file_cache_fields[] = {
	MAP("pages", MT_FIELD_UINT, cache_pages),
	MAP("kept_after_drop", MT_FIELD_UINT, cache_resident),
	{ 0 }
};

static const struct mt_field folio_stats_fields[] = {
	MAP("size", MT_FIELD_UINT, folio_size),
	MAP("iterations", MT_FIELD_UINT, folio_iters),
	MAP("alloc", MT_FIELD_UINT, folio_alloc),
	MAP("fallback", MT_FIELD_UINT, folio_fallback),
	{ 0 }
};

static const struct mt_field mapping_fields[] = {
	MAP("addr", MT_FIELD_UINT, addr),
	MAP("align", MT_FIELD_UINT, align),
	MAP("size", MT_FIELD_UINT, size),
	MAP("kernel_page_size", MT_FIELD_UINT, kernel_page),
	MAP("mmu_page_size", MT_FIELD_UINT, mmu_page),
	MAP("rss", MT_FIELD_UINT, rss),
	MAP("anon_huge", MT_FIELD_UINT, anon_huge),
	MAP("shmem_pmd", MT_FIELD_UINT, shmem_pmd),
	MAP("file_pmd", MT_FIELD_UINT, file_pmd),
	MAP("hugetlb", MT_FIELD_UINT, hugetlb),
	MAP("huge_coverage", MT_FIELD_REAL, huge_coverage),
	{ .key = "pages", .type = MT_FIELD_OBJECT, .sub = pages_fields,
	  .flags = MT_FIELD_PRESENT, .aux = offsetof(struct mt_mapinfo, scanned) },
	{ .key = "as_requested", .type = MT_FIELD_CUSTOM, .write = checked_write,
	  .read = checked_read },
	{ .key = "page_verdict", .type = MT_FIELD_STR, .when = checked,
	  .off = offsetof(struct mt_mapinfo, verdict),
	  .size = MT_FIELD_SIZE(struct mt_mapinfo, verdict) },
	{ .key = "file_cache", .type = MT_FIELD_OBJECT, .sub = file_cache_fields,
	  .flags = MT_FIELD_PRESENT, .aux = offsetof(struct mt_mapinfo, cache_checked) },
	{ .key = "folio_stats", .type = MT_FIELD_OBJECT, .sub = folio_stats_fields,
	  .flags = MT_FIELD_PRESENT, .aux = offsetof(struct mt_mapinfo, folios_counted) },
	{ 0 }
};

static json_t *mapping_json(struct jb *b, const struct mt_mapinfo *m)
{
	return m->valid ? fields_json(b, mapping_fields, m) : json_null();
}

/* A report's mapping: absent or null when there was none. */
static void load_mapping(json_t *jm, struct mt_mapinfo *m)
{
	if (!json_is_object(jm))
		return;
	m->valid = true;
	mt_codec_read(jm, mapping_fields, m);
	if (!m->scanned)
		return;
	/* the range asked about, so a report read back knows its page size */
	m->scan.len = m->scan.huge + m->scan.large + m->scan.base + m->scan.absent;
	if (!m->scan.n_folios)
		m->scan.folio_source = MT_FOLIO_NONE;
}

/* --runs: each fresh process's means, and the spread between them. */
static void runs_json(struct jb *b, json_t *ph, const struct mt_result *r,
		      const struct mt_phase_stat *ps)
{
	json_t *runs = array(b), *between;

	for (unsigned int k = 0; k < r->n_runs && !b->err; k++) {
		const struct mt_run_stat *rs = &ps->runs[k];
		json_t *jr = object(b), *c = object(b);

		put_int(b, jr, "n", (json_int_t)rs->n);
		set_real(b, jr, "time_ns", rs->time_mean);
		put(b, jr, "mapping_addr", rs->map_addr ? keep(b, json_integer(
			(json_int_t)rs->map_addr)) : json_null());
		/* Not counted in that run: null, never 0. */
		for (unsigned int e = 0; e < r->n_events; e++)
			put(b, c, r->events[e].name, isfinite(rs->counter_means[e]) ?
			    keep(b, json_real(rs->counter_means[e])) : json_null());
		put(b, jr, "counters", c);
		push(b, runs, jr);
	}
	put(b, ph, "runs", runs);
	between = summary_json(b, &ps->between);
	if (between && ps->between.n > 1) {
		set_real(b, between, "ci95_low", ps->between.mean - ps->between_half);
		set_real(b, between, "ci95_high", ps->between.mean + ps->between_half);
	}
	put(b, ph, "between_runs", between);
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
	if (ps->warmup_samples && r->warmup) {
		json_t *warm = array(b);

		for (size_t i = 0; i < r->warmup && !b->err; i++)
			push(b, warm, keep(b, json_integer((json_int_t)ps->warmup_samples[i])));
		put(b, ph, "warmup_time_ns", warm);
	}
	counters = object(b);
	for (unsigned int e = 0; e < r->n_events; e++)
		put(b, counters, r->events[e].name,
		    counter_json(b, &r->events[e], &ps->counters[e], ps->time_ns.n));
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
	if (r->n_runs && ps->runs)
		runs_json(b, ph, r, ps);
	if (r->n_extras) {
		json_t *kern = object(b);

		for (unsigned int x = 0; x < r->n_extras; x++)
			if (ps->has_extra & (1ull << x))
				put(b, kern, r->extra_names[x], summary_json(b, &ps->extras[x]));
		put(b, ph, "kernel", kern);
	}
	return ph;
}

/* How the iterations went: why they stopped, when each began, the outliers. */
static void iterations_json(struct jb *b, json_t *res, const struct mt_result *r)
{
	json_t *starts, *steal, *outliers;

	if (mt_stop_name(r->stop))
		put_str(b, res, "stop", mt_stop_name(r->stop));
	if (r->warmup)
		put_int(b, res, "warmup", (json_int_t)r->warmup);
	if (r->evidence_iter)
		put_int(b, res, "evidence_iteration", (json_int_t)r->evidence_iter);
	if (!r->n_iter_marks)
		return;
	starts = array(b);
	steal = array(b);
	for (unsigned int i = 0; i < r->n_iter_marks && !b->err; i++) {
		push(b, starts, keep(b, json_integer((json_int_t)r->iter_start_ns[i])));
		push(b, steal, r->iter_steal_ms[i] < 0 ? json_null() :
		     keep(b, json_real(r->iter_steal_ms[i])));
	}
	put(b, res, "iteration_start_ns", starts);
	put(b, res, "iteration_steal_ms", steal);
	outliers = array(b);
	for (unsigned int i = 0; i < r->n_outliers && !b->err; i++) {
		const struct mt_outlier *o = &r->outliers[i];
		json_t *jo = object(b);

		put_int(b, jo, "iteration", (json_int_t)o->iter);
		put_str(b, jo, "phase", o->phase < r->n_phases ? r->phases[o->phase].name : "");
		put_int(b, jo, "time_ns", (json_int_t)o->time_ns);
		put(b, jo, "cause", o->cause[0] ? str(b, o->cause) : json_null());
		push(b, outliers, jo);
	}
	put(b, res, "outliers", outliers);
}

/* An event of a result: what was opened, how, and what it stands for. */
static int supported_write(const void *base, json_t **out)
{
	*out = json_boolean(!((const struct mt_result_event *)base)->err);
	return 0;
}

static int source_rusage_write(const void *base, json_t **out)
{
	(void)base;	/* written only when by_rusage */
	*out = json_string("getrusage");
	return *out ? 0 : -ENOMEM;
}

static void source_rusage_read(json_t *v, void *base)
{
	((struct mt_result_event *)base)->rusage = json_is_string(v) &&
						   !strcmp(json_string_value(v), "getrusage");
}

static bool by_rusage(const void *base)
{
	return ((const struct mt_result_event *)base)->rusage;
}

static bool has_meaning(const void *base)
{
	return ((const struct mt_result_event *)base)->meaning[0];
}

/* What the event stands for (faults, dTLB misses): the fits need it back. */
static bool has_role(const void *base)
{
	enum mt_role role = ((const struct mt_result_event *)base)->role;

	return role > MT_ROLE_NONE && role < MT_ROLE_MAX;
}

static const char *role_name(int v)
{
	return mt_role_name(v) ?: "";
}

static int role_parse(const char *s)
{
	int role = s ? mt_role_parse(s) : -1;

	return role > MT_ROLE_NONE ? role : MT_ROLE_NONE;
}

#define EV(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_result_event, m), \
		      .size = MT_FIELD_SIZE(struct mt_result_event, m) }
static const struct mt_field event_fields[] = {
	EV("name", MT_FIELD_STR, name),
	/* the counters say why it is not (error, reason): read back there */
	{ .key = "supported", .type = MT_FIELD_CUSTOM, .write = supported_write },
	EV("user_only", MT_FIELD_BOOL, user_only),
	EV("group", MT_FIELD_INT_NULL, group),
	{ .key = "meaning", .type = MT_FIELD_STR, .when = has_meaning,
	  .off = offsetof(struct mt_result_event, meaning),
	  .size = MT_FIELD_SIZE(struct mt_result_event, meaning) },
	{ .key = "source", .type = MT_FIELD_CUSTOM, .when = by_rusage,
	  .write = source_rusage_write, .read = source_rusage_read },
	{ .key = "role", .type = MT_FIELD_ENUM, .when = has_role,
	  .off = offsetof(struct mt_result_event, role), .name = role_name, .parse = role_parse },
	{ 0 }
};

/* memtlb run --vary's grid (model/report.h), the "vary" object of "run". */
#define RT(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_run_tunable, m), \
		      .size = MT_FIELD_SIZE(struct mt_run_tunable, m), .flags = MT_FIELD_SHOWN }
static const struct mt_field grid_tunable_fields[] = {
	RT("key", MT_FIELD_STR, key),
	RT("path", MT_FIELD_STR, path),
	RT("original", MT_FIELD_STR, original),
	{ 0 }
};

#define GC(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_run_column, m), \
		      .size = MT_FIELD_SIZE(struct mt_run_column, m) }
static const struct mt_field grid_column_fields[] = {
	GC("failed", MT_FIELD_UINT, failed),
	GC("exit_status", MT_FIELD_INT, exit_status),
	{ 0 }
};

static const char *order_name(int v)
{
	return mt_order_name((enum mt_order)v);
}

/* absent or unknown: interleaved, run --vary's default */
static int order_parse(const char *s)
{
	int v = mt_order_parse(s);

	return v < 0 ? MT_ORDER_INTERLEAVED : v;
}

#define RG(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_run_grid, m), \
		      .size = MT_FIELD_SIZE(struct mt_run_grid, m) }
static const struct mt_field grid_fields[] = {
	{ .key = "order", .type = MT_FIELD_ENUM, .off = offsetof(struct mt_run_grid, order),
	  .name = order_name, .parse = order_parse },
	RG("seed", MT_FIELD_UINT, seed),
	RG("repeat", MT_FIELD_UINT, repeat),
	{ .key = "tunables", .type = MT_FIELD_ARRAY, .sub = grid_tunable_fields,
	  .off = offsetof(struct mt_run_grid, tunables), .elem = sizeof(struct mt_run_tunable),
	  .aux = offsetof(struct mt_run_grid, n_tunables), .max = MT_GRID_AXES_MAX },
	{ .key = "columns", .type = MT_FIELD_ARRAY, .sub = grid_column_fields,
	  .off = offsetof(struct mt_run_grid, columns), .elem = sizeof(struct mt_run_column),
	  .aux = offsetof(struct mt_run_grid, n_columns), .max = MT_GRID_COLUMNS_MAX },
	{ 0 }
};

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
	for (unsigned int e = 0; e < r->n_events; e++)
		push(b, events, fields_json(b, event_fields, &r->events[e]));
	put(b, res, "events", events);
	for (unsigned int p = 0; p < r->n_phases && !b->err; p++)
		push(b, phases, phase_json(b, r, &r->phases[p]));
	put(b, res, "phases", phases);
	put(b, res, "mapping", mapping_json(b, &r->map));
	iterations_json(b, res, r);
	return res;
}

/*
 * A region's TLB pressure, as stat's pressure line states it: the page
 * size it was translated with, its page tables' bytes, and the region over
 * each known level's reach of that page size.
 */
static json_t *pressure_json(struct jb *b, const struct mt_report *rep, const struct mt_result *r)
{
	uint64_t page = mt_reach_page(rep, r);
	struct mt_reach lv[2 * MT_REACH_MAX];
	size_t n = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX);
	json_t *o = object(b), *levels = array(b);
	char times[32];

	put_int(b, o, "page_size", (json_int_t)page);
	put_int(b, o, "page_table_bytes", (json_int_t)mt_reach_pt_bytes(r->region, page));
	for (size_t i = 0; i < n; i++) {
		json_t *jl;

		if (lv[i].page_size != page)
			continue;
		jl = object(b);
		put_str(b, jl, "name", lv[i].name);
		put_str(b, jl, "source", lv[i].source);
		put_int(b, jl, "entries_min", (json_int_t)lv[i].entries_min);
		put_int(b, jl, "entries_max", (json_int_t)lv[i].entries_max);
		set_real(b, jl, "region_over_reach", mt_reach_times(&lv[i], r->region, times,
								    sizeof(times)));
		push(b, levels, jl);
	}
	put(b, o, "levels", levels);
	return o;
}

/* A knee of memtlb flush's curve, or its largest step. */
static int direction_write(const void *base, json_t **out)
{
	*out = json_string(((const struct mt_flush_knee *)base)->down ? "down" : "up");
	return *out ? 0 : -ENOMEM;
}

static void direction_read(json_t *v, void *base)
{
	((struct mt_flush_knee *)base)->down = json_is_string(v) &&
					       !strcmp(json_string_value(v), "down");
}

static bool why_known(const void *base)
{
	return ((const struct mt_flush_knee *)base)->why[0];
}

#define KNEE(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_flush_knee, m), \
			.size = MT_FIELD_SIZE(struct mt_flush_knee, m) }
static const struct mt_field flush_knee_fields[] = {
	KNEE("before", MT_FIELD_UINT, before),
	KNEE("after", MT_FIELD_UINT, after),
	KNEE("step", MT_FIELD_REAL, step),
	{ .key = "direction", .type = MT_FIELD_CUSTOM, .write = direction_write,
	  .read = direction_read },
	{ .key = "why", .type = MT_FIELD_STR, .when = why_known,
	  .off = offsetof(struct mt_flush_knee, why),
	  .size = MT_FIELD_SIZE(struct mt_flush_knee, why) },
	{ 0 }
};

/* A knee whose K are not integers or whose step is not one is none. */
static void load_flush_knee(json_t *o, struct mt_flush_knee *k)
{
	memset(k, 0, sizeof(*k));
	mt_codec_read(o, flush_knee_fields, k);
	if (!json_is_integer(json_object_get(o, "before")) ||
	    !json_is_integer(json_object_get(o, "after")) || !(k->step > 0))
		memset(k, 0, sizeof(*k));
}

/*
 * memtlb flush: what the workload counted per K, the knees, the ceiling;
 * one table for the writer and the loader, whose checks of an untrusted
 * file (load_flush) come first.
 */
static int own_irq_write(const void *base, json_t **out)
{
	const struct mt_flush_point *fp = base;
	json_t *own = json_object();

	for (unsigned int j = 0; own && j < MT_FLUSH_IRQS; j++)
		if (mt_json_set_real(own, mt_flush_irq_names[j], fp->own_irq[j])) {
			json_decref(own);
			return -ENOMEM;
		}
	if (!own)
		return -ENOMEM;
	if (!json_object_size(own))
		json_decref(own);	/* nothing measured: no key */
	else
		*out = own;
	return 0;
}

static void own_irq_read(json_t *v, void *base)
{
	struct mt_flush_point *fp = base;

	/* a point of an older report has none: unmeasured (NAN), not 0 */
	for (unsigned int j = 0; j < MT_FLUSH_IRQS; j++)
		get_num(v, mt_flush_irq_names[j], &fp->own_irq[j]);
}

#define FP(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_flush_point, m), \
		      .size = MT_FIELD_SIZE(struct mt_flush_point, m) }
static const struct mt_field flush_point_fields[] = {
	FP("pages", MT_FIELD_UINT, pages),
	FP("ops", MT_FIELD_UINT, ops),
	FP("refaults", MT_FIELD_UINT, refaults),
	FP("op_median_ns", MT_FIELD_REAL, op_median_ns),
	FP("op_mean_ns", MT_FIELD_REAL, op_mean_ns),
	{ .key = "own_irq", .type = MT_FIELD_CUSTOM, .write = own_irq_write,
	  .read = own_irq_read },
	{ 0 }
};

/* The points: as many as load_flush made room for. */
static int points_write(const void *base, json_t **out)
{
	const struct mt_flush_info *fi = base;

	*out = json_array();
	for (size_t i = 0; *out && i < fi->n_points; i++) {
		json_t *o = json_object();

		if (!o || json_array_append_new(*out, o) ||
		    mt_codec_write(o, flush_point_fields, &fi->points[i])) {
			json_decref(*out);
			*out = NULL;
		}
	}
	return *out ? 0 : -ENOMEM;
}

static void points_read(json_t *v, void *base)
{
	struct mt_flush_info *fi = base;

	for (size_t i = 0; i < fi->n_points && i < json_array_size(v); i++)
		mt_codec_read(json_array_get(v, i), flush_point_fields, &fi->points[i]);
}

static int knee_write(const struct mt_flush_knee *k, json_t **out)
{
	*out = json_object();
	if (*out && mt_codec_write(*out, flush_knee_fields, k)) {
		json_decref(*out);
		*out = NULL;
	}
	return *out ? 0 : -ENOMEM;
}

/* null: not looked for (fewer than 2 points) */
static int knees_write(const void *base, json_t **out)
{
	const struct mt_flush_info *fi = base;

	if (fi->n_knees < 0) {
		*out = json_null();
		return 0;
	}
	*out = json_array();
	for (int i = 0; *out && i < fi->n_knees; i++) {
		json_t *k;

		if (knee_write(&fi->knees[i], &k) || json_array_append_new(*out, k)) {
			json_decref(*out);
			*out = NULL;
		}
	}
	return *out ? 0 : -ENOMEM;
}

static void knees_read(json_t *kn, void *base)
{
	struct mt_flush_info *fi = base;

	fi->n_knees = -1;
	if (!json_is_array(kn))
		return;
	fi->n_knees = 0;
	for (size_t i = 0; i < json_array_size(kn) && i < MT_FLUSH_KNEE_MAX; i++) {
		load_flush_knee(json_array_get(kn, i), &fi->knees[fi->n_knees]);
		if (fi->knees[fi->n_knees].step > 0)
			fi->n_knees++;
	}
}

/* The largest step each way; null: none */
static int largest_write(const struct mt_flush_knee *k, json_t **out)
{
	if (k->step > 0)
		return knee_write(k, out);
	*out = json_null();
	return 0;
}

static int step_write(const void *base, json_t **out)
{
	return largest_write(&((const struct mt_flush_info *)base)->largest, out);
}

static int drop_write(const void *base, json_t **out)
{
	return largest_write(&((const struct mt_flush_info *)base)->largest_drop, out);
}

static void step_read(json_t *v, void *base)
{
	if (json_is_object(v))
		load_flush_knee(v, &((struct mt_flush_info *)base)->largest);
}

static void drop_read(json_t *v, void *base)
{
	if (json_is_object(v))
		load_flush_knee(v, &((struct mt_flush_info *)base)->largest_drop);
}

static int ceiling_default_write(const void *base, json_t **out)
{
	(void)base;	/* the kernel's, for the reader's comparison */
	*out = json_integer(MT_FLUSH_CEILING_DEFAULT);
	return *out ? 0 : -ENOMEM;
}

static const char *op_name(int op)
{
	return mt_flush_op_name(op) ?: "";
}

#define FI(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_flush_info, m), \
		      .size = MT_FIELD_SIZE(struct mt_flush_info, m) }
static const struct mt_field flush_op_fields[] = {
	{ .key = "op", .type = MT_FIELD_ENUM, .off = offsetof(struct mt_flush_info, op),
	  .name = op_name, .parse = mt_flush_op_parse },
	FI("tasks", MT_FIELD_UINT, tasks),
	FI("ops", MT_FIELD_UINT, ops),
	FI("pinned", MT_FIELD_UINT, pinned),
	FI("spin_pages", MT_FIELD_UINT, spin_pages),
	{ 0 }
};

static const struct mt_field ceiling_fields[] = {
	FI("pages", MT_FIELD_INT_NULL, ceiling),
	FI("source", MT_FIELD_STR, ceiling_note),
	{ .key = "default", .type = MT_FIELD_CUSTOM, .write = ceiling_default_write },
	{ 0 }
};

/* after the op's fields and the system's pv_tlb_flush */
static const struct mt_field flush_result_fields[] = {
	{ .key = "ceiling", .type = MT_FIELD_OBJECT, .sub = ceiling_fields },
	{ .key = "points", .type = MT_FIELD_CUSTOM, .write = points_write, .read = points_read },
	FI("knee_ratio", MT_FIELD_REAL, knee_ratio),
	{ .key = "knees", .type = MT_FIELD_CUSTOM, .write = knees_write, .read = knees_read },
	{ .key = "largest_step", .type = MT_FIELD_CUSTOM, .write = step_write, .read = step_read },
	{ .key = "largest_drop", .type = MT_FIELD_CUSTOM, .write = drop_write, .read = drop_read },
	{ 0 }
};

static json_t *flush_json(struct jb *b, const struct mt_report *rep)
{
	json_t *o = fields_json(b, flush_op_fields, rep->flush);

	/* the system's, beside the op it shapes (KVM's paravirtual flush) */
	put(b, o, "pv_tlb_flush", rep->system.pv_tlb_flush < 0 ? json_null()
				  : json_boolean(rep->system.pv_tlb_flush));
	if (o && mt_codec_write(o, flush_result_fields, rep->flush) && !b->err)
		b->err = -ENOMEM;
	return o;
}

/*
 * The analyses of a curve (3 points or more), recomputed from the results
 * whenever the report is written, so they never disagree with them: knees
 * of the default phase (the run's --phase) at the run's --knee-ratio, as
 * the table's, each with the TLB level that explains it; the uncertain
 * ones apart, as the table says them apart; and fits of time on counts.
 * The loader does not read them back.
 */
static void analysis_json(struct jb *b, json_t *root, const struct mt_report *rep)
{
	const char *phase = mt_report_default_phase(rep);
	size_t n = rep->n_results;
	struct mt_fit_row rows[MT_FIT_MAX];
	struct mt_series c;
	json_t *knees = array(b), *unsure = array(b), *fits = array(b);
	char key[512];
	int nf, ret;

	ret = mt_series_begin(&c, rep, phase, NULL);
	set_real(b, root, "knee_ratio", c.ko.ratio);
	if (phase)
		put_str(b, root, "knee_phase", phase);
	if (ret) {
		b->err = ret;
		goto out;
	}
	while ((ret = mt_series_next(&c)) > 0) {
		const struct mt_knee *k = c.knees;
		const double *x = c.x;

		mt_series_key(rep->results[c.idx[0]], key, sizeof(key));
		for (int i = 0; i < c.n_knees; i++) {
			json_t *o = object(b), *lv;
			const struct mt_reach *r = &c.level[i].lv;

			put_str(b, o, "series", key);
			put_str(b, o, "phase", phase);
			put_int(b, o, "from_bytes", (json_int_t)x[k[i].before]);
			put_int(b, o, "to_bytes", (json_int_t)x[k[i].after]);
			set_real(b, o, "step", k[i].step);
			set_real(b, o, "over_trend", k[i].over_trend);
			put_bool(b, o, "confirmed", k[i].confirmed);
			set_real(b, o, "cv", k[i].cv);
			put_int(b, o, "page_size", (json_int_t)c.level[i].page);
			if (c.level[i].found > 0) {
				lv = object(b);
				put_str(b, lv, "name", r->name);
				put_int(b, lv, "entries_min", (json_int_t)r->entries_min);
				put_int(b, lv, "entries_max", (json_int_t)r->entries_max);
				put_int(b, lv, "reach_bytes", (json_int_t)mt_reach_min(r));
				put_str(b, lv, "source", r->source);
				put(b, o, "level", lv);
			} else {
				put(b, o, "level", json_null());
			}
			push(b, k[i].uncertain ? unsure : knees, o);
		}
	}
	if (ret)
		b->err = ret;
	nf = mt_fit_results(rep->results, n, rows, MT_FIT_MAX);
	if (nf < 0)
		b->err = nf;
	for (int i = 0; i < nf; i++) {
		json_t *o = object(b);
		const struct mt_result *first = NULL;

		for (size_t j = 0; j < n && !first; j++)
			if (c.ids[j] == rows[i].series)
				first = rep->results[j];
		mt_series_key(first, key, sizeof(key));
		put_str(b, o, "series", key);
		put_str(b, o, "phase", rows[i].phase);
		put_str(b, o, "x", rows[i].x);
		put_str(b, o, "y", "time_ns");
		set_real(b, o, "slope_ns", rows[i].fit.slope);
		set_real(b, o, "intercept_ns", rows[i].fit.intercept);
		set_real(b, o, "r2", rows[i].fit.r2);
		put_int(b, o, "n", (json_int_t)rows[i].fit.n);
		push(b, fits, o);
	}
out:
	put(b, root, "knees", knees);
	put(b, root, "uncertain_knees", unsure);
	put(b, root, "fits", fits);
	mt_series_end(&c);
}

/*
 * sweep --vary pages=base,thp: the translation series of the default
 * phase (analysis/translation), recomputed from the results like the knees; a
 * pair whose pages were not as requested has no translation_ns, and says
 * why in refused.
 */
static void translation_json(struct jb *b, json_t *root, const struct mt_report *rep)
{
	const char *phase = mt_report_default_phase(rep);
	struct mt_translation *tr = calloc(rep->n_results, sizeof(*tr));
	json_t *a;
	int n;

	if (!tr) {
		b->err = -ENOMEM;
		return;
	}
	n = mt_translation_series(rep, phase, tr, rep->n_results);
	if (n <= 0) {
		if (n < 0)
			b->err = n;
		free(tr);
		return;
	}
	a = array(b);
	for (int i = 0; i < n; i++) {
		json_t *o = object(b);
		char key[512];

		mt_series_key(tr[i].huge, key, sizeof(key));
		put_str(b, o, "series", key);
		put_str(b, o, "phase", phase);
		put_int(b, o, "region", (json_int_t)tr[i].region);
		put_str(b, o, "pages", tr[i].pages);
		set_real(b, o, "base_ns", tr[i].base_ns);
		set_real(b, o, "huge_ns", tr[i].huge_ns);
		set_real(b, o, "translation_ns", tr[i].translation_ns);
		set_real(b, o, "ci95_ns", tr[i].ci95_ns);
		if (tr[i].refused) {
			char why[256];

			snprintf(why, sizeof(why), "the %s point was %s", tr[i].refused_pages,
				 tr[i].refused);
			put_str(b, o, "refused", why);
		}
		push(b, a, o);
	}
	put(b, root, "translation", a);
	free(tr);
}

/*
 * sweep --vary pages: the first-touch roofline's calibration (model/
 * roofline.h), measured data read back with the report, so that sweep
 * --from and report split each matrix row again. Untrusted when loaded:
 * a clear figure with an unknown method, no chunk or no positive rate is
 * dropped, and analysis/roofline uses only what is left.
 */
static const char *method_name(int m)
{
	return mt_roofline_method_name(m) ?: "";
}

static bool clear_keep(void *elem)
{
	const struct mt_roofline_clear *c = elem;

	return c->method >= 0 && c->chunk && c->gbps > 0 && isfinite(c->gbps);
}

static bool has_ceiling(const void *base)
{
	return mt_roofline_method_name(((const struct mt_roofline *)base)->ceiling) != NULL;
}

#define RC(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_roofline_clear, m), \
		      .size = MT_FIELD_SIZE(struct mt_roofline_clear, m) }
static const struct mt_field clear_fields[] = {
	{ .key = "method", .type = MT_FIELD_ENUM, .off = offsetof(struct mt_roofline_clear, method),
	  .name = method_name, .parse = mt_roofline_method_parse },
	RC("chunk_bytes", MT_FIELD_UINT, chunk),
	RC("gb_per_s", MT_FIELD_REAL, gbps),
	{ 0 }
};

#define RF(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_roofline, m), \
		      .size = MT_FIELD_SIZE(struct mt_roofline, m) }
#define RF_CLEARS(k, arr, count, n) { .key = k, .type = MT_FIELD_ARRAY, \
	.off = offsetof(struct mt_roofline, arr), .size = sizeof(unsigned int), \
	.aux = offsetof(struct mt_roofline, count), .sub = clear_fields, \
	.elem = sizeof(struct mt_roofline_clear), .max = n, .keep = clear_keep }
static const struct mt_field roofline_fields[] = {
	RF("buffer_bytes", MT_FIELD_UINT, buffer),
	RF("repetitions", MT_FIELD_UINT, reps),
	RF_CLEARS("clear", methods, n_methods, MT_CLEAR_METHODS),
	{ .key = "ceiling", .type = MT_FIELD_ENUM, .off = offsetof(struct mt_roofline, ceiling),
	  .name = method_name, .parse = mt_roofline_method_parse, .when = has_ceiling },
	RF_CLEARS("folio_clear", chunks, n_chunks, MT_ROOFLINE_CHUNKS),
	RF("floor_ns_per_fault", MT_FIELD_REAL, floor_ns),
	RF("floor_touches", MT_FIELD_UINT, floor_touches),
	RF("floor_faults", MT_FIELD_UINT, floor_faults),
	RF("seconds", MT_FIELD_REAL, seconds),
	{ 0 }
};

/* A matrix row's first touch per fault, split (analysis/roofline). */
#define RS(k, t, m) { .key = k, .type = t, .off = offsetof(struct mt_roofline_split, m), \
		      .size = MT_FIELD_SIZE(struct mt_roofline_split, m) }
static const struct mt_field split_fields[] = {
	RS("clear_gb_per_s", MT_FIELD_REAL, gbps),
	RS("zero_ns", MT_FIELD_REAL, zero_ns),
	RS("floor_ns", MT_FIELD_REAL, floor_ns),
	RS("rest_ns", MT_FIELD_REAL, rest_ns),
	RS("zeroing_ceiling_pct", MT_FIELD_REAL, ceiling_pct),
	RS("inconsistent", MT_FIELD_BOOL, inconsistent),
	{ 0 }
};

/*
 * sweep --vary pages: the page-size matrix of the default phase
 * (analysis/matrix), recomputed from the results like the knees: per
 * region its rows and the cheapest first touch and steady access.
 */
static json_t *matrix_row_json(struct jb *b, const struct mt_matrix_row *r)
{
	json_t *o = object(b);

	put_str(b, o, "pages", r->pages);
	put_int(b, o, "folio_size", (json_int_t)r->folio);
	set_real(b, o, "share", r->share);
	put_bool(b, o, "proven", r->proven);
	put_int(b, o, "tlb_page_size", (json_int_t)r->tlb_page);
	set_real(b, o, "first_touch_ns_per_fault", r->fault_ns);
	set_real(b, o, "first_touch_ns_per_4k", r->touch_ns_4k);
	set_real(b, o, "first_touch_ci95_ns_per_4k", r->touch_ci95_4k);
	set_real(b, o, "faults_per_block", r->faults_per_block);
	set_real(b, o, "steady_ns", r->steady_ns);
	set_real(b, o, "steady_ci95_ns", r->steady_ci95);
	set_real(b, o, "vs_base_ns", r->vs_base_ns);
	set_real(b, o, "vs_base_ci95_ns", r->vs_base_ci95);
	put(b, o, "first_touch_split", fields_json(b, split_fields, &r->split));
	return o;
}

static void matrix_json(struct jb *b, json_t *root, const struct mt_report *rep)
{
	const char *phase = mt_report_default_phase(rep);
	struct mt_matrix_row *rows = calloc(rep->n_results + 1, sizeof(*rows));
	struct mt_matrix mats[64];
	size_t n_rows;
	json_t *a;
	int n;

	if (!rows) {
		b->err = -ENOMEM;
		return;
	}
	n = mt_matrix_build(rep, phase, rows, rep->n_results, &n_rows, mats, 64);
	if (n <= 0) {
		if (n < 0)
			b->err = n;
		free(rows);
		return;
	}
	a = array(b);
	for (int g = 0; g < n; g++) {
		const struct mt_matrix *m = &mats[g];
		json_t *o = object(b), *jr = array(b);

		put_int(b, o, "region", (json_int_t)m->region);
		put_str(b, o, "phase", phase);
		for (size_t i = m->first; i < m->first + m->n; i++)
			push(b, jr, matrix_row_json(b, &rows[i]));
		put(b, o, "rows", jr);
		if (m->touch_best >= 0)
			put_str(b, o, "first_touch_best", rows[m->touch_best].pages);
		if (m->steady_best >= 0)
			put_str(b, o, "steady_best", rows[m->steady_best].pages);
		set_real(b, o, "steady_margin_ns", m->steady_margin);
		set_real(b, o, "steady_margin_ci95_ns", m->steady_margin_ci95);
		push(b, a, o);
	}
	put(b, root, "matrix", a);
	free(rows);
}

/* The measured TLB levels the report was given (--tlb), for sweep --from and report. */
static json_t *levels_json(struct jb *b, const struct mt_report *rep)
{
	json_t *a = array(b);

	for (size_t i = 0; i < rep->n_levels; i++) {
		const struct mt_reach *r = &rep->levels[i];
		json_t *o = object(b);

		put_str(b, o, "name", r->name);
		put_int(b, o, "entries_min", (json_int_t)r->entries_min);
		put_int(b, o, "entries_max", (json_int_t)r->entries_max);
		put_int(b, o, "page_size", (json_int_t)r->page_size);
		put_int(b, o, "reach_bytes", (json_int_t)mt_reach_min(r));
		put_str(b, o, "source", r->source);
		if (r->cost_known) {
			set_real(b, o, "from_ns", r->from_ns);
			set_real(b, o, "to_ns", r->to_ns);
		}
		push(b, a, o);
	}
	return a;
}

/* The report document, or NULL with *err (-ENOMEM) when any part of it could not be made. */
static json_t *report_json(const struct mt_report *rep, int *err)
{
	struct jb b = { 0 };
	json_t *root = object(&b), *meta = object(&b), *results = array(&b);

	put_str(&b, meta, "version", rep->version);
	put_int(&b, meta, "schema", MT_REPORT_SCHEMA);
	if (rep->run_id[0])
		put_str(&b, meta, "run_id", rep->run_id);
	put(&b, root, "memtlb", meta);
	put(&b, root, "system", system_json(&b, &rep->system));
	put_str(&b, root, "command", rep->command);
	put(&b, root, "config", config_json(&b, rep));
	for (size_t i = 0; i < rep->n_results && !b.err; i++) {
		json_t *jr = result_json(&b, rep->results[i]);

		/* a workload's region: memtlb run's command has none */
		if (rep->results[i]->region && !rep->flush)
			put(&b, jr, "pressure", pressure_json(&b, rep, rep->results[i]));
		push(&b, results, jr);
	}
	put(&b, root, "results", results);
	if (rep->n_levels)
		put(&b, root, "tlb_levels", levels_json(&b, rep));
	if (rep->roofline.measured)
		put(&b, root, "roofline", fields_json(&b, roofline_fields, &rep->roofline));
	if (rep->n_results >= 3 && !rep->flush && !rep->grid)
		analysis_json(&b, root, rep);
	if (rep->n_results >= 2 && !rep->flush && !rep->grid) {
		translation_json(&b, root, rep);
		matrix_json(&b, root, rep);
	}
	if (rep->flush)
		put(&b, root, "flush", flush_json(&b, rep));
	if (rep->interrupted)
		put_bool(&b, root, "interrupted", true);
	if (!strcmp(rep->command, "run")) {
		json_t *run = object(&b);

		put_str(&b, run, "command_line", rep->command_line);
		put_int(&b, run, "runs", (json_int_t)rep->runs);
		put_int(&b, run, "repeats", (json_int_t)rep->repeats);
		put_int(&b, run, "exit_status", rep->exit_status);
		put_bool(&b, run, "failed", rep->exit_status != 0);
		if (rep->grid)
			put(&b, run, "vary", fields_json(&b, grid_fields, rep->grid));
		put(&b, root, "run", run);
	}
	if (b.err) {
		json_decref(root);
		*err = b.err;
		return NULL;
	}
	return root;
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(17))

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
		ret = mt_file_write_atomic(path, MT_FILE_MODE_AS_SHELL, fill_text, &t);
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
	uint64_t runs = cfg->runs ? cfg->runs : 1;

	/* --runs: every run's samples in the phase, and a runs[] entry each. */
	per_phase = 2048 + events * 512 + (uint64_t)cfg->iterations * runs * 28 +
		    (cfg->runs ? runs * (128 + events * 48) : 0);
	per_point = 4096 + events * 256 + phases * per_phase;
	return 16384 + (uint64_t)points * per_point;
}

int mt_report_size_check(const struct mt_config *cfg, size_t points, struct mt_msg *msg)
{
	uint64_t size = size_estimate(cfg, points ? points : 1);

	if (size <= MT_REPORT_MAX_SIZE)
		return 0;
	mt_msg_set(msg, 0, NULL, "%llu iterations of %lu passes%s make a report of up to %llu MiB; "
		 "memtlb reads reports of %d MiB at most",
		 (unsigned long long)cfg->iterations, cfg->passes, points > 1 ? " per point" : "",
		 (unsigned long long)(size >> 20), MT_REPORT_MAX_SIZE >> 20);
	return -EFBIG;
}

/* Loading: every key checked for its type; a bad file is an error, not a crash. */

struct loader {
	struct mt_msg *msg;
};

static int bad(struct loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct loader *ld, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ld->msg->text, sizeof(ld->msg->text), fmt, ap);
	va_end(ap);
	ld->msg->hint[0] = '\0';
	return -EINVAL;
}

static int load_summary(json_t *o, struct mt_summary *s)
{
	double *unwritten[] = { &s->stddev, &s->cv, &s->min, &s->median, &s->max };

	memset(s, 0, sizeof(*s));
	if (!json_is_object(o) || !json_is_number(json_object_get(o, "mean")))
		return -EINVAL;
	mt_codec_read(o, summary_fields, s);
	/* a spread not written is 0, as one sample's; so is a bound not written */
	for (size_t i = 0; i < sizeof(unwritten) / sizeof(unwritten[0]); i++)
		if (isnan(*unwritten[i]))
			*unwritten[i] = 0;
	/* at most -i's 10^6 iterations in each of --runs' 64 runs: n bounds loops */
	if (s->n > 64000000)
		return -EINVAL;
	return 0;
}

/* A phase's runs[] and between_runs (stat --runs); absent: one process. */
static int load_runs(struct loader *ld, json_t *jp, struct mt_result *r, unsigned int p)
{
	struct mt_phase_stat *ps = &r->phases[p];
	json_t *runs = json_object_get(jp, "runs"), *between;
	size_t n = json_array_size(runs);
	double v;
	int ret;

	if (!runs && !r->n_runs)
		return 0;
	if (!json_is_array(runs) || !n || n > 64 || (r->n_runs && n != r->n_runs) ||
	    (!r->n_runs && p))
		return bad(ld, "phase %s: runs: not one entry per run", ps->name);
	if (!r->n_runs) {
		ret = mt_result_set_runs(r, (unsigned int)n);
		if (ret)
			return ret;
	}
	for (size_t k = 0; k < n; k++) {
		struct mt_run_stat *rs = &ps->runs[k];
		json_t *jr = json_array_get(runs, k), *c;
		uint64_t u;

		if (!json_is_object(jr) || get_u64(jr, "n", &u) ||
		    get_num(jr, "time_ns", &rs->time_mean))
			return bad(ld, "phase %s: runs[%zu]: no n or time_ns", ps->name, k);
		/* one run is at most -i's 10^6 iterations, and within the phase's own */
		if (u > 1000000 || u > ps->time_ns.n)
			return bad(ld, "phase %s: runs[%zu]: n %llu past the phase's %zu "
				   "iterations", ps->name, k, (unsigned long long)u, ps->time_ns.n);
		rs->n = (size_t)u;
		if (!get_u64(jr, "mapping_addr", &u))
			rs->map_addr = u;
		c = json_object_get(jr, "counters");
		for (unsigned int e = 0; json_is_object(c) && e < r->n_events; e++)
			if (!get_num(c, r->events[e].name, &v))
				rs->counter_means[e] = v;
	}
	between = json_object_get(jp, "between_runs");
	if (!json_is_object(between) || load_summary(between, &ps->between))
		return bad(ld, "phase %s: between_runs: missing", ps->name);
	if (ps->between.n > n)
		return bad(ld, "phase %s: between_runs: n %zu past its %zu runs", ps->name,
			   ps->between.n, n);
	if (!get_num(between, "ci95_high", &v))
		ps->between_half = v - ps->between.mean;
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

			/* written back as integers (ns): a 1e300 would not convert */
			if (!json_is_number(v) || !(json_number_value(v) >= 0 &&
						    json_number_value(v) < 9e18))
				return bad(ld, "phase %s: time_ns.samples: not a time in ns",
					   name);
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
			r->events[e].err = errno_named(json_string_value(json_object_get(c, "error")));
		} else if (!json_is_true(json_object_get(c, "counted"))) {
			cs->state = MT_COUNTER_NOT_COUNTED;
		} else {
			cs->state = MT_COUNTER_OK;
			if (load_summary(c, &cs->s) || get_num(c, "running", &cs->running))
				return bad(ld, "phase %s: counter %s: bad values", name,
					   r->events[e].name);
			/* over the counted iterations: never more than the phase ran */
			if (cs->s.n > ps->time_ns.n)
				return bad(ld, "phase %s: counter %s: n %zu past the phase's %zu "
					   "iterations", name, r->events[e].name, cs->s.n,
					   ps->time_ns.n);
		}
		if (cs->state != MT_COUNTER_UNSUPPORTED) {
			int ret = load_counter_samples(c, cs, ps->time_ns.n);

			if (ret)
				return ret == -ENOMEM ? ret :
				       bad(ld, "phase %s: counter %s: bad samples", name,
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
	return load_runs(ld, jp, r, p);
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
	if (!ret)
		load_mapping(jm, &r->map);
	return ret;
}


/* stop, warmup, the iteration marks and outliers: what the tables show again. */
static int load_iterations(struct loader *ld, json_t *jr, struct mt_result *r)
{
	const char *stop = json_string_value(json_object_get(jr, "stop"));
	json_t *starts = json_object_get(jr, "iteration_start_ns");
	json_t *outliers = json_object_get(jr, "outliers");
	size_t n = json_array_size(starts), i, most = 0;
	json_t *v;
	uint64_t w;

	/* The document's own count: the most iterations a phase summarised. */
	for (unsigned int p = 0; p < r->n_phases; p++)
		if (r->phases[p].time_ns.n > most)
			most = r->phases[p].time_ns.n;
	if (stop && mt_stop_parse(stop) > 0)
		r->stop = (enum mt_stop)mt_stop_parse(stop);
	if (!get_u64(jr, "warmup", &w)) {
		if (w > 1000000)
			return bad(ld, "result: warmup %llu past -i's 1000000",
				   (unsigned long long)w);
		r->warmup = (unsigned int)w;
	}
	/* from 1; one past the timed ones when it ran alone, untimed */
	if (!get_u64(jr, "evidence_iteration", &w)) {
		if (w > most + 1)
			return bad(ld, "result: evidence_iteration %llu past its %zu iterations",
				   (unsigned long long)w, most);
		r->evidence_iter = (unsigned int)w;
	}
	if (n > 1000000 + (size_t)r->warmup + 1)
		return bad(ld, "result: iteration_start_ns: %zu marks, more than -i's 1000000",
			   n);
	if (n) {
		json_t *steal = json_object_get(jr, "iteration_steal_ms");

		r->iter_start_ns = calloc(n, sizeof(*r->iter_start_ns));
		r->iter_steal_ms = calloc(n, sizeof(*r->iter_steal_ms));
		if (!r->iter_start_ns || !r->iter_steal_ms)
			return -ENOMEM;
		json_array_foreach(starts, i, v) {
			json_t *s = json_array_get(steal, i);

			r->iter_start_ns[i] = json_is_integer(v) && json_integer_value(v) >= 0 ?
				(uint64_t)json_integer_value(v) : 0;
			r->iter_steal_ms[i] = json_is_number(s) ? json_number_value(s) : -1;
		}
		r->n_iter_marks = (unsigned int)n;
	}
	json_array_foreach(outliers, i, v) {
		struct mt_outlier *o;
		const char *ph = json_string_value(json_object_get(v, "phase"));
		const char *cause = json_string_value(json_object_get(v, "cause"));
		uint64_t it;
		double t;

		if (r->n_outliers >= MT_OUTLIER_MAX || !ph || get_u64(v, "iteration", &it) ||
		    get_num(v, "time_ns", &t))
			continue;
		/* written back as an integer: a 1e300 would not convert */
		if (!(t >= 0 && t < 9e18))
			return bad(ld, "result: outliers[%zu]: time_ns %g: not a phase time", i, t);
		o = &r->outliers[r->n_outliers];
		o->phase = r->n_phases;
		for (unsigned int p = 0; p < r->n_phases; p++)
			if (!strcmp(r->phases[p].name, ph))
				o->phase = p;
		if (o->phase == r->n_phases)
			continue;
		/* 0-based among the phase's summarised iterations */
		if (it >= r->phases[o->phase].time_ns.n)
			return bad(ld, "result: outliers[%zu]: iteration %llu past phase "
				   "%.64s's %zu", i, (unsigned long long)it, ph, r->phases[o->phase].time_ns.n);
		o->iter = (unsigned int)it;
		o->time_ns = t;
		snprintf(o->cause, sizeof(o->cause), "%s", cause ? cause : "");
		mt_json_printable(o->cause);
		r->n_outliers++;
	}
	return 0;
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
		long g;

		if (!name || strlen(name) >= MT_EVENT_NAME_MAX) {
			ret = bad(ld, "result: event %u: no valid name", e);
			goto fail;
		}
		mt_codec_read(je, event_fields, &r->events[e]);
		/*
		 * A group is a loop bound (mt_result_groups): an index below
		 * the document's own event count, or -1 (no group).
		 */
		g = get_long(je, "group", -1);
		if (g < -1 || g >= (long)r->n_events) {
			ret = bad(ld, "result: event %u: group %ld is not one of its %u events'",
				  e, g, r->n_events);
			goto fail;
		}
	}
	for (unsigned int p = 0; p < r->n_phases; p++) {
		ret = load_phase(ld, json_array_get(phases, p), r, p);
		if (ret)
			goto fail;
	}
	ret = load_extras(r, phases, json_object_get(jr, "mapping"));
	if (!ret)
		ret = load_iterations(ld, jr, r);
	if (ret)
		goto fail;
	*out = r;
	return 0;
fail:
	mt_result_destroy(r);
	return ret;
}

/* A boolean key: 1/0, -1 when null or absent (an older report). */
void mt_sysinfo_load(json_t *js, struct mt_sysinfo *si)
{
	json_t *tun = json_object_get(js, "tunables");

	memset(&si->env, 0, sizeof(si->env));
	si->n_hugepools = 0;
	mt_codec_read(js, system_fields, si);
	/* Reports from before the states: a number was read, null was not. */
	if (!json_object_get(tun, "fault_around_bytes_state") && si->fault_around_bytes >= 0)
		si->fault_around_state = MT_SYSINFO_READ;
}

/*
 * One key of the config through mt_config_set, as the option would take
 * it: a value the option refuses is refused here, never assigned. 0, 1
 * when the key stays as it is, or -EINVAL with msg.
 */
static int config_text(json_t *jc, enum mt_cfg_key id, json_t *v, const struct mt_config *c,
		       char *buf, size_t len)
{
	size_t n;
	const struct mt_config_key *k = &mt_config_keys(&n)[id];
	const char *field = (const char *)c + k->offset;
	bool number = k->type == MT_KEY_SIZE || k->type == MT_KEY_COUNT ||
		      (k->flags & MT_KEY_INT);
	uint64_t u;

	switch (k->type) {
	case MT_KEY_FLAG:
		if (!json_is_boolean(v))
			return -EINVAL;
		return json_is_true(v) ? 0 : 1;
	case MT_KEY_STRING:
		/* kept by pointer: none from a file outlives it (ci_phases) */
		return json_is_string(v) ? 1 : -EINVAL;
	case MT_KEY_REAL:
		if (!json_is_number(v))
			return -EINVAL;
		snprintf(buf, len, "%.17g", json_number_value(v));
		return 0;
	default:
		break;
	}
	if (number) {
		/* written as integers: "1g" or 1.5 is no value memtlb wrote */
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return -EINVAL;
		u = (uint64_t)json_integer_value(v);
		/* 0 is "none" of a count whose default is none (tasks, runs) */
		if (!u && k->type == MT_KEY_COUNT && !(k->flags & MT_KEY_ZERO) &&
		    !*(const unsigned long *)field)
			return 1;
		snprintf(buf, len, "%" PRIu64, u);
		return 0;
	}
	if (!json_is_string(v))
		return -EINVAL;
	/* mthp's size is the huge page size's, as hugetlb's is */
	if (id == MT_CFG_PAGES && !strcmp(json_string_value(v), "mthp")) {
		if (get_u64(jc, "huge_page_size", &u))
			return -EINVAL;
		snprintf(buf, len, "mthp:%" PRIu64, u);
		return 0;
	}
	if (id == MT_CFG_ACCESS && !strcmp(json_string_value(v), "stride")) {
		if (get_u64(jc, "stride", &u))
			return -EINVAL;
		snprintf(buf, len, "stride:%" PRIu64, u);
		return 0;
	}
	snprintf(buf, len, "%s", json_string_value(v));
	return 0;
}

static int load_config(struct loader *ld, json_t *jc, struct mt_report *rep)
{
	struct mt_config *c = &rep->config;
	bool run = !strcmp(rep->command, "run");
	const struct mt_config_key *keys;
	char text[128];
	struct mt_msg msg;
	uint64_t v;
	size_t n;

	if (!json_is_object(jc))
		return bad(ld, "config: missing");
	keys = mt_config_keys(&n);
	for (size_t i = 0; i < n; i++) {
		json_t *jv = json_object_get(jc, keys[i].json ? keys[i].json : "");
		int ret;

		if (!keys[i].json)
			continue;
		/* older reports lack the later keys: those stay at their defaults */
		if (!jv && !(keys[i].flags & MT_KEY_REQUIRED))
			continue;
		/*
		 * memtlb run counts a command: it has no region, block or
		 * passes, and its report says 0, which no option takes.
		 */
		if (run && json_is_integer(jv) && !json_integer_value(jv) &&
		    (keys[i].type == MT_KEY_SIZE || keys[i].type == MT_KEY_COUNT)) {
			memset((char *)c + keys[i].offset, 0, keys[i].type == MT_KEY_SIZE ?
			       sizeof(uint64_t) : sizeof(unsigned long));
			continue;
		}
		ret = jv ? config_text(jc, (enum mt_cfg_key)i, jv, c, text, sizeof(text)) : -EINVAL;
		if (ret < 0)
			return bad(ld, "config: %s: missing or not a value it takes", keys[i].json);
		if (ret)
			continue;
		if (mt_config_set(c, keys[i].name, keys[i].type == MT_KEY_FLAG ? NULL : text,
				  &msg))
			return bad(ld, "config: %s: %s", keys[i].json, msg.text);
	}
	/* what the keys imply: the page size the run got (the pages key set a default) */
	if (!get_u64(jc, "huge_page_size", &v)) {
		if (v > (1ull << 40) || (v & (v - 1)))
			return bad(ld, "config: huge_page_size %" PRIu64 ": not a page size", v);
		c->huge_size = v;
	}
	get_str(jc, "events", rep->events, sizeof(rep->events));
	c->events = rep->events;
	get_str(jc, "backend", rep->backend, sizeof(rep->backend));
	get_str(jc, "event_set", rep->event_set, sizeof(rep->event_set));
	rep->user_only = json_is_true(json_object_get(jc, "user_only"));
	return 0;
}

/*
 * The run's --knee-ratio and --phase, with which its knees were found: a
 * report read back shows the same knees (report, its exports, sweep
 * --from without the options) as the run did. Absent in older reports.
 */
static int load_curve(struct loader *ld, json_t *root, struct mt_report *rep)
{
	const char *phase = json_string_value(json_object_get(root, "knee_phase"));
	json_t *ratio = json_object_get(root, "knee_ratio");

	if (ratio) {
		double r = json_number_value(ratio);

		if (!json_is_number(ratio) || !(r > 1.0 && r <= 1000.0))
			return bad(ld, "knee_ratio: not a number above 1, up to 1000");
		rep->knee_ratio = r;
	}
	if (json_object_get(root, "knee_phase") && !phase)
		return bad(ld, "knee_phase: not a string");
	/*
	 * A phase the results do not have (renamed, or none): the knees are
	 * recomputed anyway, so the default phase is taken, as in an older
	 * report, rather than the file refused.
	 */
	if (phase && strlen(phase) < sizeof(rep->curve_phase) && mt_report_has_phase(rep, phase))
		snprintf(rep->curve_phase, sizeof(rep->curve_phase), "%s", phase);
	return 0;
}

static int load_run(struct loader *ld, json_t *jr, struct mt_report *rep)
{
	uint64_t runs = 0, repeats = 0;
	json_t *st, *vary;

	if (strcmp(rep->command, "run"))
		return 0;
	st = json_object_get(jr, "exit_status");
	if (!json_is_object(jr) || get_u64(jr, "runs", &runs) ||
	    get_u64(jr, "repeats", &repeats) || !json_is_integer(st))
		return bad(ld, "run: command_line, runs, repeats and exit_status expected");
	/* the runs done, the failing one included, are among those asked for */
	if (repeats > UINT_MAX || runs > repeats)
		return bad(ld, "run: runs %llu, repeats %llu: not runs done of those asked for",
			   (unsigned long long)runs, (unsigned long long)repeats);
	get_str(jr, "command_line", rep->command_line, sizeof(rep->command_line));
	rep->runs = (unsigned int)runs;
	rep->repeats = (unsigned int)repeats;
	rep->exit_status = (int)json_integer_value(st);
	vary = json_object_get(jr, "vary");
	if (!vary)
		return 0;
	if (!json_is_object(vary))
		return bad(ld, "run: vary: an object expected");
	rep->grid = calloc(1, sizeof(*rep->grid));
	if (!rep->grid)
		return -ENOMEM;
	mt_codec_read(vary, grid_fields, rep->grid);
	return 0;
}

/* run --vary's columns against the results, once both are loaded. */
static int check_grid(struct loader *ld, const struct mt_report *rep)
{
	if (!rep->grid)
		return 0;
	/* a column each result: the tables index one by the other */
	if (rep->grid->n_columns != rep->n_results || !rep->n_results)
		return bad(ld, "run: vary: %u columns for %zu results", rep->grid->n_columns,
			   rep->n_results);
	for (size_t i = 0; i < rep->n_results; i++)
		if (!rep->results[i]->n_phases)
			return bad(ld, "run: vary: result %zu has no phase", i);
	return 0;
}


/* memtlb flush's section; absent in other reports. Untrusted: every field checked. */
static int load_flush(struct loader *ld, json_t *jf, struct mt_report *rep)
{
	json_t *pts = json_object_get(jf, "points");
	struct mt_flush_info *fi;
	size_t n;
	int ret;

	if (!jf)
		return 0;
	if (!json_is_object(jf) || !json_is_array(pts) || json_array_size(pts) > 4096)
		return bad(ld, "flush: an object with at most 4096 points expected");
	n = json_array_size(pts);
	ret = mt_flush_info_create(&fi, n);
	if (ret)
		return ret;
	rep->flush = fi;
	for (size_t i = 0; i < n; i++) {
		json_t *jp = json_array_get(pts, i);
		uint64_t v;

		if (get_u64(jp, "pages", &v) || get_u64(jp, "ops", &v) ||
		    get_u64(jp, "refaults", &v))
			return bad(ld, "flush: points: pages, ops and refaults must be integers");
	}
	mt_codec_read(jf, flush_op_fields, fi);
	if (fi->op < 0)
		return bad(ld, "flush: op: not %s, %s or %s", mt_flush_op_name(0),
			   mt_flush_op_name(1), mt_flush_op_name(2));
	mt_codec_read(jf, flush_result_fields, fi);
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

/*
 * A report file's JSON in *root: 0, -errno (a directory: -EISDIR), or
 * -EINVAL with the reason in ld's msg (too large, not JSON).
 */
static int load_document(struct loader *ld, const char *path, json_t **root)
{
	json_error_t jerr;
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	int ret;

	*root = NULL;
	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	/* A 4096-point sweep is a few tens of MiB: anything larger is not ours. */
	if (S_ISREG(st.st_mode) && st.st_size > MT_REPORT_MAX_SIZE)
		return bad(ld, "%lld bytes: larger than a report can be (%d MiB)",
			   (long long)st.st_size, MT_REPORT_MAX_SIZE >> 20);
	/* A pipe or a device has no size to check: read at most the cap, then refuse. */
	ret = read_capped(path, &text, &len);
	if (ret == -EFBIG)
		return bad(ld, "more than %d MiB: larger than a report can be",
			   MT_REPORT_MAX_SIZE >> 20);
	if (ret)
		return ret;
	*root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!*root)
		return bad(ld, "not JSON (line %d: %s)", jerr.line, jerr.text);
	return 0;
}

int mt_report_load_json(const char *path, json_t **root, struct mt_msg *msg)
{
	struct loader ld = { msg };

	mt_msg_clear(msg);
	return load_document(&ld, path, root);
}

/*
 * A TLB level from a report (tlb_levels[], a probe's probe.levels[]): its
 * name printed later, so only letters, digits, spaces and ".-_" pass; the
 * page size a power of two from 4 KiB, 1 <= entries_min <= entries_max.
 */
static int load_level(struct loader *ld, json_t *o, const char *where, size_t i,
		      struct mt_reach *r)
{
	const char *name = json_string_value(json_object_get(o, "name"));
	uint64_t p = 0;

	memset(r, 0, sizeof(*r));
	if (!json_is_object(o) || !name || !name[0] || strlen(name) >= sizeof(r->name))
		return bad(ld, "%s[%zu]: no name", where, i);
	for (const char *c = name; *c; c++)
		if (!(isalnum((unsigned char)*c) || strchr(" .-_", *c)))
			return bad(ld, "%s[%zu]: name: not a TLB level's name", where, i);
	if (get_u64(o, "entries_min", &r->entries_min) ||
	    get_u64(o, "entries_max", &r->entries_max) || get_u64(o, "page_size", &p) ||
	    !r->entries_min || r->entries_min > r->entries_max || r->entries_max > (1u << 30))
		return bad(ld, "%s[%zu]: entries_min, entries_max: not an entry range", where, i);
	if (p < 4096 || p > (1ull << 34) || (p & (p - 1)))
		return bad(ld, "%s[%zu]: page_size: not a page size", where, i);
	/* the reach, entries x page size, must stay a byte count */
	if (r->entries_max > (1ull << 62) / p)
		return bad(ld, "%s[%zu]: entries_max x page_size: past 2^62 bytes", where, i);
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->page_size = p;
	snprintf(r->source, sizeof(r->source), "probe");
	/* the plateaus' costs, where the probe (or a report from one) gave both */
	r->cost_known = json_is_number(json_object_get(o, "from_ns")) &&
			json_is_number(json_object_get(o, "to_ns"));
	if (r->cost_known) {
		r->from_ns = json_number_value(json_object_get(o, "from_ns"));
		r->to_ns = json_number_value(json_object_get(o, "to_ns"));
		r->cost_known = isfinite(r->from_ns) && isfinite(r->to_ns);
	}
	return 0;
}

static int load_levels(struct loader *ld, json_t *a, const char *where, struct mt_reach *out,
		       size_t *n)
{
	*n = 0;
	if (!a)
		return 0;
	if (!json_is_array(a))
		return bad(ld, "%s: not an array", where);
	if (json_array_size(a) > MT_REACH_MAX)
		return bad(ld, "%s: more than %d levels", where, MT_REACH_MAX);
	for (size_t i = 0; i < json_array_size(a); i++) {
		int ret = load_level(ld, json_array_get(a, i), where, i, &out[i]);

		if (ret)
			return ret;
		(*n)++;
	}
	return 0;
}

int mt_report_load_tlb(const char *path, struct mt_reach *out, size_t *n, struct mt_msg *msg)
{
	struct loader ld = { msg };
	json_t *root, *meta, *schema, *probe;
	char cmd[16];
	int ret;

	mt_msg_clear(msg);
	*n = 0;
	ret = load_document(&ld, path, &root);
	if (ret)
		return ret;
	meta = json_object_get(root, "memtlb");
	schema = json_object_get(meta, "schema");
	probe = json_object_get(root, "probe");
	/* memtlb probe names itself in memtlb.command (report/probe.c) */
	get_str(meta, "command", cmd, sizeof(cmd));
	if (!json_is_object(root) || !json_is_integer(schema) || strcmp(cmd, "probe") ||
	    !json_is_object(probe))
		ret = bad(&ld, "not a memtlb probe report (no memtlb.schema, memtlb.command "
			  "\"probe\")");
	else if (json_integer_value(schema) < 1 || json_integer_value(schema) > MT_PROBE_SCHEMA)
		ret = bad(&ld, "probe schema %lld, this memtlb reads schemas 1 to %d",
			  (long long)json_integer_value(schema), MT_PROBE_SCHEMA);
	else if (!json_object_get(probe, "levels"))
		ret = bad(&ld, "probe.levels: absent");
	else
		ret = load_levels(&ld, json_object_get(probe, "levels"), "probe.levels", out, n);
	json_decref(root);
	return ret;
}

int mt_report_command(json_t *root, char *cmd, size_t len, struct mt_msg *msg)
{
	struct loader ld = { msg };
	json_t *meta = json_object_get(root, "memtlb");

	mt_msg_clear(msg);
	/* a probe names itself in memtlb.command, the others at the top */
	get_str(meta, "command", cmd, len);
	if (!cmd[0])
		get_str(root, "command", cmd, len);
	if (!json_is_object(meta) || !json_is_integer(json_object_get(meta, "schema")))
		return bad(&ld, "not a memtlb report (no memtlb.schema)");
	return 0;
}

int mt_report_from_json(json_t *root, struct mt_report **out, struct mt_msg *msg)
{
	struct loader ld = { msg };
	struct mt_report *rep = NULL;
	json_t *meta, *results, *schema;
	int ret = 0;

	mt_msg_clear(msg);
	meta = json_object_get(root, "memtlb");
	schema = json_object_get(meta, "schema");
	if (!json_is_object(root) || !json_is_object(meta) || !json_is_integer(schema)) {
		ret = bad(&ld, "not a memtlb report (no memtlb.schema)");
		goto out;
	}
	/* A probe's report has no results: its levels feed the others' knees. */
	if (!strcmp(json_string_value(json_object_get(meta, "command")) ?: "", "probe")) {
		ret = bad(&ld, "a memtlb probe report: its levels are read by stat and "
			  "sweep --tlb");
		goto out;
	}
	if (json_integer_value(schema) < MT_REPORT_SCHEMA_MIN ||
	    json_integer_value(schema) > MT_REPORT_SCHEMA) {
		mt_msg_set(msg, 0, NULL, "schema %lld, this memtlb reads schemas %d to %d",
			 (long long)json_integer_value(schema), MT_REPORT_SCHEMA_MIN,
			 MT_REPORT_SCHEMA);
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
	/* an id: hex digits alone, or none (it reaches KCIDB's ids) */
	get_str(meta, "run_id", rep->run_id, sizeof(rep->run_id));
	if (rep->run_id[strspn(rep->run_id, "0123456789abcdef")])
		rep->run_id[0] = '\0';
	mt_sysinfo_load(json_object_get(root, "system"), &rep->system);
	ret = load_config(&ld, json_object_get(root, "config"), rep);
	if (!ret)
		ret = load_run(&ld, json_object_get(root, "run"), rep);
	if (!ret)
		ret = load_flush(&ld, json_object_get(root, "flush"), rep);
	if (!ret)
		ret = load_levels(&ld, json_object_get(root, "tlb_levels"), "tlb_levels",
				  rep->levels, &rep->n_levels);
	if (!ret && json_is_object(json_object_get(root, "roofline"))) {
		mt_codec_read(json_object_get(root, "roofline"), roofline_fields, &rep->roofline);
		rep->roofline.measured = true;
	}
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
	if (!ret)
		ret = check_grid(&ld, rep);
	if (!ret)
		ret = load_curve(&ld, root, rep);
out:
	if (ret) {
		mt_report_destroy(rep);
		return ret;
	}
	*out = rep;
	return 0;
}

int mt_report_load(const char *path, struct mt_report **out, struct mt_msg *msg)
{
	json_t *root;
	int ret = mt_report_load_json(path, &root, msg);

	if (ret)
		return ret;
	ret = mt_report_from_json(root, out, msg);
	json_decref(root);
	return ret;
}
