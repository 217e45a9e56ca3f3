// SPDX-License-Identifier: MIT
/* sys/pmuevents: arm64 common events the kernel does not list are absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "sys/pmuevents.h"

static void sysroot(const char *name)
{
	const char *data = getenv("MEMTLB_TEST_DATA");
	char root[4096];

	assert_non_null(data);
	snprintf(root, sizeof(root), "%s/%s", data, name);
	setenv("MEMTLB_SYSROOT", root, 1);
}

/* qemu's arm64 guest lists cpu_cycles, inst_retired and the stalls only. */
static void test_qemu_arm64(void **state)
{
	(void)state;
	sysroot("sysroot-qemu-arm64");
	assert_true(mt_pmuevents_absent(4, 0x05));	/* L1D_TLB_REFILL, raw */
	assert_true(mt_pmuevents_absent(10, 0x02));	/* L1I_TLB_REFILL, its type */
	assert_true(mt_pmuevents_absent(4, 0x34));	/* DTLB_WALK */
	assert_false(mt_pmuevents_absent(4, 0x11));	/* CPU_CYCLES */
	assert_false(mt_pmuevents_absent(4, 0x08));	/* INST_RETIRED */
	assert_false(mt_pmuevents_absent(10, 0x3c));	/* STALL */
	/* Not the arm64 PMU's type, not a common event, not raw: no verdict. */
	assert_false(mt_pmuevents_absent(11, 0x05));
	assert_false(mt_pmuevents_absent(4, 0x4004));
	assert_false(mt_pmuevents_absent(4, 0x1e));
	assert_false(mt_pmuevents_absent(0, 0x05));
	assert_false(mt_pmuevents_absent(3, 0x10003));
	unsetenv("MEMTLB_SYSROOT");
}

/* x86's tree has no armv8_ PMU: nothing is absent here. */
static void test_no_arm_pmu(void **state)
{
	(void)state;
	sysroot("sysroot-pmu");
	assert_false(mt_pmuevents_absent(4, 0x05));
	sysroot("sysroot-nopmu");
	assert_false(mt_pmuevents_absent(4, 0x05));
	unsetenv("MEMTLB_SYSROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_arm64),
		cmocka_unit_test(test_no_arm_pmu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
