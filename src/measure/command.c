// SPDX-License-Identifier: MIT
/* memtlb run's measurement: counters on a forked command, enabled by exec. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The child: wait for the go byte (counters open), then exec; never returns. */
static void child(char *const argv[], int go, int report)
{
	char c;
	int e;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	/* EOF instead of the byte: the parent gave up, do not run the command. */
	if (read(go, &c, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static int status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

/* One run: ev is this run's copy (fresh err/user_only). */
static int run_once(char *const argv[], struct mt_event *ev, size_t n_ev, uint64_t *time_ns,
		    struct mt_counts *delta, int *status, int *exec_errno)
{
	struct mt_counters *c = NULL;
	struct mt_counts *before = NULL;
	int go[2] = { -1, -1 }, rep[2] = { -1, -1 };
	void (*old_int)(int), (*old_quit)(int), (*old_pipe)(int);
	uint64_t t0, t1;
	ssize_t got;
	pid_t pid;
	int st, e = 0, ret = 0;

	before = calloc(n_ev + 1, sizeof(*before));
	if (!before)
		return -ENOMEM;
	if (pipe2(go, O_CLOEXEC) || pipe2(rep, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0)
		child(argv, go[0], rep[1]);
	close(go[0]);
	close(rep[1]);
	go[0] = rep[1] = -1;
	/* ^C reaches the command; memtlb waits for it and reports. */
	old_int = signal(SIGINT, SIG_IGN);
	old_quit = signal(SIGQUIT, SIG_IGN);
	if (n_ev) {
		ret = mt_counters_create(&c, ev, n_ev, pid);
		if (!ret)
			ret = mt_counters_read(c, before);
	}
	if (ret) {
		close(go[1]);	/* EOF: the child exits without exec */
		go[1] = -1;
		waitpid(pid, &st, 0);
		goto restore;
	}
	t0 = now_ns();
	/* A child killed before its go byte is an outcome, not memtlb's SIGPIPE. */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	if (write(go[1], "g", 1) != 1)
		ret = -errno;
	signal(SIGPIPE, old_pipe);
	close(go[1]);
	go[1] = -1;
	/* The report pipe closes on a successful exec (CLOEXEC). */
	do
		got = read(rep[0], &e, sizeof(e));
	while (got < 0 && errno == EINTR);
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			goto restore;
		}
	}
	t1 = now_ns();
	if (ret == -EPIPE) {
		*status = status_code(st);
		ret = -ECHILD;
		goto restore;
	}
	if (got == (ssize_t)sizeof(e)) {
		*exec_errno = e;
		goto restore;
	}
	*status = status_code(st);
	*time_ns = t1 - t0;
	if (c) {
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
	mt_counters_destroy(c);
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (rep[i] >= 0)
			close(rep[i]);
	}
	free(before);
	return ret;
}

int mt_measure_run(char *const argv[], unsigned int repeats, const struct mt_event *ev,
		   size_t n_ev, int hw_counters, struct mt_result **out,
		   struct mt_run_outcome *oc, struct mt_event *used)
{
	struct mt_samples *s = NULL;
	struct mt_counts *counts;
	uint64_t *times;
	int ret = 0;

	memset(oc, 0, sizeof(*oc));
	times = calloc(repeats, sizeof(*times));
	counts = calloc((size_t)repeats * (n_ev + 1), sizeof(*counts));
	if (!times || !counts) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned int r = 0; r < repeats; r++) {
		memcpy(used, ev, n_ev * sizeof(*ev));
		for (size_t i = 0; i < n_ev; i++) {
			/*
			 * Counting starts at exec: not memtlb's fork and wait. The
			 * groups open stopped; exec starts their leaders.
			 */
			used[i].attr.enable_on_exec = 1;
			used[i].attr.inherit = 1;
		}
		ret = run_once(argv, used, n_ev, &times[r], &counts[(size_t)r * (n_ev + 1)],
			       &oc->status, &oc->exec_errno);
		if (ret || oc->exec_errno)
			goto out;
		oc->runs++;
		if (oc->status)
			break;
	}
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
	mt_samples_destroy(s);
	free(times);
	free(counts);
	return ret;
}
