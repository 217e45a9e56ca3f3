/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_WORKLOAD_CHECK_H
#define MEMTLB_WORKLOAD_CHECK_H

#include <stdbool.h>

#include "model/config.h"

/*
 * What can be known about a workload config before it runs. The checks
 * have no side effects; growing the hugetlb pool is the one explicit step
 * that changes the machine (mt_workload_pool).
 */

/*
 * Options that contradict each other or the machine: the --backing file
 * path (mt_region_check), and the memory the run takes (the regions, the
 * random order's offsets, a --reserve's new huge pages) against the tighter
 * of MemAvailable and the cgroup's memory.max and memory.high, and hugetlb
 * pages against the hugetlb controller's limit, unless --force. 0, or
 * -EINVAL with msg.
 */
int mt_workload_check(const struct mt_config *cfg, struct mt_msg *msg);

/*
 * The points of an interleaved or random sweep, n configs: every point's
 * run is open at once, so every --backing file is too. Their sum must fit
 * the file system, and on tmpfs the memory (MemAvailable, the cgroup's
 * limits) beside the largest point's own use. 0, or -EINVAL or -ENOSPC
 * with msg; 0 with --force.
 */
int mt_workload_check_together(const struct mt_config *cfgs, size_t n, struct mt_msg *msg);

/*
 * --pages mthp:SIZE: whether the size is shmem's (shared and memfd
 * backings, the kernel's internal shmem mount: shmem_enabled) or
 * anonymous memory's (anon: enabled).
 */
bool mt_workload_mthp_shmem(const struct mt_config *cfg);

/* Runs, but not as asked (THP on a shmem backing with shmem THP off): true with msg. */
bool mt_workload_caveat(const struct mt_config *cfg, struct mt_msg *msg);

/*
 * hugetlb pages come from a pool: short of free pages the run would die of
 * SIGBUS in the middle. 0 when the pool has them (grown first with
 * cfg->reserve, restored at exit); -ENOSPC short, -ENOENT no pool of that
 * size, or -errno growing it, with msg. First the room for a file or shm
 * backing on its file system (mt_region_space): -ENOSPC with msg.
 */
int mt_workload_pool(const struct mt_config *cfg, struct mt_msg *msg);

#endif
