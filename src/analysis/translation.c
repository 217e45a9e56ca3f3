// SPDX-License-Identifier: MIT
/*
 * What huge pages save per block: the points of a sweep over --pages
 * paired, base against huge, with the interval of the difference.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/translation.h"
#include "model/config.h"
#include "stats/welch.h"

/* THP or hugetlb pages, as the option's own setter reads the value. */
static bool huge_pages(const char *v)
{
	struct mt_config c;
	struct mt_msg msg;

	mt_config_init(&c);
	return v && !mt_config_set(&c, "pages", v, &msg) &&
	       (c.pages == MT_PAGES_THP || c.pages == MT_PAGES_HUGETLB);
}

int mt_translation_series(const struct mt_report *rep, const char *phase,
			  struct mt_translation *out, size_t max)
{
	size_t n = 0;

	if (!phase)
		return 0;
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct mt_result *b = rep->results[i];
		const char *bv = mt_result_param(b, "pages");

		if (!bv || strcmp(bv, mt_pages_name(MT_PAGES_BASE)))
			continue;
		for (size_t j = 0; j < rep->n_results && n < max; j++) {
			const struct mt_result *h = rep->results[j];
			const struct mt_phase_stat *pb = mt_result_phase(b, phase);
			const struct mt_phase_stat *ph = mt_result_phase(h, phase);
			struct mt_translation *t = &out[n];
			struct mt_welch w;

			if (!huge_pages(mt_result_param(h, "pages")) || !mt_result_paired(b, h, "pages") || !pb || !ph ||
			    !b->blocks)
				continue;
			memset(t, 0, sizeof(*t));
			t->region = b->region;
			t->base = b;
			t->huge = h;
			snprintf(t->pages, sizeof(t->pages), "%s", mt_result_param(h, "pages"));
			t->base_ns = pb->time_ns.mean / (double)b->blocks;
			t->huge_ns = ph->time_ns.mean / (double)h->blocks;
			t->translation_ns = NAN;
			t->ci95_ns = NAN;
			/* a page size not proven as asked would measure something else */
			if (b->map.page_check < 0 || h->map.page_check < 0) {
				bool side = b->map.page_check < 0;

				t->refused = side ? b->map.verdict : h->map.verdict;
				t->refused_pages = side ? mt_pages_name(MT_PAGES_BASE) : t->pages;
				n++;
				continue;
			}
			t->translation_ns = t->base_ns - t->huge_ns;
			if (!mt_stats_welch(&pb->time_ns, &ph->time_ns, &w))
				t->ci95_ns = w.ci95 / (double)b->blocks;
			n++;
		}
	}
	return (int)n;
}

bool mt_translation_none_apart(const struct mt_translation *tr, int n)
{
	int measured = 0;

	for (int i = 0; i < n; i++) {
		if (tr[i].refused)
			continue;
		if (isnan(tr[i].ci95_ns) || fabs(tr[i].translation_ns) > tr[i].ci95_ns)
			return false;
		measured++;
	}
	return measured >= 2;
}
