// SPDX-License-Identifier: MIT
/* The replay parser on arbitrary bytes: a backend or -EINVAL, never a crash. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/interface.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const char *const names[] = { "cycles", "minor-faults", "dTLB-loads", "x" };
	struct mt_event ev[4];
	struct mt_backend *be = NULL;
	struct mt_counts c;
	FILE *f;
	int ret;

	if (!len)
		return 0;
	f = fmemopen((void *)data, len, "r");
	if (!f)
		abort();
	ret = mt_backend_replay_parse(&be, f);
	fclose(f);
	if (ret) {
		if (ret != -EINVAL && ret != -ENOMEM && ret != -EIO)
			abort();
		return 0;
	}
	/* what parses must replay: open four events in two groups, read a few rounds */
	memset(ev, 0, sizeof(ev));
	for (size_t i = 0; i < 4; i++) {
		snprintf(ev[i].name, sizeof(ev[i].name), "%s", names[i]);
		ev[i].group = i / 2;
	}
	if (!be->ops->open(be, ev, 4, 0)) {
		for (int round = 0; round < 6; round++) {
			for (size_t i = 0; i < 4; i++)
				if (!ev[i].err && !be->ops->read(be, i, &c) && c.run > c.ena)
					abort();	/* the parser refuses running > enabled */
			if (round & 1)
				be->ops->disable(be);
			else
				be->ops->enable(be), be->ops->disable(be);
		}
	}
	be->ops->destroy(be);
	return 0;
}
