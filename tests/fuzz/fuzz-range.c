// SPDX-License-Identifier: MIT
/* The sweep range parser on arbitrary strings: quick, bounded, and sorted. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/range.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char s[128];
	struct mt_msg msg;
	uint64_t *pts = NULL;
	size_t n = 0;
	int ret;

	if (len >= sizeof(s))
		return 0;
	memcpy(s, data, len);
	s[len] = '\0';
	ret = mt_range_parse(s, &pts, &n, &msg);
	if (ret) {
		if ((ret != -EINVAL && ret != -ERANGE && ret != -E2BIG && ret != -ENOMEM) ||
		    pts || n || (ret != -ENOMEM && !msg.text[0]))
			abort();	/* a refusal says why and returns nothing */
		return 0;
	}
	if (!n || n > MT_RANGE_MAX_POINTS)
		abort();
	for (size_t i = 0; i < n; i++)
		if (!pts[i] || (i && pts[i] <= pts[i - 1]))
			abort();	/* points are distinct, rising, never 0 */
	free(pts);
	return 0;
}
