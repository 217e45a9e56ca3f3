/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_TUNABLE_H
#define MEMTLB_SYS_TUNABLE_H

#include <limits.h>
#include <stdbool.h>

#include "sys/msg.h"

/*
 * A kernel tunable a sweep or a run changes: "sysfs:/sys/PATH",
 * "sysctl:NAME" (vm.swappiness -> /proc/sys/vm/swappiness),
 * "debugfs:PATH" (under /sys/kernel/debug, never mounted by memtlb), or a
 * shorthand of the table in tunable.c ("thp", "mthp:64k",
 * "fault_around_bytes", "pcp_high_fraction"); under MEMTLB_SYSROOT like
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
	bool debugfs;		/* a debugfs: key: -ENOMEDIUM when not mounted */
	/* A THP-style choice's words, brackets dropped ("always madvise never"), else "" */
	char choices[256];
};

/*
 * Parse spec ("sysfs:PATH", "sysctl:NAME", "debugfs:PATH" or a shorthand;
 * spec keeps it as given): 0, or -EINVAL with msg.
 */
int mt_tunable_init(struct mt_tunable *t, const char *spec, struct mt_msg *msg);

/*
 * The shorthands, for help text and completion: the i-th name ("thp",
 * "mthp:SIZE", ...) and what it stands for, NULL past the last.
 */
const char *mt_tunable_shorthand(size_t i, const char **stands_for);

/*
 * Whether key (a --vary key) names a tunable: one of the prefixes or a
 * shorthand, checked or not; else it is a workload option.
 */
bool mt_tunable_is_key(const char *key);

/*
 * Whether a and b are one file (thp and sysfs:/sys/kernel/mm/
 * transparent_hugepage/enabled; a sysfs path through a link): two axes
 * would both write it. After init.
 */
bool mt_tunable_same_file(const struct mt_tunable *a, const struct mt_tunable *b);

/*
 * Read and keep the current value, and check it can be written: 0,
 * -ENOENT (no such tunable), -EACCES (no privilege, or read-only), -EFBIG
 * (a page or more), -ENOMEDIUM (a debugfs key, debugfs not mounted), -EPERM
 * (lockdown, for debugfs), -errno.
 */
int mt_tunable_save(struct mt_tunable *t);

/*
 * Why save's err means t cannot be varied here, as the user fixes it: msg
 * ("--vary: KEY: ..." and a hint), and err returned.
 */
int mt_tunable_save_error(const struct mt_tunable *t, int err, struct mt_msg *msg);

/*
 * Whether value can be written as far as can be told without writing it:
 * for a THP-style choice, one of its words; any value otherwise. After save.
 */
bool mt_tunable_accepts(const struct mt_tunable *t, const char *value);

/*
 * value accepted, as far as can be told (mt_tunable_accepts): 0, or
 * -EINVAL with msg naming it and the choice's words. After save.
 */
int mt_tunable_check_value(const struct mt_tunable *t, const char *value, struct mt_msg *msg);

/* Write a value: 0 or -errno (EINVAL: the kernel refused the value). */
int mt_tunable_set(struct mt_tunable *t, const char *value);

#endif
