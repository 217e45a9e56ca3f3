// SPDX-License-Identifier: MIT
/* Size and count parsing: test_with_mmap's syntax and what memtlb prints, exactly. */
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

enum refusal {
	R_OK,
	R_GARBAGE,
	R_RANGE,
	R_FRACTION,	/* 1.3k: not a whole number of bytes */
	R_SI,		/* MB, GB, kB: memtlb's sizes are binary */
};

/* The unit after the number: its shift, or a refusal. */
static enum refusal unit_of(const char *u, int *shift)
{
	*shift = 0;
	if (!*u)
		return R_OK;
	/* "1.0 GiB", "4096 B": what mt_size_format prints */
	if (*u == ' ')
		u++;
	if (!strcmp(u, "B"))
		return R_OK;
	*shift = shift_of(*u);
	if (*shift < 0)
		return R_GARBAGE;
	u++;
	if (!*u)
		return R_OK;
	if (tolower((unsigned char)u[0]) == 'i' && tolower((unsigned char)u[1]) == 'b' && !u[2])
		return R_OK;
	if (tolower((unsigned char)u[0]) == 'b' && !u[1])
		return R_SI;
	return R_GARBAGE;
}

static enum refusal parse(const char *s, uint64_t *out)
{
	unsigned __int128 v = 0, frac = 0, scale = 1;
	const char *p = s;
	enum refusal r;
	int shift;

	/* strtoull accepts leading blanks and signs ("-1" wraps): digits only here. */
	if (!s || !isdigit((unsigned char)s[0]))
		return R_GARBAGE;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		p += 2;
		if (!isxdigit((unsigned char)*p))
			return R_GARBAGE;
		for (; isxdigit((unsigned char)*p); p++) {
			v = v * 16 + (unsigned)(isdigit((unsigned char)*p) ? *p - '0' :
						 tolower((unsigned char)*p) - 'a' + 10);
			if (v > UINT64_MAX)
				return R_RANGE;
		}
	} else {
		for (; isdigit((unsigned char)*p); p++) {
			v = v * 10 + (unsigned)(*p - '0');
			if (v > UINT64_MAX)
				return R_RANGE;
		}
		if (*p == '.') {
			const char *f = ++p, *last;

			if (!isdigit((unsigned char)*f))
				return R_GARBAGE;
			while (isdigit((unsigned char)*p))
				p++;
			/* trailing zeros change nothing; 18 digits fit in 60 bits */
			for (last = p; last > f && last[-1] == '0'; last--)
				;
			if (last - f > 18)
				return R_GARBAGE;
			for (; f < last; f++) {
				frac = frac * 10 + (unsigned)(*f - '0');
				scale *= 10;
			}
		}
	}
	r = unit_of(p, &shift);
	if (r)
		return r;
	/* 1.5g is (1 * 10 + 5) << 30 / 10: whole, or refused */
	v <<= shift;
	if (v > UINT64_MAX)
		return R_RANGE;
	frac <<= shift;
	if (frac % scale)
		return R_FRACTION;
	v += frac / scale;
	if (v > UINT64_MAX)
		return R_RANGE;
	*out = (uint64_t)v;
	return R_OK;
}

int mt_size_parse(const char *s, uint64_t *out)
{
	switch (parse(s, out)) {
	case R_OK:
		return 0;
	case R_RANGE:
		return -ERANGE;
	default:
		return -EINVAL;
	}
}

void mt_size_explain(const char *s, const char **what, const char **hint)
{
	uint64_t v;

	*hint = MT_SIZE_HINT;
	switch (parse(s, &v)) {
	case R_RANGE:
		*what = "too large";
		*hint = "";
		return;
	case R_FRACTION:
		*what = "not a whole number of bytes";
		*hint = "a fraction must come to whole bytes: 1.5g, 0.5k; 1.3k does not";
		return;
	case R_SI:
		*what = "not a binary size";
		*hint = "memtlb sizes are binary (1 MiB = 1048576 bytes): write 1m or 1MiB";
		return;
	default:
		*what = "not a size";
		return;
	}
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
