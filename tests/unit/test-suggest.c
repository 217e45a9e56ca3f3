// SPDX-License-Identifier: MIT
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/suggest.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(mt_suggest_distance("", ""), 0);
	assert_int_equal(mt_suggest_distance("stat", "stat"), 0);
	assert_int_equal(mt_suggest_distance("stats", "stat"), 1);	/* insertion */
	assert_int_equal(mt_suggest_distance("sta", "stat"), 1);	/* deletion */
	assert_int_equal(mt_suggest_distance("stot", "stat"), 1);	/* substitution */
	assert_int_equal(mt_suggest_distance("regoin", "region"), 1);	/* swap: Damerau */
	assert_int_equal(mt_suggest_distance("cycels", "cycles"), 1);
	assert_int_equal(mt_suggest_distance("dtlb-load-misses", "dTLB-load-misses"), 0);
	assert_int_equal(mt_suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(mt_suggest_distance("", "abc"), 3);
	assert_int_equal(mt_suggest_distance("abc", ""), 3);
	assert_int_equal(mt_suggest_distance("ca", "abc"), 3);	/* OSA, not full Damerau */
}

static void test_suggest(void **state)
{
	static const char *const cmds[] = { "stat", "sweep", "probe", "compare", "report",
					     "run", "list", "sysinfo" };
	static const char *const opts[] = { "region", "block", "iterations", "passes",
					    "event", "events", "events-dir", "vary" };
	const size_t nc = sizeof(cmds) / sizeof(cmds[0]), no = sizeof(opts) / sizeof(opts[0]);

	(void)state;
	assert_string_equal(mt_suggest("stats", cmds, nc), "stat");
	assert_string_equal(mt_suggest("sweeep", cmds, nc), "sweep");
	assert_string_equal(mt_suggest("comapre", cmds, nc), "compare");
	assert_string_equal(mt_suggest("regoin", opts, no), "region");
	assert_string_equal(mt_suggest("vray", opts, no), "vary");
	assert_string_equal(mt_suggest("iteration", opts, no), "iterations");
	/* too far: no guess */
	assert_null(mt_suggest("frobnicate", cmds, nc));
	assert_null(mt_suggest("xyz", cmds, nc));
	/* short words: one edit only ("rn" is one from run, "rx" two from run) */
	assert_string_equal(mt_suggest("rn", cmds, nc), "run");
	assert_null(mt_suggest("xx", cmds, nc));
	/* a tie between two names suggests neither */
	assert_null(mt_suggest("evente", (const char *const[]){ "eventa", "eventb" }, 2));
	assert_null(mt_suggest("stat", NULL, 0));
}

static void test_parts(void **state)
{
	static const char *const ev[] = { "dTLB-loads", "dTLB-load-misses", "dTLB-stores",
					  "dTLB-store-misses", "iTLB-load-misses", "cache-misses" };
	const char *out[3];

	(void)state;
	assert_int_equal(mt_suggest_parts("dTLB-misses", ev, 6, out, 3), 2);
	assert_string_equal(out[0], "dTLB-load-misses");
	assert_string_equal(out[1], "dTLB-store-misses");
	/* in order: misses-dTLB matches nothing */
	assert_int_equal(mt_suggest_parts("misses-dTLB", ev, 6, out, 3), 0);
	/* one part is not enough to go on */
	assert_int_equal(mt_suggest_parts("misses", ev, 6, out, 3), 0);
	/* whole parts: "TLB-misses" is not a part of dTLB-load-misses */
	assert_int_equal(mt_suggest_parts("TLB-misses", ev, 6, out, 3), 0);
	/* more than max: counted, max kept */
	assert_int_equal(mt_suggest_parts("TLB_misses", (const char *const[]){ "TLB-a-misses",
		"TLB-b-misses", "TLB-c-misses", "TLB-d-misses" }, 4, out, 3), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
