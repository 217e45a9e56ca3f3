// SPDX-License-Identifier: MIT
/* A counter group on a task, read at phase boundaries through a backend. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <memtlb/counters.h>

struct mt_counters {
	struct mt_backend *be;
	struct mt_event *ev;
	size_t n;
};

/* MEMTLB_BACKEND picks the backend; documented in memtlb-stat(1). */
static int backend_create(struct mt_backend **be)
{
	const char *sel = getenv("MEMTLB_BACKEND");

	if (!sel || !*sel || !strcmp(sel, "perf"))
		return mt_backend_perf_create(be);
	if (!strncmp(sel, "replay:", 7) && sel[7])
		return mt_backend_replay_create(be, sel + 7);
	return -EINVAL;
}

int mt_counters_create(struct mt_counters **out, struct mt_event *ev, size_t n, pid_t pid)
{
	struct mt_counters *c;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	ret = backend_create(&c->be);
	if (ret) {
		free(c);
		return ret;
	}
	c->ev = ev;
	c->n = n;
	ret = c->be->ops->open(c->be, ev, n, pid);
	if (ret) {
		mt_counters_destroy(c);
		return ret;
	}
	*out = c;
	return 0;
}

void mt_counters_destroy(struct mt_counters *c)
{
	if (!c)
		return;
	if (c->be)
		c->be->ops->destroy(c->be);
	free(c);
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
