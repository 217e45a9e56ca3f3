// SPDX-License-Identifier: MIT
/* A region's /proc/PID/smaps entries: what the kernel really mapped. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sys/mapinfo.h"

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

int mt_mapinfo_read_anon_huge(uint64_t *bytes)
{
	char line[256];
	unsigned long long kb;
	int ret = -ENOENT;
	FILE *f = fopen("/proc/self/smaps_rollup", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %llu kB", &kb) == 1) {
			*bytes = (uint64_t)kb << 10;
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
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

bool mt_mapinfo_verdict(const struct mt_pagescan *s, bool want_huge, const char *asked,
			char *why, size_t len)
{
	unsigned long long total = s->len >> 10;

	if (want_huge && s->huge == s->len)
		return true;
	if (!want_huge && s->base == s->len)
		return true;
	if (want_huge && s->base)
		snprintf(why, len, "not as requested: --pages %s got base pages for %llu KiB "
			 "of %llu KiB", asked, (unsigned long long)(s->base >> 10), total);
	else if (!want_huge && s->huge)
		snprintf(why, len, "not as requested: --pages %s got huge pages for %llu KiB "
			 "of %llu KiB", asked, (unsigned long long)(s->huge >> 10), total);
	else
		snprintf(why, len, "not as requested: --pages %s: %llu KiB of %llu KiB not "
			 "mapped", asked, (unsigned long long)(s->absent >> 10), total);
	return false;
}
