// SPDX-License-Identifier: MIT
/* Size and count parsing: test_with_mmap's syntax, without its silent overflow. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/size.h"

static int shift_of(char c)
{
	switch (tolower((unsigned char)c)) {
	case 'k': return 10;
	case 'm': return 20;
	case 'g': return 30;
	case 't': return 40;
	default: return -1;
	}
}

int mt_size_parse(const char *s, uint64_t *out)
{
	unsigned long long v;
	int base = 10, shift = 0;
	char *end;

	/* strtoull accepts leading blanks and signs ("-1" wraps): refuse them. */
	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!isxdigit((unsigned char)s[0]))
			return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end) {
		shift = shift_of(*end);
		if (shift < 0 || end[1])
			return -EINVAL;
	}
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

int mt_count_parse(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	if (v == 0)
		return -EINVAL;
	*out = v;
	return 0;
}

void mt_size_format(uint64_t v, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double d = (double)v;
	int i = -1;

	while (d >= 1024.0 && i < 3) {
		d /= 1024.0;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64 " B", v);
	else
		snprintf(buf, len, "%.1f %s", d, unit[i]);
}

void mt_size_format_short(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "kmgt";
	int i = -1;

	while (v && !(v & 1023) && i < 3) {
		v >>= 10;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, suffix[i]);
}
