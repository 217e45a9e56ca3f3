// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/sample.h"

int mt_samples_create(struct mt_samples **out, unsigned int n_phases, unsigned int n_iter,
		      unsigned int n_events)
{
	struct mt_samples *s;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->n_phases = n_phases;
	s->n_iter = n_iter;
	s->n_events = n_events;
	s->phase_names = calloc(n_phases, sizeof(*s->phase_names));
	s->time_ns = calloc((size_t)n_phases * n_iter, sizeof(*s->time_ns));
	s->counts = calloc((size_t)n_phases * n_iter * (n_events ? n_events : 1),
			   sizeof(*s->counts));
	if (!s->phase_names || !s->time_ns || !s->counts) {
		mt_samples_destroy(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

void mt_samples_destroy(struct mt_samples *s)
{
	if (!s)
		return;
	free(s->phase_names);
	free(s->time_ns);
	free(s->counts);
	free(s);
}

int mt_samples_head(struct mt_samples **out, const struct mt_samples *s, unsigned int n_iter)
{
	struct mt_samples *h;
	int ret;

	if (n_iter > s->n_iter)
		return -EINVAL;
	ret = mt_samples_create(&h, s->n_phases, n_iter, s->n_events);
	if (ret)
		return ret;
	memcpy(h->phase_names, s->phase_names, s->n_phases * sizeof(*s->phase_names));
	/* row by row: the iterations are the innermost index of both */
	for (unsigned int p = 0; p < s->n_phases; p++) {
		memcpy(&h->time_ns[(size_t)p * n_iter], &s->time_ns[(size_t)p * s->n_iter],
		       n_iter * sizeof(*h->time_ns));
		for (unsigned int e = 0; e < s->n_events; e++)
			memcpy(mt_samples_counts(h, p, e, 0),
			       mt_samples_counts((struct mt_samples *)s, p, e, 0),
			       n_iter * sizeof(*h->counts));
	}
	*out = h;
	return 0;
}
