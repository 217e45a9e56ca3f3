// SPDX-License-Identifier: MIT
/* The journal of changed tunables and pools, and the machine lock (journal.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/file.h"
#include "sys/journal.h"
#include "sys/sysinfo.h"

static int lock_fd = -1;
static pid_t lock_pid;
static char journal_path[PATH_MAX];	/* set before the first write: the handler unlinks it */
static volatile sig_atomic_t written;
static char last_note[1024];

/* <sysroot>/run/memtlb, created: 0 or -errno. */
static int dir_path(char *buf, size_t len)
{
	char run[PATH_MAX];

	mt_sys_path(run, sizeof(run), "/run");
	if (mkdir(run, 0755) && errno != EEXIST)
		return -errno;
	if ((size_t)snprintf(buf, len, "%s/memtlb", run) >= len)
		return -ENAMETOOLONG;
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static void escape(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p >= 0x7f)
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
	}
	if (!*s)
		fputs("%00", f);	/* an empty value is still a field */
}

/* In place; "%00" alone is the empty string. */
static void unescape(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++) {
		unsigned int c;

		if (*p == '%' && sscanf(p + 1, "%2X", &c) == 1) {
			p += 2;
			if (c)
				*o++ = (char)c;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
}

struct entries {
	const struct mt_journal_entry *e;
	size_t n;
};

static int fill(FILE *f, void *arg)
{
	const struct entries *en = arg;

	fprintf(f, "memtlb journal\npid %ld\n", (long)getpid());
	for (size_t i = 0; i < en->n; i++) {
		fputs("restore ", f);
		escape(f, en->e[i].path);
		fputc(' ', f);
		escape(f, en->e[i].value);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

int mt_journal_write(const struct mt_journal_entry *e, size_t n)
{
	struct entries en = { e, n };
	char dir[PATH_MAX];
	int ret;

	ret = dir_path(dir, sizeof(dir));
	if (ret)
		return ret;
	if ((size_t)snprintf(journal_path, sizeof(journal_path), "%s/journal", dir) >=
	    sizeof(journal_path))
		return -ENAMETOOLONG;
	ret = mt_file_write_atomic(journal_path, 0644, fill, &en);
	if (!ret)
		written = 1;
	return ret;
}

void mt_journal_remove(void)
{
	if (written && lock_pid == getpid()) {
		unlink(journal_path);
		written = 0;
	}
}

const char *mt_journal_note(void)
{
	return last_note;
}

/* Appended to the note, a value cut at its first newline (nr_hugepages' "4\n"). */
static void add_note(size_t *off, const char *what, const char *path, const char *value)
{
	char v[160];

	snprintf(v, sizeof(v), "%s", value);
	v[strcspn(v, "\n")] = '\0';
	if (*off < sizeof(last_note))
		*off += (size_t)snprintf(last_note + *off, sizeof(last_note) - *off,
					 " %s %s to '%s';", what, path, v);
}

/*
 * A journal found while we hold the lock is a dead process's: every memtlb
 * that changes the machine holds the lock until its restores ran, so its
 * writer is gone (a live process with that pid has it by reuse). Its
 * values are the originals: write them back before anything is saved.
 */
static void replay(const char *path)
{
	char line[2 * PATH_MAX + 1024], *sp;
	size_t off = 0;
	long pid = 0;
	int failed = 0;
	FILE *f;

	last_note[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "pid %ld", &pid) == 1) {
			off = (size_t)snprintf(last_note, sizeof(last_note), "memtlb PID %ld ended "
					       "without restoring what it changed;", pid);
			continue;
		}
		if (strncmp(line, "restore ", 8))
			continue;
		sp = strchr(line + 8, ' ');
		if (!sp)
			continue;
		*sp++ = '\0';
		unescape(line + 8);
		unescape(sp);
		if (mt_sys_write(line + 8, sp)) {
			failed = 1;
			add_note(&off, "could not restore", line + 8, sp);
		} else {
			add_note(&off, "restored", line + 8, sp);
		}
	}
	fclose(f);
	if (off && off < sizeof(last_note) && last_note[off - 1] == ';')
		last_note[off - 1] = '\0';
	/* What could not be written back stays listed for the next one to try. */
	if (!failed)
		unlink(path);
}

/*
 * An open file description lock (flock's semantics: tied to this open, not
 * to the process's other fds on the file, dropped when the last fd closes;
 * <sys/file.h> itself is shadowed by src/sys/file.h).
 */
static int lock_whole(int fd, bool wait)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	return fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl) ? -errno : 0;
}

static pid_t read_holder(int fd)
{
	char buf[32] = "";
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (pid_t)strtol(buf, NULL, 10);
}

int mt_journal_lock(bool wait, pid_t *holder, char *note, size_t note_len)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], pid[32];
	int fd, ret, n;

	if (note_len)
		note[0] = '\0';
	if (holder)
		*holder = 0;
	if (lock_fd >= 0 && lock_pid == getpid())
		return 0;
	ret = dir_path(dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = lock_whole(fd, false);
	if (ret) {
		if (ret != -EAGAIN && ret != -EACCES) {
			close(fd);
			return ret;
		}
		if (holder)
			*holder = read_holder(fd);
		if (!wait) {
			close(fd);
			return -EWOULDBLOCK;
		}
		while ((ret = lock_whole(fd, true)) == -EINTR)
			;
		if (ret) {
			close(fd);
			return ret;
		}
	}
	lock_fd = fd;
	lock_pid = getpid();
	/* The pid is for the waiting line only: a failure here costs nothing else. */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)lock_pid);
	if (!ftruncate(fd, 0) && pwrite(fd, pid, (size_t)n, 0) != n)
		pid[0] = '\0';
	snprintf(path, sizeof(path), "%s/journal", dir);
	replay(path);
	if (note_len)
		snprintf(note, note_len, "%s", last_note);
	return 0;
}
