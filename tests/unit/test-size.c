// SPDX-License-Identifier: MIT
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/size.h"

static void test_suffixes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(mt_size_parse("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(mt_size_parse("8k", &v), 0);
	assert_int_equal(v, 8192);
	assert_int_equal(mt_size_parse("8K", &v), 0);
	assert_int_equal(v, 8192);
	assert_int_equal(mt_size_parse("576m", &v), 0);
	assert_int_equal(v, 576ull << 20);
	assert_int_equal(mt_size_parse("16g", &v), 0);
	assert_int_equal(v, 16ull << 30);
	assert_int_equal(mt_size_parse("2T", &v), 0);
	assert_int_equal(v, 2ull << 40);
}

static void test_hex(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(mt_size_parse("0x40000000", &v), 0);
	assert_int_equal(v, 1ull << 30);
	assert_int_equal(mt_size_parse("0x10k", &v), 0);
	assert_int_equal(v, 16ull << 10);
	assert_int_equal(mt_size_parse("0x", &v), -EINVAL);
	assert_int_equal(mt_size_parse("0xg", &v), -EINVAL);
}

static void test_garbage(void **state)
{
	static const char *const bad[] = { "", "16x", "-1", "+1", " 1", "1.5g", "g", "1gg",
					   "1 g", "1g ", "k1", "0.5", "1e9" };
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(mt_size_parse(bad[i], &v), -EINVAL);
	assert_int_equal(mt_size_parse(NULL, &v), -EINVAL);
}

static void test_overflow(void **state)
{
	uint64_t v;

	(void)state;
	/* test_with_mmap multiplied silently: 99999999999g wrapped. */
	assert_int_equal(mt_size_parse("99999999999g", &v), -ERANGE);
	assert_int_equal(mt_size_parse("18446744073709551616", &v), -ERANGE);
	assert_int_equal(mt_size_parse("16777216t", &v), -ERANGE);	/* 2^64 */
	assert_int_equal(mt_size_parse("16777215t", &v), 0);
	assert_int_equal(v, 16777215ull << 40);
	assert_int_equal(mt_size_parse("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
}

static void test_count(void **state)
{
	unsigned long n;

	(void)state;
	assert_int_equal(mt_count_parse("10", 100, &n), 0);
	assert_int_equal(n, 10);
	assert_int_equal(mt_count_parse("0", 100, &n), -EINVAL);
	assert_int_equal(mt_count_parse("-3", 100, &n), -EINVAL);
	assert_int_equal(mt_count_parse("3x", 100, &n), -EINVAL);
	assert_int_equal(mt_count_parse("101", 100, &n), -ERANGE);
}

static void test_format(void **state)
{
	char buf[32];

	(void)state;
	mt_size_format_short(576ull << 20, buf, sizeof(buf));
	assert_string_equal(buf, "576m");
	mt_size_format_short(16ull << 30, buf, sizeof(buf));
	assert_string_equal(buf, "16g");
	mt_size_format_short(4097, buf, sizeof(buf));
	assert_string_equal(buf, "4097");
	mt_size_format(1ull << 30, buf, sizeof(buf));
	assert_string_equal(buf, "1.0 GiB");
	mt_size_format(4096 + 512, buf, sizeof(buf));
	assert_string_equal(buf, "4.5 KiB");
	mt_size_format(100, buf, sizeof(buf));
	assert_string_equal(buf, "100 B");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suffixes),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
