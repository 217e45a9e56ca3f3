// SPDX-License-Identifier: MIT
/*
 * The real backend: libperf. One group, leader first; members are read one
 * by one without PERF_FORMAT_GROUP, because libperf 6.1 cannot read group
 * siblings (perf_evsel__read_group returns the leader only, and a sibling
 * read with GROUP format fails with ENOSPC). Co-scheduling still holds
 * through group_fd, so ratios inside the group stay meaningful.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include "counters/interface.h"

/* One evlist per group: libperf's public API makes an evlist's first event its leader. */
struct perf_backend {
	struct mt_backend base;
	struct perf_evlist **evlist;	/* [group] */
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

static int open_member(struct perf_backend *pb, struct mt_event *ev, struct perf_evsel **out)
{
	struct perf_evlist *evlist = pb->evlist[ev->group];
	struct perf_evsel *evsel;
	int ret;

	evsel = perf_evsel__new(&ev->attr);
	if (!evsel)
		return -ENOMEM;
	perf_evlist__add(evlist, evsel);
	/* The first event that opens leads; the rest join its group. */
	perf_evlist__set_leader(evlist);
	ret = perf_evsel__open(evsel, NULL, pb->threads);
	if (ret == -EACCES || ret == -EPERM) {
		/* perf_event_paranoid >= 2 refuses kernel counting: user only. */
		struct perf_event_attr *attr = perf_evsel__attr(evsel);

		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		ret = perf_evsel__open(evsel, NULL, pb->threads);
		if (!ret)
			ev->user_only = true;
	}
	if (ret) {
		perf_evlist__remove(evlist, evsel);
		perf_evsel__delete(evsel);
		perf_evlist__set_leader(evlist);
		return ret;
	}
	*out = evsel;
	return 0;
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
	if (!pb->evsel || !pb->threads || !pb->evlist)
		return -ENOMEM;
	for (size_t g = 0; g < pb->n_groups; g++) {
		pb->evlist[g] = perf_evlist__new();
		if (!pb->evlist[g])
			return -ENOMEM;
	}
	pb->n = n;
	perf_thread_map__set_pid(pb->threads, 0, pid);
	for (size_t i = 0; i < n; i++) {
		ev[i].err = open_member(pb, &ev[i], &pb->evsel[i]);
		if (ev[i].err == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
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
	perf_thread_map__put(pb->threads);
	free(pb->evsel);
	free(pb);
}

static const struct mt_backend_ops perf_ops = {
	.name = "perf",
	.open = perf_open,
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
