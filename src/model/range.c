// SPDX-License-Identifier: MIT
/* The sweep range grammar A..B[:STEP|xF]. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/range.h"
#include "model/size.h"

#define ROUND 4096ull

static int size_part(const char *what, const char *s, size_t len, uint64_t *out, struct mt_msg *msg)
{
	char buf[64];
	int ret;

	if (!len || len >= sizeof(buf)) {
		mt_msg_set(msg, 0, NULL, "%s: missing or too long", what);
		return -EINVAL;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	ret = mt_size_parse(buf, out);
	if (ret == -ERANGE) {
		mt_msg_set(msg, 0, NULL, "%s: %s: too large", what, buf);
		return ret;
	}
	if (ret || !*out) {
		mt_msg_set(msg, 0, NULL, "%s: %s: not a size", what, buf);
		return -EINVAL;
	}
	return 0;
}

static int push(uint64_t **pts, size_t *n, uint64_t v, struct mt_msg *msg)
{
	uint64_t *p;

	if (*n >= MT_RANGE_MAX_POINTS) {
		mt_msg_set(msg, 0, NULL, "more than %d points", MT_RANGE_MAX_POINTS);
		return -E2BIG;
	}
	p = realloc(*pts, (*n + 1) * sizeof(**pts));
	if (!p)
		return -ENOMEM;
	p[(*n)++] = v;
	*pts = p;
	return 0;
}

static int parse(const char *s, uint64_t round, uint64_t **out, size_t *n, struct mt_msg *msg)
{
	const char *dots = strstr(s, ".."), *colon;
	uint64_t a, b, step = 0, *pts = NULL;
	double factor = 2.0;
	size_t m = 0;
	int ret;

	*out = NULL;
	*n = 0;
	mt_msg_clear(msg);
	if (!dots) {	/* one size */
		ret = size_part("size", s, strlen(s), &a, msg);
		if (ret)
			return ret;
		ret = push(&pts, &m, a, msg);
		goto out;
	}
	ret = size_part("start", s, (size_t)(dots - s), &a, msg);
	if (ret)
		return ret;
	colon = strchr(dots + 2, ':');
	ret = size_part("end", dots + 2, colon ? (size_t)(colon - dots - 2) : strlen(dots + 2),
			&b, msg);
	if (ret)
		return ret;
	if (a > b) {
		mt_msg_set(msg, 0, NULL, "start is larger than end");
		return -EINVAL;
	}
	if (colon && (colon[1] == 'x' || colon[1] == 'X')) {
		char *end;

		errno = 0;
		factor = strtod(colon + 2, &end);
		if (errno || end == colon + 2 || *end || !isfinite(factor) || factor > 1024) {
			return mt_msg_set(msg, -EINVAL, NULL,
					  "factor: %s: not a number from 1 to 1024", colon + 2);
		}
		if (!(factor > 1.0 + 1e-9)) {
			mt_msg_set(msg, 0, NULL, "factor: %s: must be larger than 1", colon + 2);
			return -EINVAL;
		}
	} else if (colon) {
		ret = size_part("step", colon + 1, strlen(colon + 1), &step, msg);
		if (ret)
			return ret;
	}
	if (step) {
		if ((b - a) / step >= MT_RANGE_MAX_POINTS) {
			mt_msg_set(msg, 0, NULL, "more than %d points", MT_RANGE_MAX_POINTS);
			return -E2BIG;
		}
		for (uint64_t v = a;; v += step) {
			ret = push(&pts, &m, v, msg);
			if (ret || b - v < step)
				break;
		}
		goto out;
	}
	/*
	 * The count first: a factor just above 1 (x1.0000000011 over 1..16t)
	 * took 10^10 turns of the loop below, 22 s, before push refused.
	 * Steps that round to a kept point are skipped, so a few more steps
	 * than points are fine; far more are refused at once.
	 */
	if (log((double)b / (double)a) / log(factor) >= 16.0 * MT_RANGE_MAX_POINTS) {
		mt_msg_set(msg, 0, NULL, "more than %d points", MT_RANGE_MAX_POINTS);
		return -E2BIG;
	}
	for (double v = (double)a; v <= (double)b * (1 + 1e-12); v *= factor) {
		uint64_t p = m ? (uint64_t)v / round * round : a;

		if (m && p <= pts[m - 1])
			continue;
		ret = push(&pts, &m, p, msg);
		if (ret)
			break;
	}
out:
	if (ret) {
		free(pts);
		return ret;
	}
	*out = pts;
	*n = m;
	return 0;
}

int mt_range_parse(const char *s, uint64_t **out, size_t *n, struct mt_msg *msg)
{
	return parse(s, ROUND, out, n, msg);
}

int mt_range_parse_count(const char *s, uint64_t **out, size_t *n, struct mt_msg *msg)
{
	return parse(s, 1, out, n, msg);
}
