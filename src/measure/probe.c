// SPDX-License-Identifier: MIT
/*
 * The probe engine: translation cost by a paired design. Every size is
 * chased over one line per base page twice, on the same layout, once with
 * base pages and once with 2 MiB pages, and its lines once packed into few
 * pages, the three interleaved repetition by repetition; base - huge is
 * the translation cost (base - packed where the 2 MiB pages save no TLB
 * entries). Its steps are the TLB levels, refined by bisection and kept
 * only when a fresh measurement shows them again.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "measure/probe.h"
#include "model/result.h"
#include "model/size.h"
#include "stats/ci.h"
#include "stats/stats.h"
#include "stats/steps.h"
#include "stats/welch.h"
#include "sys/mapinfo.h"
#include "sys/sysinfo.h"
#include "workload/chase.h"

#define LINE 64
#define HUGE_2M (2ull << 20)
#define FIRST_PAGES 4
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
/* The main pass and the validation pass draw different chains. */
#define SEED_MAIN 0x9e3779b97f4a7c15ull
#define SEED_CHECK 0xd1b54a32d192ed03ull
/* The order the base variant's pages are first touched in. */
#define SEED_SCATTER 0x94d049bb133111ebull

struct mapping {
	char *map;		/* what mmap returned */
	size_t len;
	char *at;		/* 2 MiB-aligned start */
};

struct probe {
	struct mt_probe_result *res;
	const struct mt_probe_opts *opts;
	struct mt_step_opts so;
	struct mapping base, huge, packed;
	struct mapping contig;	/* --coalesce: base pages, physically contiguous */
	size_t *order;
	size_t max_pages;
};

static const char *const pages_names[MT_PROBE_PAGES_MAX] = {
	[MT_PROBE_PAGES_BASE] = "base",
	[MT_PROBE_PAGES_THP] = "thp",
	[MT_PROBE_PAGES_HUGETLB] = "hugetlb",
};

const char *mt_probe_pages_name(enum mt_probe_pages p)
{
	return (unsigned int)p < MT_PROBE_PAGES_MAX ? pages_names[p] : NULL;
}

void mt_probe_opts_init(struct mt_probe_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = MT_PROBE_PAGES_BASE;
	o->ratio = MT_PROBE_STEP_RATIO;
}

static uint64_t base_page(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

int mt_probe_check(const struct mt_probe_opts *o, uint64_t *max_out, struct mt_msg *msg)
{
	uint64_t page = base_page(), first = FIRST_PAGES * page, max = o->max, need;
	struct mt_mem_limit cg;
	char s[32], h[32];
	bool by_cgroup;
	int64_t avail;

	msg->text[0] = msg->hint[0] = '\0';
	if (!max)
		max = 64ull << 20;
	if (max < first) {
		mt_size_format(first, s, sizeof(s));
		snprintf(msg->text, sizeof(msg->text), "--max: at least %s", s);
		return -EINVAL;
	}
	max = max / page * page;
	if (max / page > (1u << 24)) {
		snprintf(msg->text, sizeof(msg->text), "--max: at most 64g");
		return -EINVAL;
	}
	/*
	 * Two variants and the control, each with 2 MiB to align, all mapped
	 * at once: against the tighter of MemAvailable and the cgroup's limits
	 * (a probe past memory.max is OOM-killed). hugetlb's pages come from
	 * the pool, which neither MemAvailable nor memory.max holds.
	 */
	need = (o->coalesce ? 3 : 2) * max + max / 64 + (o->coalesce ? 8 : 6) * HUGE_2M;
	if (o->kind == MT_PROBE_PAGES_HUGETLB) {
		avail = mt_sys_mem_available();
		by_cgroup = false;
	} else {
		avail = mt_sys_mem_headroom(&cg, &by_cgroup);
	}
	if (avail > 0 && need > (uint64_t)avail) {
		mt_size_format(need, s, sizeof(s));
		mt_size_format((uint64_t)avail, h, sizeof(h));
		if (by_cgroup)
			snprintf(msg->text, sizeof(msg->text),
				 "--max: the probe's mappings (%s) are more than the cgroup leaves "
				 "(%s by %.20s): %.60s", s, h, cg.knob, cg.path);
		else
			snprintf(msg->text, sizeof(msg->text),
				 "--max: the probe's mappings (%s) are more than MemAvailable (%s)",
				 s, h);
		snprintf(msg->hint, sizeof(msg->hint), "a smaller --max: the probe maps "
			 "about twice it");
		return -E2BIG;
	}
	*max_out = max;
	return 0;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t round8(uint64_t v)
{
	return (v + 7) & ~7ull;
}

/* Loads per timed chunk: long enough for the clock, twice the chain past that. */
static uint64_t chunk_of(size_t n)
{
	return round8(n * 2 > (1u << 16) ? n * 2 : (1u << 16));
}

/*
 * One variant's turn: a pass to bring its translations and lines back
 * (the other variant ran last), then the best of three timed chunks:
 * preemption and interrupts only ever add time.
 */
static double turn_ns(void ***p, size_t n, uint64_t chunk)
{
	double best = 1e30;

	*p = mt_chase_run(*p, round8(n));
	for (int c = 0; c < 3; c++) {
		double t = now_ns(), ns;

		*p = mt_chase_run(*p, chunk);
		ns = (now_ns() - t) / (double)chunk;
		if (ns < best)
			best = ns;
	}
	return best;
}

/* The validation pass repeats twice as often: it decides alone. */
#define CHECK_REPS (2 * MT_PROBE_REPS)

struct pair {
	double base[CHECK_REPS], huge[CHECK_REPS], packed[CHECK_REPS];
	double vs_huge[CHECK_REPS], vs_packed[CHECK_REPS];
	double *diff;		/* the translation: one of the two above */
};

/* The variants and the control of n pages, ABCABC by repetition, never at once. */
static void measure_pair(struct probe *pr, size_t n, uint64_t seed, unsigned int reps,
			 struct pair *out)
{
	uint64_t chunk = chunk_of(n);
	void **a, **b, **c;

	mt_chase_link_pair(pr->base.at, pr->huge.at, n, pr->res->page, seed, pr->order, &a, &b);
	c = mt_chase_link(pr->packed.at, n, LINE, seed, pr->order);
	for (unsigned int r = 0; r < reps; r++) {
		out->base[r] = turn_ns(&a, n, chunk);
		out->huge[r] = turn_ns(&b, n, chunk);
		out->packed[r] = turn_ns(&c, n, chunk);
		out->vs_huge[r] = out->base[r] - out->huge[r];
		out->vs_packed[r] = out->base[r] - out->packed[r];
	}
	out->diff = pr->res->vs_packed ? out->vs_packed : out->vs_huge;
	/* The chains are live: the loads cannot be dropped. */
	if (!a || !b || !c)
		out->packed[0] = -1;
}

static void tell(const struct probe *pr, enum mt_probe_event kind,
		 const struct mt_probe_point *pt)
{
	struct mt_probe_progress p = { .kind = kind, .res = pr->res, .point = pt };

	if (pr->opts->progress)
		pr->opts->progress(pr->opts->progress_arg, &p);
}

/* Each variant's first n pages as asked, or the point is refused. */
static bool verified(struct probe *pr, size_t n)
{
	struct mt_probe_result *res = pr->res;
	const char *huge_name = res->kind == MT_PROBE_PAGES_HUGETLB ? "hugetlb" : "thp";
	uint64_t len = (uint64_t)n * res->page;
	struct mt_pagescan s;
	char why[160];

	if (mt_mapinfo_scan(pr->base.at, len, &s) ||
	    !mt_mapinfo_verdict(&s, false, "base", why, sizeof(why)) ||
	    mt_mapinfo_scan(pr->huge.at, len, &s) ||
	    !mt_mapinfo_verdict(&s, true, huge_name, why, sizeof(why))) {
		if (!res->refused++)
			snprintf(res->refused_why, sizeof(res->refused_why), "%s", why);
		return false;
	}
	return true;
}

/* The point's translation against the result's control. */
static void use_control(const struct mt_probe_result *res, struct mt_probe_point *pt)
{
	pt->translation_ns = res->vs_packed ? pt->vs_packed_ns : pt->vs_huge_ns;
	pt->ci95_ns = res->vs_packed ? pt->vs_packed_ci95_ns : pt->vs_huge_ci95_ns;
}

static struct mt_probe_point *find_point(struct mt_probe_result *res, uint64_t pages)
{
	for (size_t i = 0; i < res->n_points; i++)
		if (res->points[i].pages == pages)
			return &res->points[i];
	return NULL;
}

/* The point of n pages (once: a size measured before is kept). */
static struct mt_probe_point *measure(struct probe *pr, size_t n, bool refined)
{
	struct mt_probe_result *res = pr->res;
	struct mt_probe_point pt = { 0 }, *old = find_point(res, n);
	struct pair pa;
	size_t i;

	if (old)
		return old;
	if (res->n_points == MT_PROBE_MAX_POINTS || n < 2 || !verified(pr, n))
		return NULL;
	measure_pair(pr, n, SEED_MAIN, MT_PROBE_REPS, &pa);
	pt.pages = n;
	pt.bytes = (uint64_t)n * res->page;
	pt.reps = MT_PROBE_REPS;
	pt.refined = refined;
	mt_ci_mean95(pa.base, MT_PROBE_REPS, &pt.base_ns, &pt.ci95_ns);
	mt_ci_mean95(pa.huge, MT_PROBE_REPS, &pt.huge_ns, &pt.ci95_ns);
	mt_ci_mean95(pa.packed, MT_PROBE_REPS, &pt.packed_ns, &pt.ci95_ns);
	mt_ci_mean95(pa.vs_huge, MT_PROBE_REPS, &pt.vs_huge_ns, &pt.vs_huge_ci95_ns);
	mt_ci_mean95(pa.vs_packed, MT_PROBE_REPS, &pt.vs_packed_ns, &pt.vs_packed_ci95_ns);
	use_control(res, &pt);
	for (i = res->n_points; i > 0 && res->points[i - 1].pages > n; i--)
		res->points[i] = res->points[i - 1];
	res->points[i] = pt;
	res->n_points++;
	tell(pr, MT_PROBE_POINT, &res->points[i]);
	return &res->points[i];
}

size_t mt_probe_steps(const struct mt_probe_result *r, struct mt_step *out, size_t max)
{
	double y[MT_PROBE_MAX_POINTS], ci[MT_PROBE_MAX_POINTS];
	size_t idx[MT_PROBE_MAX_POINTS], n = 0, ns;
	struct mt_step_opts so;

	mt_step_opts_init(&so);
	so.ratio = r->ratio;
	for (size_t i = 0; i < r->n_points; i++) {
		if (r->points[i].refined)
			continue;
		idx[n] = i;
		y[n] = r->points[i].translation_ns;
		ci[n++] = r->points[i].ci95_ns;
	}
	ns = mt_steps_find(y, ci, n, &so, out, max);
	for (size_t k = 0; k < ns; k++) {
		out[k].before = idx[out[k].before];
		out[k].after = idx[out[k].after];
		out[k].top = idx[out[k].top];
	}
	return ns;
}

/*
 * A step of the grid, narrowed from both ends: where its rise starts (the
 * level still holds every page) and where it reaches half height (half the
 * translations miss). On a sharp step the two meet; on a ramp, where a
 * set-associative level fills set by set, or another SMT thread or the
 * host takes entries, the level's entries lie between them: the range says
 * so rather than a half height that overestimates it.
 */
struct cand {
	uint64_t start;		/* pages: the plateau's last size on the grid */
	uint64_t first, rise;	/* the last size on the plateau, the first over it */
	uint64_t lo, hi;	/* the last size under the half height, the first at it */
	uint64_t top;		/* the rise's top (a ramp's end) */
	double from, to;	/* the plateau below (median), the one above (lowest) */
	bool confirmed;
};

static double min3(double a, double b, double c)
{
	return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/*
 * Bracket a step on the grid (the only points yet): its start, between the
 * plateau's last size and the first above it, and its half height, from
 * the plateau below to the plateau above (the lowest of the top and the
 * two sizes after it, none past the next step: another task's burst adds
 * to the larger sizes' base turns, and the walks' cost keeps growing past
 * the step), the last size under the middle and the first at or over it.
 */
static void bracket(const struct mt_probe_result *res, const struct mt_step *st, size_t k,
		    size_t ns, struct cand *c)
{
	size_t end = k + 1 < ns ? st[k + 1].before : res->n_points - 1, t = st[k].top, i;
	double y1 = res->points[t].translation_ns, y2 = y1, y3 = y1, half;

	if (t + 1 <= end)
		y2 = res->points[t + 1].translation_ns;
	if (t + 2 <= end)
		y3 = res->points[t + 2].translation_ns;
	c->start = c->first = res->points[st[k].before].pages;
	c->rise = res->points[st[k].after].pages;
	c->top = res->points[t].pages;
	c->from = st[k].from;
	c->to = min3(y1, y2, y3);
	c->confirmed = st[k].confirmed;
	half = (c->from + c->to) / 2;
	for (i = st[k].after; i < t && res->points[i].translation_ns < half; i++)
		;
	c->lo = res->points[i - 1].pages;
	c->hi = res->points[i].pages;
}

/*
 * Bisect [*lo, *hi] to an eighth of its lower end (or one page): the middle
 * size is measured and becomes the top when above(it) holds. The steps
 * themselves come from the grid alone: the sizes measured inside a ramp
 * never cut it into levels.
 */
static void bisect(struct probe *pr, const struct cand *c, uint64_t *lo, uint64_t *hi,
		   bool (*above)(const struct probe *, const struct cand *,
				 const struct mt_probe_point *))
{
	while (*hi - *lo > 1 && *hi - *lo > *lo / 8) {
		uint64_t mid = (*lo + *hi) / 2;
		const struct mt_probe_point *m = measure(pr, (size_t)mid, true);

		if (!m)
			break;
		if (above(pr, c, m))
			*hi = mid;
		else
			*lo = mid;
	}
}

/* Off the plateau: by the step ratio, its interval clear of the plateau. */
static bool risen(const struct probe *pr, const struct cand *c, const struct mt_probe_point *m)
{
	return mt_steps_rises(c->from, 0.0, m->translation_ns, m->ci95_ns, &pr->so);
}

static bool at_half(const struct probe *pr, const struct cand *c,
		    const struct mt_probe_point *m)
{
	(void)pr;
	return m->translation_ns >= (c->from + c->to) / 2;
}

static void refine(struct probe *pr, struct cand *c)
{
	if (!c->confirmed)
		return;		/* at the largest size: never a level */
	bisect(pr, c, &c->first, &c->rise, risen);
	bisect(pr, c, &c->lo, &c->hi, at_half);
	/* a noisy middle may put the start above the half height's bracket */
	if (c->first > c->lo)
		c->first = c->lo;
}

static bool named(const struct mt_probe_result *res, const char *name)
{
	for (size_t i = 0; i < res->n_levels; i++)
		if (!strcmp(res->levels[i].name, name))
			return true;
	return false;
}

/*
 * A first-level miss that hits the second level costs a few cycles; a miss
 * of the last level costs a page walk, several accesses. So a first step
 * that rises by WALK_NS or more is the L2 TLB's: the L1 dTLB's step is not
 * there to see (in a guest whose host backs memory with base pages, a 2
 * MiB guest page gets base-page TLB entries, and both variants miss L1).
 */
#define WALK_NS 4.0

/* The names a level can have, the first found first. */
static const char *const level_names[] = { "L1 dTLB", "L2 TLB", "further translation knee" };

static const char *level_name(const struct mt_probe_result *res, double rise)
{
	if (!res->n_levels && rise < WALK_NS)
		return level_names[0];
	if (!named(res, level_names[1]))
		return level_names[1];
	return level_names[2];
}

const char *mt_probe_level_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof(level_names) / sizeof(level_names[0]); i++)
		if (!strcmp(name, level_names[i]))
			return level_names[i];
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The middle half of the validation's repetitions (Yuen's trimming): a
 * turn that another task's burst slowed, by tens of ns at the large sizes
 * on a loaded guest, must not decide alone.
 */
static void trimmed(const double *x, struct mt_summary *s)
{
	double v[CHECK_REPS];

	memcpy(v, x, sizeof(v));
	qsort(v, CHECK_REPS, sizeof(v[0]), cmp_double);
	mt_stats_summarize(v + CHECK_REPS / 4, CHECK_REPS / 2, s);
}

/*
 * The validation pass (a step at the largest size, with no size after it
 * to stay up, is none): the size where every step starts and its top
 * measured again, on another random chain, twice as many repetitions; the
 * middle halves must rise again (ratio and size), with Welch's p under 0.05
 * between the two, or it is no level. Its confidence is 1 - p.
 */
static void validate(struct probe *pr, const struct cand *c)
{
	struct mt_probe_result *res = pr->res;
	struct mt_summary sb, sa;
	struct mt_probe_level *lv;
	struct pair lo, hi;
	struct mt_welch w;

	if (!c->confirmed || res->n_levels == MT_PROBE_MAX_LEVELS) {
		res->unvalidated++;
		return;
	}
	measure_pair(pr, (size_t)c->start, SEED_CHECK, CHECK_REPS, &lo);
	measure_pair(pr, (size_t)c->top, SEED_CHECK, CHECK_REPS, &hi);
	trimmed(lo.diff, &sb);
	trimmed(hi.diff, &sa);
	if (!mt_steps_rises(sb.mean, 0.0, sa.mean, 0.0, &pr->so) || mt_stats_welch(&sb, &sa, &w) ||
	    !(w.p < 0.05)) {
		res->unvalidated++;
		return;
	}
	lv = &res->levels[res->n_levels];
	lv->name = level_name(res, c->to - c->from);
	lv->entries_min = c->first;
	lv->entries_max = c->hi;
	lv->page_size = res->page;
	lv->reach_bytes = c->first * res->page;
	lv->from_ns = c->from;
	lv->to_ns = c->to;
	lv->confidence = 1.0 - w.p;
	res->n_levels++;
}

/*
 * Up to 256 lines the huge variant's lines and the packed control's sit in
 * any L1 data cache alike (32 KiB is 512 lines): a huge variant that is
 * slower there misses TLB entries that 2 MiB pages should not need.
 */
#define L1D_LINES 256

static void check_huge(struct probe *pr)
{
	struct mt_probe_result *res = pr->res;

	for (size_t i = 0; i < res->n_points; i++) {
		const struct mt_probe_point *pt = &res->points[i];

		if (pt->refined || pt->pages > L1D_LINES)
			continue;
		if (mt_steps_rises(pt->packed_ns, 0.0, pt->huge_ns, 0.0, &pr->so)) {
			res->huge_slow_at = pt->pages;
			break;
		}
	}
	/* Its curve would show no TLB level: the packed control's shows them. */
	res->vs_packed = res->huge_slow_at != 0;
	for (size_t i = 0; i < res->n_points; i++)
		use_control(res, &res->points[i]);
}

/* Steps on the grid, each bracketed, narrowed, then validated. */
static void find_levels(struct probe *pr)
{
	struct mt_step st[MT_STEPS_MAX];
	struct cand c[MT_STEPS_MAX];
	size_t ns = mt_probe_steps(pr->res, st, MT_STEPS_MAX);

	/* measure() moves points: every step is bracketed first. */
	for (size_t k = 0; k < ns; k++)
		bracket(pr->res, st, k, ns, &c[k]);
	for (size_t k = 0; k < ns; k++)
		refine(pr, &c[k]);
	pr->res->n_levels = 0;
	for (size_t k = 0; k < ns; k++)
		validate(pr, &c[k]);
}

static int map_one(struct mapping *m, uint64_t len, int flags)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags,
		       -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	m->map = p;
	m->len = len;
	m->at = (char *)(((uintptr_t)p + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));
	return 0;
}

static void touch(char *p, uint64_t len, uint64_t page)
{
	for (uint64_t off = 0; off < len; off += page)
		p[off] = 1;
}

/*
 * Base pages that are physically contiguous and aligned in runs, as a TLB
 * that coalesces needs: 2 MiB THPs (MADV_COLLAPSE where the faults fell
 * short), then each PMD split to PTEs by changing the protection of one
 * page and back: the folio stays whole, so its 512 pages keep their PFNs
 * in order. MADV_NOHUGEPAGE first keeps khugepaged from mapping them by
 * PMD again. Whether it worked is read from pagemap (co_layout), never
 * assumed.
 */
static int map_contiguous(struct probe *pr, uint64_t hlen)
{
	struct mt_pagescan s;
	int ret = map_one(&pr->contig, hlen + HUGE_2M, 0);

	if (ret)
		return ret;
	madvise(pr->contig.at, hlen, MADV_HUGEPAGE);
	touch(pr->contig.at, hlen, pr->res->page);
	if (!mt_mapinfo_scan(pr->contig.at, hlen, &s) && s.huge < hlen)
		madvise(pr->contig.at, hlen, MADV_COLLAPSE);
	madvise(pr->contig.at, hlen, MADV_NOHUGEPAGE);
	for (uint64_t off = 0; off < hlen; off += HUGE_2M)
		if (mprotect(pr->contig.at + off, pr->res->page, PROT_READ) ||
		    mprotect(pr->contig.at + off, pr->res->page, PROT_READ | PROT_WRITE))
			return -errno;
	return 0;
}

/*
 * Both variants 2 MiB-aligned, so the same offsets mean the same layout:
 * base pages (MADV_NOHUGEPAGE) and 2 MiB pages, MADV_HUGEPAGE (with
 * MADV_COLLAPSE where the faults got fewer) or hugetlb. The control packs
 * max / page lines into huge pages.
 */
static int map_all(struct probe *pr, uint64_t max)
{
	struct mt_probe_result *res = pr->res;
	uint64_t hlen = (max + HUGE_2M - 1) & ~(HUGE_2M - 1);
	struct mt_pagescan s;
	int ret;

	ret = map_one(&pr->base, max + HUGE_2M, 0);
	if (ret)
		return ret;
	madvise(pr->base.map, pr->base.len, MADV_NOHUGEPAGE);
	/*
	 * Faulted by linking a chain over them, in its random order: pages the
	 * allocator hands out one after the other land far apart, so the base
	 * variant is physically scattered (no run a TLB could coalesce).
	 */
	mt_chase_link(pr->base.at, pr->max_pages, res->page, SEED_SCATTER, pr->order);
	if (res->kind == MT_PROBE_PAGES_HUGETLB) {
		ret = map_one(&pr->huge, hlen, MAP_HUGETLB | MAP_HUGE_2MB);
		if (ret)
			return ret;
	} else {
		ret = map_one(&pr->huge, hlen + HUGE_2M, 0);
		if (ret)
			return ret;
		madvise(pr->huge.at, hlen, MADV_HUGEPAGE);
	}
	touch(pr->huge.at, max, res->page);
	if (res->kind != MT_PROBE_PAGES_HUGETLB && !mt_mapinfo_scan(pr->huge.at, hlen, &s) &&
	    s.huge < hlen) {
		res->collapsed = true;
		madvise(pr->huge.at, hlen, MADV_COLLAPSE);
	}
	res->map_bytes = max;
	ret = map_one(&pr->packed, pr->max_pages * LINE + 2 * HUGE_2M, 0);
	if (ret)
		return ret;
	res->packed_bytes = pr->max_pages * LINE;
	madvise(pr->packed.at, res->packed_bytes + HUGE_2M, MADV_HUGEPAGE);
	memset(pr->packed.at, 0, res->packed_bytes);
	return pr->opts->coalesce ? map_contiguous(pr, hlen) : 0;
}

static void unmap(struct probe *pr)
{
	if (pr->contig.map)
		munmap(pr->contig.map, pr->contig.len);
	if (pr->packed.map)
		munmap(pr->packed.map, pr->packed.len);
	if (pr->huge.map)
		munmap(pr->huge.map, pr->huge.len);
	if (pr->base.map)
		munmap(pr->base.map, pr->base.len);
	free(pr->order);
}

/*
 * The layout a comparison needs: both variants mapped by PTEs, the
 * contiguous one in aligned runs, the scattered one not. Below these
 * shares the two are not what they are named.
 */
#define CO_CONTIGUOUS_MIN 0.9
#define CO_SCATTERED_MAX 0.1

/* The coalescing result's absence, with why (stage: when it was seen). */
static bool co_absent(struct mt_probe_coalesce *co, const char *stage, const char *why)
{
	snprintf(co->absent_why, sizeof(co->absent_why), "%s%s", stage, why);
	return false;
}

static bool pte_mapped(const void *at, uint64_t len)
{
	struct mt_pagescan s;

	return !mt_mapinfo_scan(at, len, &s) && !s.huge && !s.absent;
}

/*
 * Each variant's physical layout from pagemap's PFNs (root only), into
 * the result; false with absent_why when the two cannot be compared.
 */
static bool co_layout(struct probe *pr, const char *stage)
{
	struct mt_probe_coalesce *co = &pr->res->co;
	uint64_t len = pr->res->map_bytes;
	struct mt_pfn_layout ls, lc;
	const struct mt_probe_co_run *r4 = &co->runs[0];
	char why[128];
	int ret;

	ret = mt_mapinfo_layout(pr->base.at, len, &ls);
	if (!ret)
		ret = mt_mapinfo_layout(pr->contig.at, len, &lc);
	if (ret) {
		co->n_runs = 0;
		snprintf(why, sizeof(why), "physical layout not read: /proc/self/pagemap: %s%s",
			 strerror(-ret), ret == -EPERM ? " (PFNs need CAP_SYS_ADMIN)" : "");
		return co_absent(co, stage, why);
	}
	co->n_runs = MT_PFN_RUNS;
	for (unsigned int r = 0; r < MT_PFN_RUNS; r++) {
		co->runs[r].pages = mt_pfn_run_pages[r];
		co->runs[r].scattered = mt_mapinfo_run_share(&ls, r);
		co->runs[r].contiguous = mt_mapinfo_run_share(&lc, r);
	}
	co->scattered_pte = pte_mapped(pr->base.at, len);
	co->contiguous_pte = pte_mapped(pr->contig.at, len);
	if (!co->scattered_pte || !co->contiguous_pte)
		return co_absent(co, stage, co->contiguous_pte ?
				 "scattered variant not all mapped by PTEs" :
				 "contiguous variant not all mapped by PTEs (a PMD kept?)");
	if (!(r4->contiguous >= CO_CONTIGUOUS_MIN)) {
		snprintf(why, sizeof(why), "contiguous variant: %.1f%% of aligned %llu-page runs "
			 "contiguous (THP not obtained?)", 100 * r4->contiguous,
			 (unsigned long long)r4->pages);
		return co_absent(co, stage, why);
	}
	if (!(r4->scattered <= CO_SCATTERED_MAX)) {
		snprintf(why, sizeof(why), "scattered variant: %.1f%% of aligned %llu-page runs "
			 "contiguous", 100 * r4->scattered, (unsigned long long)r4->pages);
		return co_absent(co, stage, why);
	}
	return true;
}

/*
 * One size around a level: scattered base pages (the base variant), the
 * contiguous ones and the control, the same chain, ABCABC by repetition;
 * each variant's translation against the control, and their paired
 * difference.
 */
static void measure_co(struct probe *pr, size_t n, struct mt_probe_co_point *pt)
{
	struct mt_probe_result *res = pr->res;
	double s[MT_PROBE_REPS], c[MT_PROBE_REPS], d[MT_PROBE_REPS];
	uint64_t chunk = chunk_of(n);
	struct mt_coalesce_point *p = &pt->c;
	void **a, **b, **k;

	mt_chase_link_pair(pr->base.at, pr->contig.at, n, res->page, SEED_MAIN, pr->order, &a,
			   &b);
	/* the same seed draws the same chain: the control of the main pass */
	k = res->vs_packed ? mt_chase_link(pr->packed.at, n, LINE, SEED_MAIN, pr->order) :
			     mt_chase_link(pr->huge.at, n, res->page, SEED_MAIN, pr->order);
	for (unsigned int r = 0; r < MT_PROBE_REPS; r++) {
		double ts = turn_ns(&a, n, chunk), tc = turn_ns(&b, n, chunk);
		double tk = turn_ns(&k, n, chunk);

		s[r] = ts - tk;
		c[r] = tc - tk;
		d[r] = ts - tc;
	}
	p->pages = n;
	pt->bytes = (uint64_t)n * res->page;
	pt->reps = MT_PROBE_REPS;
	mt_ci_mean95(s, MT_PROBE_REPS, &p->scattered_ns, &p->scattered_ci95_ns);
	mt_ci_mean95(c, MT_PROBE_REPS, &p->contiguous_ns, &p->contiguous_ci95_ns);
	mt_ci_mean95(d, MT_PROBE_REPS, &p->diff_ns, &p->diff_ci95_ns);
	if (!a || !b || !k)	/* the chains are live */
		p->diff_ns = NAN;
}

/*
 * Around one level: half octaves from half its entries_min to eight times
 * its entries_max (a reach moved by 4 or 16 pages shows inside), as far as
 * --max, then judged.
 */
static void co_level(struct probe *pr, const struct mt_probe_level *lv)
{
	struct mt_probe_result *res = pr->res;
	struct mt_probe_coalesce *co = &res->co;
	struct mt_coalesce_point pts[MT_PROBE_CO_MAX_POINTS];
	uint64_t lo = lv->entries_min / 2, hi = lv->entries_max * 8;
	struct mt_probe_co_level *cl = &co->levels[co->n_levels++];
	size_t first = co->n_points, n = 0;

	lo = lo < FIRST_PAGES ? FIRST_PAGES : lo;
	hi = hi < pr->max_pages ? hi : pr->max_pages;
	/* lo, 1.5 lo, 2 lo, 3 lo, 4 lo ... and hi itself last */
	for (unsigned int k = 0; co->n_points < MT_PROBE_CO_MAX_POINTS; k++) {
		uint64_t p = lo << (k / 2), last = n ? co->points[co->n_points - 1].c.pages : 0;
		struct mt_probe_co_point *pt = &co->points[co->n_points];
		struct mt_probe_progress pg = { .kind = MT_PROBE_CO_POINT, .res = res,
						.co_point = pt };

		p += k & 1 ? p / 2 : 0;
		if (p > hi && last < hi)
			p = hi;
		else if (p > hi)
			break;
		pt->level = lv->name;
		measure_co(pr, (size_t)p, pt);
		co->n_points++;
		n++;
		if (pr->opts->progress)
			pr->opts->progress(pr->opts->progress_arg, &pg);
	}
	n = 0;
	for (size_t i = first; i < co->n_points; i++)
		pts[n++] = co->points[i].c;
	cl->name = lv->name;
	cl->from_ns = lv->from_ns;
	cl->to_ns = lv->to_ns;
	mt_coalesce_judge(pts, n, lv->from_ns, lv->to_ns, co->min_ns, &cl->v);
}

/* Coalescing, when asked: the layouts proven, then each TLB level. */
static void coalesce(struct probe *pr)
{
	struct mt_probe_result *res = pr->res;
	struct mt_probe_coalesce *co = &res->co;

	co->asked = pr->opts->coalesce;
	co->min_ns = pr->so.min_rise;
	if (!co->asked || !co_layout(pr, ""))
		return;
	for (size_t i = 0; i < res->n_levels && co->n_levels < MT_PROBE_CO_MAX_LEVELS; i++)
		if (strcmp(res->levels[i].name, level_names[2]))
			co_level(pr, &res->levels[i]);
	if (!co->n_levels) {
		co_absent(co, "", "no L1 dTLB or L2 TLB level found to compare at");
		return;
	}
	/* what was measured holds only if the layout held all along */
	co_layout(pr, "layout changed while measured: ");
}

/* Sizes by half octaves, 4, 6, 8, 12 ... pages, and the largest. */
static void sweep(struct probe *pr)
{
	for (uint64_t p = FIRST_PAGES; p <= pr->max_pages; p *= 2) {
		measure(pr, (size_t)p, false);
		if (p + p / 2 <= pr->max_pages)
			measure(pr, (size_t)(p + p / 2), false);
	}
	measure(pr, pr->max_pages, false);
}

int mt_probe_run(const struct mt_probe_opts *o, struct mt_probe_result **out,
		 struct mt_msg *msg)
{
	struct probe pr = { .opts = o };
	struct mt_probe_result *res;
	uint64_t max;
	int ret;

	ret = mt_probe_check(o, &max, msg);
	if (ret)
		return ret;
	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	pr.res = res;
	res->kind = o->kind;
	res->page = base_page();
	res->huge_page = HUGE_2M;
	res->max = max;
	res->reps = MT_PROBE_REPS;
	res->ratio = o->ratio;
	mt_step_opts_init(&pr.so);
	pr.so.ratio = o->ratio;
	pr.max_pages = (size_t)(max / res->page);
	pr.order = calloc(pr.max_pages, sizeof(*pr.order));
	if (!pr.order) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = map_all(&pr, max);
	if (ret) {
		snprintf(msg->text, sizeof(msg->text), "mmap of %s pages: %s",
			 o->kind == MT_PROBE_PAGES_HUGETLB ? "hugetlb" : "base and THP",
			 strerror(-ret));
		if (o->kind == MT_PROBE_PAGES_HUGETLB)
			snprintf(msg->hint, sizeof(msg->hint), "reserve a pool of 2 MiB pages "
				 "first: echo N > /sys/kernel/mm/hugepages/hugepages-2048kB/"
				 "nr_hugepages");
		goto fail;
	}
	tell(&pr, MT_PROBE_MAPPED, NULL);
	sweep(&pr);
	if (!res->n_points) {
		snprintf(msg->text, sizeof(msg->text), "every size refused: %s",
			 res->refused_why);
		snprintf(msg->hint, sizeof(msg->hint), "the probe needs both base and 2 MiB "
			 "pages: check /sys/kernel/mm/transparent_hugepage/enabled");
		ret = -EPERM;
		goto fail;
	}
	check_huge(&pr);
	find_levels(&pr);
	coalesce(&pr);
	tell(&pr, MT_PROBE_DONE, NULL);
	unmap(&pr);
	*out = res;
	return 0;
fail:
	unmap(&pr);
	free(res);
	return ret;
}

void mt_probe_result_destroy(struct mt_probe_result *r)
{
	free(r);
}

