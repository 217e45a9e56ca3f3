/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_MODEL_SIZE_H
#define MEMTLB_MODEL_SIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Sizes as test_with_mmap takes them, and as memtlb prints them: a decimal
 * or 0x-hex integer with an optional unit, k/m/g/t (powers of 1024, either
 * case) or KiB/MiB/GiB/TiB, after at most one space ("1.0 GiB", "4096 B").
 * A decimal fraction is taken when it comes to whole bytes (1.5g, 0.5k).
 * Returns 0, -EINVAL for garbage (fractions of a byte, signs, SI units
 * such as MB, unknown suffix, empty) or -ERANGE when the value does not
 * fit in 64 bits.
 */
int mt_size_parse(const char *s, uint64_t *out);

/* What a size option says about any size: "e.g." for its hint. */
#define MT_SIZE_HINT "a size in bytes: 4096, 512m, 1.5g, 16GiB, 0x40000000 " \
	"(k..t, KiB..TiB)"

/*
 * Why s is refused by mt_size_parse: *what ("not a size", "too large", "not
 * a whole number of bytes", "not a binary size") and *hint (never NULL,
 * maybe ""), both static strings.
 */
void mt_size_explain(const char *s, const char **what, const char **hint);

/* A count (iterations, passes): decimal, 1..max. 0, -EINVAL or -ERANGE. */
int mt_count_parse(const char *s, unsigned long max, unsigned long *out);

/* "1.0 GiB", "64.0 MiB", "4096 B": for humans, never parsed back. */
void mt_size_format(uint64_t v, char *buf, size_t len);

/* "1g", "576m", "4k", "4097": exact, in the suffix form the parser takes. */
void mt_size_format_short(uint64_t v, char *buf, size_t len);

#endif
