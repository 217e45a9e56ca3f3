// SPDX-License-Identifier: MIT
/* MEMTLB_BACKEND, read here and nowhere else; documented in memtlb-stat(1). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/backend.h"
#include "counters/interface.h"

#define REPLAY "replay:"

static const char *selection(void)
{
	const char *sel = getenv("MEMTLB_BACKEND");

	return sel && *sel ? sel : "perf";
}

static const char *replay_file(const char *sel)
{
	return !strncmp(sel, REPLAY, strlen(REPLAY)) && sel[strlen(REPLAY)] ?
		sel + strlen(REPLAY) : NULL;
}

int mt_backend_create(struct mt_backend **out)
{
	const char *sel = selection();

	if (!strcmp(sel, "perf"))
		return mt_backend_perf_create(out);
	if (replay_file(sel))
		return mt_backend_replay_create(out, replay_file(sel));
	return -EINVAL;
}

const char *mt_backend_replay_file(void)
{
	return replay_file(selection());
}

void mt_backend_destroy(struct mt_backend *be)
{
	if (be)
		be->ops->destroy(be);
}

int mt_backend_check(struct mt_msg *msg)
{
	const char *sel = selection(), *file = replay_file(sel);
	struct mt_backend *be;
	int ret;

	if (!strcmp(sel, "perf"))
		return 0;
	if (!file)
		return mt_msg_set(msg, -EINVAL,
				  "MEMTLB_BACKEND is perf (the default) or replay:FILE",
				  "MEMTLB_BACKEND=%s: not a backend", sel);
	/* Parsed now: a bad file is bad input, not a failure mid-run. */
	ret = mt_backend_replay_create(&be, file);
	if (ret == -EINVAL)
		return mt_msg_set(msg, -EBADMSG,
				  "memtlb-stat(1), ENVIRONMENT, describes the format",
				  "MEMTLB_BACKEND: %s: not a valid replay file", file);
	if (ret) {
		return mt_msg_set(msg, ret, NULL, "MEMTLB_BACKEND: %s: %s", file, strerror(-ret));
	}
	mt_backend_destroy(be);
	return 0;
}

const char *mt_backend_name(void)
{
	return replay_file(selection()) ? "replay" : "perf";
}
