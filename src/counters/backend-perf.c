// SPDX-License-Identifier: MIT
/*
 * The real backend: libperf. One group, leader first; members are read one
 * by one without PERF_FORMAT_GROUP, because libperf 6.1 cannot read group
 * siblings (perf_evsel__read_group returns the leader only, and a sibling
 * read with GROUP format fails with ENOSPC). Co-scheduling still holds
 * through group_fd, so ratios inside the group stay meaningful.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include "counters/interface.h"
#include "sys/pmuevents.h"

/* One evlist per group: libperf's public API makes an evlist's first event its leader. */
struct perf_backend {
	struct mt_backend base;
	struct perf_evlist **evlist;	/* [group] */
	int *leader_fd;			/* [group]: -1 until one of it opens */
	size_t n_groups;
	struct perf_thread_map *threads;
	struct perf_evsel **evsel;	/* NULL where the event did not open */
	size_t n;
};

static int print_fn(enum libperf_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBPERF_WARN)
		return 0;
	fputs("memtlb: libperf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

/* The number the next open gets: the kernel hands out the lowest free one. */
static int next_fd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return fd;
}

static bool fd_has_id(int fd, uint64_t id)
{
	uint64_t got;

	return fd >= 0 && !ioctl(fd, PERF_EVENT_IOC_ID, &got) && got == id;
}

/*
 * The fd libperf opened for evsel, which libperf 6.1 does not give out.
 * The event's id (PERF_FORMAT_ID, read through libperf) names it: it is
 * the number that was next before the open, unless something else opened
 * in between; then any perf_event fd of this process with that id.
 */
static int evsel_fd(struct perf_evsel *evsel, int guess)
{
	struct perf_counts_values cv;
	struct dirent *d;
	int ret, fd = -EBADF;
	DIR *dir;

	ret = perf_evsel__read(evsel, 0, 0, &cv);
	if (ret)
		return ret;
	if (fd_has_id(guess, cv.id))
		return guess;
	dir = opendir("/proc/self/fd");
	if (!dir)
		return -errno;
	while (fd < 0 && (d = readdir(dir))) {
		char link[32];
		ssize_t len;

		len = readlinkat(dirfd(dir), d->d_name, link, sizeof(link) - 1);
		if (len < 0)
			continue;
		link[len] = '\0';
		/* Only perf_event fds get the ioctl: its number means other things elsewhere. */
		if (!strcmp(link, "anon_inode:[perf_event]") && fd_has_id(atoi(d->d_name), cv.id))
			fd = atoi(d->d_name);
	}
	closedir(dir);
	return fd;
}

/*
 * Opens one event into its group: 0 with ev->err its own result, or -errno
 * when the backend cannot go on.
 */
static int open_member(struct perf_backend *pb, struct mt_event *ev, struct perf_evsel **out)
{
	struct perf_evlist *evlist = pb->evlist[ev->group];
	bool leader = pb->leader_fd[ev->group] < 0;
	struct perf_event_attr *attr;
	struct perf_evsel *evsel;
	int ret, fd, guess;

	/* Known before any open: tracefs unmounted or unreadable. */
	if (ev->unavailable) {
		ev->err = ev->unavailable;
		return 0;
	}
	evsel = perf_evsel__new(&ev->attr);
	if (!evsel)
		return -ENOMEM;
	attr = perf_evsel__attr(evsel);
	/*
	 * The leader opens stopped, the members ready to follow it: the group
	 * starts as a whole when enabled, once all of it is open. (A member
	 * joining a counting group from another software PMU, minor-faults
	 * under task-clock, was not scheduled until the next context switch.)
	 */
	attr->disabled = leader;
	attr->read_format |= PERF_FORMAT_ID;	/* for evsel_fd */
	perf_evlist__add(evlist, evsel);
	/* The first event that opens leads; the rest join its group. */
	perf_evlist__set_leader(evlist);
	guess = next_fd();
	ret = perf_evsel__open(evsel, NULL, pb->threads);
	/*
	 * perf_event_paranoid >= 2 refuses kernel counting: user only, as perf
	 * falls back, where user space was asked for too. An event for the
	 * kernel alone (:k) stays refused: counting nothing is not it. So does
	 * a tracepoint: it fires in the kernel only, and user-only it opens
	 * and counts 0 (measured, paranoid 2), which would read as none.
	 */
	if ((ret == -EACCES || ret == -EPERM) && !attr->exclude_user && !attr->exclude_kernel &&
	    attr->type != PERF_TYPE_TRACEPOINT) {
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		ret = perf_evsel__open(evsel, NULL, pb->threads);
		if (!ret)
			ev->user_only = true;
	}
	ev->err = ret;
	if (ret)
		goto drop;
	fd = evsel_fd(evsel, guess);
	/*
	 * libperf 6.1 opens without PERF_FLAG_FD_CLOEXEC: close-on-exec here,
	 * so no command memtlb starts inherits a counter. Out of reach, it
	 * could not be started either.
	 */
	if (fd < 0 || fcntl(fd, F_SETFD, FD_CLOEXEC)) {
		ret = fd < 0 ? fd : -errno;
		perf_evsel__close(evsel);
		goto drop;
	}
	/*
	 * libperf has no filter call: the ioctl on its fd, before the group is
	 * enabled. Inherited copies use their parent's filter (the kernel's
	 * perf_tp_filter_match), so threads started later are filtered too.
	 */
	if (ev->filter[0] && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter)) {
		ret = -errno;
		ev->err = ret;
		perf_evsel__close(evsel);
		goto drop;
	}
	if (leader)
		pb->leader_fd[ev->group] = fd;
	*out = evsel;
	return 0;
drop:
	perf_evlist__remove(evlist, evsel);
	perf_evsel__delete(evsel);
	perf_evlist__set_leader(evlist);
	return (ret == -ENOMEM || !ev->err) ? ret : 0;
}

static int perf_open(struct mt_backend *be, struct mt_event *ev, size_t n, pid_t pid)
{
	struct perf_backend *pb = (struct perf_backend *)be;

	for (size_t i = 0; i < n; i++)
		if (ev[i].group + 1 > pb->n_groups)
			pb->n_groups = ev[i].group + 1;
	pb->evsel = calloc(n, sizeof(*pb->evsel));
	pb->threads = perf_thread_map__new_dummy();
	pb->evlist = calloc(pb->n_groups + 1, sizeof(*pb->evlist));
	pb->leader_fd = calloc(pb->n_groups + 1, sizeof(*pb->leader_fd));
	if (!pb->evsel || !pb->threads || !pb->evlist || !pb->leader_fd)
		return -ENOMEM;
	for (size_t g = 0; g < pb->n_groups; g++) {
		pb->leader_fd[g] = -1;
		pb->evlist[g] = perf_evlist__new();
		if (!pb->evlist[g])
			return -ENOMEM;
	}
	pb->n = n;
	perf_thread_map__set_pid(pb->threads, 0, pid);
	for (size_t i = 0; i < n; i++) {
		int ret;

		if (ev[i].rusage)	/* counters.c reads it */
			continue;
		/* arm64 opens a raw event its CPU lacks, and counts 0 (sys/pmuevents) */
		if (mt_pmuevents_absent(ev[i].attr.type, ev[i].attr.config)) {
			ev[i].err = -ENOENT;
			continue;
		}
		ret = open_member(pb, &ev[i], &pb->evsel[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Each group as a whole through its leader alone, inherited copies in
 * threads and children with it: the members stay enabled and a member
 * runs only while its leader does (the kernel's effective state, which
 * stops its time enabled too). Not PERF_IOC_FLAG_GROUP: that enables the
 * members one by one after the leader, and since 6.2 (per-PMU contexts)
 * a member from another software PMU so enabled, minor-faults under
 * task-clock, stays off until the next context switch (seen on 6.18).
 */
static int perf_ioctl_groups(struct perf_backend *pb, unsigned long req)
{
	for (size_t g = 0; g < pb->n_groups; g++)
		if (pb->leader_fd[g] >= 0 && ioctl(pb->leader_fd[g], req, 0))
			return -errno;
	return 0;
}

static int perf_enable(struct mt_backend *be)
{
	return perf_ioctl_groups((struct perf_backend *)be, PERF_EVENT_IOC_ENABLE);
}

static int perf_disable(struct mt_backend *be)
{
	return perf_ioctl_groups((struct perf_backend *)be, PERF_EVENT_IOC_DISABLE);
}

static int perf_read(struct mt_backend *be, size_t idx, struct mt_counts *out)
{
	struct perf_backend *pb = (struct perf_backend *)be;
	struct perf_counts_values cv;
	int ret;

	if (idx >= pb->n || !pb->evsel[idx])
		return -EINVAL;
	ret = perf_evsel__read(pb->evsel[idx], 0, 0, &cv);
	if (ret)
		return ret;
	out->val = cv.val;
	out->ena = cv.ena;
	out->run = cv.run;
	return 0;
}

static void perf_destroy(struct mt_backend *be)
{
	struct perf_backend *pb = (struct perf_backend *)be;

	for (size_t g = 0; pb->evlist && g < pb->n_groups; g++) {
		if (!pb->evlist[g])
			continue;
		perf_evlist__close(pb->evlist[g]);
		perf_evlist__delete(pb->evlist[g]);
	}
	free(pb->evlist);
	free(pb->leader_fd);
	perf_thread_map__put(pb->threads);
	free(pb->evsel);
	free(pb);
}

static const struct mt_backend_ops perf_ops = {
	.name = "perf",
	.open = perf_open,
	.enable = perf_enable,
	.disable = perf_disable,
	.read = perf_read,
	.destroy = perf_destroy,
};

int mt_backend_perf_create(struct mt_backend **out)
{
	static int initialised;
	struct perf_backend *pb;

	if (!initialised) {
		/* Sets libperf's page_size too; without it mmap sizes are wrong. */
		libperf_init(print_fn);
		initialised = 1;
	}
	pb = calloc(1, sizeof(*pb));
	if (!pb)
		return -ENOMEM;
	pb->base.ops = &perf_ops;
	*out = &pb->base;
	return 0;
}
