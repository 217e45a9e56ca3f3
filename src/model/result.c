// SPDX-License-Identifier: MIT
/* The result of one measured point: allocation and lookups. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/result.h"

int mt_result_create(struct mt_result **out, unsigned int n_phases, unsigned int n_events)
{
	struct mt_result *r;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->n_phases = n_phases;
	r->n_events = n_events;
	r->phases = calloc(n_phases, sizeof(*r->phases));
	r->events = calloc(n_events ? n_events : 1, sizeof(*r->events));
	if (!r->phases || !r->events) {
		mt_result_destroy(r);
		return -ENOMEM;
	}
	for (unsigned int p = 0; p < n_phases; p++) {
		r->phases[p].counters = calloc(n_events ? n_events : 1,
					       sizeof(*r->phases[p].counters));
		if (!r->phases[p].counters) {
			mt_result_destroy(r);
			return -ENOMEM;
		}
	}
	*out = r;
	return 0;
}

void mt_result_destroy(struct mt_result *r)
{
	if (!r)
		return;
	for (unsigned int p = 0; r->phases && p < r->n_phases; p++) {
		for (unsigned int k = 0; r->phases[p].runs && k < r->n_runs; k++)
			free(r->phases[p].runs[k].counter_means);
		free(r->phases[p].runs);
		for (unsigned int e = 0; r->phases[p].counters && e < r->n_events; e++)
			free(r->phases[p].counters[e].samples);
		free(r->phases[p].extras);
		free(r->phases[p].counters);
		free(r->phases[p].time_samples);
		free(r->phases[p].warmup_samples);
	}
	free(r->iter_start_ns);
	free(r->iter_steal_ms);
	free(r->phases);
	free(r->events);
	free(r->extra_names);
	free(r);
}

int mt_result_set_runs(struct mt_result *r, unsigned int n)
{
	if (!n || r->n_runs)
		return -EINVAL;
	for (unsigned int p = 0; p < r->n_phases; p++) {
		struct mt_phase_stat *ps = &r->phases[p];

		ps->runs = calloc(n, sizeof(*ps->runs));
		if (!ps->runs)
			goto nomem;
		r->n_runs = n;	/* from here destroy frees what is set */
		for (unsigned int k = 0; k < n; k++) {
			ps->runs[k].counter_means = malloc((r->n_events ? r->n_events : 1) *
							   sizeof(double));
			if (!ps->runs[k].counter_means)
				goto nomem;
			for (unsigned int e = 0; e < r->n_events; e++)
				ps->runs[k].counter_means[e] = NAN;
		}
	}
	return 0;
nomem:
	/* Leave no phase half set: every phase's runs go, n_runs back to 0. */
	for (unsigned int p = 0; p < r->n_phases; p++) {
		for (unsigned int k = 0; r->phases[p].runs && k < n; k++)
			free(r->phases[p].runs[k].counter_means);
		free(r->phases[p].runs);
		r->phases[p].runs = NULL;
	}
	r->n_runs = 0;
	return -ENOMEM;
}

int mt_result_set_extras(struct mt_result *r, unsigned int n)
{
	if (n > MT_EXTRA_MAX)
		return -EINVAL;
	r->extra_names = calloc(n ? n : 1, sizeof(*r->extra_names));
	if (!r->extra_names)
		return -ENOMEM;
	r->n_extras = n;
	for (unsigned int p = 0; p < r->n_phases; p++) {
		r->phases[p].extras = calloc(n ? n : 1, sizeof(*r->phases[p].extras));
		if (!r->phases[p].extras)
			return -ENOMEM;
	}
	return 0;
}

const struct mt_phase_stat *mt_result_phase(const struct mt_result *r, const char *name)
{
	for (unsigned int p = 0; name && p < r->n_phases; p++)
		if (!strcmp(r->phases[p].name, name))
			return &r->phases[p];
	return NULL;
}

int mt_result_event_index(const struct mt_result *r, const char *name)
{
	for (unsigned int i = 0; i < r->n_events; i++)
		if (!strcmp(r->events[i].name, name))
			return (int)i;
	return -1;
}

int mt_result_set_param(struct mt_result *r, const char *key, const char *value)
{
	unsigned int i;

	if (strlen(key) >= sizeof(r->vary[0].key) || strlen(value) >= sizeof(r->vary[0].value))
		return -ENAMETOOLONG;
	for (i = 0; i < r->n_vary; i++)
		if (!strcmp(r->vary[i].key, key))
			break;
	if (i == MT_PARAM_MAX)
		return -E2BIG;
	snprintf(r->vary[i].key, sizeof(r->vary[i].key), "%s", key);
	snprintf(r->vary[i].value, sizeof(r->vary[i].value), "%s", value);
	if (i == r->n_vary)
		r->n_vary++;
	return 0;
}

const char *mt_result_param(const struct mt_result *r, const char *key)
{
	for (unsigned int i = 0; i < r->n_vary; i++)
		if (!strcmp(r->vary[i].key, key))
			return r->vary[i].value;
	return NULL;
}

bool mt_result_paired(const struct mt_result *a, const struct mt_result *b, const char *key)
{
	if (a->region != b->region || a->block != b->block || a->n_vary != b->n_vary)
		return false;
	for (unsigned int i = 0; i < a->n_vary; i++) {
		const char *v = mt_result_param(b, a->vary[i].key);

		if (strcmp(a->vary[i].key, key) && (!v || strcmp(v, a->vary[i].value)))
			return false;
	}
	return true;
}

int mt_result_groups(const struct mt_result *r)
{
	int g = 0;

	/*
	 * A group is an index among the events (a group holds one at least):
	 * one past them, from a report file, is no group, and INT_MAX + 1
	 * would overflow. The loader refuses those; this never trusts it.
	 */
	for (unsigned int e = 0; e < r->n_events; e++)
		if (r->events[e].group >= g && (unsigned int)r->events[e].group < r->n_events)
			g = r->events[e].group + 1;
	return g;
}

static const char *const stops[MT_STOP_MAX] = {
	[MT_STOP_ITERATIONS] = "iterations",
	[MT_STOP_TARGET] = "target",
	[MT_STOP_MAX_ITERATIONS] = "max-iterations",
	[MT_STOP_MAX_TIME] = "max-time",
	[MT_STOP_INTERRUPTED] = "interrupted",
};

const char *mt_stop_name(enum mt_stop s)
{
	return s > MT_STOP_NONE && s < MT_STOP_MAX ? stops[s] : NULL;
}

int mt_stop_parse(const char *s)
{
	for (int i = MT_STOP_NONE + 1; i < MT_STOP_MAX; i++)
		if (!strcmp(stops[i], s))
			return i;
	return -1;
}

/* In the order of enum mt_phase_kind: a pass's kind is this and a number. */
static const char *const phase_names[] = {
	[MT_PHASE_MMAP] = "mmap", [MT_PHASE_READ_FIRST] = "read_first",
	[MT_PHASE_WRITE] = "write_", [MT_PHASE_READ] = "read_", [MT_PHASE_MUNMAP] = "munmap",
};

static bool has_pass(enum mt_phase_kind kind)
{
	return kind == MT_PHASE_WRITE || kind == MT_PHASE_READ;
}

const char *mt_phase_name(char *buf, size_t len, enum mt_phase_kind kind, unsigned int pass)
{
	if (kind >= MT_PHASE_UNKNOWN)
		snprintf(buf, len, "?");
	else if (has_pass(kind))
		snprintf(buf, len, "%s%u", phase_names[kind], pass % 1000000);
	else
		snprintf(buf, len, "%s", phase_names[kind]);
	return buf;
}

enum mt_phase_kind mt_phase_kind(const char *name, unsigned int *pass)
{
	*pass = 0;
	for (int k = 0; k < MT_PHASE_UNKNOWN; k++) {
		size_t n = strlen(phase_names[k]);
		const char *d = name + n;
		unsigned long v = 0;

		if (strncmp(name, phase_names[k], n))
			continue;
		if (!has_pass(k)) {
			if (!*d)
				return (enum mt_phase_kind)k;
			continue;
		}
		/* a pass is digits alone, as mt_phase_name writes it: "read_07" is none */
		if (!*d || (*d == '0' && d[1]) || strspn(d, "0123456789") != strlen(d) ||
		    strlen(d) > 6)
			continue;
		v = strtoul(d, NULL, 10);
		*pass = (unsigned int)v;
		return (enum mt_phase_kind)k;
	}
	return MT_PHASE_UNKNOWN;
}

bool mt_phase_steady(const char *name)
{
	unsigned int pass;
	enum mt_phase_kind k = mt_phase_kind(name, &pass);

	return k == MT_PHASE_READ || (k == MT_PHASE_WRITE && pass > 0);
}
