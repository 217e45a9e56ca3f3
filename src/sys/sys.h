/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_SYS_H
#define MEMTLB_SYS_SYS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The kernel's files, the one way every module reads and writes them: a
 * path is taken under MEMTLB_SYSROOT when it is set (the tests' fixtures).
 */

/* Path under the sysroot; returns buf. */
const char *mt_sys_path(char *buf, size_t len, const char *path);

/*
 * Whether a fixture tree stands for the machine (MEMTLB_SYSROOT): what
 * only the CPU can tell (cpuid) is then not that machine's, and unread.
 */
bool mt_sys_fixture(void);

/* First line of a file, newline stripped: 0 or -errno. */
int mt_sys_read_line(const char *path, char *buf, size_t len);

/* Replace a file's contents with value (a /proc or /sys value): 0 or -errno. */
int mt_sys_write(const char *path, const char *value);

/* A kernel list of CPUs or nodes, "0-3,5": how many (5), or -1 when it is not one. */
int mt_sys_list_count(const char *s);

#endif
