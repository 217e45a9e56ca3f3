// SPDX-License-Identifier: MIT
/* The flush workload's op names and its results beside the report's points. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/flush.h"

static const char *const op_names[MT_FLUSH_OP_MAX] = {
	[MT_FLUSH_MUNMAP] = "munmap",
	[MT_FLUSH_MADVISE] = "madvise",
	[MT_FLUSH_MPROTECT] = "mprotect",
};

const char *mt_flush_op_name(int op)
{
	return op >= 0 && op < MT_FLUSH_OP_MAX ? op_names[op] : NULL;
}

int mt_flush_op_parse(const char *s)
{
	for (int i = 0; s && i < MT_FLUSH_OP_MAX; i++)
		if (!strcmp(s, op_names[i]))
			return i;
	return -1;
}

int mt_flush_info_create(struct mt_flush_info **out, size_t n)
{
	struct mt_flush_info *fi = calloc(1, sizeof(*fi));

	if (!fi)
		return -ENOMEM;
	fi->points = calloc(n ? n : 1, sizeof(*fi->points));
	if (!fi->points) {
		free(fi);
		return -ENOMEM;
	}
	fi->n_points = n;
	fi->ceiling = -1;
	fi->n_knees = -1;
	*out = fi;
	return 0;
}

void mt_flush_info_destroy(struct mt_flush_info *fi)
{
	if (!fi)
		return;
	free(fi->points);
	free(fi);
}
