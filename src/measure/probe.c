// SPDX-License-Identifier: MIT
/*
 * The probe engine: TLB reach by timing alone (no PMU). A dependent-load
 * chase over one cache line per page, pages in random order, at sizes
 * doubling from 16 KiB, bisected near every knee; beside it the same number
 * of lines packed into few pages, so a knee that the data caches explain is
 * not taken for a TLB level.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "measure/probe.h"
#include "model/size.h"
#include "stats/knee.h"
#include "sys/mapinfo.h"
#include "sys/sysinfo.h"
#include "workload/chase.h"

#define LINE 64
#define HUGE_2M (2ull << 20)
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

struct probe {
	struct mt_probe_result *res;
	const struct mt_probe_opts *opts;
	char *pages;		/* the probed mapping (aligned start) */
	char *map;		/* what mmap returned, res->map_bytes */
	char *packed;		/* the control: lines back to back, res->packed_bytes */
	size_t *order;
	size_t max_lines;
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
	mt_knee_opts_init(&o->knee);
	o->knee.ratio = MT_PROBE_KNEE_RATIO;
}

static uint64_t page_of(enum mt_probe_pages kind)
{
	return kind == MT_PROBE_PAGES_BASE ? (uint64_t)sysconf(_SC_PAGESIZE) : HUGE_2M;
}

static uint64_t first_of(uint64_t page)
{
	return 16384 > 4 * page ? 16384 : 4 * page;
}

int mt_probe_check(const struct mt_probe_opts *o, uint64_t *max_out, struct mt_msg *msg)
{
	uint64_t page = page_of(o->kind), first = first_of(page), max = o->max;
	int64_t avail;
	char s[32];

	msg->text[0] = msg->hint[0] = '\0';
	if (!max)
		max = o->kind == MT_PROBE_PAGES_BASE ? 64ull << 20 : 1ull << 30;
	if (max < first) {
		mt_size_format(first, s, sizeof(s));
		snprintf(msg->text, sizeof(msg->text), "--max: at least %s with these pages", s);
		return -EINVAL;
	}
	max = max / page * page;
	avail = mt_sys_mem_available();
	if (avail > 0 && max > (uint64_t)avail) {
		mt_size_format((uint64_t)avail, s, sizeof(s));
		snprintf(msg->text, sizeof(msg->text), "--max: more than MemAvailable (%s)", s);
		return -E2BIG;
	}
	*max_out = max;
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Best of repetitions, until three in a row improve it by under 1%. */
static double chase_ns(char *base, size_t n, size_t stride, size_t *order, unsigned int *reps)
{
	uint64_t steps = n * 4 > (1u << 19) ? n * 4 : (1u << 19);
	double best = 1e30;
	unsigned int calm = 0, r;
	void **p;

	p = mt_chase_link(base, n, stride, 0x9e3779b97f4a7c15ull ^ n, order);
	p = mt_chase_run(p, n * 2);	/* warm: caches, TLB, page tables */
	for (r = 0; r < 40 && calm < 3; r++) {
		double t = now_s(), ns;

		p = mt_chase_run(p, steps);
		ns = (now_s() - t) * 1e9 / (double)((steps + 7) & ~7ull);
		calm = ns < best * 0.99 ? 0 : calm + 1;
		if (ns < best)
			best = ns;
	}
	/* p is live: the loads cannot be dropped. */
	if (!p)
		best = -1;
	*reps = r;
	return best;
}

static void tell(const struct probe *pr, enum mt_probe_event kind,
		 const struct mt_probe_point *pt)
{
	struct mt_probe_progress p = { .kind = kind, .res = pr->res, .point = pt };

	if (pr->opts->progress)
		pr->opts->progress(pr->opts->progress_arg, &p);
}

/* The point of size (once: a size measured before is kept). */
static void measure(struct probe *pr, uint64_t size)
{
	struct mt_probe_result *res = pr->res;
	size_t n = (size_t)(size / res->page), i;
	struct mt_probe_point pt = { 0 };

	for (i = 0; i < res->n_points; i++)
		if (res->points[i].size == size)
			return;
	if (res->n_points == MT_PROBE_MAX_POINTS || n < 2)
		return;
	pt.size = size;
	pt.pages = n;
	pt.ns = chase_ns(pr->pages, n, res->page, pr->order, &pt.reps);
	pt.packed_ns = chase_ns(pr->packed, n, LINE, pr->order, &pt.packed_reps);
	/* Kept sorted by size. */
	for (i = res->n_points; i > 0 && res->points[i - 1].size > size; i--)
		res->points[i] = res->points[i - 1];
	res->points[i] = pt;
	res->n_points++;
	tell(pr, MT_PROBE_POINT, &pt);
}

static int find_levels(const struct mt_probe_result *res, struct mt_level *lv, size_t max)
{
	double x[MT_PROBE_MAX_POINTS], y[MT_PROBE_MAX_POINTS], c[MT_PROBE_MAX_POINTS];

	for (size_t i = 0; i < res->n_points; i++) {
		x[i] = (double)res->points[i].size;
		y[i] = res->points[i].ns;
		c[i] = res->points[i].packed_ns;
	}
	return res->n_points < 3 ? 0 : mt_knee_levels(x, y, c, res->n_points, &res->knee_opts,
						      lv, max);
}

/*
 * lmbench's bisection: halve the interval of every knee, up to 5 times; the
 * denser curve may show knees the doubling hid, so again until none is
 * wider than 1/16 of its size (or 4 rounds).
 */
static void bisect(struct probe *pr)
{
	const struct mt_probe_result *res = pr->res;
	const uint64_t page = res->page;

	for (int round = 0; round < 4; round++) {
		struct mt_level lv[MT_KNEE_MAX];
		int nl = find_levels(res, lv, MT_KNEE_MAX), wide = 0;
		struct { uint64_t lo, hi; double ylo, yhi; } iv[MT_KNEE_MAX];

		for (int k = 0; k < nl; k++) {
			iv[k].lo = res->points[lv[k].knee.before].size;
			iv[k].hi = res->points[lv[k].knee.after].size;
			iv[k].ylo = res->points[lv[k].knee.before].ns;
			iv[k].yhi = res->points[lv[k].knee.after].ns;
		}
		for (int k = 0; k < nl; k++) {
			if (iv[k].hi - iv[k].lo <= page || iv[k].hi - iv[k].lo <= iv[k].lo / 16)
				continue;
			wide++;
			for (int step = 0; step < 5 && iv[k].hi - iv[k].lo > page; step++) {
				uint64_t mid = (iv[k].lo + iv[k].hi) / 2 / page * page;
				double y = 0;

				if (mid <= iv[k].lo)
					break;
				measure(pr, mid);
				for (size_t i = 0; i < res->n_points; i++)
					if (res->points[i].size == mid)
						y = res->points[i].ns;
				/* Above the geometric middle: the knee is below mid. */
				if (y * y >= iv[k].ylo * iv[k].yhi)
					iv[k].hi = mid;
				else
					iv[k].lo = mid;
			}
		}
		if (!wide)
			break;
	}
}

static int map_pages(struct probe *pr, uint64_t max, enum mt_probe_pages kind)
{
	size_t len = max + (kind == MT_PROBE_PAGES_THP ? HUGE_2M : 0);
	/* The size flag: the code takes hugetlb pages as 2 MiB, whatever the default. */
	int flags = MAP_PRIVATE | MAP_ANONYMOUS |
		    (kind == MT_PROBE_PAGES_HUGETLB ? MAP_HUGETLB | MAP_HUGE_2MB : 0);
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	pr->map = p;
	pr->res->map_bytes = len;
	if (kind == MT_PROBE_PAGES_THP) {
		char *al = (char *)(((uintptr_t)p + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));

		madvise(al, max, MADV_HUGEPAGE);
		p = al;
	} else if (kind == MT_PROBE_PAGES_BASE) {
		madvise(p, max, MADV_NOHUGEPAGE);
	}
	for (uint64_t off = 0; off < max; off += 4096)
		p[off] = 1;
	pr->pages = p;
	return 0;
}

/* The control in as few TLB entries as the kernel gives us. */
static int map_packed(struct probe *pr)
{
	size_t len = pr->max_lines * LINE + HUGE_2M;
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	pr->packed = p;
	pr->res->packed_bytes = len;
	madvise(p, len, MADV_HUGEPAGE);
	memset(p, 0, pr->max_lines * LINE);
	return 0;
}

static void unmap(struct probe *pr)
{
	if (pr->packed)
		munmap(pr->packed, pr->res->packed_bytes);
	if (pr->map)
		munmap(pr->map, pr->res->map_bytes);
	free(pr->order);
}

int mt_probe_run(const struct mt_probe_opts *o, struct mt_probe_result **out,
		 struct mt_msg *msg)
{
	struct probe pr = { .opts = o };
	struct mt_probe_result *res;
	uint64_t max, ah;
	int ret, nl;

	ret = mt_probe_check(o, &max, msg);
	if (ret)
		return ret;
	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	pr.res = res;
	res->kind = o->kind;
	res->page = page_of(o->kind);
	res->first = first_of(res->page);
	res->max = max;
	res->knee_opts = o->knee;

	ret = map_pages(&pr, max, o->kind);
	if (ret) {
		snprintf(msg->text, sizeof(msg->text), "mmap of %s pages: %s",
			 mt_probe_pages_name(o->kind), strerror(-ret));
		if (o->kind == MT_PROBE_PAGES_HUGETLB)
			snprintf(msg->hint, sizeof(msg->hint), "reserve a pool of 2 MiB pages "
				 "first: echo N > /sys/kernel/mm/hugepages/hugepages-2048kB/"
				 "nr_hugepages");
		goto fail;
	}
	pr.max_lines = (size_t)(max / res->page);
	pr.order = calloc(pr.max_lines, sizeof(*pr.order));
	ret = pr.order ? map_packed(&pr) : -ENOMEM;
	if (ret)
		goto fail;
	ret = mt_mapinfo_read_anon_huge(&ah);
	res->anon_huge = ret ? ret : (int64_t)ah;
	tell(&pr, MT_PROBE_MAPPED, NULL);

	for (uint64_t sz = res->first; sz <= max; sz *= 2)
		measure(&pr, sz);
	if (max > res->points[res->n_points - 1].size)
		measure(&pr, max);
	bisect(&pr);
	tell(&pr, MT_PROBE_DONE, NULL);
	nl = find_levels(res, res->levels, MT_KNEE_MAX);
	res->n_levels = nl < 0 ? 0 : (size_t)nl;
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

bool mt_probe_thp_short(const struct mt_probe_result *r)
{
	return r->kind == MT_PROBE_PAGES_THP && r->anon_huge >= 0 &&
	       (uint64_t)r->anon_huge < r->max / 2;
}
