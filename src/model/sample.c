// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>

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
