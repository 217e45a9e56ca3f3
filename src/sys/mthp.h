/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_MTHP_H
#define MEMTLB_SYS_MTHP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/msg.h"

/*
 * Multi-size THP (kernel 6.8+): the folio sizes the kernel offers, each a
 * /sys/kernel/mm/transparent_hugepage/hugepages-<kB>kB directory with an
 * "enabled" control for anonymous memory and a "shmem_enabled" one for
 * shmem (under MEMTLB_SYSROOT); and one size made the only one for a run.
 */
#define MT_MTHP_MAX 16

/* The sizes offered for anonymous memory (shmem false) or shmem, in bytes,
 * smallest first, at most max in out: how many. */
size_t mt_mthp_sizes(bool shmem, uint64_t *out, size_t max);

/* Whether size is one of them. */
bool mt_mthp_offered(bool shmem, uint64_t size);

/* The sizes as "16k, 32k, 64k" for a message; "" when none is offered. */
void mt_mthp_list(bool shmem, char *buf, size_t len);

/*
 * Whether every control can be written (root, a writable sysfs): 0, or
 * -EACCES with msg naming the file.
 */
int mt_mthp_check(bool shmem, struct mt_msg *msg);

/* What mt_mthp_use changed, each restore a cleanup registry handle. */
struct mt_mthp_run {
	int handle[MT_MTHP_MAX];
	size_t n;
};

/*
 * Make size the only one: its control set to madvise (advise for shmem:
 * the region is MADV_HUGEPAGE'd), every other size's to never. Each
 * control's value is saved and its restore registered with the cleanup
 * registry (journaled) before it is written, so however memtlb ends it
 * is put back. 0, or -errno (what was changed is restored).
 */
int mt_mthp_use(uint64_t size, bool shmem, struct mt_mthp_run *run);

/* Every control back as it was: 0, or the first -errno (kept in the journal). */
int mt_mthp_restore(struct mt_mthp_run *run);

#endif
