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

/* --pages mthp:SIZE: 99% of the range in folios of SIZE, or not as requested. */
static void verdict_size(void **state)
{
	struct mt_pagescan s = { .len = 8 * MB };
	char why[160];

	(void)state;
	mt_mapinfo_add_folio(&s, 64 << 10, 8 * MB);
	assert_true(mt_mapinfo_verdict_size(&s, 64 << 10, 2 * MB, "mthp:64k", why, sizeof(why)));
	/* the same folios are no 16 KiB ones */
	assert_false(mt_mapinfo_verdict_size(&s, 16 << 10, 2 * MB, "mthp:16k", why,
					     sizeof(why)));
	assert_string_equal(why, "not as requested: --pages mthp:16k got 16 KiB folios for 0 KiB "
			    "of 8192 KiB, under 99%");
	/* 98% is under: kept out of verdicts, said so */
	memset(&s, 0, sizeof(s));
	s.len = 100 * 64 << 10;
	mt_mapinfo_add_folio(&s, 64 << 10, 98 * 64 << 10);
	mt_mapinfo_add_folio(&s, 4096, 2 * 64 << 10);
	assert_false(mt_mapinfo_verdict_size(&s, 64 << 10, 2 * MB, "mthp:64k", why, sizeof(why)));
	mt_mapinfo_add_folio(&s, 64 << 10, 1 * 64 << 10);
	assert_true(mt_mapinfo_verdict_size(&s, 64 << 10, 2 * MB, "mthp:64k", why, sizeof(why)));
	/* no folio sizes read: a PMD size is the scan's huge pages, another unknown */
	memset(&s, 0, sizeof(s));
	s.len = s.huge = 4 * MB;
	assert_true(mt_mapinfo_verdict_size(&s, 2 * MB, 2 * MB, "mthp:2m", why, sizeof(why)));
	assert_false(mt_mapinfo_verdict_size(&s, 64 << 10, 2 * MB, "mthp:64k", why, sizeof(why)));
	assert_string_equal(why, "not as requested: --pages mthp:64k: the folio sizes could not "
			    "be read");
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

/* Physical memory of the fixture: kpageflags words by PFN. */
#define H (1ull << MT_KPF_COMPOUND_HEAD)
#define T (1ull << MT_KPF_COMPOUND_TAIL)
#define THP (1ull << MT_KPF_THP)

static uint64_t fixture_kpf[64];

static uint64_t kpf_at(void *arg, uint64_t pfn)
{
	(void)arg;
	return pfn < 64 ? fixture_kpf[pfn] : 0;
}

static uint64_t at(uint64_t pfn)
{
	return MT_PM_PRESENT | pfn;
}

static uint64_t share(const struct mt_pagescan *s, uint64_t size)
{
	for (unsigned int i = 0; i < s->n_folios; i++)
		if (s->folios[i].size == size)
			return s->folios[i].bytes;
	return 0;
}

static void folio(uint64_t head, unsigned int pages)
{
	fixture_kpf[head] = H | THP;
	for (unsigned int i = 1; i < pages; i++)
		fixture_kpf[head + i] = T | THP;
}

/*
 * Folio sizes from pagemap and kpageflags words: a head and its tails are
 * one folio whatever the pages mapped of it; a page mapped from a folio's
 * middle is walked back to its head; a tail without a head is a page.
 */
static void folios_fixture(void **state)
{
	uint64_t pm[64];
	struct mt_pagescan s;
	size_t n = 0;

	(void)state;
	memset(fixture_kpf, 0, sizeof(fixture_kpf));
	memset(&s, 0, sizeof(s));
	folio(16, 16);			/* 64 KiB */
	fixture_kpf[32] = 1ull << 5;	/* a base page (LRU) */
	folio(40, 4);			/* 16 KiB */
	folio(44, 2);			/* 8 KiB */
	folio(48, 16);			/* 64 KiB, mapped from its fifth page */
	fixture_kpf[5] = T;		/* split while read: no head below it */
	for (uint64_t p = 16; p < 32; p++)
		pm[n++] = at(p);
	pm[n++] = 0;			/* never touched */
	pm[n++] = at(32);
	for (uint64_t p = 40; p < 46; p++)
		pm[n++] = at(p);
	for (uint64_t p = 52; p < 64; p++)
		pm[n++] = at(p);
	pm[n++] = at(5);
	assert_int_equal(mt_mapinfo_folios(pm, n, 4096, kpf_at, NULL, &s), 0);
	assert_int_equal(s.n_folios, 4);
	assert_int_equal(s.folios[0].size, 4096);	/* smallest first */
	assert_int_equal(share(&s, 4096), 2 * 4096);
	assert_int_equal(share(&s, 8192), 2 * 4096);
	assert_int_equal(share(&s, 16384), 4 * 4096);
	assert_int_equal(share(&s, 65536), 28 * 4096);
	assert_int_equal(s.folios[3].size, 65536);
	/* Without CAP_SYS_ADMIN pagemap shows PFN 0: no folio is guessed. */
	pm[0] = MT_PM_PRESENT;
	assert_int_equal(mt_mapinfo_folios(pm, 1, 4096, kpf_at, NULL, &s), -EPERM);
}

/*
 * Without kpageflags: the huge bytes in PMD folios, and the mTHP sizes'
 * fault counts over the run, largest first and bounded by the PTE-mapped
 * bytes; a kernel without mTHP has base pages for the rest.
 */
static void folios_from_stats(void **state)
{
	struct mt_mthp_stats a = { 3, { 16384, 65536, 2 * MB }, { 5, 7, 9 }, { 0, 2, 0 } };
	struct mt_mthp_stats b = { 3, { 16384, 65536, 2 * MB }, { 1005, 107, 10 },
				   { 0, 12, 0 } };
	uint64_t alloc, fallback;
	struct mt_pagescan s = { .len = 16 * MB, .huge = 2 * MB, .base = 10 * MB,
				 .absent = 4 * MB };
	struct mt_pagescan t = s;
	char why[160];

	(void)state;
	/* one size's counts between the two reads; a size either lacks has none */
	assert_int_equal(mt_mapinfo_mthp_delta(&a, &b, 65536, &alloc, &fallback), 0);
	assert_int_equal(alloc, 100);
	assert_int_equal(fallback, 10);
	assert_int_equal(mt_mapinfo_mthp_delta(&a, &b, 32768, &alloc, &fallback), -ENOENT);
	mt_mapinfo_folios_guess(&s, 4096, 2 * MB, &a, &b);
	assert_int_equal(s.folio_source, MT_FOLIO_MTHP_STATS);
	assert_int_equal(share(&s, 65536), 100 * 65536);
	assert_int_equal(share(&s, 16384), 10 * MB - 100 * 65536);
	assert_int_equal(share(&s, 2 * MB), 2 * MB);
	assert_int_equal(share(&s, 4096), 0);
	assert_int_equal(s.large, 10 * MB);
	assert_int_equal(s.base, 0);
	assert_int_equal(s.huge + s.large + s.base + s.absent, s.len);
	mt_mapinfo_folios_guess(&t, 4096, 2 * MB, NULL, NULL);
	assert_int_equal(t.folio_source, MT_FOLIO_MAPPING);
	assert_int_equal(share(&t, 4096), 10 * MB);
	assert_int_equal(t.large, 0);
	/* Folios past a page are never base pages: a base run that got them is refused. */
	s = (struct mt_pagescan){ .len = 8 * MB, .large = 8 * MB };
	mt_mapinfo_add_folio(&s, 65536, 8 * MB);
	assert_false(mt_mapinfo_verdict(&s, false, "base", why, sizeof(why)));
	assert_string_equal(why, "not as requested: --pages base got 64 KiB folios for 8192 KiB "
			    "of 8192 KiB");
	assert_false(mt_mapinfo_verdict(&s, true, "thp", why, sizeof(why)));
	assert_string_equal(why, "not as requested: --pages thp got folios mapped by PTEs for "
			    "8192 KiB of 8192 KiB");
	assert_int_equal(mt_mapinfo_source_parse("kpageflags"), MT_FOLIO_KPAGEFLAGS);
	assert_string_equal(mt_mapinfo_source_name(MT_FOLIO_MTHP_STATS), "mthp_stats");
	assert_int_equal(mt_mapinfo_source_parse("nonsense"), MT_FOLIO_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scan_base),
		cmocka_unit_test(verdict_size),
		cmocka_unit_test(scan_thp),
		cmocka_unit_test(scan_hugetlb),
		cmocka_unit_test(verdict_synthetic),
		cmocka_unit_test(folios_fixture),
		cmocka_unit_test(folios_from_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
