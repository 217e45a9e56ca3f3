// SPDX-License-Identifier: MIT
/* Wires one stat run: workload phases, counter reads at their boundaries. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <memtlb/measure.h>

struct run {
	struct mt_counters *counters;
	struct mt_samples *samples;
	struct mt_counts *before;
	struct mt_counts *after;
	unsigned int iter;
};

/* Runs between the clock reads of two phases, never inside one. */
static int boundary(void *arg, unsigned int phase, bool end)
{
	struct run *r = arg;
	int ret;

	if (!r->counters)
		return 0;
	if (!end)
		return mt_counters_read(r->counters, r->before);
	ret = mt_counters_read(r->counters, r->after);
	if (ret)
		return ret;
	for (unsigned int e = 0; e < r->samples->n_events; e++) {
		struct mt_counts *d = mt_samples_counts(r->samples, phase, e, r->iter);

		d->val = r->after[e].val - r->before[e].val;
		d->ena = r->after[e].ena - r->before[e].ena;
		d->run = r->after[e].run - r->before[e].run;
	}
	return 0;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

int mt_measure_stat(const struct mt_config *cfg, struct mt_event *ev, size_t n_ev,
		    const struct mt_measure_opts *opts, struct mt_result **out,
		    struct mt_mismatch *bad)
{
	struct mt_workload *w = NULL;
	struct run r = { 0 };
	struct timespec t0;
	uint64_t *times = NULL;
	bool shown = false;
	unsigned int np;
	int ret;

	ret = mt_workload_create(&w, cfg);
	if (ret)
		return ret;
	np = mt_workload_phases(w);
	ret = mt_samples_create(&r.samples, np, (unsigned int)cfg->iterations, (unsigned int)n_ev);
	if (ret)
		goto out;
	for (unsigned int p = 0; p < np; p++)
		snprintf(r.samples->phase_names[p], sizeof(r.samples->phase_names[p]), "%s",
			 mt_workload_phase_name(w, p));
	times = calloc(np, sizeof(*times));
	r.before = calloc(n_ev + 1, sizeof(*r.before));
	r.after = calloc(n_ev + 1, sizeof(*r.after));
	if (!times || !r.before || !r.after) {
		ret = -ENOMEM;
		goto out;
	}
	if (n_ev) {
		ret = mt_counters_create(&r.counters, ev, n_ev, 0);
		if (ret)
			goto out;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r.iter = 0; r.iter < cfg->iterations; r.iter++) {
		if (opts->stop && *opts->stop) {
			ret = -EINTR;
			goto out;
		}
		ret = mt_workload_iterate(w, r.iter, times, boundary, &r, bad);
		if (ret)
			goto out;
		for (unsigned int p = 0; p < np; p++)
			*mt_samples_time(r.samples, p, r.iter) = times[p];
		if (opts->progress && seconds_since(&t0) > 1.0) {
			fprintf(stderr, "\rmemtlb: iteration %u of %lu, %.1f s elapsed ", r.iter + 1,
				cfg->iterations, seconds_since(&t0));
			shown = true;
		}
	}
	ret = mt_result_from_samples(out, r.samples, ev, cfg->region, cfg->block,
				     mt_workload_blocks(w));
	if (!ret) {
		for (size_t e = 0; e < n_ev; e++)
			snprintf((*out)->events[e].reason, sizeof((*out)->events[e].reason), "%s",
				 ev[e].err ? mt_event_reason(&ev[e], opts->hw_counters) : "");
	}
out:
	if (shown)
		fprintf(stderr, "\r\033[K");
	mt_counters_destroy(r.counters);
	mt_samples_destroy(r.samples);
	mt_workload_destroy(w);
	free(times);
	free(r.before);
	free(r.after);
	return ret;
}
