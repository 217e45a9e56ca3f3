// SPDX-License-Identifier: MIT
/* A comparison as lkp-style text, markdown, HTML, CSV or JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis/explain.h"
#include "analysis/matrix.h"
#include "model/metrics.h"
#include "model/size.h"
#include "model/report.h"
#include "report/cells.h"
#include "report/codec.h"
#include "report/compare.h"
#include "report/json.h"
#include "stats/compare.h"

/* Two inputs fit 80 columns with a 24-character metric (write_0.dTLB-load-misses). */
#define VALW 14
#define CHGW 16
#define WIDTH 80
#define MATRIX_ROWS 64	/* page sizes x regions of one input */
#define MATRIX_MAX 16

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

/*
 * What a row's values are divided by for people: a clock event's (task-clock)
 * nanoseconds are shown in msec, as stat and run show them; 1 for the rest.
 * The CSV and the JSON keep the report's raw unit.
 */
static double row_scale(const struct mt_cmp_row *r)
{
	return r->family == MT_FAMILY_COUNTER && mt_event_time_unit(r->metric) ?
	       MT_CLOCK_NS_PER_UNIT : 1.0;
}

/* "12345 ~ 2%" as lkp prints it; the spread only when there were samples. */
static void value_cell(char *buf, size_t len, const struct mt_cmp_row *r,
		       const struct mt_cmp_side *s)
{
	char v[32];

	if (s->state != MT_SIDE_OK) {
		snprintf(buf, len, "%s", s->state == MT_SIDE_ABSENT ? "-" : state_name(s->state));
		return;
	}
	mt_report_number(v, sizeof(v), s->s.mean / row_scale(r));
	if (s->s.n >= 2)
		snprintf(buf, len, "%s ~%2.0f%%", v, 100.0 * s->s.cv);
	else
		snprintf(buf, len, "%s", v);
}

/* "+30.0% +-2.1 *": the change, half its 95% CI (perf's +-), the call. */
static void change_cell(char *buf, size_t len, const struct mt_cmp_row *r,
			const struct mt_cmp_side *s, const char *mark)
{
	char v[32], h[32] = "";
	int n;

	if (!s->have_change) {
		snprintf(buf, len, "%s", s->emulated ? "emulated" : "-");
		return;
	}
	if (s->absolute) {
		mt_report_number(v, sizeof(v), s->change / row_scale(r));
		n = snprintf(buf, len, "%s%s abs", s->change >= 0 ? "+" : "", v);
		if (s->have_ci)
			mt_report_number(h, sizeof(h),
					 (s->ci_high - s->ci_low) / 2.0 / row_scale(r));
	} else {
		n = snprintf(buf, len, "%+.1f%%", s->change);
		if (s->have_ci)
			snprintf(h, sizeof(h), "%.1f", (s->ci_high - s->ci_low) / 2.0);
	}
	if (n < 0 || (size_t)n >= len)
		return;
	snprintf(buf + n, len - (size_t)n, "%s%s%s", h[0] ? " +-" : "", h,
		 s->changed ? mark : "");
}

static void side_label(char *buf, size_t len, const struct mt_comparison *cmp, unsigned int i)
{
	const struct mt_sysinfo *si = &cmp->reps[i]->system;
	char raw[MT_SAFE_MAX];

	/* kernel and host come from the files: escaped for the terminal */
	snprintf(raw, sizeof(raw), "%s on %s (%s)%s",
		 si->kernel[0] ? si->kernel : "(unknown kernel)",
		 si->host[0] ? si->host : "(unknown host)", cmp->files[i],
		 /* a reader of the table alone learns why times say emulated */
		 !mt_emulation_maybe(&si->emulation) ? "" :
		 si->emulation.emulated > 0 ? ", emulated CPU" : ", CPU perhaps emulated");
	mt_cell_safe(buf, len, raw);
}

/* A row no input counted (every event not supported or not counted). */
static bool counted(const struct mt_comparison *cmp, const struct mt_cmp_row *r)
{
	for (unsigned int i = 0; i < cmp->n_inputs; i++)
		if (r->side[i].state == MT_SIDE_OK)
			return true;
	return false;
}

/* Rows [k0, k1) of one point; rows of a point are consecutive. */
static size_t point_end(const struct mt_comparison *cmp, size_t k0)
{
	size_t k = k0;

	while (k < cmp->n_rows && cmp->rows[k].point == cmp->rows[k0].point)
		k++;
	return k;
}

/*
 * The names of the rows left out, once each: the metric when no phase of
 * the point counted it, else phase.metric. "" when none; malloc'ed, NULL
 * for -ENOMEM.
 */
static char *uncounted(const struct mt_comparison *cmp, size_t k0, size_t k1)
{
	size_t cap = 1, n = 0;
	char *s;

	for (size_t k = k0; k < k1; k++)
		cap += strlen(cmp->rows[k].phase) + strlen(cmp->rows[k].metric) + 3;
	s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t k = k0; k < k1; k++) {
		const struct mt_cmp_row *r = &cmp->rows[k];
		bool all = true, dup = false;
		char name[MT_PHASE_NAME_MAX + 80];

		if (counted(cmp, r))
			continue;
		for (size_t j = k0; j < k1; j++)
			if (!strcmp(cmp->rows[j].metric, r->metric) && counted(cmp, &cmp->rows[j]))
				all = false;
		if (all)
			snprintf(name, sizeof(name), "%s", r->metric);
		else
			snprintf(name, sizeof(name), "%s.%s", r->phase, r->metric);
		for (size_t j = k0; j < k && !dup; j++) {
			const struct mt_cmp_row *q = &cmp->rows[j];

			dup = !counted(cmp, q) && !strcmp(q->metric, r->metric) &&
			      (all || !strcmp(q->phase, r->phase));
		}
		if (!dup)
			n += (size_t)snprintf(s + n, cap - n, "%s%s", n ? ", " : "", name);
	}
	return s;
}

/* words, wrapped at WIDTH after ", " with two spaces of indent. */
static void wrapped(FILE *f, const char *lead, const char *words)
{
	size_t col = strlen(lead);
	const char *p = words;

	fputs(lead, f);
	while (*p) {
		const char *q = strstr(p, ", ");
		size_t len = q ? (size_t)(q - p) + 1 : strlen(p);

		if (col > 2 && col + 1 + len > WIDTH) {
			fputs("\n ", f);
			col = 1;
		}
		fprintf(f, " %.*s", (int)len, p);
		col += 1 + len;
		p += len;
		if (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/*
 * The legend's words that only some comparisons use, each defined where it
 * appears: "emulated" cells, clock events shown in msec. "" where none.
 */
static const char *legend_emulated(const struct mt_comparison *cmp)
{
	for (size_t k = 0; k < cmp->n_rows; k++)
		for (unsigned int i = 1; i < cmp->n_inputs; i++)
			if (cmp->rows[k].side[i].emulated)
				return "emulated: a time from a CPU emulated (qemu TCG), or perhaps "
				       "so: not compared";
	return "";
}

static const char *legend_clock(const struct mt_comparison *cmp)
{
	for (size_t k = 0; k < cmp->n_rows; k++)
		if (row_scale(&cmp->rows[k]) != 1.0 && counted(cmp, &cmp->rows[k]))
			return "task-clock, cpu-clock: msec (ns in the CSV and the JSON)";
	return "";
}

static const char *test_label(const struct mt_comparison *cmp)
{
	return cmp->opts.test == MT_COMPARE_MWU
		       ? "Mann-Whitney U (counters: Welch's t-test, reports keep no samples)"
		       : "Welch's t-test";
}

/*
 * Input i's matrix at region (sweep --vary pages): its cheapest proven
 * sizes into *m, their rows into rows. false: no such matrix there.
 */
static bool matrix_at(const struct mt_comparison *cmp, unsigned int i, uint64_t region,
		      struct mt_matrix_row *rows, struct mt_matrix *m)
{
	const struct mt_report *rep = cmp->reps[i];
	struct mt_matrix mats[MATRIX_MAX];
	size_t nr;
	int n = mt_matrix_build(rep, mt_report_default_phase(rep), rows, MATRIX_ROWS, &nr, mats,
				MATRIX_MAX);

	for (int g = 0; g < n; g++) {
		if (mats[g].region == region) {
			*m = mats[g];
			return true;
		}
	}
	return false;
}

/* The regions of the base's page-size matrices, into regions; how many. */
static size_t matrix_regions(const struct mt_comparison *cmp, uint64_t *regions, size_t max)
{
	const struct mt_report *rep = cmp->reps[0];
	struct mt_matrix_row rows[MATRIX_ROWS];
	struct mt_matrix mats[MATRIX_MAX];
	size_t nr;
	int n = mt_matrix_build(rep, mt_report_default_phase(rep), rows, MATRIX_ROWS, &nr, mats,
				MATRIX_MAX);

	for (int g = 0; g < n && (size_t)g < max; g++)
		regions[g] = mats[g].region;
	return n > 0 ? (size_t)(n < (int)max ? n : (int)max) : 0;
}

/*
 * A size's row in a matrix by its --pages value; NULL: not measured there.
 */
static const struct mt_matrix_row *matrix_row(const struct mt_matrix_row *rows,
					      const struct mt_matrix *m, const char *pages)
{
	for (size_t k = m->first; k < m->first + m->n; k++)
		if (!strcmp(rows[k].pages, pages))
			return &rows[k];
	return NULL;
}

/* b - a, absent (NAN) where either is. */
static double delta(double a, double b)
{
	return isfinite(a) && isfinite(b) ? b - a : NAN;
}

/*
 * Where both matrices were split by a roofline calibration: each size's
 * change of first touch per fault, new less base, by part, so that a
 * faster clear shows as the zeroing part and a slower entry as the floor.
 */
static void print_touch_parts(FILE *f, const struct mt_comparison *cmp, uint64_t region,
			      bool md)
{
	struct mt_matrix_row base[MATRIX_ROWS], rows[MATRIX_ROWS];
	struct mt_matrix mb, m;

	if (!cmp->reps[0]->roofline.measured || !matrix_at(cmp, 0, region, base, &mb))
		return;
	for (unsigned int i = 1; i < cmp->n_inputs; i++) {
		if (!cmp->reps[i]->roofline.measured || !matrix_at(cmp, i, region, rows, &m))
			continue;
		fprintf(f, md ? "\nfirst touch per fault, new[%u] - base, by part (ns):\n\n"
				"| pages | total | zero | floor | rest |\n|:---|---:|---:|---:|---:|\n"
			      : "first touch per fault, new[%u] - base, by part (ns)\n"
				"%-12s %11s %9s %9s %11s\n", i, "pages", "total", "zero", "floor",
			"rest");
		for (size_t k = mb.first; k < mb.first + mb.n; k++) {
			const struct mt_matrix_row *a = &base[k];
			const struct mt_matrix_row *b = matrix_row(rows, &m, a->pages);
			char pg[MT_SAFE_MAX], c[4][32];
			double d[4];

			if (!b)
				continue;
			d[0] = delta(a->fault_ns, b->fault_ns);
			d[1] = delta(a->split.zero_ns, b->split.zero_ns);
			d[2] = delta(a->split.floor_ns, b->split.floor_ns);
			d[3] = a->split.inconsistent || b->split.inconsistent ? NAN :
			       delta(a->split.rest_ns, b->split.rest_ns);
			for (int j = 0; j < 4; j++)
				snprintf(c[j], sizeof(c[j]), isfinite(d[j]) ? "%+.1f" : "-", d[j]);
			mt_cell_safe(pg, sizeof(pg), a->pages);
			fprintf(f, md ? "| %s | %s | %s | %s | %s |\n" : "%-12s %11s %9s %9s %11s\n",
				pg, c[0], c[1], c[2], c[3]);
		}
		if (!md)
			fputc('\n', f);
	}
}

/*
 * Where the inputs are page-size matrices, what each says: the cheapest
 * proven size for first touch and for steady access, so that a kernel
 * whose best size changed shows it in one line per input (the rows above
 * carry every size's own change).
 */
static void print_page_sizes(FILE *f, const struct mt_comparison *cmp, bool md)
{
	uint64_t regions[MATRIX_MAX];
	size_t nreg = matrix_regions(cmp, regions, MATRIX_MAX);

	for (size_t g = 0; g < nreg; g++) {
		char reg[32];

		mt_size_format_short(regions[g], reg, sizeof(reg));
		fprintf(f, "%spage sizes, region %s: each input's cheapest proven size\n%s", md ?
			"\n#### " : "\n", reg, md ? "\n" : "");
		fprintf(f, md ? "| input | first touch | ns/4KiB | steady | ns/block | +-95%% | "
				"runner-up |\n|:---|:---|---:|:---|---:|---:|:---|\n"
			      : "%-7s %-12s %9s %-12s %9s %7s  %s\n", "input", "first touch",
			"ns/4KiB", "steady", "ns/block", "+-95%", "runner-up");
		for (unsigned int i = 0; i < cmp->n_inputs; i++) {
			struct mt_matrix_row rows[MATRIX_ROWS];
			struct mt_matrix m;
			char who[16], a[MT_SAFE_MAX], b[MT_SAFE_MAX], d[MT_SAFE_MAX];
			char c[MT_SAFE_MAX + 16];

			snprintf(who, sizeof(who), i ? "new[%u]" : "base", i);
			if (!matrix_at(cmp, i, regions[g], rows, &m) || m.touch_best < 0 ||
			    m.steady_best < 0) {
				fprintf(f, md ? "| %s | - | | - | | | |\n" : "%-7s no proven size\n",
					who);
				continue;
			}
			mt_cell_safe(a, sizeof(a), rows[m.touch_best].pages);
			mt_cell_safe(b, sizeof(b), rows[m.steady_best].pages);
			c[0] = 0;
			if (m.steady_next >= 0)
				snprintf(c, sizeof(c), "%s%s", mt_matrix_steady_apart(&m) ? "" :
					 "not apart: ", mt_cell_safe(d, sizeof(d),
					 rows[m.steady_next].pages));
			fprintf(f, md ? "| %s | %s | %.1f | %s | %.3f | %.3f | %s |\n"
				      : "%-7s %-12s %9.1f %-12s %9.3f %7.3f  %s\n", who, a,
				rows[m.touch_best].touch_ns_4k, b, rows[m.steady_best].steady_ns,
				rows[m.steady_best].steady_ci95, c);
		}
		if (!md)
			fputc('\n', f);
		print_touch_parts(f, cmp, regions[g], md);
	}
}

/* The same as JSON: per region of the base's matrices, each input's best. */
static json_t *page_sizes_json(const struct mt_comparison *cmp)
{
	uint64_t regions[MATRIX_MAX];
	size_t nreg = matrix_regions(cmp, regions, MATRIX_MAX);
	json_t *out = json_array();

	for (size_t g = 0; out && g < nreg; g++) {
		json_t *inputs = json_array();

		for (unsigned int i = 0; inputs && i < cmp->n_inputs; i++) {
			struct mt_matrix_row rows[MATRIX_ROWS];
			struct mt_matrix m;
			json_t *o = json_object();

			if (o && matrix_at(cmp, i, regions[g], rows, &m) && m.touch_best >= 0 &&
			    m.steady_best >= 0) {
				const struct mt_matrix_row *t = &rows[m.touch_best];
				const struct mt_matrix_row *st = &rows[m.steady_best];

				json_object_set_new(o, "first_touch_best", mt_json_string(t->pages));
				mt_json_set_real(o, "first_touch_ns_per_4k", t->touch_ns_4k);
				json_object_set_new(o, "steady_best", mt_json_string(st->pages));
				mt_json_set_real(o, "steady_ns", st->steady_ns);
				mt_json_set_real(o, "steady_ci95_ns", st->steady_ci95);
				if (m.steady_next >= 0) {
					json_object_set_new(o, "steady_runner_up",
						mt_json_string(rows[m.steady_next].pages));
					json_object_set_new(o, "steady_apart",
						json_boolean(mt_matrix_steady_apart(&m)));
				}
			}
			json_array_append_new(inputs, o);
		}
		json_array_append_new(out, json_pack("{s:I,s:o}", "region",
						     (json_int_t)regions[g], "inputs", inputs));
	}
	return out;
}

/* --explain's shares on the verdict line: at most this many terms, each this big. */
#define EXPLAIN_TOP 3
#define EXPLAIN_MIN_SHARE 0.005

static const char *explain_verdict(const struct mt_explain *e)
{
	return e->fail ? "FAIL" : "PASS";
}

/*
 * "FAIL +9.8% read_4: 87% page size mix (THP 100% -> 0%), 9% residual":
 * the largest terms by share while the line fits WIDTH (the first always).
 */
static void explain_line(char *buf, size_t len, const struct mt_explain *e)
{
	size_t n = (size_t)snprintf(buf, len, "%s %+.1f%% %s:", explain_verdict(e),
				    e->change_pct, e->phase);

	for (int k = 0, shown = 0; k < MT_EXPLAIN_TERMS && e->rank[k] >= 0 && n < len; k++) {
		const struct mt_explain_val *v = &e->term[e->rank[k]];
		char one[160];

		if (shown >= EXPLAIN_TOP || !(fabs(v->share) >= EXPLAIN_MIN_SHARE))
			break;
		snprintf(one, sizeof(one), "%s %.0f%% %s%s%s%s", shown ? "," : "",
			 100.0 * v->share, mt_explain_term_label(e->rank[k]),
			 v->detail[0] ? " (" : "", v->detail, v->detail[0] ? ")" : "");
		/* a term that does not fit with its detail is named without it */
		if (shown && n + strlen(one) > WIDTH)
			snprintf(one, sizeof(one), ", %.0f%% %s", 100.0 * v->share,
				 mt_explain_term_label(e->rank[k]));
		if (shown && n + strlen(one) > WIDTH)
			break;
		n += (size_t)snprintf(buf + n, len - n, "%s", one);
		shown++;
	}
}

/* text, cut at spaces to WIDTH, the lines after the first indented by indent. */
static void explain_wrap(FILE *f, const char *text, int indent)
{
	size_t width = WIDTH, len = strlen(text);
	const char *p = text;

	while (len > width) {
		size_t cut = width;

		while (cut > 0 && p[cut] != ' ')
			cut--;
		if (!cut)
			cut = width;
		fprintf(f, "%.*s\n%*s", (int)cut, p, indent, "");
		p += cut + (p[cut] == ' ');
		len = strlen(p);
		width = WIDTH - (size_t)indent;
	}
	fprintf(f, "%s\n", p);
}

/* ns per block with 4 significant digits and no exponent; "?" when unknown. */
static const char *ns_cell(char *buf, double v, bool sign)
{
	if (!isfinite(v))
		return strcpy(buf, "?");
	if (fabs(v) >= 1e4)
		snprintf(buf, 24, sign ? "%+.0f" : "%.0f", v);
	else
		snprintf(buf, 24, sign ? "%+.4g" : "%.4g", v);
	return buf;
}

static void print_explain(FILE *f, const struct mt_explanation *ex)
{
	char line[512], safe[MT_SAFE_MAX], a[24], b[24], c[24], lo[24], hi[24];

	fputs("\nexplain: each changed ns/block cut into terms that sum to it\n", f);
	if (!ex->n)
		fputs("PASS: no ns/block changed beyond the noise\n", f);
	for (size_t k = 0; k < ex->n; k++) {
		const struct mt_explain *e = &ex->items[k];

		fprintf(f, "%s%s, new[%u]\n", k ? "\n" : "", mt_cell_safe(safe, sizeof(safe),
			e->point[0] ? e->point : "(no parameters)"), e->input);
		snprintf(line, sizeof(line), "%s ns/block: %s -> %s, %s (%s..%s)", e->phase,
			 ns_cell(a, e->base_ns, false), ns_cell(b, e->new_ns, false),
			 ns_cell(c, e->change_ns, true), ns_cell(lo, e->low_ns, true),
			 ns_cell(hi, e->high_ns, true));
		explain_wrap(f, line, 2);
		explain_line(line, sizeof(line), e);
		fprintf(f, "%s\n", line);
		for (int t = 0; t < MT_EXPLAIN_TERMS; t++) {
			const struct mt_explain_val *v = &e->term[t];

			if (v->present)
				snprintf(line, sizeof(line), "  %-14s %9s (%s..%s) %4.0f%%%s%s",
					 mt_explain_term_label(t), ns_cell(c, v->ns, true),
					 ns_cell(lo, v->low, true), ns_cell(hi, v->high, true),
					 100.0 * v->share, v->detail[0] ? "  " : "", v->detail);
			else
				snprintf(line, sizeof(line), "  %-14s absent: %s%s%s%s",
					 mt_explain_term_label(t), v->why, v->detail[0] ? " (" : "",
					 v->detail, v->detail[0] ? ")" : "");
			explain_wrap(f, line, 17);
		}
	}
	fputs("terms: ns/block (95% CI, delta method); share of the change; FAIL: a\n"
	      "  regression beyond the noise, significant after Holm's correction over\n"
	      "  every phase compared (and beyond --fail-above)\n", f);
}

/*
 * A time row whose phase has its ns per block beside it: the same
 * samples scaled, one row for the text to show (--wide, the CSV and the
 * JSON keep both).
 */
static bool twin(const struct mt_comparison *cmp, size_t k0, size_t k1,
		 const struct mt_cmp_row *r)
{
	if (strcmp(r->metric, MT_COMPARE_TIME_METRIC))
		return false;
	for (size_t k = k0; k < k1; k++)
		if (!strcmp(cmp->rows[k].phase, r->phase) &&
		    !strcmp(cmp->rows[k].metric, mt_derived_name(MT_DERIVED_NS_PER_BLOCK)))
			return true;
	return false;
}

/* One point's rows [k0, k1): base, then inputs lo .. hi - 1 against it. */
static void print_point(FILE *f, const struct mt_comparison *cmp, size_t k0, size_t k1,
			unsigned int lo, unsigned int hi, bool md, bool wide)
{
	const struct mt_cmp_row *first = &cmp->rows[k0];
	const char *sep = md ? " | " : "  ";
	char a[320], b[64];
	char safe[MT_SAFE_MAX], ph[MT_SAFE_MAX], met[MT_SAFE_MAX];

	if (md) {
		fprintf(f, "#### %s\n\n| base", mt_cell_safe(safe, sizeof(safe), first->point));
		for (unsigned int i = lo; i < hi; i++)
			fprintf(f, " | %%change | new[%u]", i);
		fprintf(f, " | metric |\n|---:");
		for (unsigned int i = lo; i < hi; i++)
			fprintf(f, "|---:|---:");
		fprintf(f, "|:---|\n");
	} else {
		fprintf(f, "%s\n%*s", mt_cell_safe(safe, sizeof(safe), first->point),
			VALW, "base");
		for (unsigned int i = lo; i < hi; i++)
			fprintf(f, "  %*s  %*s%u]", CHGW, "%change", VALW - 2, "new[", i);
		fprintf(f, "  metric\n");
	}
	for (size_t k = k0; k < k1; k++) {
		const struct mt_cmp_row *r = &cmp->rows[k];

		if (!wide && (!counted(cmp, r) || twin(cmp, k0, k1, r)))
			continue;
		value_cell(a, sizeof(a), r, &r->side[0]);
		if (md)
			fprintf(f, "| %s", a);
		else
			fprintf(f, "%*s", VALW, a);
		for (unsigned int i = lo; i < hi; i++) {
			/* unmarked cells padded: the numbers stay in line */
			change_cell(a, sizeof(a), r, &r->side[i], md ? " \\*" : " *");
			if (!md && !r->side[i].changed && r->side[i].have_change)
				strcat(a, "  ");
			value_cell(b, sizeof(b), r, &r->side[i]);
			if (md)
				fprintf(f, "%s%s%s%s", sep, a, sep, b);
			else
				fprintf(f, "%s%*s%s%*s", sep, CHGW, a, sep, VALW, b);
		}
		fprintf(f, "%s%s.%s%s\n", sep, mt_cell_safe(ph, sizeof(ph), r->phase),
			mt_cell_safe(met, sizeof(met), r->metric), md ? " |" : "");
	}
}

static void print_text(FILE *f, const struct mt_comparison *cmp, bool md, bool wide,
		       const struct mt_explanation *ex)
{
	char a[320], safe[MT_SAFE_MAX];

	for (unsigned int i = 0; i < cmp->n_inputs; i++) {
		side_label(a, sizeof(a), cmp, i);
		if (i)
			fprintf(f, "%snew[%u]: %s\n", md ? "- " : "", i, a);
		else
			fprintf(f, "%sbase: %s\n", md ? "- " : "", a);
	}
	fputc('\n', f);
	/* Text: the warnings went to stderr before the table (cli). */
	for (size_t k = 0; md && k < cmp->n_warnings; k++)
		fprintf(f, "> warning: %s\n", cmp->warnings[k]);
	for (size_t k = 0; k < cmp->n_lonely; k++)
		fprintf(f, "%spoint %s\n", md ? "> " : "",
			mt_cell_safe(safe, sizeof(safe), cmp->lonely[k]));
	if ((md && cmp->n_warnings) || cmp->n_lonely)
		fputc('\n', f);

	for (size_t k0 = 0, k1; k0 < cmp->n_rows; k0 = k1) {
		/* two inputs fit 80 columns: more are shown a new one at a time */
		unsigned int step = md || wide || cmp->n_inputs <= 2 ? cmp->n_inputs : 2;
		char *left;

		k1 = point_end(cmp, k0);
		if (k0)
			fputc('\n', f);
		for (unsigned int lo = 1; lo < cmp->n_inputs; lo += step - 1) {
			unsigned int hi = lo + step - 1 < cmp->n_inputs ? lo + step - 1
									 : cmp->n_inputs;

			if (lo > 1)
				fputc('\n', f);
			print_point(f, cmp, k0, k1, lo, hi, md, wide);
		}		left = wide ? NULL : uncounted(cmp, k0, k1);
		if (left && left[0]) {
			mt_cell_safe(safe, sizeof(safe), left);
			if (md)
				fputc('\n', f);
			wrapped(f, "no input counted (--wide shows them):", safe);
		}
		free(left);
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
	print_page_sizes(f, cmp, md);
	if (md)
		fputc('\n', f);
	fprintf(f, "~ cv over iterations; +- half the 95%% CI of the change (delta method)\n"
		   "%s changed: p < %.2f and beyond the %g%% noise threshold; abs: near-zero "
		   "base\ntest: %s\n", md ? "\\*" : "*", MT_COMPARE_ALPHA, cmp->opts.noise_pct,
		test_label(cmp));
	fprintf(f, "spread: %s\n", cmp->between_runs ?
		"between runs (--runs on every side: each run's mean a sample, Welch)" :
		"within the run (over its iterations)");
	if (legend_emulated(cmp)[0])
		fprintf(f, "%s\n", legend_emulated(cmp));
	if (legend_clock(cmp)[0])
		fprintf(f, "%s\n", legend_clock(cmp));
	if (ex && md)
		fputs("\n```", f);
	if (ex)
		print_explain(f, ex);
	if (ex && md)
		fputs("```\n", f);
}

static void html(FILE *f, const char *s)
{
	mt_cell_html(f, s);
}

static const char html_head[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
	"<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	"<meta charset=\"UTF-8\"/>\n<title>memtlb compare</title>\n<style>\n"
	"body { font-family: sans-serif; margin: 2em; }\n"
	"table { border-collapse: collapse; margin: 0.5em 0 1.5em; }\n"
	"th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: right; }\n"
	"td.metric { text-align: left; }\n.changed { font-weight: bold; }\n"
	"</style>\n</head>\n<body>\n<h1>memtlb compare</h1>\n";

void mt_compare_print_html_body(FILE *f, const struct mt_comparison *cmp, bool wide)
{
	char a[320], b[64];

	fputs("<ul>\n", f);
	for (unsigned int i = 0; i < cmp->n_inputs; i++) {
		side_label(a, sizeof(a), cmp, i);
		if (i)
			fprintf(f, "<li>new[%u]: ", i);
		else
			fputs("<li>base: ", f);
		html(f, a);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (cmp->n_warnings || cmp->n_lonely) {
		fputs("<ul class=\"warnings\">\n", f);
		for (size_t k = 0; k < cmp->n_warnings; k++) {
			fputs("<li>warning: ", f);
			html(f, cmp->warnings[k]);
			fputs("</li>\n", f);
		}
		for (size_t k = 0; k < cmp->n_lonely; k++) {
			fputs("<li>point ", f);
			html(f, cmp->lonely[k]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	for (size_t k0 = 0, k1; k0 < cmp->n_rows; k0 = k1) {
		char *left;

		k1 = point_end(cmp, k0);
		fputs("<h2>", f);
		html(f, cmp->rows[k0].point[0] ? cmp->rows[k0].point : "(no parameters)");
		fputs("</h2>\n<table>\n<tr><th>base</th>", f);
		for (unsigned int i = 1; i < cmp->n_inputs; i++)
			fprintf(f, "<th>%%change</th><th>new[%u]</th>", i);
		fputs("<th>metric</th></tr>\n", f);
		for (size_t k = k0; k < k1; k++) {
			const struct mt_cmp_row *r = &cmp->rows[k];

			if (!wide && !counted(cmp, r))
				continue;
			value_cell(a, sizeof(a), r, &r->side[0]);
			fprintf(f, "<tr><td>%s</td>", a);
			for (unsigned int i = 1; i < cmp->n_inputs; i++) {
				const struct mt_cmp_side *s = &r->side[i];

				change_cell(a, sizeof(a), r, s, " *");
				value_cell(b, sizeof(b), r, s);
				fprintf(f, "<td%s>%s</td><td>%s</td>",
					s->changed ? " class=\"changed\"" : "", a, b);
			}
			fputs("<td class=\"metric\">", f);
			html(f, r->phase);
			fputc('.', f);
			html(f, r->metric);
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
		left = wide ? NULL : uncounted(cmp, k0, k1);
		if (left && left[0]) {
			fputs("<p>No input counted: ", f);
			html(f, left);
			fputs(".</p>\n", f);
		}
		free(left);
	}
	fputs("<ul>\n", f);
	for (int fam = 0; fam < MT_FAMILY_MAX; fam++)
		for (unsigned int i = 1; i < cmp->n_inputs; i++)
			if (cmp->geomean_n[i][fam])
				fprintf(f, "<li>geomean new[%u]/base, %s: %+.1f%% (%u metrics)</li>\n",
					i, mt_family_name(fam), cmp->geomean[i][fam],
					cmp->geomean_n[i][fam]);
	fprintf(f, "<li>~ cv over iterations; +- half the 95%% CI of the change (delta "
		   "method); * changed: p &lt; %.2f and beyond the %g%% noise threshold; abs: "
		   "absolute change (near-zero base); test: %s</li>\n",
		MT_COMPARE_ALPHA, cmp->opts.noise_pct, test_label(cmp));
	if (legend_emulated(cmp)[0])
		fprintf(f, "<li>%s</li>\n", legend_emulated(cmp));
	if (legend_clock(cmp)[0])
		fprintf(f, "<li>%s</li>\n", legend_clock(cmp));
	fputs("</ul>\n", f);
}

static void print_html(FILE *f, const struct mt_comparison *cmp, bool wide)
{
	fputs(html_head, f);
	mt_compare_print_html_body(f, cmp, wide);
	fputs("</body>\n</html>\n", f);
}

static void print_csv(FILE *f, const struct mt_comparison *cmp)
{
	fprintf(f, "point,phase,metric,family,input,base_mean,base_cv,base_n,base_status,"
		   "new_mean,new_cv,new_n,new_status,change,change_unit,p,significant,"
		   "regression,ci_low,ci_high,changed,test\n");
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
				fprintf(f, "%.17g,%.17g,%zu,ok,", b->s.mean, b->s.cv, b->s.n);
			else
				fprintf(f, ",,,%s,", state_name(b->state));
			if (n->state == MT_SIDE_OK)
				fprintf(f, "%.17g,%.17g,%zu,ok,", n->s.mean, n->s.cv, n->s.n);
			else
				fprintf(f, ",,,%s,", state_name(n->state));
			if (n->have_change)
				fprintf(f, "%.17g,%s,", n->change, n->absolute ? "abs" : "%");
			else
				fprintf(f, ",%s,", n->emulated ? "emulated" : "");
			if (n->tested)
				fprintf(f, "%.17g,%d,%d,", n->p, n->significant, n->regression);
			else
				fprintf(f, ",,,");
			if (n->have_ci)
				fprintf(f, "%.17g,%.17g,", n->ci_low, n->ci_high);
			else
				fprintf(f, ",,");
			if (n->tested)
				fprintf(f, "%d,%s\n", n->changed, mt_compare_test_name(n->test));
			else
				fprintf(f, ",\n");
		}
	}
}


static json_t *side_json(const struct mt_cmp_side *s, bool base)
{
	json_t *o = json_pack("{s:s}", "status", state_name(s->state));

	if (!o)
		return NULL;
	if (s->state == MT_SIDE_OK) {
		/* a number not had (a hostile report's 1e308 scaled to inf): no key */
		mt_json_set_real(o, "mean", s->s.mean);
		if (s->s.n) {
			mt_json_set_real(o, "stddev", s->s.stddev);
			mt_json_set_real(o, "cv", s->s.cv);
			json_object_set_new(o, "n", json_integer((json_int_t)s->s.n));
		}
	}
	if (!base && s->emulated)
		json_object_set_new(o, "emulated", json_true());
	if (base || !s->have_change)
		return o;
	mt_json_set_real(o, s->absolute ? "change_abs" : "change_pct", s->change);
	if (s->have_ci && isfinite(s->ci_low) && isfinite(s->ci_high))
		json_object_set_new(o, s->absolute ? "ci_abs" : "ci_pct",
				    json_pack("[f,f]", s->ci_low, s->ci_high));
	if (s->tested) {
		json_object_set_new(o, "test", json_string(mt_compare_test_name(s->test)));
		mt_json_set_real(o, "p", s->p);
		json_object_set_new(o, "significant", json_boolean(s->significant));
		json_object_set_new(o, "changed", json_boolean(s->changed));
		json_object_set_new(o, "regression", json_boolean(s->regression));
	}
	return o;
}

static json_t *interval(double low, double high)
{
	return isfinite(low) && isfinite(high) ? json_pack("[f,f]", low, high) : json_null();
}

/* --explain's items: the verdict, the change, every term or why it is absent. */
static json_t *explain_json(const struct mt_explanation *ex)
{
	json_t *out = json_array();
	char line[512];

	for (size_t k = 0; out && k < ex->n; k++) {
		const struct mt_explain *e = &ex->items[k];
		json_t *o = json_object(), *terms = json_array();

		if (!o || !terms) {
			json_decref(o);
			json_decref(terms);
			json_decref(out);
			return NULL;
		}
		explain_line(line, sizeof(line), e);
		json_object_set_new(o, "point", mt_json_string(e->point));
		json_object_set_new(o, "phase", mt_json_string(e->phase));
		json_object_set_new(o, "input", json_integer(e->input));
		json_object_set_new(o, "verdict", json_string(explain_verdict(e)));
		json_object_set_new(o, "summary", mt_json_string(line));
		mt_json_set_real(o, "base_ns", e->base_ns);
		mt_json_set_real(o, "new_ns", e->new_ns);
		mt_json_set_real(o, "change_ns", e->change_ns);
		mt_json_set_real(o, "change_pct", e->change_pct);
		json_object_set_new(o, "ci_ns", interval(e->low_ns, e->high_ns));
		json_object_set_new(o, "ci_method", json_string("delta"));
		for (int t = 0; t < MT_EXPLAIN_TERMS; t++) {
			const struct mt_explain_val *v = &e->term[t];
			json_t *x = json_pack("{s:s}", "term", mt_explain_term_key(t));

			if (!x)
				continue;
			if (v->present) {
				mt_json_set_real(x, "ns", v->ns);
				json_object_set_new(x, "ci_ns", interval(v->low, v->high));
				mt_json_set_real(x, "share", v->share);
			} else {
				json_object_set_new(x, "absent", json_string(v->why));
			}
			if (v->detail[0])
				json_object_set_new(x, "detail", json_string(v->detail));
			json_array_append_new(terms, x);
		}
		json_object_set_new(o, "terms", terms);
		json_array_append_new(out, o);
	}
	return out;
}

static int print_json(FILE *f, const struct mt_comparison *cmp,
		      const struct mt_explanation *ex)
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
				mt_json_set_real(g, mt_family_name(fam), cmp->geomean[i][fam]);
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
	/* memtlb.schema as in a report: a consumer checks one number for both. */
	root = json_pack("{s:{s:s,s:i},s:s,s:f,s:f,s:s,s:o,s:o,s:o,s:o,s:o,s:f}",
			 "memtlb", "version", MEMTLB_VERSION, "schema", MT_REPORT_SCHEMA,
			 "command", "compare", "alpha", MT_COMPARE_ALPHA,
			 "noise_pct", cmp->opts.noise_pct, "test",
			 mt_compare_test_name(cmp->opts.test), "inputs", inputs, "warnings", warn,
			 "points_not_in_all", lonely, "rows", rows, "geomean_change_pct", geo,
			 "worst_regression_pct", mt_compare_worst(cmp));
	if (!root)
		return -ENOMEM;
	if (json_object_set_new(root, "spread", json_string(cmp->between_runs ? "between-runs" :
								  "within-run")) ||
	    json_object_set_new(root, "page_sizes", page_sizes_json(cmp)) ||
	    (ex && json_object_set_new(root, "explain", explain_json(ex)))) {
		json_decref(root);
		return -ENOMEM;
	}
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ? -EIO : 0;
	fputc('\n', f);
	json_decref(root);
	return ret;
}

int mt_compare_print_explained(FILE *f, const struct mt_comparison *cmp,
			       const struct mt_explanation *ex, enum mt_format fmt, bool wide)
{
	switch (fmt) {
	case MT_FORMAT_TEXT:
		print_text(f, cmp, false, wide, ex);
		return 0;
	case MT_FORMAT_MARKDOWN:
		print_text(f, cmp, true, wide, ex);
		return 0;
	case MT_FORMAT_HTML:
		if (ex)
			return -EINVAL;
		print_html(f, cmp, wide);
		return 0;
	case MT_FORMAT_CSV:
		if (ex)
			return -EINVAL;
		print_csv(f, cmp);
		return 0;
	case MT_FORMAT_JSON:
		return print_json(f, cmp, ex);
	default:
		break;
	}
	return -EINVAL;
}

int mt_compare_print_wide(FILE *f, const struct mt_comparison *cmp,
			  enum mt_format fmt, bool wide)
{
	return mt_compare_print_explained(f, cmp, NULL, fmt, wide);
}

int mt_compare_print(FILE *f, const struct mt_comparison *cmp, enum mt_format fmt)
{
	return mt_compare_print_wide(f, cmp, fmt, false);
}
