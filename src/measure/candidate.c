// SPDX-License-Identifier: MIT
/* bisect-run's candidate kernel: stat runs of the baseline's config, pooled. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/candidate.h"
#include "stats/bisect.h"

struct mt_candidate {
	struct mt_config cfg;
	struct mt_event *ev;
	size_t n_ev;
	const struct mt_measure_opts *opts;
	struct mt_mismatch *bad;
	char phase[MT_PHASE_NAME_MAX];
	char field[MT_EVENT_NAME_MAX];
	double *x;
	size_t n, max;
};

int mt_candidate_create(struct mt_candidate **out, const struct mt_config *cfg,
			struct mt_event *ev, size_t n_ev, const struct mt_measure_opts *opts,
			const char *phase, const char *field, size_t max,
			struct mt_mismatch *bad)
{
	struct mt_candidate *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->x = calloc(max ? max : 1, sizeof(*c->x));
	if (!c->x) {
		free(c);
		return -ENOMEM;
	}
	c->cfg = *cfg;
	/* A fixed count per look: the test, not --ci-target, says when to stop. */
	c->cfg.ci_target = 0;
	c->ev = ev;
	c->n_ev = n_ev;
	c->opts = opts;
	c->bad = bad;
	snprintf(c->phase, sizeof(c->phase), "%s", phase);
	snprintf(c->field, sizeof(c->field), "%s", field);
	c->max = max;
	*out = c;
	return 0;
}

void mt_candidate_destroy(struct mt_candidate *c)
{
	if (!c)
		return;
	free(c->x);
	free(c);
}

int mt_candidate_more(void *arg, size_t want, const double **x, size_t *n)
{
	struct mt_candidate *c = arg;

	if (want > c->max)
		want = c->max;
	while (c->n < want) {
		struct mt_result *res = NULL;
		double *got;
		size_t k;
		int ret;

		c->cfg.iterations = want - c->n;
		ret = mt_measure_stat(&c->cfg, c->ev, c->n_ev, c->opts, &res, c->bad);
		if (!ret)
			ret = mt_bisect_samples(res, c->phase, c->field, &got, &k);
		mt_result_destroy(res);
		if (ret)
			return ret;
		/* An event not counted in some iteration gives fewer: none is -ENODATA. */
		if (!k) {
			free(got);
			return -ENODATA;
		}
		if (k > c->max - c->n)
			k = c->max - c->n;
		memcpy(c->x + c->n, got, k * sizeof(*got));
		c->n += k;
		free(got);
	}
	*x = c->x;
	*n = c->n;
	return 0;
}
