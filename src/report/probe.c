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
#include "report/codec.h"
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

/* The coalescing pass's sizes, by level: each variant's translation, and apart. */
static void co_table(FILE *f, const struct mt_probe_coalesce *co)
{
	char s[32];

	fprintf(f, "%-8s %7s %10s %10s %10s %9s %7s\n", "level", "pages", "size",
		"scattered", "contiguous", "s - c ns", "+-95%");
	for (size_t i = 0; i < co->n_points; i++) {
		const struct mt_probe_co_point *pt = &co->points[i];

		mt_size_format(pt->bytes, s, sizeof(s));
		fprintf(f, "%-8s %7llu %10s %+10.3f %+10.3f %+9.3f %7.3f\n",
			pt->level ?: "", (unsigned long long)pt->c.pages, s, pt->c.scattered_ns,
			pt->c.contiguous_ns, pt->c.diff_ns, pt->c.diff_ci95_ns);
	}
}

/* "1536 (6.0 MiB)" pages, "< 1536" below the sizes, ">= 1536 (...)" past them. */
static void reach_text(uint64_t reach, bool beyond, uint64_t first, uint64_t page, char *buf,
		       size_t len)
{
	char s[32];

	if (!reach) {
		snprintf(buf, len, "< %llu", (unsigned long long)first);
		return;
	}
	mt_size_format(reach * page, s, sizeof(s));
	snprintf(buf, len, "%s%llu (%s)", beyond ? ">= " : "", (unsigned long long)reach, s);
}

/* One level's reaches, and where and by how much the two were apart. */
static void co_level(FILE *f, const struct mt_probe_result *r, const struct mt_probe_co_level *cl)
{
	const struct mt_coalesce_verdict *v = &cl->v;
	uint64_t first = 0;
	char a[64], b[64], x[16] = "";

	for (size_t i = 0; i < r->co.n_points && !first; i++)
		if (r->co.points[i].level == cl->name)
			first = r->co.points[i].c.pages;
	reach_text(v->scattered_reach, false, first, r->page, a, sizeof(a));
	reach_text(v->contiguous_reach, v->contiguous_beyond, first, r->page, b, sizeof(b));
	if (isfinite(v->factor))
		snprintf(x, sizeof(x), ", x%.2f", v->factor);
	mt_text_wrapf(f, 80, "%s reach, pages: scattered %s, contiguous %s%s", cl->name ?: "",
		      a, b, x);
	if (v->apart_at)
		fprintf(f, "  apart from %llu pages, scattered - contiguous up to %+.2f ns\n",
			(unsigned long long)v->apart_at, v->apart_ns);
	else
		fprintf(f, "  not apart (under %.1f ns, or the interval holds 0, at every size)\n",
			r->co.min_ns);
}

/* The verdict: the levels whose reach moved, else those cheaper, else none. */
static void co_verdict(FILE *f, const struct mt_probe_result *r, const struct mt_sysinfo *si)
{
	const struct mt_probe_coalesce *co = &r->co;
	bool said = false;

	for (size_t i = 0; i < co->n_levels; i++) {
		const struct mt_probe_co_level *cl = &co->levels[i];
		const char *why = si ? mt_coalesce_mechanism(cl->v.factor, si->machine,
							      si->cpu_vendor) : NULL;

		if (cl->v.kind != MT_COALESCE_REACH)
			continue;
		fprintf(f, "coalescing: %s reach x%.1f%s with contiguous base pages%s%s%s\n",
			cl->name ?: "", cl->v.factor, cl->v.contiguous_beyond ? " or more" : "",
			why ? " (" : "", why ?: "", why ? ")" : "");
		said = true;
	}
	for (size_t i = 0; i < co->n_levels && !said; i++) {
		const struct mt_probe_co_level *cl = &co->levels[i];

		if (cl->v.kind != MT_COALESCE_CHEAPER)
			continue;
		fprintf(f, "coalescing: none seen in reach; contiguous pages cheaper past the\n"
			"  %s by up to %.2f ns (its reach not moved: not a larger entry)\n",
			cl->name ?: "", cl->v.apart_ns);
		said = true;
	}
	if (!said)
		fprintf(f, "coalescing: none seen (contiguous and scattered not apart at any "
			"level)\n");
}

/* --coalesce: the layouts by pagemap, the sizes, each level, the verdict. */
static void describe_coalesce(FILE *f, const struct mt_probe_result *r,
			      const struct mt_sysinfo *si)
{
	const struct mt_probe_coalesce *co = &r->co;

	if (!co->asked)
		return;
	fputc('\n', f);
	if (co->n_runs)
		fprintf(f, "coalescing: base pages physically scattered against contiguous\n"
			"(2 MiB THPs split to PTEs), the same chain; by pagemap's PFNs:\n");
	for (size_t i = 0; i < co->n_runs; i++)
		fprintf(f, "  aligned %llu-page runs contiguous: scattered %.1f%%, contiguous "
			"%.1f%%\n", (unsigned long long)co->runs[i].pages,
			100 * co->runs[i].scattered, 100 * co->runs[i].contiguous);
	if (co->absent_why[0]) {
		mt_text_wrapf(f, 80, "coalescing: not measured: %s", co->absent_why);
		return;
	}
	co_table(f, co);
	for (size_t i = 0; i < co->n_levels; i++)
		co_level(f, r, &co->levels[i]);
	co_verdict(f, r, si);
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
	describe_coalesce(f, r, si);
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
 * The JSON document, one table per object (report/codec.h) for the writer
 * and for --from's loader alike. Untrusted on the way in: a level's name
 * is one of the probe's, the counts stay within their arrays.
 */
static const char *pages_name(int v)
{
	return mt_probe_pages_name(v) ?: "";
}

static int pages_parse(const char *s)
{
	for (int v = 0; s && v < MT_PROBE_PAGES_MAX; v++)
		if (!strcmp(s, mt_probe_pages_name(v)))
			return v;
	return -1;
}

static int name_write(const void *base, json_t **out)
{
	*out = json_string(((const struct mt_probe_level *)base)->name);
	return *out ? 0 : -ENOMEM;
}

static void name_read(json_t *v, void *base)
{
	((struct mt_probe_level *)base)->name = mt_probe_level_name(json_string_value(v));
}

static bool level_keep(void *elem)
{
	return ((struct mt_probe_level *)elem)->name;
}

static int slow_write(const void *base, json_t **out)
{
	uint64_t at = ((const struct mt_probe_result *)base)->huge_slow_at;

	*out = at ? json_integer((json_int_t)at) : json_null();
	return *out ? 0 : -ENOMEM;
}

static void slow_read(json_t *v, void *base)
{
	((struct mt_probe_result *)base)->huge_slow_at = json_is_integer(v) &&
		json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

static int control_write(const void *base, json_t **out)
{
	*out = json_string(((const struct mt_probe_result *)base)->vs_packed ? "packed" : "huge");
	return *out ? 0 : -ENOMEM;
}

static void control_read(json_t *v, void *base)
{
	((struct mt_probe_result *)base)->vs_packed = json_is_string(v) &&
						      !strcmp(json_string_value(v), "packed");
}

static int co_name_write(const char *name, json_t **out)
{
	*out = name ? json_string(name) : json_null();
	return *out ? 0 : -ENOMEM;
}

static int co_point_level_write(const void *base, json_t **out)
{
	return co_name_write(((const struct mt_probe_co_point *)base)->level, out);
}

static void co_point_level_read(json_t *v, void *base)
{
	((struct mt_probe_co_point *)base)->level = mt_probe_level_name(json_string_value(v));
}

static int co_level_name_write(const void *base, json_t **out)
{
	return co_name_write(((const struct mt_probe_co_level *)base)->name, out);
}

static void co_level_name_read(json_t *v, void *base)
{
	((struct mt_probe_co_level *)base)->name = mt_probe_level_name(json_string_value(v));
}

static bool co_level_keep(void *elem)
{
	return ((struct mt_probe_co_level *)elem)->name;
}

static const char *co_kind_name(int v)
{
	return mt_coalesce_kind_name(v) ?: "";
}

/* A file's unknown kind is no claim: not apart. */
static int co_kind_parse(const char *s)
{
	int k = mt_coalesce_kind_parse(s);

	return k < 0 ? MT_COALESCE_NOT_APART : k;
}

/* Sizes that are none (0) are left out, never written as 0. */
static bool has_scattered_reach(const void *base)
{
	return ((const struct mt_probe_co_level *)base)->v.scattered_reach;
}

static bool has_contiguous_reach(const void *base)
{
	return ((const struct mt_probe_co_level *)base)->v.contiguous_reach;
}

static bool has_apart_at(const void *base)
{
	return ((const struct mt_probe_co_level *)base)->v.apart_at;
}

#define F(st, k, t, m) { .key = k, .type = t, .off = offsetof(st, m), .size = MT_FIELD_SIZE(st, m) }
#define RES(k, t, m) F(struct mt_probe_result, k, t, m)
#define PT(k, t, m) F(struct mt_probe_point, k, t, m)
#define LV(k, t, m) F(struct mt_probe_level, k, t, m)

static const struct mt_field config_fields[] = {
	{ .key = "pages", .type = MT_FIELD_ENUM, .off = offsetof(struct mt_probe_result, kind),
	  .name = pages_name, .parse = pages_parse },
	RES("page_size", MT_FIELD_UINT, page),
	RES("huge_page_size", MT_FIELD_UINT, huge_page),
	RES("max", MT_FIELD_UINT, max),
	RES("reps", MT_FIELD_UINT, reps),
	RES("knee_ratio", MT_FIELD_REAL, ratio),
	{ 0 }
};

static const struct mt_field mapping_fields[] = {
	RES("bytes", MT_FIELD_UINT, map_bytes),
	RES("packed_bytes", MT_FIELD_UINT, packed_bytes),
	RES("collapsed", MT_FIELD_BOOL, collapsed),
	RES("refused", MT_FIELD_UINT, refused),
	/* printed as it is: a file's control characters must not reach a terminal */
	{ .key = "refused_why", .type = MT_FIELD_STR_NULL, .flags = MT_FIELD_SHOWN,
	  .off = offsetof(struct mt_probe_result, refused_why),
	  .size = MT_FIELD_SIZE(struct mt_probe_result, refused_why) },
	{ 0 }
};

static const struct mt_field point_fields[] = {
	PT("pages", MT_FIELD_UINT, pages),
	PT("bytes", MT_FIELD_UINT, bytes),
	PT("base_ns", MT_FIELD_REAL, base_ns),
	PT("huge_ns", MT_FIELD_REAL, huge_ns),
	PT("translation_ns", MT_FIELD_REAL, translation_ns),
	PT("ci95_ns", MT_FIELD_REAL, ci95_ns),
	PT("packed_ns", MT_FIELD_REAL, packed_ns),
	PT("reps", MT_FIELD_UINT, reps),
	{ 0 }
};

static const struct mt_field level_fields[] = {
	{ .key = "name", .type = MT_FIELD_CUSTOM, .write = name_write, .read = name_read },
	LV("entries_min", MT_FIELD_UINT, entries_min),
	LV("entries_max", MT_FIELD_UINT, entries_max),
	LV("page_size", MT_FIELD_UINT, page_size),
	LV("reach_bytes", MT_FIELD_UINT, reach_bytes),
	LV("confidence", MT_FIELD_REAL, confidence),
	LV("from_ns", MT_FIELD_REAL, from_ns),
	LV("to_ns", MT_FIELD_REAL, to_ns),
	{ 0 }
};

#define CP(k, t, m) F(struct mt_probe_co_point, k, t, m)
#define CL(k, t, m) F(struct mt_probe_co_level, k, t, m)
/* a count of pages written only when there is one (0: none) */
#define CL_WHEN(k, m, w) { .key = k, .type = MT_FIELD_UINT, .when = w, \
	.off = offsetof(struct mt_probe_co_level, m), .size = MT_FIELD_SIZE(struct mt_probe_co_level, m) }
#define CR(k, t, m) F(struct mt_probe_co_run, k, t, m)
#define CO(k, t, m) F(struct mt_probe_result, k, t, co.m)

static const struct mt_field co_point_fields[] = {
	{ .key = "level", .type = MT_FIELD_CUSTOM, .write = co_point_level_write,
	  .read = co_point_level_read },
	CP("pages", MT_FIELD_UINT, c.pages),
	CP("bytes", MT_FIELD_UINT, bytes),
	CP("scattered_ns", MT_FIELD_REAL, c.scattered_ns),
	CP("scattered_ci95_ns", MT_FIELD_REAL, c.scattered_ci95_ns),
	CP("contiguous_ns", MT_FIELD_REAL, c.contiguous_ns),
	CP("contiguous_ci95_ns", MT_FIELD_REAL, c.contiguous_ci95_ns),
	CP("diff_ns", MT_FIELD_REAL, c.diff_ns),
	CP("diff_ci95_ns", MT_FIELD_REAL, c.diff_ci95_ns),
	CP("reps", MT_FIELD_UINT, reps),
	{ 0 }
};

static const struct mt_field co_level_fields[] = {
	{ .key = "name", .type = MT_FIELD_CUSTOM, .write = co_level_name_write,
	  .read = co_level_name_read },
	{ .key = "kind", .type = MT_FIELD_ENUM, .off = offsetof(struct mt_probe_co_level, v.kind),
	  .name = co_kind_name, .parse = co_kind_parse },
	CL("from_ns", MT_FIELD_REAL, from_ns),
	CL("to_ns", MT_FIELD_REAL, to_ns),
	CL_WHEN("scattered_reach", v.scattered_reach, has_scattered_reach),
	CL_WHEN("contiguous_reach", v.contiguous_reach, has_contiguous_reach),
	CL("contiguous_beyond", MT_FIELD_BOOL, v.contiguous_beyond),
	CL("factor", MT_FIELD_REAL, v.factor),
	CL_WHEN("apart_at", v.apart_at, has_apart_at),
	CL("apart_ns", MT_FIELD_REAL, v.apart_ns),
	{ 0 }
};

static const struct mt_field co_run_fields[] = {
	CR("pages", MT_FIELD_UINT, pages),
	CR("scattered_share", MT_FIELD_REAL, scattered),
	CR("contiguous_share", MT_FIELD_REAL, contiguous),
	{ 0 }
};

static const struct mt_field coalesce_fields[] = {
	{ .key = "absent_why", .type = MT_FIELD_STR_NULL, .flags = MT_FIELD_SHOWN,
	  .off = offsetof(struct mt_probe_result, co.absent_why),
	  .size = MT_FIELD_SIZE(struct mt_probe_result, co.absent_why) },
	CO("min_ns", MT_FIELD_REAL, min_ns),
	CO("scattered_pte_mapped", MT_FIELD_BOOL, scattered_pte),
	CO("contiguous_pte_mapped", MT_FIELD_BOOL, contiguous_pte),
	{ .key = "runs", .type = MT_FIELD_ARRAY, .sub = co_run_fields,
	  .off = offsetof(struct mt_probe_result, co.runs), .elem = sizeof(struct mt_probe_co_run),
	  .aux = offsetof(struct mt_probe_result, co.n_runs), .size = sizeof(size_t),
	  .max = MT_PFN_RUNS },
	{ .key = "points", .type = MT_FIELD_ARRAY, .sub = co_point_fields,
	  .off = offsetof(struct mt_probe_result, co.points),
	  .elem = sizeof(struct mt_probe_co_point),
	  .aux = offsetof(struct mt_probe_result, co.n_points), .size = sizeof(size_t),
	  .max = MT_PROBE_CO_MAX_POINTS },
	{ .key = "levels", .type = MT_FIELD_ARRAY, .sub = co_level_fields, .keep = co_level_keep,
	  .off = offsetof(struct mt_probe_result, co.levels),
	  .elem = sizeof(struct mt_probe_co_level),
	  .aux = offsetof(struct mt_probe_result, co.n_levels), .size = sizeof(size_t),
	  .max = MT_PROBE_CO_MAX_LEVELS },
	{ 0 }
};

static const struct mt_field probe_fields[] = {
	{ .key = "levels", .type = MT_FIELD_ARRAY, .sub = level_fields, .keep = level_keep,
	  .off = offsetof(struct mt_probe_result, levels), .elem = sizeof(struct mt_probe_level),
	  .aux = offsetof(struct mt_probe_result, n_levels), .size = sizeof(size_t),
	  .max = MT_PROBE_MAX_LEVELS },
	{ .key = "points", .type = MT_FIELD_ARRAY, .sub = point_fields,
	  .off = offsetof(struct mt_probe_result, points), .elem = sizeof(struct mt_probe_point),
	  .aux = offsetof(struct mt_probe_result, n_points), .size = sizeof(size_t),
	  .max = MT_PROBE_MAX_POINTS },
	RES("unvalidated", MT_FIELD_UINT, unvalidated),
	{ .key = "huge_slow_at", .type = MT_FIELD_CUSTOM, .write = slow_write, .read = slow_read },
	{ .key = "control", .type = MT_FIELD_CUSTOM, .write = control_write, .read = control_read },
	/* only with --coalesce: loaded, its presence says it was asked */
	{ .key = "coalesce", .type = MT_FIELD_OBJECT, .sub = coalesce_fields,
	  .flags = MT_FIELD_PRESENT, .aux = offsetof(struct mt_probe_result, co.asked) },
	{ 0 }
};

static const struct mt_field result_fields[] = {
	{ .key = "config", .type = MT_FIELD_OBJECT, .sub = config_fields },
	{ .key = "mapping", .type = MT_FIELD_OBJECT, .sub = mapping_fields },
	{ .key = "probe", .type = MT_FIELD_OBJECT, .sub = probe_fields },
	{ 0 }
};

static json_t *probe_json(const struct mt_probe_result *r, const struct mt_sysinfo *si)
{
	json_t *root = json_pack("{s:{s:i,s:s,s:s},s:o}", "memtlb", "schema", MT_PROBE_SCHEMA,
				 "version", MEMTLB_VERSION, "command", "probe",
				 "system", mt_sysinfo_json(si));

	if (root && mt_codec_write(root, result_fields, r)) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int mt_report_probe_from_json(json_t *root, struct mt_probe_result **out,
			      struct mt_sysinfo *si, struct mt_msg *msg)
{
	struct mt_probe_result *r;
	json_t *meta, *schema;
	int ret;

	*out = NULL;
	meta = json_object_get(root, "memtlb");
	schema = json_object_get(meta, "schema");
	ret = -EINVAL;
	if (!json_is_object(root) || !json_is_integer(schema) ||
	    strcmp(json_string_value(json_object_get(meta, "command")) ?: "", "probe") ||
	    !json_is_object(json_object_get(root, "probe"))) {
		mt_msg_set(msg, 0, NULL, "not a memtlb probe report (no memtlb.schema, "
			 "memtlb.command \"probe\")");
	} else if (json_integer_value(schema) < 1 ||
		   json_integer_value(schema) > MT_PROBE_SCHEMA) {
		mt_msg_set(msg, 0, NULL, "probe schema %lld, this memtlb reads schemas 1 to %d",
			 (long long)json_integer_value(schema), MT_PROBE_SCHEMA);
	} else if (!(r = calloc(1, sizeof(*r)))) {
		ret = -ENOMEM;
	} else {
		memset(si, 0, sizeof(*si));
		mt_sysinfo_load(json_object_get(root, "system"), si);
		mt_codec_read(root, result_fields, r);
		if ((int)r->kind < 0) {
			mt_msg_set(msg, 0, NULL, "config.pages: not base, thp or hugetlb");
			mt_probe_result_destroy(r);
		} else {
			*out = r;
			ret = 0;
		}
	}
	return ret;
}

int mt_report_load_probe(const char *path, struct mt_probe_result **out, struct mt_sysinfo *si,
			 struct mt_msg *msg)
{
	json_t *root;
	int ret;

	*out = NULL;
	ret = mt_report_load_json(path, &root, msg);
	if (ret)
		return ret;
	ret = mt_report_probe_from_json(root, out, si, msg);
	json_decref(root);
	return ret;
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
