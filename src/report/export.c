// SPDX-License-Identifier: MIT
/*
 * Exports for the engines a fleet runs memtlb under (report/export.h):
 * lkp-tests, LAVA test-definitions, KCIDB. One walk over a report yields
 * every metric once, with its key; each format prints the walk its way, so
 * the three never name a number differently.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis/series.h"
#include "model/metrics.h"
#include "model/size.h"
#include "report/codec.h"
#include "report/export.h"
#include "report/json.h"
#include "stats/ci.h"
#include "stats/fit.h"
#include "stats/knee.h"

#define KEY_MAX 512

struct item {
	char key[KEY_MAX];	/* POINT.PHASE.METRIC, components [A-Za-z0-9_-] */
	double value;		/* in unit */
	const char *unit;	/* "ns", "bytes", "" for a count or a ratio */
	bool headline;		/* KCIDB: a test of its own */
	bool skip;		/* not measured here: LAVA skip, absent elsewhere */
	const struct mt_summary *s;	/* the samples behind value, or NULL */
	double scale;		/* value = s->mean * scale */
	const struct mt_report *rep;
};

typedef int (*emit_fn)(const struct item *it, void *arg);

static bool key_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/* Append one component to a key, reduced to [A-Za-z0-9_-]: keys are safe. */
static void key_add(char *key, const char *comp)
{
	size_t n = strlen(key);

	if (n && n < KEY_MAX - 1)
		key[n++] = '.';
	if (!*comp && n < KEY_MAX - 1)
		key[n++] = '_';
	for (const unsigned char *c = (const unsigned char *)comp; *c && n < KEY_MAX - 1; c++)
		key[n++] = key_char(*c) ? *c : '_';
	key[n] = '\0';
}

/* The point: its region and every swept parameter, "256m" or "256m-backing_anon". */
static void point_key(const struct mt_result *r, char *buf, size_t len)
{
	size_t n;

	mt_size_format_short(r->region, buf, len);
	for (unsigned int i = 0; i < r->n_vary; i++) {
		n = strlen(buf);
		snprintf(buf + n, len - n, "-%s_%s", r->vary[i].key, r->vary[i].value);
	}
}

/* A series is a point without its region: "" when nothing was swept but it. */
static void series_key(const struct mt_result *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < r->n_vary && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s_%s", n ? "-" : "", r->vary[i].key,
				      r->vary[i].value);
}

static int emit(emit_fn fn, void *arg, struct item *it, const char *const *comps,
		double value, const char *unit)
{
	it->key[0] = '\0';
	for (const char *const *c = comps; *c; c++)
		key_add(it->key, *c);
	it->value = value;
	it->unit = unit;
	if (!it->skip && !isfinite(value))
		return 0;	/* nothing measured to say */
	return fn(it, arg);
}

/* A series' metric: its key leads when something besides the region was swept. */
static int emit_series(emit_fn fn, void *arg, struct item *it, const char *series,
		       const char *a, const char *b, const char *c, const char *d, double value,
		       const char *unit)
{
	const char *p[6];
	size_t n = 0;

	if (*series)
		p[n++] = series;
	p[n++] = a;
	if (b)
		p[n++] = b;
	if (c)
		p[n++] = c;
	if (d)
		p[n++] = d;
	p[n] = NULL;
	return emit(fn, arg, it, p, value, unit);
}

static int walk_phase(const struct mt_report *rep, const struct mt_result *r,
		      const struct mt_phase_stat *ps, const char *point, emit_fn fn, void *arg)
{
	struct item it = { .rep = rep };
	int ret;

	if (r->blocks) {
		it = (struct item){ .rep = rep, .headline = true, .s = &ps->time_ns,
				    .scale = 1.0 / (double)r->blocks };
		ret = emit(fn, arg, &it, (const char *[]){ point, ps->name, "ns_per_block", NULL },
			   ps->time_ns.mean / (double)r->blocks, "ns");
		if (ret)
			return ret;
	}
	it = (struct item){ .rep = rep, .s = &ps->time_ns, .scale = 1 };
	ret = emit(fn, arg, &it, (const char *[]){ point, ps->name, "time_ns", NULL },
		   ps->time_ns.mean, "ns");
	if (!ret && ps->time_ns.n > 1) {
		it = (struct item){ .rep = rep };
		/* Rounded: 100 x cv's last binary digits are noise, not a measurement. */
		ret = emit(fn, arg, &it, (const char *[]){ point, ps->name, "time_stddev_percent",
							   NULL }, round(1e6 * 100 * ps->time_ns.cv) / 1e6,
			   "%");
	}
	for (unsigned int e = 0; !ret && e < r->n_events; e++) {
		const struct mt_counter_stat *cs = &ps->counters[e];

		it = (struct item){ .rep = rep, .skip = cs->state != MT_COUNTER_OK, .s = &cs->s,
				    .scale = 1 };
		/* a clock event (task-clock) counts nanoseconds: a time, as time_ns */
		ret = emit(fn, arg, &it, (const char *[]){ point, ps->name, r->events[e].name, NULL },
			   it.skip ? NAN : cs->s.mean,
			   mt_event_time_unit(r->events[e].name) ? "ns" : "");
	}
	for (int d = 0; !ret && d < MT_DERIVED_MAX; d++) {
		if (d == MT_DERIVED_NS_PER_BLOCK || !mt_phase_has(ps, (enum mt_derived)d))
			continue;
		it = (struct item){ .rep = rep };
		ret = emit(fn, arg, &it,
			   (const char *[]){ point, ps->name, mt_derived_name((enum mt_derived)d),
					     NULL }, ps->derived[d], "");
	}
	for (unsigned int x = 0; !ret && x < r->n_extras; x++) {
		if (!(ps->has_extra & (1ull << x)))
			continue;
		it = (struct item){ .rep = rep, .s = &ps->extras[x], .scale = 1 };
		ret = emit(fn, arg, &it, (const char *[]){ point, ps->name, r->extra_names[x], NULL },
			   ps->extras[x].mean, "");
	}
	return ret;
}

/* Knees of the default phase, per series: where the cost per block steps up. */
static int walk_knees(const struct mt_report *rep, emit_fn fn, void *arg)
{
	const char *phase = mt_report_default_phase(rep);
	struct mt_series c;
	int ret;

	if (!phase || rep->n_results < 3)
		return 0;
	ret = mt_series_begin(&c, rep, phase, NULL);
	while (!ret && (ret = mt_series_next(&c)) > 0) {
		const struct mt_knee *k = c.knees;
		const double *x = c.x;
		char sk[KEY_MAX], num[16];
		struct item it = { .rep = rep };
		int nk = c.n_knees, said = 0;

		ret = 0;
		if (c.n < 3 || nk < 0)
			continue;
		series_key(rep->results[c.idx[0]], sk, sizeof(sk));
		/* an uncertain step is no knee, as in the table and the JSON's knees */
		ret = emit_series(fn, arg, &it, sk, phase, "knees", NULL, NULL,
				  mt_series_knees(&c), "");
		for (int i = 0; !ret && i < nk; i++) {
			if (k[i].uncertain)
				continue;
			snprintf(num, sizeof(num), "knee%d", ++said);
			it = (struct item){ .rep = rep, .headline = true };
			ret = emit_series(fn, arg, &it, sk, phase, num, "from_bytes", NULL,
					  x[k[i].before], "bytes");
			it.headline = false;
			if (!ret)
				ret = emit_series(fn, arg, &it, sk, phase, num, "to_bytes", NULL,
						  x[k[i].after], "bytes");
			if (!ret)
				ret = emit_series(fn, arg, &it, sk, phase, num, "step", NULL,
						  k[i].step, "");
		}
	}
	mt_series_end(&c);
	return ret;
}

/* Time against counts over the points: ns per fault, per dTLB miss. */
static int walk_fits(const struct mt_report *rep, emit_fn fn, void *arg)
{
	struct mt_fit_row rows[MT_FIT_MAX];
	unsigned int *series;
	int n, ret = 0;

	if (rep->n_results < 3)
		return 0;
	n = mt_fit_results(rep->results, rep->n_results, rows, MT_FIT_MAX);
	if (n < 0)
		return n;
	series = calloc(rep->n_results, sizeof(*series));
	if (!series)
		return -ENOMEM;
	mt_knee_series(rep->results, rep->n_results, series);
	for (int i = 0; !ret && i < n; i++) {
		struct item it = { .rep = rep, .headline = true };
		const struct mt_result *r = NULL;
		char sk[KEY_MAX];

		for (size_t j = 0; j < rep->n_results && !r; j++)
			if (series[j] == rows[i].series)
				r = rep->results[j];
		series_key(r, sk, sizeof(sk));
		ret = emit_series(fn, arg, &it, sk, "fit", rows[i].phase, rows[i].x, "slope_ns",
				  rows[i].fit.slope, "ns");
		it.headline = false;
		if (!ret)
			ret = emit_series(fn, arg, &it, sk, "fit", rows[i].phase, rows[i].x,
					  "intercept_ns", rows[i].fit.intercept, "ns");
		if (!ret)
			ret = emit_series(fn, arg, &it, sk, "fit", rows[i].phase, rows[i].x, "r2",
					  rows[i].fit.r2, "");
	}
	free(series);
	return ret;
}

static int walk(const struct mt_report *rep, emit_fn fn, void *arg)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < rep->n_results; i++) {
		const struct mt_result *r = rep->results[i];
		char point[KEY_MAX];

		point_key(r, point, sizeof(point));
		for (unsigned int p = 0; !ret && p < r->n_phases; p++)
			ret = walk_phase(rep, r, &r->phases[p], point, fn, arg);
	}
	if (!ret)
		ret = walk_knees(rep, fn, arg);
	if (!ret)
		ret = walk_fits(rep, fn, arg);
	return ret;
}

/* Shortest form that reads back as the same double; integers as integers. */
static void number(char *buf, size_t len, double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.17g", v);
	for (int prec = 6; prec < 17 && !(v == floor(v) && fabs(v) < 9e15); prec++) {
		char t[40];

		snprintf(t, sizeof(t), "%.*g", prec, v);
		if (strtod(t, NULL) == v) {
			snprintf(buf, len, "%s", t);
			break;
		}
	}
}

static int print_lkp(const struct item *it, void *arg)
{
	char v[40];

	/* lkp's stats are numbers only: "inf" or "nan" is none (1e308 x 1e3 is inf) */
	if (it->skip || !isfinite(it->value))
		return 0;
	number(v, sizeof(v), it->value);
	return fprintf(arg, "%s: %s\n", it->key, v) < 0 ? -EIO : 0;
}

static int print_lava(const struct item *it, void *arg)
{
	char v[40];

	/* a measurement is a number: a value that is none is no result */
	if (it->skip || !isfinite(it->value))
		return fprintf(arg, "memtlb.%s skip\n", it->key) < 0 ? -EIO : 0;
	number(v, sizeof(v), it->value);
	return fprintf(arg, "memtlb.%s pass %s%s%s\n", it->key, v, *it->unit ? " " : "",
		       it->unit) < 0 ? -EIO : 0;
}

struct kcidb {
	json_t *tests;
	const char *origin;
	char build_id[352];
	char test_prefix[512];
	json_t *environment;
	int err;
};

/*
 * A number as JSON can hold it: a report read back may carry a stddev of
 * 1e308, whose CI overflows to inf, which json_real refuses (NULL, taken
 * for -ENOMEM). Not finite: null, "not known", as memtlb-json(5) has it.
 */
static json_t *real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static int set(json_t *o, const char *k, json_t *v)
{
	return v && !json_object_set_new(o, k, v) ? 0 : -ENOMEM;
}

static int add_kcidb(const struct item *it, void *arg)
{
	struct kcidb *k = arg;
	json_t *t, *num, *misc;
	char id[KEY_MAX + 600], path[KEY_MAX + 32];
	bool time = !strcmp(it->unit, "ns");
	int ret = 0;

	if (!it->headline || it->skip)
		return 0;
	path[0] = '\0';
	key_add(path, "memtlb");
	key_add(path, it->rep->command);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), ".%s", it->key);
	snprintf(id, sizeof(id), "%s%s", k->test_prefix, path);
	/* Each object belongs to its parent as soon as it exists: no leak on -ENOMEM. */
	t = json_object();
	if (!t || json_array_append_new(k->tests, t))
		return -ENOMEM;
	ret |= set(t, "id", mt_json_string(id));
	ret |= set(t, "build_id", json_string(k->build_id));
	ret |= set(t, "origin", json_string(k->origin));
	ret |= set(t, "path", json_string(path));
	ret |= set(t, "status", json_string("DONE"));
	if (ret)
		return -ENOMEM;
	/*
	 * KCIDB's number needs a value that is a number: a test whose value
	 * is none (inf from a hostile 1e308, NaN) has no number, only misc.
	 */
	if (isfinite(time ? it->value / 1e9 : it->value)) {
		if (set(t, "number", num = json_object()))
			return -ENOMEM;
		/* KCIDB wants the base unit and a prefix: 4.5e-8 s shows as 45 ns. */
		ret |= set(num, "value", json_real(time ? it->value / 1e9 : it->value));
		if (time || !strcmp(it->unit, "bytes"))
			ret |= set(num, "unit", json_string(time ? "s" : "B"));
		ret |= set(num, "prefix", json_string(strcmp(it->unit, "bytes") ? "metric" :
							"binary"));
	}
	ret |= set(t, "environment", json_deep_copy(k->environment));
	if (ret || set(t, "misc", misc = json_object()))
		return -ENOMEM;
	if (it->s && it->s->n) {
		ret |= set(misc, "n", json_integer((json_int_t)it->s->n));
		ret |= set(misc, "mean", real(it->s->mean * it->scale));
		ret |= set(misc, "median", real(it->s->median * it->scale));
		if (it->s->n > 1) {
			double half = mt_ci_t95((double)it->s->n - 1) * it->s->stddev * it->scale /
				      sqrt((double)it->s->n);

			ret |= set(misc, "stddev", real(it->s->stddev * it->scale));
			ret |= set(misc, "ci95_half_width", real(half));
		}
		ret |= set(misc, "unit", json_string(it->unit));
	}
	return ret;
}

#define ORIGIN_HINT "an origin names the CI system: lowercase letters, digits and _"
#define IDS_HINT "--format kcidb --origin YOUR_CI --checkout \"$(git rev-parse HEAD)\""

/*
 * The origin and the checkout are the user's: KCIDB requires both, and
 * memtlb knows neither (which CI submits; which commit the kernel was built
 * from: two commits can share a release string). The build's id, unless
 * given, is the checkout's and the machine's; the tests' add the run id.
 */
int mt_export_ids_check(const struct mt_export_ids *ids, struct mt_msg *msg)
{
	const char *o = ids->origin;

	if (!o)
		return mt_msg_set(msg, -EINVAL, IDS_HINT, "--format kcidb: no --origin: KCIDB "
				  "requires the CI system that submits");
	if (!*o)
		return mt_msg_set(msg, -EINVAL, ORIGIN_HINT, "--origin: empty");
	for (const char *c = o; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
			return mt_msg_set(msg, -EINVAL, ORIGIN_HINT, "--origin: %s: KCIDB "
					  "origins are [a-z0-9_]+", o);
	if (!ids->checkout || !*ids->checkout)
		return mt_msg_set(msg, -EINVAL, IDS_HINT, "--format kcidb: no --checkout: KCIDB "
				  "requires the checkout (commit) the kernel was built from");
	if (ids->build && !*ids->build)
		return mt_msg_set(msg, -EINVAL, IDS_HINT, "--build: empty");
	if (ids->run && !*ids->run)
		return mt_msg_set(msg, -EINVAL, IDS_HINT, "--run: empty");
	return 0;
}

/* The environment a test ran in: what decides whether two numbers compare. */
static json_t *environment(const struct mt_report *rep)
{
	const struct mt_sysinfo *si = &rep->system;
	json_t *e = json_object(), *m = json_object();
	char comment[160];

	if (!e || !m || json_object_set_new(e, "misc", m)) {
		json_decref(e);
		json_decref(m);
		return NULL;
	}
	/* an emulated CPU's times are qemu's: said where a reader looks first */
	snprintf(comment, sizeof(comment), "memtlb %s on %s%s", rep->command, si->host,
		 si->emulation.emulated == 1 ? " (emulated CPU: qemu TCG)" :
		 mt_emulation_maybe(&si->emulation) ? " (perhaps an emulated CPU)" : "");
	if (set(e, "comment", mt_json_string(comment)) ||
	    set(m, "host", mt_json_string(si->host)) ||
	    set(m, "kernel", mt_json_string(si->kernel)) ||
	    set(m, "kernel_version", mt_json_string(si->kernel_version)) ||
	    set(m, "machine", mt_json_string(si->machine)) ||
	    set(m, "cpu", mt_json_string(si->cpu)) ||
	    set(m, "pmu", mt_json_string(si->pmu)) ||
	    set(m, "page_size", json_integer(si->page_size)) ||
	    set(m, "thp_enabled", mt_json_string(si->thp_enabled)) ||
	    set(m, "hypervisor", si->hypervisor < 0 ? json_null() : json_boolean(si->hypervisor)) ||
	    set(m, "cpu_emulated", si->emulation.emulated < 0 ? json_null()
							      : json_boolean(si->emulation.emulated)) ||
	    set(m, "cpu_emulated_evidence", si->emulation.evidence[0]
			? mt_json_string(si->emulation.evidence) : json_null()) ||
	    set(m, "hypervisor_vendor", si->env.hv_vendor[0] ? mt_json_string(si->env.hv_vendor)
							     : json_null()) ||
	    set(m, "pv_tlb_flush", si->pv_tlb_flush < 0 ? json_null()
							 : json_boolean(si->pv_tlb_flush)) ||
	    set(m, "governor", si->env.governor[0] ? mt_json_string(si->env.governor)
						   : json_null()) ||
	    set(m, "boost", si->env.boost < 0 ? json_null() : json_boolean(si->env.boost)) ||
	    set(m, "smt_active", si->env.smt_active < 0 ? json_null()
							: json_boolean(si->env.smt_active)) ||
	    set(m, "randomize_va_space", si->env.aslr < 0 ? json_null()
							  : json_integer(si->env.aslr)) ||
	    set(m, "cmdline_translation", mt_json_string(si->env.cmdline)) ||
	    set(m, "backend", mt_json_string(rep->backend))) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* KCIDB's architecture is [a-z0-9_]*: a report's machine that is not stays out. */
static bool arch_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* Ids: "ORIGIN:" and the rest, which KCIDB leaves free but for NUL. */
static int kcidb_report(const struct mt_report *rep, const struct mt_export_ids *ids,
			json_t *checkouts, json_t *builds, json_t *tests)
{
	struct kcidb k = { .tests = tests, .origin = ids->origin };
	char checkout_id[256];
	json_t *c, *b;
	int ret;

	/* Each belongs to its list as soon as it exists: nothing leaks on -ENOMEM. */
	if (!(c = json_object()) || json_array_append_new(checkouts, c) ||
	    !(b = json_object()) || json_array_append_new(builds, b))
		return -ENOMEM;
	snprintf(checkout_id, sizeof(checkout_id), "%s:%s", k.origin, ids->checkout);
	if (ids->build)
		snprintf(k.build_id, sizeof(k.build_id), "%s:%s", k.origin, ids->build);
	else
		snprintf(k.build_id, sizeof(k.build_id), "%s-%s", checkout_id, rep->system.machine);
	/* unique per run: the report's run id where it has one (memtlb-json(5)) */
	snprintf(k.test_prefix, sizeof(k.test_prefix), "%s:%s:", k.build_id,
		 ids->run ? ids->run : rep->run_id[0] ? rep->run_id : rep->system.host);
	/*
	 * Only what memtlb knows: the ids, and the machine the kernel ran on.
	 * Whether the checkout was valid or the build passed is the CI's to
	 * say (KCIDB: a field left out is "not known", never a default).
	 */
	ret = set(c, "id", mt_json_string(checkout_id));
	ret |= set(c, "origin", json_string(k.origin));
	ret |= set(b, "id", mt_json_string(k.build_id));
	ret |= set(b, "origin", json_string(k.origin));
	ret |= set(b, "checkout_id", mt_json_string(checkout_id));
	if (arch_ok(rep->system.machine))
		ret |= set(b, "architecture", json_string(rep->system.machine));
	if (ret)
		return -ENOMEM;
	k.environment = environment(rep);
	if (!k.environment)
		return -ENOMEM;
	ret = walk(rep, add_kcidb, &k);
	json_decref(k.environment);
	return ret;
}

static int write_kcidb(FILE *f, const struct mt_report *const *reps, size_t n,
		       const struct mt_export_ids *ids)
{
	json_t *root = json_object(), *v, *checkouts, *builds, *tests;
	int ret = -ENOMEM;

	if (!root || set(root, "version", v = json_object()) || set(v, "major", json_integer(5)) ||
	    set(v, "minor", json_integer(3)) || set(root, "checkouts", checkouts = json_array()) ||
	    set(root, "builds", builds = json_array()) || set(root, "tests", tests = json_array()))
		goto out;
	ret = 0;
	for (size_t i = 0; !ret && i < n; i++)
		ret = kcidb_report(reps[i], ids, checkouts, builds, tests);
	if (!ret && (json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
		     fputc('\n', f) == EOF))
		ret = -EIO;
out:
	json_decref(root);
	return ret;
}

int mt_export_write(FILE *f, const struct mt_report *const *reps, size_t n,
		    enum mt_format fmt, const struct mt_export_ids *ids)
{
	switch (fmt) {
	case MT_FORMAT_LKP:
		return n == 1 ? walk(reps[0], print_lkp, f) : -EINVAL;
	case MT_FORMAT_LAVA:
		return n == 1 ? walk(reps[0], print_lava, f) : -EINVAL;
	case MT_FORMAT_KCIDB:
		/* KCIDB's required ids are the user's (mt_export_ids_check) */
		if (!ids || !ids->origin || !ids->checkout)
			return -EINVAL;
		return write_kcidb(f, reps, n, ids);
	default:
		return -EINVAL;	/* not an export */
	}
}
