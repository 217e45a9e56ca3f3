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
#include "sys/sysinfo.h"

#define HUGE_2M (2ull << 20)

/* The level whose first size above the step is point i, or NULL. */
static const struct mt_probe_level *level_after(const struct mt_probe_result *r, size_t i)
{
	for (size_t k = 0; k < r->n_levels; k++)
		if (r->levels[k].entries_max == r->points[i].pages)
			return &r->levels[k];
	return NULL;
}

static void describe(FILE *f, const struct mt_probe_result *r)
{
	char s[32], hs[32], ps[32], line[160];
	int n;

	if (!r->n_levels)
		fprintf(f, "levels: none found up to %llu pages\n",
			(unsigned long long)(r->n_points ? r->points[r->n_points - 1].pages : 0));
	for (size_t i = 0; i < r->n_levels; i++) {
		const struct mt_probe_level *lv = &r->levels[i];

		mt_size_format(lv->reach_bytes, s, sizeof(s));
		mt_size_format(lv->entries_max * lv->page_size, hs, sizeof(hs));
		mt_size_format(lv->page_size, ps, sizeof(ps));
		n = snprintf(line, sizeof(line), "%s: %llu..%llu entries x %s", lv->name,
			     (unsigned long long)lv->entries_min,
			     (unsigned long long)lv->entries_max, ps);
		/* a long name and a wide range: the reach on a line of its own */
		fprintf(f, "%s,%sreach %s..%s\n", line,
			n + (int)(strlen(s) + strlen(hs)) + 10 > 80 ? "\n  " : " ", s, hs);
		fprintf(f, "  translation %+.2f -> %+.2f ns per access, confidence %.3f\n",
			lv->from_ns, lv->to_ns, lv->confidence);
	}
	if (r->unvalidated)
		fprintf(f, "%u step%s not confirmed or not held on validation: not levels\n",
			r->unvalidated, r->unvalidated == 1 ? "" : "s");
	if (r->huge_slow_at)
		fprintf(f, "note: from %llu pages the 2 MiB variant is slower than the packed\n"
			"  control: its TLB entries act as base pages (a host backing guest\n"
			"  memory with base pages?), so the translation is base - packed\n",
			(unsigned long long)r->huge_slow_at);
	if (r->refused)
		fprintf(f, "%u size%s refused, the mapping not as asked:\n  %s\n", r->refused,
			r->refused == 1 ? "" : "s", r->refused_why);
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
	char a[32], b[32], src[MT_SAFE_MAX], type[MT_SAFE_MAX], second[MT_SAFE_MAX + 64] = "";

	l1 = data_tlb(si, 1, pages);
	l2 = data_tlb(si, 2, pages);
	if (!l1) {
		fprintf(f, "cpuid: this CPU reports no data TLB geometry for %s pages\n",
			huge ? "2 MiB" : "4 KiB");
		return;
	}
	mt_size_format((uint64_t)l1->entries * page, a, sizeof(a));
	if (l2) {
		mt_size_format((uint64_t)l2->entries * page, b, sizeof(b));
		snprintf(second, sizeof(second), ", L2 %s TLB %u entries (%s)",
			 mt_cell_safe(type, sizeof(type), l2->type), l2->entries, b);
	}
	/* Wrapped: the source and an L2's type are the CPU's words, any length. */
	mt_text_wrapf(f, 80, "%s: L1 dTLB %u entries (%s)%s for %s pages",
		      mt_cell_safe(src, sizeof(src), si->tlb_source), l1->entries, a, second,
		      huge ? "2 MiB" : "4 KiB");
}

int mt_report_print_probe(FILE *f, const struct mt_probe_result *r, const struct mt_sysinfo *si)
{
	char s[32];

	mt_size_format(r->page, s, sizeof(s));
	if (r->vs_packed)
		fprintf(f, "memtlb probe: translation cost = %s pages - the packed control (the\n"
			"same lines in few pages: 2 MiB %s pages save no TLB entries here), the\n"
			"same chain (one line per %s, random order), %u repetitions interleaved\n\n",
			s, r->kind == MT_PROBE_PAGES_HUGETLB ? "hugetlb" : "THP", s, r->reps);
	else
		fprintf(f, "memtlb probe: translation cost = %s pages - 2 MiB %s pages, the same\n"
			"chain (one line per %s, random order), %u repetitions interleaved\n\n", s,
			r->kind == MT_PROBE_PAGES_HUGETLB ? "hugetlb" : "THP", s, r->reps);
	if (si && mt_emulation_maybe(&si->emulation)) {
		mt_report_print_emulation(f, &si->emulation);
		fputc('\n', f);
	}
	fprintf(f, "%7s %10s %9s %9s %10s %7s %9s  %s\n", "pages", "size", "base ns",
		"huge ns", "transl ns", "+-95%", "packed", "level");
	for (size_t i = 0; i < r->n_points; i++) {
		const struct mt_probe_point *pt = &r->points[i];
		const struct mt_probe_level *lv = level_after(r, i);

		mt_size_format(pt->bytes, s, sizeof(s));
		fprintf(f, "%7llu %10s %9.3f %9.3f %+10.3f %7.3f %9.3f%s%s\n",
			(unsigned long long)pt->pages, s, pt->base_ns, pt->huge_ns,
			pt->translation_ns, pt->ci95_ns, pt->packed_ns, lv ? "  <- " : "",
			lv ? lv->name : "");
	}
	fputc('\n', f);
	describe(f, r);
	compare_cpuid(f, r, si);
	return ferror(f) ? -EIO : 0;
}

int mt_report_print_probe_csv(FILE *f, const struct mt_probe_result *r)
{
	fprintf(f, "pages,bytes,base_ns,huge_ns,translation_ns,ci95_ns,packed_ns,level\n");
	for (size_t i = 0; i < r->n_points; i++) {
		const struct mt_probe_point *pt = &r->points[i];
		const struct mt_probe_level *lv = level_after(r, i);

		fprintf(f, "%llu,%llu,%.4f,%.4f,%.4f,%.4f,%.4f,%s\n",
			(unsigned long long)pt->pages, (unsigned long long)pt->bytes,
			pt->base_ns, pt->huge_ns, pt->translation_ns, pt->ci95_ns, pt->packed_ns,
			lv ? lv->name : "");
	}
	return ferror(f) ? -EIO : 0;
}

/*
 * The "system" object of a report: report/json.c builds it, and gives it
 * out as text only, so it is read back from that text.
 */
static json_t *u64_json(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/*
 * A measured number for json_pack's "o*": a non-finite one (none
 * expected) is NULL, which leaves its key out (report/codec.h's rule).
 */
static json_t *real_json(double v)
{
	return isfinite(v) ? json_real(v) : NULL;
}

static json_t *config_json(const struct mt_probe_result *r)
{
	return json_pack("{s:s,s:o,s:o,s:o,s:i,s:f}", "pages", mt_probe_pages_name(r->kind),
			 "page_size", u64_json(r->page), "huge_page_size", u64_json(r->huge_page),
			 "max", u64_json(r->max), "reps", (int)r->reps, "knee_ratio", r->ratio);
}

static json_t *mapping_json(const struct mt_probe_result *r)
{
	return json_pack("{s:o,s:o,s:b,s:i,s:o}", "bytes", u64_json(r->map_bytes),
			 "packed_bytes", u64_json(r->packed_bytes), "collapsed", r->collapsed,
			 "refused", (int)r->refused,
			 "refused_why", r->refused ? json_string(r->refused_why) : json_null());
}

static json_t *points_json(const struct mt_probe_result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->n_points; i++) {
		const struct mt_probe_point *pt = &r->points[i];

		if (json_array_append_new(a, json_pack("{s:o,s:o,s:o*,s:o*,s:o*,s:o*,s:o*,s:i}",
				"pages", u64_json(pt->pages), "bytes", u64_json(pt->bytes),
				"base_ns", real_json(pt->base_ns), "huge_ns", real_json(pt->huge_ns),
				"translation_ns", real_json(pt->translation_ns),
				"ci95_ns", real_json(pt->ci95_ns),
				"packed_ns", real_json(pt->packed_ns), "reps", (int)pt->reps))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *levels_json(const struct mt_probe_result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->n_levels; i++) {
		const struct mt_probe_level *lv = &r->levels[i];

		if (json_array_append_new(a, json_pack("{s:s,s:o,s:o,s:o,s:o,s:o*,s:o*,s:o*}",
				"name", lv->name, "entries_min", u64_json(lv->entries_min),
				"entries_max", u64_json(lv->entries_max),
				"page_size", u64_json(lv->page_size),
				"reach_bytes", u64_json(lv->reach_bytes),
				"confidence", real_json(lv->confidence),
				"from_ns", real_json(lv->from_ns), "to_ns", real_json(lv->to_ns)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *probe_json(const struct mt_probe_result *r, const struct mt_sysinfo *si)
{
	return json_pack("{s:{s:i,s:s,s:s},s:o,s:o,s:o,s:{s:o,s:o,s:i,s:o,s:s}}",
			 "memtlb", "schema", MT_PROBE_SCHEMA, "version", MEMTLB_VERSION,
			 "command", "probe", "system", mt_sysinfo_json(si), "config", config_json(r),
			 "mapping", mapping_json(r), "probe", "levels", levels_json(r),
			 "points", points_json(r), "unvalidated", (int)r->unvalidated,
			 "huge_slow_at", r->huge_slow_at ? u64_json(r->huge_slow_at) : json_null(),
			 "control", r->vs_packed ? "packed" : "huge");
}

static int dump_json(FILE *f, void *root)
{
	errno = 0;
	if (json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) || fputc('\n', f) == EOF)
		return errno ? -errno : -EIO;
	return 0;
}

int mt_report_print_probe_json(FILE *f, const struct mt_probe_result *r,
			       const struct mt_sysinfo *si)
{
	json_t *root = probe_json(r, si);
	int ret;

	if (!root)
		return -ENOMEM;
	ret = dump_json(f, root);
	json_decref(root);
	return ret;
}
