// SPDX-License-Identifier: MIT
/*
 * The workload's mappings: anonymous, shared anonymous, shm, memfd or a
 * file; base pages, THP or hugetlb. Never prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/magic.h>
#include <linux/memfd.h>
#include <linux/mman.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "model/size.h"
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

/* Where the file goes: --backing file:PATH, else $TMPDIR, else /tmp. */
/*
 * Pages chosen by madvise before the first fault: base pages (NOHUGEPAGE),
 * THP and an mTHP size (HUGEPAGE, the region aligned to the size).
 */
static bool madvised(const struct mt_config *c)
{
	return c->pages == MT_PAGES_BASE || c->pages == MT_PAGES_THP ||
	       c->pages == MT_PAGES_MTHP;
}

static const char *backing_target(const struct mt_config *cfg, const char **from)
{
	const char *tmp = getenv("TMPDIR");

	if (cfg->file_path) {
		*from = "--backing file";
		return cfg->file_path;
	}
	*from = tmp && *tmp ? "TMPDIR" : "/tmp";
	return tmp && *tmp ? tmp : "/tmp";
}

/* /proc, /sys and their kin hold no data file: creating one fails or worse. */
static bool pseudo_fs(const char *dir)
{
	static const long magic[] = { PROC_SUPER_MAGIC, SYSFS_MAGIC, CGROUP_SUPER_MAGIC,
				      CGROUP2_SUPER_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC,
				      SECURITYFS_MAGIC, DEVPTS_SUPER_MAGIC, BPF_FS_MAGIC };
	struct statfs fs;

	if (statfs(dir, &fs))
		return false;
	for (size_t i = 0; i < sizeof(magic) / sizeof(*magic); i++)
		if ((long)fs.f_type == magic[i])
			return true;
	return false;
}

/* A path fit for one line: a long one keeps its head and its tail. */
static const char *brief(const char *p, char *buf, size_t len)
{
	size_t n = strlen(p);

	if (n < 100 || len < 100)
		return p;
	snprintf(buf, len, "%.45s...%s", p, p + n - 45);
	return buf;
}

/* A directory the file can be created in; 0 or -EINVAL with msg. */
static int check_dir(const char *from, const char *path, const char *dir, struct mt_msg *msg)
{
	char b[128];
	struct stat st;

	path = brief(path, b, sizeof(b));
	if (stat(dir, &st))
		return mt_msg_set(msg, -EINVAL, NULL, "%s: %s: no directory to create it in (%s)", from,
				path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return mt_msg_set(msg, -EINVAL, NULL, "%s: %s: a part of the path is not a directory", from,
				path);
	if (pseudo_fs(dir))
		return mt_msg_set(msg, -EINVAL, "a directory on a disk or tmpfs (/tmp, /dev/shm)",
				"%s: %s: not a file system for data (/proc, /sys, ...)", from,
				path);
	if (access(dir, W_OK | X_OK))
		return mt_msg_set(msg, -EINVAL, NULL, "%s: %s: cannot create a file there: %s", from, path,
				strerror(errno));
	return 0;
}

int mt_region_check(const struct mt_config *cfg, struct mt_msg *msg)
{
	const char *from, *p = backing_target(cfg, &from), *bp;
	char dir[PATH_MAX], b[128];
	struct stat st;

	if (cfg->backing != MT_BACKING_FILE)
		return 0;
	bp = brief(p, b, sizeof(b));
	if (!*p)
		return mt_msg_set(msg, -EINVAL, "--backing file:PATH, a new file or a directory",
				"--backing file: no path");
	if (strlen(p) + sizeof("/memtlb-XXXXXX") > PATH_MAX)
		return mt_msg_set(msg, -EINVAL, NULL, "%s: %s: too long (%zu bytes)", from, bp, strlen(p));
	if (!stat(p, &st) && S_ISDIR(st.st_mode))
		return check_dir(from, p, p, msg);
	/* TMPDIR names a directory: never a file name (mkstemp's callers agree). */
	if (strcmp(from, "--backing file"))
		return mt_msg_set(msg, -EINVAL, "TMPDIR names an existing directory, or unset it",
				"%s: %s: not a directory", from, bp);
	if (!lstat(p, &st)) {
		bool dangling = S_ISLNK(st.st_mode) && stat(p, &st);
		const char *what = dangling ? "a dangling link"
				   : S_ISLNK(st.st_mode) ? "a link"
				   : S_ISFIFO(st.st_mode) ? "a FIFO"
				   : S_ISREG(st.st_mode) ? "a file"
				   : S_ISSOCK(st.st_mode) ? "a socket"
				   : "a device";

		return mt_msg_set(msg, -EINVAL, "memtlb creates its file: a new name, or a directory to "
				"create it in", "%s: %s: exists (%s)", from, bp, what);
	}
	if (errno != ENOENT)
		return mt_msg_set(msg, -EINVAL, NULL, "%s: %s: %s", from, bp, strerror(errno));
	snprintf(dir, sizeof(dir), "%s", p);
	return check_dir(from, p, dirname(dir), msg);
}

/* The directory the backing's file lives in: 0 with dir, or -EINVAL for none. */
static int backing_dir(const struct mt_config *cfg, char *dir, size_t len)
{
	const char *from, *p = backing_target(cfg, &from);
	struct stat st;

	if (cfg->backing == MT_BACKING_SHM)
		p = "/dev/shm";
	else if (cfg->backing != MT_BACKING_FILE)
		return -EINVAL;
	snprintf(dir, len, "%s", p);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		/* dirname() may return "." without touching dir: keep what it returns */
		char *d = dirname(dir);

		memmove(dir, d, strlen(d) + 1);
	}
	return 0;
}

bool mt_region_in_ram(const struct mt_config *cfg)
{
	char dir[PATH_MAX];
	struct statfs fs;

	if (cfg->backing == MT_BACKING_MEMFD || cfg->backing == MT_BACKING_SHARED)
		return true;
	if (backing_dir(cfg, dir, sizeof(dir)) || statfs(dir, &fs))
		return cfg->backing == MT_BACKING_SHM;
	return fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
}

int mt_region_space(const struct mt_config *cfg, unsigned int slices, struct mt_msg *msg)
{
	return mt_region_space_bytes(cfg, cfg->region * (slices ? slices : 1), msg);
}

int mt_region_space_bytes(const struct mt_config *cfg, uint64_t need, struct mt_msg *msg)
{
	uint64_t have;
	char dir[PATH_MAX], a[32], b[32], bd[128];
	struct statvfs vfs;

	msg->text[0] = msg->hint[0] = '\0';
	/* memfd: the internal shm mount has no size limit of its own */
	if (backing_dir(cfg, dir, sizeof(dir)))
		return 0;
	if (statvfs(dir, &vfs) || !vfs.f_frsize)
		return 0;	/* not known: fallocate will tell */
	have = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (need <= have)
		return 0;
	mt_size_format(need, a, sizeof(a));
	mt_size_format(have, b, sizeof(b));
	snprintf(msg->text, sizeof(msg->text), "--backing %s: %s: %s needed, %s free",
		 mt_backing_name(cfg->backing), brief(dir, bd, sizeof(bd)), a, b);
	snprintf(msg->hint, sizeof(msg->hint), "a smaller region, or --backing file:DIR on a "
		 "file system with room");
	return -ENOSPC;
}

/*
 * The backing's blocks up front: a file system that runs out in the middle
 * of a touch would end memtlb with SIGBUS. Not for THP on tmpfs (shm,
 * memfd, a file in /dev/shm): shmem allocates at fallocate time without the
 * mapping's MADV_HUGEPAGE, so under shmem_enabled=advise every page would
 * be a base page; the size was checked before the run (mt_region_space).
 * 0 or -errno (-ENOSPC: full).
 */
static int allocate(int fd, uint64_t len, const struct mt_config *c)
{
	struct statfs fs;
	int ret;

	if ((c->pages == MT_PAGES_THP || c->pages == MT_PAGES_MTHP) && !fstatfs(fd, &fs) &&
	    fs.f_type == TMPFS_MAGIC)
		return ftruncate(fd, (off_t)len) ? -errno : 0;
	ret = posix_fallocate(fd, 0, (off_t)len);
	/* glibc emulates it where the file system lacks it; a few refuse even that. */
	if (ret == EOPNOTSUPP || ret == EINVAL)
		ret = ftruncate(fd, (off_t)len) ? errno : 0;
	return -ret;
}

/*
 * --file-cache warm: the file memtlb made is in the page cache before the
 * first iteration, as it is before every later one (which find the pages
 * the last pass wrote): written with zeros, which read_first expects, else
 * the first iteration would fault on holes, allocating, and fault-around
 * would map nothing around them (it maps cached pages only). Not for
 * huge or mTHP pages, whose folio size comes from the mapping's fault and
 * would be base pages written here; nor hugetlbfs, which has no write().
 * Written back before the first iteration (a no-op on tmpfs). 0 or -errno.
 */
static int fill(int fd, uint64_t len, const struct mt_config *c)
{
	static const char zeros[1 << 16];
	uint64_t off = 0;

	if (c->pages != MT_PAGES_DEFAULT && c->pages != MT_PAGES_BASE)
		return 0;
	while (off < len) {
		size_t n = len - off < sizeof(zeros) ? (size_t)(len - off) : sizeof(zeros);
		ssize_t w = pwrite(fd, zeros, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		off += (uint64_t)w;
	}
	/* cached but clean: no writeback of the zeros in a timed phase */
	return fdatasync(fd) ? -errno : 0;
}

/*
 * Create path (O_EXCL, 0600), listed in the cleanup registry first: a
 * memtlb killed with SIGKILL after the open leaves a file that the next one
 * finds in the journal and removes. Returns the fd, or -errno (-EEXIST:
 * someone else's file, which is never listed as ours).
 */
static int create_listed(const char *path, int *handle)
{
	int fd, err;

	*handle = mt_cleanup_add_file(path);
	if (*handle < 0)
		return *handle;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = errno;
		mt_cleanup_forget(*handle);
		*handle = -1;
		return -err;
	}
	mt_cleanup_file_created(*handle, fd);
	return fd;
}

/* DIR/memtlb-XXXXXX as mkostemp makes it, but named before it exists. */
static int create_temp(char *path, size_t len, const char *dir, int *handle)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[6];
	int fd = -EEXIST;

	for (int tries = 0; fd == -EEXIST && tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -errno;
		if ((size_t)snprintf(path, len, "%s/memtlb-%c%c%c%c%c%c", dir,
				     chars[rnd[0] % 62], chars[rnd[1] % 62], chars[rnd[2] % 62],
				     chars[rnd[3] % 62], chars[rnd[4] % 62],
				     chars[rnd[5] % 62]) >= len)
			return -ENAMETOOLONG;
		fd = create_listed(path, handle);
	}
	return fd;
}

int mt_region_open(struct mt_region *r)
{
	const char *from, *p = backing_target(r->cfg, &from);
	struct stat st;
	int fd, ret;

	if (r->cfg->backing != MT_BACKING_FILE)
		return 0;
	if (!stat(p, &st) && S_ISDIR(st.st_mode)) {
		fd = create_temp(r->file_path, sizeof(r->file_path), p, &r->file_cleanup);
	} else if (!r->cfg->file_path) {
		return -ENOTDIR;	/* a TMPDIR that is no directory: never a file name */
	} else {
		if (snprintf(r->file_path, sizeof(r->file_path), "%s", p) >=
		    (int)sizeof(r->file_path)) {
			r->file_path[0] = '\0';
			return -ENAMETOOLONG;
		}
		fd = create_listed(p, &r->file_cleanup);
	}
	if (fd < 0) {
		r->file_path[0] = '\0';
		return fd;
	}
	r->file_fd = fd;
	ret = allocate(fd, r->cfg->region * r->slices, r->cfg);
	if (!ret && !r->cfg->file_cold)
		ret = fill(fd, r->cfg->region * r->slices, r->cfg);
	if (ret) {
		mt_region_close(r);	/* a full file system keeps no half file */
		r->file_path[0] = '\0';
	}
	return ret;
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
	int fd, ret;

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
	ret = allocate(fd, c->region, c);
	if (ret) {
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
	if (c->populate && c->pages != MT_PAGES_BASE && !madvised(c))
		flags |= MAP_POPULATE;
	if (madvised(c) && c->pages != MT_PAGES_BASE) {
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
	if (madvised(c)) {
		if (madvise(p, len, c->pages == MT_PAGES_BASE ? MADV_NOHUGEPAGE : MADV_HUGEPAGE) ||
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
