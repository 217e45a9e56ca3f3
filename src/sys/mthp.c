// SPDX-License-Identifier: MIT
/*
 * mTHP sizes: which the kernel offers, and one made the only one for a
 * run, every control restored by the cleanup registry.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/cleanup.h"
#include "sys/mthp.h"
#include "sys/sys.h"
#include "sys/tunable.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

static const char *control(bool shmem)
{
	return shmem ? "shmem_enabled" : "enabled";
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

size_t mt_mthp_sizes(bool shmem, uint64_t *out, size_t max)
{
	char dir[4096], file[4096 + 300];
	struct dirent *d;
	size_t n = 0;
	DIR *dp;

	dp = opendir(mt_sys_path(dir, sizeof(dir), THP_DIR));
	if (!dp)
		return 0;
	while ((d = readdir(dp)) && n < max) {
		unsigned long kb;
		char tail;

		if (sscanf(d->d_name, "hugepages-%lukB%c", &kb, &tail) != 1 || !kb)
			continue;
		snprintf(file, sizeof(file), "%s/%s/%s", dir, d->d_name, control(shmem));
		if (!access(file, F_OK))
			out[n++] = (uint64_t)kb << 10;
	}
	closedir(dp);
	qsort(out, n, sizeof(*out), cmp_u64);
	return n;
}

bool mt_mthp_offered(bool shmem, uint64_t size)
{
	uint64_t sizes[MT_MTHP_MAX];
	size_t n = mt_mthp_sizes(shmem, sizes, MT_MTHP_MAX);

	for (size_t i = 0; i < n; i++)
		if (sizes[i] == size)
			return true;
	return false;
}

void mt_mthp_list(bool shmem, char *buf, size_t len)
{
	uint64_t sizes[MT_MTHP_MAX];
	size_t n = mt_mthp_sizes(shmem, sizes, MT_MTHP_MAX), k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%lluk", i ? ", " : "",
				      (unsigned long long)(sizes[i] >> 10));
}

/* The control of size as a tunable spec, "sysfs:/sys/.../enabled". */
static int tunable_of(uint64_t size, bool shmem, struct mt_tunable *t)
{
	char spec[128];
	struct mt_msg msg;

	snprintf(spec, sizeof(spec), "sysfs:" THP_DIR "/hugepages-%llukB/%s",
		 (unsigned long long)(size >> 10), control(shmem));
	return mt_tunable_init(t, spec, &msg);
}

int mt_mthp_check(bool shmem, struct mt_msg *msg)
{
	uint64_t sizes[MT_MTHP_MAX];
	size_t n = mt_mthp_sizes(shmem, sizes, MT_MTHP_MAX);
	struct mt_tunable t;
	int ret;

	for (size_t i = 0; i < n; i++) {
		ret = tunable_of(sizes[i], shmem, &t);
		if (!ret)
			ret = mt_tunable_save(&t);
		if (ret)
			return mt_msg_set(msg, ret, "mTHP sizes are set for a run as root, on a "
					  "writable /sys", "%s: %s", t.path, ret == -EACCES ?
					  "cannot be written" : strerror(-ret));
	}
	return 0;
}

int mt_mthp_use(uint64_t size, bool shmem, struct mt_mthp_run *run)
{
	uint64_t sizes[MT_MTHP_MAX];
	size_t n = mt_mthp_sizes(shmem, sizes, MT_MTHP_MAX);
	int ret = mt_cleanup_init();

	run->n = 0;
	for (size_t i = 0; !ret && i < n; i++) {
		struct mt_tunable t;
		int h;

		ret = tunable_of(sizes[i], shmem, &t);
		if (!ret)
			ret = mt_tunable_save(&t);
		if (ret)
			break;
		/* registered (and journaled) before the write: never lost */
		h = mt_cleanup_add_restore(t.path, t.saved);
		if (h < 0) {
			ret = h;
			break;
		}
		run->handle[run->n++] = h;
		ret = mt_tunable_set(&t, sizes[i] != size ? "never" : shmem ? "advise" : "madvise");
	}
	if (ret)
		mt_mthp_restore(run);
	return ret;
}

int mt_mthp_restore(struct mt_mthp_run *run)
{
	int first = 0;

	for (size_t i = 0; i < run->n; i++) {
		int ret = mt_cleanup_run(run->handle[i]);

		if (ret && !first)
			first = ret;
	}
	run->n = 0;
	return first;
}
