/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_SYS_FILE_H
#define MEMTLB_SYS_FILE_H

#include <stdio.h>
#include <sys/types.h>

/*
 * Write path atomically: fill(f, arg) writes into a temp file created with
 * O_EXCL (mode 0600) in path's directory; it is flushed, given mode, fsync'ed
 * and renamed over path, with SIGINT/SIGTERM/SIGHUP held from its creation
 * to the rename. fill returns 0 or -errno. Returns 0 or -errno; on failure
 * the temp file is unlinked and path is untouched.
 */
int mt_file_write_atomic(const char *path, mode_t mode, int (*fill)(FILE *f, void *arg),
			 void *arg);

#endif
