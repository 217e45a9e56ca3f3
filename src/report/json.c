// SPDX-License-Identifier: MIT
/* The report file: written and read with jansson; schema in memtlb-json(5). */
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

#include "model/reach.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/json.h"
#include "report/probe.h"
#include "report/sweep.h"
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
		len = mt_cell_utf8_len((const char *)p + i);
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
		len = mt_cell_utf8_len((const char *)p + i);
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

static json_t *bool_or_null(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *str_or_null(struct jb *b, bool known, const char *s)
{
	return known ? str(b, s) : json_null();
}

/* The environment fingerprint (sys/env.h): unknown is null, never a guess. */
static void env_json(struct jb *b, json_t *o, const struct mt_env *e)
{
	json_t *hv, *feat, *cf, *cl, *run, *sizes;

	if (e->hv_cpuid < 0) {
		put(b, o, "hypervisor_cpuid", json_null());
	} else {
		hv = object(b);
		put(b, hv, "signature", str_or_null(b, e->hv_cpuid > 0, e->hv_signature));
		put(b, hv, "vendor", str_or_null(b, e->hv_vendor[0], e->hv_vendor));
		if (e->kvm_features_known) {
			feat = object(b);
			for (size_t i = 0; i < MT_ENV_KVM_FEATURES; i++)
				put_bool(b, feat, mt_env_kvm_features[i].name,
					 e->kvm_features & (1u << mt_env_kvm_features[i].bit));
			put(b, hv, "kvm_features", feat);
		} else {
			put(b, hv, "kvm_features", json_null());
		}
		put(b, o, "hypervisor_cpuid", hv);
	}
	cf = object(b);
	put(b, cf, "present", bool_or_null(e->cpufreq));
	put(b, cf, "governor", str_or_null(b, e->governor[0], e->governor));
	put(b, cf, "boost", bool_or_null(e->boost));
	put(b, cf, "boost_source", str_or_null(b, e->boost_source[0], e->boost_source));
	put(b, o, "cpufreq", cf);
	put(b, o, "smt_active", bool_or_null(e->smt_active < 0 ? -1 : e->smt_active > 0));
	put(b, o, "isolated_cpus", str_or_null(b, e->isolated_known, e->isolated));
	put(b, o, "nohz_full", str_or_null(b, e->nohz_full_known, e->nohz_full));
	put(b, o, "randomize_va_space", long_or_null(b, e->aslr));
	if (e->cmdline_known) {
		char buf[sizeof(e->cmdline)], *tok, *save;

		cl = array(b);
		snprintf(buf, sizeof(buf), "%s", e->cmdline);
		for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			push(b, cl, str(b, tok));
		put(b, o, "cmdline_translation", cl);
	} else {
		put(b, o, "cmdline_translation", json_null());
	}
	put(b, o, "lockdown", str_or_null(b, e->lockdown[0], e->lockdown));
	put(b, o, "loadavg_start", e->loadavg < 0 ? json_null() : keep(b, json_real(e->loadavg)));
	put(b, o, "online_cpus", long_or_null(b, e->online_cpus));
	put(b, o, "thp_use_zero_page", bool_or_null(e->thp_use_zero_page < 0 ? -1
						     : e->thp_use_zero_page > 0));
	sizes = object(b);
	for (unsigned int i = 0; i < e->n_mthp; i++) {
		char key[24];

		json_t *one = object(b);

		snprintf(key, sizeof(key), "%ukB", e->mthp[i].size_kb);
		put(b, one, "enabled", str_or_null(b, e->mthp[i].enabled[0], e->mthp[i].enabled));
		put(b, one, "shmem_enabled", str_or_null(b, e->mthp[i].shmem_enabled[0],
							 e->mthp[i].shmem_enabled));
		put(b, sizes, key, one);
	}
	put(b, o, "thp_sizes", sizes);
	/* Only a report has a run; sysinfo --json has none. */
	if (e->run.measured) {
		run = object(b);
		put(b, run, "steal_ms", e->run.steal_ms < 0 ? json_null()
						     : keep(b, json_real(e->run.steal_ms)));
		put(b, run, "voluntary_switches", long_or_null(b, e->run.nvcsw));
		put(b, run, "involuntary_switches", long_or_null(b, e->run.nivcsw));
		put(b, run, "migrations", long_or_null(b, e->run.migrations));
		put(b, o, "run", run);
	}
}

static json_t *system_json(struct jb *b, const struct mt_sysinfo *si)
{
	json_t *o = object(b), *pools = object(b), *tlbs = array(b), *caches = array(b), *thp,
	       *tun;

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
	for (unsigned int i = 0; i < si->n_caches; i++) {
		const struct mt_cache *c = &si->caches[i];
		json_t *jc = object(b);

		put_int(b, jc, "level", (json_int_t)c->level);
		put_str(b, jc, "type", c->type);
		put_int(b, jc, "size_bytes", (json_int_t)c->size);
		put_int(b, jc, "ways", (json_int_t)c->ways);
		push(b, caches, jc);
	}
	put_str(b, o, "kernel", si->kernel);
	put_str(b, o, "kernel_version", si->kernel_version);
	put_str(b, o, "machine", si->machine);
	put_str(b, o, "host", si->host);
	put_str(b, o, "cpu", si->cpu);
	put_str(b, o, "cpu_vendor", si->cpu_vendor);
	put(b, o, "hypervisor", si->hypervisor < 0 ? json_null() : json_boolean(si->hypervisor));
	put(b, o, "pv_tlb_flush", si->pv_tlb_flush < 0 ? json_null()
					       : json_boolean(si->pv_tlb_flush));
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
	put(b, thp, "max_ptes_none", long_or_null(b, si->env.max_ptes_none));
	put(b, thp, "max_ptes_swap", long_or_null(b, si->env.max_ptes_swap));
	put(b, thp, "max_ptes_shared", long_or_null(b, si->env.max_ptes_shared));
	put(b, thp, "alloc_sleep_millisecs", long_or_null(b, si->env.alloc_sleep_ms));
	put(b, o, "khugepaged", thp);
	put(b, o, "hugepages", pools);
	tun = object(b);
	put_int(b, tun, "perf_event_paranoid", si->perf_event_paranoid);
	put(b, tun, "fault_around_bytes", long_or_null(b, si->fault_around_bytes));
	put_str(b, tun, "fault_around_bytes_state", mt_sysinfo_state_name(si->fault_around_state));
	put(b, tun, "tlb_single_page_flush_ceiling", long_or_null(b, si->tlb_flush_ceiling));
	put_str(b, tun, "tlb_single_page_flush_ceiling_state",
		mt_sysinfo_state_name(si->tlb_flush_ceiling_state));
	put_str(b, o, "lockdown", si->lockdown);
	put(b, tun, "percpu_pagelist_high_fraction",
	    long_or_null(b, si->percpu_pagelist_high_fraction));
	put(b, o, "tunables", tun);
	put(b, o, "numa_nodes", si->numa_nodes < 0 ? json_null()
					    : keep(b, json_integer(si->numa_nodes)));
	put(b, o, "tlb", tlbs);
	put_str(b, o, "tlb_source", si->tlb_source);
	put(b, o, "caches", caches);
	put(b, o, "hw_counters", si->hw_counters < 0 ? json_null()
					     : json_boolean(si->hw_counters));
	env_json(b, o, &si->env);
	return o;
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

	if (!cs->samples)
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
	if (m->scanned) {
		json_t *pg = object(b);

		put_int(b, pg, "huge", (json_int_t)m->scan.huge);
		put_int(b, pg, "large", (json_int_t)m->scan.large);
		put_int(b, pg, "base", (json_int_t)m->scan.base);
		put_int(b, pg, "absent", (json_int_t)m->scan.absent);
		put_str(b, pg, "source", m->scan.smaps ? "smaps" : "pagemap_scan");
		if (m->scan.folio_source) {
			json_t *fl = array(b);

			for (unsigned int i = 0; i < m->scan.n_folios; i++) {
				const struct mt_folio_share *fs = &m->scan.folios[i];
				json_t *one = object(b);

				put_int(b, one, "size", (json_int_t)fs->size);
				put_int(b, one, "bytes", (json_int_t)fs->bytes);
				set_real(b, one, "share", m->scan.len ? (double)fs->bytes /
							 (double)m->scan.len : 0.0);
				push(b, fl, one);
			}
			put(b, pg, "folios", fl);
			put_str(b, pg, "folio_source",
				mt_mapinfo_source_name(m->scan.folio_source));
		}
		put(b, o, "pages", pg);
	}
	put(b, o, "as_requested", m->page_check ? json_boolean(m->page_check > 0) : json_null());
	if (m->page_check)
		put_str(b, o, "page_verdict", m->verdict);
	if (m->cache_checked) {
		fc = object(b);
		put_int(b, fc, "pages", (json_int_t)m->cache_pages);
		put_int(b, fc, "kept_after_drop", (json_int_t)m->cache_resident);
		put(b, o, "file_cache", fc);
	}
	return o;
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
		if (r->events[e].rusage)
			put_str(b, je, "source", "getrusage");
		/* What the event stands for (faults, dTLB misses): the fits need it back. */
		if (r->events[e].role > MT_ROLE_NONE && r->events[e].role < MT_ROLE_MAX)
			put_str(b, je, "role", mt_role_name(r->events[e].role));
		push(b, events, je);
	}
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

static json_t *flush_knee_json(struct jb *b, const struct mt_flush_knee *k)
{
	json_t *o = object(b);

	put_int(b, o, "before", (json_int_t)k->before);
	put_int(b, o, "after", (json_int_t)k->after);
	set_real(b, o, "step", k->step);
	put_str(b, o, "direction", k->down ? "down" : "up");
	if (k->why[0])
		put_str(b, o, "why", k->why);
	return o;
}

/* memtlb flush: what the workload counted per K, the knees, the ceiling. */
static json_t *flush_json(struct jb *b, const struct mt_report *rep)
{
	const struct mt_flush_info *fi = rep->flush;
	json_t *o = object(b), *pts = array(b), *ceil = object(b), *kn;

	put_str(b, o, "op", mt_flush_op_name(fi->op) ? mt_flush_op_name(fi->op) : "");
	put_int(b, o, "tasks", (json_int_t)fi->tasks);
	put_int(b, o, "ops", (json_int_t)fi->ops);
	put_int(b, o, "pinned", (json_int_t)fi->pinned);
	put_int(b, o, "spin_pages", (json_int_t)fi->spin_pages);
	put(b, o, "pv_tlb_flush", rep->system.pv_tlb_flush < 0 ? json_null()
				  : json_boolean(rep->system.pv_tlb_flush));
	put(b, ceil, "pages", fi->ceiling < 0 ? json_null() : keep(b, json_integer(fi->ceiling)));
	put_str(b, ceil, "source", fi->ceiling_note);
	put_int(b, ceil, "default", MT_FLUSH_CEILING_DEFAULT);
	put(b, o, "ceiling", ceil);
	for (size_t i = 0; i < fi->n_points; i++) {
		const struct mt_flush_point *fp = &fi->points[i];
		json_t *jp = object(b), *own;

		put_int(b, jp, "pages", (json_int_t)fp->pages);
		put_int(b, jp, "ops", (json_int_t)fp->ops);
		put_int(b, jp, "refaults", (json_int_t)fp->refaults);
		set_real(b, jp, "op_median_ns", fp->op_median_ns);
		set_real(b, jp, "op_mean_ns", fp->op_mean_ns);
		own = object(b);
		for (unsigned int j = 0; j < MT_FLUSH_IRQS; j++)
			set_real(b, own, mt_flush_irq_names[j], fp->own_irq[j]);
		if (json_object_size(own))
			put(b, jp, "own_irq", own);
		else
			json_decref(own);	/* nothing measured: no key, and no leak */
		push(b, pts, jp);
	}
	put(b, o, "points", pts);
	set_real(b, o, "knee_ratio", fi->knee_ratio);
	if (fi->n_knees < 0) {
		put(b, o, "knees", json_null());
	} else {
		kn = array(b);
		for (int i = 0; i < fi->n_knees; i++)
			push(b, kn, flush_knee_json(b, &fi->knees[i]));
		put(b, o, "knees", kn);
	}
	put(b, o, "largest_step", fi->largest.step > 0 ? flush_knee_json(b, &fi->largest)
						       : json_null());
	put(b, o, "largest_drop", fi->largest_drop.step > 0 ?
	    flush_knee_json(b, &fi->largest_drop) : json_null());
	return o;
}

/* A series' key: its parameters but the region ("" when only regions vary). */
static void series_key(const struct mt_result *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < r->n_vary && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "", r->vary[i].key,
				      r->vary[i].value);
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
	struct mt_report_series c;
	json_t *knees = array(b), *unsure = array(b), *fits = array(b);
	char key[512];
	int nf, ret;

	ret = mt_report_series_begin(&c, rep, phase, NULL);
	set_real(b, root, "knee_ratio", c.ko.ratio);
	if (phase)
		put_str(b, root, "knee_phase", phase);
	if (ret) {
		b->err = ret;
		goto out;
	}
	while ((ret = mt_report_series_next(&c)) > 0) {
		const struct mt_knee *k = c.knees;
		const double *x = c.x;

		series_key(rep->results[c.idx[0]], key, sizeof(key));
		for (int i = 0; i < c.n_knees; i++) {
			json_t *o = object(b), *lv;
			struct mt_reach r;
			uint64_t page;
			int found = mt_reach_knee(rep, rep->results[c.idx[k[i].after]],
						  (uint64_t)x[k[i].before], (uint64_t)x[k[i].after],
						  &r, &page);

			put_str(b, o, "series", key);
			put_str(b, o, "phase", phase);
			put_int(b, o, "from_bytes", (json_int_t)x[k[i].before]);
			put_int(b, o, "to_bytes", (json_int_t)x[k[i].after]);
			set_real(b, o, "step", k[i].step);
			set_real(b, o, "over_trend", k[i].over_trend);
			put_bool(b, o, "confirmed", k[i].confirmed);
			set_real(b, o, "cv", k[i].cv);
			put_int(b, o, "page_size", (json_int_t)page);
			if (found > 0) {
				lv = object(b);
				put_str(b, lv, "name", r.name);
				put_int(b, lv, "entries_min", (json_int_t)r.entries_min);
				put_int(b, lv, "entries_max", (json_int_t)r.entries_max);
				put_int(b, lv, "reach_bytes", (json_int_t)mt_reach_min(&r));
				put_str(b, lv, "source", r.source);
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
		series_key(first, key, sizeof(key));
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
	mt_report_series_end(&c);
}

/*
 * sweep --vary pages=base,thp: the translation series of the default
 * phase (report/sweep.h), recomputed from the results like the knees; a
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
	n = mt_report_translation(rep, phase, tr, rep->n_results);
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

		series_key(tr[i].huge, key, sizeof(key));
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
	if (rep->n_results >= 3 && !rep->flush)
		analysis_json(&b, root, rep);
	if (rep->n_results >= 2 && !rep->flush)
		translation_json(&b, root, rep);
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
	uint64_t runs = cfg->runs ? cfg->runs : 1;

	/* --runs: every run's samples in the phase, and a runs[] entry each. */
	per_phase = 2048 + events * 512 + (uint64_t)cfg->iterations * runs * 28 +
		    (cfg->runs ? runs * (128 + events * 48) : 0);
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
	/* at most -i's 10^6 iterations in each of --runs' 64 runs: n bounds loops */
	if (n > 64000000)
		return -EINVAL;
	s->n = (size_t)n;
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
		if (json_is_object(json_object_get(jm, "pages"))) {
			json_t *pg = json_object_get(jm, "pages");
			const char *src = json_string_value(json_object_get(pg, "source"));

			m->scanned = true;
			json_t *fl = json_object_get(pg, "folios");
			const char *fsrc = json_string_value(json_object_get(pg, "folio_source"));
			size_t i;
			json_t *one;

			get_u64(pg, "huge", &m->scan.huge);
			get_u64(pg, "large", &m->scan.large);
			get_u64(pg, "base", &m->scan.base);
			get_u64(pg, "absent", &m->scan.absent);
			/* the range asked about, so a report read back knows its page size */
			m->scan.len = m->scan.huge + m->scan.large + m->scan.base + m->scan.absent;
			m->scan.smaps = src && !strcmp(src, "smaps");
			m->scan.folio_source = fsrc ? mt_mapinfo_source_parse(fsrc) : MT_FOLIO_NONE;
			json_array_foreach(fl, i, one) {
				uint64_t size = 0, bytes = 0;

				if (!get_u64(one, "size", &size) && !get_u64(one, "bytes", &bytes))
					mt_mapinfo_add_folio(&m->scan, size, bytes);
			}
			if (!m->scan.n_folios)
				m->scan.folio_source = MT_FOLIO_NONE;
		}
		if (json_is_boolean(json_object_get(jm, "as_requested"))) {
			m->page_check = json_is_true(json_object_get(jm, "as_requested")) ? 1 : -1;
			get_str(jm, "page_verdict", m->verdict, sizeof(m->verdict));
		}
		if (json_is_object(fc)) {
			m->cache_checked = true;
			get_u64(fc, "pages", &m->cache_pages);
			get_u64(fc, "kept_after_drop", &m->cache_resident);
		}
	}
	return ret;
}

static void printable(char *s);

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
		printable(o->cause);
		r->n_outliers++;
	}
	return 0;
}

static int load_result(struct loader *ld, json_t *jr, struct mt_result **out)
{
	json_t *params, *events, *phases;
	const char *role;
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
		const char *name = json_string_value(json_object_get(je, "name")), *source;
		long g;

		if (!name || strlen(name) >= MT_EVENT_NAME_MAX) {
			ret = bad(ld, "result: event %u: no valid name", e);
			goto fail;
		}
		snprintf(r->events[e].name, sizeof(r->events[e].name), "%s", name);
		r->events[e].user_only = json_is_true(json_object_get(je, "user_only"));
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
		r->events[e].group = (int)g;
		source = json_string_value(json_object_get(je, "source"));
		r->events[e].rusage = source && !strcmp(source, "getrusage");
		get_str(je, "meaning", r->events[e].meaning, sizeof(r->events[e].meaning));
		role = json_string_value(json_object_get(je, "role"));
		if (role && mt_role_parse(role) > MT_ROLE_NONE)
			r->events[e].role = (enum mt_role)mt_role_parse(role);
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
static int get_tristate(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* A report's string shown to people: control characters made '?'. */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void load_env(json_t *js, struct mt_env *e)
{
	json_t *hv = json_object_get(js, "hypervisor_cpuid"), *v, *cf, *run;
	const char *key;

	memset(e, 0, sizeof(*e));
	e->hv_cpuid = -1;
	if (json_is_object(hv)) {
		v = json_object_get(hv, "signature");
		e->hv_cpuid = json_is_string(v) ? 1 : 0;
		get_str(hv, "signature", e->hv_signature, sizeof(e->hv_signature));
		get_str(hv, "vendor", e->hv_vendor, sizeof(e->hv_vendor));
		v = json_object_get(hv, "kvm_features");
		if (json_is_object(v)) {
			e->kvm_features_known = 1;
			for (size_t i = 0; i < MT_ENV_KVM_FEATURES; i++)
				if (json_is_true(json_object_get(v, mt_env_kvm_features[i].name)))
					e->kvm_features |= 1u << mt_env_kvm_features[i].bit;
		}
	}
	cf = json_object_get(js, "cpufreq");
	e->cpufreq = get_tristate(cf, "present");
	get_str(cf, "governor", e->governor, sizeof(e->governor));
	e->boost = get_tristate(cf, "boost");
	get_str(cf, "boost_source", e->boost_source, sizeof(e->boost_source));
	e->smt_active = get_tristate(js, "smt_active");
	e->isolated_known = json_is_string(json_object_get(js, "isolated_cpus"));
	get_str(js, "isolated_cpus", e->isolated, sizeof(e->isolated));
	e->nohz_full_known = json_is_string(json_object_get(js, "nohz_full"));
	get_str(js, "nohz_full", e->nohz_full, sizeof(e->nohz_full));
	e->aslr = (int)get_long(js, "randomize_va_space", -1);
	v = json_object_get(js, "cmdline_translation");
	if (json_is_array(v)) {
		size_t off = 0;

		e->cmdline_known = 1;
		for (size_t i = 0; i < json_array_size(v); i++) {
			const char *t = json_string_value(json_array_get(v, i));

			if (!t || off + strlen(t) + 2 > sizeof(e->cmdline))
				continue;
			off += (size_t)snprintf(e->cmdline + off, sizeof(e->cmdline) - off, "%s%s",
						off ? " " : "", t);
		}
	}
	get_str(js, "lockdown", e->lockdown, sizeof(e->lockdown));
	e->loadavg = -1;
	get_num(js, "loadavg_start", &e->loadavg);
	e->online_cpus = (int)get_long(js, "online_cpus", -1);
	e->thp_use_zero_page = get_tristate(js, "thp_use_zero_page");
	v = json_object_get(js, "khugepaged");
	e->max_ptes_none = get_long(v, "max_ptes_none", -1);
	e->max_ptes_swap = get_long(v, "max_ptes_swap", -1);
	e->max_ptes_shared = get_long(v, "max_ptes_shared", -1);
	e->alloc_sleep_ms = get_long(v, "alloc_sleep_millisecs", -1);
	json_object_foreach(json_object_get(js, "thp_sizes"), key, v) {
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
		printable(m->enabled);
		printable(m->shmem_enabled);
		e->n_mthp++;
	}
	printable(e->hv_signature);
	printable(e->hv_vendor);
	printable(e->governor);
	printable(e->boost_source);
	printable(e->isolated);
	printable(e->nohz_full);
	printable(e->cmdline);
	printable(e->lockdown);
	e->run.steal_ms = -1;
	e->run.migrations = -1;
	run = json_object_get(js, "run");
	if (json_is_object(run)) {
		e->run.measured = true;
		get_num(run, "steal_ms", &e->run.steal_ms);
		e->run.nvcsw = get_long(run, "voluntary_switches", -1);
		e->run.nivcsw = get_long(run, "involuntary_switches", -1);
		e->run.migrations = get_long(run, "migrations", -1);
	}
}

/* The caches a report records; one whose level, type or size is odd is left out. */
static void load_caches(json_t *a, struct mt_sysinfo *si)
{
	for (size_t i = 0; json_is_array(a) && i < json_array_size(a) &&
			   si->n_caches < MT_CACHE_MAX; i++) {
		json_t *o = json_array_get(a, i);
		struct mt_cache *c = &si->caches[si->n_caches];
		const char *type = json_string_value(json_object_get(o, "type"));
		long level = get_long(o, "level", 0), ways = get_long(o, "ways", 0);
		uint64_t size;

		if (!mt_sysinfo_cache_type_known(type) || level < 1 || level > 4 ||
		    get_u64(o, "size_bytes", &size) || !size || size > (1ull << 40))
			continue;
		memset(c, 0, sizeof(*c));
		c->level = (unsigned int)level;
		snprintf(c->type, sizeof(c->type), "%s", type);
		c->size = size;
		c->ways = ways > 0 && ways < 1024 ? (unsigned int)ways : 0;
		si->n_caches++;
	}
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
	v = json_object_get(js, "pv_tlb_flush");
	si->pv_tlb_flush = json_is_boolean(v) ? json_is_true(v) : -1;
	v = json_object_get(js, "cpu_emulated");
	si->emulation.emulated = json_is_boolean(v) ? json_is_true(v) : -1;
	get_str(js, "cpu_emulated_evidence", si->emulation.evidence,
		sizeof(si->emulation.evidence));
	tun = json_object_get(js, "tunables");
	si->perf_event_paranoid = (int)get_long(tun, "perf_event_paranoid", -99);
	si->fault_around_bytes = get_long(tun, "fault_around_bytes", -1);
	si->fault_around_state = mt_sysinfo_state_parse(json_string_value(
		json_object_get(tun, "fault_around_bytes_state")));
	si->tlb_flush_ceiling = get_long(tun, "tlb_single_page_flush_ceiling", -1);
	si->tlb_flush_ceiling_state = mt_sysinfo_state_parse(json_string_value(
		json_object_get(tun, "tlb_single_page_flush_ceiling_state")));
	/* Reports from before the states: a number was read, null was not. */
	if (!json_object_get(tun, "fault_around_bytes_state") && si->fault_around_bytes >= 0)
		si->fault_around_state = MT_SYSINFO_READ;
	get_str(js, "lockdown", si->lockdown, sizeof(si->lockdown));
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
	load_caches(json_object_get(js, "caches"), si);
	load_env(js, &si->env);
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
	bool number = k->type == MT_KEY_SIZE || k->type == MT_KEY_COUNT || id == MT_CFG_SEED;
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
	json_t *st;

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
	return 0;
}

static void load_flush_knee(json_t *o, struct mt_flush_knee *k)
{
	double step = 0;

	if (get_u64(o, "before", &k->before) || get_u64(o, "after", &k->after) ||
	    get_num(o, "step", &step) || !(step > 0)) {
		memset(k, 0, sizeof(*k));
		return;
	}
	k->step = step;
	k->down = !strcmp(json_string_value(json_object_get(o, "direction")) ?: "", "down");
	snprintf(k->why, sizeof(k->why), "%s", json_string_value(json_object_get(o, "why")) ?: "");
}

/* memtlb flush's section; absent in other reports. Untrusted: every field checked. */
static int load_flush(struct loader *ld, json_t *jf, struct mt_report *rep)
{
	json_t *pts = json_object_get(jf, "points"), *kn = json_object_get(jf, "knees"), *c;
	struct mt_flush_info *fi;
	uint64_t v;
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
	fi->op = mt_flush_op_parse(json_string_value(json_object_get(jf, "op")));
	if (fi->op < 0)
		return bad(ld, "flush: op: not %s, %s or %s", mt_flush_op_name(MT_FLUSH_MUNMAP),
			   mt_flush_op_name(MT_FLUSH_MADVISE), mt_flush_op_name(MT_FLUSH_MPROTECT));
	fi->tasks = (unsigned long)(get_u64(jf, "tasks", &v) ? 0 : v);
	fi->ops = (unsigned long)(get_u64(jf, "ops", &v) ? 0 : v);
	fi->pinned = (unsigned int)(get_u64(jf, "pinned", &v) ? 0 : v);
	fi->spin_pages = get_u64(jf, "spin_pages", &v) ? 0 : v;
	c = json_object_get(jf, "ceiling");
	fi->ceiling = get_long(c, "pages", -1);
	get_str(c, "source", fi->ceiling_note, sizeof(fi->ceiling_note));
	for (size_t i = 0; i < n; i++) {
		json_t *jp = json_array_get(pts, i);
		struct mt_flush_point *fp = &fi->points[i];

		if (get_u64(jp, "pages", &fp->pages) || get_u64(jp, "ops", &fp->ops) ||
		    get_u64(jp, "refaults", &fp->refaults))
			return bad(ld, "flush: points: pages, ops and refaults must be integers");
		get_num(jp, "op_median_ns", &fp->op_median_ns);
		get_num(jp, "op_mean_ns", &fp->op_mean_ns);
		for (unsigned int j = 0; j < MT_FLUSH_IRQS; j++)
			get_num(json_object_get(jp, "own_irq"), mt_flush_irq_names[j],
				&fp->own_irq[j]);
	}
	get_num(jf, "knee_ratio", &fi->knee_ratio);
	fi->n_knees = -1;
	if (json_is_array(kn)) {
		fi->n_knees = 0;
		for (size_t i = 0; i < json_array_size(kn) && i < MT_FLUSH_KNEE_MAX; i++) {
			load_flush_knee(json_array_get(kn, i), &fi->knees[fi->n_knees]);
			if (fi->knees[fi->n_knees].step > 0)
				fi->n_knees++;
		}
	}
	if (json_is_object(json_object_get(jf, "largest_step")))
		load_flush_knee(json_object_get(jf, "largest_step"), &fi->largest);
	if (json_is_object(json_object_get(jf, "largest_drop")))
		load_flush_knee(json_object_get(jf, "largest_drop"), &fi->largest_drop);
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

int mt_report_load_tlb(const char *path, struct mt_reach *out, size_t *n, char *msg,
		       size_t msg_len)
{
	struct loader ld = { msg, msg_len };
	json_t *root, *meta, *schema, *probe;
	char cmd[16];
	int ret;

	msg[0] = '\0';
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

int mt_report_load(const char *path, struct mt_report **out, char *msg, size_t msg_len)
{
	struct loader ld = { msg, msg_len };
	struct mt_report *rep = NULL;
	json_t *root, *meta, *results, *schema;
	int ret;

	msg[0] = '\0';
	ret = load_document(&ld, path, &root);
	if (ret)
		return ret;
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
		snprintf(msg, msg_len, "schema %lld, this memtlb reads schemas %d to %d",
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
	load_system(json_object_get(root, "system"), &rep->system);
	ret = load_config(&ld, json_object_get(root, "config"), rep);
	if (!ret)
		ret = load_run(&ld, json_object_get(root, "run"), rep);
	if (!ret)
		ret = load_flush(&ld, json_object_get(root, "flush"), rep);
	if (!ret)
		ret = load_levels(&ld, json_object_get(root, "tlb_levels"), "tlb_levels",
				  rep->levels, &rep->n_levels);
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
		ret = load_curve(&ld, root, rep);
out:
	json_decref(root);
	if (ret) {
		mt_report_destroy(rep);
		return ret;
	}
	*out = rep;
	return 0;
}
