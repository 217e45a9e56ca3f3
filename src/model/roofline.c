// SPDX-License-Identifier: MIT
/* The first-touch roofline's calibration: method names, an empty one. */
#include <math.h>
#include <string.h>

#include "model/roofline.h"

/* The instructions' own names: the report says which one set the ceiling. */
static const char *const method_names[MT_CLEAR_METHODS] = {
	[MT_CLEAR_REP_STOSB] = "rep stosb",
	[MT_CLEAR_CLZERO] = "clzero",
	[MT_CLEAR_MOVNTI] = "movnti",
	[MT_CLEAR_MOVNTDQ] = "movntdq",
};

const char *mt_roofline_method_name(int m)
{
	return m >= 0 && m < MT_CLEAR_METHODS ? method_names[m] : NULL;
}

int mt_roofline_method_parse(const char *s)
{
	for (int i = 0; s && i < MT_CLEAR_METHODS; i++)
		if (!strcmp(s, method_names[i]))
			return i;
	return -1;
}

void mt_roofline_init(struct mt_roofline *rf)
{
	memset(rf, 0, sizeof(*rf));
	rf->ceiling = -1;
	rf->floor_ns = rf->seconds = NAN;
}
