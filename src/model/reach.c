// SPDX-License-Identifier: MIT
/* TLB reach: levels, pressure, knee explanations (model/reach.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/reach.h"
#include "model/report.h"
#include "model/size.h"
#include "sys/mapinfo.h"
#include "sys/sysinfo.h"

static uint64_t page_bytes(const char *tok)
{
	if (!strcmp(tok, "4K"))
		return 4096;
	if (!strcmp(tok, "2M"))
		return 2u << 20;
	if (!strcmp(tok, "1G"))
		return 1u << 30;
	return 0;	/* 4M: 32-bit paging only, nothing memtlb maps */
}

size_t mt_reach_from_sysinfo(const struct mt_sysinfo *si, struct mt_reach *out, size_t max)
{
	size_t n = 0;

	for (unsigned int i = 0; i < si->n_tlbs && n < max; i++) {
		const struct mt_tlb *t = &si->tlbs[i];
		char pages[sizeof(t->pages)], *save = NULL;
		bool data = !strcmp(t->type, "data") || !strcmp(t->type, "load");

		if (!t->entries || (!data && strcmp(t->type, "unified")))
			continue;
		memcpy(pages, t->pages, sizeof(pages));
		pages[sizeof(pages) - 1] = '\0';
		for (char *tok = strtok_r(pages, "/", &save); tok && n < max;
		     tok = strtok_r(NULL, "/", &save)) {
			struct mt_reach *r = &out[n];
			uint64_t p = page_bytes(tok);

			if (!p)
				continue;
			memset(r, 0, sizeof(*r));	/* cpuid says no cost: cost_known false */
			snprintf(r->name, sizeof(r->name), "L%u %s", t->level,
				 data ? "dTLB" : "TLB");
			r->page_size = p;
			r->entries_min = r->entries_max = t->entries;
			snprintf(r->source, sizeof(r->source), "cpuid");
			n++;
		}
	}
	return n;
}

int mt_reach_explain(const struct mt_reach *lv, size_t n, uint64_t page, uint64_t lo,
		     uint64_t hi)
{
	for (size_t i = 0; i < n; i++) {
		if (lv[i].page_size != page)
			continue;
		/*
		 * Overlap of [reach_min, reach_max] with [lo, hi]: a region of
		 * exactly the reach fits, but the stack, the code and the page
		 * tables take entries too, so the step shows on either side of it.
		 */
		if (mt_reach_max(&lv[i]) >= lo && mt_reach_min(&lv[i]) <= hi)
			return (int)i;
	}
	return -1;
}

uint64_t mt_reach_pt_bytes(uint64_t region, uint64_t page)
{
	uint64_t total = 0;

	if (!page)
		return 0;
	/* Each level: one 8-byte entry per span it maps, up to the top table. */
	for (uint64_t span = page; span && span <= (1ull << 48); span *= 512) {
		uint64_t entries = region / span + (region % span != 0);

		total += entries * 8;
		if (entries <= 1)
			break;
	}
	return total;
}

static void cache_name(const struct mt_cache *c, char *buf, size_t len)
{
	char name[16], sz[24];

	mt_sysinfo_cache_name(c, name, sizeof(name));
	mt_size_format(c->size, sz, sizeof(sz));
	snprintf(buf, len, "%s (%s)", name, sz);
}

void mt_reach_pt_caches(const struct mt_sysinfo *si, uint64_t bytes, char *buf, size_t len)
{
	const struct mt_cache *in = NULL, *over = NULL;
	char a[64], b[64];

	/* the walker reads entries through the data side: no instruction cache */
	for (unsigned int i = 0; i < si->n_caches; i++) {
		const struct mt_cache *c = &si->caches[i];

		if (!strcmp(c->type, "instruction"))
			continue;
		if (c->size >= bytes && (!in || c->size < in->size))
			in = c;
		if (c->size < bytes && (!over || c->size > over->size))
			over = c;
	}
	buf[0] = '\0';
	if (over)
		cache_name(over, a, sizeof(a));
	if (in)
		cache_name(in, b, sizeof(b));
	if (over && in)
		snprintf(buf, len, "over %s, within %s", a, b);
	else if (in)
		snprintf(buf, len, "within %s", b);
	else if (over)
		snprintf(buf, len, "over %s, the largest cache", a);
}

/* 0.25, 2.5, 102, 2731, <0.001: never an exponent (%g's 2.73e+03, 2.4e-07) */
static int times(char *buf, size_t len, double x)
{
	if (x < 0.001)
		return snprintf(buf, len, "<0.001");
	return snprintf(buf, len, x < 100 ? "%.3g" : "%.0f", x);
}

double mt_reach_times(const struct mt_reach *r, uint64_t region, char *buf, size_t len)
{
	double x = (double)region / (double)mt_reach_max(r);
	int n = times(buf, len, x);

	if (r->entries_min != r->entries_max && n > 0 && (size_t)n + 2 < len) {
		snprintf(buf + n, len - (size_t)n, "..");
		times(buf + n + 2, len - (size_t)n - 2, (double)region / (double)mt_reach_min(r));
	}
	return x;
}

void mt_reach_describe(const struct mt_reach *r, char *buf, size_t len)
{
	/* cpuid's levels are the default: only a measured one says its source */
	bool probe = !strcmp(r->source, "probe");
	char page[24];

	mt_size_format(r->page_size, page, sizeof(page));
	if (r->entries_min == r->entries_max)
		snprintf(buf, len, "%s reach (%llu x %s%s)", r->name,
			 (unsigned long long)r->entries_max, page, probe ? ", probe" : "");
	else
		snprintf(buf, len, "%s reach (%llu..%llu x %s%s)", r->name,
			 (unsigned long long)r->entries_min, (unsigned long long)r->entries_max,
			 page, probe ? ", probe" : "");
}

void mt_reach_pressure(const struct mt_reach *r, uint64_t region, char *buf, size_t len)
{
	char x[48], lv[128];

	mt_reach_times(r, region, x, sizeof(x));
	mt_reach_describe(r, lv, sizeof(lv));
	snprintf(buf, len, "%s x %s", x, lv);
}

uint64_t mt_reach_page(const struct mt_report *rep, const struct mt_result *r)
{
	const struct mt_mapinfo *m = &r->map;
	uint64_t base = rep->system.page_size > 0 ? (uint64_t)rep->system.page_size : 4096;
	uint64_t huge = rep->config.huge_size ? rep->config.huge_size : 2u << 20;

	return m->scanned && m->scan.len && m->scan.huge * 2 > m->scan.len ? huge : base;
}

int mt_reach_knee(const struct mt_report *rep, const struct mt_result *r, uint64_t lo,
		  uint64_t hi, struct mt_reach *out, uint64_t *page)
{
	struct mt_reach lv[2 * MT_REACH_MAX];
	size_t n = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX);
	int i;

	*page = mt_reach_page(rep, r);
	if (!n)
		return -ENOENT;
	i = mt_reach_explain(lv, n, *page, lo, hi);
	if (i < 0)
		return 0;
	*out = lv[i];
	return 1;
}

size_t mt_reach_levels(const struct mt_report *rep, struct mt_reach *out, size_t max)
{
	size_t n = mt_reach_from_sysinfo(&rep->system, out, max);

	for (size_t i = 0; i < rep->n_levels && n < max; i++)
		out[n++] = rep->levels[i];
	return n;
}

static int level_number(const char *name)
{
	return name[0] == 'L' && name[1] >= '1' && name[1] <= '9' ? name[1] - '0' : 0;
}

/* A measured level before cpuid's, then the higher level. */
static int rank(const struct mt_reach *r)
{
	return (strcmp(r->source, "probe") ? 0 : 10) + level_number(r->name);
}

int mt_reach_last(const struct mt_report *rep, uint64_t page, struct mt_reach *out)
{
	struct mt_reach lv[2 * MT_REACH_MAX];
	size_t n = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX);
	const struct mt_reach *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (lv[i].page_size == page && level_number(lv[i].name) &&
		    (!best || rank(&lv[i]) > rank(best)))
			best = &lv[i];
	if (!best)
		return 0;
	*out = *best;
	return 1;
}

bool mt_reach_same_level(const struct mt_reach *m, const struct mt_reach *c)
{
	int l = level_number(m->name);

	return l && l == level_number(c->name) && m->page_size == c->page_size;
}

int mt_reach_agreement(const struct mt_report *rep, size_t i, char *buf, size_t len)
{
	const struct mt_reach *m = &rep->levels[i];
	struct mt_reach lv[MT_REACH_MAX];
	size_t n = mt_reach_from_sysinfo(&rep->system, lv, MT_REACH_MAX);

	for (size_t k = 0; k < n; k++) {
		const struct mt_reach *c = &lv[k];
		bool agree = c->entries_max >= m->entries_min && c->entries_min <= m->entries_max;

		if (!mt_reach_same_level(m, c))
			continue;
		snprintf(buf, len, "%s: cpuid %llu entries, probe %llu..%llu: %s", c->name,
			 (unsigned long long)c->entries_max, (unsigned long long)m->entries_min,
			 (unsigned long long)m->entries_max, agree ? "agree" : "disagree");
		return 1;
	}
	return 0;
}
