/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_FILE_H
#define MEMTLB_SYS_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "sys/msg.h"

/*
 * Write path, every link followed by the kernel's own walk (so
 * fs.protected_symlinks applies), never by hand:
 *   - "-" is stdout, written straight;
 *   - a descriptor (/dev/stdout, /dev/fd/N, /proc/self/fd/N: a magic link)
 *     is written through: through this process's own descriptor, at its
 *     offset and with its O_APPEND, where it holds the file; else at the
 *     file's end. Never renamed over (stat -o /dev/stdout >> log);
 *   - a character device or a FIFO is written through, never replaced;
 *   - a regular file (or none) is replaced atomically: fill(f, arg) writes
 *     a temp file created with O_EXCL (mode 0600) in the directory the
 *     kernel resolved, named relative to that directory's fd; it is
 *     flushed, given mode, fsync'ed and renamed over the file, with
 *     SIGINT, SIGTERM, SIGHUP and SIGXFSZ held from its creation to the
 *     rename. A link stays: the file the kernel reaches through it is
 *     replaced; a dangling one names the file to create.
 * fill returns 0 or -errno. Returns 0 or -errno (-EISDIR for a directory,
 * -EINVAL for a block device or a socket, -EACCES for a link the kernel
 * will not follow); on failure the temp file is unlinked and the file is
 * untouched.
 */
int mt_file_write_atomic(const char *path, mode_t mode, int (*fill)(FILE *f, void *arg),
			 void *arg);

/*
 * The mode of a report or output file, as perf and every shell tool leave
 * one: a file that was there keeps its own (a redirection truncates, it
 * does not recreate), a new one is 0666 less the umask. As mode above.
 */
#define MT_FILE_MODE_AS_SHELL ((mode_t)-1)

/*
 * Whether mt_file_write_atomic(path) can succeed, as far as can be known
 * before it runs: a non-empty name, not a directory (nor ending in '/'),
 * a file name of at most NAME_MAX bytes, a regular file (or none) in an
 * existing, writable directory, or a writable character device or FIFO;
 * "-" is stdout. Returns 0 or -errno with why in msg (NULL: not said).
 */
int mt_file_output_check(const char *path, struct mt_msg *msg);

/*
 * Whether path is a stream, written through rather than replaced: "-", a
 * descriptor, a character device or a FIFO. A stream takes one document:
 * a second would follow the first, not replace it.
 */
bool mt_file_is_stream(const char *path);

/* Whether a and b are one file (st_dev and st_ino, symlinks followed). */
bool mt_file_same(const char *a, const char *b);

#endif
