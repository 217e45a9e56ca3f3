// SPDX-License-Identifier: MIT
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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
	static const char *const bad[] = { "", "16x", "-1", "+1", " 1", "g", "1gg", "1  g",
					   "1g ", "k1", "0.5", "1e9", "1.", ".5g", "1.5x", "0x1.8g",
					   "1 ", "1Gi", "1GiBB", "1 B ", "1.3k", "1MB", "1kB",
					   "1GB", "1 MB", "1Kb" };
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(mt_size_parse(bad[i], &v), -EINVAL);
	assert_int_equal(mt_size_parse(NULL, &v), -EINVAL);
}

/* What memtlb prints, it takes back (issue 15: "1.0 GiB" was refused). */
static void test_printed_units(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} ok[] = {
		{ "1GiB", 1ull << 30 }, { "1.0 GiB", 1ull << 30 }, { "64.0 MiB", 64ull << 20 },
		{ "4.5 KiB", 4608 }, { "100 B", 100 }, { "2TiB", 2ull << 40 },
		{ "1gib", 1ull << 30 }, { "16 g", 16ull << 30 }, { "1.5g", 3ull << 29 },
		{ "0.5k", 512 }, { "1.25m", 5ull << 18 }, { "2.000g", 2ull << 30 },
		{ "0x10KiB", 16ull << 10 }, { "4096", 4096 }, { "1.0", 1 },
		{ "0.0009765625k", 1 }, { "512B", 512 },
	};
	char buf[32];
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(mt_size_parse(ok[i].s, &v), 0);
		assert_int_equal(v, ok[i].v);
	}
	mt_size_format(1ull << 30, buf, sizeof(buf));
	assert_int_equal(mt_size_parse(buf, &v), 0);
	assert_int_equal(v, 1ull << 30);
}

static void test_explain(void **state)
{
	const char *what, *hint;

	(void)state;
	mt_size_explain("1.3k", &what, &hint);
	assert_string_equal(what, "not a whole number of bytes");
	assert_non_null(strstr(hint, "1.5g"));
	mt_size_explain("512MB", &what, &hint);
	assert_string_equal(what, "not a binary size");
	assert_non_null(strstr(hint, "1048576"));
	mt_size_explain("1kB", &what, &hint);
	assert_string_equal(what, "not a binary size");
	mt_size_explain("16x", &what, &hint);
	assert_string_equal(what, "not a size");
	assert_string_equal(hint, MT_SIZE_HINT);
	mt_size_explain("99999999999g", &what, &hint);
	assert_string_equal(what, "too large");
	mt_size_explain("18446744073709551615.5", &what, &hint);
	assert_string_equal(what, "not a whole number of bytes");
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
	/* the fraction's part pushes it over */
	assert_int_equal(mt_size_parse("16777215.5t", &v), 0);
	assert_int_equal(mt_size_parse("16777215.99999999999999999999t", &v), -EINVAL);
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
		cmocka_unit_test(test_printed_units),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
