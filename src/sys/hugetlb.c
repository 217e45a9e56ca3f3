// SPDX-License-Identifier: MIT
/* hugetlb pools: read, grow for a run, restored by the cleanup registry. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sys/cleanup.h"
#include "sys/hugetlb.h"
#include "sys/journal.h"
#include "sys/sysinfo.h"

static int read_num(uint64_t size_kb, const char *name, long *out)
{
	char rel[128], line[64], *end;
	int ret;

	snprintf(rel, sizeof(rel), "/sys/kernel/mm/hugepages/hugepages-%llukB/%s",
		 (unsigned long long)size_kb, name);
	ret = mt_sys_read_line(rel, line, sizeof(line));
	if (ret)
		return ret;
	/*
	 * The count alone: what is saved is written back, so "12abc", a line
	 * cut by the buffer or past a long would be a guess, not the original.
	 */
	errno = 0;
	*out = strtol(line, &end, 10);
	return end == line || *end || errno || *out < 0 ? -EINVAL : 0;
}

int mt_hugetlb_pool_read(uint64_t size_kb, struct mt_hugepool_state *st)
{
	int ret;

	st->size_kb = size_kb;
	ret = read_num(size_kb, "nr_hugepages", &st->total);
	if (!ret)
		ret = read_num(size_kb, "free_hugepages", &st->free);
	if (!ret && read_num(size_kb, "resv_hugepages", &st->resv))
		st->resv = 0;
	if (!ret)
		st->free = st->free > st->resv ? st->free - st->resv : 0;
	return ret;
}

const char *mt_hugetlb_pool_file(uint64_t size_kb, char *buf, size_t len)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "/sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages",
		 (unsigned long long)size_kb);
	return mt_sys_path(buf, len, rel);
}

int mt_hugetlb_reserve(uint64_t size_kb, long need, struct mt_hugepool_state *st,
		       int *handle)
{
	char path[4096], old[32], want[32];
	FILE *f;
	int ret;

	*handle = -1;
	ret = mt_hugetlb_pool_read(size_kb, st);
	if (ret || st->free >= need)
		return ret;
	/*
	 * The lock before the size is saved: another memtlb's grown pool would
	 * be taken for the original, and a dead one's journal is replayed first.
	 */
	ret = mt_journal_lock(true, NULL, NULL, 0);
	if (!ret)
		ret = mt_hugetlb_pool_read(size_kb, st);
	if (ret || st->free >= need)
		return ret;
	mt_hugetlb_pool_file(size_kb, path, sizeof(path));
	snprintf(old, sizeof(old), "%ld\n", st->total);
	snprintf(want, sizeof(want), "%ld\n", st->total + (need - st->free));
	ret = mt_cleanup_add_restore(path, old);
	if (ret < 0)
		return ret;
	*handle = ret;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	ret = fputs(want, f) < 0 ? -errno : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		return ret;
	return mt_hugetlb_pool_read(size_kb, st);
}
