// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <memtlb/report.h>

int mt_report_create(struct mt_report **out, const char *command)
{
	struct mt_report *rep;

	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return -ENOMEM;
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

void mt_report_number(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a != 0.0 && (a >= 1e7 || a < 1e-3))
		snprintf(buf, len, "%.3g", v);
	else if (a >= 100.0 || v == (double)(long long)v)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3f", v);
}
