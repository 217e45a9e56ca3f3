// SPDX-License-Identifier: MIT
/* memtlb run's measurement: counters inherited by the command, enabled by its exec. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/command.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The command's pid while it runs, for the handler of SIGTERM and SIGHUP
 * sent to memtlb alone (not its process group): passed on, so the command
 * is not left running orphaned; memtlb then waits, reports and exits
 * 128 + the signal. 0 outside a run, and in the child's copy.
 */
static volatile sig_atomic_t child_pid, got_sig, attach_end;

/* -p: Ctrl-C ends the counting of a process that is not memtlb's. */
static void on_attach_int(int sig)
{
	(void)sig;
	attach_end = 1;
}

static void on_signal(int sig)
{
	int saved = errno;

	got_sig = sig;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
	errno = saved;
}

/*
 * execvp without its fallback: execvp runs a file the kernel refuses with
 * ENOEXEC (a script without #!, a damaged binary) under /bin/sh, and no
 * shell is ever used. PATH searched as execvp does: EACCES remembered and
 * the search goes on, a missing file or directory skipped, any other error
 * (ENOEXEC) is the answer. Returns the errno.
 */
static int exec_path(char *const argv[])
{
	const char *path = getenv("PATH"), *p, *end;
	char full[PATH_MAX];
	bool denied = false;
	size_t len;

	if (strchr(argv[0], '/')) {
		execv(argv[0], argv);
		return errno;
	}
	if (!path)
		path = "/bin:/usr/bin";	/* glibc's default (confstr _CS_PATH) */
	len = strlen(argv[0]);
	for (p = path; ; p = end + 1) {
		size_t dlen;

		end = strchrnul(p, ':');
		dlen = (size_t)(end - p);
		/* An empty entry is the current directory. */
		if (dlen + len + 2 <= sizeof(full)) {
			memcpy(full, p, dlen);
			if (!dlen)
				full[dlen++] = '.';
			full[dlen] = '/';
			memcpy(full + dlen + 1, argv[0], len + 1);
			execv(full, argv);
			switch (errno) {
			case EACCES:
				denied = true;
				/* fallthrough */
			case ENOENT:
			case ENOTDIR:
			case ESTALE:
			case ENODEV:
			case ETIMEDOUT:
			case ENAMETOOLONG:
				break;
			default:
				return errno;
			}
		}
		if (!*end)
			break;
	}
	return denied ? EACCES : ENOENT;
}

/*
 * The child of a run, on the parent's memory until it execs (vfork's way,
 * posix_spawn's: no page tables copied): memtlb's handlers and mask are
 * not the command's. Never returns; exec's errno goes up the report pipe.
 */
struct spawn {
	char *const *argv;
	sigset_t mask;		/* the parent's, all blocked around the clone */
	int report;		/* the pipe's write end, closed by the exec */
	pid_t parent;
};

/* Not instrumented: a sanitizer takes its own stack for a thread's and warns at _exit. */
__attribute__((no_sanitize_address))
static int spawn_child(void *arg)
{
	static const int reset[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
	const struct spawn *sp = arg;
	int e;

	for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		signal(reset[i], SIG_DFL);
	/*
	 * The command ends with memtlb, whatever kills memtlb (SIGKILL,
	 * SIGSEGV, ...: the handlers forward SIGTERM and SIGHUP only): it
	 * would go on uncounted, orphaned. Kept across exec; a parent gone
	 * before the prctl is seen by getppid.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != sp->parent)
		_exit(127);
	sigprocmask(SIG_SETMASK, &sp->mask, NULL);
	e = exec_path(sp->argv);
	if (write(sp->report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Room for exec_path's PATH_MAX buffer and libc's calls below it. */
static char spawn_stack[64 * 1024] __attribute__((aligned(16)));

/*
 * Start the command; returns its pid, or -errno. The parent goes on once
 * the child has exec'd or given up (CLONE_VFORK). Signals stay blocked
 * until then, so memtlb's handlers never run on the child's side.
 */
static pid_t spawn(char *const argv[], int report)
{
	struct spawn sp = { .argv = argv, .report = report, .parent = getpid() };
	sigset_t all;
	pid_t pid;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &sp.mask);
	fflush(NULL);
	pid = clone(spawn_child, spawn_stack + sizeof(spawn_stack),
		    CLONE_VM | CLONE_VFORK | SIGCHLD, &sp);
	if (pid < 0)
		pid = -errno;
	else
		child_pid = pid;
	sigprocmask(SIG_SETMASK, &sp.mask, NULL);
	return pid;
}

static int status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

/*
 * The counters of a run: one set on the command (inherited by its threads
 * and children), or with -p one per thread of the process, summed.
 */
struct tasks {
	struct mt_counters **c;
	size_t n;
	struct mt_counts *tmp;
	struct mt_event **ev;	/* the threads' copies of ev: the counters keep them */
};

static int tasks_read(const struct tasks *t, struct mt_counts *sum, size_t n_ev)
{
	int ret;

	memset(sum, 0, n_ev * sizeof(*sum));
	for (size_t k = 0; k < t->n; k++) {
		ret = mt_counters_read(t->c[k], t->tmp);
		if (ret)
			return ret;
		for (size_t i = 0; i < n_ev; i++) {
			sum[i].val += t->tmp[i].val;
			sum[i].ena += t->tmp[i].ena;
			sum[i].run += t->tmp[i].run;
		}
	}
	return 0;
}

/* The counts since prev into delta, prev moved on to now. */
static int interval_delta(const struct tasks *c, struct mt_counts *prev, struct mt_counts *now,
			  struct mt_counts *delta, size_t n_ev)
{
	int ret = tasks_read(c, now, n_ev);

	if (ret)
		return ret;
	for (size_t i = 0; i < n_ev; i++) {
		delta[i].val = now[i].val - prev[i].val;
		delta[i].ena = now[i].ena - prev[i].ena;
		delta[i].run = now[i].run - prev[i].run;
		prev[i] = now[i];
	}
	return 0;
}

/*
 * Whether pid has ended, without a pidfd (a kernel before 5.3, valgrind):
 * the child is looked at without being reaped, another process by kill 0.
 */
static bool ended(pid_t pid, bool child)
{
	siginfo_t si = { 0 };

	if (child)
		return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid;
	return kill(pid, 0) && errno == ESRCH;
}

/*
 * Until pid ends (or, attached, Ctrl-C or the duration): poll on its pidfd,
 * waking every interval to give the counts since the last; without a
 * pidfd, a look every 50 ms. Returns 0 or -errno.
 */
static int wait_end(int pidfd, pid_t pid, bool child, const struct tasks *c,
		    const struct mt_event *ev,
		    const struct mt_counts *start, size_t n_ev, uint64_t t0,
		    const struct mt_run_opts *o)
{
	struct mt_counts *prev, *now, *delta;
	uint64_t next = 0, end = 0, t;
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	bool intervals = o && o->interval_ms && o->interval && c && c->n;
	int ret = 0;

	prev = calloc(3 * (n_ev + 1), sizeof(*prev));
	if (!prev)
		return -ENOMEM;
	now = prev + n_ev + 1;
	delta = now + n_ev + 1;
	memcpy(prev, start, n_ev * sizeof(*prev));
	if (intervals)
		next = t0 + (uint64_t)o->interval_ms * 1000000u;
	if (o && o->attach && o->duration_s > 0)
		end = t0 + (uint64_t)(o->duration_s * 1e9);
	for (;;) {
		int timeout = -1, n;

		if (o && o->attach && (attach_end || got_sig))
			break;
		t = now_ns();
		if (end && t >= end)
			break;
		if (intervals && t >= next) {
			ret = interval_delta(c, prev, now, delta, n_ev);
			if (ret)
				break;
			o->interval(o->interval_arg, (double)(t - t0) / 1e9, ev, delta, n_ev);
			while (next <= t)
				next += (uint64_t)o->interval_ms * 1000000u;
		}
		if (intervals)
			timeout = (int)((next - t + 999999) / 1000000);
		if (end && (timeout < 0 || (uint64_t)timeout > (end - t + 999999) / 1000000))
			timeout = (int)((end - t + 999999) / 1000000);
		if (pidfd < 0) {
			if (ended(pid, child))
				break;
			if (timeout < 0 || timeout > 50)
				timeout = 50;
		}
		n = poll(pidfd >= 0 ? &pfd : NULL, pidfd >= 0 ? 1 : 0, timeout);
		if (n < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (n > 0)
			break;	/* the process ended */
	}
	free(prev);
	return ret;
}

/*
 * One run. c, opened once on memtlb (NULL without events), is inherited by
 * the child and started by its exec (attr.enable_on_exec): the child's
 * counts join memtlb's events when it exits, and memtlb's own copies never
 * count. So a run opens nothing: the counts of run k are the totals after
 * it less those before.
 */
static int run_once(char *const argv[], struct mt_counters *c, const struct mt_event *ev,
		    size_t n_ev, uint64_t *time_ns, struct mt_counts *delta, int *status,
		    int *exec_errno, const struct mt_run_opts *o)
{
	int pidfd = -1;
	struct mt_counts *before = NULL;
	int rep[2] = { -1, -1 };
	void (*old_int)(int), (*old_quit)(int);
	uint64_t t0, t1;
	ssize_t got;
	pid_t pid;
	int st, e = 0, ret = 0;

	/* the reads before, and -I's scratch */
	before = calloc(2 * (n_ev + 1), sizeof(*before));
	if (!before)
		return -ENOMEM;
	if (pipe2(rep, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	if (c)
		ret = mt_counters_read(c, before);
	if (ret)
		goto out;
	/* ^C reaches the command; memtlb waits for it and reports. */
	old_int = signal(SIGINT, SIG_IGN);
	old_quit = signal(SIGQUIT, SIG_IGN);
	t0 = now_ns();
	pid = spawn(argv, rep[1]);
	close(rep[1]);
	rep[1] = -1;
	if (pid < 0) {
		ret = pid;
		goto restore;
	}
	/* A signal before child_pid was set: the command gets it now. */
	if (got_sig)
		kill(pid, got_sig);
	/* The report pipe closes on a successful exec (CLOEXEC). */
	do
		got = read(rep[0], &e, sizeof(e));
	while (got < 0 && errno == EINTR);
	if (got == 0 && o && o->interval_ms) {
		/* -I: the command runs; its counts every interval until it ends */
		struct tasks t = { .c = &c, .n = c ? 1 : 0, .tmp = before + n_ev + 1 };

		pidfd = pidfd_open(pid, 0);
		ret = wait_end(pidfd, pid, true, &t, ev, before, n_ev, t0, o);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			child_pid = 0;
			goto restore;
		}
	}
	t1 = now_ns();
	child_pid = 0;
	if (got == (ssize_t)sizeof(e)) {
		*exec_errno = e;
		goto restore;
	}
	*status = status_code(st);
	*time_ns = t1 - t0;
	if (c && !ret) {
		ret = mt_counters_read(c, delta);
		for (size_t i = 0; !ret && i < n_ev; i++) {
			delta[i].val -= before[i].val;
			delta[i].ena -= before[i].ena;
			delta[i].run -= before[i].run;
		}
	}
restore:
	signal(SIGINT, old_int);
	signal(SIGQUIT, old_quit);
out:
	if (pidfd >= 0)
		close(pidfd);
	for (int i = 0; i < 2; i++)
		if (rep[i] >= 0)
			close(rep[i]);
	free(before);
	return ret;
}

static void tasks_close(struct tasks *t)
{
	for (size_t k = 0; k < t->n; k++) {
		mt_counters_destroy(t->c[k]);
		if (t->ev && k)
			free(t->ev[k]);
	}
	free(t->c);
	free(t->ev);
	free(t->tmp);
	memset(t, 0, sizeof(*t));
}

/*
 * One counter set per thread of pid (perf stat -p's thread map): a
 * thread's events count it and, inherited, what it starts from now on.
 * The main thread's open says, in ev, what can be counted; the others open
 * on copies (kept while their counters are: the counters hold them), so
 * that a thread that ended meanwhile (ESRCH) is not taken for an event that
 * cannot be counted.
 */
static int tasks_open(struct tasks *t, pid_t pid, struct mt_event *ev, size_t n_ev)
{
	char path[64];
	struct dirent *d;
	size_t cap = 8;
	DIR *dir;
	int ret;

	memset(t, 0, sizeof(*t));
	t->tmp = calloc(n_ev + 1, sizeof(*t->tmp));
	t->c = calloc(cap, sizeof(*t->c));
	t->ev = calloc(cap, sizeof(*t->ev));
	if (!t->tmp || !t->c || !t->ev)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	dir = opendir(path);
	ret = dir ? mt_counters_create(&t->c[0], ev, n_ev, pid) : errno == ENOENT ? -ESRCH : -errno;
	if (ret)
		goto out;
	t->ev[0] = ev;
	t->n = 1;
	while ((d = readdir(dir))) {
		char *end;
		long tid = strtol(d->d_name, &end, 10);
		struct mt_event *copy;

		if (d->d_name[0] < '0' || d->d_name[0] > '9' || *end || tid == pid)
			continue;
		if (t->n == cap) {
			struct mt_counters **gc = realloc(t->c, 2 * cap * sizeof(*gc));
			struct mt_event **ge = gc ? realloc(t->ev, 2 * cap * sizeof(*ge)) : NULL;

			if (gc)
				t->c = gc;
			if (!ge) {
				ret = -ENOMEM;
				break;
			}
			t->ev = ge;
			cap *= 2;
		}
		copy = malloc((n_ev + 1) * sizeof(*copy));
		if (!copy) {
			ret = -ENOMEM;
			break;
		}
		memcpy(copy, ev, n_ev * sizeof(*ev));
		ret = mt_counters_create(&t->c[t->n], copy, n_ev, (pid_t)tid);
		if (ret == -ESRCH) {
			free(copy);
			ret = 0;
			continue;
		}
		if (ret) {
			free(copy);
			break;
		}
		t->ev[t->n++] = copy;
	}
out:
	if (dir)
		closedir(dir);
	return ret;
}

/*
 * -p PID: the counters opened on a running process and enabled now, read
 * when it ends, on Ctrl-C or after the duration. Not memtlb's child: no
 * exit status; the pidfd, opened first, says when it ends.
 */
static int attach_once(const struct mt_run_opts *o, struct mt_event *ev, size_t n_ev,
		       uint64_t *time_ns, struct mt_counts *delta)
{
	struct tasks t = { 0 };
	struct mt_counts *before;
	uint64_t t0;
	int pidfd, ret = 0;

	before = calloc(n_ev + 1, sizeof(*before));
	if (!before)
		return -ENOMEM;
	pidfd = pidfd_open(o->attach, 0);
	if (pidfd < 0 && errno != ENOSYS) {
		ret = -errno;
		goto out;
	}
	if (n_ev)
		ret = tasks_open(&t, o->attach, ev, n_ev);
	if (!ret)
		ret = tasks_read(&t, before, n_ev);
	for (size_t k = 0; !ret && k < t.n; k++)
		ret = mt_counters_enable(t.c[k]);
	if (ret)
		goto out;
	t0 = now_ns();
	ret = wait_end(pidfd, o->attach, false, &t, ev, before, n_ev, t0, o);
	*time_ns = now_ns() - t0;
	for (size_t k = 0; !ret && k < t.n; k++)
		ret = mt_counters_disable(t.c[k]);
	if (!ret)
		ret = tasks_read(&t, delta, n_ev);
	for (size_t i = 0; !ret && i < n_ev; i++) {
		delta[i].val -= before[i].val;
		delta[i].ena -= before[i].ena;
		delta[i].run -= before[i].run;
	}
out:
	if (pidfd >= 0)
		close(pidfd);
	tasks_close(&t);
	free(before);
	return ret;
}

/* The events as the counters open them: fresh err and user_only. */
static void fresh_events(struct mt_event *used, const struct mt_event *ev, size_t n_ev,
			 bool attach)
{
	memcpy(used, ev, n_ev * sizeof(*ev));
	for (size_t i = 0; i < n_ev; i++) {
		/*
		 * Counting starts at exec: not memtlb's spawn and wait. The
		 * groups open stopped; exec starts their leaders.
		 */
		used[i].attr.enable_on_exec = !attach;
		used[i].attr.inherit = 1;
	}
}

int mt_measure_run(char *const argv[], unsigned int repeats, const struct mt_event *ev,
		   size_t n_ev, int hw_counters, const struct mt_run_opts *opts,
		   struct mt_result **out, struct mt_run_outcome *oc, struct mt_event *used)
{
	bool attach = opts && opts->attach > 0;
	struct mt_samples *s = NULL;
	struct mt_counters *c = NULL;
	struct mt_counts *counts = NULL;
	struct sigaction sa = { .sa_handler = on_signal }, old_term, old_hup, old_int;
	struct sigaction sa_int = { .sa_handler = on_attach_int };
	uint64_t *times;
	int ret = 0;

	memset(oc, 0, sizeof(*oc));
	/* SA_RESTART: the waits go on; the runs stop after the one signalled. */
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	got_sig = 0;
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	attach_end = 0;
	if (attach) {
		sigemptyset(&sa_int.sa_mask);
		sigaction(SIGINT, &sa_int, &old_int);
	}
	times = calloc(repeats, sizeof(*times));
	counts = calloc((size_t)repeats * (n_ev + 1), sizeof(*counts));
	if (!times || !counts) {
		ret = -ENOMEM;
		goto out;
	}
	fresh_events(used, ev, n_ev, attach);
	for (unsigned int r = 0; r < repeats && !got_sig; r++) {
		/*
		 * Fresh counters for every run, as perf stat -r opens them: one
		 * set inherited by run after run stopped counting after a few
		 * children on 6.18 (4 of 10 runs of touch-pages counted).
		 */
		if (!attach && n_ev) {
			mt_counters_destroy(c);
			c = NULL;
			fresh_events(used, ev, n_ev, attach);
			ret = mt_counters_create(&c, used, n_ev, 0);
			if (ret)
				goto out;
		}
		if (attach) {
			fresh_events(used, ev, n_ev, attach);
			ret = attach_once(opts, used, n_ev, &times[r],
					  &counts[(size_t)r * (n_ev + 1)]);
			/* a task's events have time enabled only while it runs */
			oc->idle = !ret && n_ev;
			for (size_t i = 0; !ret && i < n_ev; i++)
				if (!used[i].err && counts[(size_t)r * (n_ev + 1) + i].ena)
					oc->idle = false;
		}
		else
			ret = run_once(argv, c, used, n_ev, &times[r],
				       &counts[(size_t)r * (n_ev + 1)], &oc->status,
				       &oc->exec_errno, opts);
		if (ret || oc->exec_errno)
			goto out;
		oc->runs++;
		if (oc->status)
			break;
	}
	oc->signal = got_sig;
	if (!oc->runs) {
		/* Signalled before the first run started: nothing was measured. */
		ret = -ECHILD;
		oc->status = 128 + got_sig;
		goto out;
	}
	if (opts && opts->last_counts)
		memcpy(opts->last_counts, &counts[(size_t)(oc->runs - 1) * (n_ev + 1)],
		       n_ev * sizeof(*counts));
	if (opts && opts->last_time_ns)
		*opts->last_time_ns = times[oc->runs - 1];
	ret = mt_samples_create(&s, 1, oc->runs, (unsigned int)n_ev);
	if (ret)
		goto out;
	snprintf(s->phase_names[0], sizeof(s->phase_names[0]), "command");
	for (unsigned int r = 0; r < oc->runs; r++) {
		*mt_samples_time(s, 0, r) = times[r];
		for (size_t e = 0; e < n_ev; e++)
			*mt_samples_counts(s, 0, (unsigned int)e, r) = counts[(size_t)r * (n_ev + 1) + e];
	}
	ret = mt_result_from_samples(out, s, used, 0, 0, 0);
	if (!ret) {
		for (size_t e = 0; e < n_ev; e++)
			snprintf((*out)->events[e].reason, sizeof((*out)->events[e].reason), "%s",
				 used[e].err ? mt_event_reason(&used[e], hw_counters) : "");
	}
out:
	if (!oc->signal)
		oc->signal = got_sig;
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	if (attach)
		sigaction(SIGINT, &old_int, NULL);
	mt_samples_destroy(s);
	mt_counters_destroy(c);
	free(times);
	free(counts);
	return ret;
}
