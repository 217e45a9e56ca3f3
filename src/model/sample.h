/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_SAMPLE_H
#define MEMTLB_MODEL_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* One counter reading, the shape of libperf's perf_counts_values. */
struct mt_counts {
	uint64_t val;
	uint64_t ena;	/* time enabled, ns */
	uint64_t run;	/* time running, ns: < ena when multiplexed */
};

/*
 * Raw measurements of one stat run: per phase and iteration, the phase's
 * wall time and each event's delta between the reads at its boundaries.
 */
struct mt_samples {
	unsigned int n_phases;
	unsigned int n_iter;
	unsigned int n_events;
	char (*phase_names)[16];
	uint64_t *time_ns;		/* [phase][iter] */
	struct mt_counts *counts;	/* [phase][event][iter] */
};

int mt_samples_create(struct mt_samples **out, unsigned int n_phases,
		      unsigned int n_iter, unsigned int n_events);
void mt_samples_destroy(struct mt_samples *s);

/*
 * The first n_iter iterations of s, every phase and event, in a new set
 * (run --vary: a column's runs that exited 0). 0, -EINVAL (more than s
 * has) or -ENOMEM.
 */
int mt_samples_head(struct mt_samples **out, const struct mt_samples *s, unsigned int n_iter);

static inline uint64_t *mt_samples_time(struct mt_samples *s, unsigned int phase,
					unsigned int iter)
{
	return &s->time_ns[(size_t)phase * s->n_iter + iter];
}

static inline struct mt_counts *mt_samples_counts(struct mt_samples *s, unsigned int phase,
						  unsigned int ev, unsigned int iter)
{
	return &s->counts[((size_t)phase * s->n_events + ev) * s->n_iter + iter];
}

#endif
