// SPDX-License-Identifier: MIT
/* A counter group on a task, read at phase boundaries through a backend. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

unsigned int mt_counters_groups(const struct mt_counters *c)
{
	unsigned int g = 0;

	for (size_t i = 0; i < c->n; i++)
		if (!c->ev[i].err && c->ev[i].group + 1 > g)
			g = c->ev[i].group + 1;
	return g;
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

int mt_counters_read(struct mt_counters *c, struct mt_counts *out)
{
	for (size_t i = 0; i < c->n; i++) {
		int ret;

		memset(&out[i], 0, sizeof(out[i]));
		if (c->ev[i].err)
			continue;
		ret = c->be->ops->read(c->be, i, &out[i]);
		if (ret)
			return ret;
	}
	return 0;
}

const char *mt_counters_backend(const struct mt_counters *c)
{
	return c->be->ops->name;
}

int mt_counters_try(struct mt_event *ev)
{
	struct mt_counters *c = NULL;
	int ret = mt_counters_create(&c, ev, 1, 0);

	mt_counters_destroy(c);
	return ret;
}
