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
#include <linux/openat2.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/file.h"

/*
 * Paths are resolved by the kernel, never by hand: a symlink is followed
 * with the kernel's rules (fs.protected_symlinks refuses root a link
 * another user planted in a sticky world-writable directory, such as
 * /tmp), and what is replaced is named relative to a directory fd that
 * pins the directory the kernel found.
 */

/* openat2 (5.6) where the kernel has it; -ENOSYS where not. */
static int open_how(int dirfd, const char *path, uint64_t flags, uint64_t resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/*
 * Whether path reaches its file through a magic link (/dev/stdout ->
 * /proc/self/fd/1, /dev/fd/N): a descriptor, to be written through at its
 * end, never renamed over (memtlb stat -o /dev/stdout >> build.log).
 */
static bool through_descriptor(const char *path)
{
	int fd = open_how(AT_FDCWD, path, O_PATH | O_CLOEXEC, RESOLVE_NO_MAGICLINKS);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	if (fd != -ENOSYS)
		return fd == -ELOOP;
	return !strncmp(path, "/dev/std", 8) || !strncmp(path, "/dev/fd/", 8) ||
	       !strncmp(path, "/proc/", 6);
}

/*
 * The directory and name the kernel resolved fd (O_PATH of the final file)
 * to, from /proc/self/fd: the file's real place, symlinks already followed
 * under the kernel's rules. dirfd: that directory, opened without
 * following any symlink again (a component swapped for a link since is
 * refused). 0 or -errno.
 */
static int real_place(int fd, int *dirfd, char *base, size_t len)
{
	char proc[64], real[PATH_MAX], *slash;
	ssize_t n;
	int d;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, real, sizeof(real) - 1);
	if (n < 0)
		return -errno;
	real[n] = '\0';
	slash = strrchr(real, '/');
	if (real[0] != '/' || !slash || !slash[1])
		return -EINVAL;	/* not a path: a deleted file, a pipe */
	if ((size_t)snprintf(base, len, "%s", slash + 1) >= len)
		return -ENAMETOOLONG;
	*slash = '\0';
	d = open_how(AT_FDCWD, real[0] ? real : "/", O_PATH | O_DIRECTORY | O_CLOEXEC,
		     RESOLVE_NO_SYMLINKS);
	if (d == -ENOSYS)
		d = open(real[0] ? real : "/", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d < 0)
		return d == -1 ? -errno : d;
	*dirfd = d;
	return 0;
}

static bool is_stdout(const char *path)
{
	return !strcmp(path, "-");
}

static int say(struct mt_msg *msg, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int say(struct mt_msg *msg, int err, const char *fmt, ...)
{
	va_list ap;

	if (msg) {
		va_start(ap, fmt);
		vsnprintf(msg->text, sizeof(msg->text), fmt, ap);
		va_end(ap);
		msg->hint[0] = '\0';
	}
	return err;
}

/* dir (a path) is a directory memtlb can create a file in: 0 or why, in msg. */
static int dir_check(const char *dir, struct mt_msg *msg)
{
	struct stat st;

	if (stat(dir, &st))
		return say(msg, -errno, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return say(msg, -ENOTDIR, "%s: %s", dir, strerror(ENOTDIR));
	if (access(dir, W_OK | X_OK))
		return say(msg, -errno, "%s: %s", dir, strerror(errno));
	return 0;
}

int mt_file_output_check(const char *path, struct mt_msg *msg)
{
	char dir[PATH_MAX], link[PATH_MAX], base[NAME_MAX + 2], proc[64];
	struct stat st;
	size_t n = strlen(path);
	ssize_t ln;
	int fd, dfd, ret;

	if (msg)
		mt_msg_clear(msg);
	if (!n)
		return say(msg, -EINVAL, "empty file name");
	if (is_stdout(path))
		return 0;
	if (n >= PATH_MAX)
		return say(msg, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
	if (path[n - 1] == '/')
		return say(msg, -EISDIR, "%s", "names a directory, not a file");
	/* The kernel resolves: a link it refuses (protected_symlinks) is refused here. */
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd >= 0) {
		ret = fstat(fd, &st) ? -errno : 0;
		if (!ret && S_ISDIR(st.st_mode))
			ret = say(msg, -EISDIR, "%s", "is a directory");
		else if (!ret && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) ||
				  through_descriptor(path)))
			ret = access(path, W_OK) ? say(msg, -errno, "%s", strerror(errno)) : 0;
		else if (!ret && !S_ISREG(st.st_mode))
			ret = say(msg, -EINVAL, "%s",
				  S_ISBLK(st.st_mode) ? "is a block device: memtlb writes a "
				  "report to a file, a character device or a FIFO only"
				  : "not a regular file, a character device or a FIFO");
		else if (!ret && !(ret = real_place(fd, &dfd, base, sizeof(base)))) {
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dfd);
			if (access(proc, W_OK | X_OK))
				ret = say(msg, -errno, "its directory: %s", strerror(errno));
			close(dfd);
		} else if (ret) {
			ret = say(msg, ret, "%s", strerror(-ret));
		}
		close(fd);
		return ret;
	}
	if (errno != ENOENT)
		return say(msg, -errno, "%s", strerror(errno));
	/* Nothing there, or a link to nothing: the file to create, and where. */
	snprintf(dir, sizeof(dir), "%s", path);
	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		ln = readlink(path, link, sizeof(link) - 1);
		if (ln < 0)
			return say(msg, -errno, "%s", strerror(errno));
		link[ln] = '\0';
		if (link[0] == '/' || !strchr(dir, '/'))
			snprintf(dir, sizeof(dir), "%s", link);
		else if (snprintf(strrchr(dir, '/') + 1, sizeof(dir) - (size_t)(strrchr(dir, '/') +
			 1 - dir), "%s", link) >= (int)sizeof(dir))
			return say(msg, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
	}
	if (strlen(strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir) > NAME_MAX)
		return say(msg, -ENAMETOOLONG, "file name longer than %d bytes", NAME_MAX);
	/* dirname() returns "." for a bare name without touching dir: use what it returns. */
	return dir_check(dirname(dir), msg);
}

bool mt_file_is_stream(const char *path)
{
	struct stat st;

	if (is_stdout(path) || through_descriptor(path))
		return true;
	return !stat(path, &st) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
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

/* Straight into fd (-1: errno says why), which is closed after. */
static int write_fd(int fd, int (*fill)(FILE *f, void *arg), void *arg)
{
	FILE *f;
	int ret;

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

/*
 * Straight into what path opens for writing: a device, a FIFO, or a
 * descriptor's file at its end. No O_TRUNC: a device has no length, and a
 * log opened for append keeps what it had.
 */
static int write_special(const char *path, int flags, int (*fill)(FILE *f, void *arg),
			 void *arg)
{
	return write_fd(open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | flags), fill, arg);
}

/*
 * Through a descriptor path (/dev/stdout, /proc/self/fd/N): where it is one
 * of this process's own open files, written through that very descriptor,
 * at its offset and with its flags (> out: after what memtlb wrote; >>
 * log: at the end), so that the rest of memtlb's output follows it rather
 * than overwrites it. Another process's: appended at its end.
 */
static int write_descriptor(const char *path, int (*fill)(FILE *f, void *arg), void *arg)
{
	struct stat want, st;
	int fd, ret, mine = -1;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fstat(fd, &want) ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	for (int i = 0; i < 1024 && mine < 0; i++) {
		int fl = fcntl(i, F_GETFL);

		if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY && !(fl & O_PATH) && !fstat(i, &st) &&
		    st.st_dev == want.st_dev && st.st_ino == want.st_ino)
			mine = i;
	}
	if (mine < 0)
		return write_special(path, O_APPEND, fill, arg);
	/* stdio's own buffer first, then the report after it: the descriptor's order */
	fflush(NULL);
	return write_fd(fcntl(mine, F_DUPFD_CLOEXEC, 3), fill, arg);
}

/* ".memtlb-" and six random letters: the temp file's name. */
static void temp_name(char *buf, size_t len)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6] = { 0 };

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		for (size_t i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)(rand() ^ getpid());
	snprintf(buf, len, ".memtlb-%c%c%c%c%c%c", abc[r[0] % 62], abc[r[1] % 62],
		 abc[r[2] % 62], abc[r[3] % 62], abc[r[4] % 62], abc[r[5] % 62]);
}

/* A new file's mode: 0666 less the umask, which only umask(2) tells (and sets). */
static mode_t new_mode(void)
{
	mode_t mask = umask(022);

	umask(mask);
	return 0666 & ~mask;
}

/*
 * The atomic replace of base in dirfd: a temp file beside it (O_EXCL, never
 * through a link), filled, given mode, fsync'ed, renamed over base (a
 * rename replaces the name, never what a link there points to). SIGINT,
 * SIGTERM, SIGHUP and SIGXFSZ held from the temp file's creation to the
 * rename, so none leaves it behind (a write past RLIMIT_FSIZE then fails
 * with EFBIG instead). 0 or -errno; on failure the temp file is gone.
 */
static int replace_in(int dirfd, const char *base, mode_t mode,
		      int (*fill)(FILE *f, void *arg), void *arg)
{
	char tmp[32];
	sigset_t block, old;
	FILE *f;
	int fd = -1, ret;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGXFSZ);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (int i = 0; fd < 0 && i < 100; i++) {
		temp_name(tmp, sizeof(tmp));
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		unlinkat(dirfd, tmp, 0);
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
	if (!ret && renameat(dirfd, tmp, dirfd, base))
		ret = -errno;
	if (ret)
		unlinkat(dirfd, tmp, 0);
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

int mt_file_write_atomic(const char *path, mode_t mode, int (*fill)(FILE *f, void *arg),
			 void *arg)
{
	char base[NAME_MAX + 2], proc[64], dir[PATH_MAX], *slash;
	bool created = false;
	struct stat st;
	int fd, dirfd = -1, ret;

	if (is_stdout(path))
		return write_through(stdout, fill, arg);
	if (!*path)
		return -ENOENT;
	if (through_descriptor(path))
		return write_descriptor(path, fill, arg);
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && !lstat(path, &st) && S_ISLNK(st.st_mode)) {
		/* a link to nothing names the file to create: the kernel follows it */
		fd = open(path, O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC, 0600);
		created = fd >= 0;
	}
	if (fd < 0 && errno == ENOENT) {
		/* nothing there: its directory as the kernel finds it */
		if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
			return -ENAMETOOLONG;
		slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		if ((size_t)snprintf(base, sizeof(base), "%s", slash ? strrchr(path, '/') + 1
					     : path) >= sizeof(base))
			return -ENAMETOOLONG;
		dirfd = open(slash ? dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0)
			return -errno;
		ret = replace_in(dirfd, base, mode == MT_FILE_MODE_AS_SHELL ? new_mode() : mode,
				 fill, arg);
		close(dirfd);
		return ret;
	}
	if (fd < 0)
		return -errno;
	ret = fstat(fd, &st) ? -errno : 0;
	if (!ret && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		/* not ours to replace: written through, the very node opened */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		ret = write_special(proc, 0, fill, arg);
	} else if (!ret && !S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	} else if (!ret) {
		ret = real_place(fd, &dirfd, base, sizeof(base));
		if (mode == MT_FILE_MODE_AS_SHELL)
			mode = created ? new_mode() : st.st_mode & 07777;
		if (!ret)
			ret = replace_in(dirfd, base, mode, fill, arg);
		if (ret && created && dirfd >= 0)
			unlinkat(dirfd, base, 0);
	}
	if (dirfd >= 0)
		close(dirfd);
	close(fd);
	return ret;
}
