// SPDX-License-Identifier: MIT
/* The sweep range grammar. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "model/range.h"

#define M (1ull << 20)
#define G (1ull << 30)

static size_t parse_ok(const char *s, uint64_t **pts)
{
	struct mt_msg msg;
	size_t n;

	assert_int_equal(mt_range_parse(s, pts, &n, &msg), 0);
	return n;
}

static int parse_err(const char *s)
{
	struct mt_msg msg;
	uint64_t *pts = (uint64_t *)1;
	size_t n = 7;
	int ret = mt_range_parse(s, &pts, &n, &msg);

	assert_true(ret < 0);
	assert_null(pts);
	assert_int_equal(n, 0);
	assert_true(msg.text[0] != '\0');
	return ret;
}

static void test_linear(void **state)
{
	uint64_t *p;

	(void)state;
	assert_int_equal(parse_ok("256m..768m:64m", &p), 9);
	assert_int_equal(p[0], 256 * M);
	assert_int_equal(p[5], 576 * M);
	assert_int_equal(p[8], 768 * M);
	free(p);
	assert_int_equal(parse_ok("64m..256m:64m", &p), 4);	/* B included */
	free(p);
	/* the end is not forced in: 64m, 164m */
	assert_int_equal(parse_ok("64m..200m:100m", &p), 2);
	assert_int_equal(p[1], 164 * M);
	free(p);
	assert_int_equal(parse_ok("1g..1g:64m", &p), 1);
	free(p);
	assert_int_equal(parse_ok("256m..16g:64m", &p), 253);
	free(p);
}

static void test_geometric(void **state)
{
	uint64_t *p;

	(void)state;
	assert_int_equal(parse_ok("16m..16g:x2", &p), 11);
	assert_int_equal(p[10], 16 * G);
	free(p);
	assert_int_equal(parse_ok("16k..1m", &p), 7);	/* doubling by default */
	assert_int_equal(p[6], M);
	free(p);
	assert_int_equal(parse_ok("1g..2g:x1.5", &p), 2);
	assert_int_equal(p[1], 1536 * M);
	free(p);
	/* tiny factors on small sizes: rounded to 4k, kept distinct */
	assert_int_equal(parse_ok("4k..16k:x1.01", &p), 3);
	free(p);
	assert_int_equal(parse_ok("512m", &p), 1);
	assert_int_equal(p[0], 512 * M);
	free(p);
}

static void test_errors(void **state)
{
	(void)state;
	assert_int_equal(parse_err(""), -EINVAL);
	assert_int_equal(parse_err(".."), -EINVAL);
	assert_int_equal(parse_err("0..1g"), -EINVAL);
	assert_int_equal(parse_err("1g..0"), -EINVAL);
	assert_int_equal(parse_err("2g..1g"), -EINVAL);	/* A > B */
	assert_int_equal(parse_err("1g..2g:0"), -EINVAL);	/* step 0 */
	assert_int_equal(parse_err("1g..2g:"), -EINVAL);
	assert_int_equal(parse_err("1g..2g:x1"), -EINVAL);	/* x1 never ends */
	assert_int_equal(parse_err("1g..2g:x0.5"), -EINVAL);
	assert_int_equal(parse_err("1g..2g:xabc"), -EINVAL);
	assert_int_equal(parse_err("1g..2g:xnan"), -EINVAL);
	assert_int_equal(parse_err("1x..2g"), -EINVAL);
	assert_int_equal(parse_err("1g...2g"), -EINVAL);
	assert_int_equal(parse_err("1g..99999999999g"), -ERANGE);
	assert_int_equal(parse_err("4k..4t:4k"), -E2BIG);	/* a billion points */
	assert_int_equal(parse_err("4k..4g:4k"), -E2BIG);	/* a million */
	assert_int_equal(parse_err("8..1t:x1.0001"), -E2BIG);
	/* 10^10 steps: refused by the count, not after walking them */
	assert_int_equal(parse_err("1..16t:x1.0000000011"), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_geometric),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
