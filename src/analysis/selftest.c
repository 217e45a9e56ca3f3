// SPDX-License-Identifier: MIT
/*
 * memtlb selftest's rules: pure functions of a result, a report or a curve
 * and the machine's geometry (analysis/selftest.h, memtlb-selftest(1)).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/selftest.h"
#include "analysis/series.h"
#include "model/size.h"

/* Every check's name, once: KTAP's test names, the man page's list. */
static const struct mt_selftest_desc checks[MT_SELFTEST_N] = {
	[MT_SELFTEST_FAULTS_ANON_BASE] = { "faults_anon_base", MT_SELFTEST_KIND_FAULTS,
					   MT_BACKING_ANON, MT_PAGES_BASE },
	[MT_SELFTEST_FAULTS_ANON_THP] = { "faults_anon_thp", MT_SELFTEST_KIND_FAULTS,
					  MT_BACKING_ANON, MT_PAGES_THP },
	[MT_SELFTEST_FAULTS_SHARED_BASE] = { "faults_shared_base", MT_SELFTEST_KIND_FAULTS,
					     MT_BACKING_SHARED, MT_PAGES_BASE },
	[MT_SELFTEST_FAULTS_SHARED_THP] = { "faults_shared_thp", MT_SELFTEST_KIND_FAULTS,
					    MT_BACKING_SHARED, MT_PAGES_THP },
	[MT_SELFTEST_FAULTS_MEMFD_BASE] = { "faults_memfd_base", MT_SELFTEST_KIND_FAULTS,
					    MT_BACKING_MEMFD, MT_PAGES_BASE },
	[MT_SELFTEST_FAULTS_MEMFD_THP] = { "faults_memfd_thp", MT_SELFTEST_KIND_FAULTS,
					   MT_BACKING_MEMFD, MT_PAGES_THP },
	[MT_SELFTEST_TLB_LEVELS] = { "tlb_levels_bracket_cpuid", MT_SELFTEST_KIND_LEVELS },
	[MT_SELFTEST_KNEES_EXPLAINED] = { "knees_explained", MT_SELFTEST_KIND_KNEES },
	[MT_SELFTEST_KNEES_AT_REACH] = { "knees_at_reach", MT_SELFTEST_KIND_KNEES },
};

const struct mt_selftest_desc *mt_selftest_desc(enum mt_selftest_check id)
{
	return (unsigned int)id < MT_SELFTEST_N ? &checks[id] : NULL;
}

void mt_selftest_init(struct mt_selftest_result *out)
{
	memset(out, 0, sizeof(*out));
	out->verdict = MT_SELFTEST_SKIP;
}

void mt_selftest_set(struct mt_selftest_result *out, enum mt_selftest_verdict v,
		     const char *fmt, ...)
{
	va_list ap;

	out->verdict = v;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof(out->reason), fmt, ap);
	va_end(ap);
}

void mt_selftest_diag(struct mt_selftest_result *out, const char *fmt, ...)
{
	va_list ap;

	if (out->n_diag >= MT_SELFTEST_DIAG_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(out->diag[out->n_diag++], MT_SELFTEST_TEXT, fmt, ap);
	va_end(ap);
}

int mt_selftest_judge_faults(const struct mt_result *r, uint64_t base_page, uint64_t huge_page,
			     bool huge, struct mt_selftest_result *out)
{
	const struct mt_phase_stat *ps = mt_result_phase(r, "write_0");
	const struct mt_mapinfo *m = &r->map;
	int e = mt_result_event_index(r, "minor-faults");
	const struct mt_counter_stat *cs;
	uint64_t page = huge ? huge_page : base_page, expected;
	char rs[24], ps_[24];
	double got;

	mt_selftest_init(out);
	if (!ps || e < 0 || !page) {
		mt_selftest_set(out, MT_SELFTEST_SKIP, "no write_0 phase or minor-faults event");
		return 0;
	}
	cs = &ps->counters[e];
	if (cs->state != MT_COUNTER_OK || !cs->s.n) {
		mt_selftest_set(out, MT_SELFTEST_SKIP, "minor-faults not counted here");
		return 0;
	}
	/*
	 * A huge page is only expected where the page scan proves it: the
	 * kernel may refuse THP (shmem_enabled never, fragmentation), and
	 * that is the machine's policy, not a wrong count.
	 */
	if (huge && (!m->scanned || !m->scan.len)) {
		mt_selftest_set(out, MT_SELFTEST_SKIP, "THP not proven: the page scan could not "
				"read this mapping");
		return 0;
	}
	if (huge && m->scan.huge < m->scan.len) {
		mt_size_format(m->scan.huge, rs, sizeof(rs));
		mt_size_format(m->scan.len, ps_, sizeof(ps_));
		mt_selftest_set(out, MT_SELFTEST_SKIP, "THP not obtained: %s of %s mapped huge%s%s",
				rs, ps_, m->verdict[0] ? "; " : "", m->verdict);
		return 0;
	}
	/* base pages asked for and the scan says otherwise: no count to expect */
	if (!huge && m->page_check < 0) {
		mt_selftest_set(out, MT_SELFTEST_SKIP, "not mapped as requested: %s", m->verdict);
		return 0;
	}
	expected = r->region / page;
	got = cs->s.median;
	mt_size_format(r->region, rs, sizeof(rs));
	mt_size_format(page, ps_, sizeof(ps_));
	mt_selftest_diag(out, "write_0 minor faults: median %.0f (min %.0f, max %.0f, %zu "
			 "iterations), expected %llu (%s / %s)", got, cs->s.min, cs->s.max, cs->s.n, (unsigned long long)expected, rs, ps_);
	/* the median: one iteration's stray fault (a page of the stack) is not the kernel's */
	if (fabs(got - (double)expected) < 0.5)
		out->verdict = MT_SELFTEST_PASS;
	else
		mt_selftest_set(out, MT_SELFTEST_FAIL, "write_0: %.0f minor faults, expected %llu "
				"(%s / %s)", got, (unsigned long long)expected, rs, ps_);
	return 0;
}

static int level_number(const char *name)
{
	return name[0] == 'L' && name[1] >= '1' && name[1] <= '9' ? name[1] - '0' : 0;
}

int mt_selftest_judge_levels(const struct mt_reach *probe, size_t n_probe,
			     const struct mt_reach *cpuid, size_t n_cpuid, uint64_t page,
			     const char *no_step, struct mt_selftest_result *out)
{
	size_t have = 0, judged = 0, failed = 0;

	mt_selftest_init(out);
	for (size_t k = 0; k < n_cpuid; k++)
		have += cpuid[k].page_size == page;
	if (!have) {
		mt_selftest_set(out, MT_SELFTEST_SKIP, "cpuid reports no data TLB level of %llu "
				"KiB pages", (unsigned long long)(page >> 10));
		return 0;
	}
	for (size_t i = 0; i < n_probe; i++) {
		const struct mt_reach *m = &probe[i];

		if (m->page_size != page || !level_number(m->name))
			continue;
		for (size_t k = 0; k < n_cpuid; k++) {
			const struct mt_reach *c = &cpuid[k];
			/*
			 * The step spreads over a range (the stack, the code and
			 * the page tables hold entries; a set-associative level
			 * misses before it is full): a margin around the measured
			 * range, stated in the man page, so that one run's drift
			 * does not flip the verdict.
			 */
			double lo = floor((double)m->entries_min * (1 - MT_SELFTEST_LEVEL_MARGIN));
			double hi = ceil((double)m->entries_max * (1 + MT_SELFTEST_LEVEL_MARGIN));
			bool in = (double)c->entries_max >= lo && (double)c->entries_max <= hi;

			if (!mt_reach_same_level(m, c))
				continue;
			judged++;
			failed += !in;
			mt_selftest_diag(out, "%s: cpuid %llu entries, probe %llu..%llu, bounds "
					 "%.0f..%.0f: %s", c->name, (unsigned long long)c->entries_max,
					 (unsigned long long)m->entries_min,
					 (unsigned long long)m->entries_max, lo, hi,
					 in ? "within" : "outside");
			if (!in && out->verdict != MT_SELFTEST_FAIL)
				mt_selftest_set(out, MT_SELFTEST_FAIL, "%s: cpuid's %llu entries outside "
						"the probe's %llu..%llu (+-%.0f%%)", c->name,
						(unsigned long long)c->entries_max,
						(unsigned long long)m->entries_min,
						(unsigned long long)m->entries_max,
						MT_SELFTEST_LEVEL_MARGIN * 100);
			break;
		}
	}
	/* cpuid's levels the probe did not see: said, not judged (a step below the ratio) */
	for (size_t k = 0; k < n_cpuid; k++) {
		bool seen = false;

		for (size_t i = 0; i < n_probe && !seen; i++)
			seen = probe[i].page_size == page && mt_reach_same_level(&probe[i], &cpuid[k]);
		if (cpuid[k].page_size == page && !seen)
			mt_selftest_diag(out, "%s: cpuid %llu entries, no step of the probe's for it",
					 cpuid[k].name, (unsigned long long)cpuid[k].entries_max);
	}
	if (!judged)
		mt_selftest_set(out, MT_SELFTEST_SKIP, "%s", n_probe ?
				"no level of the probe's has a cpuid counterpart" :
				no_step && no_step[0] ? no_step : "the probe found no step");
	else if (!failed)
		out->verdict = MT_SELFTEST_PASS;
	return 0;
}

/* The bytes a region's touched lines take in a cache: one line a block, or all of it. */
static uint64_t lines_bytes(uint64_t region, uint64_t block)
{
	return block > 64 ? region / block * 64 : region;
}

/* A data or unified cache whose size f(lo) stays within and f(hi) exceeds. */
static const struct mt_cache *crossed(const struct mt_sysinfo *si, uint64_t a, uint64_t b)
{
	for (unsigned int i = 0; si && i < si->n_caches; i++) {
		const struct mt_cache *c = &si->caches[i];

		if (strcmp(c->type, "instruction") && a <= c->size && b > c->size)
			return c;
	}
	return NULL;
}

/*
 * The regions around knee k: one sweep step of margin either side, since
 * where in a step a reach lies is not known (and the stack, the code and
 * the page tables hold entries too).
 */
static void window(const struct mt_selftest_curve *c, const struct mt_knee *k, uint64_t *lo,
		   uint64_t *hi)
{
	*lo = (uint64_t)c->x[k->before ? k->before - 1 : 0];
	*hi = (uint64_t)c->x[k->after + 1 < c->n ? k->after + 1 : c->n - 1];
}

/* What explains the knee k of c, into buf; false when nothing does. */
static bool explain(const struct mt_selftest_curve *c, const struct mt_knee *k,
		    const struct mt_reach *lv, size_t n_lv, const struct mt_sysinfo *si, char *buf,
		    size_t len)
{
	uint64_t lo, hi;
	const struct mt_cache *ca;
	char d[128], name[16];

	window(c, k, &lo, &hi);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n_lv; i++) {
			/* TLB levels first, then the page-walk caches a probe measured */
			bool tlb = level_number(lv[i].name) > 0;

			if (lv[i].page_size != c->page || tlb == (pass == 1))
				continue;
			if (mt_reach_max(&lv[i]) >= lo && mt_reach_min(&lv[i]) <= hi) {
				mt_reach_describe(&lv[i], d, sizeof(d));
				snprintf(buf, len, "%s%s", pass ? "page-walk cache: " : "", d);
				return true;
			}
		}
	}
	ca = crossed(si, mt_reach_pt_bytes(lo, c->page), mt_reach_pt_bytes(hi, c->page));
	if (ca) {
		mt_sysinfo_cache_name(ca, name, sizeof(name));
		snprintf(buf, len, "page tables leave %s", name);
		return true;
	}
	ca = crossed(si, lines_bytes(lo, c->block), lines_bytes(hi, c->block));
	if (ca) {
		mt_sysinfo_cache_name(ca, name, sizeof(name));
		snprintf(buf, len, "the touched lines leave %s", name);
		return true;
	}
	return false;
}

static void knee_text(const struct mt_selftest_curve *c, const struct mt_knee *k, char *buf,
		      size_t len)
{
	char a[24], b[24];

	mt_size_format_short((uint64_t)c->x[k->before], a, sizeof(a));
	mt_size_format_short((uint64_t)c->x[k->after], b, sizeof(b));
	snprintf(buf, len, "%s%sx%.2f at %s -> %s", c->label && c->label[0] ? c->label : "",
		 c->label && c->label[0] ? ": " : "", k->step, a, b);
}

/* Whether a reach range overlaps a knee's step with one step either side. */
static bool near_step(const struct mt_selftest_curve *c, const struct mt_knee *k,
		      const struct mt_reach *l)
{
	uint64_t lo, hi;

	window(c, k, &lo, &hi);
	return mt_reach_max(l) >= lo && mt_reach_min(l) <= hi;
}

/* How far a knee is from a reach, as a factor >= 1 of region. */
static double apart(const struct mt_selftest_curve *c, const struct mt_knee *k,
		    const struct mt_reach *l)
{
	double lo = c->x[k->before], hi = c->x[k->after];

	if ((double)mt_reach_min(l) > hi)
		return (double)mt_reach_min(l) / hi;
	if ((double)mt_reach_max(l) < lo)
		return lo / (double)mt_reach_max(l);
	return 1;
}

static void judge_at_reach(const struct mt_selftest_curve *c, const struct mt_knee *kn, int n_kn,
			   const struct mt_reach *lv, size_t n_lv, struct mt_selftest_result *out)
{
	char d[128], kt[96], r[24];

	for (size_t i = 0; i < n_lv; i++) {
		const struct mt_reach *l = &lv[i];
		const struct mt_knee *best = NULL;
		double best_apart = 0;

		/* a prediction: a TLB level of the pages whose reach lies inside the curve */
		if (l->page_size != c->page || !level_number(l->name) ||
		    (double)mt_reach_max(l) <= c->x[0] || (double)mt_reach_min(l) >= c->x[c->n - 1])
			continue;
		out->n_predicted++;
		for (int k = 0; k < n_kn; k++) {
			double a;

			if (kn[k].uncertain)
				continue;
			a = apart(c, &kn[k], l);
			if (!best || a < best_apart) {
				best = &kn[k];
				best_apart = a;
			}
		}
		mt_reach_describe(l, d, sizeof(d));
		/* a knee a factor of 4 away is another level's, or the caches' */
		if (!best || best_apart > 4) {
			mt_selftest_diag(out, "%s: no knee near it (a step below the ratio)", d);
			continue;
		}
		out->n_judged++;
		knee_text(c, best, kt, sizeof(kt));
		if (near_step(c, best, l)) {
			mt_selftest_diag(out, "%s: knee %s, within one sweep step", d, kt);
			continue;
		}
		out->n_failed++;
		mt_size_format(mt_reach_max(l), r, sizeof(r));
		mt_selftest_diag(out, "%s: knee %s, more than one sweep step away", d, kt);
		if (out->verdict != MT_SELFTEST_FAIL)
			mt_selftest_set(out, MT_SELFTEST_FAIL, "%s: knee %s, more than one sweep "
					"step from its reach %s", l->name, kt, r);
	}
}

int mt_selftest_judge_curve(const struct mt_selftest_curve *c, const struct mt_reach *lv,
			    size_t n_lv, const struct mt_sysinfo *si, const struct mt_knee_opts *ko,
			    struct mt_selftest_result *explained,
			    struct mt_selftest_result *at_reach)
{
	struct mt_knee kn[MT_KNEE_MAX];
	char kt[96], why[160];
	int n_kn;

	if (c->n < 3)
		return 0;
	n_kn = mt_knee_find(c->x, c->y, c->n, ko, kn, MT_KNEE_MAX);
	if (n_kn < 0)
		return n_kn;
	/*
	 * A knee within the noise is judged by no rule: mt_knee_judge's CV
	 * above half the mean, and here a tighter bound on the robust CV of
	 * its two points, so that a rise one run has and the next has not
	 * never decides a verdict.
	 */
	if (n_kn)
		mt_knee_judge(kn, n_kn, c->cv);
	for (int k = 0; k < n_kn; k++)
		if (kn[k].cv > MT_SELFTEST_KNEE_CV)
			kn[k].uncertain = true;
	explained->n_judged++;
	for (int k = 0; k < n_kn; k++) {
		knee_text(c, &kn[k], kt, sizeof(kt));
		if (kn[k].uncertain) {
			mt_selftest_diag(explained, "knee %s: uncertain (CV %.0f%%), not judged", kt,
					 kn[k].cv * 100);
			continue;
		}
		if (explain(c, &kn[k], lv, n_lv, si, why, sizeof(why))) {
			mt_selftest_diag(explained, "knee %s: %s", kt, why);
			continue;
		}
		explained->n_failed++;
		mt_selftest_diag(explained, "knee %s: no TLB level, page-walk cache or cache "
				 "boundary within one step", kt);
		if (explained->verdict != MT_SELFTEST_FAIL)
			mt_selftest_set(explained, MT_SELFTEST_FAIL, "knee %s: no TLB level, "
					"page-walk cache or page-table-in-cache boundary explains it",
					kt);
	}
	if (!n_kn) {
		size_t at = 0;
		double s = mt_knee_largest_step(c->y, c->n, &at);
		char a[24], b[24];

		mt_size_format_short((uint64_t)c->x[at], a, sizeof(a));
		mt_size_format_short((uint64_t)c->x[at + 1 < c->n ? at + 1 : at], b, sizeof(b));
		mt_selftest_diag(explained, "%s%sno knee (largest step x%.2f, %s -> %s)",
				 c->label && c->label[0] ? c->label : "",
				 c->label && c->label[0] ? ": " : "", s, a, b);
	}
	judge_at_reach(c, kn, n_kn, lv, n_lv, at_reach);
	return 0;
}

void mt_selftest_knees_end(struct mt_selftest_result *explained,
			   struct mt_selftest_result *at_reach)
{
	if (explained->verdict != MT_SELFTEST_FAIL) {
		if (explained->n_judged)
			explained->verdict = MT_SELFTEST_PASS;
		else if (!explained->reason[0])
			mt_selftest_set(explained, MT_SELFTEST_SKIP, "no curve of 3 points or more");
	}
	if (at_reach->verdict == MT_SELFTEST_FAIL)
		return;
	if (at_reach->n_judged)
		at_reach->verdict = MT_SELFTEST_PASS;
	else if (!at_reach->n_predicted)
		mt_selftest_set(at_reach, MT_SELFTEST_SKIP, "no TLB level's reach lies within the "
				"sweep's regions");
	else
		mt_selftest_set(at_reach, MT_SELFTEST_SKIP, "no knee near a predicted reach");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A point's spread as a robust CV: 1.4826 x the median absolute deviation
 * over the median (the standard deviation's estimate for normal samples),
 * so that one stretched iteration neither makes a knee uncertain in one run
 * and certain in the next; the summary's CV where the samples are not kept.
 */
static double robust_cv(const struct mt_phase_stat *ps, double fallback)
{
	size_t n = ps->time_ns.n;
	double *d, med, mad;

	if (!ps->time_samples || n < 3)
		return fallback;
	d = malloc(n * sizeof(*d));
	if (!d)
		return fallback;
	memcpy(d, ps->time_samples, n * sizeof(*d));
	qsort(d, n, sizeof(*d), cmp_double);
	med = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(d[i] - med);
	qsort(d, n, sizeof(*d), cmp_double);
	mad = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	free(d);
	return med > 0 ? 1.4826 * mad / med : fallback;
}

int mt_selftest_judge_knees(const struct mt_report *rep, const char *phase,
			    const struct mt_knee_opts *ko, struct mt_selftest_result *explained,
			    struct mt_selftest_result *at_reach)
{
	struct mt_reach lv[2 * MT_REACH_MAX];
	size_t n_lv = mt_reach_levels(rep, lv, 2 * MT_REACH_MAX);
	struct mt_series it;
	double *y = NULL, *cv = NULL;
	int ret;

	mt_selftest_init(explained);
	mt_selftest_init(at_reach);
	if (!phase)
		phase = mt_report_default_phase(rep);
	ret = mt_series_begin(&it, rep, phase, ko);
	if (!ret) {
		y = calloc(rep->n_results ? rep->n_results : 1, sizeof(*y));
		cv = calloc(rep->n_results ? rep->n_results : 1, sizeof(*cv));
		ret = y && cv ? 0 : -ENOMEM;
	}
	while (!ret && (ret = mt_series_next(&it)) > 0) {
		const struct mt_result *first = rep->results[it.idx[0]];
		char key[128];
		struct mt_selftest_curve c = {
			.x = it.x, .y = y, .cv = cv, .n = it.n, .block = first->block,
			.page = mt_reach_page(rep, rep->results[it.idx[it.n - 1]]), .label = key,
		};

		/*
		 * The median time per block, not series' mean: one iteration
		 * an interrupt or a steal stretched must not make or hide a
		 * knee, or two runs of the self-test would disagree.
		 */
		for (size_t k = 0; k < it.n; k++) {
			const struct mt_result *r = rep->results[it.idx[k]];
			const struct mt_phase_stat *ps = mt_result_phase(r, phase);

			y[k] = ps && r->blocks ? ps->time_ns.median / (double)r->blocks : it.y[k];
			if (!(y[k] > 0))
				y[k] = it.y[k];
			cv[k] = ps ? robust_cv(ps, it.cv[k]) : it.cv[k];
		}
		mt_series_key(first, key, sizeof(key));
		ret = mt_selftest_judge_curve(&c, lv, n_lv, &rep->system, &it.ko, explained,
					      at_reach);
		/* a curve the finder refuses (a region twice) is passed over, not fatal */
		if (ret == -EINVAL)
			ret = 0;
	}
	mt_series_end(&it);
	free(y);
	free(cv);
	if (ret == -ENOMEM)
		return ret;
	mt_selftest_knees_end(explained, at_reach);
	return 0;
}
