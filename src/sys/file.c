// SPDX-License-Identifier: MIT
/* The one atomic writer: reports and documents never appear half-written. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/file.h"

/* The kernel's own limit on symlinks followed in one lookup. */
#define MAX_LINKS 40

/*
 * The name path finally stands for: symlinks followed, each relative one
 * from its link's directory, until a name that is not a link (or does not
 * exist: a dangling link names the file to create). out may be path.
 */
static int resolve_links(const char *path, char *out, size_t len)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return -ENAMETOOLONG;
	for (int i = 0; ; i++) {
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			break;
		if (i == MAX_LINKS)
			return -ELOOP;
		n = readlink(cur, link, sizeof(link));
		if (n < 0)
			return -errno;
		if ((size_t)n >= sizeof(link))
			return -ENAMETOOLONG;
		link[n] = '\0';
		if (link[0] == '/') {
			memcpy(cur, link, (size_t)n + 1);
			continue;
		}
		snprintf(dir, sizeof(dir), "%s", cur);
		if (snprintf(cur, sizeof(cur), "%s/%s", dirname(dir), link) >= (int)sizeof(cur))
			return -ENAMETOOLONG;
	}
	if (snprintf(out, len, "%s", cur) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

static bool is_stdout(const char *path)
{
	return !strcmp(path, "-");
}

static int say(char *msg, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int say(char *msg, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (msg && len) {
		va_start(ap, fmt);
		vsnprintf(msg, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

int mt_file_output_check(const char *path, char *msg, size_t len)
{
	char target[PATH_MAX], dir[PATH_MAX], *d;
	const char *base;
	struct stat st;
	size_t n = strlen(path);
	int ret;

	if (msg && len)
		msg[0] = '\0';
	if (!n)
		return say(msg, len, -EINVAL, "empty file name");
	if (is_stdout(path))
		return 0;
	if (n >= PATH_MAX)
		return say(msg, len, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
	if (path[n - 1] == '/')
		return say(msg, len, -EISDIR, "%s", "names a directory, not a file");
	/* stat follows links, the magic ones of /proc/self/fd too. */
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return say(msg, len, -EISDIR, "%s", "is a directory");
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			if (access(path, W_OK))
				return say(msg, len, -errno, "%s", strerror(errno));
			return 0;
		}
		if (!S_ISREG(st.st_mode))
			return say(msg, len, -EINVAL, "%s",
				   S_ISBLK(st.st_mode) ? "is a block device: memtlb writes a "
				   "report to a file, a character device or a FIFO only"
				   : "not a regular file, a character device or a FIFO");
	} else if (errno != ENOENT) {
		return say(msg, len, -errno, "%s", strerror(errno));
	}
	ret = resolve_links(path, target, sizeof(target));
	if (ret)
		return say(msg, len, ret, "%s", strerror(-ret));
	snprintf(dir, sizeof(dir), "%s", target);
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	if (strlen(base) > NAME_MAX)
		return say(msg, len, -ENAMETOOLONG, "file name longer than %d bytes", NAME_MAX);
	/*
	 * The temp file and the rename both need the directory. dirname()
	 * returns "." for a bare name without touching dir: use what it returns.
	 */
	d = dirname(dir);
	if (stat(d, &st))
		return say(msg, len, -errno, "%s: %s", d, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return say(msg, len, -ENOTDIR, "%s: %s", d, strerror(ENOTDIR));
	if (access(d, W_OK | X_OK))
		return say(msg, len, -errno, "%s: %s", d, strerror(errno));
	return 0;
}

bool mt_file_same(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Straight into a character device or a FIFO: it is not ours to replace. */
static int write_through(FILE *f, int (*fill)(FILE *f, void *arg), void *arg)
{
	int ret = fill(f, arg);

	if (!ret) {
		errno = 0;
		if (fflush(f) || ferror(f))
			ret = errno ? -errno : -EIO;
	}
	return ret;
}

static int write_special(const char *path, int (*fill)(FILE *f, void *arg), void *arg)
{
	FILE *f;
	int fd, ret;

	/* No O_CREAT: the node exists; no O_TRUNC, a device has no length. */
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = write_through(f, fill, arg);
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int mt_file_write_atomic(const char *path, mode_t mode, int (*fill)(FILE *f, void *arg),
			 void *arg)
{
	char target[PATH_MAX], tmp[PATH_MAX], dir[PATH_MAX];
	sigset_t block, old;
	struct stat st;
	FILE *f;
	int fd, ret;

	if (is_stdout(path))
		return write_through(stdout, fill, arg);
	if (!*path)
		return -ENOENT;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			return write_special(path, fill, arg);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	/* A symlink stays: the file it points to is the one replaced. */
	ret = resolve_links(path, target, sizeof(target));
	if (ret)
		return ret;
	/* Same directory as the target, so rename() is atomic. */
	if (snprintf(dir, sizeof(dir), "%s", target) >= (int)sizeof(dir) ||
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
	if (!ret && rename(tmp, target))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
