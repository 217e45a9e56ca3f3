// SPDX-License-Identifier: MIT
/*
 * What backs a mapping (PAGEMAP_SCAN, or smaps): real mappings of this
 * process, base, THP and hugetlb where the machine has them, and the
 * verdict that refuses a mapping not as asked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "sys/mapinfo.h"

#define MB (1ull << 20)
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

static char *map_aligned(uint64_t len, char **raw)
{
	char *p = mmap(NULL, len + 2 * MB, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	*raw = p;
	return (char *)(((uintptr_t)p + 2 * MB - 1) & ~(uintptr_t)(2 * MB - 1));
}

static void touch(char *p, uint64_t len)
{
	for (uint64_t o = 0; o < len; o += 4096)
		p[o] = 1;
}

static void scan_base(void **state)
{
	char *raw, *p = map_aligned(4 * MB, &raw), why[160];
	struct mt_pagescan s;

	(void)state;
	assert_int_equal(madvise(p, 4 * MB, MADV_NOHUGEPAGE), 0);
	touch(p, 3 * MB);
	assert_int_equal(mt_mapinfo_scan(p, 4 * MB, &s), 0);
	assert_int_equal(s.len, 4 * MB);
	assert_int_equal(s.huge, 0);
	assert_int_equal(s.base, 3 * MB);
	assert_int_equal(s.absent, 1 * MB);	/* never touched */
	assert_false(mt_mapinfo_verdict(&s, false, "base", why, sizeof(why)));
	assert_string_equal(why, "not as requested: --pages base: 1024 KiB of 4096 KiB not "
			    "mapped");
	assert_int_equal(mt_mapinfo_scan(p, 3 * MB, &s), 0);
	assert_true(mt_mapinfo_verdict(&s, false, "base", why, sizeof(why)));
	/* Base pages where huge ones were asked for: refused, with the reason. */
	assert_false(mt_mapinfo_verdict(&s, true, "thp", why, sizeof(why)));
	assert_string_equal(why, "not as requested: --pages thp got base pages for 3072 KiB "
			    "of 3072 KiB");
	munmap(raw, 6 * MB);
}

static bool thp_possible(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return buf[0] && !strstr(buf, "[never]");
}

static void scan_thp(void **state)
{
	char *raw, *p, why[160];
	struct mt_pagescan s;

	(void)state;
	if (!thp_possible()) {
		print_message("# THP disabled: not checked\n");
		return;
	}
	p = map_aligned(4 * MB, &raw);
	assert_int_equal(madvise(p, 4 * MB, MADV_HUGEPAGE), 0);
	touch(p, 4 * MB);
	assert_int_equal(mt_mapinfo_scan(p, 4 * MB, &s), 0);
	assert_int_equal(s.huge + s.base + s.absent, 4 * MB);
	if (s.huge < 2 * MB) {
		/* Fragmented memory: the kernel may say no; that is no failure here. */
		munmap(raw, 6 * MB);
		print_message("# no THP given: not checked\n");
		return;
	}
	assert_int_equal(s.huge % (2 * MB), 0);
	if (s.huge == 4 * MB) {
		assert_true(mt_mapinfo_verdict(&s, true, "thp", why, sizeof(why)));
		/* A base run that got THP is as wrong as the reverse. */
		assert_false(mt_mapinfo_verdict(&s, false, "base", why, sizeof(why)));
		assert_string_equal(why, "not as requested: --pages base got huge pages for "
				    "4096 KiB of 4096 KiB");
	}
	/* Splitting one huge page with mprotect leaves base pages: refused. */
	assert_int_equal(mprotect(p + 4096, 4096, PROT_READ), 0);
	assert_int_equal(mt_mapinfo_scan(p, 2 * MB, &s), 0);
	if (!s.smaps) {
		assert_true(s.base > 0);
		assert_false(mt_mapinfo_verdict(&s, true, "thp", why, sizeof(why)));
	}
	munmap(raw, 6 * MB);
}

static void scan_hugetlb(void **state)
{
	char *p, why[160];
	struct mt_pagescan s;

	(void)state;
	p = mmap(NULL, 2 * MB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
	if (p == MAP_FAILED) {
		/* cmocka's skip() reads as a failure to meson's TAP parser. */
		print_message("# no pool of 2 MiB pages: not checked\n");
		return;
	}
	p[0] = 1;
	assert_int_equal(mt_mapinfo_scan(p, 2 * MB, &s), 0);
	assert_int_equal(s.huge, 2 * MB);
	assert_true(mt_mapinfo_verdict(&s, true, "hugetlb", why, sizeof(why)));
	munmap(p, 2 * MB);
}

static void verdict_synthetic(void **state)
{
	struct mt_pagescan s = { .len = 8 * MB, .huge = 6 * MB, .base = 2 * MB };
	char why[160];

	(void)state;
	assert_false(mt_mapinfo_verdict(&s, true, "thp", why, sizeof(why)));
	assert_string_equal(why, "not as requested: --pages thp got base pages for 2048 KiB "
			    "of 8192 KiB");
	s.huge = 8 * MB;
	s.base = 0;
	assert_true(mt_mapinfo_verdict(&s, true, "hugetlb", why, sizeof(why)));
	s.huge = 0;
	s.absent = 8 * MB;
	assert_false(mt_mapinfo_verdict(&s, true, "thp", why, sizeof(why)));
	assert_string_equal(why, "not as requested: --pages thp: 8192 KiB of 8192 KiB not "
			    "mapped");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scan_base),
		cmocka_unit_test(scan_thp),
		cmocka_unit_test(scan_hugetlb),
		cmocka_unit_test(verdict_synthetic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
