// SPDX-License-Identifier: MIT
/* A region's /proc/PID/smaps entries: what the kernel really mapped. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sys/mapinfo.h"

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
