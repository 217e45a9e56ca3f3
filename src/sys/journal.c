// SPDX-License-Identifier: MIT
/* The journal of changed tunables and pools, and the machine lock (journal.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
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
#define LOCK_FD_ENV "MEMTLB_LOCK_FD"
static char journal_path[PATH_MAX];	/* set before the first write: the handler unlinks it */
static volatile sig_atomic_t written;
static char last_note[1024];
static bool replayed;		/* once a process: a second replay would retry our own leftovers */
/*
 * The restores a dead memtlb left that could not be written back: kept in
 * every journal this process writes, and in journal.carried, which takes
 * the journal's place when ours would be removed (a rename is signal-safe).
 */
static char *carried;
static char carried_path[PATH_MAX];
static volatile sig_atomic_t carried_ready;
/* This process's backing files: files.PID, locked while it lives. */
static int files_fd = -1;
static pid_t files_pid;
static char files_path[PATH_MAX];

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

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * In place, strictly, as escape() writes: '%' takes two hex digits, and
 * "%00" is a whole field or nothing (the empty value; a value never holds
 * a NUL, so "a%00b" is damage, not "ab"); a field is never empty. -EINVAL
 * for anything else: a damaged journal, never a guess.
 */
static int unescape(char *s)
{
	char *o = s;

	if (!*s)
		return -EINVAL;
	if (!strcmp(s, "%00")) {
		*s = '\0';
		return 0;
	}
	for (char *p = s; *p; p++) {
		int hi, lo;

		if (*p != '%') {
			*o++ = *p;
			continue;
		}
		hi = hex(p[1]);
		lo = hi < 0 ? -1 : hex(p[2]);
		if (lo < 0 || !(hi | lo))
			return -EINVAL;
		*o++ = (char)(hi << 4 | lo);
		p += 2;
	}
	*o = '\0';
	return 0;
}

struct entries {
	const struct mt_journal_entry *e;
	size_t n;
};

static int fill(FILE *f, void *arg)
{
	const struct entries *en = arg;

	fprintf(f, "memtlb journal\npid %ld\n", (long)getpid());
	if (carried)
		fputs(carried, f);
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
	if (carried && n && !carried_ready) {
		struct entries none = { NULL, 0 };

		if ((size_t)snprintf(carried_path, sizeof(carried_path), "%s.carried",
				     journal_path) >= sizeof(carried_path))
			return -ENAMETOOLONG;
		ret = mt_file_write_atomic(carried_path, 0644, fill, &none);
		if (ret)
			return ret;
		carried_ready = 1;
	}
	ret = mt_file_write_atomic(journal_path, 0644, fill, &en);
	if (!ret)
		written = 1;
	return ret;
}

void mt_journal_remove(void)
{
	if (!written || lock_pid != getpid())
		return;
	/* What a dead memtlb left unrestored outlives our own entries. */
	if (carried_ready) {
		if (!rename(carried_path, journal_path))
			carried_ready = 0;
	} else if (!carried) {
		unlink(journal_path);
	}
	written = 0;
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

int mt_journal_parse_restore(char *line, char **path, char **value)
{
	char *sp;

	if (strncmp(line, "restore ", 8))
		return -EINVAL;
	sp = strchr(line + 8, ' ');
	if (!sp || strchr(sp + 1, ' '))
		return -EINVAL;
	*sp++ = '\0';
	/* longer than memtlb saves: not a journal it wrote */
	if (unescape(line + 8) || unescape(sp) || !line[8] || strlen(line + 8) >= PATH_MAX ||
	    strlen(sp) > MT_JOURNAL_VALUE_MAX)
		return -EINVAL;
	*path = line + 8;
	*value = sp;
	return 0;
}

/* "pid N": N from 1 to INT_MAX, in decimal, nothing else. */
static bool parse_pid(const char *line, long *pid)
{
	char *end;

	if (strncmp(line, "pid ", 4) || line[4] < '1' || line[4] > '9')
		return false;
	errno = 0;
	*pid = strtol(line + 4, &end, 10);
	return !errno && !*end && *pid > 0 && *pid <= INT_MAX;
}

char *mt_journal_read(const char *path, size_t *lines, long *pid, size_t *bad)
{
	char *text = NULL, *line = NULL;
	size_t cap = 0, len = 0, n = 0, got_len = 0;
	bool nomem = false;
	ssize_t got;
	FILE *f;

	*bad = 0;
	*pid = 0;
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while ((got = getline(&line, &cap, f)) > 0) {
		char *grown, *copy = NULL, *p, *v;
		bool ok;

		n++;
		/* a line the writer never ends, longer than it writes, or with a NUL */
		ok = line[got - 1] == '\n' && (size_t)got <= MT_JOURNAL_LINE_MAX &&
		     strlen(line) == (size_t)got && n <= 2 + MT_JOURNAL_RESTORES_MAX;
		if (ok) {
			line[got - 1] = '\0';
			if (n == 1) {
				ok = !strcmp(line, "memtlb journal");
			} else if (n == 2) {
				ok = parse_pid(line, pid);
			} else {
				copy = strdup(line);
				nomem = !copy;
				ok = nomem || !mt_journal_parse_restore(copy, &p, &v);
				free(copy);
			}
		}
		if (!ok) {
			*bad = n;
			break;
		}
		grown = nomem ? NULL : realloc(text, len + (size_t)got + 1);
		if (!grown) {
			/* short of memory, not a damaged journal: it stays for a later run */
			nomem = true;
			break;
		}
		text = grown;
		memcpy(text + len, line, (size_t)got);	/* with its NUL */
		len += (size_t)got;
		got_len++;
	}
	/* a read error is no end of file: the rest is unknown, not absent */
	if (ferror(f))
		nomem = true;
	free(line);
	fclose(f);
	if (!*bad && !nomem && n < 2)
		*bad = n + 1;
	if (*bad || nomem) {
		free(text);
		if (nomem)
			*bad = 0;
		return NULL;
	}
	*lines = got_len;
	return text;
}

/*
 * A journal found while we hold the lock is a dead process's: every memtlb
 * that changes the machine holds the lock until its restores ran, so its
 * writer is gone (a live process with that pid has it by reuse). Its
 * values are the originals: write them back before anything is saved.
 * A damaged journal (cut, too long, a bad escape) is refused whole and
 * moved aside to journal.damaged: a value read from it would be a guess.
 */
static void note_add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void replay(const char *path)
{
	char damaged[PATH_MAX + 16];
	size_t off = 0, kept_len = 0, lines = 0, bad;
	char *text, *l, *p, *v;
	FILE *kept;
	long pid;
	int failed = 0;

	last_note[0] = '\0';
	if (replayed)
		return;
	replayed = true;
	text = mt_journal_read(path, &lines, &pid, &bad);
	if (!text) {
		if (!bad)
			return;
		snprintf(damaged, sizeof(damaged), "%s.damaged", path);
		rename(path, damaged);
		snprintf(last_note, sizeof(last_note), "%.300s is damaged (line %zu): nothing "
			 "restored from it; it is kept as %.300s: restore by hand what it "
			 "lists", path, bad, damaged);
		return;
	}
	off = (size_t)snprintf(last_note, sizeof(last_note), "memtlb PID %ld ended "
			       "without restoring what it changed;", pid);
	kept = open_memstream(&carried, &kept_len);
	l = text;
	for (size_t i = 0; i < lines; l += strlen(l) + 1, i++) {
		char *copy;

		if (i < 2)
			continue;
		copy = strdup(l);
		/* checked already: only memory can fail here, and the entry is then kept */
		if (!copy || mt_journal_parse_restore(copy, &p, &v)) {
			failed = 1;
			if (kept)
				fprintf(kept, "%s\n", l);
		} else if (mt_sys_write(p, v)) {
			failed = 1;
			add_note(&off, "could not restore", p, v);
			if (kept)
				fprintf(kept, "%s\n", l);
		} else {
			add_note(&off, "restored", p, v);
		}
		free(copy);
	}
	free(text);
	if (kept && fclose(kept)) {
		free(carried);
		carried = NULL;
	}
	if (failed && off < sizeof(last_note))
		off += (size_t)snprintf(last_note + off, sizeof(last_note) - off,
					" what could not be restored stays in the journal for the "
					"next memtlb;");
	if (off && off < sizeof(last_note) && last_note[off - 1] == ';')
		last_note[off - 1] = '\0';
	/*
	 * What could not be written back stays listed for the next one to try,
	 * alone: the journal is rewritten with the failed entries only (and
	 * this process's own, later, beside them).
	 */
	if (!failed) {
		free(carried);
		carried = NULL;
		unlink(path);
		return;
	}
	/*
	 * No memory to carry them: our own journal would replace the file and
	 * lose them. Set aside whole, as a damaged one is, for a person.
	 */
	if (!carried || !carried[0]) {
		free(carried);
		carried = NULL;
		snprintf(damaged, sizeof(damaged), "%s.unrestored", path);
		rename(path, damaged);
		note_add("; it is kept as %.300s: restore by hand what it lists", damaged);
		return;
	}
	mt_journal_write(NULL, 0);
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

/* The wait's bound in ms: MT_JOURNAL_LOCK_TIMEOUT_ENV or the default. */
static long lock_timeout_ms(void)
{
	const char *s = getenv(MT_JOURNAL_LOCK_TIMEOUT_ENV);
	char *end;
	long v;

	if (!s || !*s)
		return MT_JOURNAL_LOCK_TIMEOUT_S * 1000L;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > 86400)
		return MT_JOURNAL_LOCK_TIMEOUT_S * 1000L;
	return v * 1000L;
}

/*
 * The lock a parent handed over (mt_journal_lock_pass): its fd, if it is
 * the lock file at path and its open file description holds the lock (the
 * parent's: a second F_OFD_SETLK on it succeeds at once), else -1. The
 * variable is not trusted: any other fd is left alone.
 */
static int inherited(const char *path)
{
	const char *s = getenv(LOCK_FD_ENV);
	struct stat a, b;
	char *end;
	long fd;

	if (!s)
		return -1;
	unsetenv(LOCK_FD_ENV);	/* for this process only: its commands get none */
	errno = 0;
	fd = strtol(s, &end, 10);
	if (errno || end == s || *end || fd < 3 || fd > INT_MAX)
		return -1;
	if (fstat((int)fd, &a) || stat(path, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino || !S_ISREG(a.st_mode))
		return -1;
	if (lock_whole((int)fd, false))
		return -1;
	fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	return (int)fd;
}

int mt_journal_lock_pass(void)
{
	char fd[16];

	if (lock_fd < 0)
		return 0;
	if (fcntl(lock_fd, F_SETFD, 0))
		return -errno;
	snprintf(fd, sizeof(fd), "%d", lock_fd);
	return setenv(LOCK_FD_ENV, fd, 1) ? -errno : 0;
}

/*
 * Take the lock on <run>/memtlb/lock: 0, -EWOULDBLOCK (holder set),
 * -ETIMEDOUT (holder set) after the wait's bound, or -errno. The wait
 * polls: a blocking F_OFD_SETLKW has no timeout, and a lock held for
 * minutes makes 50 ms of latency nothing.
 */
static int take(bool wait, pid_t *holder, const char *dir)
{
	char path[PATH_MAX + 16], pid[32];
	long waited = 0, limit;
	int fd, ret, n;

	snprintf(path, sizeof(path), "%s/lock", dir);
	fd = inherited(path);
	if (fd >= 0) {
		/* the parent's pid stays in the file: it holds the lock after us */
		lock_fd = fd;
		lock_pid = getpid();
		return 0;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
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
		limit = lock_timeout_ms();
		while ((ret = lock_whole(fd, false)) == -EAGAIN || ret == -EACCES) {
			if (waited >= limit) {
				if (holder)
					*holder = read_holder(fd);
				close(fd);
				return -ETIMEDOUT;
			}
			usleep(50 * 1000);
			waited += 50;
		}
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
	return 0;
}

/* Appended to last_note. */
static __attribute__((format(printf, 1, 2))) void note_add(const char *fmt, ...)
{
	size_t off = strlen(last_note);
	va_list ap;

	if (off >= sizeof(last_note) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(last_note + off, sizeof(last_note) - off, fmt, ap);
	va_end(ap);
}

/*
 * Remove a backing file a dead memtlb recorded, if it is still that file:
 * a regular file (the last component is not followed: a symlink put in its
 * place is left alone), the device and inode it had when created. 0 when
 * removed, -ENOENT when gone, -ESTALE when something else is there.
 */
void mt_journal_born(int dirfd, const char *path, int flags, struct timespec *born)
{
	struct statx stx;

	born->tv_sec = born->tv_nsec = 0;
	if (!statx(dirfd, path, flags, STATX_BTIME, &stx) && stx.stx_mask & STATX_BTIME) {
		born->tv_sec = stx.stx_btime.tv_sec;
		born->tv_nsec = stx.stx_btime.tv_nsec;
	}
}

static int remove_recorded(char *path, dev_t dev, ino_t ino, const struct timespec *born)
{
	char *slash = strrchr(path, '/');
	struct timespec b;
	struct stat st;
	int dfd, ret = 0;

	if (!slash || !slash[1])
		return -EINVAL;
	*slash = '\0';
	dfd = open(slash == path ? "/" : path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	*slash = '/';
	if (dfd < 0)
		return errno == ENOENT ? -ENOENT : -errno;
	if (fstatat(dfd, slash + 1, &st, AT_SYMLINK_NOFOLLOW))
		ret = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_dev != dev || st.st_ino != ino)
		ret = -ESTALE;
	else if (mt_journal_born(dfd, slash + 1, AT_SYMLINK_NOFOLLOW, &b),
		 b.tv_sec != born->tv_sec || b.tv_nsec != born->tv_nsec)
		ret = -ESTALE;
	else if (unlinkat(dfd, slash + 1, 0))
		ret = -errno;
	close(dfd);
	return ret;
}

/* A decimal number, all of field, within max: 0 or -EINVAL. */
static int number(const char *field, unsigned long long max, unsigned long long *out)
{
	char *end;

	if (*field < '0' || *field > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(field, &end, 10);
	return errno || *end || *out > max ? -EINVAL : 0;
}

int mt_journal_parse_file(char *line, struct mt_journal_file *out)
{
	char *f[4] = { NULL }, *dot, *save = NULL;
	unsigned long long dev, ino, sec, nsec;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (strncmp(line, "file ", 5) || strstr(line, "  ") || line[strlen(line) - 1] == ' ')
		return -EINVAL;
	for (char *t = strtok_r(line + 5, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == 4)
			return -EINVAL;
		f[n++] = t;
	}
	if ((n != 1 && n != 4) || unescape(f[0]) || !f[0][0] || strlen(f[0]) >= PATH_MAX)
		return -EINVAL;
	out->path = f[0];
	if (n == 1)
		return 0;
	dot = strchr(f[3], '.');
	if (!dot || strlen(dot + 1) != 9)
		return -EINVAL;
	*dot = '\0';
	if (number(f[1], (dev_t)-1, &dev) || number(f[2], (ino_t)-1, &ino) ||
	    number(f[3], LLONG_MAX, &sec) || number(dot + 1, 999999999, &nsec))
		return -EINVAL;
	out->created = true;
	out->dev = (dev_t)dev;
	out->ino = (ino_t)ino;
	out->born.tv_sec = (time_t)sec;
	out->born.tv_nsec = (long)nsec;
	return 0;
}

/*
 * One dead process's files.PID (fd locked by us): every file it lists that
 * is still the one it created is removed; the list goes too. A line that
 * is not whole and sound (cut by a kill in the in-place rewrite, or
 * damaged) names no file: nothing is removed on its word.
 */
static void recover_files_of(int fd, const char *path)
{
	char pid[32] = "?", *line = NULL;
	struct mt_journal_file e;
	size_t cap = 0, damaged = 0, n = 0;
	bool said = false;
	ssize_t got;
	FILE *f;

	f = fdopen(dup(fd), "re");
	if (!f)
		return;
	while ((got = getline(&line, &cap, f)) > 0) {
		int ret;

		n++;
		if (line[got - 1] != '\n' || strlen(line) != (size_t)got ||
		    (size_t)got > MT_JOURNAL_LINE_MAX) {
			damaged++;
			continue;
		}
		line[got - 1] = '\0';
		if (n == 1 && !strcmp(line, "memtlb files"))
			continue;
		if (n == 2 && !strncmp(line, "pid ", 4)) {
			long v;

			if (parse_pid(line, &v))
				snprintf(pid, sizeof(pid), "%ld", v);
			continue;
		}
		if (mt_journal_parse_file(line, &e)) {
			damaged++;
			continue;
		}
		if (!said) {
			if (last_note[0])
				note_add("; ");
			note_add("memtlb PID %s ended without removing its backing files:", pid);
			said = true;
		}
		if (!e.created) {
			/* Killed between the entry and the file: the file may not be its own. */
			note_add(" left %.200s (maybe not created by it);", e.path);
			continue;
		}
		ret = remove_recorded((char *)e.path, e.dev, e.ino, &e.born);
		if (!ret)
			note_add(" removed %.200s;", e.path);
		else if (ret == -ESTALE)
			note_add(" left %.200s (not the file it created);", e.path);
		else if (ret != -ENOENT)
			note_add(" could not remove %.200s: %s;", e.path, strerror(-ret));
	}
	free(line);
	fclose(f);
	if (damaged) {
		note_add("%s%.300s: %zu damaged line%s, no file removed on %s word;",
			 said ? " " : last_note[0] ? "; " : "", path, damaged,
			 damaged == 1 ? "" : "s", damaged == 1 ? "its" : "their");
		said = true;
	}
	unlink(path);
	if (said && last_note[strlen(last_note) - 1] == ';')
		last_note[strlen(last_note) - 1] = '\0';
}

/*
 * Every files.PID in dir whose writer is gone (its lock can be had): the
 * lock says so, not the pid, which another process may have by now.
 */
static void recover_files(const char *dir)
{
	char path[PATH_MAX + 300];
	struct dirent *d;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		struct stat st;
		int fd;

		if (strncmp(d->d_name, "files.", 6))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (files_fd >= 0 && !strcmp(path, files_path))
			continue;
		fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && !lock_whole(fd, false))
			recover_files_of(fd, path);
		close(fd);
	}
	closedir(dp);
}

int mt_journal_lock(bool wait, pid_t *holder, char *note, size_t note_len)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	int ret;

	if (note_len)
		note[0] = '\0';
	if (holder)
		*holder = 0;
	if (lock_fd >= 0 && lock_pid == getpid())
		return 0;
	ret = dir_path(dir, sizeof(dir));
	if (ret)
		return ret;
	ret = take(wait, holder, dir);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/journal", dir);
	replay(path);
	recover_files(dir);
	if (note_len)
		snprintf(note, note_len, "%s", last_note);
	return 0;
}

int mt_journal_recover(char *note, size_t note_len)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	static bool done;
	int ret;

	if (note_len)
		note[0] = '\0';
	if (done || (lock_fd >= 0 && lock_pid == getpid()))
		return 0;
	done = true;
	/* No /run/memtlb: no memtlb left anything (and a fixture stays untouched). */
	mt_sys_path(path, sizeof(path), "/run/memtlb");
	if (access(path, F_OK))
		return 0;
	ret = dir_path(dir, sizeof(dir));
	if (ret)
		return ret;
	last_note[0] = '\0';
	snprintf(path, sizeof(path), "%s/journal", dir);
	/* No journal, no lock taken: a sweep starting now never waits for us. */
	ret = access(path, F_OK) ? -ENOENT : take(false, NULL, dir);
	if (!ret) {
		replay(path);
		/* Measuring only: the next memtlb that changes the machine need not wait. */
		close(lock_fd);
		lock_fd = -1;
		lock_pid = 0;
	} else if (ret != -EWOULDBLOCK && ret != -ENOENT) {
		return ret;
	}
	recover_files(dir);
	if (note_len)
		snprintf(note, note_len, "%s", last_note);
	return 0;
}

static int fill_files(FILE *f, const struct mt_journal_file *e, size_t n)
{
	fprintf(f, "memtlb files\npid %ld\n", (long)getpid());
	for (size_t i = 0; i < n; i++) {
		fputs("file ", f);
		escape(f, e[i].path);
		if (e[i].created)
			fprintf(f, " %llu %llu %lld.%09ld", (unsigned long long)e[i].dev,
				(unsigned long long)e[i].ino, (long long)e[i].born.tv_sec,
				e[i].born.tv_nsec);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

int mt_journal_files_write(const struct mt_journal_file *e, size_t n)
{
	char dir[PATH_MAX], *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (!n) {
		mt_journal_files_remove();
		return 0;
	}
	if (files_fd < 0 || files_pid != getpid()) {
		ret = dir_path(dir, sizeof(dir));
		if (ret)
			return ret;
		if ((size_t)snprintf(files_path, sizeof(files_path), "%s/files.%ld", dir,
				     (long)getpid()) >= sizeof(files_path))
			return -ENAMETOOLONG;
		/* A list with our pid is a dead process's (pids are reused): its files first. */
		recover_files(dir);
		files_fd = open(files_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (files_fd < 0)
			return -errno;
		files_pid = getpid();
		ret = lock_whole(files_fd, false);
		if (ret) {
			close(files_fd);
			files_fd = -1;
			return ret;
		}
	}
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	ret = fill_files(f, e, n);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	/* In place: the lock is on this inode. A reader parses whole lines only. */
	if (!ret && pwrite(files_fd, text, len, 0) != (ssize_t)len)
		ret = -EIO;
	if (!ret && ftruncate(files_fd, (off_t)len))
		ret = -errno;
	free(text);
	return ret;
}

void mt_journal_files_remove(void)
{
	if (files_fd < 0 || files_pid != getpid())
		return;
	unlink(files_path);
	close(files_fd);
	files_fd = -1;
}
