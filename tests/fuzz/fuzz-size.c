// SPDX-License-Identifier: MIT
/* The size parser on arbitrary strings: no crash, and what it accepts round-trips. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char s[64], back[32];
	uint64_t v, w;
	unsigned long n;
	int ret;

	if (len >= sizeof(s))
		return 0;
	memcpy(s, data, len);
	s[len] = '\0';
	ret = mt_size_parse(s, &v);
	if (ret != 0 && ret != -EINVAL && ret != -ERANGE)
		abort();
	if (!ret) {
		mt_size_format_short(v, back, sizeof(back));
		if (mt_size_parse(back, &w) || w != v)
			abort();
	}
	ret = mt_count_parse(s, 1000000, &n);
	if (!ret && (n == 0 || n > 1000000))
		abort();
	return 0;
}
