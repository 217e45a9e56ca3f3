/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_WORKLOAD_REGION_H
#define MEMTLB_WORKLOAD_REGION_H

#include <limits.h>
#include <stdint.h>

#include "model/config.h"
#include "sys/mapinfo.h"

/*
 * The memory the workload touches: mappings of cfg->region bytes with the
 * configured backing and pages, and for --backing file the file they map,
 * one slice of cfg->region bytes per mapping (a task's private region has
 * its own slice). Never prints. The config must outlive the region.
 */
struct mt_region {
	const struct mt_config *cfg;
	unsigned int slices;	/* mappings the file holds */
	int file_fd;		/* -1 without a file */
	int file_cleanup;	/* the unlink action, or -1 */
	char file_path[PATH_MAX];
};

/* No file yet: what mt_region_close may always be called on. */
void mt_region_init(struct mt_region *r, const struct mt_config *cfg, unsigned int slices);

/*
 * For --backing file, before the run: the path (file:PATH, else $TMPDIR,
 * else /tmp) is a directory memtlb can create a file in, or a new name in
 * one; not an existing file, link, FIFO or device, not under /proc or /sys,
 * not too long, and a TMPDIR is a directory. 0 (also without a file
 * backing), or -EINVAL with msg naming the path.
 */
int mt_region_check(const struct mt_config *cfg, struct mt_msg *msg);

/*
 * Room for the backing on its file system (--backing file: its directory;
 * shm: /dev/shm): slices regions of cfg->region. 0 (also when not known),
 * or -ENOSPC with msg naming the directory.
 */
int mt_region_space(const struct mt_config *cfg, unsigned int slices, struct mt_msg *msg);

/* The same for need bytes: the backings of several points alive at once. */
int mt_region_space_bytes(const struct mt_config *cfg, uint64_t need, struct mt_msg *msg);

/*
 * Whether the backing's pages are memory that cannot be reclaimed but by
 * swap: shared, shm and memfd (shmem), or a file on tmpfs or ramfs.
 */
bool mt_region_in_ram(const struct mt_config *cfg);

/*
 * For --backing file: create the file (in the directory given, O_EXCL,
 * mode 0600, removed however memtlb ends) and allocate its blocks
 * (posix_fallocate: a full file system is -ENOSPC now, not SIGBUS in a
 * touch; the file is removed then). 0 (also without a file backing),
 * -ENAMETOOLONG, -ENOTDIR (TMPDIR is no directory), -ENOSPC or -errno.
 */
int mt_region_open(struct mt_region *r);

/* Close and remove the file. */
void mt_region_close(struct mt_region *r);

/* Path of the --backing file, or NULL. */
const char *mt_region_file(const struct mt_region *r);

/*
 * mmap one region (slice of the file) with the configured backing and
 * pages (a shm or memfd object allocated first: -ENOSPC when full): THP
 * aligned to the huge page size, MADV_HUGEPAGE/NOHUGEPAGE, --populate. 0
 * with *out set, or -errno (-EINVAL for an unknown backing).
 */
int mt_region_map(const struct mt_region *r, unsigned int slice, char **out);

/* munmap a region of mt_region_map; 0 or -errno. */
int mt_region_unmap(const struct mt_region *r, char *p);

/*
 * --file-cache cold: drop the file's page cache and note in mi how many
 * pages the kernel kept (the most over the drops).
 */
void mt_region_drop_cache(const struct mt_region *r, struct mt_mapinfo *mi);

#endif
