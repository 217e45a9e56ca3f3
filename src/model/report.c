// SPDX-License-Identifier: MIT
/* The report document: a command's results, and its one phase policy. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/report.h"

int mt_report_create(struct mt_report **out, const char *command)
{
	struct mt_report *rep;

	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return -ENOMEM;
	/* the options' defaults: what a report's config says when it says nothing */
	mt_config_init(&rep->config);
	mt_roofline_init(&rep->roofline);
	snprintf(rep->command, sizeof(rep->command), "%s", command);
	snprintf(rep->version, sizeof(rep->version), "%s", MEMTLB_VERSION);
	*out = rep;
	return 0;
}

void mt_report_destroy(struct mt_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; i < rep->n_results; i++)
		mt_result_destroy(rep->results[i]);
	free(rep->results);
	mt_flush_info_destroy(rep->flush);
	free(rep->grid);
	free(rep);
}

int mt_report_add(struct mt_report *rep, struct mt_result *res)
{
	struct mt_result **grown;

	grown = realloc(rep->results, (rep->n_results + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	rep->results = grown;
	rep->results[rep->n_results++] = res;
	return 0;
}

const char *mt_report_default_phase(const struct mt_report *rep)
{
	char name[MT_PHASE_NAME_MAX];
	const struct mt_phase_stat *ps;
	const struct mt_result *r;
	const char *last = NULL;
	unsigned int pass;

	if (rep->curve_phase[0])
		return rep->curve_phase;
	if (!rep->n_results)
		return NULL;
	r = rep->results[0];
	ps = mt_result_phase(r, mt_phase_name(name, sizeof(name), MT_PHASE_READ, 4));
	if (ps)
		return ps->name;	/* seed 000's column, the report's own string */
	/* Fewer passes than seed 000's five: the last read pass. */
	for (unsigned int p = 0; p < r->n_phases; p++)
		if (mt_phase_kind(r->phases[p].name, &pass) == MT_PHASE_READ)
			last = r->phases[p].name;
	return last;
}

bool mt_report_has_phase(const struct mt_report *rep, const char *phase)
{
	for (size_t i = 0; phase && i < rep->n_results; i++)
		if (mt_result_phase(rep->results[i], phase))
			return true;
	return false;
}
