// SPDX-License-Identifier: MIT
/* A counter group on a task, read at phase boundaries through a backend. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "counters/backend.h"
#include "counters/counters.h"
#include "counters/interface.h"

struct mt_counters {
	struct mt_backend *be;
	struct mt_event *ev;
	size_t n;
};

/*
 * An event the kernel refused (EINVAL: the group cannot be scheduled as a
 * whole, e.g. more hardware events than counters) while others of its group
 * opened: it goes to a group of its own and everything is opened again.
 * Alone, an EINVAL is the event's own.
 */
static size_t refused_member(const struct mt_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (ev[i].err != -EINVAL)
			continue;
		for (size_t j = 0; j < n; j++)
			if (j != i && ev[j].group == ev[i].group && !ev[j].err)
				return i;
	}
	return n;
}

int mt_counters_create(struct mt_counters **out, struct mt_event *ev, size_t n, pid_t pid)
{
	unsigned int groups = 1;
	struct mt_counters *c;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ev = ev;
	c->n = n;
	for (size_t i = 0; i < n; i++)
		ev[i].group = 0;
	/*
	 * First fit: an event refused with others moves to the next group (a new
	 * one last); events that were never scheduled with others (alone) come
	 * after every shared group, one group each.
	 */
	for (size_t attempt = 0; attempt <= n * n; attempt++) {
		unsigned int alone = 0;
		size_t split;

		for (size_t i = 0; i < n; i++)
			if (!ev[i].alone)
				alone = groups;
		for (size_t i = 0; i < n; i++) {
			ev[i].err = 0;
			ev[i].user_only = false;
			if (ev[i].alone)
				ev[i].group = alone++;
		}
		ret = mt_backend_create(&c->be);
		if (ret) {
			free(c);
			return ret;
		}
		ret = c->be->ops->open(c->be, ev, n, pid);
		if (ret) {
			mt_counters_destroy(c);
			return ret;
		}
		split = refused_member(ev, n);
		if (split == n)
			break;
		mt_backend_destroy(c->be);
		c->be = NULL;
		/* alone events are never refused "with others": split is not one */
		if (++ev[split].group == groups)
			groups++;
	}
	if (!c->be) {	/* first fit never settled: cannot happen with n*n tries */
		free(c);
		return -EAGAIN;
	}
	/* Out of file descriptors is the process's limit, not the event's. */
	for (size_t i = 0; i < n; i++) {
		if (ev[i].err == -EMFILE || ev[i].err == -ENFILE) {
			ret = ev[i].err;
			mt_counters_destroy(c);
			return ret;
		}
	}
	*out = c;
	return 0;
}

void mt_counters_destroy(struct mt_counters *c)
{
	if (!c)
		return;
	if (c->be)
		mt_backend_destroy(c->be);
	free(c);
}

int mt_counters_enable(struct mt_counters *c)
{
	return c->be->ops->enable(c->be);
}

int mt_counters_disable(struct mt_counters *c)
{
	return c->be->ops->disable(c->be);
}

/* Running totals, as a counter's: always enabled and running. */
static void rusage_read(const struct rusage *ru, const struct mt_event *ev,
			uint64_t now_ns, struct mt_counts *out)
{
	switch (ev->attr.config) {
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
		out->val = (uint64_t)ru->ru_minflt;
		break;
	case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
		out->val = (uint64_t)ru->ru_majflt;
		break;
	default:
		out->val = (uint64_t)(ru->ru_minflt + ru->ru_majflt);
	}
	out->ena = out->run = now_ns;
}

static bool is_fault_event(const struct mt_event *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_PAGE_FAULTS ||
		ev->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		ev->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

bool mt_counters_use_rusage(struct mt_event *ev)
{
	static const char *const field[] = {
		[PERF_COUNT_SW_PAGE_FAULTS] = "minflt+majflt",
		[PERF_COUNT_SW_PAGE_FAULTS_MIN] = "minflt",
		[PERF_COUNT_SW_PAGE_FAULTS_MAJ] = "majflt",
	};
	size_t len;

	if (!is_fault_event(ev))
		return false;
	ev->rusage = true;
	snprintf(ev->fstr, sizeof(ev->fstr), "rusage:%s", field[ev->attr.config]);
	/* The set's words stay: what is counted is the same, only the reading differs. */
	len = strlen(ev->meaning);
	snprintf(ev->meaning + len, sizeof(ev->meaning) - len, "%sread from getrusage at phase "
		 "boundaries", len ? ", " : "");
	return true;
}

int mt_counters_read(struct mt_counters *c, struct mt_counts *out)
{
	struct rusage ru;
	struct timespec t;
	bool have_ru = false;

	for (size_t i = 0; i < c->n; i++) {
		int ret;

		memset(&out[i], 0, sizeof(out[i]));
		if (c->ev[i].err)
			continue;
		if (c->ev[i].rusage) {
			if (!have_ru) {
				if (getrusage(RUSAGE_SELF, &ru))
					return -errno;
				clock_gettime(CLOCK_MONOTONIC, &t);
				have_ru = true;
			}
			rusage_read(&ru, &c->ev[i],
				    (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec,
				    &out[i]);
			continue;
		}
		ret = c->be->ops->read(c->be, i, &out[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int mt_counters_try(struct mt_event *ev)
{
	struct mt_counters *c = NULL;
	int ret = mt_counters_create(&c, ev, 1, 0);

	mt_counters_destroy(c);
	return ret;
}
