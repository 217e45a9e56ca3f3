// SPDX-License-Identifier: MIT
/* The flush workload's op names and its results beside the report's points. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/flush.h"

static const char *const op_names[MT_FLUSH_OP_MAX] = {
	[MT_FLUSH_MUNMAP] = "munmap",
	[MT_FLUSH_MADVISE] = "madvise",
	[MT_FLUSH_MPROTECT] = "mprotect",
};

const char *const mt_flush_irq_rows[MT_FLUSH_IRQS] = { "TLB", "CAL" };
const char *const mt_flush_irq_names[MT_FLUSH_IRQS] = { "irq.TLB", "irq.CAL" };

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
	/* A point read from an older report has no own IPIs: unmeasured, not 0. */
	for (size_t i = 0; i < (n ? n : 1); i++)
		for (unsigned int j = 0; j < MT_FLUSH_IRQS; j++)
			fi->points[i].own_irq[j] = NAN;
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
