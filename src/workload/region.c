// SPDX-License-Identifier: MIT
/*
 * The workload's mappings: anonymous, shared anonymous, shm, memfd or a
 * file; base pages, THP or hugetlb. Never prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/memfd.h>
#include <linux/mman.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cleanup.h"
#include "workload/region.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static unsigned int log2u(uint64_t v)
{
	return 63u - (unsigned int)__builtin_clzll(v);
}

void mt_region_init(struct mt_region *r, const struct mt_config *cfg, unsigned int slices)
{
	r->cfg = cfg;
	r->slices = slices ? slices : 1;
	r->file_fd = -1;
	r->file_cleanup = -1;
	r->file_path[0] = '\0';
}

int mt_region_open(struct mt_region *r)
{
	const char *p = r->cfg->file_path, *tmp = getenv("TMPDIR");
	struct stat st;
	int fd;

	if (r->cfg->backing != MT_BACKING_FILE)
		return 0;
	if (!p)
		p = tmp && *tmp ? tmp : "/tmp";
	if (!stat(p, &st) && S_ISDIR(st.st_mode)) {
		if (snprintf(r->file_path, sizeof(r->file_path), "%s/memtlb-XXXXXX", p) >=
		    (int)sizeof(r->file_path)) {
			r->file_path[0] = '\0';
			return -ENAMETOOLONG;
		}
		fd = mkostemp(r->file_path, O_CLOEXEC);	/* O_EXCL, mode 0600 */
	} else {
		if (snprintf(r->file_path, sizeof(r->file_path), "%s", p) >=
		    (int)sizeof(r->file_path)) {
			r->file_path[0] = '\0';
			return -ENAMETOOLONG;
		}
		fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		r->file_path[0] = '\0';
		return -errno;
	}
	r->file_cleanup = mt_cleanup_add_unlink(r->file_path);
	r->file_fd = fd;
	if (r->file_cleanup < 0 || ftruncate(fd, (off_t)(r->cfg->region * r->slices)))
		return r->file_cleanup < 0 ? r->file_cleanup : -errno;
	return 0;
}

void mt_region_close(struct mt_region *r)
{
	if (r->file_fd >= 0)
		close(r->file_fd);
	r->file_fd = -1;
	if (r->file_cleanup >= 0)
		mt_cleanup_run(r->file_cleanup);
	r->file_cleanup = -1;
}

const char *mt_region_file(const struct mt_region *r)
{
	return r->file_path[0] ? r->file_path : NULL;
}

/* A shm or memfd object for one mapping: created, sized, closed after mmap. */
static int object_fd(const struct mt_config *c)
{
	static atomic_uint seq;
	unsigned int flags = MFD_CLOEXEC;
	char name[64];
	int fd;

	if (c->backing == MT_BACKING_MEMFD) {
		if (c->pages == MT_PAGES_HUGETLB)
			flags |= MFD_HUGETLB | (log2u(c->huge_size) << MFD_HUGE_SHIFT);
		fd = memfd_create("memtlb", flags);
	} else {
		snprintf(name, sizeof(name), "/memtlb-%d-%u", (int)getpid(), atomic_fetch_add(&seq, 1));
		fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0)
			shm_unlink(name);	/* nothing left in /dev/shm, whatever happens */
	}
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)c->region)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return fd;
}

int mt_region_map(const struct mt_region *r, unsigned int slice, char **out)
{
	const struct mt_config *c = r->cfg;
	int flags = 0, fd = -1, own_fd = 0, ret = 0;
	uint64_t len = c->region, align = 0;
	off_t off = 0;
	char *p, *hint = NULL, *res = NULL;

	switch (c->backing) {
	case MT_BACKING_ANON:
		flags = MAP_PRIVATE | MAP_ANONYMOUS;
		break;
	case MT_BACKING_SHARED:
		flags = MAP_SHARED | MAP_ANONYMOUS;
		break;
	case MT_BACKING_SHM:
	case MT_BACKING_MEMFD:
		fd = object_fd(c);
		if (fd < 0)
			return fd;
		own_fd = 1;
		flags = MAP_SHARED;
		break;
	case MT_BACKING_FILE:
		fd = r->file_fd;
		off = (off_t)(len * slice);
		flags = MAP_SHARED;
		break;
	default:
		return -EINVAL;
	}
	if (c->pages == MT_PAGES_HUGETLB && (flags & MAP_ANONYMOUS))
		flags |= MAP_HUGETLB | (int)(log2u(c->huge_size) << MAP_HUGE_SHIFT);
	/* madvise must come before the faults: populate after it instead. */
	if (c->populate && c->pages != MT_PAGES_BASE && c->pages != MT_PAGES_THP)
		flags |= MAP_POPULATE;
	if (c->pages == MT_PAGES_THP) {
		/* Reserve len + align of address space, map at the aligned start. */
		align = c->huge_size;
		res = mmap(NULL, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			   -1, 0);
		if (res == MAP_FAILED) {
			ret = -errno;
			goto out;
		}
		hint = (char *)(((uintptr_t)res + align - 1) & ~(uintptr_t)(align - 1));
		flags |= MAP_FIXED;
	}
	p = mmap(hint, len, PROT_READ | PROT_WRITE, flags, fd, off);
	if (p == MAP_FAILED) {
		ret = -errno;
		if (res)
			munmap(res, len + align);
		goto out;
	}
	if (res) {
		if (hint > res)
			munmap(res, (size_t)(hint - res));
		if (res + len + align > hint + len)
			munmap(hint + len, (size_t)(res + len + align - (hint + len)));
	}
	if (c->pages == MT_PAGES_BASE || c->pages == MT_PAGES_THP) {
		if (madvise(p, len, c->pages == MT_PAGES_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) ||
		    (c->populate && madvise(p, len, MADV_POPULATE_WRITE))) {
			ret = -errno;
			munmap(p, len);
			goto out;
		}
	}
	*out = p;
out:
	if (own_fd)
		close(fd);
	return ret;
}

int mt_region_unmap(const struct mt_region *r, char *p)
{
	return munmap(p, r->cfg->region) ? -errno : 0;
}

void mt_region_drop_cache(const struct mt_region *r, struct mt_mapinfo *mi)
{
	uint64_t len = r->cfg->region * r->slices;
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t pages = (len + (uint64_t)psz - 1) / (uint64_t)psz, kept = 0;
	unsigned char *vec;
	void *p;

	if (r->file_fd < 0)
		return;
	fdatasync(r->file_fd);	/* dirty pages cannot be dropped */
	posix_fadvise(r->file_fd, 0, 0, POSIX_FADV_DONTNEED);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, r->file_fd, 0);
	if (p == MAP_FAILED)
		return;
	vec = malloc(pages);
	if (vec && !mincore(p, len, vec)) {
		for (uint64_t i = 0; i < pages; i++)
			kept += vec[i] & 1;
		mi->cache_checked = true;
		mi->cache_pages = pages;
		if (kept > mi->cache_resident)
			mi->cache_resident = kept;
	}
	free(vec);
	munmap(p, len);
}
