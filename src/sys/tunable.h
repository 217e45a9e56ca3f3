/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_TUNABLE_H
#define MEMTLB_SYS_TUNABLE_H

#include <limits.h>
#include <stdbool.h>

#include "sys/msg.h"

/*
 * A kernel tunable a sweep changes: "sysfs:/sys/PATH" or "sysctl:NAME"
 * (vm.swappiness -> /proc/sys/vm/swappiness), under MEMTLB_SYSROOT like
 * every /proc and /sys read. The value found first is saved; the caller
 * registers its restore with the cleanup registry (cleanup.h), which writes
 * it back however memtlb ends.
 */
/* A value is at most a page, its NUL included. */
#define MT_TUNABLE_MAX 4096

struct mt_tunable {
	char spec[128];		/* as given: "sysfs:/sys/kernel/mm/..." */
	char path[PATH_MAX];	/* the file, sysroot included */
	/*
	 * The original value: the file's exact bytes, newlines and all, or
	 * the chosen word of a THP-style choice ("madvise" of
	 * "always [madvise] never").
	 */
	char saved[MT_TUNABLE_MAX];
	bool have_saved;
};

/* Parse spec ("sysfs:PATH" or "sysctl:NAME"): 0, or -EINVAL with msg. */
int mt_tunable_init(struct mt_tunable *t, const char *spec, struct mt_msg *msg);

/*
 * Read and keep the current value, and check it can be written: 0,
 * -ENOENT (no such tunable), -EACCES (no privilege, or read-only), -EFBIG
 * (a page or more), -errno.
 */
int mt_tunable_save(struct mt_tunable *t);

/* Write a value: 0 or -errno (EINVAL: the kernel refused the value). */
int mt_tunable_set(struct mt_tunable *t, const char *value);

#endif
