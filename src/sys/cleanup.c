// SPDX-License-Identifier: MIT
/*
 * The registry of restore actions (see cleanup.h). Fixed slots, no malloc:
 * the signal handler walks them. A slot is filled with signals blocked and
 * published last, so the handler never sees half of one. A restore of a
 * path already registered is the same action: its first saved value is the
 * original (a sweep grows the pool at every point), so slots never run out
 * on repeats. The restores are listed in the journal (journal.h) before the
 * caller changes anything, and it is removed once they all ran.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cleanup.h"
#include "sys/journal.h"

#define SLOTS 32

/*
 * FAILED: a restore that could not be written back, kept in the journal
 * for the next memtlb. FILE: a backing file, in this process's list of
 * files (journal.h) from before it exists; dev and ino once it does.
 */
enum kind { FREE, UNLINK, RESTORE, FAILED, FILE_ };

struct slot {
	volatile sig_atomic_t kind;
	char path[PATH_MAX];
	char value[MT_JOURNAL_VALUE_MAX];	/* a tunable's exact bytes, up to a page */
	bool created;
	dev_t dev;
	ino_t ino;
	struct timespec born;
};

static struct slot slots[SLOTS];
static pid_t owner;
static struct sigaction prev[NSIG];	/* what each signal did before init */
static volatile sig_atomic_t restore_failed;

/*
 * The signals whose default action ends the process, which are all but
 * these: SIGKILL and SIGSTOP cannot be caught, the stop signals stop and
 * CHLD, URG, WINCH and CONT do not end anything. Everything else does,
 * asked for (INT, TERM, HUP, QUIT, USR1, ...), from a limit (XCPU, XFSZ:
 * ulimit -f), a fault (BUS: a hugetlb pool that ran dry; SEGV, ILL, FPE),
 * abort() (ABRT) or a timer nobody armed (ALRM, VTALRM, PROF), and the
 * real-time ones. The actions are plain syscalls, safe in all.
 */
static bool ends_process(int sig)
{
	switch (sig) {
	case SIGKILL:
	case SIGSTOP:
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
	case SIGCHLD:
	case SIGCONT:
	case SIGURG:
	case SIGWINCH:
		return false;
	}
	return true;
}

/*
 * The whole value in one write, as the kernel's store takes it: a write cut
 * short (a signal, a full page) put part of it in place, which is a failed
 * restore, kept in the journal, not a done one. Async-signal-safe.
 */
static int write_all(int fd, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;

	do {
		n = write(fd, value, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static int act(struct slot *s)
{
	struct timespec b;
	struct stat st;
	int ret = 0, fd;

	switch (s->kind) {
	case FILE_:
		/* Only the file we created: not what was put in its place since. */
		if (!s->created || lstat(s->path, &st))
			break;
		mt_journal_born(AT_FDCWD, s->path, AT_SYMLINK_NOFOLLOW, &b);
		if (!S_ISREG(st.st_mode) || st.st_dev != s->dev || st.st_ino != s->ino ||
		    b.tv_sec != s->born.tv_sec || b.tv_nsec != s->born.tv_nsec)
			ret = -ESTALE;
		else if (unlink(s->path) && errno != ENOENT)
			ret = -errno;
		break;
	case UNLINK:
		if (unlink(s->path) && errno != ENOENT)
			ret = -errno;
		break;
	case RESTORE:
		fd = open(s->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		ret = write_all(fd, s->value);
		if (close(fd) && !ret)
			ret = -errno;
		break;
	}
	s->kind = ret && s->kind == RESTORE ? FAILED : FREE;
	return ret;
}

void mt_cleanup_run_all(void)
{
	if (getpid() != owner)
		return;
	for (int i = SLOTS - 1; i >= 0; i--) {
		bool restore = slots[i].kind == RESTORE;

		if (slots[i].kind != FREE && slots[i].kind != FAILED && act(&slots[i]) &&
		    restore)
			restore_failed = 1;
	}
	/* A value that could not be written back stays in the journal. */
	if (!restore_failed)
		mt_journal_remove();
	mt_journal_files_remove();
}

/*
 * A command that had its own handler (sweep stops after the point and
 * restores its tunables) keeps it: the actions then run at exit, while the
 * run they serve may still need them (a hugetlb pool). Otherwise the signal
 * would kill memtlb: run them now, and die of it.
 */
static void on_signal(int sig)
{
	int saved = errno;

	if (!(prev[sig].sa_flags & SA_SIGINFO) && prev[sig].sa_handler == SIG_IGN)
		return;
	if (prev[sig].sa_flags & SA_SIGINFO || prev[sig].sa_handler != SIG_DFL) {
		if (prev[sig].sa_flags & SA_SIGINFO)
			prev[sig].sa_sigaction(sig, NULL, NULL);
		else
			prev[sig].sa_handler(sig);
		errno = saved;
		return;
	}
	mt_cleanup_run_all();
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

static void at_exit(void)
{
	mt_cleanup_run_all();
}

int mt_cleanup_init(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	if (owner == getpid())
		return 0;
	owner = getpid();
	/* A second signal waits until the actions ran and the first one killed us. */
	sigfillset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction cur;

		if (!ends_process(sig))
			continue;
		/* The C library keeps a few real-time signals for itself: EINVAL. */
		if (sigaction(sig, NULL, &cur))
			continue;
		/* After a fork, ours is already there and prev is inherited. */
		if (cur.sa_handler != on_signal)
			prev[sig] = cur;
		if (sigaction(sig, &sa, NULL) && errno != EINVAL)
			return -errno;
	}
	if (atexit(at_exit))
		return -ENOMEM;
	return 0;
}

/*
 * The journal, from the pending restores (signals blocked by the caller):
 * rewritten, or removed when none is left. 0 or -errno.
 */
static int journal_sync(void)
{
	struct mt_journal_entry e[SLOTS];
	size_t n = 0;

	for (int i = 0; i < SLOTS; i++)
		if (slots[i].kind == RESTORE || slots[i].kind == FAILED)
			e[n++] = (struct mt_journal_entry){ slots[i].path, slots[i].value };
	if (!n) {
		mt_journal_remove();
		return 0;
	}
	return mt_journal_write(e, n);
}

/*
 * This process's list of backing files, from the FILE slots. Where
 * /run/memtlb cannot be written (not root) the list is not kept: the
 * registry still removes the files at any end but SIGKILL.
 */
static void files_sync(void)
{
	struct mt_journal_file e[SLOTS];
	size_t n = 0;

	for (int i = 0; i < SLOTS; i++)
		if (slots[i].kind == FILE_)
			e[n++] = (struct mt_journal_file){ slots[i].path, slots[i].created,
							   slots[i].dev, slots[i].ino,
							   slots[i].born };
	mt_journal_files_write(e, n);
}

static int add(enum kind kind, const char *path, const char *value)
{
	sigset_t all, old;
	int ret = -ENOSPC, i;

	if (strlen(path) >= PATH_MAX || (value && strlen(value) >= sizeof(slots[0].value)))
		return -ENAMETOOLONG;
	ret = mt_cleanup_init();
	if (ret)
		return ret;
	/* Normally taken already, before the value was read (hugetlb.c, sweep.c). */
	if (kind == RESTORE) {
		ret = mt_journal_lock(true, NULL, NULL, 0);
		if (ret)
			return ret;
	}
	ret = -ENOSPC;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (i = 0; kind == RESTORE && i < SLOTS; i++) {
		if (slots[i].kind == RESTORE && !strcmp(slots[i].path, path)) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			return i;
		}
	}
	for (i = 0; i < SLOTS; i++) {
		if (slots[i].kind != FREE)
			continue;
		strcpy(slots[i].path, path);
		strcpy(slots[i].value, value ? value : "");
		slots[i].created = false;
		slots[i].kind = kind;
		ret = i;
		break;
	}
	/* Written before the caller changes the value: SIGKILL may come next. */
	if (ret >= 0 && kind == RESTORE) {
		int err = journal_sync();

		if (err) {
			slots[ret].kind = FREE;
			ret = err;
		}
	}
	/* Before the file exists: SIGKILL between the two leaves a named entry. */
	if (ret >= 0 && kind == FILE_)
		files_sync();
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

int mt_cleanup_add_unlink(const char *path)
{
	return add(UNLINK, path, NULL);
}

int mt_cleanup_add_file(const char *path)
{
	return add(FILE_, path, NULL);
}

/* Under blocked signals: the handler reads the slot. */
static void file_update(int handle, int fd)
{
	sigset_t all, old;
	struct stat st;

	if (handle < 0 || handle >= SLOTS || slots[handle].kind != FILE_)
		return;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (fd < 0) {
		slots[handle].kind = FREE;
	} else if (!fstat(fd, &st)) {
		slots[handle].dev = st.st_dev;
		slots[handle].ino = st.st_ino;
		mt_journal_born(fd, "", AT_EMPTY_PATH, &slots[handle].born);
		slots[handle].created = true;
	}
	files_sync();
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void mt_cleanup_file_created(int handle, int fd)
{
	if (fd >= 0)
		file_update(handle, fd);
}

void mt_cleanup_forget(int handle)
{
	file_update(handle, -1);
}

int mt_cleanup_add_restore(const char *path, const char *value)
{
	return add(RESTORE, path, value);
}

int mt_cleanup_run(int handle)
{
	sigset_t all, old;
	int ret = 0;

	if (handle < 0 || handle >= SLOTS)
		return -EINVAL;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (slots[handle].kind != FREE && slots[handle].kind != FAILED) {
		bool restore = slots[handle].kind == RESTORE, file = slots[handle].kind == FILE_;

		ret = act(&slots[handle]);
		/*
		 * Done: out of the journal; failed: kept in it (a FAILED slot) for
		 * a later memtlb, whatever succeeds after.
		 */
		if (restore)
			journal_sync();
		if (restore && ret)
			restore_failed = 1;
		if (file)
			files_sync();
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
