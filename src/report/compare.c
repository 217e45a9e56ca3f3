// SPDX-License-Identifier: MIT
/* A comparison as lkp-style text, markdown, CSV or JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "report/cells.h"
#include "report/compare.h"
#include "report/json.h"
#include "stats/compare.h"

#define VALW 16

static const char *state_name(enum mt_side_state s)
{
	switch (s) {
	case MT_SIDE_OK: return "ok";
	case MT_SIDE_ABSENT: return "absent";
	case MT_SIDE_UNSUPPORTED: return "not supported";
	case MT_SIDE_NOT_COUNTED: return "not counted";
	}
	return "?";
}

/* "12345 ~ 2%" as lkp prints it; the spread only when there were samples. */
static void value_cell(char *buf, size_t len, const struct mt_cmp_side *s)
{
	char v[32];

	if (s->state != MT_SIDE_OK) {
		snprintf(buf, len, "%s", s->state == MT_SIDE_ABSENT ? "-" : state_name(s->state));
		return;
	}
	mt_report_number(v, sizeof(v), s->s.mean);
	if (s->s.n >= 2)
		snprintf(buf, len, "%s ~%2.0f%%", v, 100.0 * s->s.cv);
	else
		snprintf(buf, len, "%s", v);
}

static void change_cell(char *buf, size_t len, const struct mt_cmp_side *s, bool md)
{
	const char *mark = s->significant ? (md ? " \\*" : " *") : "";
	char v[32];

	if (!s->have_change) {
		snprintf(buf, len, "-");
	} else if (s->absolute) {
		mt_report_number(v, sizeof(v), s->change);
		snprintf(buf, len, "%s%s abs%s", s->change >= 0 ? "+" : "", v, mark);
	} else {
		snprintf(buf, len, "%+.1f%%%s", s->change, mark);
	}
}

static void side_label(char *buf, size_t len, const struct mt_comparison *cmp, unsigned int i)
{
	const struct mt_sysinfo *si = &cmp->reps[i]->system;
	char raw[MT_SAFE_MAX];

	/* kernel and host come from the files: escaped for the terminal */
	snprintf(raw, sizeof(raw), "%s on %s (%s)", si->kernel[0] ? si->kernel : "(unknown kernel)",
		 si->host[0] ? si->host : "(unknown host)", cmp->files[i]);
	mt_cell_safe(buf, len, raw);
}

static void print_text(FILE *f, const struct mt_comparison *cmp, bool md)
{
	const char *sep = md ? " | " : "  ";
	const char *last_point = NULL;
	char a[320], b[64];

	char safe[MT_SAFE_MAX], ph[MT_SAFE_MAX], met[MT_SAFE_MAX];

	for (unsigned int i = 0; i < cmp->n_inputs; i++) {
		side_label(a, sizeof(a), cmp, i);
		if (i)
			fprintf(f, "%snew[%u]: %s\n", md ? "- " : "", i, a);
		else
			fprintf(f, "%sbase: %s\n", md ? "- " : "", a);
	}
	fputc('\n', f);
	for (size_t k = 0; k < cmp->n_warnings; k++)
		fprintf(f, "%swarning: %s\n", md ? "> " : "", cmp->warnings[k]);
	for (size_t k = 0; k < cmp->n_lonely; k++)
		fprintf(f, "%spoint %s\n", md ? "> " : "",
			mt_cell_safe(safe, sizeof(safe), cmp->lonely[k]));
	if (cmp->n_warnings || cmp->n_lonely)
		fputc('\n', f);

	for (size_t k = 0; k < cmp->n_rows; k++) {
		const struct mt_cmp_row *r = &cmp->rows[k];

		if (r->point != last_point) {
			if (last_point)
				fputc('\n', f);
			last_point = r->point;
			if (md) {
				fprintf(f, "#### %s\n\n| base",
					mt_cell_safe(safe, sizeof(safe), r->point));
				for (unsigned int i = 1; i < cmp->n_inputs; i++)
					fprintf(f, " | %%change | new[%u]", i);
				fprintf(f, " | metric |\n|---:");
				for (unsigned int i = 1; i < cmp->n_inputs; i++)
					fprintf(f, "|---:|---:");
				fprintf(f, "|:---|\n");
			} else {
				fprintf(f, "%s\n%*s", mt_cell_safe(safe, sizeof(safe), r->point),
					VALW, "base");
				for (unsigned int i = 1; i < cmp->n_inputs; i++)
					fprintf(f, "  %12s  %*s%u]", "%change", VALW - 2, "new[", i);
				fprintf(f, "  metric\n");
			}
		}
		value_cell(a, sizeof(a), &r->side[0]);
		if (md)
			fprintf(f, "| %s", a);
		else
			fprintf(f, "%*s", VALW, a);
		for (unsigned int i = 1; i < cmp->n_inputs; i++) {
			change_cell(a, sizeof(a), &r->side[i], md);
			value_cell(b, sizeof(b), &r->side[i]);
			if (md)
				fprintf(f, "%s%s%s%s", sep, a, sep, b);
			else
				fprintf(f, "%s%12s%s%*s", sep, a, sep, VALW, b);
		}
		fprintf(f, "%s%s.%s%s\n", sep, mt_cell_safe(ph, sizeof(ph), r->phase),
			mt_cell_safe(met, sizeof(met), r->metric), md ? " |" : "");
	}
	fputc('\n', f);
	for (int fam = 0; fam < MT_FAMILY_MAX; fam++) {
		for (unsigned int i = 1; i < cmp->n_inputs; i++) {
			if (!cmp->geomean_n[i][fam])
				continue;
			fprintf(f, "%sgeomean new[%u]/base, %s: %+.1f%% (%u metrics)\n",
				md ? "- " : "", i, mt_family_name(fam), cmp->geomean[i][fam],
				cmp->geomean_n[i][fam]);
		}
	}
	fprintf(f, "%s~ cv over iterations; * significant (Welch's t-test, p < %.2f); "
		   "abs: absolute change (near-zero base)\n", md ? "\n" : "", MT_COMPARE_ALPHA);
}

static void print_csv(FILE *f, const struct mt_comparison *cmp)
{
	fprintf(f, "point,phase,metric,family,input,base_mean,base_cv,base_n,base_status,"
		   "new_mean,new_cv,new_n,new_status,change,change_unit,p,significant,"
		   "regression\n");
	for (size_t k = 0; k < cmp->n_rows; k++) {
		const struct mt_cmp_row *r = &cmp->rows[k];
		const struct mt_cmp_side *b = &r->side[0];

		for (unsigned int i = 1; i < cmp->n_inputs; i++) {
			const struct mt_cmp_side *n = &r->side[i];

			/* names and points from the files: RFC 4180 fields */
			mt_csv_field(f, r->point, true);
			fputc(',', f);
			mt_csv_field(f, r->phase, false);
			fputc(',', f);
			mt_csv_field(f, r->metric, true);
			fprintf(f, ",%s,%u,", mt_family_name(r->family), i);
			if (b->state == MT_SIDE_OK)
				fprintf(f, "%.6g,%.4g,%zu,ok,", b->s.mean, b->s.cv, b->s.n);
			else
				fprintf(f, ",,,%s,", state_name(b->state));
			if (n->state == MT_SIDE_OK)
				fprintf(f, "%.6g,%.4g,%zu,ok,", n->s.mean, n->s.cv, n->s.n);
			else
				fprintf(f, ",,,%s,", state_name(n->state));
			if (n->have_change)
				fprintf(f, "%.6g,%s,", n->change, n->absolute ? "abs" : "%");
			else
				fprintf(f, ",,");
			if (n->tested)
				fprintf(f, "%.4g,%d,%d\n", n->p, n->significant, n->regression);
			else
				fprintf(f, ",,\n");
		}
	}
}

static json_t *side_json(const struct mt_cmp_side *s, bool base)
{
	json_t *o = json_pack("{s:s}", "status", state_name(s->state));

	if (s->state == MT_SIDE_OK) {
		json_object_set_new(o, "mean", json_real(s->s.mean));
		if (s->s.n) {
			json_object_set_new(o, "stddev", json_real(s->s.stddev));
			json_object_set_new(o, "cv", json_real(s->s.cv));
			json_object_set_new(o, "n", json_integer((json_int_t)s->s.n));
		}
	}
	if (base || !s->have_change)
		return o;
	json_object_set_new(o, s->absolute ? "change_abs" : "change_pct", json_real(s->change));
	if (s->tested) {
		json_object_set_new(o, "p", json_real(s->p));
		json_object_set_new(o, "significant", json_boolean(s->significant));
		json_object_set_new(o, "regression", json_boolean(s->regression));
	}
	return o;
}

static int print_json(FILE *f, const struct mt_comparison *cmp)
{
	json_t *root, *inputs = json_array(), *rows = json_array(), *warn = json_array();
	json_t *lonely = json_array(), *geo = json_array();
	int ret;

	for (unsigned int i = 0; i < cmp->n_inputs; i++) {
		const struct mt_report *rep = cmp->reps[i];
		json_t *g = json_object();

		/* Strings from the inputs: kept escaped when not UTF-8, never dropped. */
		json_array_append_new(inputs, json_pack("{s:o,s:o,s:o,s:o}", "file",
			mt_json_string(cmp->files[i]), "kernel", mt_json_string(rep->system.kernel),
			"host", mt_json_string(rep->system.host),
			"version", mt_json_string(rep->version)));
		for (int fam = 0; i && fam < MT_FAMILY_MAX; fam++)
			if (cmp->geomean_n[i][fam])
				json_object_set_new(g, mt_family_name(fam),
						    json_real(cmp->geomean[i][fam]));
		json_array_append_new(geo, g);
	}
	for (size_t k = 0; k < cmp->n_warnings; k++)
		json_array_append_new(warn, mt_json_string(cmp->warnings[k]));
	for (size_t k = 0; k < cmp->n_lonely; k++)
		json_array_append_new(lonely, mt_json_string(cmp->lonely[k]));
	for (size_t k = 0; k < cmp->n_rows; k++) {
		const struct mt_cmp_row *r = &cmp->rows[k];
		json_t *sides = json_array();

		for (unsigned int i = 0; i < cmp->n_inputs; i++)
			json_array_append_new(sides, side_json(&r->side[i], !i));
		json_array_append_new(rows, json_pack("{s:o,s:o,s:o,s:s,s:s,s:o}",
			"point", mt_json_string(r->point), "phase", mt_json_string(r->phase),
			"metric", mt_json_string(r->metric),
			"family", mt_family_name(r->family), "worse", r->worse > 0 ? "up" : "down",
			"inputs", sides));
	}
	root = json_pack("{s:f,s:o,s:o,s:o,s:o,s:o,s:f}", "alpha", MT_COMPARE_ALPHA,
			 "inputs", inputs, "warnings", warn, "points_not_in_all", lonely,
			 "rows", rows, "geomean_change_pct", geo,
			 "worst_regression_pct", mt_compare_worst(cmp));
	if (!root)
		return -ENOMEM;
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) ? -EIO : 0;
	fputc('\n', f);
	json_decref(root);
	return ret;
}

int mt_compare_print(FILE *f, const struct mt_comparison *cmp, enum mt_compare_format fmt)
{
	switch (fmt) {
	case MT_COMPARE_TEXT:
		print_text(f, cmp, false);
		return 0;
	case MT_COMPARE_MARKDOWN:
		print_text(f, cmp, true);
		return 0;
	case MT_COMPARE_CSV:
		print_csv(f, cmp);
		return 0;
	case MT_COMPARE_JSON:
		return print_json(f, cmp);
	}
	return -EINVAL;
}
