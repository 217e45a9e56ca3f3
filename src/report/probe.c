// SPDX-License-Identifier: MIT
/*
 * The output of memtlb probe: the table with its levels and the cpuid
 * comparison, the CSV, and the JSON document (memtlb-probe(1), JSON).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "measure/probe.h"
#include "model/size.h"
#include "report/cells.h"
#include "report/json.h"
#include "report/probe.h"
#include "stats/knee.h"
#include "sys/file.h"
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
	char a[32], b[32], src[MT_SAFE_MAX], type[MT_SAFE_MAX];

	l1 = data_tlb(si, 1, pages);
	l2 = data_tlb(si, 2, pages);
	if (!l1) {
		fprintf(f, "cpuid: this CPU reports no data TLB geometry for %s pages\n",
			huge ? "2 MiB" : "4 KiB");
		return;
	}
	mt_size_format((uint64_t)l1->entries * page, a, sizeof(a));
	fprintf(f, "%s: L1 dTLB %u entries (%s)", mt_cell_safe(src, sizeof(src), si->tlb_source),
		l1->entries, a);
	if (l2) {
		mt_size_format((uint64_t)l2->entries * page, b, sizeof(b));
		fprintf(f, ", L2 %s TLB %u entries (%s)",
			mt_cell_safe(type, sizeof(type), l2->type), l2->entries, b);
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

/*
 * The "system" object of a report: report/json.c builds it, and gives it
 * out as text only, so it is read back from that text.
 */
static json_t *system_json(const struct mt_sysinfo *si)
{
	char *buf = NULL;
	size_t len = 0;
	json_t *o = NULL;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return NULL;
	ret = mt_sysinfo_write_json(si, f);
	if (fclose(f) == 0 && !ret)
		o = json_loadb(buf, len, 0, NULL);
	free(buf);
	return o;
}

static json_t *u64_json(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* A measured number; a non-finite one (none expected) as null, not an error. */
static json_t *real_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *config_json(const struct mt_probe_result *r)
{
	return json_pack("{s:s,s:o,s:o,s:o,s:f}", "pages", mt_probe_pages_name(r->kind),
			 "page_size", u64_json(r->page), "first", u64_json(r->first),
			 "max", u64_json(r->max), "knee_ratio", r->knee_opts.ratio);
}

static json_t *mapping_json(const struct mt_probe_result *r)
{
	return json_pack("{s:o,s:o,s:o,s:b}", "bytes", u64_json(r->map_bytes),
			 "packed_bytes", u64_json(r->packed_bytes),
			 "anon_huge", r->anon_huge < 0 ? json_null() : json_integer(r->anon_huge),
			 "thp_short", mt_probe_thp_short(r));
}

static json_t *points_json(const struct mt_probe_result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->n_points; i++) {
		const struct mt_probe_point *pt = &r->points[i];
		const struct mt_level *lv = level_after(r, i);

		if (json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o,s:i,s:i,s:o}",
				"size", u64_json(pt->size), "pages", u64_json(pt->pages),
				"ns_per_access", real_json(pt->ns),
				"packed_ns_per_access", real_json(pt->packed_ns),
				"reps", (int)pt->reps, "packed_reps", (int)pt->packed_reps,
				"level", lv ? json_string(level_kind(lv)) : json_null()))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *levels_json(const struct mt_probe_result *r)
{
	json_t *a = json_array();
	unsigned int tlb = 0;

	for (size_t i = 0; a && i < r->n_levels; i++) {
		const struct mt_level *lv = &r->levels[i];
		const struct mt_probe_point *b = &r->points[lv->knee.before];
		const struct mt_probe_point *af = &r->points[lv->knee.after];
		const char *name = lv->kind == MT_LEVEL_CACHE ? "data cache" : tlb_name(tlb++);

		if (json_array_append_new(a, json_pack(
				"{s:s,s:s,s:o,s:o,s:I,s:I,s:o,s:o,s:o,s:o,s:o,s:b}",
				"kind", level_kind(lv), "name", name,
				"reach", u64_json(b->size), "reach_pages", u64_json(b->pages),
				"before", (json_int_t)lv->knee.before,
				"after", (json_int_t)lv->knee.after,
				"ns_before", real_json(b->ns), "ns_after", real_json(af->ns),
				"step", real_json(lv->knee.step),
				"over_trend", real_json(lv->knee.over_trend),
				"packed_step", real_json(lv->ctl_step),
				"confirmed", lv->knee.confirmed))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *probe_json(const struct mt_probe_result *r, const struct mt_sysinfo *si)
{
	return json_pack("{s:{s:i,s:s,s:s},s:o,s:o,s:o,s:o,s:o}",
			 "memtlb", "schema", MT_PROBE_SCHEMA, "version", MEMTLB_VERSION,
			 "command", "probe", "system", system_json(si), "config", config_json(r),
			 "mapping", mapping_json(r), "points", points_json(r),
			 "levels", levels_json(r));
}

static int dump_json(FILE *f, void *root)
{
	errno = 0;
	if (json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) || fputc('\n', f) == EOF)
		return errno ? -errno : -EIO;
	return 0;
}

int mt_report_write_probe(const struct mt_probe_result *r, const struct mt_sysinfo *si,
			  const char *path)
{
	json_t *root = probe_json(r, si);
	int ret;

	if (!root)
		return -ENOMEM;
	if (!strcmp(path, "-")) {
		ret = dump_json(stdout, root);
		if (!ret && fflush(stdout))
			ret = -errno;
	} else {
		ret = mt_file_write_atomic(path, 0600, dump_json, root);
	}
	json_decref(root);
	return ret;
}
