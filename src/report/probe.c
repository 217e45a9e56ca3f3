// SPDX-License-Identifier: MIT
/*
 * The output of memtlb probe: the table with its levels and the cpuid
 * comparison, and the CSV.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "measure/probe.h"
#include "model/size.h"
#include "report/probe.h"
#include "stats/knee.h"
#include "sys/sysinfo.h"

#define HUGE_2M (2ull << 20)

/* As the table's title names the pages. */
static const char *const title_names[MT_PROBE_PAGES_MAX] = {
	[MT_PROBE_PAGES_BASE] = "base",
	[MT_PROBE_PAGES_THP] = "THP",
	[MT_PROBE_PAGES_HUGETLB] = "hugetlb",
};

static const char *title_name(enum mt_probe_pages p)
{
	return (unsigned int)p < MT_PROBE_PAGES_MAX ? title_names[p] : "?";
}

/* The TLB levels in order; knees beyond them are further translation knees. */
static const char *tlb_name(unsigned int tlb)
{
	static const char *const names[] = { "L1 dTLB", "L2 TLB" };

	return tlb < 2 ? names[tlb] : "further translation knee";
}

/* The level whose first size above the knee is point i, or NULL. */
static const struct mt_level *level_after(const struct mt_probe_result *r, size_t i)
{
	const struct mt_level *found = NULL;

	for (size_t k = 0; k < r->n_levels; k++)
		if (r->levels[k].knee.after == i)
			found = &r->levels[k];
	return found;
}

static void describe(FILE *f, const struct mt_probe_result *r)
{
	unsigned int tlb = 0;
	char s[32], ps[32];

	mt_size_format(r->page, ps, sizeof(ps));
	if (!r->n_levels)
		fprintf(f, "levels: none found up to %s\n",
			(mt_size_format(r->n_points ? r->points[r->n_points - 1].size : 0, s,
					sizeof(s)), s));
	for (size_t i = 0; i < r->n_levels; i++) {
		const struct mt_level *lv = &r->levels[i];
		const struct mt_probe_point *b = &r->points[lv->knee.before];
		const struct mt_probe_point *a = &r->points[lv->knee.after];

		mt_size_format(b->size, s, sizeof(s));
		if (lv->kind == MT_LEVEL_CACHE) {
			fprintf(f, "data cache: about %s = %llu lines, %.2f -> %.2f ns (the packed "
				"control rises x%.1f too: not a TLB level)\n", s,
				(unsigned long long)(b->size / r->page), b->ns, a->ns,
				lv->ctl_step);
			continue;
		}
		fprintf(f, "%s reach about %s = %llu x %s %s pages, %.2f -> %.2f ns per access%s\n",
			tlb_name(tlb), s, (unsigned long long)(b->size / r->page), ps,
			title_name(r->kind), b->ns, a->ns,
			lv->knee.confirmed ? "" : " (at the largest size: not confirmed)");
		tlb++;
	}
}

/* The data (or unified) TLB of this level that holds pages of this size. */
static const struct mt_tlb *data_tlb(const struct mt_sysinfo *si, unsigned int level,
				     const char *pages)
{
	for (unsigned int i = 0; i < si->n_tlbs; i++) {
		const struct mt_tlb *t = &si->tlbs[i];

		if (t->level == level && strstr(t->pages, pages) &&
		    (!strcmp(t->type, "data") || !strcmp(t->type, "unified") ||
		     !strcmp(t->type, "load")))
			return t;
	}
	return NULL;
}

/* What the CPU says, from the same cpuid decoding as memtlb sysinfo. */
static void compare_cpuid(FILE *f, const struct mt_probe_result *r, const struct mt_sysinfo *si)
{
	bool huge = r->page >= HUGE_2M;
	const char *pages = huge ? "2M" : "4K";
	uint64_t page = huge ? HUGE_2M : 4096;
	const struct mt_tlb *l1, *l2;
	char a[32], b[32];

	l1 = data_tlb(si, 1, pages);
	l2 = data_tlb(si, 2, pages);
	if (!l1) {
		fprintf(f, "cpuid: this CPU reports no data TLB geometry for %s pages\n",
			huge ? "2 MiB" : "4 KiB");
		return;
	}
	mt_size_format((uint64_t)l1->entries * page, a, sizeof(a));
	fprintf(f, "%s: L1 dTLB %u entries (%s)", si->tlb_source, l1->entries, a);
	if (l2) {
		mt_size_format((uint64_t)l2->entries * page, b, sizeof(b));
		fprintf(f, ", L2 %s TLB %u entries (%s)", l2->type, l2->entries, b);
	}
	fprintf(f, " for %s pages\n", huge ? "2 MiB" : "4 KiB");
}

int mt_report_print_probe(FILE *f, const struct mt_probe_result *r, const struct mt_sysinfo *si)
{
	char s[32];

	mt_size_format(r->page, s, sizeof(s));
	fprintf(f, "memtlb probe: dependent loads, one line per %s %s page in random order; "
		"packed: the same lines back to back\n\n", s, title_name(r->kind));
	fprintf(f, "%12s %8s %12s %12s  level\n", "size", "pages", "ns/access", "packed ns");
	for (size_t i = 0; i < r->n_points; i++) {
		const struct mt_probe_point *pt = &r->points[i];
		const struct mt_level *lv = level_after(r, i);

		mt_size_format(pt->size, s, sizeof(s));
		fprintf(f, "%12s %8llu %12.3f %12.3f  %s\n", s, (unsigned long long)pt->pages,
			pt->ns, pt->packed_ns,
			!lv ? "" : lv->kind == MT_LEVEL_TLB ? "<- TLB" : "<- cache");
	}
	fputc('\n', f);
	describe(f, r);
	compare_cpuid(f, r, si);
	return ferror(f) ? -EIO : 0;
}

static const char *level_kind(const struct mt_level *lv)
{
	return lv->kind == MT_LEVEL_TLB ? "tlb" : "cache";
}

int mt_report_print_probe_csv(FILE *f, const struct mt_probe_result *r)
{
	fprintf(f, "size,pages,ns_per_access,packed_ns_per_access,level\n");
	for (size_t i = 0; i < r->n_points; i++) {
		const struct mt_probe_point *pt = &r->points[i];
		const struct mt_level *lv = level_after(r, i);

		fprintf(f, "%llu,%llu,%.4f,%.4f,%s\n", (unsigned long long)pt->size,
			(unsigned long long)pt->pages, pt->ns, pt->packed_ns,
			lv ? level_kind(lv) : "");
	}
	return ferror(f) ? -EIO : 0;
}
