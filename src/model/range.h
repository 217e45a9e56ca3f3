/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_RANGE_H
#define MEMTLB_MODEL_RANGE_H

#include <stddef.h>
#include <stdint.h>

#include "sys/msg.h"

/* More points than this in one range is a typo, not a sweep. */
#define MT_RANGE_MAX_POINTS 4096

/*
 * A sweep's region range: "A..B" (doubling), "A..B:STEP" (A, A+STEP, ...
 * while <= B) or "A..B:xF" (A, A*F, ... while <= B; F > 1, decimals allowed,
 * points rounded down to 4 KiB and kept distinct). A single size "A" is
 * one point. Sizes as mt_size_parse. Returns 0 with a malloc'ed array, or
 * -EINVAL / -ERANGE / -E2BIG with a message for humans in msg.
 */
int mt_range_parse(const char *s, uint64_t **out, size_t *n, struct mt_msg *msg);

/*
 * The same grammar over counts (pages, not bytes): "1..64:x2" is 1, 2, 4,
 * ... 64, the factor's points rounded down to whole counts, not to 4 KiB.
 */
int mt_range_parse_count(const char *s, uint64_t **out, size_t *n, struct mt_msg *msg);

#endif
