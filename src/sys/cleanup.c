// SPDX-License-Identifier: MIT
/*
 * The registry of restore actions (see cleanup.h). Fixed slots, no malloc:
 * the signal handler walks them. A slot is filled with signals blocked and
 * published last, so the handler never sees half of one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/cleanup.h"

#define SLOTS 32

enum kind { FREE, UNLINK, RESTORE };

struct slot {
	volatile sig_atomic_t kind;
	char path[PATH_MAX];
	char value[128];
};

static struct slot slots[SLOTS];
static pid_t owner;
static struct sigaction prev[NSIG];	/* what each signal did before init */
/*
 * The signals that end memtlb: asked for (INT, TERM, HUP, QUIT), a closed
 * pipe on stdout (PIPE), and the faults a touch can take (BUS: a hugetlb
 * pool that ran dry; SEGV). The actions are plain syscalls, safe in all.
 */
static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGBUS, SIGSEGV };

static int act(struct slot *s)
{
	int ret = 0, fd;

	switch (s->kind) {
	case UNLINK:
		if (unlink(s->path) && errno != ENOENT)
			ret = -errno;
		break;
	case RESTORE:
		fd = open(s->path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		if (write(fd, s->value, strlen(s->value)) < 0)
			ret = -errno;
		if (close(fd) && !ret)
			ret = -errno;
		break;
	}
	s->kind = FREE;
	return ret;
}

void mt_cleanup_run_all(void)
{
	if (getpid() != owner)
		return;
	for (int i = SLOTS - 1; i >= 0; i--)
		if (slots[i].kind != FREE)
			act(&slots[i]);
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
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction cur;

		if (sigaction(sigs[i], NULL, &cur))
			return -errno;
		/* After a fork, ours is already there and prev is inherited. */
		if (cur.sa_handler != on_signal)
			prev[sigs[i]] = cur;
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	}
	if (atexit(at_exit))
		return -ENOMEM;
	return 0;
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
	ret = -ENOSPC;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < SLOTS; i++) {
		if (slots[i].kind != FREE)
			continue;
		strcpy(slots[i].path, path);
		strcpy(slots[i].value, value ? value : "");
		slots[i].kind = kind;
		ret = i;
		break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

int mt_cleanup_add_unlink(const char *path)
{
	return add(UNLINK, path, NULL);
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
	if (slots[handle].kind != FREE)
		ret = act(&slots[handle]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
