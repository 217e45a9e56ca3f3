/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_SIZE_H
#define MEMTLB_MODEL_SIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Sizes as test_with_mmap takes them: a decimal or 0x-hex integer with an
 * optional k/m/g/t suffix (powers of 1024, either case).
 * Returns 0, -EINVAL for garbage (fractions, signs, unknown suffix, empty)
 * or -ERANGE when the value does not fit in 64 bits.
 */
int mt_size_parse(const char *s, uint64_t *out);

/* A count (iterations, passes): decimal, 1..max. 0, -EINVAL or -ERANGE. */
int mt_count_parse(const char *s, unsigned long max, unsigned long *out);

/* "1.0 GiB", "64.0 MiB", "4096 B": for humans, never parsed back. */
void mt_size_format(uint64_t v, char *buf, size_t len);

/* "1g", "576m", "4k", "4097": exact, in the suffix form the parser takes. */
void mt_size_format_short(uint64_t v, char *buf, size_t len);

#endif
