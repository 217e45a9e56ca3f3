// SPDX-License-Identifier: MIT
/* A region's /proc/PID/smaps entries: what the kernel really mapped. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sys/mapinfo.h"
#include "sys/sysinfo.h"

/*
 * PAGEMAP_SCAN (include/uapi/linux/fs.h, kernel 6.7): Debian 12's headers
 * predate it, so the ABI is spelled out here.
 */
struct page_region {
	uint64_t start;
	uint64_t end;
	uint64_t categories;
};

struct pm_scan_arg {
	uint64_t size;
	uint64_t flags;
	uint64_t start;
	uint64_t end;
	uint64_t walk_end;
	uint64_t vec;
	uint64_t vec_len;
	uint64_t max_pages;
	uint64_t category_inverted;
	uint64_t category_mask;
	uint64_t category_anyof_mask;
	uint64_t return_mask;
};

#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PAGE_IS_PRESENT (1 << 3)
#define PAGE_IS_HUGE (1 << 6)

static uint64_t align_of(uint64_t addr)
{
	uint64_t a = addr & -addr;

	return !addr || a > (1ull << 30) ? 1ull << 30 : a;
}

int mt_mapinfo_read(int pid, const void *addr, uint64_t len, struct mt_mapinfo *mi)
{
	uint64_t lo = (uintptr_t)addr, hi = lo + len, start, end;
	bool in = false, found = false;
	char path[64], line[512], key[64];
	unsigned long long kb;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/smaps");
	f = fopen(path, "re");
	if (!f)
		return -errno;
	memset(mi, 0, sizeof(*mi));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = start < hi && end > lo;
			if (in) {
				found = true;
				mi->size += end - start;
			}
			continue;
		}
		if (!in || sscanf(line, "%63[^:]: %llu kB", key, &kb) != 2)
			continue;
		if (!strcmp(key, "Rss"))
			mi->rss += kb << 10;
		else if (!strcmp(key, "AnonHugePages"))
			mi->anon_huge += kb << 10;
		else if (!strcmp(key, "ShmemPmdMapped"))
			mi->shmem_pmd += kb << 10;
		else if (!strcmp(key, "FilePmdMapped"))
			mi->file_pmd += kb << 10;
		else if (!strcmp(key, "Shared_Hugetlb") || !strcmp(key, "Private_Hugetlb"))
			mi->hugetlb += kb << 10;
		else if (!strcmp(key, "KernelPageSize") && !mi->kernel_page)
			mi->kernel_page = kb << 10;
		else if (!strcmp(key, "MMUPageSize") && !mi->mmu_page)
			mi->mmu_page = kb << 10;
	}
	fclose(f);
	if (!found)
		return -ENOENT;
	mi->valid = true;
	mi->addr = lo;
	mi->align = align_of(lo);
	mi->huge_coverage = len ? (double)(mi->anon_huge + mi->shmem_pmd + mi->file_pmd +
					   mi->hugetlb) / (double)len : 0.0;
	if (mi->huge_coverage > 1.0)
		mi->huge_coverage = 1.0;	/* a VMA merged with a neighbour */
	return 0;
}

/* The kernel merges neighbouring pages of one kind: 64 regions go far. */
static int scan_ioctl(uint64_t lo, uint64_t hi, struct mt_pagescan *ps)
{
	struct page_region vec[64];
	struct pm_scan_arg a;
	int fd, n, ret = 0;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Valgrind does not know what this ioctl writes: nothing read is left undefined. */
	memset(vec, 0, sizeof(vec));
	while (lo < hi) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.start = lo;
		a.end = hi;
		a.vec = (uintptr_t)vec;
		a.vec_len = sizeof(vec) / sizeof(vec[0]);
		a.category_mask = PAGE_IS_PRESENT;
		a.return_mask = PAGE_IS_PRESENT | PAGE_IS_HUGE;
		n = ioctl(fd, PAGEMAP_SCAN, &a);
		if (n < 0) {
			ret = -errno;
			break;
		}
		for (int i = 0; i < n; i++) {
			uint64_t b = vec[i].end - vec[i].start;

			if (vec[i].categories & PAGE_IS_HUGE)
				ps->huge += b;
			else
				ps->base += b;
		}
		/* walk_end is where it stopped: the end, or a full vec. */
		if (a.walk_end <= lo)
			break;
		lo = a.walk_end;
	}
	close(fd);
	return ret;
}

/* smaps counts per VMA: the range gets the VMAs' share of huge pages. */
static int scan_smaps(const void *addr, uint64_t len, struct mt_pagescan *ps)
{
	struct mt_mapinfo mi;
	uint64_t huge, rss;
	int ret = mt_mapinfo_read(0, addr, len, &mi);

	if (ret)
		return ret;
	huge = mi.anon_huge + mi.shmem_pmd + mi.file_pmd + mi.hugetlb;
	rss = mi.rss > huge ? mi.rss : huge;
	if (mi.size > len) {
		huge = (uint64_t)((double)huge * (double)len / (double)mi.size);
		rss = (uint64_t)((double)rss * (double)len / (double)mi.size);
	}
	ps->huge = huge < len ? huge : len;
	rss = rss < len ? rss : len;
	ps->base = rss > ps->huge ? rss - ps->huge : 0;
	ps->smaps = true;
	return 0;
}

int mt_mapinfo_scan(const void *addr, uint64_t len, struct mt_pagescan *ps)
{
	uint64_t lo = (uintptr_t)addr;
	int ret;

	memset(ps, 0, sizeof(*ps));
	ps->len = len;
	ret = scan_ioctl(lo, lo + len, ps);
	if (ret == -ENOTTY || ret == -EINVAL) {
		memset(ps, 0, sizeof(*ps));
		ps->len = len;
		ret = scan_smaps(addr, len, ps);
	}
	if (ret)
		return ret;
	if (ps->huge + ps->base > len)
		ps->base = len > ps->huge ? len - ps->huge : 0;
	ps->absent = len - ps->huge - ps->base;
	return 0;
}

/* "64 KiB": a folio size, exact (sys prints nothing, but names sizes in a verdict). */
static void folio_name(uint64_t v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u < 4 && v >= 1024 && !(v % 1024)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)v, unit[u]);
}

/* The size of the larger-than-a-page folios holding most of the range. */
static uint64_t main_large(const struct mt_pagescan *s)
{
	uint64_t best = 0, bytes = 0;

	/* With base pages the smallest size is theirs. */
	for (unsigned int i = s->base ? 1 : 0; i < s->n_folios; i++)
		if (s->folios[i].bytes > bytes) {
			best = s->folios[i].size;
			bytes = s->folios[i].bytes;
		}
	return best;
}

bool mt_mapinfo_verdict(const struct mt_pagescan *s, bool want_huge, const char *asked,
			char *why, size_t len)
{
	unsigned long long total = s->len >> 10;
	char fs[32];

	if (want_huge && s->huge == s->len)
		return true;
	if (!want_huge && s->base == s->len)
		return true;
	if (want_huge && s->base)
		snprintf(why, len, "not as requested: --pages %s got base pages for %llu KiB "
			 "of %llu KiB", asked, (unsigned long long)(s->base >> 10), total);
	else if (want_huge && s->large)
		snprintf(why, len, "not as requested: --pages %s got folios mapped by PTEs for "
			 "%llu KiB of %llu KiB", asked, (unsigned long long)(s->large >> 10),
			 total);
	else if (!want_huge && s->huge)
		snprintf(why, len, "not as requested: --pages %s got huge pages for %llu KiB "
			 "of %llu KiB", asked, (unsigned long long)(s->huge >> 10), total);
	else if (!want_huge && s->large) {
		folio_name(main_large(s), fs, sizeof(fs));
		snprintf(why, len, "not as requested: --pages %s got %s folios for %llu KiB "
			 "of %llu KiB", asked, fs, (unsigned long long)(s->large >> 10), total);
	} else
		snprintf(why, len, "not as requested: --pages %s: %llu KiB of %llu KiB not "
			 "mapped", asked, (unsigned long long)(s->absent >> 10), total);
	return false;
}

bool mt_mapinfo_verdict_size(const struct mt_pagescan *s, uint64_t size, uint64_t pmd,
			     const char *asked, char *why, size_t len)
{
	uint64_t got = 0;
	char fs[32];

	for (unsigned int i = 0; i < s->n_folios; i++)
		if (s->folios[i].size == size)
			got += s->folios[i].bytes;
	/* no folio sizes read: a PMD-sized one is the scan's huge pages */
	if (!s->n_folios && size == pmd)
		got = s->huge;
	if (s->len && got >= s->len - s->len / 100)
		return true;
	folio_name(size, fs, sizeof(fs));
	if (!s->n_folios && size != pmd)
		snprintf(why, len, "not as requested: --pages %s: the folio sizes could not be "
			 "read", asked);
	else
		snprintf(why, len, "not as requested: --pages %s got %s folios for %llu KiB of "
			 "%llu KiB, under 99%%", asked, fs, (unsigned long long)(got >> 10),
			 (unsigned long long)(s->len >> 10));
	return false;
}

/* Each source's name in a report and its words in the pages: line. */
static const struct {
	const char *name;
	const char *label;
} folio_sources[] = {
	[MT_FOLIO_KPAGEFLAGS] = { "kpageflags", "kpageflags" },
	[MT_FOLIO_MTHP_STATS] = { "mthp_stats", "mTHP fault counters over the run, system-wide" },
	[MT_FOLIO_MAPPING] = { "mapping", "" },	/* the scan's own words */
};

#define N_SOURCES (sizeof(folio_sources) / sizeof(folio_sources[0]))

const char *mt_mapinfo_source_name(int source)
{
	return source > 0 && (size_t)source < N_SOURCES ? folio_sources[source].name : "";
}

const char *mt_mapinfo_source_label(int source)
{
	return source > 0 && (size_t)source < N_SOURCES ? folio_sources[source].label : "";
}

int mt_mapinfo_source_parse(const char *name)
{
	for (size_t i = 1; name && i < N_SOURCES; i++)
		if (!strcmp(name, folio_sources[i].name))
			return (int)i;
	return MT_FOLIO_NONE;
}

void mt_mapinfo_add_folio(struct mt_pagescan *ps, uint64_t size, uint64_t bytes)
{
	unsigned int i = 0;

	if (!bytes)
		return;
	while (i < ps->n_folios && ps->folios[i].size < size)
		i++;
	if (i < ps->n_folios && ps->folios[i].size == size) {
		ps->folios[i].bytes += bytes;
		return;
	}
	if (ps->n_folios == MT_FOLIO_SIZES)
		return;		/* more sizes than any machine has */
	memmove(&ps->folios[i + 1], &ps->folios[i], (ps->n_folios - i) * sizeof(ps->folios[0]));
	ps->folios[i] = (struct mt_folio_share){ size, bytes };
	ps->n_folios++;
}

/* A walk stops here: 1 GiB of 4 KiB pages, the largest folio x86 maps. */
#define FOLIO_MAX_PAGES (1ull << 18)

/*
 * The folio holding pfn, [*head, *end). A tail's head is the nearest head
 * below it; a folio ends at the first page that is not its tail. A tail
 * with no head (the folio split while it was read) is a page alone.
 */
static void folio_of(uint64_t pfn, mt_kpf_fn kpf, void *arg, uint64_t *head, uint64_t *end)
{
	const uint64_t H = 1ull << MT_KPF_COMPOUND_HEAD, T = 1ull << MT_KPF_COMPOUND_TAIL;
	uint64_t f = kpf(arg, pfn), h = pfn, e = pfn + 1;

	*head = pfn;
	*end = pfn + 1;
	if (!(f & (H | T)))
		return;
	if (f & T) {
		while (h && pfn - h < FOLIO_MAX_PAGES && (kpf(arg, h - 1) & T))
			h--;
		if (!h || !(kpf(arg, h - 1) & H))
			return;
		h--;
	}
	while (e - h < FOLIO_MAX_PAGES && (kpf(arg, e) & T))
		e++;
	*head = h;
	*end = e;
}

int mt_mapinfo_folios(const uint64_t *pagemap, size_t n, uint64_t page_size, mt_kpf_fn kpf,
		      void *arg, struct mt_pagescan *ps)
{
	uint64_t head = 0, end = 0;	/* the last page's folio: its neighbours share it */

	for (size_t i = 0; i < n; i++) {
		uint64_t pfn;

		if (!(pagemap[i] & MT_PM_PRESENT))
			continue;
		pfn = pagemap[i] & MT_PM_PFN_MASK;
		if (!pfn)
			return -EPERM;
		if (pfn < head || pfn >= end)
			folio_of(pfn, kpf, arg, &head, &end);
		mt_mapinfo_add_folio(ps, (end - head) * page_size, page_size);
	}
	return 0;
}

/* kpageflags, 512 words at a time: a folio's pages are neighbours. */
struct kpf_cache {
	int fd;
	uint64_t base;
	uint64_t n;
	uint64_t w[512];
};

static uint64_t kpf_read(void *arg, uint64_t pfn)
{
	struct kpf_cache *c = arg;

	if (pfn < c->base || pfn >= c->base + c->n) {
		ssize_t r;

		c->base = pfn & ~511ull;
		r = pread(c->fd, c->w, sizeof(c->w), (off_t)(c->base * sizeof(c->w[0])));
		c->n = r > 0 ? (uint64_t)r / sizeof(c->w[0]) : 0;
		if (pfn >= c->base + c->n)
			return 0;
	}
	return c->w[pfn - c->base];
}

/* large and base from the folios: what is in folios past a page and not huge. */
static void split_folios(struct mt_pagescan *ps, uint64_t page_size)
{
	uint64_t big = 0, base = 0;

	for (unsigned int i = 0; i < ps->n_folios; i++)
		if (ps->folios[i].size > page_size)
			big += ps->folios[i].bytes;
		else
			base += ps->folios[i].bytes;
	ps->huge = ps->huge < big ? ps->huge : big;
	ps->large = big - ps->huge;
	ps->base = base;
	if (ps->huge + ps->large + ps->base > ps->len)
		ps->base = ps->len > ps->huge + ps->large ? ps->len - ps->huge - ps->large : 0;
	ps->absent = ps->len - ps->huge - ps->large - ps->base;
}

/* Pages of pagemap, in order: n words at a time, for fn. */
typedef int (*pagemap_fn)(void *arg, const uint64_t *pm, size_t n);

/* [lo, lo+len) of path's pagemap through fn: 0, fn's error, or -errno. */
static int pagemap_walk(const char *path, uint64_t lo, uint64_t len, pagemap_fn fn, void *arg)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), pm[1024];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	for (uint64_t off = 0; !ret && off < len; off += sizeof(pm) / sizeof(pm[0]) * page) {
		uint64_t want = (len - off + page - 1) / page;
		ssize_t r;

		want = want < sizeof(pm) / sizeof(pm[0]) ? want : sizeof(pm) / sizeof(pm[0]);
		r = pread(fd, pm, want * sizeof(pm[0]), (off_t)((lo + off) / page * sizeof(pm[0])));
		if (r < 0)
			ret = -errno;
		else if ((size_t)r != want * sizeof(pm[0]))
			ret = -EIO;
		else
			ret = fn(arg, pm, (size_t)want);
	}
	close(fd);
	return ret;
}

struct folio_walk {
	struct kpf_cache *c;
	uint64_t page;
	struct mt_pagescan *ps;
};

static int folio_step(void *arg, const uint64_t *pm, size_t n)
{
	struct folio_walk *w = arg;

	return mt_mapinfo_folios(pm, n, w->page, kpf_read, w->c, w->ps);
}

int mt_mapinfo_read_folios(int pid, const void *addr, uint64_t len, struct mt_pagescan *ps)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct mt_pagescan t = *ps;
	struct folio_walk w = { .page = page, .ps = &t };
	char path[64];
	int ret;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/pagemap");
	w.c = calloc(1, sizeof(*w.c));
	if (!w.c)
		return -ENOMEM;
	w.c->fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	t.n_folios = 0;
	ret = w.c->fd < 0 ? -errno : pagemap_walk(path, (uintptr_t)addr, len, folio_step, &w);
	if (w.c->fd >= 0)
		close(w.c->fd);
	free(w.c);
	if (ret)
		return ret;
	split_folios(&t, page);
	t.folio_source = MT_FOLIO_KPAGEFLAGS;
	*ps = t;
	return 0;
}

const unsigned int mt_pfn_run_pages[MT_PFN_RUNS] = { 4, 16 };

/*
 * Each aligned group of k pages (k of mt_pfn_run_pages) counted, and
 * counted as a run when its PFNs follow each other from a multiple of k:
 * what a TLB that coalesces needs. The pagemap starts at an address aligned
 * to every k (the caller's), so group g is pages g*k ... g*k+k-1. A group
 * cut by a word batch is carried over in tail: the first PFN it must start
 * at, none when it broke already.
 */
int mt_mapinfo_layout_of(const uint64_t *pm, size_t n, struct mt_pfn_layout *l)
{
	for (size_t i = 0; i < n; i++, l->pages++) {
		uint64_t pfn = pm[i] & MT_PM_PFN_MASK;

		if (!(pm[i] & MT_PM_PRESENT))
			pfn = 0;
		else if (!pfn)
			return -EPERM;
		for (unsigned int r = 0; r < MT_PFN_RUNS; r++) {
			uint64_t k = mt_pfn_run_pages[r], at = l->pages % k;

			if (!at)
				l->next[r] = pfn && !(pfn % k) ? pfn : 0;
			else if (l->next[r] && pfn != l->next[r] + at)
				l->next[r] = 0;
			if (at == k - 1) {
				l->groups[r]++;
				l->runs[r] += l->next[r] != 0;
			}
		}
	}
	return 0;
}

static int layout_step(void *arg, const uint64_t *pm, size_t n)
{
	return mt_mapinfo_layout_of(pm, n, arg);
}

int mt_mapinfo_layout(const void *addr, uint64_t len, struct mt_pfn_layout *l)
{
	memset(l, 0, sizeof(*l));
	return pagemap_walk("/proc/self/pagemap", (uintptr_t)addr, len, layout_step, l);
}

double mt_mapinfo_run_share(const struct mt_pfn_layout *l, unsigned int r)
{
	return r < MT_PFN_RUNS && l->groups[r] ? (double)l->runs[r] / (double)l->groups[r] : NAN;
}

int mt_mapinfo_mthp_stats(struct mt_mthp_stats *st)
{
	static const struct {
		const char *name;
		size_t off;	/* of the array it adds to */
	} counters[] = {
		{ "anon_fault_alloc", offsetof(struct mt_mthp_stats, alloc) },
		{ "shmem_alloc", offsetof(struct mt_mthp_stats, alloc) },
		{ "anon_fault_fallback", offsetof(struct mt_mthp_stats, fallback) },
		{ "shmem_fallback", offsetof(struct mt_mthp_stats, fallback) },
	};
	char path[4096], line[64];
	struct dirent *d;
	unsigned int kb;
	DIR *dir;

	memset(st, 0, sizeof(*st));
	dir = opendir(mt_sys_path(path, sizeof(path), "/sys/kernel/mm/transparent_hugepage"));
	if (!dir)
		return -errno;
	while ((d = readdir(dir)) && st->n < MT_MTHP_STATS_MAX) {
		bool any = false;

		if (sscanf(d->d_name, "hugepages-%ukB", &kb) != 1 || !kb)
			continue;
		st->size[st->n] = (uint64_t)kb << 10;
		for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
			snprintf(path, sizeof(path), "/sys/kernel/mm/transparent_hugepage/%.64s/"
				 "stats/%s", d->d_name, counters[i].name);
			if (mt_sys_read_line(path, line, sizeof(line)))
				continue;
			((uint64_t *)((char *)st + counters[i].off))[st->n] +=
				strtoull(line, NULL, 10);
			any = true;
		}
		st->n += any;
	}
	closedir(dir);
	return st->n ? 0 : -ENOENT;
}

int mt_mapinfo_mthp_delta(const struct mt_mthp_stats *a, const struct mt_mthp_stats *b,
			  uint64_t size, uint64_t *alloc, uint64_t *fallback)
{
	for (unsigned int i = 0; i < a->n; i++) {
		for (unsigned int j = 0; j < b->n; j++) {
			if (a->size[i] != size || b->size[j] != size)
				continue;
			*alloc = b->alloc[j] > a->alloc[i] ? b->alloc[j] - a->alloc[i] : 0;
			*fallback = b->fallback[j] > a->fallback[i] ?
				    b->fallback[j] - a->fallback[i] : 0;
			return 0;
		}
	}
	return -ENOENT;
}

static uint64_t mthp_delta(const struct mt_mthp_stats *a, const struct mt_mthp_stats *b,
			   uint64_t size)
{
	uint64_t alloc = 0, fallback;

	mt_mapinfo_mthp_delta(a, b, size, &alloc, &fallback);
	return alloc;
}

void mt_mapinfo_folios_guess(struct mt_pagescan *ps, uint64_t page_size, uint64_t huge_size,
			     const struct mt_mthp_stats *before,
			     const struct mt_mthp_stats *after)
{
	uint64_t pte = ps->base + ps->large;
	uint64_t sizes[MT_MTHP_STATS_MAX];
	unsigned int n = 0;

	ps->n_folios = 0;
	ps->large = 0;
	mt_mapinfo_add_folio(ps, huge_size, ps->huge);
	for (unsigned int i = 0; before && after && i < after->n; i++)
		if (after->size[i] > page_size && after->size[i] < huge_size)
			sizes[n++] = after->size[i];
	/* Largest first: the kernel tries the largest allowed size first. */
	for (unsigned int k = 0; k < n; k++) {
		unsigned int m = k;
		uint64_t bytes;

		for (unsigned int j = k + 1; j < n; j++)
			if (sizes[j] > sizes[m])
				m = j;
		bytes = sizes[m];
		sizes[m] = sizes[k];
		sizes[k] = bytes;
		bytes = mthp_delta(before, after, sizes[k]) * sizes[k];
		bytes = bytes < pte ? bytes : pte;
		mt_mapinfo_add_folio(ps, sizes[k], bytes);
		ps->large += bytes;
		pte -= bytes;
	}
	ps->base = pte;
	mt_mapinfo_add_folio(ps, page_size, pte);
	ps->folio_source = before && after ? MT_FOLIO_MTHP_STATS : MT_FOLIO_MAPPING;
}

uint64_t mt_mapinfo_pmd_size(void)
{
	char line[32];
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (!mt_sys_read_line("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", line,
			      sizeof(line)) && strtoull(line, NULL, 10))
		return strtoull(line, NULL, 10);
	return page * (page / 8);	/* a page table's entries, each a page */
}
