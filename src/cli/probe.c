// SPDX-License-Identifier: MIT
/*
 * memtlb probe: TLB reach by timing alone (no PMU). A dependent-load chase
 * over one cache line per page, pages in random order, at sizes doubling
 * from 16 KiB, bisected near every knee; beside it the same number of lines
 * packed into few pages, so a knee that the data caches explain is not
 * taken for a TLB level.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/log.h"
#include "model/size.h"
#include "stats/knee.h"
#include "sys/sysinfo.h"
#include "workload/chase.h"

#define LINE 64
#define MAX_POINTS 128
#define PROBE_RATIO 1.5
#define HUGE_2M (2ull << 20)
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

enum {
	OPT_MAX = MT_OPT_FIRST_FREE + 0x20,
	OPT_PAGES,
	OPT_KNEE_RATIO,
};

enum pages { PAGES_BASE, PAGES_THP, PAGES_HUGETLB };

static const char cmdopts_s[] = "+:vh";
static const struct option cmdopts[] = {
	{ "max", required_argument, NULL, OPT_MAX },
	{ "pages", required_argument, NULL, OPT_PAGES },
	{ "knee-ratio", required_argument, NULL, OPT_KNEE_RATIO },
	{ "format", required_argument, NULL, MT_OPT_FORMAT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void help(void)
{
	printf("Usage: memtlb probe [--max SIZE] [--pages base|thp|hugetlb] [options]\n"
	       "Find the TLB levels by timing a dependent-load chase over one cache line per\n"
	       "page (no PMU needed).\n\n"
	       "      --max SIZE           largest size probed (default 64m; 1g with thp or\n"
	       "                           hugetlb)\n"
	       "      --pages KIND         base (default), thp (madvise'd 2 MiB pages) or\n"
	       "                           hugetlb (MAP_HUGETLB with 2 MiB pages)\n"
	       "      --knee-ratio R       rise over the trend that makes a level (default 1.5)\n"
	       "      --format FMT         table (default) or csv\n"
	       "  -v, --verbose            every measurement's repetitions on stderr\n"
	       "  -h, --help               this text\n");
}

struct point {
	uint64_t size;		/* bytes covered: n pages */
	double ns;		/* per access, 1 line per page */
	double ctl;		/* per access, the same lines packed */
	unsigned int reps;	/* repetitions of ns */
	unsigned int ctl_reps;	/* and of ctl */
};

struct probe {
	char *pages;		/* the probed mapping (aligned start) */
	char *map;		/* what mmap returned, map_len bytes */
	size_t map_len;
	uint64_t page;
	char *packed;		/* the control: lines back to back */
	size_t *order;
	size_t max_lines;
	struct point pts[MAX_POINTS];
	size_t n;
	bool progress;
	struct timespec t0;
};

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

static int measure(struct probe *pr, uint64_t size)
{
	size_t n = (size_t)(size / pr->page);
	struct point *pt;

	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].size == size)
			return 0;
	if (pr->n == MAX_POINTS || n < 2)
		return 0;
	pt = &pr->pts[pr->n];
	pt->size = size;
	pt->ns = chase_ns(pr->pages, n, pr->page, pr->order, &pt->reps);
	pt->ctl = chase_ns(pr->packed, n, LINE, pr->order, &pt->ctl_reps);
	if (mt_log_verbose())
		fprintf(stderr, "memtlb: probe: %llu pages: %.3f ns (%u reps), packed %.3f ns "
			"(%u reps)\n", (unsigned long long)n, pt->ns, pt->reps, pt->ctl,
			pt->ctl_reps);
	if (pr->progress) {
		char s[32];

		mt_size_format(size, s, sizeof(s));
		fprintf(stderr, "\r\033[Kmemtlb: probe: %s, %.3f ns/access", s, pt->ns);
	}
	/* Kept sorted by size. */
	for (size_t i = pr->n; i > 0 && pr->pts[i - 1].size > size; i--) {
		struct point t = pr->pts[i];

		pr->pts[i] = pr->pts[i - 1];
		pr->pts[i - 1] = t;
	}
	pr->n++;
	return 0;
}

static int find_levels(const struct probe *pr, const struct mt_knee_opts *ko,
		       struct mt_level *lv, size_t max)
{
	double x[MAX_POINTS], y[MAX_POINTS], c[MAX_POINTS];

	for (size_t i = 0; i < pr->n; i++) {
		x[i] = (double)pr->pts[i].size;
		y[i] = pr->pts[i].ns;
		c[i] = pr->pts[i].ctl;
	}
	return pr->n < 3 ? 0 : mt_knee_levels(x, y, c, pr->n, ko, lv, max);
}

/*
 * lmbench's bisection: halve the interval of every knee, up to 5 times; the
 * denser curve may show knees the doubling hid, so again until none is
 * wider than 1/16 of its size (or 4 rounds).
 */
static void bisect(struct probe *pr, const struct mt_knee_opts *ko)
{
	for (int round = 0; round < 4; round++) {
		struct mt_level lv[MT_KNEE_MAX];
		int nl = find_levels(pr, ko, lv, MT_KNEE_MAX), wide = 0;
		struct { uint64_t lo, hi; double ylo, yhi; } iv[MT_KNEE_MAX];

		for (int k = 0; k < nl; k++) {
			iv[k].lo = pr->pts[lv[k].knee.before].size;
			iv[k].hi = pr->pts[lv[k].knee.after].size;
			iv[k].ylo = pr->pts[lv[k].knee.before].ns;
			iv[k].yhi = pr->pts[lv[k].knee.after].ns;
		}
		for (int k = 0; k < nl; k++) {
			if (iv[k].hi - iv[k].lo <= pr->page || iv[k].hi - iv[k].lo <= iv[k].lo / 16)
				continue;
			wide++;
			for (int step = 0; step < 5 && iv[k].hi - iv[k].lo > pr->page; step++) {
				uint64_t mid = (iv[k].lo + iv[k].hi) / 2 / pr->page * pr->page;
				double y = 0;

				if (mid <= iv[k].lo)
					break;
				measure(pr, mid);
				for (size_t i = 0; i < pr->n; i++)
					if (pr->pts[i].size == mid)
						y = pr->pts[i].ns;
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

static void describe(FILE *f, const struct probe *pr, const struct mt_level *lv, int nl,
		     const char *pagename)
{
	static const char *const tlb_names[] = { "L1 dTLB", "L2 TLB" };
	unsigned int tlb = 0;
	char s[32], ps[32];

	mt_size_format(pr->page, ps, sizeof(ps));
	if (!nl)
		fprintf(f, "levels: none found up to %s\n",
			(mt_size_format(pr->pts[pr->n - 1].size, s, sizeof(s)), s));
	for (int i = 0; i < nl; i++) {
		const struct point *b = &pr->pts[lv[i].knee.before];
		const struct point *a = &pr->pts[lv[i].knee.after];

		mt_size_format(b->size, s, sizeof(s));
		if (lv[i].kind == MT_LEVEL_CACHE) {
			fprintf(f, "data cache: about %s = %llu lines, %.2f -> %.2f ns (the packed "
				"control rises x%.1f too: not a TLB level)\n", s,
				(unsigned long long)(b->size / pr->page), b->ns, a->ns,
				lv[i].ctl_step);
			continue;
		}
		fprintf(f, "%s reach about %s = %llu x %s %s pages, %.2f -> %.2f ns per access%s\n",
			tlb < 2 ? tlb_names[tlb] : "further translation knee", s,
			(unsigned long long)(b->size / pr->page), ps, pagename, b->ns, a->ns,
			lv[i].knee.confirmed ? "" : " (at the largest size: not confirmed)");
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
static void compare_cpuid(FILE *f, const struct probe *pr)
{
	bool huge = pr->page >= HUGE_2M;
	const char *pages = huge ? "2M" : "4K";
	uint64_t page = huge ? HUGE_2M : 4096;
	const struct mt_tlb *l1, *l2;
	struct mt_sysinfo si;
	char a[32], b[32];

	mt_sysinfo_read(&si);
	l1 = data_tlb(&si, 1, pages);
	l2 = data_tlb(&si, 2, pages);
	if (!l1) {
		fprintf(f, "cpuid: this CPU reports no data TLB geometry for %s pages\n",
			huge ? "2 MiB" : "4 KiB");
		return;
	}
	mt_size_format((uint64_t)l1->entries * page, a, sizeof(a));
	fprintf(f, "%s: L1 dTLB %u entries (%s)", si.tlb_source, l1->entries, a);
	if (l2) {
		mt_size_format((uint64_t)l2->entries * page, b, sizeof(b));
		fprintf(f, ", L2 %s TLB %u entries (%s)", l2->type, l2->entries, b);
	}
	fprintf(f, " for %s pages\n", huge ? "2 MiB" : "4 KiB");
}

static int map_pages(struct probe *pr, uint64_t max, enum pages kind)
{
	size_t len = max + (kind == PAGES_THP ? HUGE_2M : 0);
	/* The size flag: the code takes hugetlb pages as 2 MiB, whatever the default. */
	int flags = MAP_PRIVATE | MAP_ANONYMOUS |
		    (kind == PAGES_HUGETLB ? MAP_HUGETLB | MAP_HUGE_2MB : 0);
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	pr->map = p;
	pr->map_len = len;
	if (kind == PAGES_THP) {
		char *al = (char *)(((uintptr_t)p + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));

		madvise(al, max, MADV_HUGEPAGE);
		p = al;
	} else if (kind == PAGES_BASE) {
		madvise(p, max, MADV_NOHUGEPAGE);
	}
	for (uint64_t off = 0; off < max; off += 4096)
		p[off] = 1;
	pr->pages = p;
	return 0;
}

/* AnonHugePages of this process, kB, or -1. */
static long anon_huge_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps_rollup", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static int cmd_probe(int argc, char *argv[])
{
	static const char *const kinds[] = { "base", "thp", "hugetlb" };
	static const char *const pagenames[] = { "base", "THP", "hugetlb" };
	static const char *const formats[] = { "table", "csv" };
	struct probe pr = { 0 };
	struct mt_knee_opts ko;
	struct mt_level lv[MT_KNEE_MAX];
	enum mt_format format = MT_FORMAT_TABLE;
	enum pages kind = PAGES_BASE;
	uint64_t max = 0, first;
	int64_t avail;
	char s[32];
	int c, ret, nl, v;

	mt_knee_opts_init(&ko);
	ko.ratio = PROBE_RATIO;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, cmdopts_s, cmdopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return MT_EXIT_OK;
		case 'v':
			mt_log_set_verbose(1);
			break;
		case OPT_MAX:
			ret = mt_cli_size_opt("--max", optarg, &max);
			if (ret)
				return ret;
			break;
		case OPT_PAGES:
			ret = mt_cli_choose("--pages", optarg, kinds, 3, &v);
			if (ret)
				return ret;
			kind = v;
			break;
		case OPT_KNEE_RATIO:
			ret = mt_cli_knee_ratio_opt("--knee-ratio", optarg, &ko.ratio);
			if (ret)
				return ret;
			break;
		case MT_OPT_FORMAT:
			/* In enum mt_format's order: table, csv. */
			ret = mt_cli_choose("--format", optarg, formats, 2, &v);
			if (ret)
				return ret;
			format = v == 0 ? MT_FORMAT_TABLE : MT_FORMAT_CSV;
			break;
		default:
			return mt_cli_getopt_error("probe", c, argv);
		}
	}
	if (optind < argc) {
		mt_err("probe: unexpected argument '%s'", argv[optind]);
		mt_hint("memtlb probe --help lists the options");
		return MT_EXIT_USAGE;
	}
	pr.page = kind == PAGES_BASE ? (uint64_t)sysconf(_SC_PAGESIZE) : HUGE_2M;
	if (!max)
		max = kind == PAGES_BASE ? 64ull << 20 : 1ull << 30;
	first = 16384 > 4 * pr.page ? 16384 : 4 * pr.page;
	if (max < first) {
		mt_size_format(first, s, sizeof(s));
		mt_err("--max: at least %s with these pages", s);
		return MT_EXIT_USAGE;
	}
	max = max / pr.page * pr.page;
	avail = mt_sys_mem_available();
	if (avail > 0 && max > (uint64_t)avail) {
		mt_size_format((uint64_t)avail, s, sizeof(s));
		mt_err("--max: more than MemAvailable (%s)", s);
		return MT_EXIT_USAGE;
	}

	ret = map_pages(&pr, max, kind);
	if (ret) {
		mt_err("probe: mmap of %s pages: %s", kinds[kind], strerror(-ret));
		if (kind == PAGES_HUGETLB)
			mt_hint("reserve a pool of 2 MiB pages first: echo N > "
				"/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages");
		return MT_EXIT_FAILURE;
	}
	pr.max_lines = (size_t)(max / pr.page);
	pr.packed = mmap(NULL, pr.max_lines * LINE + HUGE_2M, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pr.order = calloc(pr.max_lines, sizeof(*pr.order));
	if (pr.packed == MAP_FAILED || !pr.order) {
		mt_err("probe: %s", strerror(ENOMEM));
		ret = MT_EXIT_FAILURE;
		goto out;
	}
	/* The control in as few TLB entries as the kernel gives us. */
	madvise(pr.packed, pr.max_lines * LINE + HUGE_2M, MADV_HUGEPAGE);
	memset(pr.packed, 0, pr.max_lines * LINE);
	if (kind == PAGES_THP) {
		long kb = anon_huge_kb();

		if (kb >= 0 && (uint64_t)kb * 1024 < max / 2)
			mt_warn("probe: only %ld kB of %llu kB in transparent huge pages", kb,
				(unsigned long long)(max >> 10));
	}

	pr.progress = isatty(STDERR_FILENO);
	for (uint64_t sz = first; sz <= max; sz *= 2)
		measure(&pr, sz);
	if (max > pr.pts[pr.n - 1].size)
		measure(&pr, max);
	bisect(&pr, &ko);
	if (pr.progress)
		fprintf(stderr, "\r\033[K");
	nl = find_levels(&pr, &ko, lv, MT_KNEE_MAX);
	if (nl < 0)
		nl = 0;

	if (format == MT_FORMAT_CSV) {
		printf("size,pages,ns_per_access,packed_ns_per_access,level\n");
		for (size_t i = 0; i < pr.n; i++) {
			const char *mark = "";

			for (int k = 0; k < nl; k++)
				if (lv[k].knee.after == i)
					mark = lv[k].kind == MT_LEVEL_TLB ? "tlb" : "cache";
			printf("%llu,%llu,%.4f,%.4f,%s\n", (unsigned long long)pr.pts[i].size,
			       (unsigned long long)(pr.pts[i].size / pr.page), pr.pts[i].ns,
			       pr.pts[i].ctl, mark);
		}
		ret = MT_EXIT_OK;
		goto out;
	}
	mt_size_format(pr.page, s, sizeof(s));
	printf("memtlb probe: dependent loads, one line per %s %s page in random order; packed: "
	       "the same lines back to back\n\n", s, pagenames[kind]);
	printf("%12s %8s %12s %12s  level\n", "size", "pages", "ns/access", "packed ns");
	for (size_t i = 0; i < pr.n; i++) {
		const char *mark = "";

		for (int k = 0; k < nl; k++)
			if (lv[k].knee.after == i)
				mark = lv[k].kind == MT_LEVEL_TLB ? "<- TLB" : "<- cache";
		mt_size_format(pr.pts[i].size, s, sizeof(s));
		printf("%12s %8llu %12.3f %12.3f  %s\n", s,
		       (unsigned long long)(pr.pts[i].size / pr.page), pr.pts[i].ns, pr.pts[i].ctl,
		       mark);
	}
	putchar('\n');
	describe(stdout, &pr, lv, nl, pagenames[kind]);
	compare_cpuid(stdout, &pr);
	ret = MT_EXIT_OK;
out:
	if (pr.packed && pr.packed != MAP_FAILED)
		munmap(pr.packed, pr.max_lines * LINE + HUGE_2M);
	munmap(pr.map, pr.map_len);
	free(pr.order);
	return ret;
}

const struct mt_cmd mt_cmd_probe = {
	.name = "probe",
	.fn = cmd_probe,
	.help = "find the TLB levels by timing a pointer chase (no PMU needed)",
};
