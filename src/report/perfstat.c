// SPDX-License-Identifier: MIT
/* memtlb run's counts in perf stat's -x and -j lines. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/metrics.h"
#include "report/cells.h"
#include "report/perfstat.h"

/* perf's words for a count that is not one (stat-display.c's CNTR_*). */
#define NOT_SUPPORTED "<not supported>"
#define NOT_COUNTED "<not counted>"

/* One event's fields, as perf computes them from the runs. */
struct line {
	const char *event, *unit, *missing;	/* missing: the value's word, or NULL */
	double value;		/* in unit */
	double variance;	/* %, NAN: one run */
	double run_ns, running_pct;
	double metric;		/* NAN: none measured */
	const char *metric_unit;
	char rate_unit[8];	/* a rate's "K/sec" */
};

/* The clock of r's runs, task-clock or cpu-clock, in ns: 0 when neither was counted. */
static double clock_ns(const struct mt_phase_stat *ps, const struct mt_result *r)
{
	for (unsigned int e = 0; e < r->n_events; e++)
		if (mt_event_time_unit(r->events[e].name) && ps->counters[e].state == MT_COUNTER_OK)
			return ps->counters[e].s.mean;
	return 0.0;
}

/*
 * A software count per second of the clock, scaled as perf's stat-shadow
 * scales it (K, M, G past 1e3, 1e6, 1e9): "21.583 K/sec".
 */
static void rate(struct line *l, double count, double ns)
{
	static const char prefix[] = { 'G', 'M', 'K' };
	double v = 1e9 * count / ns;

	snprintf(l->rate_unit, sizeof(l->rate_unit), "/sec");
	for (size_t i = 0; i < sizeof(prefix); i++) {
		double scale = pow(1e3, (double)(sizeof(prefix) - i));

		if (v > scale) {
			v /= scale;
			snprintf(l->rate_unit, sizeof(l->rate_unit), "%c/sec", prefix[i]);
			break;
		}
	}
	l->metric = v;
	l->metric_unit = l->rate_unit;
}

static void fill(const struct mt_phase_stat *ps, const struct mt_result *r, unsigned int e,
		 struct line *l)
{
	const struct mt_counter_stat *cs = &ps->counters[e];
	bool clock = mt_event_time_unit(r->events[e].name) != NULL;
	double clock_total = clock_ns(ps, r);

	memset(l, 0, sizeof(*l));
	l->event = r->events[e].name;
	l->unit = clock ? "msec" : "";
	l->variance = l->metric = NAN;
	if (cs->state != MT_COUNTER_OK) {
		l->missing = cs->state == MT_COUNTER_UNSUPPORTED ? NOT_SUPPORTED : NOT_COUNTED;
		return;
	}
	l->value = clock ? cs->s.mean / 1e6 : cs->s.mean;
	if (cs->s.n > 1 && cs->s.mean)
		l->variance = 100.0 * cs->s.stddev / sqrt((double)cs->s.n) / fabs(cs->s.mean);
	l->run_ns = cs->run_ns;
	l->running_pct = 100.0 * cs->running;
	/* task-clock over the wall time: perf's CPUs utilized, both measured */
	if (!strcmp(l->event, "task-clock") && ps->time_ns.mean > 0) {
		l->metric = cs->s.mean / ps->time_ns.mean;
		l->metric_unit = "CPUs utilized";
	} else if (mt_event_is_software_count(l->event) && clock_total > 0) {
		rate(l, cs->s.mean, clock_total);
	}
}

static void print_csv(FILE *f, const struct line *l, char sep, bool variance)
{
	char ev[MT_SAFE_MAX];

	/* perf's -x is not quoted CSV: the event is printed as is, made safe */
	mt_cell_safe(ev, sizeof(ev), l->event);
	if (l->missing)
		fprintf(f, "%s%c%s%c%s", l->missing, sep, l->unit, sep, ev);
	else
		fprintf(f, l->unit[0] ? "%.2f%c%s%c%s" : "%.0f%c%s%c%s", l->value, sep, l->unit,
			sep, ev);
	if (variance) {
		fputc(sep, f);
		if (isfinite(l->variance))
			fprintf(f, "%.2f%%", l->variance);
	}
	fputc(sep, f);
	if (!l->missing && l->run_ns)
		fprintf(f, "%.0f", l->run_ns);
	fputc(sep, f);
	if (!l->missing)
		fprintf(f, "%.2f", l->running_pct);
	if (isfinite(l->metric))
		fprintf(f, "%c%.3f%c%s\n", sep, l->metric, sep, l->metric_unit);
	else
		fprintf(f, "%c%c\n", sep, sep);
}

static int print_json(FILE *f, const struct line *l)
{
	json_t *o = json_object();
	char *s;
	char val[64];

	if (!o)
		return -ENOMEM;
	snprintf(val, sizeof(val), "%f", l->value);
	json_object_set_new(o, "counter-value", json_string(l->missing ? l->missing : val));
	json_object_set_new(o, "unit", json_string(l->unit));
	json_object_set_new(o, "event", json_string(l->event));
	if (isfinite(l->variance))
		json_object_set_new(o, "variance", json_real(l->variance));
	if (!l->missing && l->run_ns)
		json_object_set_new(o, "event-runtime", json_integer((json_int_t)l->run_ns));
	if (!l->missing)
		json_object_set_new(o, "pcnt-running", json_real(l->running_pct));
	if (isfinite(l->metric)) {
		json_object_set_new(o, "metric-value", json_real(l->metric));
		json_object_set_new(o, "metric-unit", json_string(l->metric_unit));
	}
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!s)
		return -ENOMEM;
	fprintf(f, "%s\n", s);
	free(s);
	return 0;
}

int mt_perfstat_print(FILE *f, const struct mt_report *rep, char sep, bool json)
{
	const struct mt_result *r;
	const struct mt_phase_stat *ps;
	int ret = 0;

	if (strcmp(rep->command, "run") || rep->n_results != 1)
		return -EINVAL;
	r = rep->results[0];
	ps = r->n_phases ? &r->phases[0] : NULL;
	if (!ps)
		return -EINVAL;
	for (unsigned int e = 0; e < r->n_events && !ret; e++) {
		struct line l;

		fill(ps, r, e, &l);
		if (json)
			ret = print_json(f, &l);
		else
			print_csv(f, &l, sep ? sep : ',', rep->runs > 1);
	}
	return ret ? ret : ferror(f) ? -EIO : 0;
}
