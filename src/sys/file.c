// SPDX-License-Identifier: MIT
/* The one atomic writer: reports and documents never appear half-written. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/file.h"

int mt_file_write_atomic(const char *path, mode_t mode, int (*fill)(FILE *f, void *arg),
			 void *arg)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	sigset_t block, old;
	FILE *f;
	int fd, ret;

	/* Same directory as the target, so rename() is atomic. */
	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir) ||
	    snprintf(tmp, sizeof(tmp), "%s/.memtlb-XXXXXX", dirname(dir)) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/*
	 * From the temp file's creation to the rename, an interrupt would leave
	 * the temp file behind: hold SIGINT/SIGTERM/SIGHUP until it is done.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	fd = mkostemp(tmp, O_CLOEXEC);	/* O_EXCL, mode 0600 */
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		goto out;
	}
	ret = fill(f, arg);
	if (!ret) {
		/* errno cleared first: a failure without one is -EIO, never a stale one */
		errno = 0;
		if (fflush(f) || ferror(f))
			ret = errno ? -errno : -EIO;
	}
	if (!ret && mode != 0600 && fchmod(fd, mode))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
