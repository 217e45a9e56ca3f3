/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_FILE_H
#define MEMTLB_SYS_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Write path: "-" is stdout, written straight. A character device or a
 * FIFO (/dev/null, /dev/stdout, a pipe) is written through, never replaced.
 * Anything else is written atomically: fill(f, arg) writes into a temp file
 * created with O_EXCL (mode 0600) in the directory of the file path names
 * (symlinks followed: a link keeps pointing where it did and its target
 * gets the new text); it is flushed, given mode, fsync'ed and renamed over
 * that file, with SIGINT/SIGTERM/SIGHUP held from its creation to the
 * rename. fill returns 0 or -errno. Returns 0 or -errno (-EISDIR for a
 * directory, -EINVAL for a block device or a socket); on failure the temp
 * file is unlinked and the file is untouched.
 */
int mt_file_write_atomic(const char *path, mode_t mode, int (*fill)(FILE *f, void *arg),
			 void *arg);

/*
 * Whether mt_file_write_atomic(path) can succeed, as far as can be known
 * before it runs: a non-empty name, not a directory (nor ending in '/'),
 * a file name of at most NAME_MAX bytes, a regular file (or none) in an
 * existing, writable directory, or a writable character device or FIFO;
 * "-" is stdout. Returns 0 or -errno with why in msg (len bytes).
 */
int mt_file_output_check(const char *path, char *msg, size_t len);

/* Whether a and b are one file (st_dev and st_ino, symlinks followed). */
bool mt_file_same(const char *a, const char *b);

#endif
